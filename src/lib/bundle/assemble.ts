/**
 * Agent projects on disk ⇄ one bundle document.
 *
 * A project is a folder of `*.aui.json` files (paths relative to the project root):
 *   agent.aui.json          → general_settings
 *   parameters.aui.json     → parameters      (likewise entities, integrations, rules, computations)
 *   tools/<name>.aui.json   → one tool each, appended to agent_tools in file-name order
 *
 * A file is either bare (the value itself: an array, a tool, the general settings) or wrapped in
 * an object naming its key (`{"parameters": [...]}`, `{"tool": {...}}`, `{"general_settings": {...}}`).
 * A wrapped top-level file is a partial bundle: every key it holds is claimed, so
 * `agent.aui.json` may also carry `schema_version`. Two files claiming the same key is an error;
 * nothing is ever merged. Pure; no file-system access (the caller reads the files).
 */
import { lookupTable } from './lookup';
import type { BundleIssue } from '../../contract/api';
import type { Bundle, Tool } from '../../contract/bundle';

export interface ProjectFile {
  /** Path relative to the project root, `/`-separated, e.g. `tools/dispute_charge.aui.json`. */
  path: string;
  /** The parsed JSON, or the raw text (parsed here). */
  content: unknown;
}

export const ASSEMBLY_ISSUE_CODES = {
  assembly_invalid_json: 'A project file is not valid JSON.',
  assembly_wrong_shape:
    'A project file does not hold what its name promises (e.g. parameters.aui.json is not a list).',
  assembly_duplicate_key: 'Two project files claim the same bundle key; nothing is merged.',
  assembly_unknown_file: 'A file whose name is not part of the project layout; it is ignored.',
  assembly_ignored_key: 'A key in a tool file next to its "tool" wrapper; it is ignored.',
} as const;
export type AssemblyIssueCode = keyof typeof ASSEMBLY_ISSUE_CODES;

const EXTENSION = '.aui.json';
const TOOLS_DIR = 'tools/';

/** Top-level file name (without extension) → the bundle key it holds. */
const LIST_FILES = lookupTable({
  parameters: 'parameters',
  entities: 'entities',
  integrations: 'integrations',
  rules: 'rules',
  computations: 'computations',
});

/** The order keys appear in an assembled bundle (then any other key, alphabetically). */
const KEY_ORDER = [
  'schema_version',
  'general_settings',
  'parameters',
  'entities',
  'integrations',
  'rules',
  'computations',
  'agent_tools',
];

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

function issue(
  code: AssemblyIssueCode,
  message: string,
  loc: (string | number)[],
  severity: BundleIssue['severity'] = 'error',
): BundleIssue {
  return { code, message, loc, severity };
}

function normalizeProjectPath(path: string): string {
  return path
    .replace(/\\/g, '/')
    .replace(/^(\.\/)+/, '')
    .replace(/^\/+/, '');
}

function parseContent(
  file: ProjectFile,
  issues: BundleIssue[],
): { ok: true; value: unknown } | { ok: false } {
  if (typeof file.content !== 'string') return { ok: true, value: file.content };
  try {
    return { ok: true, value: JSON.parse(file.content) as unknown };
  } catch (e) {
    const why = e instanceof Error ? e.message : String(e);
    issues.push(issue('assembly_invalid_json', `${file.path} is not valid JSON: ${why}`, [file.path]));
    return { ok: false };
  }
}

interface Claim {
  value: unknown;
  path: string;
  /** Where the value sits inside its file (after the file path). */
  inner: (string | number)[];
}

/**
 * Assembles a project's files into one bundle. Issues carry the file path first in `loc`.
 * The bundle holds whatever could be assembled, also when there are errors.
 */
export function assembleProject(files: ProjectFile[]): { bundle: Bundle; issues: BundleIssue[] } {
  const issues: BundleIssue[] = [];
  const claims = new Map<string, Claim>();
  const toolFiles: { path: string; value: unknown; inner: (string | number)[] }[] = [];

  const claim = (key: string, c: Claim) => {
    const prior = claims.get(key);
    if (prior) {
      issues.push(
        issue(
          'assembly_duplicate_key',
          `Both ${prior.path} and ${c.path} define "${key}". Keep it in one file (files are never merged).`,
          [c.path, ...c.inner],
        ),
      );
      return;
    }
    claims.set(key, c);
  };

  const sorted = files
    .map((f) => ({ ...f, path: normalizeProjectPath(f.path) }))
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));

  for (const file of sorted) {
    const { path } = file;
    const base = path.endsWith(EXTENSION) ? path.slice(0, -EXTENSION.length) : null;
    const isTool =
      base !== null &&
      base.startsWith(TOOLS_DIR) &&
      !base.slice(TOOLS_DIR.length).includes('/') &&
      base.length > TOOLS_DIR.length;
    const listKey = base !== null ? LIST_FILES[base] : undefined;
    if (base !== 'agent' && !listKey && !isTool) {
      issues.push(
        issue(
          'assembly_unknown_file',
          `${path} is not part of an agent project (expected agent, parameters, entities, integrations, rules or computations${EXTENSION} at the root, or tools/<name>${EXTENSION}); it was ignored.`,
          [path],
          'warning',
        ),
      );
      continue;
    }
    const parsed = parseContent(file, issues);
    if (!parsed.ok) continue;
    const value = parsed.value;

    if (isTool) {
      if (isObject(value) && isObject(value.tool)) {
        for (const k of Object.keys(value)) {
          if (k !== 'tool') {
            issues.push(
              issue(
                'assembly_ignored_key',
                `${path}: "${k}" next to "tool" is ignored; put it inside the tool.`,
                [path, k],
                'warning',
              ),
            );
          }
        }
        toolFiles.push({ path, value: value.tool, inner: ['tool'] });
      } else if (isObject(value)) {
        toolFiles.push({ path, value, inner: [] });
      } else {
        issues.push(
          issue(
            'assembly_wrong_shape',
            `${path} must hold one tool (an object, bare or as {"tool": {...}}).`,
            [path],
          ),
        );
      }
      continue;
    }

    if (base === 'agent') {
      if (!isObject(value)) {
        issues.push(
          issue(
            'assembly_wrong_shape',
            `${path} must hold the general settings (an object, bare or as {"general_settings": {...}}).`,
            [path],
          ),
        );
      } else if ('general_settings' in value) {
        for (const [k, v] of Object.entries(value)) claim(k, { value: v, path, inner: [k] });
      } else {
        claim('general_settings', { value, path, inner: [] });
      }
      continue;
    }

    // A list file: bare array, or wrapped in an object holding its key (a partial bundle).
    const key = listKey as string;
    if (Array.isArray(value)) {
      claim(key, { value, path, inner: [] });
    } else if (isObject(value) && key in value) {
      for (const [k, v] of Object.entries(value)) claim(k, { value: v, path, inner: [k] });
    } else {
      issues.push(
        issue(
          'assembly_wrong_shape',
          `${path} must hold the ${key} list (an array, bare or as {"${key}": [...]}).`,
          [path],
        ),
      );
    }
  }

  if (toolFiles.length > 0) {
    const priorKey = claims.has('agent_tools') ? 'agent_tools' : claims.has('tools') ? 'tools' : null;
    const prior = priorKey ? claims.get(priorKey) : undefined;
    if (prior) {
      issues.push(
        issue(
          'assembly_duplicate_key',
          `${prior.path} defines "${priorKey}" and the project also has ${TOOLS_DIR} files. Keep the tools in one place (files are never merged).`,
          [prior.path, ...prior.inner],
        ),
      );
    } else {
      claims.set('agent_tools', { value: toolFiles.map((t) => t.value), path: TOOLS_DIR, inner: [] });
    }
  }

  const keys = [...claims.keys()].sort((a, b) => rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0));
  // fromEntries defines own keys: a file claiming "__proto__" adds a key, never a prototype.
  const bundle = Object.fromEntries(keys.map((k) => [k, claims.get(k)!.value]));
  return { bundle, issues };
}

function rank(key: string): number {
  const i = KEY_ORDER.indexOf(key);
  return i === -1 ? KEY_ORDER.length : i;
}

/** `DISPUTE_CHARGE` → `dispute_charge`; anything unsafe in a file name becomes `_`. */
export function toolFileStem(code: unknown): string {
  const raw = typeof code === 'string' ? code : '';
  const stem = raw
    .toLowerCase()
    .replace(/[^a-z0-9_-]+/g, '_')
    .replace(/^_+|_+$/g, '');
  return stem || 'tool';
}

/**
 * The reverse of `assembleProject`: one file per key, one per tool, all wrapped. Tool file names
 * come from the tool codes; when file-name order would not keep the bundle's tool order, names
 * get a numeric prefix (`01_`, `02_`, ...) so that assembling the files gives the same bundle.
 */
export function disassembleBundle(bundle: Bundle): ProjectFile[] {
  const doc = bundle as Json;
  const toolsKey = Array.isArray(doc.agent_tools) ? 'agent_tools' : Array.isArray(doc.tools) ? 'tools' : null;
  const tools = toolsKey ? (doc[toolsKey] as unknown[]) : [];

  const agent = Object.create(null) as Json;
  const lists: ProjectFile[] = [];
  for (const [k, v] of Object.entries(doc)) {
    if (v === undefined || k === toolsKey) continue;
    if (LIST_FILES[k] && Array.isArray(v)) lists.push({ path: `${k}${EXTENSION}`, content: { [k]: v } });
    else agent[k] = v;
  }
  const files: ProjectFile[] = [];
  if (Object.keys(agent).length > 0) {
    const { general_settings, schema_version, ...rest } = agent;
    files.push({
      path: `agent${EXTENSION}`,
      content: {
        ...(schema_version !== undefined ? { schema_version } : {}),
        general_settings: general_settings ?? {},
        ...rest,
      },
    });
  }
  lists.sort(
    (a, b) =>
      rank(LIST_FILES[a.path.slice(0, -EXTENSION.length)]!) -
      rank(LIST_FILES[b.path.slice(0, -EXTENSION.length)]!),
  );
  files.push(...lists);
  files.push(...toolFiles(tools));
  return files;
}

function toolFiles(tools: unknown[]): ProjectFile[] {
  const stems: string[] = [];
  const seen = new Set<string>();
  for (const t of tools) {
    const base = toolFileStem(isObject(t) ? (t as Tool).code : undefined);
    let stem = base;
    for (let n = 2; seen.has(stem); n++) stem = `${base}_${n}`;
    seen.add(stem);
    stems.push(stem);
  }
  const plain = stems.map((s) => `${TOOLS_DIR}${s}${EXTENSION}`);
  if (plain.every((p, i) => i === 0 || plain[i - 1]! < p))
    return tools.map((tool, i) => ({ path: plain[i]!, content: { tool } }));
  const width = Math.max(2, String(tools.length).length);
  return tools.map((tool, i) => ({
    path: `${TOOLS_DIR}${String(i + 1).padStart(width, '0')}_${stems[i]}${EXTENSION}`,
    content: { tool },
  }));
}
