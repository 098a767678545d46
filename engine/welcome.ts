/** A new task's title, welcome message and starter suggestions. */
import type { Bundle } from '../src/contract/bundle';
import { MAX_STARTER_SUGGESTIONS } from '../src/lib/bundle/validate';
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
    suggestions:
      starters(compiled.bundle.general_settings?.starter_suggestions) ??
      otherToolNames(compiled, null).slice(0, MAX_STARTER_SUGGESTIONS),
  };
}

/** The starters the general settings name (non-empty texts, the first four), or undefined when none. */
function starters(configured: unknown): string[] | undefined {
  if (!Array.isArray(configured)) return undefined;
  const texts = configured
    .filter((s): s is string => typeof s === 'string' && s.trim() !== '')
    .map((s) => s.trim());
  return texts.length > 0 ? texts.slice(0, MAX_STARTER_SUGGESTIONS) : undefined;
}
