/**
 * A suite as a folder of `*.case.json` files: what a picked or dropped folder holds (each file
 * validated on its own: the valid cases are kept, every refused file is named with its problems),
 * and the files an export writes. Pure: the component reads and writes the files.
 */
import { strToU8, zipSync } from 'fflate';
import { parseTestCase, serializeTestCase } from '../../lib/test-cases';
import { CASE_SUFFIX } from '../../domain/suites/file-names';
import type { ImportedCase, SuiteEntry } from '../../domain/suites/suites-store';

/** A file as the browser gives it (the bundle editor's reader produces these). */
export interface PickedFile {
  path: string;
  text: string;
}

const MAX_CASE_FILE = 1_000_000;

export interface RefusedFile {
  file: string;
  problems: string[];
}

export interface SuiteFolder {
  cases: ImportedCase[];
  refused: RefusedFile[];
  /** Files that are no case files (not `*.case.json`), left alone. */
  ignored: number;
}

const baseName = (path: string) => path.replace(/\\/g, '/').split('/').pop() ?? path;

/** Reads the case files of a folder for the suite of `agentId`. */
export function readSuiteFolder(files: readonly PickedFile[], agentId: string): SuiteFolder {
  const cases: ImportedCase[] = [];
  const refused: RefusedFile[] = [];
  const taken = new Map<string, string>();
  let ignored = 0;
  for (const f of files) {
    const file = baseName(f.path);
    if (!file.endsWith(CASE_SUFFIX)) {
      ignored += 1;
      continue;
    }
    if (f.text.length > MAX_CASE_FILE) {
      refused.push({ file: f.path, problems: [`larger than ${MAX_CASE_FILE / 1_000_000} MB`] });
      continue;
    }
    const parsed = parseTestCase(f.text);
    if (!parsed.ok) {
      refused.push({ file: f.path, problems: parsed.errors });
      continue;
    }
    if (parsed.value.agent_id !== agentId) {
      refused.push({
        file: f.path,
        problems: [`agent_id: this case is for agent ${parsed.value.agent_id}; this suite is ${agentId}'s`],
      });
      continue;
    }
    const first = taken.get(file);
    if (first !== undefined) {
      refused.push({ file: f.path, problems: [`the same file name as ${first}: one of them is kept`] });
      continue;
    }
    taken.set(file, f.path);
    cases.push({ file, testCase: parsed.value });
  }
  return { cases, refused, ignored };
}

/** The files of an exported suite: one `*.case.json` per case, as the format writes it. */
export function suiteFiles(entries: readonly SuiteEntry[]): PickedFile[] {
  return entries.map((e) => ({ path: e.file, text: serializeTestCase(e.testCase) }));
}

/** The suite as a zip holding one folder (for browsers without the File System Access API). */
export function suiteZip(entries: readonly SuiteEntry[], folder: string): Uint8Array {
  const tree: Record<string, Uint8Array> = Object.create(null) as Record<string, Uint8Array>;
  for (const f of suiteFiles(entries)) tree[`${folder}/${f.path}`] = strToU8(f.text);
  return zipSync(tree, { level: 6 });
}

/** A one-paragraph account of an import, naming each refused file and its first problems. */
export function describeImport(
  folder: SuiteFolder,
  outcome: { added: number; replaced: number } | null,
): string {
  const parts: string[] = [];
  if (outcome)
    parts.push(
      `${outcome.added} case${outcome.added === 1 ? '' : 's'} added${outcome.replaced ? `, ${outcome.replaced} replaced (same file name)` : ''}.`,
    );
  if (folder.cases.length === 0 && folder.refused.length === 0)
    parts.push('No case files found: a suite folder holds *.case.json files.');
  if (folder.ignored) parts.push(`${folder.ignored} other file${folder.ignored === 1 ? '' : 's'} ignored.`);
  return parts.join(' ');
}
