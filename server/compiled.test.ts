/** The launchers run the compiled JavaScript only while it is current. */
import { describe, expect, it } from 'vitest';
// @ts-expect-error -- a plain JavaScript module of the launchers, without types
import { staleness } from './compiled.mjs';

type Staleness = (entry: string, manifest: unknown, modified: (path: string) => number) => string | null;
const check = staleness as Staleness;

const manifest = {
  builtAt: 1000,
  entries: { cli: { file: 'cli.mjs', inputs: ['cli/main.ts', 'src/lib/format.ts', 'package.json'] } },
};
const times = (changed: Record<string, number>) => (path: string) => changed[path] ?? 500;

describe('whether the build is current', () => {
  it('is when the entry was built after every file it was built from', () => {
    expect(check('cli', manifest, times({}))).toBeNull();
    expect(check('cli', manifest, times({ 'src/lib/format.ts': 1000 }))).toBeNull();
  });

  it('is not when a source changed since, the output is missing, or nothing was built', () => {
    expect(check('cli', manifest, times({ 'src/lib/format.ts': 1001 }))).toBe('src/lib/format.ts is newer');
    expect(check('cli', manifest, times({ 'cli/main.ts': Infinity }))).toBe('cli/main.ts is newer');
    expect(check('cli', manifest, times({ 'dist-node/cli.mjs': Infinity }))).toBe(
      'dist-node/cli.mjs is missing',
    );
    expect(check('server', manifest, times({}))).toBe('not built');
    expect(check('cli', undefined, times({}))).toBe('not built');
  });
});
