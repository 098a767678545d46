#!/usr/bin/env node
// The `threadline` command, run from a checkout (`npx threadline test <suite>`): the compiled
// JavaScript (dist-node/, built at install) when it is current, else the TypeScript sources
// through tsx.
import { importEntry } from '../server/compiled.mjs';

// A reader that goes away (`| head`) ends the command quietly.
process.stdout.on('error', (error) => {
  if (error.code !== 'EPIPE') throw error;
  process.exit(process.exitCode ?? 1);
});
const { main } = await importEntry('cli', new URL('./main.ts', import.meta.url).href);
process.exitCode = await main(process.argv.slice(2));
