/** A command's arguments split into its options (each with its value) and its positional arguments. */

export type SplitArguments = { values: Map<string, string>; positional: string[] } | { error: string };

/**
 * `--flag value` and `--flag=value` for the flags in `valued`; anything else starting with `-` is
 * an unknown option (named in the error), and `--` ends the options.
 */
export function splitOptions(argv: readonly string[], valued: ReadonlySet<string>): SplitArguments {
  const values = new Map<string, string>();
  const positional: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--') {
      positional.push(...argv.slice(i + 1));
      break;
    }
    if (!a.startsWith('-') || a === '-') {
      positional.push(a);
      continue;
    }
    const eq = a.indexOf('=');
    const flag = eq === -1 ? a : a.slice(0, eq);
    if (!valued.has(flag)) return { error: `unknown option ${flag}` };
    if (values.has(flag)) return { error: `${flag} is given twice` };
    const value = eq === -1 ? argv[++i] : a.slice(eq + 1);
    if (value === undefined || value === '') return { error: `${flag} needs a value` };
    values.set(flag, value);
  }
  return { values, positional };
}

/** Whether the arguments ask for the command's usage. */
export const asksHelp = (argv: readonly string[]) => argv.includes('--help') || argv.includes('-h');
