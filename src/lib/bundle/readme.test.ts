import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ASSEMBLY_ISSUE_CODES } from './assemble';
import { BUNDLE_ISSUE_CODES } from './issue-codes';

describe('README', () => {
  const readme = readFileSync(new URL('./README.md', import.meta.url), 'utf8');

  it('documents every issue code with its severity', () => {
    for (const [code, { severity }] of Object.entries(BUNDLE_ISSUE_CODES))
      expect(readme).toContain(`| \`${code}\` | ${severity} |`);
    for (const code of Object.keys(ASSEMBLY_ISSUE_CODES)) expect(readme).toContain(`| \`${code}\` |`);
  });
});
