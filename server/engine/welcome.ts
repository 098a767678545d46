/** A new task's title, welcome message and starter suggestions. */
import type { Bundle } from '../../src/contract/bundle';
import { compileBundle } from './compile';
import type { Welcome } from './contract';
import { generalText } from './reply';
import { otherToolNames } from './suggestions';

export function welcome(bundle: Bundle, _clock: string): Welcome {
  const compiled = compileBundle(bundle);
  const configured = compiled.bundle.general_settings?.welcome_message;
  const text =
    typeof configured === 'string' && configured.trim()
      ? configured.trim()
      : `Hello! ${generalText(compiled)}`;
  return {
    title: compiled.name,
    welcome_message: text,
    suggestions: otherToolNames(compiled, null).slice(0, 4),
  };
}
