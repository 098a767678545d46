/**
 * The engine's interface to the service. The engine is pure and deterministic: the same input
 * gives the same output, byte for byte (the caller adds wall-clock latency to the trace).
 */
import type { Bundle } from '../src/contract/bundle';
import type { Trace } from '../src/contract/trace';

/** JSON-serialisable conversation state between turns; opaque to the service, stored per turn. */
export type EngineState = Record<string, unknown>;

export interface TurnInput {
  /** A bundle that passed validation (aliases not yet normalised). */
  bundle: Bundle;
  /** The state after the previous turn, or `initialState(...)` for the first turn. */
  state: EngineState;
  /** The user's message. */
  text: string;
  /** The task's clock (ISO-8601): its creation time; a rerun branch inherits its origin's clock. */
  clock: string;
  /** The message id; becomes `trace.interaction_id`. */
  interactionId: string;
  userId: string;
}

export interface TurnOutput {
  reply: string;
  suggestions: string[];
  /** Every spec field plus the richer ones (all but `latency`, which the service measures). */
  trace: Trace;
  state: EngineState;
}

export interface Welcome {
  title: string;
  welcome_message: string;
  suggestions: string[];
}

export interface Engine {
  initialState(bundle: Bundle, clock: string, userId: string): EngineState;
  welcome(bundle: Bundle, clock: string): Welcome;
  runTurn(input: TurnInput): TurnOutput;
}
