/** The version of threadline: the checkout's package.json says it. */
import { readFileSync } from 'node:fs';

export function version(): string {
  const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
    version?: unknown;
  };
  return typeof pkg.version === 'string' ? pkg.version : 'unknown';
}
