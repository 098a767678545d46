/**
 * Agents from project folders given at start (`--agents <dir>`): every agent project under each
 * folder, in either layout:
 *
 * - versioned, as the example agents: `<agent-id>/agent.json` (name, description, active version,
 *   versions) and one project per version in `<agent-id>/<version-id>/`;
 * - single: one folder of `*.aui.json` files is one agent with one version (`local`); its id is
 *   the `"id"` of `agent.aui.json` when it has one, else the folder's name.
 *
 * A folder given may itself be a project (either layout) or hold projects as sub-folders. A
 * project that cannot be read, does not assemble or does not validate is reported as problems
 * (file, path in the bundle, message) and skipped; nothing here throws.
 *
 * What the folders hold is untrusted input, read as `registry.ts` reads projects: regular files
 * only (a FIFO never blocks a start or a reload), bounded in size and number, nothing outside the
 * project (a link leading out of it is refused, a version id is a plain folder name), and no
 * problem quotes what a file holds.
 */
import { readdirSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { BundleIssue } from '../../src/contract/api';
import type { Bundle } from '../../src/contract/bundle';
import { assembleProject } from '../../src/lib/bundle/assemble';
import { validateBundle } from '../../src/lib/bundle/validate';
import {
  AGENT_ID_PATTERN,
  parseManifest,
  PROJECT_LIMITS,
  ProjectFileError,
  projectFiles,
  type AgentRecord,
  type AgentVersionRecord,
} from './registry';
import { liesWithin, parseJsonText, readRegularFile } from './untrusted-files';

export interface AgentLoadProblem {
  /** The project folder, as given on the command line joined with the project's folder. */
  project: string;
  /** The file the problem is in (relative to the project), or '' for the project as a whole. */
  file: string;
  /** Where in the assembled bundle, dotted (e.g. `agent_tools.0.rules`), or '' when none. */
  path: string;
  message: string;
  /**
   * `error`: the project was skipped (set on every problem `loadAgentFolders` answers); `warning`:
   * it loaded, but this part of it was ignored (a file whose name is not a project file's).
   */
  severity?: 'error' | 'warning';
}

/** A problem as reported: whether the project was skipped or only part of it ignored. */
export type ReportedProblem = AgentLoadProblem & { severity: 'error' | 'warning' };

export interface FolderAgents {
  agents: AgentRecord[];
  problems: ReportedProblem[];
}

/** The version id of a single-layout project. */
const SINGLE_VERSION_ID = 'local';
/** At most this many projects are read from one folder given. */
const MAX_PROJECTS = 200;

const message = (e: unknown) => (e instanceof Error ? e.message : String(e));
const isDir = (path: string) => {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
};
const exists = (path: string) => {
  try {
    statSync(path);
    return true;
  } catch {
    return false;
  }
};
const hasProjectFiles = (dir: string) => readdirSync(dir).some((name) => name.endsWith('.aui.json'));

/** The project file a bundle path comes from (the tool files are in file-name order, as assembled). */
function fileOfLoc(loc: readonly (string | number)[], toolFiles: string[]): string {
  const [key, index] = loc;
  if (key === 'general_settings' || key === 'schema_version') return 'agent.aui.json';
  if (key === 'agent_tools' || key === 'tools')
    return typeof index === 'number' ? (toolFiles[index] ?? 'tools/') : 'tools/';
  if (typeof key === 'string' && key) return `${key}.aui.json`;
  return '';
}

/** One project folder (within `within`, when given) → its bundle, or the problems that keep it from being used. */
function readProject(
  root: string,
  within?: string,
): { bundle: Bundle; ignored: AgentLoadProblem[] } | { problems: AgentLoadProblem[] } {
  const at = (file: string, path: string, text: string): AgentLoadProblem => ({
    project: root,
    file,
    path,
    message: text,
  });
  let files;
  try {
    files = projectFiles(root, within);
  } catch (e) {
    if (e instanceof ProjectFileError) return { problems: [at(e.file, '', e.reason)] };
    return { problems: [at('', '', `cannot read the project: ${message(e)}`)] };
  }
  if (files.length === 0) return { problems: [at('', '', 'the project has no *.aui.json files')] };
  const { bundle, issues: assembly } = assembleProject(files);
  const assemblyErrors = assembly.filter((i) => i.severity === 'error');
  if (assemblyErrors.length > 0)
    return {
      problems: assemblyErrors.map((i) => at(String(i.loc[0] ?? ''), i.loc.slice(1).join('.'), i.message)),
    };
  const toolFiles = files
    .map((f) => f.path)
    .filter((p) => p.startsWith('tools/'))
    .sort();
  const errors = validateBundle(bundle).filter((i: BundleIssue) => i.severity === 'error');
  if (errors.length > 0)
    return { problems: errors.map((i) => at(fileOfLoc(i.loc, toolFiles), i.loc.join('.'), i.message)) };
  // What the assembly left out (a misnamed file, a key beside a tool) is said, never silent.
  const ignored = assembly.map((i): AgentLoadProblem => ({
    ...at(String(i.loc[0] ?? ''), i.loc.slice(1).join('.'), i.message),
    severity: 'warning',
  }));
  return { bundle, ignored };
}

/** The `"id"` an agent.aui.json names (bare or wrapped), if any. */
function idFromAgentFile(root: string): string | undefined {
  try {
    const doc = parseJsonText(readRegularFile(join(root, 'agent.aui.json'), PROJECT_LIMITS.bytes, root));
    const id = doc && typeof doc === 'object' ? (doc as { id?: unknown }).id : undefined;
    return typeof id === 'string' ? id : undefined;
  } catch {
    return undefined;
  }
}

function loadSingle(root: string, within?: string): { agent?: AgentRecord; problems: AgentLoadProblem[] } {
  const id = idFromAgentFile(root) ?? basename(root);
  if (!AGENT_ID_PATTERN.test(id))
    return {
      problems: [
        {
          project: root,
          file: 'agent.aui.json',
          path: 'id',
          message: `"${id}" cannot be an agent id (letters, digits, ".", "_" and "-", at most 100)`,
        },
      ],
    };
  const read = readProject(root, within);
  if ('problems' in read) return { problems: read.problems };
  const settings = read.bundle.general_settings;
  return {
    agent: {
      id,
      name: settings?.name?.trim() || id,
      description: settings?.objective ?? '',
      active_version: SINGLE_VERSION_ID,
      versions: [
        {
          id: SINGLE_VERSION_ID,
          tag: null,
          description: `The project in ${basename(root)}/`,
          bundle: read.bundle,
        },
      ],
    },
    problems: read.ignored,
  };
}

function loadVersioned(agentDir: string): { agent?: AgentRecord; problems: AgentLoadProblem[] } {
  const id = basename(agentDir);
  const problem = (text: string): AgentLoadProblem => ({
    project: agentDir,
    file: 'agent.json',
    path: '',
    message: text,
  });
  if (!AGENT_ID_PATTERN.test(id)) return { problems: [problem(`"${id}" cannot be an agent id`)] };
  let manifest;
  try {
    manifest = parseManifest(join(agentDir, 'agent.json'));
  } catch (e) {
    return { problems: [problem(message(e))] };
  }
  const versions: AgentVersionRecord[] = [];
  const problems: AgentLoadProblem[] = [];
  const ignored: AgentLoadProblem[] = [];
  for (const v of manifest.versions) {
    const read = readProject(join(agentDir, v.id), agentDir);
    if ('problems' in read) problems.push(...read.problems);
    else {
      versions.push({ id: v.id, tag: v.tag, description: v.description ?? '', bundle: read.bundle });
      ignored.push(...read.ignored);
    }
  }
  if (problems.length > 0) return { problems: [...problems, ...ignored] };
  return {
    agent: {
      id,
      name: manifest.name,
      description: manifest.description,
      active_version: manifest.active_version,
      versions,
    },
    problems: ignored,
  };
}

/** The project in `dir` (a folder of `within`, when given). */
function loadProject(dir: string, within?: string) {
  if (within !== undefined && !liesWithin(dir, within))
    return {
      problems: [
        {
          project: dir,
          file: '',
          path: '',
          message: `it leads out of the folder ${within} (a link elsewhere)`,
        },
      ],
    };
  return exists(join(dir, 'agent.json')) ? loadVersioned(dir) : loadSingle(dir, within);
}

/** Every agent under the folders given; the first agent of an id wins, a later one is reported. */
export function loadAgentFolders(
  dirs: readonly string[],
  takenIds: ReadonlySet<string> = new Set(),
): FolderAgents {
  const agents: AgentRecord[] = [];
  const problems: AgentLoadProblem[] = [];
  const taken = new Set(takenIds);
  const add = (dir: string, loaded: { agent?: AgentRecord; problems: AgentLoadProblem[] }) => {
    problems.push(...loaded.problems);
    if (!loaded.agent) return;
    if (taken.has(loaded.agent.id)) {
      problems.push({
        project: dir,
        file: '',
        path: '',
        message: `another agent already has the id "${loaded.agent.id}"; this project is skipped`,
      });
      return;
    }
    taken.add(loaded.agent.id);
    agents.push(loaded.agent);
  };
  for (const dir of dirs) {
    if (!isDir(dir)) {
      problems.push({ project: dir, file: '', path: '', message: 'not a folder (or it cannot be read)' });
      continue;
    }
    try {
      if (exists(join(dir, 'agent.json')) || hasProjectFiles(dir)) {
        add(dir, loadProject(dir));
        continue;
      }
      const subdirs = readdirSync(dir)
        .sort()
        .map((name) => join(dir, name))
        .filter((sub) => isDir(sub) && (exists(join(sub, 'agent.json')) || hasProjectFiles(sub)));
      if (subdirs.length === 0)
        problems.push({
          project: dir,
          file: '',
          path: '',
          message: 'holds no agent project (agent.json or *.aui.json files)',
        });
      for (const sub of subdirs.slice(0, MAX_PROJECTS)) add(sub, loadProject(sub, dir));
      if (subdirs.length > MAX_PROJECTS)
        problems.push({
          project: dir,
          file: '',
          path: '',
          message: `only the first ${MAX_PROJECTS} projects were read`,
        });
    } catch (e) {
      problems.push({ project: dir, file: '', path: '', message: `cannot read: ${message(e)}` });
    }
  }
  return { agents, problems: problems.map((p) => ({ ...p, severity: p.severity ?? 'error' })) };
}

/** One line per problem, for the start-up report: `project/file: path: message`. */
export function describeProblem(p: AgentLoadProblem): string {
  const where = p.file ? join(p.project, p.file) : p.project;
  return `${where}: ${p.path ? `${p.path}: ` : ''}${p.message}`;
}
