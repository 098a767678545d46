/** `threadline validate`: a bundle file or an agent project folder checked, each problem placed in its file. */
import { plural } from '../src/lib/format';
import { checkBundle, describeProblem, type Problem } from './bundle-check';
import type { Io } from './io';
import { asksHelp, splitOptions } from './options';
import { VALIDATE_USAGE } from './usage';

/** Runs `validate …` (the arguments after the command); resolves to the exit status. */
export function validateMain(argv: readonly string[], io: Io): number {
  if (asksHelp(argv)) {
    io.out(`${VALIDATE_USAGE}\n`);
    return 0;
  }
  const split = splitOptions(argv, new Set());
  const usageError =
    'error' in split
      ? split.error
      : split.positional.length !== 1
        ? 'give exactly one bundle file or project folder'
        : null;
  if (usageError !== null || 'error' in split) {
    io.err(`threadline: ${usageError}\n\n${VALIDATE_USAGE}\n`);
    return 2;
  }
  const path = split.positional[0]!;
  let problems: Problem[];
  try {
    problems = checkBundle(path).problems;
  } catch (e) {
    io.err(`threadline: cannot read ${path}: ${e instanceof Error ? e.message : String(e)}\n`);
    return 2;
  }
  for (const p of problems) io.out(`${describeProblem(p)}\n`);
  const errors = problems.filter((p) => p.severity === 'error').length;
  const warnings = problems.length - errors;
  io.out(
    errors
      ? `${path} is not valid: ${plural(errors, 'error')}, ${plural(warnings, 'warning')}\n`
      : `${path} is valid${warnings ? ` (${plural(warnings, 'warning')})` : ''}\n`,
  );
  return errors ? 1 : 0;
}
