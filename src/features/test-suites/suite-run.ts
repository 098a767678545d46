/**
 * Running an agent's suite from the browser, through the public API (the shared `runSuite` over
 * `httpDriver`), against the agent's active version, a pinned version or the current draft
 * bundle. The run's progress, results and coverage live in a small store (one run per agent; a
 * finished run is kept across a reload of the tab, suite-run-storage.ts); Cancel aborts the
 * requests in flight and no further message is sent.
 */
import { create } from 'zustand';
import { getAgentBundle } from '../../api/agent-bundle';
import { buildHeaders, currentApiConfig, resolveBaseUrl } from '../../api/client';
import type { Bundle } from '../../contract/bundle';
import {
  coverage,
  httpDriver,
  runSuite,
  type CaseResult,
  type Coverage,
  type SuiteCase,
} from '../../lib/test-cases';
import { loadFinishedRuns, saveFinishedRun } from './suite-run-storage';
import type { SuiteEntry } from '../../domain/suites/suites-store';

/** Cases run at the same time: enough to overlap round trips, few enough to spare the service. */
const RUN_CONCURRENCY = 4;

export type RunTarget =
  | { kind: 'active' }
  | { kind: 'version'; versionId: string }
  | { kind: 'draft'; bundle: Bundle; hash: string };

function describeTarget(target: RunTarget): string {
  switch (target.kind) {
    case 'active':
      return 'the active version';
    case 'version':
      return `version ${target.versionId}`;
    case 'draft':
      return `the draft bundle ${target.hash.slice(0, 8)}`;
  }
}

/**
 * The cases as the target runs them: the active version drops each case's version pin, a pinned
 * version replaces it; a draft bundle is sent with every message (the pin then only picks the
 * task's version). `source` is the entry id, so results find their case.
 */
export function casesForTarget(entries: readonly SuiteEntry[], target: RunTarget): SuiteCase[] {
  return entries.map((e) => {
    const { version_id: _id, version_tag: _tag, ...rest } = e.testCase;
    const testCase =
      target.kind === 'active'
        ? rest
        : target.kind === 'version'
          ? { ...rest, version_id: target.versionId }
          : e.testCase;
    return { source: e.id, testCase };
  });
}

export interface SuiteRun {
  /** Distinguishes a run from the one it replaced (late answers of an old run are dropped). */
  id: number;
  agentId: string;
  target: string;
  status: 'running' | 'done' | 'cancelled';
  total: number;
  done: number;
  /** Entry ids in suite order, and each finished case's result by entry id. */
  entryIds: string[];
  results: Map<string, CaseResult>;
  /** What the suite does not test, when the bundle that ran is known. */
  coverage: Coverage | null;
  /** Why coverage is missing or partial. */
  coverageNote: string | null;
  startedAt: number;
  finishedAt: number | null;
}

interface RunState {
  runs: Map<string, SuiteRun>;
}

export const useSuiteRunStore = create<RunState>()(() => ({ runs: loadFinishedRuns() }));

const controllers = new Map<string, AbortController>();
let lastRunId = 0;

function update(agentId: string, patch: (run: SuiteRun) => SuiteRun) {
  useSuiteRunStore.setState((s) => {
    const run = s.runs.get(agentId);
    if (!run) return s;
    const runs = new Map(s.runs);
    runs.set(agentId, patch(run));
    return { runs };
  });
}

export const selectRun = (agentId: string) => (s: RunState) => s.runs.get(agentId);

async function bundleFor(agentId: string, target: RunTarget, signal: AbortSignal): Promise<Bundle | string> {
  if (target.kind === 'draft') return target.bundle;
  try {
    const answer = await getAgentBundle(
      agentId,
      target.kind === 'version' ? target.versionId : undefined,
      signal,
    );
    return answer.bundle;
  } catch {
    return 'The service does not give this agent’s bundle (it is not the reference service?), so coverage cannot be computed.';
  }
}

/** Coverage over the turns that ran; says so when some cases did not run to their end. */
export function runCoverage(
  bundle: Bundle,
  results: readonly CaseResult[],
): { coverage: Coverage; note: string | null } {
  const traces = results.flatMap((r) => r.turns.map((t) => t.observed.trace));
  const unfinished = results.filter((r) => r.status === 'error').length;
  return {
    coverage: coverage(bundle, traces),
    note: unfinished
      ? `${unfinished} case${unfinished === 1 ? '' : 's'} did not run to the end: coverage counts only the turns that ran.`
      : null,
  };
}

/** Starts a run of the agent's suite (a running one for the same agent is cancelled first). */
export async function startSuiteRun(
  agentId: string,
  entries: readonly SuiteEntry[],
  target: RunTarget,
): Promise<void> {
  controllers.get(agentId)?.abort();
  const controller = new AbortController();
  controllers.set(agentId, controller);
  const { signal } = controller;
  const run: SuiteRun = {
    id: ++lastRunId,
    agentId,
    target: describeTarget(target),
    status: 'running',
    total: entries.length,
    done: 0,
    entryIds: entries.map((e) => e.id),
    results: new Map(),
    coverage: null,
    coverageNote: null,
    startedAt: Date.now(),
    finishedAt: null,
  };
  useSuiteRunStore.setState((s) => ({ runs: new Map(s.runs).set(agentId, run) }));

  const config = currentApiConfig();
  const driver = httpDriver({
    baseUrl: resolveBaseUrl(config.baseUrl),
    apiKey: config.apiKey,
    ...(target.kind === 'draft' ? { bundle: target.bundle, bundleHash: target.hash } : {}),
    signal,
    // The connection's own key header and extra headers, as every other request of the app.
    fetch: (input, init) => fetch(input, { ...init, headers: buildHeaders(config, true) }),
  });
  const bundle = bundleFor(agentId, target, signal);
  const results = await runSuite(driver, casesForTarget(entries, target), {
    concurrency: RUN_CONCURRENCY,
    signal,
    onCaseDone: (result, done) =>
      update(agentId, (r) =>
        r.id === run.id ? { ...r, done, results: new Map(r.results).set(result.source, result) } : r,
      ),
  });
  const ran = await bundle;
  const cov = typeof ran === 'string' ? null : runCoverage(ran, results);
  update(agentId, (r) =>
    r.id !== run.id
      ? r
      : {
          ...r,
          status: signal.aborted ? 'cancelled' : 'done',
          coverage: cov?.coverage ?? null,
          coverageNote: typeof ran === 'string' ? ran : (cov?.note ?? null),
          finishedAt: Date.now(),
        },
  );
  if (controllers.get(agentId) === controller) controllers.delete(agentId);
  const finished = useSuiteRunStore.getState().runs.get(agentId);
  if (finished?.id === run.id) saveFinishedRun(finished);
}

export function cancelSuiteRun(agentId: string): void {
  controllers.get(agentId)?.abort();
}
