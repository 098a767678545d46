/**
 * The message box. Ctrl/Cmd+Enter sends; ↑ in an empty box recalls the last message; the draft
 * is kept per thread (IndexedDB) so a reload does not lose it.
 */
import { useId, type KeyboardEvent } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { Button } from '../../components/ui/Button';
import { selectDraft, useDraftsStore } from './drafts-store';

export interface ComposerProps {
  taskId: string;
  busy: boolean;
  lastMessage: string | undefined;
  onSend: (text: string) => boolean;
}

const isMac = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform);

export function Composer({ taskId, busy, lastMessage, onSend }: ComposerProps) {
  const [draft, setDraft] = useDraftsStore(useShallow((s) => [selectDraft(taskId)(s), s.setDraft] as const));
  const hintId = useId();

  const submit = () => {
    if (busy || !draft.trim()) return;
    if (onSend(draft)) setDraft(taskId, '');
  };

  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
      e.preventDefault();
      submit();
    } else if (e.key === 'ArrowUp' && !draft && lastMessage) {
      e.preventDefault();
      setDraft(taskId, lastMessage);
    }
  };

  return (
    <form
      className="flex items-end gap-2 border-t border-zinc-200 p-3 dark:border-zinc-800"
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
    >
      <div className="flex flex-1 flex-col gap-1">
        <textarea
          aria-label="Message"
          aria-describedby={hintId}
          rows={2}
          value={draft}
          onChange={(e) => setDraft(taskId, e.target.value)}
          onKeyDown={onKeyDown}
          placeholder="Write a message…"
          className="max-h-48 min-h-[2.75rem] w-full resize-y rounded-md border border-zinc-300 bg-white px-3 py-2 text-sm text-zinc-900 placeholder:text-zinc-400 focus:outline-2 focus:outline-indigo-500 dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-100"
        />
        <p id={hintId} className="text-xs text-zinc-500 dark:text-zinc-400">
          {isMac ? '⌘' : 'Ctrl'}+Enter to send · ↑ recalls your last message
        </p>
      </div>
      <Button
        type="submit"
        variant="primary"
        aria-label="Send"
        disabled={busy || !draft.trim()}
        className="mb-5"
      >
        {busy ? 'Sending…' : 'Send'}
      </Button>
    </form>
  );
}
