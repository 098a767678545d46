/**
 * Integrations, without the network: an API integration answers with its `test_curl_response`;
 * anything else with a deterministic stub. Outputs are read through `response_mapping`
 * (parameter → dot path; `list[0]` indexes, `list[key={{param}}]` finds an element).
 */
import type { Integration } from '../../src/contract/bundle';
import { toEpochDay } from './clock';
import { epochDayToIso } from './clock';
import { fillTemplate } from './reply';
import type { CompiledBundle, Values } from './types';
import { isFilled, looseEquals, toBoolean, toNumber } from './values';

export interface IntegrationCall {
  code: string;
  result: 'success' | 'failure';
  parameters: Values;
  /** Mapped outputs; undefined = not found (the value is cleared). */
  outputs: Record<string, unknown>;
  detail: string;
}

type Json = Record<string, unknown>;

/** Parameter codes an integration's request schema names, or null when it names none. */
function requestCodes(schema: unknown): string[] | null {
  if (Array.isArray(schema)) return schema.filter((x): x is string => typeof x === 'string');
  if (schema && typeof schema === 'object') {
    const s = schema as Json;
    if (s.properties && typeof s.properties === 'object') return Object.keys(s.properties);
    const list = s.params ?? s.parameters;
    if (Array.isArray(list)) return list.filter((x): x is string => typeof x === 'string');
  }
  return null;
}

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
export function coerce(compiled: CompiledBundle, code: string, v: unknown): unknown {
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
  if (r.error !== undefined && r.error !== null && r.error !== false)
    return `the response reports an error: ${JSON.stringify(r.error).slice(0, 120)}`;
  if (typeof r.status === 'number' && r.status >= 400) return `the response status is ${r.status}`;
  if (r.success === false || r.ok === false) return 'the response reports no success';
  return null;
}

export function callIntegration(
  compiled: CompiledBundle,
  code: string,
  values: Values,
  fallbackParams: string[],
): IntegrationCall {
  const integration: Integration | undefined = compiled.integrations.get(code);
  const parameters: Values = {};
  const codes = requestCodes(integration?.settings?.request_schema) ?? fallbackParams;
  for (const c of codes) if (isFilled(values[c])) parameters[c] = values[c];
  if (!integration)
    return { code, result: 'failure', parameters, outputs: {}, detail: `integration ${code} is not defined` };

  const settings = integration.settings ?? {};
  const canned = settings.test_curl_response;
  const response: unknown = canned !== undefined ? canned : { status: 'ok', integration: code };
  const source = canned !== undefined ? 'test_curl_response' : 'deterministic stub';
  const outputs: Record<string, unknown> = {};
  const mapping =
    settings.response_mapping && typeof settings.response_mapping === 'object'
      ? Object.entries(settings.response_mapping)
      : [];
  let found = 0;
  for (const [param, path] of mapping) {
    if (typeof path !== 'string') continue;
    const filled = path.includes('{{') ? fillTemplate(path, values, compiled, '') : path;
    const v = coerce(compiled, param, readPath(response, filled));
    outputs[param] = v;
    if (isFilled(v)) found++;
  }
  const error = failed(response);
  if (error)
    return { code, result: 'failure', parameters, outputs: {}, detail: `${code} (${source}): ${error}` };
  if (mapping.length > 0 && found === 0)
    return {
      code,
      result: 'failure',
      parameters,
      outputs,
      detail: `${code} (${source}): nothing found for the mapped fields`,
    };
  return {
    code,
    result: 'success',
    parameters,
    outputs,
    detail: `${code} answered from its ${source}${mapping.length ? `, ${found} of ${mapping.length} fields mapped` : ''}`,
  };
}

/** Loads the user profile: integrations that fill only user-profile parameters, not loaded yet. */
export function loadProfile(compiled: CompiledBundle, values: Values, loaded: string[]): string[] {
  const done = [...loaded];
  for (const code of compiled.profileIntegrations) {
    if (done.includes(code)) continue;
    const call = callIntegration(compiled, code, values, []);
    for (const [param, v] of Object.entries(call.outputs))
      if (isFilled(v) && !isFilled(values[param])) values[param] = v;
    done.push(code);
  }
  return done;
}
