/**
 * The semantic diff's recorded turns at scale (`recorded` of `POST /reference/v1/diff`): on a
 * store of `--turns` generated turns (default 1,000,000, SQLite; `lib/generated-turns.ts`, the
 * same store as `turn-search.ts`, so `--keep DIR` of either serves both), each difference's count
 * as the service makes it (`countRecordedTurns`: the region's turn search, then the store's exact
 * count) timed `--reps` times after one warm-up (min and median), for regions of one and two
 * bounds, a value and an unknown value, since the start of the store's year and since its middle.
 *
 *   npx tsx bench/analysis-recorded.ts [--turns 1000000] [--reps 5] [--keep DIR]
 *
 * Prints a Markdown table, and one `RESULT {json}` line. Target: each count ≤ 1 s.
 */
import type { DiffResult, RegionPart } from '../src/contract/analysis';
import { countRecordedTurns } from '../server/service/recorded-turns';
import { argValue, numberArg } from '../tools/lib/args';
import { machine, today } from '../tools/lib/machine';
import { samples, sqliteStoreOf, timed } from './lib/generated-turns';

const TURNS = numberArg('turns', 1_000_000);
const REPS = numberArg('reps', 5);

const outcome = { decision: 'proceed', rules: [], tools_invoked: [], reply: '' };
/** A diff result of one difference of DISPUTE_CHARGE in a region of these parts. */
const differenceIn = (words: string, parts: RegionPart[]): DiffResult => ({
  equivalent: false,
  differences: [
    {
      tool: 'DISPUTE_CHARGE',
      region: { words, parts },
      points: 1,
      before: outcome,
      after: { ...outcome, decision: 'block_with_explanation' },
      witness: { tool: 'DISPUTE_CHARGE', clock: '2025-03-15T12:00:00Z', values: {} },
    },
  ],
  capped: false,
  not_analysed: [],
  regions: 1,
});

const amount = (extra: Partial<RegionPart>): RegionPart => ({
  param: 'transaction-amount',
  axis: 'number',
  words: 'amount',
  ...extra,
});

const REGIONS: [string, RegionPart[]][] = [
  ['amount > 500 and ≤ 1000', [amount({ min: 500, max: 1000, max_inclusive: true })]],
  ['amount ≥ 900 (1 turn in 10)', [amount({ min: 900, min_inclusive: true })]],
  [
    'amount ≤ 200 and merchant Coffee Corner',
    [
      amount({ max: 200, max_inclusive: true }),
      { param: 'merchant-name', axis: 'value', words: 'merchant', one_of: ['Coffee Corner'] },
    ],
  ],
  [
    'amount ≤ 500 and dispute reason unknown',
    [
      amount({ max: 500, max_inclusive: true }),
      { param: 'dispute-reason', axis: 'value', words: 'reason', unknown: true },
    ],
  ],
];
const SINCE: [string, string][] = [
  ['the whole year', '2025-01-01T00:00:00Z'],
  ['its second half', '2025-07-01T00:00:00Z'],
];

const { store, fillMs, done } = await sqliteStoreOf(samples(), TURNS, argValue('keep'));
try {
  const rows: { measure: string; count: number; min: number; median: number }[] = [];
  for (const [words, parts] of REGIONS)
    for (const [period, since] of SINCE) {
      let count = -1;
      const time = await timed(REPS, async () => {
        const result = differenceIn(words, parts);
        await countRecordedTurns(store, 'card-disputes', since, result);
        const recorded = result.differences[0]!.recorded;
        if (!recorded) throw new Error(`not counted: ${JSON.stringify(result.not_analysed)}`);
        count = recorded.count;
      });
      rows.push({ measure: `${words}, since ${period}`, count, ...time });
    }
  console.log(
    `\n${today()}, ${machine()}; sqlite, ${TURNS.toLocaleString('en')} turns (written in ${(fillMs / 1000).toFixed(0)} s), ${REPS} repetitions\n`,
  );
  console.log('| recorded count | turns counted | min ms | median ms |\n|---|---|---|---|');
  for (const r of rows)
    console.log(
      `| ${r.measure} | ${r.count.toLocaleString('en')} | ${r.min.toFixed(0)} | ${r.median.toFixed(0)} |`,
    );
  console.log(`RESULT ${JSON.stringify({ turns: TURNS, reps: REPS, rows })}`);
} finally {
  await done();
}
