/**
 * The lineage of a thread's family, from one owner at a time: the server's when it keeps it (the
 * reference service: `GET /reference/v1/tasks/{id}` for the family's root, then every branch
 * below it), else what this browser recorded at each rerun plus what a link carried. So a link
 * opened in any browser shows the same tree when the server keeps lineage.
 */
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { taskBranchesQueryOptions, taskInfoQueryOptions } from '../../api/lineage';
import { useKeyReady } from '../connection/use-key-ready';
import { recordFromLink, recordsFromServer, type LineageRecord } from './lineage';
import { selectLineageHydrated, selectLineageRecords, useLineageStore } from './lineage-store';

export interface Lineage {
  records: LineageRecord[];
  /** 'server': kept by the service; 'browser': recorded here (and carried by links); 'pending': not known yet. */
  source: 'server' | 'browser' | 'pending';
  /** Titles the server gives branches (for rows this browser has no thread record of). */
  titles: ReadonlyMap<string, string>;
}

const NO_TITLES: ReadonlyMap<string, string> = new Map();

export function useLineage(
  taskId: string | undefined,
  linkParent?: { task_id: string; interaction_id: string },
): Lineage {
  const keyReady = useKeyReady();
  const info = useQuery({ ...taskInfoQueryOptions(taskId ?? ''), enabled: Boolean(taskId) && keyReady });
  const rootId = info.data?.root_task_id;
  const root = useQuery({
    ...taskInfoQueryOptions(rootId ?? ''),
    enabled: Boolean(rootId) && rootId !== taskId,
  });
  const branches = useQuery({ ...taskBranchesQueryOptions(rootId ?? ''), enabled: Boolean(rootId) });
  const local = useLineageStore(selectLineageRecords);
  const hydrated = useLineageStore(selectLineageHydrated);

  const rootInfo = rootId === taskId ? info.data : root.data;
  return useMemo((): Lineage => {
    if (rootInfo && branches.data) {
      return {
        records: recordsFromServer(rootInfo.version_id, branches.data.branches),
        source: 'server',
        titles: new Map(branches.data.branches.map((b) => [b.task_id, b.title])),
      };
    }
    const serverSaysNo = info.data === null || info.isError || !keyReady;
    if (!serverSaysNo || !hydrated) return { records: local, source: 'pending', titles: NO_TITLES };
    const fromLink =
      taskId && linkParent && !local.some((r) => r.task_id === taskId)
        ? [recordFromLink(taskId, linkParent)]
        : [];
    return { records: [...local, ...fromLink], source: 'browser', titles: NO_TITLES };
  }, [rootInfo, branches.data, info.data, info.isError, keyReady, hydrated, local, taskId, linkParent]);
}
