/**
 * What an integration's answer depends on, for the regions: a value it looks records up by (an
 * identifier, or a `{{param}}` in a path) is compared by equality with the canned answer's values,
 * so each of those values is a region of its own (and "any other"); a request field it requires
 * makes the value's presence matter. The engine never reaches the network: the canned answer is
 * all there is to match.
 */
import { placeholders } from '../../src/lib/bundle/placeholders';
import { readResponseMapping } from '../../src/lib/bundle/response-mapping';
import type { CompiledBundle } from '../types';

/** At most this many values of a canned answer are taken as regions. */
const MAX_ANSWER_VALUES = 100;

export interface IntegrationReads {
  /** Parameter code → the canned answers' values it is matched against. */
  matched: Map<string, (string | number)[]>;
  /** Parameters whose presence the requests read. */
  present: string[];
}

function primitives(root: unknown, out: (string | number)[]): void {
  const stack = [root];
  let steps = 0;
  while (stack.length > 0 && out.length < MAX_ANSWER_VALUES && steps++ < 10_000) {
    const x = stack.pop();
    if (typeof x === 'string' && x.length <= 200) out.push(x);
    else if (typeof x === 'number' && Number.isFinite(x)) out.push(x);
    else if (Array.isArray(x)) stack.push(...x);
    else if (x && typeof x === 'object') stack.push(...Object.values(x));
  }
}

function requestCodes(schema: unknown): string[] {
  const out: string[] = [];
  if (Array.isArray(schema)) {
    for (const item of schema) {
      if (typeof item === 'string') out.push(item);
      else if (item && typeof item === 'object') {
        const params = (item as { params?: unknown }).params;
        if (Array.isArray(params)) out.push(...params.filter((p): p is string => typeof p === 'string'));
      }
    }
  } else if (schema && typeof schema === 'object') {
    const s = schema as Record<string, unknown>;
    if (s.properties && typeof s.properties === 'object') out.push(...Object.keys(s.properties));
    const list = s.params ?? s.parameters;
    if (Array.isArray(list)) out.push(...list.filter((p): p is string => typeof p === 'string'));
  }
  return out;
}

export function integrationReads(compiled: CompiledBundle, codes: Iterable<string>): IntegrationReads {
  const matched = new Map<string, (string | number)[]>();
  const present: string[] = [];
  for (const code of new Set(codes)) {
    const settings = compiled.integrations.get(code)?.settings;
    if (!settings) continue;
    present.push(...requestCodes(settings.request_schema));
    const keyed = new Set<string>();
    for (const entry of readResponseMapping(settings.response_mapping).entries) {
      if (entry.identifier) keyed.add(entry.identifier.param);
      for (const path of [...entry.bases, ...entry.keys]) for (const p of placeholders(path)) keyed.add(p);
    }
    if (keyed.size === 0) continue;
    const values: (string | number)[] = [];
    primitives(settings.test_curl_response, values);
    for (const p of keyed) matched.set(p, [...(matched.get(p) ?? []), ...values]);
  }
  return { matched, present };
}
