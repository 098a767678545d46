/**
 * Turning what the user picked or dropped into editor text: an agent project folder (its
 * `*.aui.json` files, assembled by the shared assembler) or a single bundle JSON file.
 * Pure: the component reads the files and hands over paths and texts.
 */
import type { BundleIssue } from '../../contract/api';
import { assembleProject } from '../../lib/bundle/assemble';
import { plural } from '../../lib/format';

export interface PickedFile {
  /** Path as the browser gives it: `webkitRelativePath` for a folder pick, the name for a drop. */
  path: string;
  text: string;
}

export type ImportResult =
  | { ok: true; kind: 'project' | 'bundle'; text: string; issues: BundleIssue[]; fileCount: number }
  | { ok: false; message: string; issues: BundleIssue[] };

const PROJECT_EXT = '.aui.json';
const TOP_LEVEL = new Set(['agent', 'parameters', 'entities', 'integrations', 'rules', 'computations']);

const segments = (p: string) =>
  p
    .replace(/\\/g, '/')
    .split('/')
    .filter((s) => s && s !== '.');

/**
 * Project-relative paths: the picked folder's own name (and any folders above it that every file
 * shares) is dropped; a loose file that is not a top-level project file is taken as a tool file
 * (a drop of files loses their folders).
 */
export function projectPaths(paths: readonly string[]): string[] {
  let parts = paths.map(segments);
  const isRootFile = (s: string[]) => s.length === 1 && TOP_LEVEL.has(s[0]!.slice(0, -PROJECT_EXT.length));
  while (
    parts.length > 0 &&
    parts.every((s) => s.length > 1 && s[0] === parts[0]![0]) &&
    !(parts[0]![0] === 'tools' && parts.some((s) => s.length === 2))
  ) {
    parts = parts.map((s) => s.slice(1));
  }
  return parts.map((s) => {
    if (s.length === 1 && !isRootFile(s)) return `tools/${s[0]}`;
    return s.join('/');
  });
}

/** Unwraps what a bundle file may hold around the bundle: a request body or an agent-bundle answer. */
export function unwrapBundle(doc: unknown): unknown {
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) return doc;
  const o = doc as Record<string, unknown>;
  if ('agent_settings_bundle' in o && typeof o.agent_settings_bundle === 'object')
    return o.agent_settings_bundle;
  if ('bundle' in o && typeof o.bundle === 'object' && ('agent_id' in o || Object.keys(o).length === 1))
    return o.bundle;
  return doc;
}

export function importFiles(files: readonly PickedFile[]): ImportResult {
  if (files.length === 0) return { ok: false, message: 'No files were picked.', issues: [] };
  const projectFiles = files.filter((f) => f.path.endsWith(PROJECT_EXT));
  if (projectFiles.length === 0) {
    const jsonFiles = files.filter((f) => f.path.toLowerCase().endsWith('.json'));
    if (jsonFiles.length !== 1) {
      return {
        ok: false,
        message: `Pick one bundle file (.json) or an agent project (*${PROJECT_EXT} files); got ${plural(files.length, 'file')} without a project file.`,
        issues: [],
      };
    }
    const file = jsonFiles[0]!;
    let doc: unknown;
    try {
      doc = JSON.parse(file.text);
    } catch (e) {
      return {
        ok: false,
        message: `${file.path} is not valid JSON: ${e instanceof Error ? e.message : String(e)}`,
        issues: [],
      };
    }
    const bundle = unwrapBundle(doc);
    return {
      ok: true,
      kind: 'bundle',
      text: `${JSON.stringify(bundle, null, 2)}\n`,
      issues: [],
      fileCount: 1,
    };
  }
  const paths = projectPaths(projectFiles.map((f) => f.path));
  const { bundle, issues } = assembleProject(
    projectFiles.map((f, i) => ({ path: paths[i]!, content: f.text })),
  );
  const errors = issues.filter((i) => i.severity === 'error');
  if (errors.length > 0) {
    return {
      ok: false,
      message: `The project could not be assembled: ${errors.map((e) => e.message).join(' ')}`,
      issues,
    };
  }
  return {
    ok: true,
    kind: 'project',
    text: `${JSON.stringify(bundle, null, 2)}\n`,
    issues,
    fileCount: projectFiles.length,
  };
}

/** A safe download name for an exported bundle. */
export function exportFileName(agentId: string | null | undefined): string {
  const stem = (agentId ?? '')
    .toLowerCase()
    .replace(/[^a-z0-9_-]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return `${stem || 'agent'}.bundle.json`;
}
