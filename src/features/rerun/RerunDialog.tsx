/**
 * "Rerun from here": the message to replay (the original, editable), the bundle to use (what the
 * thread runs with, none, the agent's baseline, the thread agent's draft), a version pin (the
 * thread's by default). A draft with errors cannot be chosen to send; the dialog says why. Only
 * the draft of the thread's own agent is offered.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent, type KeyboardEvent, type ReactNode } from 'react';
import { useAgentBundle } from '../../api/agent-bundle';
import { toApiError } from '../../api/errors';
import { Button } from '../../components/ui/Button';
import { ErrorCallout } from '../../components/ui/ErrorCallout';
import { Modal } from '../../components/ui/Modal';
import { inputClass, TextField } from '../../components/ui/Field';
import { bundleByHashQueryOptions } from '../../domain/bundles/bundle-archive';
import { shortBundleHash } from '../../lib/short-hash';
import { useBundleDraftStore } from '../../domain/bundles/draft-store';
import { useChangeFromOwn } from '../../domain/bundles/bundle-change';
import { useDraftSendState } from '../../domain/bundles/active-bundle';
import type { RunConfig } from '../../domain/threads/run-config';
import {
  formProblem,
  preferredBundleChoice,
  type BundleChoice,
  type RerunForm,
  type RerunTarget,
} from './build-request';
import { useRerunFromHere } from './use-rerun-from-here';
import { ownValue } from '../../lib/own-records';

export interface RerunDialogProps {
  target: RerunTarget;
  /** The turn's number in its thread (1-based), for the title. */
  turnNumber: number;
  /** The bundle chosen at open; by default what the user most likely means (preferredBundleChoice). */
  defaultBundle?: BundleChoice;
  /** What the thread runs with: offered as the default bundle and version. */
  threadConfig: RunConfig;
  onClose: () => void;
  onOpened: (taskId: string, turnId: string) => void;
  /** The message offered at open (default: the turn's own). */
  initialText?: string;
  /** Said above the form (what the rerun is for and what it may not reproduce). */
  notice?: ReactNode;
}

export function RerunDialog({
  target,
  turnNumber,
  defaultBundle,
  threadConfig,
  onClose,
  onOpened,
  initialText,
  notice,
}: RerunDialogProps) {
  const [fields, setForm] = useState<Omit<RerunForm, 'bundleChoice'>>({
    text: initialText ?? target.originalText,
    versionId: threadConfig.version_id ?? '',
    versionTag: threadConfig.version_tag ?? '',
  });
  // Until the user picks a bundle, the preselection follows the draft (its check may still be running).
  const [picked, setPicked] = useState<BundleChoice | undefined>(defaultBundle);
  const draft = useDraftSendState(target.agentId ?? '');
  const threadHash = threadConfig.bundle_hash;
  const form: RerunForm = { ...fields, bundleChoice: picked ?? preferredBundleChoice(threadHash, draft) };
  const draftText = useBundleDraftStore((s) => ownValue(s.drafts, draft.agentId));
  const baseline = useAgentBundle(form.bundleChoice === 'baseline' ? target.agentId : undefined);
  const queryClient = useQueryClient();
  const threadBundle = useQuery({
    ...bundleByHashQueryOptions(queryClient, threadHash ?? ''),
    enabled: form.bundleChoice === 'thread' && Boolean(threadHash),
  });
  const rerun = useRerunFromHere(target, (taskId, turnId) => {
    onClose();
    onOpened(taskId, turnId);
  });

  const bundleState =
    form.bundleChoice === 'thread'
      ? threadBundle.data
        ? { status: 'ready' as const }
        : threadBundle.isPending
          ? { status: 'loading' as const }
          : {
              status: 'blocked' as const,
              reason: `The thread’s bundle #${shortBundleHash(threadHash)} is held neither here nor on the server.`,
            }
      : form.bundleChoice === 'draft'
        ? draft.status === 'ready'
          ? { status: 'ready' as const }
          : { status: 'blocked' as const, reason: draft.reason }
        : form.bundleChoice === 'baseline'
          ? baseline.data
            ? { status: 'ready' as const }
            : baseline.error
              ? {
                  status: 'blocked' as const,
                  reason: `The baseline bundle could not be loaded: ${toApiError(baseline.error).message}`,
                }
              : { status: 'loading' as const }
          : null;
  const problem = formProblem(form, bundleState);
  const draftChange = useChangeFromOwn(
    target.agentId,
    draft.status === 'ready' ? { bundle: draft.bundle } : undefined,
  );
  const threadChange = useChangeFromOwn(target.agentId, threadHash ? { hash: threadHash } : undefined);

  const submit = (e?: FormEvent) => {
    e?.preventDefault();
    if (problem || rerun.isPending) return;
    const bundle =
      form.bundleChoice === 'thread'
        ? (threadBundle.data?.bundle ?? null)
        : form.bundleChoice === 'draft' && draft.status === 'ready'
          ? draft.bundle
          : form.bundleChoice === 'baseline'
            ? (baseline.data?.bundle ?? null)
            : null;
    // A draft's hash is known from its check: not computed again.
    const knownHash = form.bundleChoice === 'draft' && draft.status === 'ready' ? draft.hash : undefined;
    rerun.mutate({
      turnNumber,
      form,
      bundle,
      bundleHash: knownHash,
      ...(form.bundleChoice === 'draft' && draftText !== undefined
        ? { draft: { agentId: draft.agentId, text: draftText } }
        : {}),
    });
  };

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) submit();
  };

  const agentName = target.agentId ? `the ${target.agentId} agent` : 'the agent';
  const changeText = (change: string | null | undefined) =>
    change === undefined
      ? ''
      : change === null
        ? ' (the same as the agent’s own bundle)'
        : `: ${change} (against the agent’s own bundle)`;
  const choices: { id: BundleChoice; label: string; hint: string }[] = [
    ...(threadHash
      ? [
          {
            id: 'thread' as const,
            label: 'This thread’s bundle',
            hint: `local bundle #${shortBundleHash(threadHash)}, what the thread runs with now${changeText(threadChange)}`,
          },
        ]
      : []),
    {
      id: 'none',
      label: 'None',
      hint: `nothing attached: ${agentName} as the service runs it, at the version below`,
    },
    {
      id: 'baseline',
      label: 'Baseline',
      hint: `a copy of ${agentName}’s own bundle, attached as a local bundle (without its profile or canned answers)`,
    },
    {
      id: 'draft',
      label: 'Current draft',
      hint:
        draft.status === 'ready'
          ? `your edited bundle from the Bundle tab, #${shortBundleHash(draft.hash)}${changeText(draftChange)}`
          : `your edited bundle from the Bundle tab (${draft.missing ? 'none yet' : 'not sendable now'})`,
    },
  ];
  const error = rerun.error ? toApiError(rerun.error) : null;

  // A modal <dialog> sits in the top layer, above the scrolled, transformed list of the turn that opens it.
  return (
    <Modal
      open
      onClose={onClose}
      label={`Rerun turn ${turnNumber} as a new branch`}
      className="w-[min(32rem,calc(100vw-2rem))]"
    >
      <div onKeyDown={onKeyDown} className="p-4">
        <h2 className="text-base font-semibold">Rerun turn {turnNumber} as a new branch</h2>
        {notice ? <div className="mt-2 text-xs text-zinc-600 dark:text-zinc-400">{notice}</div> : null}
        <form onSubmit={submit} className="mt-3 flex flex-col gap-3">
          <label className="flex flex-col gap-1 text-xs font-medium text-zinc-600 dark:text-zinc-300">
            Message to replay
            <textarea
              autoFocus
              rows={3}
              value={form.text}
              onChange={(e) => setForm((f) => ({ ...f, text: e.target.value }))}
              className={inputClass('h-auto w-full py-1.5 text-sm')}
            />
          </label>
          <fieldset className="flex flex-col gap-1">
            <legend className="text-xs font-medium text-zinc-600 dark:text-zinc-300">Bundle to use</legend>
            {choices.map((c) => (
              <label key={c.id} className="flex items-baseline gap-2 text-sm">
                <input
                  type="radio"
                  name="bundle-choice"
                  value={c.id}
                  checked={form.bundleChoice === c.id}
                  onChange={() => setPicked(c.id)}
                />
                <span>
                  {c.label} <span className="text-xs text-zinc-500 dark:text-zinc-400">— {c.hint}</span>
                </span>
              </label>
            ))}
          </fieldset>
          <div className="grid grid-cols-2 gap-2">
            <TextField
              label="Version id (optional)"
              value={form.versionId}
              onChange={(e) => setForm((f) => ({ ...f, versionId: e.target.value }))}
            />
            <TextField
              label="Revision tag (optional)"
              value={form.versionTag}
              onChange={(e) => setForm((f) => ({ ...f, versionTag: e.target.value }))}
            />
          </div>
          {problem ? (
            <p role="status" className="text-xs text-red-700 dark:text-red-300">
              {problem}
            </p>
          ) : null}
          {error ? <ErrorCallout error={error} /> : null}
          {error?.issues?.length && form.bundleChoice === 'draft' ? (
            <p className="text-xs text-zinc-600 dark:text-zinc-300">
              The service’s issues are marked in the Bundle tab.
            </p>
          ) : null}
          <div className="flex justify-end gap-2">
            <Button onClick={onClose}>Cancel</Button>
            <Button type="submit" variant="primary" disabled={Boolean(problem) || rerun.isPending}>
              {rerun.isPending ? 'Rerunning…' : 'Rerun'}
            </Button>
          </div>
        </form>
      </div>
    </Modal>
  );
}
