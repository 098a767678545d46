/** base64url (RFC 4648 §5, no padding) for bytes: safe in a URL fragment without escaping. */

export function bytesToBase64Url(bytes: Uint8Array): string {
  let binary = '';
  const CHUNK = 0x8000;
  for (let i = 0; i < bytes.length; i += CHUNK) {
    binary += String.fromCharCode(...bytes.subarray(i, i + CHUNK));
  }
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

const ALPHABET = /^[A-Za-z0-9_-]*$/;

/** Throws on characters outside the base64url alphabet (a truncated or mangled link). */
export function base64UrlToBytes(text: string): Uint8Array {
  const clean = text.trim();
  if (!ALPHABET.test(clean)) throw new Error('not base64url');
  if (clean.length % 4 === 1) throw new Error('truncated base64url');
  const padded = clean.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (clean.length % 4)) % 4);
  const binary = atob(padded);
  const out = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i += 1) out[i] = binary.charCodeAt(i);
  return out;
}
