/**
 * What the Tests tab keeps across a reload of this tab: each agent's last finished run (in
 * sessionStorage: it is this tab's work, not the device's) and the "Run against" choice (in
 * localStorage). A run in progress is not kept: it cannot resume, it is redone. A run too large
 * to store is not kept either (the tab then shows no results after a reload, as before).
 */
import type { SuiteRun } from './suite-run';

const RUN_PREFIX = 'threadline:suite-run:';
const TARGET_PREFIX = 'threadline:suite-target:';
/** sessionStorage holds about 5 MB per origin: one run never takes more than half of it. */
const MAX_STORED_CHARS = 2_500_000;

type StoredRun = Omit<SuiteRun, 'results'> & { results: Array<[string, unknown]> };

function storage(kind: 'session' | 'local'): Storage | null {
  try {
    return kind === 'session' ? globalThis.sessionStorage : globalThis.localStorage;
  } catch {
    return null;
  }
}

/** Keeps a finished run (a running one is not stored; a newer run replaces the older). */
export function saveFinishedRun(run: SuiteRun | undefined): void {
  const store = storage('session');
  if (!store || !run || run.status === 'running') return;
  const text = JSON.stringify({ ...run, results: [...run.results] } satisfies StoredRun);
  try {
    if (text.length > MAX_STORED_CHARS) store.removeItem(RUN_PREFIX + run.agentId);
    else store.setItem(RUN_PREFIX + run.agentId, text);
  } catch {
    // Storage full or refused: the run stays on screen until the tab is reloaded.
  }
}

/** The finished runs kept in this tab, by agent (anything unreadable is dropped). */
export function loadFinishedRuns(): Map<string, SuiteRun> {
  const out = new Map<string, SuiteRun>();
  const store = storage('session');
  if (!store) return out;
  for (let i = 0; i < store.length; i += 1) {
    const key = store.key(i);
    if (!key?.startsWith(RUN_PREFIX)) continue;
    try {
      const stored = JSON.parse(store.getItem(key) ?? '') as StoredRun;
      if (!stored || typeof stored.agentId !== 'string' || !Array.isArray(stored.results)) continue;
      if (!Array.isArray(stored.entryIds)) continue;
      out.set(stored.agentId, { ...stored, results: new Map(stored.results) as SuiteRun['results'] });
    } catch {
      // A damaged entry is forgotten.
    }
  }
  return out;
}

export interface StoredTarget {
  kind: 'active' | 'version' | 'draft';
  versionId: string;
}

export function loadRunTarget(agentId: string): StoredTarget {
  try {
    const raw = JSON.parse(storage('local')?.getItem(TARGET_PREFIX + agentId) ?? 'null') as unknown;
    const t = raw as Partial<StoredTarget> | null;
    if (t && (t.kind === 'active' || t.kind === 'version' || t.kind === 'draft'))
      return { kind: t.kind, versionId: typeof t.versionId === 'string' ? t.versionId : '' };
  } catch {
    // Unreadable: the default.
  }
  return { kind: 'active', versionId: '' };
}

export function saveRunTarget(agentId: string, target: StoredTarget): void {
  try {
    storage('local')?.setItem(TARGET_PREFIX + agentId, JSON.stringify(target));
  } catch {
    // Not kept: the choice lasts until the reload.
  }
}
