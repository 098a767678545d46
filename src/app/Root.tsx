/**
 * The root of every route: the workspace, or a read-only shared document (a snapshot link's
 * fragment, or a file opened with Import), plus what is global to the app: the command palette
 * and its shortcuts, the file drop target, the share dialog and the trace-link key prompt.
 */
import { Outlet, useNavigate, useRouterState } from '@tanstack/react-router';
import { Suspense, useCallback, useEffect, useState } from 'react';
import { Spinner } from '../components/ui/Spinner';
import { KeyboardHost } from '../features/command-palette';
import { ConnectionDialog } from '../features/connection';
import { useConnectionStore } from '../domain/connection/connection-store';
import {
  ImportDrop,
  LazyShareDialog,
  LinkGate,
  snapshotPayloadFromHash,
  ShareViewProvider,
  useShareDialogOpen,
  useShareStore,
} from '../features/share';
import { registerThemeActions } from '../features/theme';
import { LazySnapshotPage, LazySnapshotView } from './snapshot/lazy';
import { selectLoaded, useThreadsStore } from '../domain/threads/threads-store';
import { prefetchSteps } from './extensions';
import { prefetchWhileReading } from './prefetch';
import { renderSnapshotInspector } from './SnapshotInspector';
import { parseWorkspaceSearch } from './search';
import { useWorkspaceActions, useWorkspaceTarget } from './workspace-actions';
import { useWorkspaceDialog, workspaceView } from './workspace-view';

registerThemeActions();

const loading = (
  <div className="flex h-dvh items-center justify-center gap-2 text-sm text-zinc-500">
    <Spinner label="Opening" /> Opening…
  </div>
);

/**
 * A trace link from someone else (a thread this browser does not know) opened without a key:
 * ask for one in a dialog, once per thread. (A reload of one's
 * own thread without a remembered key gets the workspace's inline key prompt instead.)
 */
function useLinkGate(task: string | undefined) {
  const hasKey = useConnectionStore((s) => s.apiKey.length > 0);
  const hydrated = useThreadsStore(selectLoaded);
  const known = useThreadsStore((s) => (task ? Boolean(s.threads.get(task)) : true));
  const [askedFor, setAskedFor] = useState<string | null>(null);
  const [doneFor, setDoneFor] = useState<string | null>(null);
  if (task && hydrated && !known && !hasKey && askedFor !== task && doneFor !== task) setAskedFor(task);
  // Keeping the thread in the list is the chat's choice to offer ("Keep in my threads").
  const done = () => setDoneFor(task ?? null);
  return { open: Boolean(task) && askedFor === task && doneFor !== task, done };
}

/** Whether the share dialog has been asked for yet (its code is loaded then, and kept). */
function useShareAsked(): boolean {
  const open = useShareDialogOpen();
  const [asked, setAsked] = useState(false);
  if (open && !asked) setAsked(true);
  return asked || open;
}

function WorkspaceGlobals() {
  const raw = useRouterState({ select: (s) => s.location.search as Record<string, unknown> });
  const search = parseWorkspaceSearch(raw);
  const target = useWorkspaceTarget(search);
  useWorkspaceActions(search, target);
  // A search link opens the search, which asks for the key itself; the thread waits behind it.
  const linkedTask = search.view === 'search' ? undefined : search.task;
  const gate = useLinkGate(linkedTask);
  const connection = useWorkspaceDialog('connection');
  const shareAsked = useShareAsked();
  // The workspace's first screen is drawn: what its first clicks need loads while it is read.
  useEffect(() => prefetchWhileReading(prefetchSteps), []);
  return (
    <>
      {linkedTask ? (
        <LinkGate open={gate.open} taskId={linkedTask} server={search.server} onDone={gate.done} />
      ) : null}
      {/* Sharing needs an open thread (the Share button is disabled without one): its code loads
          when the dialog is first asked for (the idle-time prefetch may have fetched it already). */}
      {target && shareAsked ? (
        <Suspense fallback={null}>
          <LazyShareDialog target={target} />
        </Suspense>
      ) : null}
      <ConnectionDialog open={connection.open} onClose={connection.close} />
    </>
  );
}

export function Root() {
  const hash = useRouterState({ select: (s) => s.location.hash });
  const navigate = useNavigate();
  const payload = snapshotPayloadFromHash(hash);
  const opened = useShareStore((s) => s.opened);
  const closeDocument = useShareStore((s) => s.closeDocument);
  const closeSnapshot = useCallback(() => void navigate({ to: '/', search: {}, hash: '' }), [navigate]);

  let content;
  if (payload) {
    content = (
      <Suspense fallback={loading}>
        <LazySnapshotPage
          key={payload}
          payload={payload}
          onClose={closeSnapshot}
          renderInspector={renderSnapshotInspector}
        />
      </Suspense>
    );
  } else if (opened) {
    content = (
      <Suspense fallback={loading}>
        <LazySnapshotView
          key={opened.created_at + opened.focus.task}
          doc={opened}
          onClose={closeDocument}
          renderInspector={renderSnapshotInspector}
        />
      </Suspense>
    );
  } else {
    // The workspace's view state (which of its dialogs is open) lives as long as the workspace.
    content = (
      <workspaceView.Provider>
        <ShareViewProvider>
          <Outlet />
          <WorkspaceGlobals />
        </ShareViewProvider>
      </workspaceView.Provider>
    );
  }
  return (
    <>
      {content}
      <KeyboardHost />
      <ImportDrop />
    </>
  );
}
