/**
 * Trace links: identifiers only (thread, turn, node and, when the connection is not the page's
 * own server, that server's base URL), on the page's own base URL. There is no parameter for a
 * key or a bundle: the builder cannot put one in.
 */

export interface TraceLinkTarget {
  task: string;
  turn?: string | undefined;
  node?: string | undefined;
  /** The API base URL the thread lives on; omitted when it is the page's own server. */
  server?: string | undefined;
}

export function buildTraceLink(pageUrl: string, target: TraceLinkTarget): string {
  const url = new URL(pageUrl);
  url.hash = '';
  url.search = '';
  url.searchParams.set('task', target.task);
  if (target.turn) url.searchParams.set('turn', target.turn);
  if (target.node) url.searchParams.set('node', target.node);
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
