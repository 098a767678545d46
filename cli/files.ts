/** Reads files the CLI is given, trusting none: a suite's case files, a bundle's text. */
import { readdirSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { readRegularFile } from '../server/agents/untrusted-files';
import { parseTestCase, type SuiteCase } from '../src/lib/test-cases';

export const CASE_SUFFIX = '.case.json';

const message = (e: unknown) => (e instanceof Error ? e.message : String(e));

/** The largest case file read. */
export const MAX_CASE_BYTES = 1024 * 1024;
/** The largest bundle file read. */
export const MAX_BUNDLE_BYTES = 16 * 1024 * 1024;

/** A case file of a suite: `source` names it in reports (its path below the suite folder, `/`-separated). */
export interface CaseFile {
  source: string;
  full: string;
}

/** Folders below a suite folder that are never searched for cases. */
const SKIPPED_FOLDER = (name: string) => name.startsWith('.') || name === 'node_modules';

/**
 * Every `*.case.json` below the folder (its subfolders too, except hidden ones and node_modules;
 * links to folders are not followed), sorted by path; or the one case file given. Only names are
 * listed: each file is read when its case is validated and again when it runs.
 */
export function findCaseFiles(path: string): { files: CaseFile[]; folder?: string } | { error: string } {
  let isFolder: boolean;
  try {
    isFolder = statSync(path).isDirectory();
  } catch (e) {
    return { error: `cannot read the suite ${path}: ${message(e)}` };
  }
  if (!isFolder) return { files: [{ source: basename(path), full: path }] };
  const files: CaseFile[] = [];
  const walk = (dir: string, prefix: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.isDirectory()) {
        if (!SKIPPED_FOLDER(entry.name)) walk(join(dir, entry.name), `${prefix}${entry.name}/`);
      } else if (entry.name.endsWith(CASE_SUFFIX))
        files.push({ source: `${prefix}${entry.name}`, full: join(dir, entry.name) });
    }
  };
  try {
    walk(path, '');
  } catch (e) {
    return { error: `cannot read the suite ${path}: ${message(e)}` };
  }
  if (files.length === 0) return { error: `${path} holds no *${CASE_SUFFIX} file` };
  files.sort((a, b) => (a.source < b.source ? -1 : a.source > b.source ? 1 : 0));
  return { files, folder: path };
}

/** One case file read and validated (`folder`: the suite folder it must lie in). */
export function readCase(file: CaseFile, folder?: string): { case: SuiteCase } | { errors: string[] } {
  let text: string;
  try {
    text = readRegularFile(file.full, MAX_CASE_BYTES, folder);
  } catch (e) {
    return { errors: [`${file.full}: cannot read: ${message(e)}`] };
  }
  const parsed = parseTestCase(text);
  return parsed.ok
    ? { case: { source: file.source, testCase: parsed.value } }
    : { errors: parsed.errors.map((err) => `${file.full}: ${err}`) };
}
