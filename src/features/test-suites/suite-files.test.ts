import { unzipSync, strFromU8 } from 'fflate';
import { describe, expect, it } from 'vitest';
import { serializeTestCase, type TestCase } from '../../lib/test-cases';
import { readSuiteFolder, suiteFiles, suiteZip } from './suite-files';
import type { SuiteEntry } from '../../domain/suites/suites-store';

const testCase = (name: string, agent_id = 'card-disputes'): TestCase => ({
  format: 'threadline-test-case',
  format_version: 1,
  name,
  agent_id,
  clock: '2025-03-15T12:00:00.000Z',
  turns: [{ say: 'hello', expect: { decision: 'proceed' } }],
});

describe('suite folders', () => {
  it('keeps the valid cases and refuses each invalid file, naming it and its problem', () => {
    const folder = readSuiteFolder(
      [
        { path: 'tests/ok.case.json', text: serializeTestCase(testCase('OK')) },
        { path: 'tests/broken.case.json', text: '{"format": ' },
        { path: 'tests/keyed.case.json', text: JSON.stringify({ ...testCase('K'), api_key: 'x' }) },
        { path: 'tests/other-agent.case.json', text: serializeTestCase(testCase('F', 'flight-changes')) },
        { path: 'tests/sub/ok.case.json', text: serializeTestCase(testCase('OK again')) },
        { path: 'tests/README.md', text: '# notes' },
      ],
      'card-disputes',
    );
    expect(folder.cases).toEqual([{ file: 'ok.case.json', testCase: testCase('OK') }]);
    expect(folder.ignored).toBe(1);
    expect(folder.refused.map((r) => [r.file, r.problems[0]])).toEqual([
      ['tests/broken.case.json', expect.stringMatching(/^not JSON: /)],
      ['tests/keyed.case.json', expect.stringContaining('unknown field "api_key"')],
      ['tests/other-agent.case.json', expect.stringContaining('for agent flight-changes')],
      ['tests/sub/ok.case.json', expect.stringContaining('the same file name as tests/ok.case.json')],
    ]);
  });

  it('exports what it imports: files and zip round trip', () => {
    const entries: SuiteEntry[] = [
      { id: '1', file: 'a.case.json', testCase: testCase('A'), addedAt: '' },
      { id: '2', file: 'b.case.json', testCase: testCase('B'), addedAt: '' },
    ];
    const files = suiteFiles(entries);
    expect(readSuiteFolder(files, 'card-disputes').cases).toEqual(
      entries.map((e) => ({ file: e.file, testCase: e.testCase })),
    );
    const unzipped = unzipSync(suiteZip(entries, 'card-disputes-tests'));
    expect(Object.keys(unzipped)).toEqual([
      'card-disputes-tests/a.case.json',
      'card-disputes-tests/b.case.json',
    ]);
    expect(strFromU8(unzipped['card-disputes-tests/a.case.json']!)).toBe(files[0]!.text);
  });
});
