/**
 * Reply text as safe Markdown: raw HTML is never rendered but shown as the characters the agent
 * sent (a debugger must not hide what the agent said), images are
 * shown as their text, and only http(s) and mailto links are live (opened in a new tab without
 * referrer); any other link is inert text. Loaded lazily (see SafeMarkdown).
 */
import { memo, type ComponentProps, type ReactElement } from 'react';
import renderMarkdown, { type Components } from 'react-markdown';

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

const urlTransform: NonNullable<ComponentProps<typeof renderMarkdown>['urlTransform']> = (url) =>
  isSafeHref(url) ? url : '';

/**
 * Parsed replies, by text: a reply is parsed once, however often its turn is drawn again (a
 * virtualized list mounts a turn each time it scrolls into view). Bounded by total characters.
 */
const PARSED_BUDGET_CHARS = 8_000_000;
const parsed = new Map<string, ReactElement>();
let parsedChars = 0;

export function parseMarkdown(text: string): ReactElement {
  const hit = parsed.get(text);
  if (hit) {
    // Most recently used last, so the oldest goes first when the budget is exceeded.
    parsed.delete(text);
    parsed.set(text, hit);
    return hit;
  }
  const element = renderMarkdown({ children: text, components, remarkPlugins, urlTransform });
  if (text.length <= PARSED_BUDGET_CHARS) {
    parsed.set(text, element);
    parsedChars += text.length;
    for (const [old] of parsed) {
      if (parsedChars <= PARSED_BUDGET_CHARS) break;
      parsed.delete(old);
      parsedChars -= old.length;
    }
  }
  return element;
}

/** Memoised by text: re-rendering a turn never parses its reply again. */
export default memo(function Markdown({ text }: { text: string }) {
  return <div className="tl-markdown">{parseMarkdown(text)}</div>;
});
