/**
 * The seeded-defect corpus (seeded-defects.fixture.ts): the clean bundles lint without a finding,
 * and every seeded defect is found, with the rule or tool it concerns; a kind missed fails.
 */
import { describe, expect, it } from 'vitest';
import { TOOL_RUN_FINDINGS } from '../../src/contract/tool-run-findings';
import type { Bundle } from '../../src/contract/bundle';
import { exampleBundle } from '../../server/agents/converse';
import { starterBundle } from '../../tests/support/starter-agent';
import { lintBundle } from './index';
import { SEEDED_DEFECTS } from './seeded-defects.fixture';

const CLOCK = '2025-03-15T12:00:00Z';
const BASES: Record<string, Bundle> = {
  'card-disputes': exampleBundle('card-disputes', { version_id: 'v1-30-day-window' }),
  'flight-changes': exampleBundle('flight-changes', { version_id: 'v2-current-fees' }),
  starter: starterBundle(),
};

describe('the seeded-defect corpus', () => {
  it('holds at least 7 kinds of defect, 5 instances each, over 3 bundles', () => {
    const kinds = new Map<string, number>();
    for (const s of SEEDED_DEFECTS) kinds.set(s.kind, (kinds.get(s.kind) ?? 0) + 1);
    expect(kinds.size).toBeGreaterThanOrEqual(7);
    for (const n of kinds.values()) expect(n).toBeGreaterThanOrEqual(5);
    expect(new Set(SEEDED_DEFECTS.map((s) => s.base)).size).toBe(3);
  });

  it.each(Object.keys(BASES))('finds nothing in the clean %s bundle', (base) => {
    expect(lintBundle(BASES[base]!, { clock: CLOCK }).findings).toEqual([]);
  });

  it('finds every seeded defect, kind by kind', () => {
    const missed: string[] = [];
    for (const s of SEEDED_DEFECTS) {
      const { findings } = lintBundle(s.seed(BASES[s.base]!), { clock: CLOCK });
      const found = findings.some(
        (f) =>
          f.code === s.expect.code &&
          (s.expect.rule === undefined || f.rule === s.expect.rule) &&
          (s.expect.tool === undefined || f.tool === s.expect.tool),
      );
      if (!found)
        missed.push(
          `${s.name}: got ${findings.map((f) => `${f.code}(${f.rule ?? f.tool ?? ''})`).join(', ') || 'nothing'}`,
        );
    }
    expect(missed).toEqual([]);
  }, 600_000);

  it("finds the same without the tools' runs, but for the findings only a run shows", () => {
    const differ: string[] = [];
    // One seed of each kind (each full lint decides every region of its bundle).
    const firstOfKind = SEEDED_DEFECTS.filter(
      (s, i) => SEEDED_DEFECTS.findIndex((t) => t.kind === s.kind) === i,
    );
    for (const s of firstOfKind) {
      const bundle = s.seed(BASES[s.base]!);
      const full = lintBundle(bundle, { clock: CLOCK }).findings;
      const quick = lintBundle(bundle, { clock: CLOCK, toolRuns: false }).findings;
      const expected = full.filter((f) => !TOOL_RUN_FINDINGS.includes(f.code));
      if (JSON.stringify(quick) !== JSON.stringify(expected)) differ.push(s.name);
    }
    // The corpus seeds findings of both kinds, so the quick lint is checked on each.
    const kinds = new Set(SEEDED_DEFECTS.map((s) => s.expect.code));
    expect(TOOL_RUN_FINDINGS.filter((c) => kinds.has(c)).length).toBeGreaterThan(0);
    expect([...kinds].filter((c) => !TOOL_RUN_FINDINGS.includes(c)).length).toBeGreaterThan(0);
    expect(differ).toEqual([]);
  }, 600_000);
});
