/** Patches the workspace's URL state; keys set to undefined or '' leave the URL. */
import { useNavigate } from '@tanstack/react-router';
import { useCallback } from 'react';
import type { WorkspaceSearch } from './search';

function compact(s: WorkspaceSearch): WorkspaceSearch {
  return Object.fromEntries(Object.entries(s).filter(([, v]) => v !== undefined && v !== ''));
}

export function useSetSearch() {
  const navigate = useNavigate();
  return useCallback(
    (patch: Partial<WorkspaceSearch>, replace = false) =>
      void navigate({ to: '/', search: (prev: WorkspaceSearch) => compact({ ...prev, ...patch }), replace }),
    [navigate],
  );
}
