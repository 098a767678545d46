/**
 * The basis of a what-if predicted in the browser (features/what-if/prediction-basis.ts), read
 * from the shell's stores: whether the service lists its agents (only the reference service
 * keeps the state before its turns), and the thread's agent and user. The live app hands it in
 * (App.tsx); a read-only copy has none, and its what-if stays the service's.
 */
import { useAgents } from '../api/agents';
import { useConnectionStore } from '../domain/connection/connection-store';
import { useKeyReady } from '../domain/connection/use-key-ready';
import { selectThread, useThreadsStore } from '../domain/threads/threads-store';
import type { PredictionBasis } from '../features/what-if';

export function usePredictionBasis(taskId: string): PredictionBasis {
  const agents = useAgents(useKeyReady());
  const thread = useThreadsStore(selectThread(taskId));
  const connectedUser = useConnectionStore((s) => s.userId);
  // The thread's own agent only: another agent's draft would predict another agent.
  const agentId = thread?.agent_id ?? '';
  return {
    // An error other than "not offered": the reference service's what-if says what it is.
    serviceKeepsTurns: agents.isSuccess ? agents.data !== null : agents.isError ? true : undefined,
    agentId,
    userId: thread?.user_id || connectedUser || 'playground-user',
  };
}
