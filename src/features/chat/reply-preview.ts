/**
 * Very long replies are shown collapsed: a short head (cut at a line break when one is near) and
 * "Show all". Pure, so the cut is tested without a browser.
 */

/** Replies longer than this are collapsed until the reader asks for all of it. */
export const LONG_REPLY_CHARS = 10_000;
/** About how much of a collapsed reply is shown. */
export const PREVIEW_CHARS = 2_000;
/**
 * Longer replies are shown whole as plain text: parsing Markdown costs tens of microseconds per
 * character in the browser, so a 1 MB reply would hold the page for many seconds.
 */
export const MARKDOWN_MAX_CHARS = 50_000;

/** The head of a long reply, or null when the reply is short enough to show whole. */
export function replyPreview(text: string): string | null {
  if (text.length <= LONG_REPLY_CHARS) return null;
  const head = text.slice(0, PREVIEW_CHARS);
  const lineBreak = head.lastIndexOf('\n');
  return lineBreak > PREVIEW_CHARS / 2 ? head.slice(0, lineBreak) : head;
}

/** "12,345 characters" / "1.2 million characters". */
export function describeLength(chars: number): string {
  return chars >= 1_000_000
    ? `${(chars / 1_000_000).toFixed(1)} million characters`
    : `${chars.toLocaleString('en-US')} characters`;
}
