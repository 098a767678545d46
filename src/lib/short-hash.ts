/** A short, stable label for a bundle hash (what the chat, the tree and the editor show). */
export function shortBundleHash(hash: string | null | undefined): string | null {
  if (!hash) return null;
  const bare = hash.includes(':') ? hash.slice(hash.indexOf(':') + 1) : hash;
  return bare.slice(0, 8);
}
