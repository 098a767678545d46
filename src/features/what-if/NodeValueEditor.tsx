/**
 * The what-if editor on a value's node in the graph (a parameter or an entity): the panel's typed
 * editor for the parameter the node stands for, writing into the turn's one what-if, so an edit
 * here and one in the panel combine. The turn is decided again at once; the outcome is shown
 * above the graph (WhatIfStrip).
 */
import { Spinner } from '../../components/ui/Spinner';
import { NotAvailable } from './NotAvailable';
import { PREDICTION_LABEL } from './PredictionNote';
import { useWhatIfBase } from './use-what-if';
import { ValueEditor } from './ValueEditor';
import { HELD_FIXED, parameterOfNode } from './what-if-model';
import { turnKey, useTurnEdits, useWhatIfStore } from './what-if-store';

export interface NodeValueEditorProps {
  taskId: string;
  interactionId: string;
  /** The node: its kind (`param`, `entity`) and label (the parameter code or entity key). */
  node: { kind: string; label: string };
}

export default function NodeValueEditor({ taskId, interactionId, node }: NodeValueEditorProps) {
  const base = useWhatIfBase(taskId, interactionId);
  const edits = useTurnEdits(taskId, interactionId);
  const setEdit = useWhatIfStore((s) => s.setEdit);
  const box =
    'w-72 space-y-1.5 rounded-md border border-indigo-300 bg-white p-2 text-sm shadow-lg dark:border-indigo-700 dark:bg-zinc-900';
  if (base.isPending)
    return (
      <div className={box}>
        <Spinner label="Loading the what-if" />
      </div>
    );
  if (base.error || base.unpredicted || !base.data)
    return (
      <div className={box}>
        <NotAvailable error={base.error} unpredicted={base.unpredicted} />
      </div>
    );
  const p = parameterOfNode(node, base.data.parameters);
  if (!p)
    return (
      <div className={box} role="note">
        <p className="text-xs text-zinc-600 dark:text-zinc-400">
          {node.label} cannot be edited in a what-if: the engine computes it again during the turn (edit what
          it comes from).
        </p>
      </div>
    );
  return (
    <div className={box} role="group" aria-label={`What if: ${p.code}`}>
      <p className="text-xs font-semibold">
        What if{' '}
        <span className="font-normal text-zinc-600 dark:text-zinc-400">· not a conversation turn</span>
      </p>
      {base.prediction ? (
        <p className="text-xs font-semibold text-amber-800 dark:text-amber-300">
          {PREDICTION_LABEL}, not what the deployed service would decide.
        </p>
      ) : null}
      <ValueEditor
        p={p}
        idPrefix="what-if-node"
        label={p.code}
        value={Object.hasOwn(edits, p.code) ? edits[p.code] : undefined}
        onChange={(v) => setEdit(turnKey(taskId, interactionId), p.code, v)}
      />
      <p className="text-xs text-zinc-600 dark:text-zinc-400">{HELD_FIXED}</p>
    </div>
  );
}
