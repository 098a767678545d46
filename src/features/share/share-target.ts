/** What is on screen to share, and its trace link (read outside React, for the palette). */
import { useConnectionStore } from '../connection';
import { buildTraceLink } from './links';

export interface ShareTarget {
  taskId: string;
  turnId?: string | undefined;
  nodeId?: string | undefined;
}

export function traceLinkFor(target: ShareTarget): string {
  return buildTraceLink(location.href, {
    task: target.taskId,
    turn: target.turnId,
    node: target.nodeId,
    server: useConnectionStore.getState().baseUrl,
  });
}
