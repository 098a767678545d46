/**
 * The message box. Ctrl/Cmd+Enter sends; ↑ in an empty box recalls the last message; the draft
 * is kept per thread (IndexedDB) so a reload does not lose it. The box registers its thread's
 * "focus" and "send" targets, which the palette, "/" and the skip link use.
 */
import { useId, useRef, type KeyboardEvent } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { Button } from '../../components/ui/Button';
import { cx } from '../../lib/format';
import { lengthCount, MESSAGE_MAX_CHARS, messageTooLong } from '../../lib/message-limit';
import { targetNames, useTarget } from '../../domain/commands/targets';
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
  // What would be sent (the trimmed text) is what the limit applies to; the draft is never cut.
  const length = draft.trim().length;
  const tooLong = messageTooLong(draft.trim());

  const submit = () => {
    if (busy || !draft.trim() || tooLong) return;
    if (onSend(draft)) setDraft(taskId, '');
  };
  const box = useRef<HTMLTextAreaElement>(null);
  const focus = () => box.current?.focus();
  useTarget(targetNames.focusComposer(taskId), focus);
  // Sends what is typed; with nothing to send, the box takes the focus.
  useTarget(targetNames.sendComposer(taskId), () => (draft.trim() ? submit() : focus()));

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
          ref={box}
          aria-label="Message"
          aria-describedby={hintId}
          aria-invalid={tooLong ? true : undefined}
          rows={2}
          value={draft}
          onChange={(e) => setDraft(taskId, e.target.value)}
          onKeyDown={onKeyDown}
          placeholder="Write a message…"
          className="max-h-48 min-h-[2.75rem] w-full resize-y rounded-md border border-zinc-300 bg-white px-3 py-2 text-sm wrap-anywhere text-zinc-900 focus:outline-2 focus:outline-indigo-500 dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-100"
        />
        <p
          id={hintId}
          className={cx(
            'text-xs',
            tooLong ? 'font-medium text-red-700 dark:text-red-300' : 'text-zinc-500 dark:text-zinc-400',
          )}
        >
          {tooLong ??
            `${isMac ? '⌘' : 'Ctrl'}+Enter to send · ↑ recalls your last message${
              length > MESSAGE_MAX_CHARS * 0.9 ? ` · ${lengthCount(length)}` : ''
            }`}
        </p>
      </div>
      <Button
        type="submit"
        variant="primary"
        aria-label="Send"
        disabled={busy || !draft.trim() || tooLong !== null}
        className="mb-5"
      >
        {busy ? 'Sending…' : 'Send'}
      </Button>
    </form>
  );
}
