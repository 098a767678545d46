/** Creates a task with the connection's agent and pins, and adds it to the thread list. */
import { useMutation } from '@tanstack/react-query';
import { createTask } from '../../api/create-task';
import type { CreateTaskRequest } from '../../contract/api';
import { useConnectionStore } from '../connection';
import { useThreadsStore } from './threads-store';

export function useStartThread() {
  return useMutation({
    mutationKey: ['threads', 'start'],
    mutationFn: async () => {
      const c = useConnectionStore.getState();
      const agentId = c.agentId.trim();
      const body: CreateTaskRequest = {
        agent_id: agentId,
        user_id: c.userId.trim() || 'playground-user',
        ...(c.origin.trim() ? { task_origin_type: c.origin.trim() } : {}),
        ...(c.versionId.trim() ? { version_id: c.versionId.trim() } : {}),
        ...(c.versionTag.trim() ? { version_tag: c.versionTag.trim() } : {}),
      };
      const task = await createTask(body);
      const now = new Date().toISOString();
      // The version the task runs with: the server's answer when it says (the reference service
      // does), else the pin asked for.
      const versionId = task.version_id || body.version_id;
      useThreadsStore.getState().upsertThread({
        id: task.id,
        title: task.title || `New thread with ${agentId}`,
        agent_id: agentId,
        created_at: now,
        updated_at: now,
        user_id: task.user_id ?? body.user_id,
        welcome_message: task.welcome_message ?? null,
        suggestions: task.followup_suggestions,
        ...(versionId ? { version_id: versionId } : {}),
        ...(body.version_tag ? { version_tag: body.version_tag } : {}),
      });
      return task;
    },
  });
}
