import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import { oneFileSnapshot } from './scripts/one-file-snapshot';

const api = process.env.THREADLINE_API ?? 'http://127.0.0.1:8787';

export default defineConfig({
  // oneFileSnapshot: the snapshot page as one self-contained HTML file (scripts/one-file-snapshot.ts).
  // precompress: .gz and .br copies of every asset, sent by the reference service (server/http/spa.ts).
  plugins: [react(), tailwindcss(), oneFileSnapshot(() => [react(), tailwindcss()]), precompress()],
  build: {
    outDir: process.env.THREADLINE_DIST ?? 'dist',
    emptyOutDir: true,
    // Monaco's lazy chunk is large by nature; the first-load budget is checked by scripts/first-load-budget.ts.
    chunkSizeWarningLimit: 5000,
    rolldownOptions: {
      checks: { bundlerTimings: false },
      // The shared widgets in one chunk rather than one tiny chunk each (every chunk costs a
      // request and its own import lines; the first screens use most of them anyway).
      output: { codeSplitting: { groups: [{ name: 'ui', test: /src[\\/]components[\\/]ui[\\/]/ }] } },
    },
  },
  server: {
    port: 5173,
    strictPort: true,
    proxy: { '/v1': api, '/reference': api, '/openapi.json': api },
  },
});

/**
 * A Vite build plugin: writes a gzip (`.gz`, level 9) and a brotli (`.br`) copy beside every
 * compressible file of the build (scripts, styles, HTML, SVG, JSON, fonts), for the reference
 * service to send to clients that accept them (server/http/static-files.ts). Files under 1 KB, and
 * copies that would not be smaller, are skipped. Compression runs on libuv's thread pool.
 *
 * Brotli quality 11 for files up to 512 KB (every chunk of the app's own code); quality 9 above
 * (Monaco's 3.9 MB chunk: 11 takes seven times as long there for 9% fewer bytes, on every build).
 */
const COMPRESSIBLE = /\.(?:js|mjs|css|html|svg|json|map|txt|xml|ttf|otf|wasm)$/;
const MIN_BYTES = 1024;
const BEST_BROTLI_UP_TO = 512 * 1024;
const gzipAsync = promisify(gzip);
const brotliAsync = promisify(brotliCompress);

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
}

/** Writes `<file>.gz` and `<file>.br` beside each compressible file of `dir`. */
async function precompressFolder(dir: string): Promise<void> {
  const files = (await filesUnder(dir)).filter((f) => COMPRESSIBLE.test(f));
  await Promise.all(
    files.map(async (file) => {
      const data = await readFile(file);
      if (data.length < MIN_BYTES) return;
      const [gz, br] = await Promise.all([
        gzipAsync(data, { level: 9 }),
        brotliAsync(data, {
          params: {
            [constants.BROTLI_PARAM_QUALITY]: data.length <= BEST_BROTLI_UP_TO ? 11 : 9,
            [constants.BROTLI_PARAM_SIZE_HINT]: data.length,
          },
        }),
      ]);
      if (gz.length < data.length) await writeFile(`${file}.gz`, gz);
      if (br.length < data.length) await writeFile(`${file}.br`, br);
    }),
  );
}

function precompress(): Plugin {
  let outDir = 'dist';
  return {
    name: 'threadline:precompress',
    apply: 'build',
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir);
    },
    async closeBundle() {
      await precompressFolder(outDir);
    },
  };
}
