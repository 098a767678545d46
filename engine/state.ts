/** The engine's state between turns (JSON, opaque to the service), read defensively. */
import type { EngineState } from './contract';
import type { Awaiting, EngineStateShape, Origin, Pending, Values } from './types';
import { newValues } from './values';

const AWAITING: Awaiting[] = ['information', 'confirmation', 'blocked', 'retry'];
const strings = (x: unknown): string[] =>
  Array.isArray(x) ? x.filter((s): s is string => typeof s === 'string') : [];

function readPending(x: unknown): Pending | null {
  if (!x || typeof x !== 'object') return null;
  const p = x as Record<string, unknown>;
  if (typeof p.tool !== 'string' || !AWAITING.includes(p.awaiting as Awaiting)) return null;
  return {
    tool: p.tool,
    awaiting: p.awaiting as Awaiting,
    asked: strings(p.asked),
    resume: strings(p.resume),
    ...(typeof p.snapshot === 'string' ? { snapshot: p.snapshot } : {}),
    ...(Array.isArray(p.confirming) ? { confirming: strings(p.confirming) } : {}),
    ...(Array.isArray(p.done) ? { done: strings(p.done) } : {}),
  };
}

function readOrigins(x: unknown, values: Values): Record<string, Origin> {
  const out = Object.create(null) as Record<string, Origin>;
  const given = x && typeof x === 'object' && !Array.isArray(x) ? (x as Record<string, unknown>) : null;
  for (const code of Object.keys(values)) {
    const o = given && Object.prototype.hasOwnProperty.call(given, code) ? given[code] : undefined;
    out[code] = typeof o === 'string' ? o : 'unrecorded';
  }
  return out;
}

export function readState(state: EngineState | null | undefined): EngineStateShape {
  const s = (state && typeof state === 'object' ? state : {}) as Record<string, unknown>;
  const values = newValues(
    s.values && typeof s.values === 'object' && !Array.isArray(s.values) ? (s.values as Values) : undefined,
  );
  return {
    values,
    pending: readPending(s.pending),
    profile_loaded: strings(s.profile_loaded),
    bundle: typeof s.bundle === 'string' ? s.bundle : null,
    origins: readOrigins(s.origins, values),
  };
}

export function writeState(s: EngineStateShape): EngineState {
  return {
    values: s.values,
    pending: s.pending,
    profile_loaded: s.profile_loaded,
    bundle: s.bundle,
    origins: { ...s.origins },
  };
}
