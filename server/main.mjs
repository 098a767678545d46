// The reference service's entry (`npm run serve`, `npm start`): the compiled JavaScript
// (dist-node/, built at install and by `npm start`) when it is current, else server/main.ts
// through tsx. Arguments as for server/main.ts.
import { importEntry } from './compiled.mjs';

await importEntry('server', new URL('./main.ts', import.meta.url).href);
