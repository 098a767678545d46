/**
 * The three shapes of an integration's `response_mapping` (docs/bundle/README.md, Integrations) read as one list of
 * entries, each copying a value of the response into a parameter:
 * - flat: `{"param-code": "path"}`;
 * - current: `{"entities": [{code, identifier, paths[], mappings: [{key, param}]}]}`, and
 *   `{"parameters": [{mappings: [{param, key?}]}], "entities": [], "resources": []}`;
 * - legacy: `{"<category>": [{name, paths[], mappings: [{key: [path...], param, ...}]}]}`.
 * A group's `paths` are base paths the keys are read under (none: the response itself). A key
 * given as a list is read as the segments of one path, then as alternative paths. A mapping
 * without a key reads the field named like its parameter. Shared by the validator (references,
 * with their exact `loc`) and the engine (reading the canned response).
 */
import type { Loc } from './issue-codes';

export interface MappingEntry {
  /** The parameter filled. */
  param: string;
  /** Where the parameter's name sits, relative to `response_mapping`. */
  loc: Loc;
  /** Base paths, tried in order ('' = the response itself). */
  bases: string[];
  /** Paths relative to a base, tried in order. */
  keys: string[];
  /** When a base holds a list: the element whose `identifierKey` field equals this parameter's value is read. */
  identifier?: { param: string; key: string; loc: Loc };
}

export interface MappingEntityRef {
  name: string;
  loc: Loc;
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const strings = (v: unknown): string[] =>
  Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];

function keyPaths(key: unknown, param: string): string[] {
  if (typeof key === 'string') return [key];
  const segments = strings(key);
  if (segments.length === 0) return [param];
  return segments.length === 1 ? segments : [segments.join('.'), ...segments];
}

/** Every entry of a response mapping, and the entities its groups name, in document order. */
export function readResponseMapping(mapping: unknown): {
  entries: MappingEntry[];
  entities: MappingEntityRef[];
} {
  const entries: MappingEntry[] = [];
  const entities: MappingEntityRef[] = [];
  if (!isObject(mapping)) return { entries, entities };
  for (const [category, value] of Object.entries(mapping)) {
    if (typeof value === 'string') {
      entries.push({ param: category, loc: [category], bases: [''], keys: [value] });
      continue;
    }
    if (!Array.isArray(value)) continue;
    value.forEach((group, i) => {
      if (!isObject(group)) return;
      if (category === 'entities' && typeof group.code === 'string')
        entities.push({ name: group.code, loc: [category, i, 'code'] });
      const bases = strings(group.paths);
      const mappings = Array.isArray(group.mappings) ? group.mappings : [];
      let identifier: MappingEntry['identifier'];
      if (typeof group.identifier === 'string') {
        const own = mappings.find((m) => isObject(m) && m.param === group.identifier);
        identifier = {
          param: group.identifier,
          key: isObject(own)
            ? (keyPaths(own.key, group.identifier)[0] ?? group.identifier)
            : group.identifier,
          loc: [category, i, 'identifier'],
        };
      }
      mappings.forEach((m, j) => {
        if (!isObject(m) || typeof m.param !== 'string') return;
        entries.push({
          param: m.param,
          loc: [category, i, 'mappings', j, 'param'],
          bases: bases.length ? bases : [''],
          keys: keyPaths(m.key, m.param),
          ...(identifier ? { identifier } : {}),
        });
      });
    });
  }
  return { entries, entities };
}
