/**
 * Reply text as safe Markdown: raw HTML is never rendered (react-markdown escapes it), images are
 * shown as their text, and only http(s) and mailto links are live (opened in a new tab without
 * referrer); any other link is inert text. Loaded lazily (see SafeMarkdown).
 */
import type { ComponentProps } from 'react';
import ReactMarkdown, { type Components } from 'react-markdown';

const SAFE_LINK = /^(https?:|mailto:)/i;

export function isSafeHref(href: string | undefined): href is string {
  return Boolean(href && SAFE_LINK.test(href.trim()));
}

const components: Components = {
  a: ({ href, children }) =>
    isSafeHref(href) ? (
      <a href={href} target="_blank" rel="noopener noreferrer nofollow" className="text-indigo-600 underline dark:text-indigo-400">
        {children}
      </a>
    ) : (
      <span className="underline decoration-dotted" title="Link disabled">
        {children}
      </span>
    ),
  img: ({ alt }) => <span>{alt ? `[image: ${alt}]` : '[image]'}</span>,
};

export default function Markdown({ text }: { text: string }) {
  return (
    <div className="tl-markdown">
      <ReactMarkdown components={components} skipHtml urlTransform={urlTransform}>
        {text}
      </ReactMarkdown>
    </div>
  );
}

const urlTransform: NonNullable<ComponentProps<typeof ReactMarkdown>['urlTransform']> = (url) => (isSafeHref(url) ? url : '');
