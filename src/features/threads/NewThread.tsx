/**
 * Starting a thread: which agent (and version) it runs, defaulting to the last one used. The
 * choice belongs to the new thread; nothing else changes what an open thread runs with.
 */
import { lazy, Suspense, useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { useAgents } from '../../api/agents';
import { toApiError } from '../../api/errors';
import type { TaskIn } from '../../contract/api';
import { Button } from '../../components/ui/Button';
import { ErrorCallout } from '../../components/ui/ErrorCallout';
import { AgentPicker, type AgentChoice } from '../../components/connection/AgentPicker';
import { useConnectionStore } from '../../domain/connection/connection-store';
import { useKeyReady } from '../../domain/connection/use-key-ready';
import { useStartThread } from './use-start-thread';

// Creating an agent reads files and projects: its code loads when it is asked for, not with the
// welcome screen.
const NewAgentForm = lazy(() => import('./new-agent').then((m) => ({ default: m.NewAgentForm })));

export interface NewThreadFormProps {
  onStarted: (task: TaskIn) => void;
  submitLabel?: string;
}

export function NewThreadForm({ onStarted, submitLabel = 'Start a thread' }: NewThreadFormProps) {
  const last = useConnectionStore(
    useShallow((s) => ({ agentId: s.agentId, versionId: s.versionId, versionTag: s.versionTag })),
  );
  const [choice, setChoice] = useState<AgentChoice | null>(null);
  const [creating, setCreating] = useState(false);
  const keyReady = useKeyReady();
  // Only a service that lists its agents (the reference service) can create one.
  const listsAgents = useAgents(keyReady).data != null;
  const value = choice ?? { agentId: last.agentId, versionId: last.versionId };
  const start = useStartThread();
  const agentId = value.agentId.trim();
  if (creating)
    return (
      <Suspense fallback={<p className="text-sm text-zinc-500">Loading…</p>}>
        <NewAgentForm
          onCancel={() => setCreating(false)}
          onCreated={(id) => {
            setChoice({ agentId: id, versionId: '' });
            setCreating(false);
          }}
        />
      </Suspense>
    );
  return (
    <form
      className="flex flex-col gap-3"
      onSubmit={(e) => {
        e.preventDefault();
        if (!agentId || start.isPending) return;
        start.mutate(
          {
            agentId,
            versionId: value.versionId,
            // A tag pin typed earlier applies only while the same agent and version are chosen.
            versionTag: choice ? '' : last.versionTag,
          },
          { onSuccess: onStarted },
        );
      }}
    >
      <AgentPicker value={value} onChange={setChoice} />
      {start.error ? <ErrorCallout error={toApiError(start.error)} /> : null}
      <div className="flex gap-2">
        <Button type="submit" variant="primary" disabled={!agentId || start.isPending}>
          {start.isPending ? 'Starting…' : submitLabel}
        </Button>
        {keyReady && listsAgents ? (
          <Button variant="ghost" className="ml-auto" onClick={() => setCreating(true)}>
            New agent…
          </Button>
        ) : null}
      </div>
    </form>
  );
}
