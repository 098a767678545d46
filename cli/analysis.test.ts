/**
 * `threadline lint` and `threadline diff` on the real engine: every exit status, both reporters,
 * and the usage errors naming their flag.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEEDED_DEFECTS } from '../engine/analysis/seeded-defects.fixture';
import { DiffResult, LintResponse } from '../src/contract/analysis';
import { readBundle } from './bundle-check';
import { main, type Io } from './main';

const V1 = 'server/agents/card-disputes/v1-30-day-window';
const V2 = 'server/agents/card-disputes/v2-8-day-window';
const CLOCK = '2025-03-15T12:00:00Z';

async function run(argv: string[]) {
  let out = '';
  let err = '';
  const io: Io = { out: (t) => (out += t), err: (t) => (err += t), env: {} };
  const code = await main(argv, io);
  return { code, out, err };
}

/** The lint corpus's seed of one kind in the card-disputes agent. */
const seedOf = (kind: string) => SEEDED_DEFECTS.find((s) => s.base === 'card-disputes' && s.kind === kind)!;

let dir: string;
let seeded: string;
let dead: string;
let invalid: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'threadline-cli-analysis-'));
  const read = readBundle(V2);
  if (!('bundle' in read)) throw new Error(read.errors.join('\n'));
  seeded = join(dir, 'seeded.json');
  writeFileSync(seeded, JSON.stringify(seedOf('always_holds').seed(read.bundle)));
  dead = join(dir, 'dead.json');
  writeFileSync(dead, JSON.stringify(seedOf('dead_rule').seed(read.bundle)));
  invalid = join(dir, 'invalid.json');
  // A rule of a tool the bundle does not have: the validator refuses it.
  writeFileSync(
    invalid,
    JSON.stringify({ ...read.bundle, rules: [{ code: 'NOWHERE', applied_to: ['NO_SUCH_TOOL'] }] }),
  );
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('threadline lint', () => {
  it('reports warnings with their witness and exits 0 when no finding is an error', async () => {
    const { code, out, err } = await run(['lint', seeded, '--clock', CLOCK]);
    expect(err).toBe('');
    expect(code).toBe(0);
    const lines = out.trimEnd().split('\n');
    const finding = lines.findIndex((l) =>
      /^warning always_holds at agent_tools\[0\]\.rules\.pre\.constraint\[\d+\]\.when: .*SEED_ALWAYS/.test(l),
    );
    expect(finding).toBeGreaterThanOrEqual(0);
    expect(lines[finding + 1]).toMatch(
      /^ {4}witness: DISPUTE_CHARGE at clock 2025-03-15T12:00:00Z: .*transaction-amount = /,
    );
    expect(lines.at(-1)).toMatch(/^0 errors, [\d,]+ warnings?, [\d,]+ info \([\d,]+ regions? decided\)$/);
    const json = await run(['lint', seeded, '--clock', CLOCK, '--reporter', 'json']);
    expect(json.code).toBe(0);
    const result = LintResponse.parse(JSON.parse(json.out));
    expect(result.findings.some((f) => f.severity === 'error')).toBe(false);
    expect(result.findings.some((f) => f.witness?.clock === CLOCK)).toBe(true);
  });

  it('exits 1 when a finding is an error', async () => {
    const { code, out } = await run(['lint', dead, '--clock', CLOCK]);
    expect(code).toBe(1);
    expect(out).toMatch(
      /^error dead_rule at agent_tools\[0\]\.rules\.pre\.constraint\[\d+\]: SEED_DEAD_\d+ can never apply/m,
    );
    expect(out.trimEnd().split('\n').at(-1)).toMatch(/^1 error, /);
  });

  it('exits 2 for a bundle that does not validate, printing its issues', async () => {
    const { code, out, err } = await run(['lint', invalid]);
    expect(code).toBe(2);
    expect(out).toBe('');
    expect(err).toContain('nothing was analysed');
    expect(err).toMatch(new RegExp(`${invalid}:\\d+:\\d+: error: rules`));
  });

  it('exits 2 for a usage error naming the flag, and 0 for help', async () => {
    for (const [argv, says] of [
      [['lint', V2, '--clock', 'noon'], '--clock must be an ISO-8601 date-time'],
      [['lint', V2, '--reporter', 'junit'], '--reporter must be one of text, json'],
      [['lint', V2, '--colour'], 'unknown option --colour'],
      [['lint', V2, '--clock'], '--clock needs a value'],
      [['lint'], 'give exactly one bundle'],
      [['diff', V2], 'give two bundles'],
    ] as const) {
      const { code, err } = await run([...argv]);
      expect(code).toBe(2);
      expect(err).toContain(says);
    }
    const help = await run(['lint', '--help']);
    expect(help.code).toBe(0);
    expect(help.out).toContain('Usage: threadline lint');
    const top = await run(['--help']);
    expect(top.out).toContain('diff <base> <head>');
    expect((await run(['lnit'])).err).toContain('the commands are: test, validate, lint, diff, help');
  });
});

describe('threadline diff', () => {
  it("exits 1 on the agent's two versions, a line per difference with its witness", async () => {
    const { code, out, err } = await run(['diff', V1, V2, '--clock', CLOCK]);
    expect(err).toBe('');
    expect(code).toBe(1);
    const lines = out.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^DISPUTE_CHARGE: .+: \S+.* → \S+/);
    expect(lines[1]).toMatch(/^ {4}witness: DISPUTE_CHARGE at clock 2025-03-15T12:00:00Z/);
    expect(out).toContain('DISPUTE_WINDOW');
    expect(lines.at(-1)).toMatch(/^[\d,]+ differences? in [\d,]+ regions?$/);
    const json = await run(['diff', V1, V2, '--clock', CLOCK, '--reporter', 'json']);
    expect(json.code).toBe(1);
    const result = DiffResult.parse(JSON.parse(json.out));
    expect(result.equivalent).toBe(false);
    expect(result.differences.length).toBeGreaterThan(0);
  });

  it('exits 0 for a version against itself (a folder and the same bundle as a file)', async () => {
    const read = readBundle(V2);
    if (!('bundle' in read)) throw new Error(read.errors.join('\n'));
    const file = join(dir, 'v2.json');
    writeFileSync(file, JSON.stringify(read.bundle));
    const { code, out } = await run(['diff', V2, file, '--clock', CLOCK]);
    expect(code).toBe(0);
    expect(out.trimEnd().split('\n').at(-1)).toMatch(/^equivalent \([\d,]+ regions?\)$/);
  });

  it('exits 2 when a side does not validate or cannot be read', async () => {
    const bad = await run(['diff', V2, invalid]);
    expect(bad.code).toBe(2);
    expect(bad.err).toContain(invalid);
    const missing = await run(['diff', V2, join(dir, 'none.json')]);
    expect(missing.code).toBe(2);
    expect(missing.err).toContain('cannot read the bundle');
  });
});
