#!/usr/bin/env node
// The `threadline` command, run from a checkout (`npx threadline test <suite>`); tsx runs the
// TypeScript sources, as for the reference service.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('./main.ts');
process.exitCode = await main(process.argv.slice(2));
