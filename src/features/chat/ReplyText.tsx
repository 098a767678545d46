import { memo, useState } from 'react';
import { SafeMarkdown } from './SafeMarkdown';
import { describeLength, MARKDOWN_MAX_CHARS, replyPreview } from './reply-preview';

/**
 * A reply as safe Markdown. A very long one shows its head and "Show all"; the whole text is
 * parsed only when asked for, once (see Markdown.tsx), and beyond MARKDOWN_MAX_CHARS it is shown
 * as plain text, saying so.
 */
export const ReplyText = memo(function ReplyText({ text }: { text: string }) {
  const [expanded, setExpanded] = useState(false);
  const preview = replyPreview(text);
  if (preview === null) return <SafeMarkdown text={text} />;
  return (
    <div>
      {!expanded ? (
        <SafeMarkdown text={preview} />
      ) : text.length <= MARKDOWN_MAX_CHARS ? (
        <SafeMarkdown text={text} />
      ) : (
        <>
          <p className="mb-1 text-xs text-zinc-500 italic dark:text-zinc-400">
            Shown as plain text: replies over {MARKDOWN_MAX_CHARS.toLocaleString('en-US')} characters are not
            formatted as Markdown.
          </p>
          <div className="break-words whitespace-pre-wrap">{text}</div>
        </>
      )}
      <div className="mt-1 flex items-center gap-2 text-xs text-zinc-500 dark:text-zinc-400">
        {expanded ? null : <span aria-hidden="true">…</span>}
        <button
          type="button"
          aria-expanded={expanded}
          onClick={() => setExpanded((v) => !v)}
          className="rounded px-1.5 py-0.5 text-indigo-700 hover:bg-indigo-50 dark:text-indigo-300 dark:hover:bg-indigo-950"
        >
          {expanded ? 'Show less' : `Show all (${describeLength(text.length)})`}
        </button>
      </div>
    </div>
  );
});
