import { Suspense } from 'react';
import { lazyComponent } from '../../components/ui/lazy-component';

const Markdown = lazyComponent(() => import('./Markdown'));
/** Fetches and evaluates the Markdown renderer's chunk ahead of the first reply. */
export const preloadMarkdown = Markdown.preload;

/** Shows the plain text until the Markdown renderer (a lazy chunk) is loaded. */
export function SafeMarkdown({ text }: { text: string }) {
  return (
    <Suspense fallback={<div className="whitespace-pre-wrap">{text}</div>}>
      <Markdown text={text} />
    </Suspense>
  );
}
