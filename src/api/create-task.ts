/** `POST /v1/messaging/tasks`: start a thread; answers the welcome message and starter suggestions. */
import { TaskIn, type CreateTaskRequest } from '../contract/api';
import { apiRequest } from './client';

export async function createTask(body: CreateTaskRequest, signal?: AbortSignal): Promise<TaskIn> {
  return apiRequest({
    method: 'POST',
    path: '/v1/messaging/tasks',
    body,
    schema: TaskIn,
    what: 'new task',
    signal,
  });
}
