/**
 * The Monaco JSON editor for a bundle (lazily loaded: this module pulls Monaco in). Controlled by
 * the draft text; problems arrive as props and are set as model markers; the parent gets a handle
 * to jump to a problem and to format the document.
 */
import Editor, { type OnMount } from '@monaco-editor/react';
import { useEffect, useRef, useState, type RefObject } from 'react';
import type { Problem } from '../markers';
import { DRAFT_MODEL_PATH, LIGHT_THEME, MARKER_OWNER, monaco } from '../../../components/monaco/setup';
import { targetNames, useTarget } from '../../../domain/commands/targets';

export interface EditorHandle {
  reveal: (p: Pick<Problem, 'startLineNumber' | 'startColumn' | 'endLineNumber' | 'endColumn'>) => void;
  format: () => void;
  focus: () => void;
}

export interface MonacoBundleEditorProps {
  value: string;
  onChange: (text: string) => void;
  problems: readonly Problem[];
  handleRef: RefObject<EditorHandle | null>;
  dark: boolean;
  onReady?: () => void;
  /** Whose draft this is: the scroll position and cursor are kept per key when the editor closes. */
  viewKey?: string;
}

type Model = ReturnType<typeof monaco.editor.createModel>;
type CodeEditor = Parameters<OnMount>[0];
type ViewState = NonNullable<ReturnType<CodeEditor['saveViewState']>>;

/** The view (scroll position, cursor, folds) each draft was left at, for this page's life; one per agent. */
const viewStates = new Map<string, ViewState>();

export default function MonacoBundleEditor({
  value,
  onChange,
  problems,
  handleRef,
  dark,
  onReady,
  viewKey = '',
}: MonacoBundleEditorProps) {
  const [model, setModel] = useState<Model | null>(null);
  const editorRef = useRef<CodeEditor | null>(null);
  // "Focus the bundle editor" (the palette) reaches the editor once Monaco has mounted.
  useTarget(targetNames.focusBundleEditor, model ? () => editorRef.current?.focus() : undefined);
  // Leaving the tab closes the editor: where the reader was is kept, and found again on return.
  useEffect(
    () => () => {
      const state = editorRef.current?.saveViewState();
      if (state) viewStates.set(viewKey, state);
    },
    [viewKey],
  );

  const onMount: OnMount = (editor) => {
    editorRef.current = editor;
    const saved = viewStates.get(viewKey);
    if (saved) editor.restoreViewState(saved);
    setModel(editor.getModel());
    handleRef.current = {
      reveal: (p) => {
        const range = {
          startLineNumber: p.startLineNumber,
          startColumn: p.startColumn,
          endLineNumber: p.endLineNumber,
          endColumn: p.endColumn,
        };
        editor.setSelection(range);
        editor.revealRangeInCenterIfOutsideViewport(range);
        editor.focus();
      },
      format: () => void editor.getAction('editor.action.formatDocument')?.run(),
      focus: () => editor.focus(),
    };
    onReady?.();
  };

  // Markers live on the Monaco model (an outside system): keep them in step with the problems.
  useEffect(() => {
    if (!model || model.isDisposed()) return;
    monaco.editor.setModelMarkers(
      model,
      MARKER_OWNER,
      problems.map((p) => ({
        severity:
          p.severity === 'error'
            ? monaco.MarkerSeverity.Error
            : p.severity === 'warning'
              ? monaco.MarkerSeverity.Warning
              : monaco.MarkerSeverity.Info,
        message: p.message,
        code: p.code,
        source: p.source === 'service' ? 'service (422)' : p.source === 'lint' ? 'lint' : 'bundle',
        startLineNumber: p.startLineNumber,
        startColumn: p.startColumn,
        endLineNumber: p.endLineNumber,
        // An empty range would be invisible: mark at least one character.
        endColumn:
          p.endLineNumber === p.startLineNumber && p.endColumn <= p.startColumn
            ? p.startColumn + 1
            : p.endColumn,
      })),
    );
  }, [model, problems]);

  return (
    <Editor
      path={DRAFT_MODEL_PATH}
      language="json"
      value={value}
      onChange={(v) => onChange(v ?? '')}
      onMount={onMount}
      theme={dark ? 'vs-dark' : LIGHT_THEME}
      loading={<p className="p-3 text-sm text-zinc-500">Loading the editor…</p>}
      options={{
        ariaLabel: 'Bundle editor',
        // Beside React Flow, Monaco's EditContext input loses typed spaces.
        editContext: false,
        automaticLayout: true,
        minimap: { enabled: false },
        fontSize: 13,
        tabSize: 2,
        scrollBeyondLastLine: false,
        formatOnPaste: true,
        fixedOverflowWidgets: true,
        quickSuggestions: { strings: true, other: true, comments: false },
      }}
    />
  );
}
