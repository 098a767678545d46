/**
 * The typed editor of one parameter's value in a what-if (date, number, enum, boolean, text; empty
 * = not known), used on the graph's nodes and in the panel alike, and the decision badge both show.
 */
import { useState } from 'react';
import { Badge } from '../../components/ui/Badge';
import type { WhatIfParameter } from '../../contract/what-if';
import { showDecision } from '../../lib/trace-tones';
import { editorKind, editorText, editorValue, type EditValue } from './what-if-model';

export function DecisionBadge({ decision }: { decision: string }) {
  const shown = showDecision(decision);
  return <Badge tone={shown?.tone ?? 'neutral'}>{shown?.label ?? decision}</Badge>;
}

export function ValueEditor({
  p,
  value,
  onChange,
  idPrefix = 'what-if',
  label = p.code,
}: {
  p: WhatIfParameter;
  /** The edited value (undefined: the turn's own). */
  value: EditValue | undefined;
  onChange: (v: EditValue) => void;
  /** Ids must differ where the same parameter has two editors on screen. */
  idPrefix?: string;
  label?: string;
}) {
  const kind = editorKind(p);
  const shown = editorText(value ?? p.value);
  const [text, setText] = useState(shown);
  // Reset (or a value given elsewhere) replaces what the editor shows; typing keeps its text.
  const [from, setFrom] = useState(shown);
  if (from !== shown) {
    setFrom(shown);
    setText(shown);
  }
  const id = `${idPrefix}-${p.code}`;
  const change = (t: string) => {
    setText(t);
    const v = editorValue(kind, t, p.values);
    if (v !== undefined) onChange(v);
  };
  const common = {
    id,
    value: text,
    className:
      'w-full rounded border border-zinc-300 bg-white px-2 py-1 text-sm dark:border-zinc-700 dark:bg-zinc-900',
  };
  return (
    <div className="grid grid-cols-[minmax(8rem,1fr)_2fr] items-center gap-2">
      <label htmlFor={id} className="truncate font-mono text-xs" title={`${p.code} (${p.type})`}>
        {label}
      </label>
      {kind === 'enum' || kind === 'boolean' ? (
        <select {...common} onChange={(e) => change(e.target.value)}>
          <option value="">not known</option>
          {(kind === 'boolean' ? ['true', 'false'] : (p.values ?? []).map(String)).map((v) => (
            <option key={v} value={v}>
              {v}
            </option>
          ))}
        </select>
      ) : (
        <input
          {...common}
          type={kind === 'date' ? 'date' : 'text'}
          inputMode={kind === 'number' ? 'decimal' : undefined}
          placeholder="not known"
          onChange={(e) => change(e.target.value)}
        />
      )}
    </div>
  );
}
