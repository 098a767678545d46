// `npm run compile` (also run at install, and by `npm start` when the sources changed): bundles the
// CLI, the service and the service's worker threads into JavaScript in dist-node/, so that they
// start without transpiling TypeScript. The packages are bundled too (a module reached only
// through `import()` is then evaluated only when a command needs it: `--help` loads no zod), but
// for the database drivers, which stay in node_modules (native code, optional parts). Each of the
// project's modules keeps its source file as `import.meta.url`, so that paths relative to a
// module (the example agents' folder, a worker's launcher) resolve as they do from the sources. A manifest lists what each entry was built from (`server/compiled.mjs`
// reads it to tell whether the build is current).
import { build } from 'esbuild';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ENTRIES, MANIFEST, OUT_DIR, ROOT } from '../server/compiled.mjs';

/** What every entry also depends on: the build's own configuration and the installed packages. */
const CONFIGURATION = [
  'scripts/compile.mjs',
  'server/compiled.mjs',
  'package.json',
  'package-lock.json',
  'tsconfig.base.json',
];
/** Packages left in node_modules: native code, or optional parts found at run time. */
const EXTERNAL = ['better-sqlite3', 'pg', 'pg-native'];

const sourceUrls = {
  name: 'source-import-meta-url',
  setup(b) {
    b.onLoad({ filter: /\.ts$/ }, (args) => {
      const text = readFileSync(args.path, 'utf8');
      if (!text.includes('import.meta.url')) return undefined;
      const source = relative(OUT_DIR, args.path).split(sep).join('/');
      return {
        contents: text.replaceAll(
          'import.meta.url',
          `new URL(${JSON.stringify(source)}, import.meta.url).href`,
        ),
        loader: 'ts',
      };
    });
  },
};

/** Builds every entry; resolves to the manifest written. */
export async function compile() {
  const builtAt = Date.now();
  const result = await build({
    absWorkingDir: ROOT,
    entryPoints: Object.fromEntries(Object.entries(ENTRIES)),
    outdir: OUT_DIR,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: `node${process.versions.node.split('.')[0]}`,
    external: EXTERNAL,
    // Bundled CommonJS packages may require Node's own modules.
    banner: {
      js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
    },
    sourcemap: 'linked',
    sourcesContent: false,
    metafile: true,
    write: false,
    logLevel: 'warning',
    plugins: [sourceUrls],
  });
  mkdirSync(OUT_DIR, { recursive: true });
  // Each file replaced at once (a running process never reads half a file); the manifest last.
  for (const file of result.outputFiles) {
    writeFileSync(`${file.path}.${process.pid}`, file.contents);
    renameSync(`${file.path}.${process.pid}`, file.path);
  }
  const entries = {};
  for (const [output, meta] of Object.entries(result.metafile.outputs)) {
    const name = Object.keys(ENTRIES).find((e) => ENTRIES[e] === meta.entryPoint);
    if (name === undefined) continue;
    const inputs = Object.keys(meta.inputs).filter((i) => !i.startsWith('node_modules/'));
    entries[name] = { file: relative(OUT_DIR, `${ROOT}${output}`), inputs: [...inputs, ...CONFIGURATION] };
  }
  const manifest = { builtAt, entries };
  writeFileSync(`${OUT_DIR}${MANIFEST}.${process.pid}`, `${JSON.stringify(manifest, null, 1)}\n`);
  renameSync(`${OUT_DIR}${MANIFEST}.${process.pid}`, `${OUT_DIR}${MANIFEST}`);
  return manifest;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const t0 = performance.now();
  const manifest = await compile();
  const files = new Set(Object.values(manifest.entries).flatMap((e) => e.inputs)).size;
  console.log(
    `compiled ${Object.keys(manifest.entries).join(', ')} into dist-node/ from ${files} files in ${Math.round(performance.now() - t0)} ms`,
  );
}
