/** What is on screen to share, and its trace link (read outside React, for the palette). */
import { useConnectionStore } from '../../domain/connection/connection-store';
import { buildTraceLink, type TraceLinkTarget } from './links';

export interface ShareTarget {
  taskId: string;
  turnId?: string | undefined;
  nodeId?: string | undefined;
  /** The rest of the view a link reproduces (see links.ts). */
  view?: Pick<TraceLinkTarget, 'tab' | 'compare' | 'only' | 'parent' | 'fork'> | undefined;
}

export function traceLinkFor(target: ShareTarget): string {
  return buildTraceLink(location.href, {
    ...target.view,
    task: target.taskId,
    turn: target.turnId,
    node: target.nodeId,
    server: useConnectionStore.getState().baseUrl,
  });
}
