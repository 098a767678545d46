/** `threadline lint` and `threadline diff`: the engine's analysis of bundles on disk, for people and CI. */
import type { Bundle } from '../src/contract/bundle';
import { diffBundles, lintBundle } from '../engine/analysis';
import { WorkBudgetExceeded } from '../src/lib/bundle/work-budget';
import { parseAnalysisArgs } from './analysis-args';
import { diffText, lintText } from './analysis-report';
import { readBundle } from './bundle-check';
import type { Io } from './io';

/** Runs `lint …` or `diff …`; resolves to the exit status. */
export function analysisMain(argv: readonly string[], io: Io, now: () => Date = () => new Date()): number {
  const parsed = parseAnalysisArgs(argv);
  if (parsed.ok === 'help') {
    io.out(`${parsed.usage}\n`);
    return 0;
  }
  if (!parsed.ok) {
    io.err(`threadline: ${parsed.error}\n\n${parsed.usage}\n`);
    return 2;
  }
  const { args } = parsed;
  const paths = args.command === 'lint' ? [args.bundle] : [args.base, args.head];
  const bundles: Bundle[] = [];
  const errors: string[] = [];
  for (const path of paths) {
    const read = readBundle(path);
    if ('errors' in read) errors.push(...read.errors);
    else {
      bundles.push(read.bundle);
      for (const line of read.ignored) io.err(`threadline: ${line}\n`);
    }
  }
  if (errors.length) {
    io.err(`threadline: nothing was analysed:\n${errors.map((e) => `  ${e}`).join('\n')}\n`);
    return 2;
  }
  const clock = args.clock ?? now().toISOString();
  try {
    if (args.command === 'lint') {
      const result = lintBundle(bundles[0]!, { clock });
      io.out(args.reporter === 'json' ? `${JSON.stringify(result, null, 2)}\n` : lintText(result));
      return result.findings.some((f) => f.severity === 'error') ? 1 : 0;
    }
    const result = diffBundles(bundles[0]!, bundles[1]!, { clock });
    io.out(args.reporter === 'json' ? `${JSON.stringify(result, null, 2)}\n` : diffText(result));
    return result.equivalent ? 0 : 1;
  } catch (e) {
    if (!(e instanceof WorkBudgetExceeded)) throw e;
    io.err(`threadline: the bundle is too complex to analyse: ${e.message}\n`);
    return 2;
  }
}
