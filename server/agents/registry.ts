/**
 * The example agents on disk: `<dir>/<agent-id>/agent.json` (name, description, active version,
 * versions) and one agent project per version in `<dir>/<agent-id>/<version-id>/`.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Bundle } from '../../src/contract/bundle';
import { assembleProject, type ProjectFile } from '../../src/lib/bundle/assemble';

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

function readJson(path: string): unknown {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as unknown;
  } catch (e) {
    throw new Error(`Cannot read ${path}: ${e instanceof Error ? e.message : String(e)}`, { cause: e });
  }
}

export function parseManifest(path: string): AgentManifest {
  const m = readJson(path) as Partial<AgentManifest> | null;
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
  if (!m.versions!.some((v) => v.id === m.active_version)) {
    throw new Error(`${path}: active_version "${m.active_version}" is not one of its versions`);
  }
  return { ...(m as AgentManifest), description: m.description ?? '' };
}

/** Every `*.aui.json` file below `root`, with paths relative to it. */
export function projectFiles(root: string): ProjectFile[] {
  const files: ProjectFile[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir).sort()) {
      const full = join(dir, name);
      if (statSync(full).isDirectory()) walk(full);
      else if (name.endsWith('.aui.json'))
        files.push({ path: relative(root, full).split('\\').join('/'), content: readFileSync(full, 'utf8') });
    }
  };
  walk(root);
  return files;
}

function loadVersion(agentDir: string, v: AgentManifest['versions'][number]): AgentVersionRecord {
  const root = join(agentDir, v.id);
  let files: ProjectFile[];
  try {
    files = projectFiles(root);
  } catch (e) {
    throw new Error(`Cannot read the agent project ${root}: ${e instanceof Error ? e.message : String(e)}`, {
      cause: e,
    });
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
