/**
 * Understandings remembered, in a bounded cache in each thread that runs the engine: a message
 * read again with the same inputs is not parsed again. The impact preview replays a suite with
 * the baseline, then with each draft; a draft that leaves the parameters alone reads every message
 * as the baseline did.
 *
 * `understand` is a pure function of exactly these inputs, and the key holds every one of them:
 * - the parameters the user may supply (`compiled.inputParams`, the only part of the bundle it
 *   reads), every field of each and their order, as the SHA-256 of their JSON text;
 * - the message, whole;
 * - the clock (its instant and day);
 * - the context: the parameters expected, preferred and already given, in order.
 * It reads nothing else: no other state (its one module-level memo, `infoOf`, is keyed by the
 * parameter itself), not the machine's time zone (dates are read against the given instant in
 * UTC). The parameters' JSON text stands for them only when it is all there is to them: plain
 * JSON data, as in any bundle parsed from JSON (no -0, no non-finite numbers, no holes, getters
 * or other objects); otherwise nothing is remembered for them.
 *
 * A remembered understanding costs the turn's work budget the steps its first reading spent, so a
 * turn goes over its budget exactly where it would have; outside a budget nothing is remembered.
 */
import type { Parameter } from '../../src/contract/bundle';
import { sha256Hex } from '../../src/lib/bundle/hash';
import { spend, stepsLeft } from '../../src/lib/bundle/work-budget';
import type { Clock } from '../clock';
import { jsonLength } from '../output-size';
import type { CompiledBundle, Values } from '../types';
import { newValues } from '../values';
import { understand, type UnderstandContext, type Understanding } from './index';

/** The most understandings kept, and the most characters their keys and values hold. */
const REMEMBERED_LIMITS = { entries: 20_000, chars: 8_000_000 } as const;
/** Deeper parameters than this are not remembered (a bundle's JSON is far shallower). */
const MAX_DEPTH = 64;

interface Remembered {
  values: Values;
  /** The work steps the first reading spent. */
  steps: number;
  chars: number;
}

const entries = new Map<string, Remembered>();
let chars = 0;
const paramsKeys = new WeakMap<readonly Parameter[], string | null>();

/** Whether `value` is exactly what its JSON text says: JSON.parse of that text gives it back. */
function isJsonData(value: unknown, depth = 0): boolean {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return true;
  if (typeof value === 'number') return Number.isFinite(value) && !Object.is(value, -0);
  if (typeof value !== 'object' || depth > MAX_DEPTH) return false;
  const list = Array.isArray(value);
  const proto = Object.getPrototypeOf(value) as unknown;
  if (list ? proto !== Array.prototype : proto !== Object.prototype && proto !== null) return false;
  if (list && Object.keys(value).length !== value.length) return false;
  for (const name of Reflect.ownKeys(value)) {
    if (list && name === 'length') continue;
    const d = Object.getOwnPropertyDescriptor(value, name)!;
    if (typeof name === 'symbol' || !d.enumerable || !('value' in d) || !isJsonData(d.value, depth + 1))
      return false;
  }
  return true;
}

function paramsKey(params: readonly Parameter[]): string | null {
  let key = paramsKeys.get(params);
  if (key === undefined) {
    key = isJsonData(params) ? sha256Hex(JSON.stringify(params)) : null;
    paramsKeys.set(params, key);
  }
  return key;
}

function remember(key: string, entry: Remembered): void {
  entries.set(key, entry);
  chars += entry.chars;
  while (entries.size > REMEMBERED_LIMITS.entries || chars > REMEMBERED_LIMITS.chars) {
    const [oldest, dropped] = entries.entries().next().value!;
    entries.delete(oldest);
    chars -= dropped.chars;
  }
}

/** `understand`, remembered: the same values, and the same work steps spent. */
export function understandRemembered(
  compiled: CompiledBundle,
  text: string,
  clock: Clock,
  ctx: UnderstandContext,
): Understanding {
  const params = paramsKey(compiled.inputParams);
  const left = stepsLeft();
  if (params === null || left === null) return understand(compiled, text, clock, ctx);
  const context = JSON.stringify([ctx.expected, ctx.preferred, ctx.given ?? []]);
  const key = `${params}\u0000${clock.instant}\u0000${clock.day}\u0000${context}\u0000${text}`;
  const hit = entries.get(key);
  if (hit) {
    entries.delete(key);
    entries.set(key, hit);
    spend(hit.steps);
    return { values: newValues(hit.values) };
  }
  const understood = understand(compiled, text, clock, ctx);
  const values = newValues(understood.values);
  remember(key, {
    values,
    steps: left - stepsLeft()!,
    chars: key.length + jsonLength(values, REMEMBERED_LIMITS.chars),
  });
  return understood;
}
