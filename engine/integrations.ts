/**
 * Integrations, without the network: an API integration answers with its `test_curl_response`;
 * anything else with a deterministic stub. Outputs are read through `response_mapping`
 * (parameter → dot path; `list[0]` indexes, `list[key={{param}}]` finds an element).
 */
import type { Integration, RequestField } from '../src/contract/bundle';
import { readResponseMapping, type MappingEntry } from '../src/lib/bundle/response-mapping';
import { toEpochDay } from './clock';
import { epochDayToIso } from './clock';
import { fillTemplate } from './reply';
import { profileOrigin } from './provenance';
import type { CompiledBundle, Origin, Values } from './types';
import { isFilled, looseEquals, newValues, toBoolean, toNumber } from './values';

/**
 * How a call ended: it answered (`success`), it answered that what it looked for is not there
 * (`not_found`: a status 404, or none of the mapped fields in the response, as a lookup whose
 * record is missing), or it did not answer usefully (`failure`: an error reported, a status of
 * 400 or more, a required request field without a value, an integration not defined).
 */
export type CallResult = 'success' | 'not_found' | 'failure';

export interface IntegrationCall {
  code: string;
  result: CallResult;
  parameters: Values;
  /** Mapped outputs; undefined = not found (the value is cleared). */
  outputs: Record<string, unknown>;
  detail: string;
  /** What the reference engine did not run for this call (response_parser, a non-API call). */
  notRun: string[];
}

type Json = Record<string, unknown>;

export function readPath(root: unknown, path: string): unknown {
  let cur: unknown = root;
  const segments = path.match(/[^.[\]]+|\[[^\]]*\]/g) ?? [];
  for (const seg of segments) {
    if (cur === undefined || cur === null) return undefined;
    if (seg.startsWith('[')) {
      const inner = seg.slice(1, -1).trim();
      if (!Array.isArray(cur)) return undefined;
      const eq = inner.indexOf('=');
      if (eq > 0) {
        const key = inner.slice(0, eq).trim();
        const want = inner
          .slice(eq + 1)
          .trim()
          .replace(/^["']|["']$/g, '');
        cur = cur.find((el) => el && typeof el === 'object' && looseEquals((el as Json)[key], want));
      } else {
        cur = cur[Number(inner)];
      }
    } else if (Array.isArray(cur) && /^\d+$/.test(seg)) {
      cur = cur[Number(seg)];
    } else if (typeof cur === 'object') {
      cur = Object.prototype.hasOwnProperty.call(cur, seg) ? (cur as Json)[seg] : undefined;
    } else {
      return undefined;
    }
  }
  return cur;
}

/** A value read from a response, in the shape of its parameter's type. */
function coerce(compiled: CompiledBundle, code: string, v: unknown): unknown {
  const p = compiled.params.get(code);
  if (v === undefined || v === null || !p) return v ?? undefined;
  switch (p.type) {
    case 'numeric':
      return toNumber(v) ?? v;
    case 'boolean':
      return toBoolean(v) ?? v;
    case 'date': {
      const d = toEpochDay(v);
      return d === undefined ? v : epochDayToIso(d);
    }
    case 'enum': {
      const canonical = (p.values ?? []).find((x) => looseEquals(x, v));
      return canonical ?? v;
    }
    case 'string':
    case 'array':
    case 'list_of_objects':
    case 'object':
      return v;
  }
}

function failed(response: unknown): string | null {
  if (!response || typeof response !== 'object' || Array.isArray(response)) return null;
  const r = response as Json;
  if (r.status === 404) return null;
  if (r.error !== undefined && r.error !== null && r.error !== false)
    return `the response reports an error: ${JSON.stringify(r.error).slice(0, 120)}`;
  if (typeof r.status === 'number' && r.status >= 400) return `the response status is ${r.status}`;
  if (r.success === false || r.ok === false) return 'the response reports no success';
  return null;
}

/** A value in the shape a request field declares (STRING, NUMBER, BOOLEAN, ENUM; others as they are). */
function shapeField(field: RequestField, v: unknown): unknown {
  switch (typeof field.type === 'string' ? field.type.toUpperCase() : '') {
    case 'NUMBER':
      return toNumber(v) ?? v;
    case 'BOOLEAN':
      return toBoolean(v) ?? v;
    case 'STRING':
      return typeof v === 'number' || typeof v === 'boolean' ? String(v) : v;
    case 'ENUM':
      return (Array.isArray(field.values) ? field.values : []).find((x) => looseEquals(x, v)) ?? v;
    default:
      return v;
  }
}

/** The filled values of `codes`, as an object (undefined when none is filled). */
function valuesOf(codes: string[], values: Values): Json | undefined {
  const out: Json = {};
  for (const c of codes) if (isFilled(values[c])) out[c] = values[c];
  return Object.keys(out).length ? out : undefined;
}

/** One request field's value: from its parameters, else its entities, else its default. */
function fieldValue(compiled: CompiledBundle, field: RequestField, values: Values): unknown {
  const params = (field.params ?? []).filter((c): c is string => typeof c === 'string');
  const kind = typeof field.type === 'string' ? field.type.toUpperCase() : '';
  let v: unknown;
  if (params.length > 0) {
    if (kind === 'OBJECT') v = valuesOf(params, values);
    else if (kind === 'ARRAY') {
      const list = params.filter((c) => isFilled(values[c])).map((c) => values[c]);
      v = list.length ? list : undefined;
    } else v = params.map((c) => values[c]).find(isFilled);
  }
  const entities = (field.entities ?? []).filter((e): e is string => typeof e === 'string');
  if (v === undefined && entities.length > 0) {
    const objects = entities.map((name) => valuesOf(compiled.entities.get(name)?.parameters ?? [], values));
    v =
      entities.length === 1
        ? objects[0]
        : valuesOf(
            entities.filter((_, i) => objects[i] !== undefined),
            Object.fromEntries(entities.map((name, i) => [name, objects[i]])),
          );
  }
  if (v === undefined && field.default_value !== undefined && field.default_value !== null)
    v = field.default_value;
  return v === undefined ? undefined : shapeField(field, v);
}

/**
 * The request an integration is called with. A `request_schema` list builds one field per item
 * (a plain string item is a parameter code); a JSON Schema object names parameter codes as its
 * properties; without a schema, the tool's parameters are sent. `missing` lists required fields
 * that have no value.
 */
function buildRequest(
  compiled: CompiledBundle,
  schema: unknown,
  values: Values,
  fallbackParams: string[],
): { parameters: Values; missing: string[] } {
  const parameters = newValues();
  const missing: string[] = [];
  const fromCodes = (codes: string[]) => {
    for (const c of codes) if (isFilled(values[c])) parameters[c] = values[c];
  };
  if (Array.isArray(schema)) {
    for (const item of schema) {
      if (typeof item === 'string') fromCodes([item]);
      else if (item && typeof item === 'object' && typeof (item as RequestField).key === 'string') {
        const field = item as RequestField;
        const v = fieldValue(compiled, field, values);
        if (v !== undefined) parameters[field.key] = v;
        else if (field.required === true) missing.push(field.key);
      }
    }
  } else if (schema && typeof schema === 'object') {
    const s = schema as Json;
    const list = s.params ?? s.parameters;
    if (s.properties && typeof s.properties === 'object') fromCodes(Object.keys(s.properties));
    else if (Array.isArray(list)) fromCodes(list.filter((x): x is string => typeof x === 'string'));
    else fromCodes(fallbackParams);
  } else fromCodes(fallbackParams);
  return { parameters, missing };
}

/** The value a mapping entry reads from the response, or undefined. */
function readEntry(
  compiled: CompiledBundle,
  entry: MappingEntry,
  response: unknown,
  values: Values,
): unknown {
  const fill = (path: string) => (path.includes('{{') ? fillTemplate(path, values, compiled, '') : path);
  for (const base of entry.bases) {
    let root = base ? readPath(response, fill(base)) : response;
    if (Array.isArray(root) && !entry.keys.every((k) => k.startsWith('['))) {
      // A list of entities: the one whose identifier matches the conversation's value, else the first.
      const id = entry.identifier;
      const want = id ? values[id.param] : undefined;
      root = id && isFilled(want) ? root.find((el) => looseEquals(readPath(el, id.key), want)) : root[0];
    }
    for (const key of entry.keys) {
      const v = readPath(root, fill(key));
      if (v !== undefined) return v;
    }
  }
  return undefined;
}

/** What the reference engine does not run for an integration, said in its trace entry. */
function notRun(integration: Integration): string[] {
  const out: string[] = [];
  if (integration.type !== 'API')
    out.push(
      `${integration.type} call (not reached by the reference engine; answered from its canned response or a stub)`,
    );
  if (typeof integration.settings?.response_parser === 'string')
    out.push('response_parser (a JS snippet: never executed by the reference engine)');
  return out;
}

export function callIntegration(
  compiled: CompiledBundle,
  code: string,
  values: Values,
  fallbackParams: string[],
): IntegrationCall {
  const integration: Integration | undefined = compiled.integrations.get(code);
  const { parameters, missing } = buildRequest(
    compiled,
    integration?.settings?.request_schema,
    values,
    fallbackParams,
  );
  if (!integration)
    return {
      code,
      result: 'failure',
      parameters,
      outputs: {},
      detail: `integration ${code} is not defined`,
      notRun: [],
    };
  const skipped = notRun(integration);
  const settings = integration.settings ?? {};
  const canned = settings.test_curl_response;
  const source = canned !== undefined ? 'test_curl_response' : 'deterministic stub';
  const also = skipped.length ? `; not run: ${skipped.join('; ')}` : '';
  if (missing.length > 0)
    return {
      code,
      result: 'failure',
      parameters,
      outputs: {},
      detail: `${code}: required request field${missing.length > 1 ? 's' : ''} ${missing.join(', ')} ha${missing.length > 1 ? 've' : 's'} no value, so it was not called${also}`,
      notRun: skipped,
    };
  const response: unknown = canned !== undefined ? canned : { status: 'ok', integration: code };
  const outputs = newValues();
  const { entries } = readResponseMapping(settings.response_mapping);
  let found = 0;
  for (const entry of entries) {
    const v = coerce(compiled, entry.param, readEntry(compiled, entry, response, values));
    if (!isFilled(outputs[entry.param])) outputs[entry.param] = v;
    if (isFilled(v)) found++;
  }
  const error = failed(response);
  if (error)
    return {
      code,
      result: 'failure',
      parameters,
      outputs: {},
      detail: `${code} (${source}): ${error}${also}`,
      notRun: skipped,
    };
  const missing404 =
    !!response &&
    typeof response === 'object' &&
    !Array.isArray(response) &&
    (response as Json).status === 404;
  if (missing404 || (entries.length > 0 && found === 0))
    return {
      code,
      result: 'not_found',
      parameters,
      outputs,
      detail: `${code} (${source}): not found (${missing404 ? 'the response status is 404' : 'nothing found for the mapped fields'})${also}`,
      notRun: skipped,
    };
  return {
    code,
    result: 'success',
    parameters,
    outputs,
    detail: `${code} answered from its ${source}${entries.length ? `, ${found} of ${entries.length} fields mapped` : ''}${also}`,
    notRun: skipped,
  };
}

/**
 * Loads the user profile of the bundle: integrations that fill only user-profile parameters,
 * not loaded yet. Each value filled records its origin (`profile:<integration>`).
 */
export function loadProfile(
  compiled: CompiledBundle,
  values: Values,
  loaded: string[],
  origins: Record<string, Origin>,
): string[] {
  const done = [...loaded];
  for (const code of compiled.profileIntegrations) {
    if (done.includes(code)) continue;
    const call = callIntegration(compiled, code, values, []);
    for (const [param, v] of Object.entries(call.outputs))
      if (isFilled(v) && !isFilled(values[param])) {
        values[param] = v;
        origins[param] = profileOrigin(code);
      }
    done.push(code);
  }
  return done;
}
