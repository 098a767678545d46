/** Reads a suite folder and a bundle (file or agent project folder) from disk. */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { Bundle } from '../src/contract/bundle';
import { assembleProject } from '../src/lib/bundle/assemble';
import { isRunnable, validateBundle } from '../src/lib/bundle/validate';
import { parseTestCase, type SuiteCase } from '../src/lib/test-cases';
import { projectFiles } from '../server/agents/registry';

export const CASE_SUFFIX = '.case.json';

const message = (e: unknown) => (e instanceof Error ? e.message : String(e));

/** Every `*.case.json` directly in the folder (sorted by name), or the one case file given. */
export function readSuite(path: string): { cases: SuiteCase[]; errors: string[] } {
  let files: { source: string; full: string }[];
  try {
    files = statSync(path).isDirectory()
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
      text = readFileSync(f.full, 'utf8');
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
    } else doc = JSON.parse(readFileSync(path, 'utf8'));
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
