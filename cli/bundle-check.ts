/**
 * A bundle file or an agent project folder checked as the service and the editor check it, each
 * problem placed in the file the author wrote (`file:line:column`): what `threadline validate`
 * prints, and what `test --bundle`, `lint` and `diff` say when a bundle cannot be used.
 */
import { statSync } from 'node:fs';
import { join } from 'node:path';
import type { BundleIssue } from '../src/contract/api';
import type { Bundle } from '../src/contract/bundle';
import { assembleProject, type ProjectFile } from '../src/lib/bundle/assemble';
import { formatLoc } from '../src/lib/bundle/issue-codes';
import { locateInJson, offsetToLineColumn, type Loc } from '../src/lib/bundle/locate';
import { validateBundle } from '../src/lib/bundle/validate';
import { projectFiles } from '../server/agents/registry';
import { readRegularFile } from '../server/agents/untrusted-files';
import { MAX_BUNDLE_BYTES } from './files';
import { jsonErrorOffset } from './json-syntax';

export interface Problem {
  /** `file:line:column`, or the file (or folder) alone when no place in it is known. */
  where: string;
  severity: 'error' | 'warning';
  /** Where in the bundle (`rules[2].condition`), when the problem has such a place. */
  path?: string;
  message: string;
  /** A part of a project the assembly left out (a file whose name is not a project file's). */
  ignored?: true;
}

const message = (e: unknown) => (e instanceof Error ? e.message : String(e));

/** `file:line:column` of the value at `loc` in `text` (of its nearest existing ancestor). */
function place(file: string, text: string, loc: Loc): string {
  const range = locateInJson(text, loc);
  if (!range) return file;
  const { line, column } = offsetToLineColumn(text, range.start);
  return `${file}:${line}:${column}`;
}

/** `file:line:column` of a JSON syntax error. */
function syntaxPlace(file: string, text: string): string {
  const at = jsonErrorOffset(text);
  if (at === null) return file;
  const { line, column } = offsetToLineColumn(text, at);
  return `${file}:${line}:${column}`;
}

interface Checked {
  /** The document, when it is JSON (or the project's files assembled). */
  doc: unknown;
  problems: Problem[];
}

function checkBundleFile(path: string, text: string): Checked {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (e) {
    const problem: Problem = {
      where: syntaxPlace(path, text),
      severity: 'error',
      message: `not valid JSON: ${message(e)}`,
    };
    return { doc: undefined, problems: [problem] };
  }
  const problems = validateBundle(doc).map((i): Problem => ({
    where: place(path, text, i.loc),
    severity: i.severity,
    ...(i.loc.length ? { path: formatLoc(i.loc) } : {}),
    message: `${i.message} (${i.code})`,
  }));
  return { doc, problems };
}

/**
 * The project file holding the bundle's value at `loc`, and where in that file: a tool in its
 * `tools/` file (bare or under "tool"), any other key in the file that claims it (bare, as
 * agent.aui.json holds the general settings, or wrapped in an object naming it).
 */
function inProject(files: readonly ProjectFile[], loc: Loc): { file: ProjectFile; inner: Loc } | null {
  const [key, index, ...rest] = loc;
  if (typeof key !== 'string') return null;
  // A project file comes parsed (text only from a caller that read it itself).
  const parsed = (f: ProjectFile): unknown => {
    if (typeof f.content !== 'string') return f.content;
    try {
      return JSON.parse(f.content) as unknown;
    } catch {
      return undefined;
    }
  };
  const isObject = (v: unknown): v is Record<string, unknown> =>
    typeof v === 'object' && v !== null && !Array.isArray(v);
  if (key === 'agent_tools' && typeof index === 'number') {
    const tools = files
      .filter((f) => /^tools\/[^/]+\.aui\.json$/.test(f.path))
      .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    const file = tools[index];
    if (file) {
      const value = parsed(file);
      return { file, inner: isObject(value) && isObject(value.tool) ? ['tool', ...rest] : rest };
    }
  }
  const tail = loc.slice(1);
  for (const file of files) {
    if (file.path.startsWith('tools/')) continue;
    const value = parsed(file);
    if (isObject(value) && key in value && (file.path !== 'agent.aui.json' || 'general_settings' in value))
      return { file, inner: loc };
    const bare = file.path === 'agent.aui.json' ? 'general_settings' : file.path.replace(/\.aui\.json$/, '');
    if (bare === key && (Array.isArray(value) || (isObject(value) && file.path === 'agent.aui.json')))
      return { file, inner: tail };
  }
  return null;
}

/** A project file's text, for the line and column of a place in it ('' when it cannot be read again). */
function textOf(folder: string, file: ProjectFile): string {
  if (typeof file.content === 'string') return file.content;
  try {
    return readRegularFile(join(folder, file.path), MAX_BUNDLE_BYTES, folder);
  } catch {
    return '';
  }
}

function checkProject(folder: string): Checked {
  const files = projectFiles(folder);
  if (files.length === 0)
    return {
      doc: undefined,
      problems: [{ where: folder, severity: 'error', message: 'the folder holds no *.aui.json file' }],
    };
  const { bundle, issues: assembly } = assembleProject(files);
  const byPath = new Map(files.map((f) => [f.path, f]));
  // Each file's text is read again once, for all the problems placed in it.
  const texts = new Map<ProjectFile, string>();
  const text = (file: ProjectFile) => texts.get(file) ?? texts.set(file, textOf(folder, file)).get(file)!;
  const problem = (i: BundleIssue, file: ProjectFile | undefined, inner: Loc): Problem => ({
    where: file ? place(join(folder, file.path), text(file), inner) : folder,
    severity: i.severity,
    ...(i.loc.length ? { path: formatLoc(i.loc) } : {}),
    message: `${i.message} (${i.code})`,
  });
  const problems = assembly.map((i): Problem => {
    const file = byPath.get(String(i.loc[0] ?? ''));
    const found = { ...problem(i, file, i.loc.slice(1)), path: formatLoc(i.loc.slice(1)) };
    return i.severity === 'warning' ? { ...found, ignored: true } : found;
  });
  // The bundle is validated only once its files assemble: otherwise its problems are those of the assembly.
  if (problems.some((p) => p.severity === 'error')) return { doc: undefined, problems };
  for (const i of validateBundle(bundle)) {
    const at = inProject(files, i.loc);
    problems.push(problem(i, at?.file, at?.inner ?? []));
  }
  return { doc: bundle, problems };
}

/** Checks the bundle file or project folder at `path`; throws when it cannot be read. */
export function checkBundle(path: string): { bundle: Bundle | null; problems: Problem[] } {
  const { doc, problems } = statSync(path).isDirectory()
    ? checkProject(path)
    : checkBundleFile(path, readRegularFile(path, MAX_BUNDLE_BYTES));
  const runnable = doc !== undefined && problems.every((p) => p.severity !== 'error');
  return { bundle: runnable ? (doc as Bundle) : null, problems };
}

/** One line: `file:line:column: severity: where in the bundle: message`. */
export function describeProblem(p: Problem): string {
  return `${p.where}: ${p.severity}: ${p.path ? `${p.path}: ` : ''}${p.message}`;
}

/**
 * A bundle to run or analyse, with what of its project was ignored (each placed, said before
 * anything runs: a misnamed file must never drop its rules in silence); or why it cannot be used
 * (its errors, each placed).
 */
export function readBundle(path: string): { bundle: Bundle; ignored: string[] } | { errors: string[] } {
  let checked;
  try {
    checked = checkBundle(path);
  } catch (e) {
    return { errors: [`cannot read the bundle ${path}: ${message(e)}`] };
  }
  if (checked.bundle)
    return {
      bundle: checked.bundle,
      ignored: checked.problems.filter((p) => p.ignored).map(describeProblem),
    };
  return { errors: checked.problems.filter((p) => p.severity === 'error').map(describeProblem) };
}
