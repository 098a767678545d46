/**
 * The one-file HTML snapshot page, built beside the app: `snapshot-file.html` (entry
 * `src/snapshot-file.tsx`) built once more with no code splitting, then every script, style and
 * asset inlined into one HTML file, `threadline-snapshot.html` in the app's output folder. The
 * Share dialog fills its document in and downloads it; opened from disk it fetches nothing.
 *
 * The page carries its own Content-Security-Policy: no connection, no fetch of any kind, only its
 * one inline script (by hash) and inline styles. Fonts and images (if any) become data: URLs.
 */
import { createHash } from 'node:crypto';
import { copyFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { build, type Plugin, type PluginOption } from 'vite';

export const ONE_FILE_NAME = 'threadline-snapshot.html';
const ENTRY = 'snapshot-file.html';

/**
 * Code that can neither close its script element nor open a nested one: the "s" of every `<script`
 * and `</script` (in strings and regular expressions of the minified code) written as `\x73`,
 * which means the same letter there.
 */
const scriptSafe = (code: string) =>
  code.replace(
    /(<\/?)([sS])(cript)/gi,
    (_m, open: string, s: string, rest: string) => `${open}${s === 's' ? '\\x73' : '\\x53'}${rest}`,
  );
const styleSafe = (css: string) => css.replace(/<\/(style)/gi, '<\\/$1');

export function oneFileCsp(scriptHash: string): string {
  return [
    "default-src 'none'",
    `script-src '${scriptHash}'`,
    "style-src 'unsafe-inline'",
    'img-src data: blob:',
    'font-src data:',
    "connect-src 'none'",
    "worker-src 'none'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
}

/**
 * Inlines the build's one script and its styles into the HTML and drops them from the output.
 * Fails the build when anything else would be left to fetch (a second chunk, a preload).
 */
export function inlineIntoHtml(): Plugin {
  return {
    name: 'threadline:inline-into-html',
    apply: 'build',
    enforce: 'post',
    generateBundle(_options, bundle) {
      const html = Object.values(bundle).find((f) => f.type === 'asset' && f.fileName.endsWith('.html'));
      if (!html || html.type !== 'asset') throw new Error('one-file snapshot: no HTML in the build');
      let text = String(html.source);
      const chunks = Object.values(bundle).filter((f) => f.type === 'chunk');
      if (chunks.length !== 1)
        throw new Error(
          `one-file snapshot: ${chunks.length} chunks (${chunks.map((c) => c.fileName).join(', ')})`,
        );
      const chunk = chunks[0]!;
      if (chunk.type !== 'chunk') throw new Error('unreachable');
      // Vite leaves its preload marker in a build without chunks: no dependency to preload, as
      // Vite itself writes when there is none.
      const code = scriptSafe(chunk.code.replaceAll('__VITE_PRELOAD__', 'void 0'));
      const hash = `sha256-${createHash('sha256').update(code).digest('base64')}`;
      let scripts = 0;
      text = text.replace(/<script type="module"[^>]*\ssrc="[^"]+"[^>]*><\/script>/g, () => {
        scripts += 1;
        return '';
      });
      if (scripts !== 1) throw new Error(`one-file snapshot: ${scripts} module scripts in the HTML`);
      let styles = '';
      text = text.replace(/<link rel="stylesheet"[^>]*\shref="([^"]+)"[^>]*>/g, (_m, href: string) => {
        const name = href.replace(/^\.?\//, '');
        const css = bundle[name];
        if (!css || css.type !== 'asset') throw new Error(`one-file snapshot: no stylesheet ${href}`);
        styles += `<style>${styleSafe(String(css.source))}</style>`;
        delete bundle[name];
        return '';
      });
      if (/<link[^>]+rel="(?:modulepreload|preload|stylesheet|icon)"/.test(text))
        throw new Error('one-file snapshot: the HTML still links to another file');
      const csp = `<meta http-equiv="Content-Security-Policy" content="${oneFileCsp(hash)}" />`;
      // Replacer functions: the code holds `$` sequences a replacement string would expand.
      text = text
        .replace('<head>', () => `<head>\n    ${csp}`)
        .replace('</head>', () => `${styles}</head>`)
        // The script runs after the document element it reads (it is a module: deferred anyway).
        .replace('</body>', () => `<script type="module">${code}</script></body>`);
      html.source = text;
      delete bundle[chunk.fileName];
      // A Web Worker's file (the what-if engine, reached only from a live thread's trace) is
      // dropped: this page's policy forbids workers (`worker-src 'none'`), so none could start.
      for (const name of Object.keys(bundle)) if (/\.worker-[\w-]+\.js$/.test(name)) delete bundle[name];
      const left = Object.keys(bundle).filter((f) => f !== html.fileName);
      if (left.length) throw new Error(`one-file snapshot: files left beside the HTML: ${left.join(', ')}`);
    },
  };
}

/** Builds the one-file snapshot page into `outDir` (after the app's own build). */
export async function buildOneFileSnapshot(
  root: string,
  outDir: string,
  plugins: PluginOption[],
): Promise<void> {
  const work = await mkdtemp(join(tmpdir(), 'threadline-one-file-'));
  try {
    await build({
      configFile: false,
      root,
      logLevel: 'warn',
      plugins: [...plugins, inlineIntoHtml()],
      build: {
        outDir: work,
        emptyOutDir: true,
        // Every asset as a data: URL: the file fetches nothing.
        assetsInlineLimit: Number.MAX_SAFE_INTEGER,
        cssCodeSplit: false,
        modulePreload: false,
        chunkSizeWarningLimit: 5000,
        rolldownOptions: {
          input: resolve(root, ENTRY),
          // `lazy(() => import(…))` in a module the page does not use is dropped with it, so the
          // page does not inline views it never shows (the editor, the debug loop).
          treeshake: { manualPureFunctions: ['lazy'] },
          output: { codeSplitting: false },
          checks: { bundlerTimings: false },
        },
      },
    });
    await copyFile(join(work, ENTRY), join(outDir, ONE_FILE_NAME));
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

/** The app's build plugin: the one-file snapshot page is built once the app's files are written. */
export function oneFileSnapshot(plugins: () => PluginOption[]): Plugin {
  let root = process.cwd();
  let outDir = 'dist';
  return {
    name: 'threadline:one-file-snapshot',
    apply: 'build',
    configResolved(config) {
      root = config.root;
      outDir = resolve(config.root, config.build.outDir);
    },
    // Before the precompress plugin's copies are written (hooks after a sequential one wait for it).
    closeBundle: {
      sequential: true,
      async handler() {
        await buildOneFileSnapshot(root, outDir, plugins());
      },
    },
  };
}
