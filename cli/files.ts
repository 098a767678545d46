/** Reads a suite folder and a bundle (file or agent project folder) from disk. */
import {
  closeSync,
  constants,
  fstatSync,
  openSync,
  readdirSync,
  readSync,
  realpathSync,
  statSync,
} from 'node:fs';
import { basename, join, sep } from 'node:path';
import type { Bundle } from '../src/contract/bundle';
import { assembleProject } from '../src/lib/bundle/assemble';
import { isRunnable, validateBundle } from '../src/lib/bundle/validate';
import { parseTestCase, type SuiteCase } from '../src/lib/test-cases';
import { projectFiles } from '../server/agents/registry';

export const CASE_SUFFIX = '.case.json';

const message = (e: unknown) => (e instanceof Error ? e.message : String(e));

/** The largest case file read. */
export const MAX_CASE_BYTES = 1024 * 1024;
/** The largest bundle file read. */
export const MAX_BUNDLE_BYTES = 16 * 1024 * 1024;

/**
 * A regular file's text, at most `limit` bytes; with `within`, only when the file (its links
 * resolved) lies in that folder. A FIFO, a device (`/dev/zero`) or a link leading out of the
 * folder is refused before anything is read, so nothing of it can end up in a message.
 */
export function readRegularFile(path: string, limit: number, within?: string): string {
  if (within !== undefined) {
    const folder = realpathSync(within);
    const real = realpathSync(path);
    if (!real.startsWith(folder + sep))
      throw new Error(
        `it leads out of the folder ${within} (a link elsewhere); copy the file into the folder`,
      );
  }
  // Opened without waiting (a FIFO would block until a writer comes), then checked.
  const fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) throw new Error('it is not a regular file');
    if (stat.size > limit) throw new Error(`it is larger than ${limit} bytes`);
    const buffer = Buffer.alloc(Math.min(stat.size, limit) + 1);
    let read = 0;
    for (let n; read < buffer.length && (n = readSync(fd, buffer, read, buffer.length - read, null)) > 0;)
      read += n;
    if (read > limit) throw new Error(`it is larger than ${limit} bytes`);
    return buffer.subarray(0, read).toString('utf8');
  } finally {
    closeSync(fd);
  }
}

/** Every `*.case.json` directly in the folder (sorted by name), or the one case file given. */
export function readSuite(path: string): { cases: SuiteCase[]; errors: string[] } {
  let files: { source: string; full: string }[];
  let folder: string | undefined;
  try {
    folder = statSync(path).isDirectory() ? path : undefined;
    files = folder
      ? readdirSync(path)
          .filter((name) => name.endsWith(CASE_SUFFIX))
          .sort()
          .map((name) => ({ source: name, full: join(path, name) }))
      : [{ source: basename(path), full: path }];
  } catch (e) {
    return { cases: [], errors: [`cannot read the suite ${path}: ${message(e)}`] };
  }
  if (files.length === 0) return { cases: [], errors: [`${path} holds no *${CASE_SUFFIX} file`] };
  const cases: SuiteCase[] = [];
  const errors: string[] = [];
  for (const f of files) {
    let text: string;
    try {
      text = readRegularFile(f.full, MAX_CASE_BYTES, folder);
    } catch (e) {
      errors.push(`${f.full}: cannot read: ${message(e)}`);
      continue;
    }
    const parsed = parseTestCase(text);
    if (parsed.ok) cases.push({ source: f.source, testCase: parsed.value });
    else errors.push(...parsed.errors.map((err) => `${f.full}: ${err}`));
  }
  return { cases, errors };
}

/** A bundle JSON file, or an agent project folder assembled; validated before any case runs. */
export function readBundle(path: string): { bundle: Bundle } | { errors: string[] } {
  let doc: unknown;
  const problems: string[] = [];
  try {
    if (statSync(path).isDirectory()) {
      const files = projectFiles(path);
      if (files.length === 0) return { errors: [`${path} holds no *.aui.json file`] };
      const { bundle, issues } = assembleProject(files);
      doc = bundle;
      for (const i of issues)
        if (i.severity === 'error') problems.push(`${join(path, String(i.loc[0] ?? ''))}: ${i.message}`);
    } else doc = JSON.parse(readRegularFile(path, MAX_BUNDLE_BYTES));
  } catch (e) {
    return { errors: [`cannot read the bundle ${path}: ${message(e)}`] };
  }
  const issues = validateBundle(doc);
  if (!isRunnable(issues) || problems.length)
    return {
      errors: [
        ...problems,
        ...issues
          .filter((i) => i.severity === 'error')
          .map((i) => `${path}: ${i.loc.join('.') || '(bundle)'}: ${i.message}`),
      ],
    };
  return { bundle: doc as Bundle };
}
