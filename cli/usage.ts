/**
 * What `threadline --help` and `threadline help <command>` print. Plain text and nothing else, so
 * that asking for help loads no engine.
 */

export const USAGE = `Usage: threadline <command> [arguments] [options]

Commands:
  test <suite folder or case file>     run conversation test cases (every *.case.json below the folder)
  validate <bundle file or folder>     check a bundle (a JSON file, or an agent project folder)
  lint <bundle file or folder>         find dead, always-holding, shadowed and conflicting rules
  diff <base> <head>                   what changes from one bundle to another, region by region
  help <command>                       the usage of one command

Options:
  --help, -h                           this text (after a command: that command's usage)
  --version                            the version of threadline

Exit status: 0 success, 1 a failing case, an invalid bundle, a finding or a difference, 2 a usage
error or an input that cannot be used (nothing is run).`;

export const TEST_USAGE = `Usage: threadline test <suite folder or case file> [options]

Runs every *.case.json below the folder (its subfolders too, except hidden ones and node_modules;
an agent project folder finds the cases of its tests/ folder), or the one case file given, and
checks each turn against its expectations. Each case is reported as it finishes, in file order.

Options:
  --bundle <file or folder>  run with this bundle (a bundle JSON file, or an agent project folder
                             of *.aui.json files) instead of each case's agent version
  --server <url>             run through this Messaging API service instead of the embedded engine
  --key-env <VAR>            with --server: the environment variable holding the API key
  --reporter <name>          text (default), json or junit
  --output <file>            write the report to this file (a one-line summary goes to stdout)
  --concurrency <n>          cases run at the same time (default 4)

Exit status: 0 when every expectation holds, 1 when one fails or a case cannot run, 2 for a usage
error, an invalid case or an invalid bundle.`;

export const VALIDATE_USAGE = `Usage: threadline validate <bundle file or project folder>

Checks a bundle as the service and the editor do: the JSON, the schema and the references between
its parts (for a project folder, the assembly of its *.aui.json files too). Prints one line per
problem, file:line:column: severity: where in the bundle: message.

Exit status: 0 when the bundle is valid (warnings allowed), 1 when it is not, 2 for a usage error
or a path that cannot be read.`;

export const LINT_USAGE = `Usage: threadline lint <bundle file or project folder> [options]

Finds the bundle's dead, always-holding, shadowed and conflicting rules and unreachable messages,
each proven by the engine with a witness (the tool, values and clock that show it).

Options:
  --reporter <name>  text (default) or json (the lint response)
  --clock <ISO>      the conversation clock day windows count from (default: now),
                     e.g. 2025-03-01T12:00:00Z

Exit status: 0 when no finding is an error, 1 when one is, 2 for a usage error or a bundle that
does not validate.`;

export const DIFF_USAGE = `Usage: threadline diff <base> <head> [options]

What changes from base to head (bundle files or project folders of one agent), region by region:
each region of values the tools' rules tell apart that the two decide differently, with a witness.

Options:
  --reporter <name>  text (default) or json (the diff result)
  --clock <ISO>      the conversation clock day windows count from (default: now)

Exit status: 0 when the two are equivalent, 1 when a decision differs (or equivalence could not be
proved within the analysis's limits), 2 for a usage error or a bundle that does not validate.`;

/** Each command's usage, by name. */
export const COMMAND_USAGE: Readonly<Record<string, string>> = Object.freeze(
  Object.assign(Object.create(null) as Record<string, string>, {
    test: TEST_USAGE,
    validate: VALIDATE_USAGE,
    lint: LINT_USAGE,
    diff: DIFF_USAGE,
    help: 'Usage: threadline help <command>\n\nPrints the usage of one command (test, validate, lint, diff).',
  }),
);
