// The SQLite store's writer thread: the compiled writer (dist-node/) when it is current, else
// sqlite-writer.ts through tsx, whichever way the service was started.
import { importEntry } from '../compiled.mjs';

await importEntry('sqlite-writer', new URL('./sqlite-writer.ts', import.meta.url).href);
