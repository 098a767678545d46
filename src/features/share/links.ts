/**
 * Trace links: identifiers only, enough to reproduce the view (thread, turn, node, inspector
 * tab, compare pair, the "only differences" filter; a branch's parent task and fork interaction
 * when the server does not keep lineage; the server's base URL when it is not the page's own), on
 * the page's own base URL. There is no parameter for a key or a bundle: the builder cannot put
 * one in.
 */

export interface TraceLinkTarget {
  task: string;
  turn?: string | undefined;
  node?: string | undefined;
  tab?: string | undefined;
  /** `<taskA>..<taskB>` */
  compare?: string | undefined;
  /** 'differences' when the comparison shows only differences. */
  only?: string | undefined;
  /** A branch's origin (ids only), for servers that do not keep lineage. */
  parent?: string | undefined;
  fork?: string | undefined;
  /** The API base URL the thread lives on; omitted when it is the page's own server. */
  server?: string | undefined;
}

const VIEW_PARAMS = ['turn', 'node', 'tab', 'compare', 'only', 'parent', 'fork'] as const;

export function buildTraceLink(pageUrl: string, target: TraceLinkTarget): string {
  const url = new URL(pageUrl);
  url.hash = '';
  url.search = '';
  url.searchParams.set('task', target.task);
  for (const name of VIEW_PARAMS) {
    const value = target[name];
    if (value) url.searchParams.set(name, value);
  }
  const server = normalizeServer(target.server, url.origin);
  if (server) url.searchParams.set('server', server);
  return url.toString();
}

/** A base URL without trailing slashes, or undefined when empty or the page's own origin. */
export function normalizeServer(server: string | undefined, pageOrigin: string): string | undefined {
  const s = (server ?? '').trim().replace(/\/+$/, '');
  if (!s || s === pageOrigin) return undefined;
  return s;
}

/** Whether a link's server differs from the connection in use ('' = the page's own server). */
export function serverMismatch(
  linkServer: string | undefined,
  connectionBaseUrl: string,
  pageOrigin: string,
): boolean {
  return normalizeServer(linkServer, pageOrigin) !== normalizeServer(connectionBaseUrl, pageOrigin);
}

export const SNAPSHOT_PARAM = 'snapshot';

/** The payload of `#snapshot=…` in a location hash (with or without the #), or undefined. */
export function snapshotPayloadFromHash(hash: string): string | undefined {
  const params = new URLSearchParams(hash.replace(/^#/, ''));
  const v = params.get(SNAPSHOT_PARAM);
  return v ? v : undefined;
}
