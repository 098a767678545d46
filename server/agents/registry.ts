/**
 * The example agents on disk: `<dir>/<agent-id>/agent.json` (name, description, active version,
 * versions) and one agent project per version in `<dir>/<agent-id>/<version-id>/`.
 *
 * Project files and manifests are read as untrusted input (`untrusted-files.ts`), as the agent
 * folders given with `--agents` use the same reading: regular files only, within the project,
 * bounded in size and number, and no message quotes what a file holds.
 */
import { readdirSync, realpathSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Bundle } from '../../src/contract/bundle';
import { assembleProject, type ProjectFile } from '../../src/lib/bundle/assemble';
import { FileTooLarge, liesWithin, parseJsonText, readRegularFile } from './untrusted-files';

export interface AgentVersionRecord {
  id: string;
  tag: string | null;
  description: string;
  bundle: Bundle;
  /** When it was published (agents created through the API only). */
  createdAt?: string;
}

export interface AgentRecord {
  id: string;
  name: string;
  description: string;
  active_version: string;
  versions: AgentVersionRecord[];
  /** Where it comes from (see `AgentSource`); an example agent when absent. */
  source?: 'example' | 'folder' | 'created';
}

interface AgentManifest {
  name: string;
  description: string;
  active_version: string;
  versions: { id: string; tag: string | null; description: string }[];
}

const DEFAULT_DIR = dirname(fileURLToPath(import.meta.url));

/** Agent and version ids: what fits a URL path segment and names a folder of its own (never `.` or `..`). */
export const AGENT_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;

/** What one project may hold: its `*.aui.json` files' bytes and number, and the files and folders walked. */
export const PROJECT_LIMITS = { bytes: 16 * 1024 * 1024, files: 1_000, entries: 10_000, depth: 16 };
/** The largest `agent.json` read. */
const MAX_MANIFEST_BYTES = 1024 * 1024;

const reason = (e: unknown) => (e instanceof Error ? e.message : String(e));

/** A project file that cannot be used: which one (relative to the project, '' for the project) and why. */
export class ProjectFileError extends Error {
  constructor(
    readonly file: string,
    readonly reason: string,
  ) {
    super(file ? `${file}: ${reason}` : reason);
    this.name = 'ProjectFileError';
  }
}

/** A JSON file of its folder (no link leading out), at most `limit` bytes. */
function readJsonFile(path: string, limit: number): unknown {
  try {
    return parseJsonText(readRegularFile(path, limit, dirname(path)));
  } catch (e) {
    throw new Error(`Cannot read ${path}: ${reason(e)}`, { cause: e });
  }
}

/** An agent folder's `agent.json`: a regular file of the folder, at most 1 MB, its version ids folder names. */
export function parseManifest(path: string): AgentManifest {
  const m = readJsonFile(path, MAX_MANIFEST_BYTES) as Partial<AgentManifest> | null;
  const ok =
    m !== null &&
    typeof m === 'object' &&
    typeof m.name === 'string' &&
    typeof m.active_version === 'string' &&
    Array.isArray(m.versions) &&
    m.versions.every((v) => v && typeof v.id === 'string' && (typeof v.tag === 'string' || v.tag === null));
  if (!ok)
    throw new Error(
      `${path}: expected {name, description, active_version, versions: [{id, tag, description}]}`,
    );
  const unsafe = m.versions!.find((v) => !AGENT_ID_PATTERN.test(v.id));
  if (unsafe)
    throw new Error(
      `${path}: the version id "${unsafe.id.slice(0, 100)}" cannot name a folder of the agent (letters, digits, ".", "_" and "-", at most 100, starting with a letter or digit)`,
    );
  if (!m.versions!.some((v) => v.id === m.active_version)) {
    throw new Error(`${path}: active_version "${m.active_version}" is not one of its versions`);
  }
  return { ...(m as AgentManifest), description: m.description ?? '' };
}

const PROJECT_FILE = '.aui.json';

/**
 * Every `*.aui.json` file below `root` (with `within`, a project that must lie in that folder),
 * with paths relative to it and its JSON parsed. Links are followed only while they stay in the
 * project; what cannot be used throws a `ProjectFileError` naming the file: a link leading out, a
 * file that is not regular (a FIFO, a device), invalid JSON, past `PROJECT_LIMITS`.
 */
export function projectFiles(root: string, within?: string): ProjectFile[] {
  if (within !== undefined && !liesWithin(root, within))
    throw new ProjectFileError('', `it leads out of the folder ${within} (a link elsewhere)`);
  const top = realpathSync(root);
  const files: ProjectFile[] = [];
  const walked = new Set<string>();
  let bytes = 0;
  let entries = 0;
  const walk = (dir: string, rel: string, depth: number) => {
    const real = realpathSync(dir);
    if (walked.has(real)) return; // a link back to a folder already read
    walked.add(real);
    if (depth > PROJECT_LIMITS.depth)
      throw new ProjectFileError(rel, `folders are nested more than ${PROJECT_LIMITS.depth} deep`);
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) =>
      a.name < b.name ? -1 : 1,
    )) {
      if (++entries > PROJECT_LIMITS.entries)
        throw new ProjectFileError(
          '',
          `the project holds more than ${PROJECT_LIMITS.entries} files and folders`,
        );
      const full = join(dir, entry.name);
      const path = rel ? `${rel}/${entry.name}` : entry.name;
      const isProjectFile = entry.name.endsWith(PROJECT_FILE);
      let isDir = entry.isDirectory();
      if (entry.isSymbolicLink()) {
        if (!liesWithin(full, top)) {
          // A link elsewhere is never followed; one that would be read is refused, saying so.
          if (isProjectFile || isDirectoryAt(full))
            throw new ProjectFileError(
              path,
              'it leads out of the project folder (a link elsewhere); copy it into the project',
            );
          continue;
        }
        isDir = isDirectoryAt(full);
      }
      if (isDir) walk(full, path, depth + 1);
      else if (isProjectFile) {
        if (files.length >= PROJECT_LIMITS.files)
          throw new ProjectFileError(
            '',
            `the project holds more than ${PROJECT_LIMITS.files} *.aui.json files`,
          );
        const read = readProjectFile(full, path, top, PROJECT_LIMITS.bytes - bytes);
        files.push({ path, content: read.content });
        bytes += read.bytes;
      }
    }
  };
  walk(root, '', 0);
  return files;
}

/** One project file's JSON, read within the project and at most `room` bytes (what the project has left). */
function readProjectFile(
  full: string,
  path: string,
  top: string,
  room: number,
): { content: unknown; bytes: number } {
  let text: string;
  let content: unknown;
  try {
    text = readRegularFile(full, room, top);
    content = parseJsonText(text);
  } catch (e) {
    if (e instanceof FileTooLarge)
      throw new ProjectFileError(
        path,
        `the project's *.aui.json files hold more than ${PROJECT_LIMITS.bytes} bytes in all`,
      );
    throw new ProjectFileError(path, reason(e));
  }
  // A string would be taken as JSON text to parse again.
  if (typeof content === 'string')
    throw new ProjectFileError(path, 'it holds a JSON string, not an object or a list');
  return { content, bytes: Buffer.byteLength(text) };
}

const isDirectoryAt = (path: string) => {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
};

function loadVersion(agentDir: string, v: AgentManifest['versions'][number]): AgentVersionRecord {
  const root = join(agentDir, v.id);
  let files: ProjectFile[];
  try {
    files = projectFiles(root, agentDir);
  } catch (e) {
    throw new Error(`Cannot read the agent project ${root}: ${reason(e)}`, { cause: e });
  }
  if (files.length === 0) throw new Error(`The agent project ${root} has no *.aui.json files`);
  const { bundle, issues } = assembleProject(files);
  const errors = issues.filter((i) => i.severity === 'error');
  if (errors.length > 0) {
    const first = errors[0]!;
    throw new Error(
      `The agent project ${root} does not assemble: ${join(root, String(first.loc[0] ?? ''))}: ${first.message}`,
    );
  }
  return { id: v.id, tag: v.tag, description: v.description ?? '', bundle };
}

/** Every agent folder (one holding an agent.json) of `dir`, sorted by id. */
export function loadAgents(dir: string = DEFAULT_DIR): AgentRecord[] {
  const agents: AgentRecord[] = [];
  for (const id of readdirSync(dir).sort()) {
    const agentDir = join(dir, id);
    if (!statSync(agentDir).isDirectory()) continue;
    const manifestPath = join(agentDir, 'agent.json');
    let hasManifest = true;
    try {
      statSync(manifestPath);
    } catch {
      hasManifest = false;
    }
    if (!hasManifest) continue;
    const m = parseManifest(manifestPath);
    agents.push({
      id,
      name: m.name,
      description: m.description,
      active_version: m.active_version,
      versions: m.versions.map((v) => loadVersion(agentDir, v)),
    });
  }
  return agents;
}

/** The pinned version (by id, else by tag); no pin → the active version; unknown pin → undefined. */
export function resolveVersion(
  agent: AgentRecord,
  pin: { version_id?: string; version_tag?: string },
): AgentVersionRecord | undefined {
  if (pin.version_id) return agent.versions.find((v) => v.id === pin.version_id);
  if (pin.version_tag) return agent.versions.find((v) => v.tag === pin.version_tag);
  return agent.versions.find((v) => v.id === agent.active_version);
}
