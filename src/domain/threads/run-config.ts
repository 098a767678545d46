/**
 * What a thread runs with: the thread is the unit of configuration. Each thread (and branch) owns
 * its agent (the thread record's `agent_id`), an optional version pin and the bundle it sends,
 * by hash (null = the agent's own bundle). A branch starts with exactly what its rerun ran with
 * and keeps it until the user changes it for that branch. Pure; the records live in the threads
 * store, the bundles by hash in the bundle archive and on the reference service.
 */
import { shortBundleHash } from '../../lib/short-hash';

export interface RunConfig {
  /** Hash of the bundle sent with every message, or null for the agent's own bundle. */
  bundle_hash: string | null;
  /** Version pin sent with every message (null = the task's own version). */
  version_id: string | null;
  version_tag: string | null;
}

export const AGENTS_OWN: RunConfig = Object.freeze({
  bundle_hash: null,
  version_id: null,
  version_tag: null,
});

/** The configuration a thread record holds (a thread made before threads owned one: the agent's own). */
export function runConfigOf(thread: { runs_with?: unknown } | undefined): RunConfig {
  const r = thread?.runs_with;
  if (!r || typeof r !== 'object') return AGENTS_OWN;
  const v = r as Record<string, unknown>;
  const text = (x: unknown) => (typeof x === 'string' && x !== '' ? x : null);
  return {
    bundle_hash: text(v.bundle_hash),
    version_id: text(v.version_id),
    version_tag: text(v.version_tag),
  };
}

/** What a rerun was sent with: the bundle's hash (null = none) and the pin it named, if any. */
export interface RerunRan {
  bundle_hash: string | null;
  version_id?: string | null | undefined;
  version_tag?: string | null | undefined;
}

/**
 * The configuration a branch starts with: the bundle its rerun ran with, and the rerun's version
 * pin, else the parent's (the service runs a branch on its origin's version unless told).
 */
export function branchRunConfig(parent: RunConfig, rerun: RerunRan): RunConfig {
  const pinned = Boolean(rerun.version_id || rerun.version_tag);
  return {
    bundle_hash: rerun.bundle_hash,
    version_id: pinned ? (rerun.version_id ?? null) : parent.version_id,
    version_tag: pinned ? (rerun.version_tag ?? null) : parent.version_tag,
  };
}

export type DraftUse = { ok: true; config: RunConfig } | { ok: false; reason: string };

/**
 * Running a thread with a bundle draft: a draft belongs to one agent and only that agent's
 * threads may use it. The version pin is kept.
 */
export function withDraft(
  thread: { agent_id: string },
  config: RunConfig,
  draft: { agentId: string; hash: string },
): DraftUse {
  if (!thread.agent_id)
    return { ok: false, reason: 'This thread’s agent is not known here, so no draft can be chosen for it.' };
  if (draft.agentId !== thread.agent_id)
    return {
      ok: false,
      reason: `The draft belongs to ${draft.agentId}; this thread runs ${thread.agent_id}. Edit a ${thread.agent_id} draft instead.`,
    };
  return { ok: true, config: { ...config, bundle_hash: draft.hash } };
}

/** The version a config pins, in words (id and tag), or null for the task's own version. */
function pinLabel(config: RunConfig): string | null {
  const parts = [config.version_id, config.version_tag].filter(Boolean);
  return parts.length ? parts.join(' / ') : null;
}

/** A turn's or a thread's bundle in words; `undefined` = not recorded (said so, never guessed). */
export function bundleLabel(hash: string | null | undefined): string {
  if (hash === undefined) return 'bundle not recorded';
  if (hash === null) return 'the agent’s own bundle';
  return `local bundle #${shortBundleHash(hash)}`;
}

/** E.g. "card-disputes · local bundle #1a2b3c4d · version v1-30-day-window". */
export function describeRun(agentId: string, config: RunConfig, taskVersion: string | undefined): string {
  const version = pinLabel(config) ?? taskVersion;
  return [agentId || 'unknown agent', bundleLabel(config.bundle_hash), version ? `version ${version}` : null]
    .filter(Boolean)
    .join(' · ');
}
