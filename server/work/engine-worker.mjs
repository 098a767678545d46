// The engine pool's worker thread: the compiled worker (dist-node/) when it is current, else
// engine-worker.ts through tsx, whichever way the service was started.
import { importEntry } from '../compiled.mjs';

await importEntry('engine-worker', new URL('./engine-worker.ts', import.meta.url).href);
