// The compiled JavaScript of the Node entry points (`scripts/compile.mjs` writes it into
// dist-node/ at install and `npm start`), and whether it is current: the launchers (the CLI, the
// service, its worker threads) run it when it is, and the TypeScript sources through tsx when it
// is missing or older than one of the sources it was built from.
import { readFileSync, statSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** The checkout's root folder. */
export const ROOT = fileURLToPath(new URL('..', import.meta.url));
/** Where the build goes; its manifest says when it was built and from which files. */
export const OUT_DIR = fileURLToPath(new URL('../dist-node/', import.meta.url));
export const MANIFEST = 'manifest.json';

/** Each entry point: its name in dist-node/ (`<name>.mjs`) and its source. */
export const ENTRIES = {
  cli: 'cli/main.ts',
  server: 'server/main.ts',
  'engine-worker': 'server/work/engine-worker.ts',
  'sqlite-writer': 'server/store/sqlite-writer.ts',
};

const mtime = (path) => {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return Infinity;
  }
};

/**
 * Why the build of `entry` cannot be used, or null when it is current. Pure but for the reads it
 * is given: `manifest` as parsed (or undefined when missing), `modified(path)` a file's
 * modification time (Infinity when missing).
 */
export function staleness(entry, manifest, modified = (path) => mtime(ROOT + path)) {
  const built = manifest?.entries?.[entry];
  if (!built || typeof manifest.builtAt !== 'number') return 'not built';
  if (modified(`dist-node/${built.file}`) === Infinity) return `dist-node/${built.file} is missing`;
  for (const input of built.inputs) if (modified(input) > manifest.builtAt) return `${input} is newer`;
  return null;
}

export function readManifest() {
  try {
    return JSON.parse(readFileSync(OUT_DIR + MANIFEST, 'utf8'));
  } catch {
    return undefined;
  }
}

/** The file URL of `entry`'s compiled module when it is current, else null. */
export function compiledEntry(entry) {
  const manifest = readManifest();
  return staleness(entry, manifest) === null
    ? pathToFileURL(OUT_DIR + manifest.entries[entry].file).href
    : null;
}

/**
 * Imports `entry`'s compiled module when current, else registers tsx and imports `source` (a URL,
 * relative to the caller, of the TypeScript file).
 */
export async function importEntry(entry, source) {
  const compiled = compiledEntry(entry);
  if (compiled) {
    process.setSourceMapsEnabled(true);
    return import(compiled);
  }
  const { register } = await import('tsx/esm/api');
  register();
  return import(source);
}
