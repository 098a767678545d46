import { lazy, Suspense } from 'react';

const Markdown = lazy(() => import('./Markdown'));

/** Shows the plain text until the Markdown renderer (a lazy chunk) is loaded. */
export function SafeMarkdown({ text }: { text: string }) {
  return (
    <Suspense fallback={<div className="whitespace-pre-wrap">{text}</div>}>
      <Markdown text={text} />
    </Suspense>
  );
}
