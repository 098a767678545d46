/**
 * The reference engine: pure and deterministic. The same bundle, state, message and clock give
 * the same reply and trace, byte for byte. See README.md for the pipeline.
 */
import type { Bundle } from '../../src/contract/bundle';
import { compileBundle } from './compile';
import type { Engine, EngineState, TurnInput, TurnOutput } from './contract';
import { loadProfile } from './integrations';
import { writeState } from './state';
import { guardedTurn } from './guard';
import { newValues } from './values';
import { welcome } from './welcome';

function initialState(bundle: Bundle, _clock: string, _userId: string): EngineState {
  const compiled = compileBundle(bundle);
  const values = newValues();
  const loaded = loadProfile(compiled, values, []);
  return writeState({ values, pending: null, profile_loaded: loaded });
}

export const engine: Engine = {
  initialState,
  welcome,
  runTurn: (input: TurnInput): TurnOutput => guardedTurn(input),
};

export type { Engine, EngineState, TurnInput, TurnOutput, Welcome } from './contract';
