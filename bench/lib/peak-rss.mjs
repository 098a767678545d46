// Preloaded into a measured process (`node --import <this file> …`): at exit, writes the process's
// peak resident set size in bytes to the file named by PEAK_RSS_FILE.
import { writeFileSync } from 'node:fs';

const file = process.env.PEAK_RSS_FILE;
if (file) process.on('exit', () => writeFileSync(file, String(process.resourceUsage().maxRSS * 1024)));
