import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, startService, type Service } from '../api/helpers';
import { starterBundle } from '../support/starter-agent';
import { main, type Io } from '../../cli/main';

const CARDS = 'server/agents/card-disputes/tests';
const FLIGHTS = 'server/agents/flight-changes/tests';
const STARTER_SUITE = 'docs/bundle/starter-agent/tests';
const OUTSIDE_WINDOW = `${CARDS}/dispute-outside-window.case.json`;

async function run(argv: string[], env: Record<string, string> = {}) {
  let out = '';
  let err = '';
  const io: Io = { out: (t) => (out += t), err: (t) => (err += t), env };
  const code = await main(argv, io);
  return { code, out, err };
}

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'threadline-cli-'));
  // A case that expects the old 30-day window: the active version blocks it.
  const failing = JSON.parse(readFileSync(OUTSIDE_WINDOW, 'utf8'));
  failing.name = 'Expects <the> old & "30-day" window';
  failing.turns[0].expect = {
    decision: 'request_information',
    rules: { DISPUTE_WINDOW: 'allowed' },
    reply_contains: ['reason for the dispute'],
  };
  writeFileSync(join(dir, 'old-window.case.json'), JSON.stringify(failing));
  writeFileSync(join(dir, 'passing.case.json'), readFileSync(`${CARDS}/list-transactions.case.json`));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('threadline test on the embedded engine', () => {
  it('passes the shipped suites of both example agents (exit 0)', async () => {
    const cards = await run(['test', CARDS]);
    expect(cards.err).toBe('');
    expect(cards.code).toBe(0);
    expect(cards.out).toMatch(/\n6 passed, 0 failed, 0 errors \(6 cases, 12 turns/);
    const flights = await run(['test', FLIGHTS]);
    expect(flights.code).toBe(0);
    expect(flights.out).toMatch(/\n8 passed, 0 failed, 0 errors/);
  });

  it('exits 1 on a failing suite and writes JUnit naming the flipped decision and rule', async () => {
    const { code, out } = await run(['test', dir, '--reporter', 'junit']);
    expect(code).toBe(1);
    // On a stream the opening tags carry the count known at the start; the totals close the suite.
    expect(out).toMatch(/<testsuite name="[^"]*" tests="2" skipped="0" *>/);
    expect(out).toContain('<system-out>1 passed, 1 failed, 0 errors (2 cases');
    expect(out).toContain('<testcase name="Expects &lt;the&gt; old &amp; &quot;30-day&quot; window"');
    expect(out).toContain('decision: expected request_information, got block_with_explanation');
    expect(out).toMatch(
      /rule DISPUTE_WINDOW: expected allowed, got blocked \(days_since\(transaction-date\) is 10/,
    );
    expect(out).toContain('<testcase name="Recent transactions are listed" classname="passing.case.json"');
  });

  it('runs a case file against a bundle given as a project folder, where the edit flips it', async () => {
    const { code, out } = await run([
      'test',
      OUTSIDE_WINDOW,
      '--bundle',
      'server/agents/card-disputes/v1-30-day-window',
    ]);
    expect(code).toBe(1);
    expect(out).toContain('decision: expected block_with_explanation, got request_information');
    expect(out).toContain('rules never evaluated:'); // one bundle: coverage is shown
  });

  it('refuses an invalid case with the file and field, running nothing (exit 2)', async () => {
    // A folder of its own: a suite folder's subfolders are searched too.
    const bad = mkdtempSync(join(tmpdir(), 'threadline-cli-bad-'));
    writeFileSync(
      join(bad, 'x.case.json'),
      JSON.stringify({ format: 'threadline-test-case', format_version: 1 }),
    );
    const { code, err, out } = await run(['test', bad]);
    expect(code).toBe(2);
    expect(out).toBe('');
    expect(err).toContain('nothing was run');
    expect(err).toContain(`${join(bad, 'x.case.json')}: turns: missing (required)`);
    rmSync(bad, { recursive: true, force: true });
  });

  it('refuses usage errors and an invalid bundle (exit 2)', async () => {
    expect((await run(['test'])).code).toBe(2);
    expect((await run(['test', CARDS, '--reporter', 'xml'])).err).toContain(
      '--reporter must be one of text, json, junit',
    );
    expect((await run(['test', CARDS, '--server', 'http://127.0.0.1:1'])).err).toContain(
      '--server needs --key-env',
    );
    const bundle = join(dir, 'bundle.json');
    writeFileSync(bundle, JSON.stringify({ agent_tools: [{ name: 'no code' }] }));
    const invalid = await run(['test', CARDS, '--bundle', bundle]);
    expect(invalid.code).toBe(2);
    expect(invalid.err).toContain(`${bundle}:1:17: error: agent_tools[0].code: agent_tools[0] has no "code"`);
  });
});

describe('threadline test through the reference service', () => {
  let service: Service;
  beforeAll(async () => {
    service = await startService();
  });
  afterAll(() => service.dispose());

  it('passes the shipped suite over HTTP, with the case clock honoured (absolute dates match)', async () => {
    const { code, out } = await run(['test', CARDS, '--server', service.url, '--key-env', 'TL_KEY'], {
      TL_KEY: 'root-key',
    });
    expect(out).not.toContain('note:');
    expect(out).toMatch(/\n6 passed, 0 failed, 0 errors/);
    expect(code).toBe(0);
  });

  it('exits 1 on the failing suite with the same JUnit failure as the embedded engine', async () => {
    const { code, out } = await run(
      ['test', dir, '--server', service.url, '--key-env', 'TL_KEY', '--reporter', 'junit'],
      {
        TL_KEY: 'root-key',
      },
    );
    expect(code).toBe(1);
    expect(out).toContain('<system-out>1 passed, 1 failed, 0 errors (2 cases');
    expect(out).toContain('decision: expected request_information, got block_with_explanation');
  });

  it('sends the bundle under test with every message', async () => {
    const { code, out } = await run(
      [
        'test',
        OUTSIDE_WINDOW,
        '--bundle',
        'server/agents/card-disputes/v1-30-day-window',
        '--server',
        service.url,
        '--key-env',
        'TL_KEY',
      ],
      { TL_KEY: 'root-key' },
    );
    expect(code).toBe(1);
    expect(out).toContain('decision: expected block_with_explanation, got request_information');
  });

  it('runs the suite of an agent created on the service, and says what to do while it does not exist', async () => {
    const argv = ['test', STARTER_SUITE, '--server', service.url, '--key-env', 'TL_KEY'];
    const before = await run(argv, { TL_KEY: 'root-key' });
    expect(before.code).toBe(1);
    expect(before.out).toContain('error: the service does not know the agent room-bookings');
    expect(before.out).toContain('--bundle');
    const created = await call(service, 'POST', '/reference/v1/agents', {
      body: { bundle: starterBundle() },
    });
    expect(created.body.id).toBe('room-bookings');
    const after = await run(argv, { TL_KEY: 'root-key' });
    expect(after.out).toMatch(/\n2 passed, 0 failed, 0 errors/);
    expect(after.code).toBe(0);
  });

  it('reports a refused key as an error of each case (exit 1), and a missing key variable as a usage error (exit 2)', async () => {
    const refused = await run(['test', CARDS, '--server', service.url, '--key-env', 'TL_KEY'], {
      TL_KEY: 'wrong',
    });
    expect(refused.code).toBe(1);
    expect(refused.out).toContain('error: POST /v1/messaging/tasks answered 401: Invalid or missing API key');
    const missing = await run(['test', CARDS, '--server', service.url, '--key-env', 'TL_KEY']);
    expect(missing.code).toBe(2);
    expect(missing.err).toContain('the environment variable TL_KEY is not set');
  });
});

describe('the threadline bin', () => {
  const bin = (...args: string[]) =>
    spawnSync(process.execPath, ['cli/threadline.mjs', ...args], { encoding: 'utf8', timeout: 60_000 });

  it("prints the package version and a command's usage (exit 0)", () => {
    const { version } = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string };
    expect(bin('--version')).toMatchObject({ status: 0, stdout: `${version}\n` });
    expect(bin('help', 'validate').stdout).toContain('Usage: threadline validate');
  });

  it('exits 2 for a usage error, naming the flag', () => {
    const r = bin('test', CARDS, '--reporters', 'json');
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('threadline: unknown option --reporters');
  });

  it('runs from the checkout and exits with the suite status', () => {
    const r = spawnSync(process.execPath, ['cli/threadline.mjs', 'test', dir, '--reporter', 'json'], {
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(r.status).toBe(1);
    expect(JSON.parse(r.stdout).summary).toMatchObject({ cases: 2, passed: 1, failed: 1 });
  });
});
