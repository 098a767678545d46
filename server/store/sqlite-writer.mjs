// The SQLite store's writer thread: TypeScript is loaded through tsx, as the service itself is
// (`node --import tsx server/main.ts`), whichever way the service was started.
import { register } from 'tsx/esm/api';

register();
await import('./sqlite-writer.ts');
