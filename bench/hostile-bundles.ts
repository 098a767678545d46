/**
 * Hostile bundles: how long one request's validation and one turn hold the event loop.
 * Run: npx tsx bench/hostile-bundles.ts [--runs N] [--only name,name]
 *
 * - unclosed-placeholder: a rule message of "{{" and 4,000 spaces (8 KB)
 * - near-miss-names: a 25,000-character parameter code referenced by a 25,000-character
 *   near miss (50 KB), so "did you mean" compares the two
 * - prototype-formulas: 2,000 computed parameters named like Object.prototype members
 *   (`toString`, `constructor`, ...) whose formulas read a value not known yet, and a tool
 *   requiring them
 *
 * Each case is validated (as the service does for a client's bundle) and, when the service
 * would run it, one turn is run. Times are wall-clock per call, in milliseconds.
 */
import { performance } from 'node:perf_hooks';
import { validateBundle } from '../src/lib/bundle/validate';
import { engine } from '../engine';
import { machine, today } from '../tools/lib/machine';

const CLOCK = '2025-03-15T10:00:00Z';

const tool = (extra: Record<string, unknown> = {}) => ({
  code: 'FILE_CLAIM',
  name: 'File a claim',
  main_tool: true,
  ...extra,
});

export const HOSTILE: Record<string, () => Record<string, unknown>> = {
  'unclosed-placeholder': () => ({
    general_settings: { name: 'Hostile' },
    parameters: [{ code: 'amount', type: 'numeric' }],
    agent_tools: [
      tool({
        rules: {
          pre: {
            constraint: [{ when: null, then: { action: 'TEXT', message: `{{${' '.repeat(4000)}` } }],
          },
        },
      }),
    ],
  }),
  'near-miss-names': () => {
    const code = 'a'.repeat(25_000);
    return {
      general_settings: { name: 'Hostile' },
      parameters: [{ code, type: 'string' }],
      agent_tools: [tool({ config: { params: { required: [`${code.slice(1)}b`] } } })],
    };
  },
  'prototype-formulas': () => {
    const names = Object.getOwnPropertyNames(Object.prototype);
    const parameters = Array.from({ length: 2000 }, (_, i) => {
      const code = i < names.length ? names[i]! : `${names[i % names.length]}-${i}`;
      return { code, type: 'numeric', usage: 'computed', computation: `{{reference}} + ${i}` };
    });
    return {
      general_settings: { name: 'Hostile' },
      parameters: [{ code: 'amount', type: 'numeric' }, { code: 'reference', type: 'string' }, ...parameters],
      agent_tools: [tool({ config: { params: { required: ['amount', ...names] } } })],
    };
  },
};

function time(fn: () => unknown): number {
  const started = performance.now();
  fn();
  return performance.now() - started;
}

function stats(xs: number[]) {
  const sorted = [...xs].sort((a, b) => a - b);
  return { min: sorted[0]!, median: sorted[Math.floor(sorted.length / 2)]! };
}

const fmt = (ms: number) => (ms >= 1000 ? `${(ms / 1000).toFixed(1)} s` : `${ms.toFixed(2)} ms`);

function main() {
  const args = process.argv.slice(2);
  const runsArg = args.indexOf('--runs');
  const runs = runsArg === -1 ? 5 : Number(args[runsArg + 1]);
  const onlyArg = args.indexOf('--only');
  const only = onlyArg === -1 ? null : new Set(args[onlyArg + 1]!.split(','));
  console.log(`${today()} · ${machine()} · ${runs} runs each`);
  console.log('| case | body | validation min | validation median | turn min | turn median | outcome |');
  console.log('|---|---|---|---|---|---|---|');
  for (const [name, make] of Object.entries(HOSTILE)) {
    if (only && !only.has(name)) continue;
    const bundle = make();
    const size = JSON.stringify(bundle).length;
    const validation: number[] = [];
    const turn: number[] = [];
    let outcome = '';
    for (let r = 0; r < runs; r++) {
      const fresh = JSON.parse(JSON.stringify(bundle)) as Record<string, unknown>;
      let issues: ReturnType<typeof validateBundle> = [];
      validation.push(time(() => (issues = validateBundle(fresh))));
      const errors = issues.filter((i) => i.severity === 'error');
      if (errors.length > 0) {
        outcome = `invalid: ${errors[0]!.code}`;
        continue;
      }
      const state = engine.initialState(fresh, CLOCK, 'u');
      let decision = '';
      turn.push(
        time(() => {
          decision = engine.runTurn({
            bundle: fresh,
            state,
            text: 'I want to file a claim for $120',
            clock: CLOCK,
            interactionId: 'm1',
            userId: 'u',
          }).trace.decision;
        }),
      );
      outcome = `decision: ${decision}`;
    }
    const v = stats(validation);
    const t = turn.length ? stats(turn) : null;
    console.log(
      `| ${name} | ${(size / 1024).toFixed(0)} KB | ${fmt(v.min)} | ${fmt(v.median)} | ${t ? fmt(t.min) : '-'} | ${t ? fmt(t.median) : '-'} | ${outcome} |`,
    );
  }
}

main();
