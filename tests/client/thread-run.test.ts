/**
 * Send and rerun through the thread-run unit against the real service in this process: both record
 * the answer as the thread's local turn the same way, and both put a 422's bundle issues on the
 * editor's markers. The service here is stricter than this browser's checks by one rule (a newer
 * server may be), so a draft the browser finds sendable can still be refused.
 */
import { QueryClient } from '@tanstack/react-query';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { defaultDependencies } from '../../server/default-dependencies';
import { getAgentBundle } from '../../src/api/agent-bundle';
import { setApiConfigSource } from '../../src/api/client';
import { isApiError } from '../../src/api/errors';
import { createTask } from '../../src/api/create-task';
import type { BundleIssue } from '../../src/contract/api';
import { bundleText } from '../../src/domain/bundles/analysis';
import { rememberBundle } from '../../src/domain/bundles/bundle-archive';
import { useBundleDraftStore } from '../../src/domain/bundles/draft-store';
import { loadThreadRun, type ThreadRun } from '../../src/domain/thread-run/load';
import { localTurnsQueryOptions, type LocalTurn } from '../../src/domain/threads/local-turns';
import { replaceThreads, useThreadsStore } from '../../src/domain/threads/threads-store';
import { bundleHash } from '../../src/lib/bundle/hash';
import { ROOT, startService, type Service } from '../api/helpers';

const AGENT = 'card-disputes';
const REFUSED_NAME = 'Refused by the service';
const policy: BundleIssue = {
  code: 'service-policy',
  message: 'This service does not run an agent by that name.',
  loc: ['general_settings', 'name'],
  severity: 'error',
};

let service: Service;
let run: ThreadRun;
let own: Record<string, unknown>;
let queryClient: QueryClient;

beforeAll(async () => {
  const real = defaultDependencies();
  service = await startService({
    dependencies: {
      // Validation in this thread (not the worker pool), with the service's one extra rule.
      engine: real.engine,
      bundles: {
        ...real.bundles,
        validate: (doc) => {
          const name = (doc as { general_settings?: { name?: unknown } }).general_settings?.name;
          return [...real.bundles.validate(doc), ...(name === REFUSED_NAME ? [policy] : [])];
        },
      },
    },
  });
  setApiConfigSource(() => ({
    baseUrl: service.url,
    keyHeader: 'x-service-api-key',
    apiKey: ROOT,
    extraHeaders: [],
    timeoutMs: 10_000,
  }));
  run = await loadThreadRun();
  own = (await getAgentBundle(AGENT)).bundle;
});
afterAll(() => service.dispose());

beforeEach(() => {
  queryClient = new QueryClient();
  replaceThreads([]);
  useBundleDraftStore.setState({ drafts: {}, serverIssues: null });
});

/** The agent's own bundle under another name: a draft this browser finds sendable. */
function draftNamed(name: string) {
  const general = (own.general_settings ?? {}) as Record<string, unknown>;
  const bundle = { ...own, general_settings: { ...general, name } };
  return { bundle, hash: bundleHash(bundle), text: bundleText(bundle) };
}

/** A new thread on the service, running with the draft (kept by hash, as the app keeps it). */
async function threadRunningWith(draft: ReturnType<typeof draftNamed>) {
  const task = await createTask({ agent_id: AGENT, user_id: 'u1' });
  await rememberBundle(draft.hash, draft.bundle);
  useBundleDraftStore.setState({ drafts: { [AGENT]: draft.text } });
  useThreadsStore.getState().upsertThread({
    id: task.id,
    title: 'Disputes',
    agent_id: AGENT,
    created_at: new Date().toISOString(),
    runs_with: { bundle_hash: draft.hash, version_id: null, version_tag: null },
  });
  return task.id;
}

const localTurns = (taskId: string) => queryClient.fetchQuery(localTurnsQueryOptions(taskId));

/** What a recorded turn says, less what differs between any two answers (ids, times, text). */
function shape(turn: LocalTurn) {
  return {
    keys: Object.keys(turn).sort(),
    bundle_hash: turn.bundle_hash,
    version_id: turn.version_id,
    user_text: turn.user_text,
    reply_is_text: typeof turn.reply_text === 'string' && turn.reply_text.length > 0,
  };
}

describe('running a turn: send and rerun', () => {
  it('record the answer as the thread’s local turn the same way', async () => {
    const draft = draftNamed('Disputes desk');
    const taskId = await threadRunningWith(draft);
    const text = 'I want to dispute a charge of $40 from 10 days ago';

    const sent = await run.sendTurn(queryClient, { taskId, text });
    const [sentTurn] = await localTurns(taskId);
    expect(sentTurn).toMatchObject({ id: sent.message.id, user_text: text, bundle_hash: draft.hash });

    const rerun = await rerunFirstTurn(taskId, sent.message.id, text, draft);
    const branchTurns = await localTurns(rerun.branchId);
    expect(branchTurns).toHaveLength(1);
    expect(branchTurns[0]).toMatchObject({ id: rerun.turnId, user_text: text, bundle_hash: draft.hash });
    // One record, whichever way the turn ran: the same fields, the same bundle and version.
    expect(shape(branchTurns[0]!)).toEqual(shape(sentTurn!));
    expect(
      run.localTurnOf({
        userText: text,
        message: rerun.rerun.message,
        rttMs: rerun.rttMs,
        bundleHash: draft.hash,
      }),
    ).toEqual(branchTurns[0]);
    // The branch runs with what its rerun ran with.
    expect(useThreadsStore.getState().threads.get(rerun.branchId)?.runs_with?.bundle_hash).toBe(draft.hash);
  });

  it('put a 422’s bundle issues on the editor’s markers, for the draft that was sent', async () => {
    const ok = draftNamed('Disputes desk');
    const taskId = await threadRunningWith(ok);
    const text = 'I want to dispute a charge of $40 from 10 days ago';
    const sent = await run.sendTurn(queryClient, { taskId, text });

    // The thread now runs with a draft the service refuses.
    const refused = draftNamed(REFUSED_NAME);
    await threadRunningWithDraftOf(taskId, refused);
    const sendError = await run
      .sendTurn(queryClient, { taskId, text: 'and another one' })
      .catch((e: unknown) => e);
    expect(isApiError(sendError) && sendError.status).toBe(422);
    expect(useBundleDraftStore.getState().serverIssues).toEqual({
      agentId: AGENT,
      text: refused.text,
      issues: [policy],
    });
    // Nothing was recorded for the refused message.
    expect(await localTurns(taskId)).toHaveLength(1);

    useBundleDraftStore.setState({ serverIssues: null });
    const rerunError = await rerunFirstTurn(taskId, sent.message.id, text, refused).catch((e: unknown) => e);
    expect(isApiError(rerunError) && rerunError.status).toBe(422);
    expect(useBundleDraftStore.getState().serverIssues).toEqual({
      agentId: AGENT,
      text: refused.text,
      issues: [policy],
    });
  });
});

/** Reruns a thread's first turn with the same text and a draft of its agent, as the rerun dialog sends it. */
function rerunFirstTurn(
  taskId: string,
  interactionId: string,
  text: string,
  draft: ReturnType<typeof draftNamed>,
) {
  return run.rerunTurn(queryClient, {
    target: { taskId, interactionId, originalText: text, agentId: AGENT },
    request: {
      task_id: taskId,
      interaction_id: interactionId,
      text,
      agent_id: AGENT,
      agent_settings_bundle: draft.bundle,
    },
    turnNumber: 1,
    bundleHash: draft.hash,
    draft: { agentId: AGENT, text: draft.text },
  });
}

/** Switches an existing thread to run with another draft of its agent. */
async function threadRunningWithDraftOf(taskId: string, draft: ReturnType<typeof draftNamed>) {
  await rememberBundle(draft.hash, draft.bundle);
  useBundleDraftStore.setState({ drafts: { [AGENT]: draft.text } });
  useThreadsStore
    .getState()
    .setRunConfig(taskId, { bundle_hash: draft.hash, version_id: null, version_tag: null });
}
