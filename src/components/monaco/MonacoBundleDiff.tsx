/**
 * Monaco's diff editor (lazily loaded), read-only: one bundle on the left, another on the right.
 * Used for the draft against its baseline and, in the comparison, for the bundles of two branches.
 */
import { DiffEditor, type DiffOnMount } from '@monaco-editor/react';
import { useEffect, useLayoutEffect, useMemo, useRef } from 'react';
import { LIGHT_THEME } from './setup';

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
  // Monaco recomputes each side's options on every `updateOptions`, and takes a side's label only
  // from that call's own options: any later update (the wrapper passes `options` again whenever
  // they change) would leave both textareas unnamed. So each side keeps its label itself.
  const labelRef = useRef(label);
  useLayoutEffect(() => {
    labelRef.current = label; // before the wrapper's (passive) effect passes the new options
  }, [label]);
  const options = useMemo(
    () => ({
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
      // A bundle is long and a change is a few lines: fold what did not change around it.
      hideUnchangedRegions: { enabled: true, contextLineCount: 3, minimumLineCount: 5, revealLineCount: 20 },
    }),
    [label],
  );
  return (
    <DiffEditor
      // A theme switch makes a new diff view: Monaco keeps the old theme's token classes on lines
      // it does not draw again (a removed line's JSON keys in pure red on pink after dark → light).
      key={dark ? 'dark' : 'light'}
      original={original}
      modified={modified}
      language="json"
      originalModelPath={`threadline-bundle/${id}-original.json`}
      modifiedModelPath={`threadline-bundle/${id}-modified.json`}
      keepCurrentOriginalModel
      keepCurrentModifiedModel
      onMount={(editor, monaco) => {
        editorRef.current = editor;
        // The diff opens on its first change, once the diff is computed (then the reader scrolls).
        let revealed = false;
        editor.onDidUpdateDiff(() => {
          if (revealed) return;
          const first = editor.getLineChanges()?.[0];
          if (!first) return;
          revealed = true;
          const line = Math.max(first.modifiedStartLineNumber, 1);
          editor.getModifiedEditor().revealLineNearTop(line);
          editor.getModifiedEditor().setPosition({ lineNumber: line, column: 1 });
        });
        const sides = [
          [editor.getOriginalEditor(), 'before'],
          [editor.getModifiedEditor(), 'after'],
        ] as const;
        for (const [side, which] of sides) {
          const keepLabel = () => {
            const wanted = `${labelRef.current}: ${which}`;
            if (side.getOption(monaco.editor.EditorOption.ariaLabel) !== wanted)
              side.updateOptions({ ariaLabel: wanted });
          };
          keepLabel();
          side.onDidChangeConfiguration((change) => {
            if (change.hasChanged(monaco.editor.EditorOption.ariaLabel)) keepLabel();
          });
        }
      }}
      theme={dark ? 'vs-dark' : LIGHT_THEME}
      loading={<p className="p-3 text-sm text-zinc-500">Loading the diff…</p>}
      options={options}
    />
  );
}
