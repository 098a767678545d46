// @vitest-environment jsdom
/**
 * `threadline test --reporter junit`, streamed: well-formed XML (jsdom's parser says so), its
 * totals in the opening tags when written to a file, at the end when written to a stream.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main, type Io } from './main';

const PASSING = 'server/agents/card-disputes/tests/list-transactions.case.json';

async function run(argv: string[]) {
  let out = '';
  const io: Io = { out: (t) => (out += t), err: () => {}, env: {} };
  const code = await main(argv, io);
  return { code, out };
}

let dir: string;
let suite: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'threadline-cli-junit-'));
  suite = join(dir, 'three');
  mkdirSync(suite);
  for (const name of ['a', 'c']) writeFileSync(join(suite, `${name}.case.json`), readFileSync(PASSING));
  const failing = JSON.parse(readFileSync(PASSING, 'utf8')) as { turns: { expect: object }[] };
  failing.turns[0]!.expect = { decision: 'block_with_explanation' };
  writeFileSync(join(suite, 'b.case.json'), JSON.stringify(failing));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('threadline test: JUnit reports', () => {
  it('JUnit to a file: well-formed XML whose opening tags carry the totals', async () => {
    const output = join(dir, 'junit.xml');
    const { code, out } = await run(['test', suite, '--reporter', 'junit', '--output', output]);
    expect(code).toBe(1);
    expect(out).toBe(`2 passed, 1 failed, 0 errors (3 cases); report in ${output}\n`);
    const xml = readFileSync(output, 'utf8');
    const doc = new DOMParser().parseFromString(xml, 'application/xml');
    expect(doc.getElementsByTagName('parsererror')).toHaveLength(0);
    for (const tag of ['testsuites', 'testsuite']) {
      const element = doc.getElementsByTagName(tag)[0]!;
      expect([tag, ...['tests', 'failures', 'errors'].map((a) => element.getAttribute(a))]).toEqual([
        tag,
        '3',
        '1',
        '0',
      ]);
    }
    expect([...doc.getElementsByTagName('testcase')].map((t) => t.getAttribute('classname'))).toEqual([
      'a.case.json',
      'b.case.json',
      'c.case.json',
    ]);
    expect(doc.getElementsByTagName('failure')).toHaveLength(1);
  });

  it('JUnit on stdout: well-formed, the count known at the start in the tags, the totals at the end', async () => {
    const { out } = await run(['test', suite, '--reporter', 'junit']);
    const doc = new DOMParser().parseFromString(out, 'application/xml');
    expect(doc.getElementsByTagName('parsererror')).toHaveLength(0);
    expect(doc.getElementsByTagName('testsuite')[0]!.getAttribute('tests')).toBe('3');
    expect(out).toContain(
      '<system-out>2 passed, 1 failed, 0 errors (3 cases, 3 turns, 1 failing turn)</system-out>',
    );
  });
});
