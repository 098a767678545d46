/**
 * Creates a task with the agent (and version) the user chose for it, adds it to the thread list
 * running with that agent's own bundle, and remembers the choice as the next default.
 */
import { useMutation } from '@tanstack/react-query';
import { createTask } from '../../api/create-task';
import type { CreateTaskRequest } from '../../contract/api';
import { useConnectionStore } from '../../domain/connection/connection-store';
import { AGENTS_OWN } from '../../domain/threads/run-config';
import { useThreadsStore } from '../../domain/threads/threads-store';

export interface NewThreadChoice {
  agentId: string;
  /** '' = the agent's active version. */
  versionId: string;
  versionTag: string;
}

export function useStartThread() {
  return useMutation({
    mutationKey: ['threads', 'start'],
    mutationFn: async (choice: NewThreadChoice) => {
      const c = useConnectionStore.getState();
      const agentId = choice.agentId.trim();
      const versionId = choice.versionId.trim();
      const versionTag = choice.versionTag.trim();
      const body: CreateTaskRequest = {
        agent_id: agentId,
        user_id: c.userId.trim() || 'playground-user',
        ...(c.origin.trim() ? { task_origin_type: c.origin.trim() } : {}),
        ...(versionId ? { version_id: versionId } : {}),
        ...(versionTag ? { version_tag: versionTag } : {}),
      };
      const task = await createTask(body);
      c.update({ agentId, versionId, versionTag });
      const now = new Date().toISOString();
      // The version the task runs with: the server's answer when it says (the reference service
      // does), else the pin asked for.
      const taskVersion = task.version_id || body.version_id;
      useThreadsStore.getState().upsertThread({
        id: task.id,
        title: task.title || `New thread with ${agentId}`,
        agent_id: agentId,
        created_at: now,
        updated_at: now,
        user_id: task.user_id ?? body.user_id,
        welcome_message: task.welcome_message ?? null,
        suggestions: task.followup_suggestions,
        ...(taskVersion ? { version_id: taskVersion } : {}),
        ...(body.version_tag ? { version_tag: body.version_tag } : {}),
        runs_with: AGENTS_OWN,
      });
      return task;
    },
  });
}
