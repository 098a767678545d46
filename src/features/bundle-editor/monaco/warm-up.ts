/**
 * Monaco prepared before the first editor opens: loading this module evaluates Monaco and the
 * bundle's JSON Schema (setup.ts); `warmUpJsonLanguage` starts the JSON language worker and has it
 * compile the schema against a throwaway model, so the first editor gets completion and syntax
 * checks without waiting for either.
 */
import { getWorker } from 'monaco-editor/languages/features/json/register';
import { monaco } from '../../../components/monaco/setup';

/** A path the bundle's schema applies to (setup.ts: `threadline-bundle/*`), never an editor's. */
const WARM_UP_PATH = 'threadline-bundle/warm-up.json';

export async function warmUpJsonLanguage(): Promise<void> {
  const uri = monaco.Uri.file(WARM_UP_PATH);
  const model = monaco.editor.getModel(uri) ?? monaco.editor.createModel('{}', 'json', uri);
  try {
    const worker = await (await getWorker())(uri);
    await worker.getMatchingSchemas(uri.toString());
  } finally {
    model.dispose();
  }
}
