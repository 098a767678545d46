/**
 * Where the values of a turn come from. Every value in the state records its origin, and the
 * state records the fingerprint of the bundle that produced it. When a turn runs with another
 * bundle than the previous turn (a client bundle, another version), only the values the user
 * gave in the conversation are carried over: profile values, integration answers and computed
 * values belong to the bundle that produced them and are produced again by the new one.
 */
import type { EngineStateShape, Origin, Values } from './types';
import { newValues } from './values';

export const CONVERSATION: Origin = 'conversation';
const COMPUTED: Origin = 'computed';
export const integrationOrigin = (code: string): Origin => `integration:${code}`;
export const profileOrigin = (code: string): Origin => `profile:${code}`;

/** What a change of bundle between two turns did to the state. */
export interface BundleChange {
  /** Fingerprint of the bundle the previous turn ran with. */
  from: string;
  /** Values the conversation produced, carried over. */
  kept: string[];
  /** Values the previous bundle produced, dropped. */
  dropped: string[];
}

/** The state a turn starts from with the bundle `fingerprint`, and the change made, if any. */
export function carryState(
  state: EngineStateShape,
  fingerprint: string,
): { state: EngineStateShape; change: BundleChange | null } {
  if (state.bundle === null || state.bundle === fingerprint) return { state, change: null };
  const values = newValues();
  const origins = Object.create(null) as Record<string, Origin>;
  const kept: string[] = [];
  const dropped: string[] = [];
  for (const [code, v] of Object.entries(state.values)) {
    if (state.origins[code] === CONVERSATION) {
      values[code] = v;
      origins[code] = CONVERSATION;
      kept.push(code);
    } else dropped.push(code);
  }
  // A confirmation given for what another bundle restated does not carry over, nor a sub-tool
  // that ran under it (its answers are dropped: it runs again with the new bundle).
  const pending = state.pending && {
    tool: state.pending.tool,
    awaiting: state.pending.awaiting,
    asked: state.pending.asked,
    resume: state.pending.resume,
  };
  return {
    state: { values, pending, profile_loaded: [], bundle: fingerprint, origins },
    change: { from: state.bundle, kept, dropped },
  };
}

/** Records `origin` for every code in `codes` that holds a value, and forgets cleared ones. */
export function markOrigins(
  origins: Record<string, Origin>,
  values: Values,
  codes: Iterable<string>,
  origin: Origin,
): void {
  for (const code of codes) {
    if (code in values) origins[code] = origin;
    else delete origins[code];
  }
}

/** The origins of the values at the end of a turn: values set by no one else were computed. */
export function finalOrigins(origins: Record<string, Origin>, values: Values): Record<string, Origin> {
  const out = Object.create(null) as Record<string, Origin>;
  for (const code of Object.keys(values)) out[code] = origins[code] ?? COMPUTED;
  return out;
}
