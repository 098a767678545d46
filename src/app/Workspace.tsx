/**
 * The playground workspace: threads | chat | inspector, in resizable panes. This is the only
 * place that knows the URL: features get plain values and callbacks.
 */
import { getRouteApi } from '@tanstack/react-router';
import { useCallback, useMemo } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { toApiError } from '../api/errors';
import { Brand } from '../components/ui/Brand';
import { Button } from '../components/ui/Button';
import { ErrorCallout } from '../components/ui/ErrorCallout';
import { SplitPanes } from '../components/ui/SplitPanes';
import { ChatPane, useTranscript, type Turn } from '../features/chat';
import {
  ConnectionDialogButton,
  ConnectionForm,
  KeyPrompt,
  useConnectionStore,
} from '../features/connection';
import { ShareMenu } from '../features/share';
import { ThreadList, useStartThread } from '../features/threads';
import {
  inspectorTabs,
  mainViews,
  messageExtras,
  turnActions,
  type InspectorContext,
  type TurnActionContext,
} from './extensions';
import { Inspector } from './Inspector';
import { ThemeToggle } from './ThemeToggle';
import { useSetSearch } from './use-set-search';

const route = getRouteApi('/');

export function Workspace() {
  const search = route.useSearch();
  const setSearch = useSetSearch();

  const { agentId, hasKey, baseUrl } = useConnectionStore(
    useShallow((s) => ({
      agentId: s.agentId.trim(),
      hasKey: s.apiKey.length > 0,
      baseUrl: s.baseUrl.trim(),
    })),
  );
  const startThread = useStartThread();
  const onNewThread = () =>
    startThread.mutate(undefined, {
      onSuccess: (task) => setSearch({ task: task.id, turn: undefined, node: undefined }),
    });
  const openTask = useCallback(
    (taskId: string, turnId?: string) =>
      setSearch({ task: taskId, turn: turnId, node: undefined, compare: undefined }),
    [setSearch],
  );

  const taskId = search.task;
  const transcript = useTranscript(taskId);
  const turn: Turn | undefined = search.turn
    ? transcript.turns.find((t) => t.id === search.turn)
    : transcript.turns.at(-1);

  const selectTurn = useCallback((id: string) => setSearch({ turn: id, node: undefined }), [setSearch]);
  const selectNode = useCallback(
    (nodeId: string | undefined) => setSearch({ turn: turn?.id ?? search.turn, node: nodeId }, true),
    [setSearch, turn?.id, search.turn],
  );

  const inspectorCtx: InspectorContext = {
    taskId,
    turns: transcript.turns,
    turn,
    nodeId: search.node,
    selectNode,
    selectTurn,
    isLoading: transcript.isLoading,
  };

  const renderTurnActions = useMemo(() => {
    if (!taskId || turnActions.length === 0) return undefined;
    const ctx: TurnActionContext = { taskId, selectTurn, openTask };
    return (t: Turn) => turnActions.map((render, i) => <span key={i}>{render(t, ctx)}</span>);
  }, [taskId, selectTurn, openTask]);

  const extras = useMemo(
    () =>
      messageExtras.length
        ? async (id: string) =>
            Object.assign({}, ...(await Promise.all(messageExtras.map(async (m) => m(id)))))
        : undefined,
    [],
  );

  const mainView = mainViews.find((v) => v.when(search));

  return (
    <div className="flex h-dvh flex-col bg-zinc-50 text-zinc-900 dark:bg-zinc-950 dark:text-zinc-100">
      <header className="flex h-11 shrink-0 items-center gap-3 border-b border-zinc-200 bg-white px-3 dark:border-zinc-800 dark:bg-zinc-900">
        <Brand />
        <span className="truncate text-xs text-zinc-500 dark:text-zinc-400">
          {agentId || 'no agent'} · {baseUrl || 'this server'}
          {hasKey ? '' : ' · no key'}
        </span>
        <div className="ml-auto flex items-center gap-1">
          <ShareMenu target={taskId ? { taskId, turnId: turn?.id, nodeId: search.node } : undefined} />
          <ConnectionDialogButton label="Connection" />
          <ThemeToggle />
        </div>
      </header>
      {mainView ? (
        <main className="min-h-0 flex-1">
          <mainView.View search={search} setSearch={setSearch} />
        </main>
      ) : (
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
              children: (
                <ThreadList
                  activeTaskId={taskId}
                  onOpen={openTask}
                  onNew={onNewThread}
                  creating={startThread.isPending}
                  canCreate={Boolean(agentId)}
                />
              ),
            },
            {
              id: 'chat',
              defaultSize: 42,
              minSize: 25,
              children: (
                <main className="flex h-full min-h-0 flex-col">
                  {taskId ? <KeyPrompt /> : null}
                  {startThread.error ? (
                    <div className="p-3">
                      <ErrorCallout
                        error={toApiError(startThread.error)}
                        action={
                          <Button size="sm" onClick={() => startThread.reset()}>
                            Dismiss
                          </Button>
                        }
                      />
                    </div>
                  ) : null}
                  <div className="min-h-0 flex-1">
                    {taskId ? (
                      <ChatPane
                        key={taskId}
                        taskId={taskId}
                        selectedTurnId={turn?.id}
                        onSelectTurn={selectTurn}
                        renderTurnActions={renderTurnActions}
                        messageExtras={extras}
                      />
                    ) : (
                      <Welcome
                        onStart={onNewThread}
                        starting={startThread.isPending}
                        canStart={Boolean(agentId)}
                      />
                    )}
                  </div>
                </main>
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
                />
              ),
            },
          ]}
        />
      )}
    </div>
  );
}

function Welcome({
  onStart,
  starting,
  canStart,
}: {
  onStart: () => void;
  starting: boolean;
  canStart: boolean;
}) {
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
        <div>
          <Button variant="primary" onClick={onStart} disabled={starting || !canStart}>
            {starting ? 'Starting…' : 'Start a thread'}
          </Button>
        </div>
      </div>
    </div>
  );
}
