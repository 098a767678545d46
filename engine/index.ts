/**
 * The reference engine: pure and deterministic. The same bundle, state, message and clock give
 * the same reply and trace, byte for byte. See README.md for the pipeline.
 */
import type { Bundle } from '../src/contract/bundle';
import type { Engine, EngineState, TurnInput, TurnOutput } from './contract';
import { writeState } from './state';
import { guardedTurn } from './guard';
import { newValues } from './values';
import { welcome } from './welcome';

/**
 * A new task's state: empty. The profile is loaded by the first turn, from the bundle that turn
 * runs with (which may be a client's bundle rather than the task's agent's).
 */
function initialState(_bundle: Bundle, _clock: string, _userId: string): EngineState {
  return writeState({
    values: newValues(),
    pending: null,
    profile_loaded: [],
    bundle: null,
    origins: Object.create(null) as Record<string, string>,
  });
}

export const engine: Engine = {
  initialState,
  welcome,
  runTurn: (input: TurnInput): TurnOutput => guardedTurn(input),
};

export type { Engine, EngineState, TurnInput, TurnOutput, Welcome } from './contract';
