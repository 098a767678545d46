/**
 * Reply text as safe Markdown: raw HTML is never rendered but shown as the characters the agent
 * sent (a debugger must not hide what the agent said), images are
 * shown as their text, and only http(s) and mailto links are live (opened in a new tab without
 * referrer); any other link is inert text. Loaded lazily (see SafeMarkdown).
 */
import type { ComponentProps } from 'react';
import ReactMarkdown, { type Components } from 'react-markdown';

const SAFE_LINK = /^(https?:|mailto:)/i;

export function isSafeHref(href: string | undefined): href is string {
  return Boolean(href && SAFE_LINK.test(href.trim()));
}

interface MdNode {
  type: string;
  children?: MdNode[];
}

/** A remark plugin: raw HTML nodes become plain text nodes, which React then escapes. */
function htmlAsText() {
  const walk = (node: MdNode): void => {
    if (node.type === 'html') node.type = 'text';
    node.children?.forEach(walk);
  };
  return walk;
}

const remarkPlugins = [htmlAsText];

const components: Components = {
  a: ({ href, children }) =>
    isSafeHref(href) ? (
      <a
        href={href}
        target="_blank"
        rel="noopener noreferrer nofollow"
        className="text-indigo-600 underline dark:text-indigo-400"
      >
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
      <ReactMarkdown components={components} remarkPlugins={remarkPlugins} urlTransform={urlTransform}>
        {text}
      </ReactMarkdown>
    </div>
  );
}

const urlTransform: NonNullable<ComponentProps<typeof ReactMarkdown>['urlTransform']> = (url) =>
  isSafeHref(url) ? url : '';
