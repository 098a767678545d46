/**
 * Monaco, fully offline: the local `monaco-editor` package (never a CDN), only the editor core,
 * its standard features and the JSON language, with workers built by Vite. Imported only by the
 * lazily loaded editor components, so none of it is in the first-load chunk.
 *
 * The bundle's JSON Schema drives completion and hover documentation; schema *validation* is
 * left to the shared validator (its markers point at the exact spot and match the service's 422),
 * so Monaco's JSON worker reports only syntax errors.
 */
import { loader } from '@monaco-editor/react';
import * as monaco from 'monaco-editor/editor';
import 'monaco-editor/features/register.all';
import { jsonDefaults } from 'monaco-editor/languages/features/json/register';
import EditorWorker from 'monaco-editor/editor/editor.worker?worker';
import JsonWorker from 'monaco-editor/language/json/json.worker?worker';
import { bundleJsonSchema } from '../../lib/bundle/json-schema';

const BUNDLE_SCHEMA_URI = 'threadline://schemas/bundle.json';
/** The editor's model path (the diff view's are `threadline-bundle/<id>-original.json` and -modified); the schema applies to every `threadline-bundle/` model. */
export const DRAFT_MODEL_PATH = 'threadline-bundle/draft.json';
/** Owner of the markers set from the validator and the service's 422. */
export const MARKER_OWNER = 'threadline-bundle';

/** A marker as the browser tests read it (see `threadlineTestHooks` below). */
export interface TestMarker {
  /** The model's path, e.g. `/threadline-bundle/draft.json`. */
  model: string;
  owner: string;
  severity: 'error' | 'warning' | 'info' | 'hint';
  message: string;
  startLineNumber: number;
  startColumn: number;
}

declare global {
  interface Window {
    MonacoEnvironment?: { getWorker: (workerId: string, label: string) => Worker };
    /** Present only in a build made with VITE_TEST_HOOKS=1 (the browser tests' build). */
    threadlineTestHooks?: { editorMarkers: () => TestMarker[] };
  }
}

self.MonacoEnvironment = {
  getWorker: (_workerId: string, label: string) => (label === 'json' ? new JsonWorker() : new EditorWorker()),
};

jsonDefaults.setDiagnosticsOptions({
  validate: true,
  allowComments: false,
  trailingCommas: 'error',
  enableSchemaRequest: false,
  schemaValidation: 'ignore',
  schemas: [
    { uri: BUNDLE_SCHEMA_URI, fileMatch: ['threadline-bundle/*'], schema: bundleJsonSchema() as object },
  ],
});

loader.config({ monaco: monaco });

/**
 * Monaco's light theme, but for the tokens it draws pure red (#ff0000): 2.8:1 on the diff's
 * pink of a removed line, under the 4.5:1 text needs. Drawn in a dark red instead (5.5:1 there).
 */
export const LIGHT_THEME = 'threadline-light';
monaco.editor.defineTheme(LIGHT_THEME, {
  base: 'vs',
  inherit: true,
  rules: ['attribute.name', 'metatag.content.html', 'string.sql'].map((token) => ({
    token,
    foreground: 'A31515',
  })),
  colors: {},
});

// Browser tests read the markers through Monaco's model API, not its rendered DOM (whose classes
// are internal). Only the browser suite's build sets VITE_TEST_HOOKS=1 (scripts/e2e-server.mjs);
// in every other build this condition is false when bundling and the code is left out. Read-only.
if (import.meta.env.VITE_TEST_HOOKS === '1') {
  const severities = new Map<number, TestMarker['severity']>([
    [monaco.MarkerSeverity.Error, 'error'],
    [monaco.MarkerSeverity.Warning, 'warning'],
    [monaco.MarkerSeverity.Info, 'info'],
    [monaco.MarkerSeverity.Hint, 'hint'],
  ]);
  window.threadlineTestHooks = {
    editorMarkers: () =>
      monaco.editor.getModelMarkers({}).map((m) => ({
        model: m.resource.path,
        owner: m.owner,
        severity: severities.get(m.severity) ?? 'hint',
        message: m.message,
        startLineNumber: m.startLineNumber,
        startColumn: m.startColumn,
      })),
  };
}

export { monaco };
