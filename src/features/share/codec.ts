/**
 * Snapshot links: the shared document as JSON, deflated (fflate) and base64url-encoded into the
 * URL fragment (`#snapshot=…`). Browsers never send the fragment to a server. Links longer than
 * SNAPSHOT_LINK_LIMIT are refused (chat apps, mail clients and some browsers cut long URLs):
 * the caller offers the file instead.
 */
import { deflateSync, Inflate, strFromU8, strToU8 } from 'fflate';
import { base64UrlToBytes, bytesToBase64Url } from '../../lib/base64url';
import { SNAPSHOT_PARAM } from './links';
import { parseShareDocument, ShareDocumentError, type ShareDocument } from './document';

/** The most fragment characters a snapshot link may carry: 32 KB. */
export const SNAPSHOT_LINK_LIMIT = 32 * 1024;
/** Refuse to inflate more than this (a hostile link cannot exhaust memory). */
const SNAPSHOT_INFLATED_LIMIT = 8 * 1024 * 1024;

export function encodeSnapshot(doc: ShareDocument): string {
  return bytesToBase64Url(deflateSync(strToU8(JSON.stringify(doc)), { level: 9 }));
}

function inflateBounded(bytes: Uint8Array, limit: number): Uint8Array {
  const chunks: Uint8Array[] = [];
  let total = 0;
  const inflate = new Inflate((chunk) => {
    total += chunk.length;
    if (total > limit) throw new ShareDocumentError('This snapshot is too large to open.');
    chunks.push(chunk);
  });
  inflate.push(bytes, true);
  const out = new Uint8Array(total);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}

export function decodeSnapshot(payload: string): ShareDocument {
  let json: unknown;
  try {
    const text = strFromU8(inflateBounded(base64UrlToBytes(payload), SNAPSHOT_INFLATED_LIMIT));
    json = JSON.parse(text);
  } catch (e) {
    if (e instanceof ShareDocumentError) throw e;
    throw new ShareDocumentError(
      'This snapshot link is damaged or incomplete (was it cut when it was copied?).',
    );
  }
  return parseShareDocument(json);
}

export type SnapshotLink =
  { ok: true; url: string; length: number } | { ok: false; length: number; limit: number };

/** The snapshot link on the page's own base URL (path kept, query dropped), or why there is none. */
export function buildSnapshotLink(
  pageUrl: string,
  doc: ShareDocument,
  limit = SNAPSHOT_LINK_LIMIT,
): SnapshotLink {
  const payload = encodeSnapshot(doc);
  const fragment = `${SNAPSHOT_PARAM}=${payload}`;
  if (fragment.length > limit) return { ok: false, length: fragment.length, limit };
  const url = new URL(pageUrl);
  url.search = '';
  url.hash = fragment;
  return { ok: true, url: url.toString(), length: fragment.length };
}
