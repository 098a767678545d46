/** Reading a request body with a size limit, checking the declared length and the streamed bytes. */
import { payloadTooLarge } from './errors';

/**
 * How much of an oversized body is read and thrown away before the 413 is sent, as a multiple of
 * the limit. A client still uploading when the server answers and closes gets a reset instead of
 * the answer; letting a moderately oversized upload finish (memory stays flat: nothing is kept)
 * means it reads the 413. Beyond this, the connection is closed at once.
 */
const DRAIN_FACTOR = 4;

async function discard(reader: ReadableStreamDefaultReader<Uint8Array>, budget: number): Promise<void> {
  let seen = 0;
  while (seen <= budget) {
    const { done, value } = await reader.read();
    if (done) return;
    seen += value.byteLength;
  }
  await reader.cancel().catch(() => undefined);
}

export async function readBodyWithLimit(request: Request, limit: number): Promise<Uint8Array<ArrayBuffer>> {
  const declaredHeader = request.headers.get('content-length');
  const declared = Number(declaredHeader);
  if (Number.isFinite(declared) && declared > limit) {
    if (declared <= DRAIN_FACTOR * limit && request.body) await discard(request.body.getReader(), declared);
    throw payloadTooLarge(limit);
  }
  if (declaredHeader !== null && /^\d+$/.test(declaredHeader)) {
    // A declared length within the limit: HTTP framing delivers exactly that many bytes, so the
    // body is read in one piece (@hono/node-server then reads Node's request directly, without
    // building a web Request and stream around it). The size is checked again for requests
    // built in process, which no socket frames.
    const body = new Uint8Array(await request.arrayBuffer());
    if (body.byteLength > limit) throw payloadTooLarge(limit);
    return body;
  }
  if (!request.body) return new Uint8Array(0);
  // A chunked body: counted as it streams in, and cut off at the limit.
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await discard(reader, (DRAIN_FACTOR - 1) * limit);
      throw payloadTooLarge(limit);
    }
    chunks.push(value);
  }
  const body = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    body.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return body;
}
