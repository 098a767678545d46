/**
 * Forwarding `/v1/messaging/*` to a deployed Messaging API (`--upstream`), so the app served from
 * localhost can use it without cross-origin trouble. Method, path, query and body go through
 * unchanged, and so do the client's key and scope headers; nothing else of the browser's does.
 */
import type { Context } from 'hono';
import { ApiError } from './errors';
import { readBodyWithLimit } from './read-body';

const FORWARDED_REQUEST_HEADERS = [
  'content-type',
  'accept',
  'accept-language',
  'authorization',
  'x-api-key',
  'x-request-id',
];
const FORWARDED_RESPONSE_HEADERS = ['content-type', 'cache-control', 'retry-after', 'x-request-id'];
const UPSTREAM_TIMEOUT_MS = 120_000;

export function forwardedHeaders(incoming: Headers): Headers {
  const out = new Headers();
  incoming.forEach((value, name) => {
    const lower = name.toLowerCase();
    if (
      FORWARDED_REQUEST_HEADERS.includes(lower) ||
      lower.startsWith('x-aui-') ||
      lower === 'x-service-api-key'
    ) {
      out.set(lower, value);
    }
  });
  return out;
}

/** `https://host/base` + `/v1/messaging/x?y` → `https://host/base/v1/messaging/x?y`. */
export function upstreamUrl(base: string, requestUrl: string): string {
  const url = new URL(requestUrl);
  return `${base.replace(/\/+$/, '')}${url.pathname}${url.search}`;
}

function badGateway(base: string, reason: string): ApiError {
  const message = `The upstream service at ${new URL(base).origin} could not be reached: ${reason}`;
  return new ApiError(502, { error: 'Bad Gateway', message });
}

export function upstreamProxy(base: string, bodyLimit: number, fetchImpl: typeof fetch = fetch) {
  return async (c: Context): Promise<Response> => {
    const method = c.req.method;
    const body =
      method === 'GET' || method === 'HEAD' ? undefined : await readBodyWithLimit(c.req.raw, bodyLimit);
    let response: Response;
    try {
      response = await fetchImpl(upstreamUrl(base, c.req.url), {
        method,
        headers: forwardedHeaders(c.req.raw.headers),
        ...(body ? { body } : {}),
        redirect: 'manual',
        signal: AbortSignal.timeout(UPSTREAM_TIMEOUT_MS),
      });
    } catch (error) {
      const cause =
        error instanceof Error
          ? ((error.cause as Error | undefined)?.message ?? error.message)
          : String(error);
      throw badGateway(base, cause);
    }
    const headers = new Headers();
    for (const name of FORWARDED_RESPONSE_HEADERS) {
      const value = response.headers.get(name);
      if (value !== null) headers.set(name, value);
    }
    return new Response(await response.arrayBuffer(), { status: response.status, headers });
  };
}

/**
 * Upstream mode: the reference agents and their bundles describe this service's example agents,
 * not the deployed service's, so they answer 404 whatever the key (never a 401 for a key this
 * service does not hold), saying why.
 */
export function agentsNotOffered(base: string) {
  const origin = new URL(base).origin;
  return (c: Context): Response =>
    c.json(
      {
        error: 'Not Found',
        message:
          `Not offered in upstream mode: the Messaging API is forwarded to ${origin}, whose agents ` +
          'and bundles this service does not know. Type the agent id; import or paste a bundle.',
      },
      404,
    );
}
