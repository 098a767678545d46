/**
 * The playground workspace: threads | chat | inspector, in resizable panes. This is the only
 * place that knows the URL: features get plain values and callbacks.
 */
import { getRouteApi } from '@tanstack/react-router';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { Brand } from '../components/ui/Brand';
import { Button } from '../components/ui/Button';
import { SkipLink } from '../components/ui/SkipLink';
import { SplitPanes } from '../components/ui/SplitPanes';
import { ChatPane } from '../features/chat';
import { findTurn } from '../domain/transcript/trace-pages';
import { useTranscript } from '../domain/transcript/use-transcript';
import { type Turn } from '../domain/transcript/transcript';
import { Modal } from '../components/ui/Modal';
import { ServiceStatus } from '../features/connection';
import { ConnectionForm } from '../components/connection/ConnectionForm';
import { KeyPrompt } from '../components/connection/KeyPrompt';
import { useConnectionStore } from '../domain/connection/connection-store';
import { ShareMenu } from '../features/share';
import { NewThreadForm, ThreadList } from '../features/threads';
import { describeRun, runConfigOf } from '../domain/threads/run-config';
import { useThreadsStore } from '../domain/threads/threads-store';
import {
  ComposerAddon,
  inspectorTabs,
  mainViews,
  turnActions,
  type InspectorContext,
  type TurnActionContext,
} from './extensions';
import { Inspector } from './Inspector';
import { ThemeToggle } from './ThemeToggle';
import { useSetSearch } from './use-set-search';
import { linkParentOf, useWorkspaceTarget } from './workspace-actions';
import { useWorkspaceDialog } from './workspace-view';
import { runTarget, runTargetWhenReady, targetNames } from '../domain/commands/targets';

const route = getRouteApi('/');

export function Workspace() {
  const search = route.useSearch();
  const setSearch = useSetSearch();

  const { hasKey, baseUrl } = useConnectionStore(
    useShallow((s) => ({ hasKey: s.apiKey.length > 0, baseUrl: s.baseUrl.trim() })),
  );
  const newThread = useWorkspaceDialog('new-thread');
  const connection = useWorkspaceDialog('connection');
  const onStarted = useCallback(
    (task: { id: string }) => {
      newThread.close();
      setSearch({ task: task.id, turn: undefined, node: undefined, compare: undefined, only: undefined });
      // A new thread is for typing: its message box gets the focus once it is there.
      runTargetWhenReady(targetNames.focusComposer(task.id));
    },
    [newThread, setSearch],
  );
  const openTask = useCallback(
    (taskId: string, turnId?: string) =>
      setSearch({
        task: taskId,
        turn: turnId,
        node: undefined,
        compare: undefined,
        only: undefined,
        parent: undefined,
        fork: undefined,
      }),
    [setSearch],
  );

  const taskId = search.task;
  const thread = useThreadsStore((s) => (taskId ? s.threads.get(taskId) : undefined));
  const transcript = useTranscript(taskId);
  // A pinned turn (the URL's `turn`) stays; otherwise the view follows the newest turn.
  const pinned = Boolean(search.turn);
  // The newest turn is the last held only when the held turns reach the thread's end.
  const heldToEnd = transcript.start + transcript.turns.length >= transcript.total;
  const found: Turn | undefined = search.turn
    ? transcript.turns.find((t) => t.id === search.turn)
    : heldToEnd
      ? transcript.turns.at(-1)
      : undefined;
  // The turn shown stays when the reader scrolls a long thread far from it (its page dropped).
  const keptAs = `${taskId ?? ''}\n${search.turn ?? ''}`;
  const [kept, setKept] = useState<{ as: string; turn: Turn } | undefined>(undefined);
  if (found && (kept?.turn !== found || kept.as !== keptAs)) setKept({ as: keptAs, turn: found });
  const turn = found ?? (kept?.as === keptAs ? kept.turn : undefined);

  // A link to a turn of a long thread not held yet (an old one): its page is looked for.
  const queryClient = useQueryClient();
  const missingTurn = search.turn && !turn && transcript.window ? search.turn : undefined;
  useEffect(() => {
    if (taskId && missingTurn) void findTurn(queryClient, taskId, missingTurn).catch(() => false);
  }, [queryClient, taskId, missingTurn]);

  const selectTurn = useCallback((id: string) => setSearch({ turn: id, node: undefined }), [setSearch]);
  // Selecting a node never pins the turn: the graph keeps following the newest turn.
  const selectNode = useCallback(
    (nodeId: string | undefined) => setSearch({ node: nodeId }, true),
    [setSearch],
  );
  const followLatest = useCallback(() => setSearch({ turn: undefined }, true), [setSearch]);
  // Turns like this one: the node's filter, within the thread's agent when it is known.
  const threadAgent = thread?.agent_id;
  const findLike = useCallback(
    (filter: { field: string; value: string }) => {
      const find = new URLSearchParams(threadAgent ? [['agent', threadAgent]] : []);
      find.append(filter.field, filter.value);
      setSearch({ view: 'search', find: find.toString() });
    },
    [setSearch, threadAgent],
  );
  const openRule = useCallback(
    (rule: string) => {
      if (threadAgent) setSearch({ view: 'rule', agent: threadAgent, rule });
    },
    [setSearch, threadAgent],
  );
  const target = useWorkspaceTarget(search);

  const inspectorCtx: InspectorContext = {
    taskId,
    turns: transcript.turns,
    part: transcript,
    turn,
    pinned,
    followLatest,
    linkParent: linkParentOf(search),
    nodeId: search.node,
    selectNode,
    selectTurn,
    isLoading: transcript.isLoading,
    error: transcript.error,
    retry: transcript.refetch,
    findLike,
    ...(threadAgent ? { openRule } : {}),
    openTab: (id) => setSearch({ tab: id }, true),
  };

  const renderTurnActions = useMemo(() => {
    if (!taskId || turnActions.length === 0) return undefined;
    const ctx: TurnActionContext = { taskId, selectTurn, openTask };
    return (t: Turn) => turnActions.map((render, i) => <span key={i}>{render(t, ctx)}</span>);
  }, [taskId, selectTurn, openTask]);

  const mainView = mainViews.find((v) => v.when(search));
  const hasComposer = Boolean(taskId) && !mainView;
  const skip = useCallback(() => {
    if (!(hasComposer && taskId && runTarget(targetNames.focusComposer(taskId))))
      document.getElementById('main-content')?.focus();
  }, [hasComposer, taskId]);

  return (
    <div className="flex h-dvh flex-col bg-zinc-50 text-zinc-900 dark:bg-zinc-950 dark:text-zinc-100">
      <SkipLink label={hasComposer ? 'Skip to message box' : 'Skip to main content'} onSkip={skip} />
      <header className="flex h-11 shrink-0 items-center gap-3 border-b border-zinc-200 bg-white px-3 dark:border-zinc-800 dark:bg-zinc-900">
        <Brand />
        <span className="truncate text-xs text-zinc-500 dark:text-zinc-400" data-testid="header-thread">
          {thread
            ? describeRun(thread.agent_id, runConfigOf(thread), thread.version_id)
            : taskId
              ? 'a thread not kept in this browser'
              : 'no thread open'}{' '}
          · {baseUrl || 'this server'}
          {hasKey ? '' : ' · no key'}
        </span>
        <div className="ml-auto flex items-center gap-1">
          <Button size="sm" variant="ghost" onClick={() => setSearch({ view: 'search' })}>
            Search turns
          </Button>
          <ServiceStatus />
          <ShareMenu target={target} />
          <Button size="sm" variant="ghost" aria-haspopup="dialog" onClick={connection.show}>
            Connection
          </Button>
          <ThemeToggle />
        </div>
      </header>
      {mainView ? (
        <main id="main-content" tabIndex={-1} className="flex min-h-0 flex-1 flex-col outline-none">
          <KeyPrompt />
          <div className="min-h-0 flex-1">
            <mainView.View search={search} setSearch={setSearch} />
          </div>
        </main>
      ) : (
        // The threads (a nav), the chat and the inspector (regions) and the separators between them
        // are all the page's main content.
        <main id="main-content" tabIndex={-1} className="flex min-h-0 flex-1 outline-none">
          <SplitPanes
            orientation="horizontal"
            className="flex-1"
            storageKey="threadline:layout:workspace"
            separatorLabels={['Resize threads', 'Resize inspector']}
            panes={[
              {
                id: 'threads',
                defaultSize: 18,
                minSize: 10,
                className: 'bg-white dark:bg-zinc-900',
                children: <ThreadList activeTaskId={taskId} onOpen={openTask} onNew={newThread.show} />,
              },
              {
                id: 'chat',
                defaultSize: 42,
                minSize: 25,
                children: (
                  <div className="flex h-full min-h-0 flex-col">
                    {taskId ? <KeyPrompt /> : null}
                    <div className="min-h-0 flex-1">
                      {taskId ? (
                        <ChatPane
                          key={taskId}
                          taskId={taskId}
                          selectedTurnId={turn?.id}
                          onSelectTurn={selectTurn}
                          renderTurnActions={renderTurnActions}
                          composerAddon={<ComposerAddon taskId={taskId} />}
                        />
                      ) : (
                        <Welcome onStarted={onStarted} />
                      )}
                    </div>
                  </div>
                ),
              },
              {
                id: 'inspector',
                defaultSize: 40,
                minSize: 20,
                className: 'bg-white dark:bg-zinc-900',
                children: (
                  <Inspector
                    tab={search.tab ?? inspectorTabs[0]?.id}
                    onTab={(id) => setSearch({ tab: id }, true)}
                    ctx={inspectorCtx}
                    tabs={inspectorTabs}
                  />
                ),
              },
            ]}
          />
        </main>
      )}
      <Modal
        open={newThread.open}
        onClose={newThread.close}
        label="New thread"
        className="w-[min(32rem,calc(100vw-2rem))]"
      >
        <div className="p-4">
          <h2 className="mb-3 text-sm font-semibold">New thread</h2>
          <p className="mb-3 text-xs text-zinc-600 dark:text-zinc-400">
            Which agent should this thread talk to? The thread keeps it, with the agent’s own bundle, until
            you change what it runs with beside the message box.
          </p>
          <NewThreadForm onStarted={onStarted} submitLabel="Start" />
        </div>
      </Modal>
    </div>
  );
}

function Welcome({ onStarted }: { onStarted: (task: { id: string }) => void }) {
  return (
    <div className="h-full overflow-y-auto">
      <div className="mx-auto flex max-w-xl flex-col gap-4 p-6">
        <div>
          <h2 className="text-lg font-semibold">Talk to an agent, and see why it answers</h2>
          <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">
            Threadline sends your messages to a Messaging API service and draws the reasoning trace of every
            reply: the intent, the rules that fired, the tools, the decision. Choose an agent, then start a
            thread.
          </p>
        </div>
        <ConnectionForm compact />
        <NewThreadForm onStarted={onStarted} />
      </div>
    </div>
  );
}
