import { describe, expect, it } from 'vitest';
import {
  CONDITION_METHODS,
  CONDITION_OPERATIONS,
  LEGACY_CONDITION_METHODS,
  PARAMETER_TYPES,
  RULE_ACTIONS,
} from '../../contract/bundle';
import { bundleJsonSchema } from './json-schema';

type Node = Record<string, unknown>;

/** Every sub-schema, with a readable path, found by walking the whole document. */
function walk(node: unknown, path: string, visit: (n: Node, path: string) => void): void {
  if (Array.isArray(node)) {
    node.forEach((x, i) => walk(x, `${path}[${i}]`, visit));
    return;
  }
  if (typeof node !== 'object' || node === null) return;
  visit(node as Node, path);
  for (const [k, v] of Object.entries(node)) walk(v, `${path}/${k}`, visit);
}

function enumsOf(schema: unknown): unknown[][] {
  const found: unknown[][] = [];
  walk(schema, '', (n) => {
    if (Array.isArray(n.enum)) found.push(n.enum);
  });
  return found;
}

describe('bundleJsonSchema', () => {
  const schema = bundleJsonSchema();

  it('is a draft-07 object schema', () => {
    expect(schema.$schema).toBe('http://json-schema.org/draft-07/schema#');
    expect(schema.type).toBe('object');
  });

  it('describes every field, for the editor hover', () => {
    const undescribed: string[] = [];
    walk(schema, '#', (n, path) => {
      const properties = n.properties as Record<string, Node> | undefined;
      if (!properties || typeof properties !== 'object') return;
      for (const [key, sub] of Object.entries(properties)) {
        if (typeof sub.description !== 'string' || sub.description.length === 0)
          undescribed.push(`${path}/properties/${key}`);
      }
    });
    expect(undescribed).toEqual([]);
  });

  it('keeps the descriptions written in the contract', () => {
    const params = (schema.properties as Record<string, Node>).parameters!;
    const code = ((params.items as Node).properties as Record<string, Node>).code!;
    expect(code.description).toBe('Unique kebab-case code, e.g. transaction-date.');
  });

  it('offers actions, parameter types, condition methods (with the legacy ones) and operations as enums', () => {
    const enums = enumsOf(schema);
    const has = (values: readonly string[]) => enums.some((e) => values.every((v) => e.includes(v)));
    expect(has(RULE_ACTIONS)).toBe(true);
    expect(has(PARAMETER_TYPES)).toBe(true);
    expect(has([...CONDITION_METHODS, ...LEGACY_CONDITION_METHODS])).toBe(true);
    expect(has(CONDITION_OPERATIONS)).toBe(true);
  });

  it('resolves every $ref inside the document', () => {
    const broken: string[] = [];
    walk(schema, '#', (n) => {
      if (typeof n.$ref !== 'string') return;
      const target = n.$ref
        .replace(/^#\//, '')
        .split('/')
        .reduce<unknown>((cur, seg) => (cur as Node | undefined)?.[seg], schema);
      if (target === undefined) broken.push(n.$ref);
    });
    expect(broken).toEqual([]);
  });

  it('lets a sub-entity be a name or a whole entity, nested to any depth (docs/bundle/README.md)', () => {
    const resolve = (n: Node): Node =>
      typeof n.$ref === 'string'
        ? (n.$ref
            .replace(/^#\//, '')
            .split('/')
            .reduce<unknown>((cur, seg) => (cur as Node)[seg], schema) as Node)
        : n;
    const entities = (schema.properties as Record<string, Node>).entities!;
    const entity = resolve(entities.items as Node);
    const subs = (entity.properties as Record<string, Node>).sub_entities!;
    const alternatives = ((subs.items as Node).anyOf as Node[]).map(resolve);
    expect(alternatives.some((a) => a.type === 'string')).toBe(true);
    // the object alternative is the entity itself, so it nests again
    expect(alternatives.find((a) => a.type === 'object')).toBe(entity);
  });

  it('describes the request fields, response mappings and activated tools of real projects', () => {
    const text = JSON.stringify(schema);
    for (const field of [
      'request_schema',
      'default_value',
      'value_source',
      'response_parser',
      'guidelines',
      'identifier',
    ])
      expect(text).toContain(`"${field}"`);
  });

  it("hands out copies, so one caller cannot change another one's schema", () => {
    const a = bundleJsonSchema();
    a.type = 'string';
    expect(bundleJsonSchema().type).toBe('object');
  });
});
