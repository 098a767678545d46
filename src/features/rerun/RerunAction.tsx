/**
 * The per-turn actions of the debugging loop: what the turn ran with (bundle and version) and
 * "Rerun from here", which opens the rerun dialog with the thread's configuration as default.
 */
import { Suspense, useState } from 'react';
import { Badge } from '../../components/ui/Badge';
import type { Turn } from '../../domain/transcript/transcript';
import { bundleLabel, runConfigOf } from '../../domain/threads/run-config';
import { useThreadsStore } from '../../domain/threads/threads-store';
import { LazyRerunDialog } from './lazy-rerun-dialog';
import { targetNames, useTarget } from '../../domain/commands/targets';
import { isLocalMessageId } from '../../domain/transcript/transcript';

export interface RerunActionProps {
  turn: Turn;
  taskId: string;
  onOpened: (taskId: string, turnId: string) => void;
}

export function RerunAction({ turn, taskId, onOpened }: RerunActionProps) {
  const [open, setOpen] = useState(false);
  const thread = useThreadsStore((s) => s.threads.get(taskId));
  const agentId = thread?.agent_id;
  const config = runConfigOf(thread);
  const canRerun = Boolean(turn.userText) && !isLocalMessageId(turn.id);
  // "Rerun from this turn…" in the palette opens this turn's dialog.
  useTarget(targetNames.rerunTurn(turn.id), canRerun ? () => setOpen(true) : undefined);
  return (
    <>
      <RanWith turn={turn} />
      {canRerun ? (
        <button
          type="button"
          onClick={() => setOpen(true)}
          aria-label={`Rerun from here (turn ${turn.index + 1})`}
          className="rounded px-1.5 py-0.5 text-indigo-700 hover:bg-indigo-50 dark:text-indigo-300 dark:hover:bg-indigo-950"
        >
          Rerun from here
        </button>
      ) : null}
      {open ? (
        <Suspense fallback={null}>
          <LazyRerunDialog
            target={{
              taskId,
              interactionId: turn.id,
              originalText: turn.userText,
              ...(agentId ? { agentId } : {}),
            }}
            turnNumber={turn.index + 1}
            threadConfig={config}
            onClose={() => setOpen(false)}
            onOpened={onOpened}
          />
        </Suspense>
      ) : null}
    </>
  );
}

/** What one turn actually ran with, from the server's record or this browser's; never a guess. */
function RanWith({ turn }: { turn: Turn }) {
  const text = bundleLabel(turn.bundleHash);
  return (
    <Badge
      tone={turn.bundleHash ? 'info' : 'muted'}
      title={`Ran with ${text}${turn.versionId ? `, version ${turn.versionId}` : ''}${turn.bundleHash ? ` (hash ${turn.bundleHash})` : ''}`}
    >
      {text}
      {turn.versionId ? ` · ${turn.versionId}` : ''}
    </Badge>
  );
}
