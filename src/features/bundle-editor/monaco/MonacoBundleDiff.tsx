/**
 * Monaco's diff editor (lazily loaded), read-only: one bundle on the left, another on the right.
 * Used for the draft against its baseline and, in the comparison, for the bundles of two branches.
 */
import { DiffEditor } from '@monaco-editor/react';
import './setup';

export interface MonacoBundleDiffProps {
  original: string;
  modified: string;
  /** Distinguishes the models of several diff views on one page. */
  id: string;
  label: string;
  dark: boolean;
}

export default function MonacoBundleDiff({ original, modified, id, label, dark }: MonacoBundleDiffProps) {
  return (
    <DiffEditor
      original={original}
      modified={modified}
      language="json"
      originalModelPath={`threadline-bundle/${id}-original.json`}
      modifiedModelPath={`threadline-bundle/${id}-modified.json`}
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
