/**
 * A stable fingerprint of a bundle: SHA-256 of its canonical JSON, as 64 lowercase hex digits.
 *
 * The service stores it with every interaction and the browser shows its first 8 digits, so both
 * must compute the same value: synchronous, pure JS, no Node or Web Crypto.
 *
 * Canonical JSON sorts object keys (by UTF-16 code units) and otherwise follows `JSON.stringify`,
 * except where that would let two different values share one text (and so one hash): non-finite
 * numbers (`1e309` parses as Infinity) are written as the bare tokens `Infinity`, `-Infinity` and
 * `NaN`, never as `null`; a value JSON cannot hold (a function, a symbol,
 * a bigint, `undefined` in a list) is refused with a TypeError. A property whose value is
 * `undefined` is left out, as it is when the bundle is sent.
 */

/** JSON text of `value` with every object's keys sorted; no whitespace. */
export function canonicalJson(value: unknown): string {
  const out: string[] = [];
  write(value, out, new Set());
  return out.join('');
}

function write(value: unknown, out: string[], stack: Set<object>): void {
  if (value === null) {
    out.push('null');
    return;
  }
  if (typeof value === 'number') {
    out.push(Number.isFinite(value) ? JSON.stringify(value) : String(value));
    return;
  }
  if (typeof value === 'string' || typeof value === 'boolean') {
    out.push(JSON.stringify(value));
    return;
  }
  if (typeof value !== 'object') throw new TypeError(`canonicalJson: a ${typeof value} is not JSON`);
  if (stack.has(value)) throw new TypeError('canonicalJson: the value contains a cycle');
  stack.add(value);
  if (Array.isArray(value)) {
    out.push('[');
    value.forEach((item, i) => {
      if (i > 0) out.push(',');
      write(item, out, stack);
    });
    out.push(']');
  } else {
    const record = value as Record<string, unknown>;
    const keys = Object.keys(record)
      .filter((k) => record[k] !== undefined)
      .sort();
    out.push('{');
    keys.forEach((k, i) => {
      if (i > 0) out.push(',');
      out.push(JSON.stringify(k), ':');
      write(record[k], out, stack);
    });
    out.push('}');
  }
  stack.delete(value);
}

/** SHA-256 of the canonical JSON of `bundle` (64 hex digits). */
export function bundleHash(bundle: unknown): string {
  return sha256Hex(canonicalJson(bundle));
}

/** The short form shown in the interface: the first 8 hex digits. */
export function shortBundleHash(bundle: unknown): string {
  return bundleHash(bundle).slice(0, 8);
}

const K = new Uint32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98,
  0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
  0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8,
  0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
  0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819,
  0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
  0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
  0xc67178f2,
]);

const rotr = (x: number, n: number) => (x >>> n) | (x << (32 - n));

/** SHA-256 of the UTF-8 encoding of `text`, as lowercase hex. */
export function sha256Hex(text: string): string {
  const data = new TextEncoder().encode(text);
  const bitLength = data.length * 8;
  // message + 0x80 + zero padding + 64-bit big-endian length, a multiple of 64 bytes
  const padded = new Uint8Array(Math.ceil((data.length + 9) / 64) * 64);
  padded.set(data);
  padded[data.length] = 0x80;
  const view = new DataView(padded.buffer);
  view.setUint32(padded.length - 8, Math.floor(bitLength / 0x100000000));
  view.setUint32(padded.length - 4, bitLength >>> 0);

  const h = new Uint32Array([
    0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
  ]);
  const w = new Uint32Array(64);
  for (let block = 0; block < padded.length; block += 64) {
    for (let t = 0; t < 16; t++) w[t] = view.getUint32(block + t * 4);
    for (let t = 16; t < 64; t++) {
      const a = w[t - 15]!;
      const b = w[t - 2]!;
      const s0 = rotr(a, 7) ^ rotr(a, 18) ^ (a >>> 3);
      const s1 = rotr(b, 17) ^ rotr(b, 19) ^ (b >>> 10);
      w[t] = (w[t - 16]! + s0 + w[t - 7]! + s1) >>> 0;
    }
    let [a, b, c, d, e, f, g, hh] = [h[0]!, h[1]!, h[2]!, h[3]!, h[4]!, h[5]!, h[6]!, h[7]!];
    for (let t = 0; t < 64; t++) {
      const S1 = rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25);
      const ch = (e & f) ^ (~e & g);
      const t1 = (hh + S1 + ch + K[t]! + w[t]!) >>> 0;
      const S0 = rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22);
      const maj = (a & b) ^ (a & c) ^ (b & c);
      const t2 = (S0 + maj) >>> 0;
      hh = g;
      g = f;
      f = e;
      e = (d + t1) >>> 0;
      d = c;
      c = b;
      b = a;
      a = (t1 + t2) >>> 0;
    }
    h[0] = h[0]! + a;
    h[1] = h[1]! + b;
    h[2] = h[2]! + c;
    h[3] = h[3]! + d;
    h[4] = h[4]! + e;
    h[5] = h[5]! + f;
    h[6] = h[6]! + g;
    h[7] = h[7]! + hh;
  }
  let hex = '';
  for (const word of h) hex += word.toString(16).padStart(8, '0');
  return hex;
}
