/**
 * Every command of `threadline` and its exit statuses, run in process as a CI step runs them:
 * --version, help, validate (0 valid, 1 invalid with each problem's file:line:column, 2 usage),
 * usage errors naming their flag, suites found below a folder, and reports that stream (JUnit's
 * in `junit-report.test.ts`).
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main, type Io } from './main';
import { TEST_USAGE, USAGE, VALIDATE_USAGE } from './usage';

const CARDS = 'server/agents/card-disputes/tests';
const PASSING = `${CARDS}/list-transactions.case.json`;
const PROJECT = 'server/agents/card-disputes/v2-8-day-window';

async function run(argv: string[]) {
  let out = '';
  let err = '';
  const pieces: string[] = [];
  const io: Io = {
    out: (t) => {
      out += t;
      pieces.push(t);
    },
    err: (t) => (err += t),
    env: {},
  };
  const code = await main(argv, io);
  return { code, out, err, pieces };
}

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'threadline-cli-commands-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const { version } = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string };

describe('threadline --version and help', () => {
  it('prints the package version', async () => {
    expect(await run(['--version'])).toMatchObject({ code: 0, out: `${version}\n`, err: '' });
  });

  it('prints the commands, and each command its usage', async () => {
    for (const argv of [[], ['--help'], ['-h'], ['help']])
      expect(await run(argv)).toMatchObject({ code: 0, out: `${USAGE}\n` });
    expect(await run(['help', 'test'])).toMatchObject({ code: 0, out: `${TEST_USAGE}\n` });
    expect(await run(['test', '--help'])).toMatchObject({ code: 0, out: `${TEST_USAGE}\n` });
    expect(await run(['help', 'validate'])).toMatchObject({ code: 0, out: `${VALIDATE_USAGE}\n` });
    expect((await run(['help', 'lint'])).out).toContain('Usage: threadline lint');
    expect((await run(['help', 'diff'])).out).toContain('Usage: threadline diff');
  });

  it('exits 2 for a command or option it does not know, naming it', async () => {
    for (const [argv, says] of [
      [['help', 'lnit'], 'there is no command "lnit"'],
      [['help', 'test', 'lint'], 'help takes one command'],
      [['frobnicate'], 'unknown command "frobnicate" (the commands are: test, validate, lint, diff, help)'],
      [['--verbose'], 'unknown option --verbose'],
    ] as const) {
      const { code, out, err } = await run([...argv]);
      expect(code).toBe(2);
      expect(out).toBe('');
      expect(err).toContain(says);
    }
  });
});

describe('threadline test: usage errors', () => {
  it('exits 2 naming the flag, with the usage of test, running nothing', async () => {
    for (const [argv, says] of [
      [[CARDS, '--colour'], 'unknown option --colour'],
      [[CARDS, '-q'], 'unknown option -q'],
      [[CARDS, '--reporter'], '--reporter needs a value'],
      [[CARDS, '--reporter', 'json', '--reporter', 'text'], '--reporter is given twice'],
      [[CARDS, '--reporter', 'tap'], '--reporter must be one of text, json, junit, not "tap"'],
      [[CARDS, '--concurrency', '0'], '--concurrency must be a whole number from 1 to 64'],
      [[CARDS, '--key-env', 'K'], '--key-env is only used with --server'],
      [[CARDS, '--server', 'ftp://x', '--key-env', 'K'], '--server must be an http(s) URL'],
      [[], 'give exactly one suite folder'],
      [[CARDS, PASSING], 'give exactly one suite folder'],
    ] as const) {
      const { code, out, err } = await run(['test', ...argv]);
      expect(code, argv.join(' ')).toBe(2);
      expect(out).toBe('');
      expect(err).toContain(`threadline: ${says}`);
      expect(err).toContain('Usage: threadline test');
    }
  });
});

describe('threadline validate', () => {
  it('exits 0 for a valid project folder and a valid bundle file', async () => {
    const project = await run(['validate', PROJECT]);
    expect(project).toMatchObject({ code: 0, out: `${PROJECT} is valid\n`, err: '' });
    const file = join(dir, 'valid.json');
    writeFileSync(file, JSON.stringify({ agent_tools: [] }));
    expect(await run(['validate', file])).toMatchObject({ code: 0, out: `${file} is valid\n` });
  });

  it('exits 1 for a bundle file, naming each problem at its line and column', async () => {
    const file = join(dir, 'bundle.json');
    writeFileSync(file, '{\n  "agent_tools": [\n    { "name": "no code" }\n  ]\n}\n');
    const { code, out } = await run(['validate', file]);
    expect(code).toBe(1);
    expect(out).toContain(`${file}:3:5: error: agent_tools[0].code: agent_tools[0] has no "code"`);
    expect(out.trimEnd().split('\n').at(-1)).toMatch(
      new RegExp(`^${file} is not valid: \\d+ errors?, \\d+ warnings?$`),
    );
  });

  it('exits 1 for text that is not JSON, at the place the parser stopped', async () => {
    const file = join(dir, 'broken.json');
    writeFileSync(file, '{\n  "agent_tools": [,]\n}\n');
    const { code, out } = await run(['validate', file]);
    expect(code).toBe(1);
    expect(out).toMatch(new RegExp(`^${file}:2:\\d+: error: not valid JSON: `));
  });

  it('exits 1 for a project folder, each problem in the file that holds it', async () => {
    const project = join(dir, 'project');
    cpSync(PROJECT, project, { recursive: true });
    const rules = join(project, 'rules.aui.json');
    writeFileSync(rules, readFileSync(rules, 'utf8').replace('"operation": "gt"', '"operation": "greater"'));
    const tool = join(project, 'tools', 'freeze_card.aui.json');
    writeFileSync(tool, readFileSync(tool, 'utf8').replace('"code": "FREEZE_CARD"', '"code": 42'));
    const { code, out } = await run(['validate', project]);
    expect(code).toBe(1);
    expect(out).toMatch(
      new RegExp(
        `${rules}:\\d+:\\d+: error: rules\\[0\\]\\.when\\.all\\[0\\]\\.operation: .*'greater', which does not exist`,
      ),
    );
    expect(out).toMatch(new RegExp(`${tool}:3:\\d+: error: agent_tools\\[1\\]\\.code: .*must be text`));
  });

  it('exits 2 for a usage error or a path it cannot read', async () => {
    for (const [argv, says] of [
      [[], 'give exactly one bundle file or project folder'],
      [[PROJECT, PROJECT], 'give exactly one bundle file or project folder'],
      [[PROJECT, '--strict'], 'unknown option --strict'],
      [[join(dir, 'missing.json')], `cannot read ${join(dir, 'missing.json')}`],
      [['/dev/zero'], 'it is not a regular file'],
    ] as const) {
      const { code, err } = await run(['validate', ...argv]);
      expect(code, argv.join(' ')).toBe(2);
      expect(err).toContain(says);
    }
  });
});

describe('threadline test: suites below a folder', () => {
  it('runs the cases of every subfolder, but hidden ones and node_modules, named by their path', async () => {
    const suite = join(dir, 'nested');
    for (const sub of ['a/b', '.hidden', 'node_modules/x']) mkdirSync(join(suite, sub), { recursive: true });
    for (const at of [
      'top.case.json',
      'a/b/deep.case.json',
      '.hidden/no.case.json',
      'node_modules/x/no.case.json',
    ])
      writeFileSync(join(suite, at), readFileSync(PASSING));
    const { code, out } = await run(['test', suite]);
    expect(code).toBe(0);
    expect(out.match(/^PASS {2}\S+/gm)).toEqual(['PASS  a/b/deep.case.json', 'PASS  top.case.json']);
    expect(out).toContain('2 passed, 0 failed, 0 errors (2 cases');
  });

  it("finds an agent's cases from its project folder (they live in its tests/ folder)", async () => {
    const { code, out } = await run(['test', 'server/agents/card-disputes']);
    expect(code).toBe(0);
    expect(out).toContain('PASS  tests/list-transactions.case.json');
    expect(out).toContain('6 passed, 0 failed, 0 errors (6 cases');
  });
});

describe('a misnamed project file', () => {
  it('is named before the cases run, not ignored in silence (the cases still run)', async () => {
    const project = join(dir, 'misnamed');
    cpSync('docs/bundle/starter-agent', project, { recursive: true });
    // A global rule in `rule.aui.json`: one letter off, so not a project file.
    writeFileSync(join(project, 'rule.aui.json'), JSON.stringify([{ code: 'NEVER_READ', when: null }]));
    const { code, out, err } = await run(['test', join(project, 'tests'), '--bundle', project]);
    expect(code).toBe(0);
    expect(err).toMatch(
      /^threadline: .*misnamed\/rule\.aui\.json(:\d+:\d+)?: warning: .*rule\.aui\.json is not part of an agent project .*it was ignored/m,
    );
    expect(out).toMatch(/passed, 0 failed/);
  });
});

describe('threadline test: reports written as cases finish', () => {
  let suite: string;
  beforeAll(() => {
    suite = join(dir, 'three');
    mkdirSync(suite);
    for (const name of ['a', 'b', 'c'])
      writeFileSync(join(suite, `${name}.case.json`), readFileSync(PASSING));
    const failing = JSON.parse(readFileSync(PASSING, 'utf8')) as { turns: { expect: object }[] };
    failing.turns[0]!.expect = { decision: 'block_with_explanation' };
    writeFileSync(join(suite, 'b.case.json'), JSON.stringify(failing));
  });

  it('JSON: one document, a case per write in file order, the summary and coverage after the last', async () => {
    const { code, out, pieces } = await run(['test', suite, '--reporter', 'json', '--concurrency', '3']);
    expect(code).toBe(1);
    expect(pieces).toHaveLength(5); // the head, each case, the tail
    expect(JSON.parse(pieces[2]!.replace(/^,\n/, ''))).toMatchObject({
      source: 'b.case.json',
      status: 'failed',
    });
    const report = JSON.parse(out) as { results: { source: string }[]; summary: object; coverage: object };
    expect(report.results.map((r) => r.source)).toEqual(['a.case.json', 'b.case.json', 'c.case.json']);
    expect(report.summary).toEqual({ cases: 3, passed: 2, failed: 1, errors: 0, turns: 3, failedTurns: 1 });
    expect(report.coverage).toHaveProperty('neverEvaluated');
  });

  it('text: a line per case as it finishes, then the count line', async () => {
    const { pieces } = await run(['test', suite]);
    expect(pieces.slice(0, 3).map((p) => p.slice(0, 6))).toEqual(['PASS  ', 'FAIL  ', 'PASS  ']);
    expect(pieces.at(-1)!.trimEnd().split('\n').at(-1)).toBe(
      '2 passed, 1 failed, 0 errors (3 cases, 3 turns, 1 failing turn)',
    );
  });

  it('reports a case file broken after the check as an error of that case (exit 1)', async () => {
    // Every case is checked before the run and read again when it runs: this one breaks in
    // between, when the report's head is written.
    const racy = join(dir, 'racy');
    mkdirSync(racy);
    writeFileSync(join(racy, 'a.case.json'), readFileSync(PASSING));
    let out = '';
    const io: Io = {
      out: (t) => {
        if (out === '') writeFileSync(join(racy, 'a.case.json'), '{');
        out += t;
      },
      err: () => {},
      env: {},
    };
    expect(await main(['test', racy, '--reporter', 'json'], io)).toBe(1);
    const report = JSON.parse(out) as { results: { status: string; error: string }[] };
    expect(report.results[0]).toMatchObject({
      status: 'error',
      error: expect.stringContaining('a.case.json: ') as unknown,
    });
  });
});
