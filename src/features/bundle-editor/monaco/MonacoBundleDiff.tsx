/**
 * Monaco's diff editor (lazily loaded), read-only: one bundle on the left, another on the right.
 * Used for the draft against its baseline and, in the comparison, for the bundles of two branches.
 */
import { DiffEditor, type DiffOnMount } from '@monaco-editor/react';
import { useEffect, useRef } from 'react';
import './setup';

export interface MonacoBundleDiffProps {
  original: string;
  modified: string;
  /** Distinguishes the models of several diff views on one page. */
  id: string;
  label: string;
  dark: boolean;
}

type DiffEditorInstance = Parameters<DiffOnMount>[0];

export default function MonacoBundleDiff({ original, modified, id, label, dark }: MonacoBundleDiffProps) {
  // @monaco-editor/react disposes the text models before the diff editor that still shows them,
  // which Monaco reports as "TextModel got disposed before DiffEditorWidget model got reset". The
  // wrapper keeps the models; this component (whose cleanup runs before the wrapper's) detaches
  // them from the editor first, then disposes them.
  const editorRef = useRef<DiffEditorInstance | null>(null);
  useEffect(
    () => () => {
      const editor = editorRef.current;
      editorRef.current = null;
      const models = editor?.getModel();
      editor?.setModel(null);
      models?.original.dispose();
      models?.modified.dispose();
    },
    [],
  );
  return (
    <DiffEditor
      original={original}
      modified={modified}
      language="json"
      originalModelPath={`threadline-bundle/${id}-original.json`}
      modifiedModelPath={`threadline-bundle/${id}-modified.json`}
      keepCurrentOriginalModel
      keepCurrentModifiedModel
      onMount={(editor) => {
        editorRef.current = editor;
        // Monaco 0.57 leaves the left side's textarea unnamed despite `originalAriaLabel`.
        editor.getOriginalEditor().updateOptions({ ariaLabel: `${label}: before` });
        editor.getModifiedEditor().updateOptions({ ariaLabel: `${label}: after` });
      }}
      theme={dark ? 'vs-dark' : 'light'}
      loading={<p className="p-3 text-sm text-zinc-500">Loading the diff…</p>}
      options={{
        ariaLabel: label,
        originalAriaLabel: `${label}: before`,
        modifiedAriaLabel: `${label}: after`,
        readOnly: true,
        originalEditable: false,
        editContext: false,
        automaticLayout: true,
        renderSideBySide: true,
        minimap: { enabled: false },
        fontSize: 12,
        scrollBeyondLastLine: false,
      }}
    />
  );
}
