/**
 * The per-turn actions of the debugging loop: the local-bundle badge (when the turn ran with
 * one) and "Rerun from here", which opens the rerun dialog.
 */
import { useState } from 'react';
import { LocalBundleBadge, useBundleDraftStore } from '../bundle-editor';
import type { Turn } from '../chat';
import { useThreadsStore } from '../threads';
import { RerunDialog } from './RerunDialog';

export interface RerunActionProps {
  turn: Turn;
  taskId: string;
  onOpened: (taskId: string, turnId: string) => void;
}

export function RerunAction({ turn, taskId, onOpened }: RerunActionProps) {
  const [open, setOpen] = useState(false);
  const agentId = useThreadsStore((s) => s.threads[taskId]?.agent_id);
  const useBundle = useBundleDraftStore((s) => s.useBundle);
  const canRerun = Boolean(turn.userText) && !turn.id.startsWith('local-');
  return (
    <>
      <LocalBundleBadge hash={turn.bundleHash} />
      {canRerun ? (
        <button
          type="button"
          onClick={() => setOpen(true)}
          aria-label={`Rerun from turn ${turn.index + 1}`}
          className="rounded px-1.5 py-0.5 text-indigo-700 hover:bg-indigo-50 dark:text-indigo-300 dark:hover:bg-indigo-950"
        >
          Rerun from here
        </button>
      ) : null}
      {open ? (
        <RerunDialog
          target={{
            taskId,
            interactionId: turn.id,
            originalText: turn.userText,
            ...(agentId ? { agentId } : {}),
          }}
          turnNumber={turn.index + 1}
          defaultBundle={useBundle ? 'draft' : 'none'}
          onClose={() => setOpen(false)}
          onOpened={onOpened}
        />
      ) : null}
    </>
  );
}
