/**
 * The chat of one thread. Data flow: useTranscript (trace list + local records) → MessageList;
 * Composer → useSendTurn → outbox (pending bubble) → reply recorded → transcript updates.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useState, type ReactNode } from 'react';
import { Button } from '../../components/ui/Button';
import { ErrorCallout } from '../../components/ui/ErrorCallout';
import { Spinner } from '../../components/ui/Spinner';
import { toApiError } from '../../api/errors';
import { renameTaskOnServer, taskInfoQueryOptions } from '../../api/lineage';
import { titleFrom } from '../../lib/format';
import { useKeyReady } from '../../domain/connection/use-key-ready';
import { selectThread, selectUpsertThread, useThreadsStore } from '../../domain/threads/threads-store';
import { Composer } from './Composer';
import { MessageList, type Welcome } from './MessageList';
import { selectOutbox, useOutboxStore } from './outbox-store';
import { lastUserText, type Turn } from '../../domain/transcript/transcript';
import { useSendTurn } from './use-send-turn';
import { useTranscript } from '../../domain/transcript/use-transcript';

export interface ChatPaneProps {
  taskId: string;
  selectedTurnId: string | undefined;
  onSelectTurn: (turnId: string) => void;
  renderTurnActions?: ((turn: Turn) => ReactNode) | undefined;
  /** Shown above the conversation (e.g. a branch's origin). */
  header?: ReactNode;
  /** Shown with the composer (what the thread runs with). */
  composerAddon?: ReactNode;
}

export function ChatPane({
  taskId,
  selectedTurnId,
  onSelectTurn,
  renderTurnActions,
  header,
  composerAddon,
}: ChatPaneProps) {
  const thread = useThreadsStore(selectThread(taskId));
  const upsertThread = useThreadsStore(selectUpsertThread);
  const transcript = useTranscript(taskId);
  // Without a key the service's turns are not read: what shows is only this browser's record.
  const keyReady = useKeyReady();
  // The name the service keeps (reference service): a thread opened from a link shows it.
  const info = useQuery({ ...taskInfoQueryOptions(taskId), enabled: keyReady });
  const serverTitle = info.data?.title || undefined;
  const outbox = useOutboxStore(selectOutbox(taskId));
  const { send, retry, discard, edit } = useSendTurn(taskId);
  const busy = outbox.some((e) => e.status === 'pending');
  const onSend = useCallback((text: string) => void send(text), [send]);

  // The trace list could not be read: above the turns shown from before, or in their place.
  const listError = transcript.error ? (
    <ErrorCallout
      error={toApiError(transcript.error)}
      action={
        <Button size="sm" onClick={transcript.refetch}>
          Try again
        </Button>
      }
    />
  ) : null;

  const welcome: Welcome | undefined = thread?.welcome_message
    ? { text: thread.welcome_message, suggestions: thread.suggestions ?? [] }
    : undefined;

  return (
    <section aria-label="Chat" className="flex h-full min-h-0 flex-col">
      <header className="flex items-center gap-2 border-b border-zinc-200 px-4 py-2 dark:border-zinc-800">
        {thread ? (
          <ThreadTitle id={taskId} title={thread.title || `Thread ${taskId}`} />
        ) : (
          <h2 className="truncate text-sm font-semibold text-zinc-900 dark:text-zinc-50">
            {serverTitle ?? `Thread ${taskId}`}
          </h2>
        )}
        {thread?.agent_id ? (
          <span className="truncate text-xs text-zinc-500 dark:text-zinc-400">· {thread.agent_id}</span>
        ) : null}
        <div className="ml-auto flex items-center gap-2">
          {thread ? null : (
            <Button
              size="sm"
              onClick={() =>
                upsertThread({
                  id: taskId,
                  title: serverTitle ?? titleFrom(transcript.turns[0]?.userText || `Thread ${taskId}`),
                  agent_id: info.data?.agent_id ?? '',
                  created_at: transcript.turns[0]?.createdAt ?? new Date().toISOString(),
                })
              }
            >
              Keep in my threads
            </Button>
          )}
          {header}
        </div>
      </header>
      {!keyReady && transcript.turns.length > 0 ? (
        <p
          role="status"
          className="border-b border-zinc-200 px-4 py-2 text-xs text-zinc-500 dark:border-zinc-800"
        >
          Showing only what this browser recorded: the service’s turns load once the API key is entered.
        </p>
      ) : null}
      {transcript.error && transcript.turns.length > 0 ? (
        // The turns shown are from before: say the list could not be read again, and which part.
        <div className="border-b border-zinc-200 p-2 dark:border-zinc-800">{listError}</div>
      ) : null}
      <div className="min-h-0 flex-1">
        {transcript.isLoading && !welcome ? (
          <div className="flex h-full items-center justify-center gap-2 text-sm text-zinc-500">
            <Spinner label="Loading the thread" /> Loading the thread…
          </div>
        ) : transcript.error && transcript.turns.length === 0 ? (
          <div className="p-4">{listError}</div>
        ) : !welcome && transcript.turns.length === 0 && outbox.length === 0 ? (
          <div className="flex h-full items-center justify-center p-6 text-sm text-zinc-500 dark:text-zinc-400">
            {keyReady
              ? 'No messages yet. Say hello below.'
              : 'This thread’s messages load once the API key is entered.'}
          </div>
        ) : (
          <MessageList
            welcome={welcome}
            turns={transcript.turns}
            outbox={outbox}
            selectedTurnId={selectedTurnId}
            onSelectTurn={onSelectTurn}
            onSend={onSend}
            onRetry={retry}
            onDiscard={discard}
            onEdit={edit}
            renderTurnActions={renderTurnActions}
            part={transcript}
          />
        )}
      </div>
      {composerAddon ? (
        <div className="border-t border-zinc-200 px-3 pt-2 dark:border-zinc-800">{composerAddon}</div>
      ) : null}
      <Composer taskId={taskId} busy={busy} lastMessage={lastUserText(transcript.turns)} onSend={send} />
    </section>
  );
}

/** The thread's name, renameable in place (Enter keeps, Escape cancels). */
function ThreadTitle({ id, title }: { id: string; title: string }) {
  const [editing, setEditing] = useState<string | null>(null);
  const renameHere = useThreadsStore((s) => s.renameThread);
  const queryClient = useQueryClient();
  const rename = (taskId: string, next: string) => {
    renameHere(taskId, next);
    const name = next.trim();
    // The service keeps the name too when it keeps the task (its task info answered).
    if (!name || name === title || !queryClient.getQueryData(taskInfoQueryOptions(taskId).queryKey)) return;
    void renameTaskOnServer(taskId, name).then((kept) => {
      if (kept) void queryClient.invalidateQueries({ queryKey: taskInfoQueryOptions(taskId).queryKey });
    });
  };
  if (editing !== null) {
    return (
      <input
        autoFocus
        aria-label="Thread name"
        value={editing}
        maxLength={200}
        onChange={(e) => setEditing(e.target.value)}
        onBlur={() => {
          rename(id, editing);
          setEditing(null);
        }}
        onKeyDown={(e) => {
          if (e.key === 'Enter') {
            rename(id, editing);
            setEditing(null);
          } else if (e.key === 'Escape') setEditing(null);
        }}
        className="min-w-0 flex-1 rounded border border-zinc-300 px-1 text-sm font-semibold dark:border-zinc-700 dark:bg-zinc-900"
      />
    );
  }
  return (
    <div className="flex min-w-0 items-center gap-1">
      <h2 className="truncate text-sm font-semibold text-zinc-900 dark:text-zinc-50">{title}</h2>
      <button
        type="button"
        aria-label="Rename the thread"
        title="Rename"
        onClick={() => setEditing(title)}
        className="rounded px-1 text-xs font-normal text-zinc-500 hover:bg-zinc-100 dark:hover:bg-zinc-800"
      >
        ✎
      </button>
    </div>
  );
}
