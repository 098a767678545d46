/** The one custom node type: memoised, so nodes whose data did not change skip re-rendering. */
import { Handle, Position, type Node, type NodeProps } from '@xyflow/react';
import { memo } from 'react';
import { cx } from '../../lib/format';
import type { Tone } from '../../lib/trace-tones';
import type { GraphNodeModel } from './trace-to-graph';

export type Highlight = 'added' | 'removed' | 'changed';
export type TraceNodeData = { model: GraphNodeModel; highlight?: Highlight | undefined };
export type TraceFlowNode = Node<TraceNodeData, 'trace'>;

const TONE_BOX: Record<Tone, string> = {
  neutral: 'border-zinc-400 bg-white dark:border-zinc-500 dark:bg-zinc-900',
  ok: 'border-emerald-500 bg-emerald-50 dark:border-emerald-600 dark:bg-emerald-950',
  blocked: 'border-red-500 bg-red-50 dark:border-red-500 dark:bg-red-950',
  confirm: 'border-amber-500 bg-amber-50 dark:border-amber-500 dark:bg-amber-950',
  info: 'border-sky-500 bg-sky-50 dark:border-sky-500 dark:bg-sky-950',
  muted: 'border-zinc-300 bg-zinc-50 dark:border-zinc-700 dark:bg-zinc-900',
  error: 'border-fuchsia-600 bg-fuchsia-50 dark:border-fuchsia-500 dark:bg-fuchsia-950',
};

const HIGHLIGHT_RING: Record<Highlight, string> = {
  added: 'ring-4 ring-emerald-400/80',
  removed: 'ring-4 ring-red-400/80',
  changed: 'ring-4 ring-amber-400/80',
};

const KIND_LABEL: Record<GraphNodeModel['kind'], string> = {
  intent: 'Intent',
  param: 'Parameter',
  entity: 'Entity',
  'rule-group': 'Rule group',
  rule: 'Rule',
  tool: 'Tool',
  decision: 'Decision',
};

export const TONE_COLOR: Record<Tone, string> = {
  neutral: '#a1a1aa',
  ok: '#10b981',
  blocked: '#ef4444',
  confirm: '#f59e0b',
  info: '#0ea5e9',
  muted: '#d4d4d8',
  error: '#c026d3',
};

export const TraceNode = memo(function TraceNode({ data, selected }: NodeProps<TraceFlowNode>) {
  const m = data.model;
  return (
    <div
      data-kind={m.kind}
      data-tone={m.tone}
      className={cx(
        'flex h-full w-full flex-col justify-center rounded-lg border-2 px-2.5 py-1 text-left shadow-sm',
        TONE_BOX[m.tone],
        m.dimmed && 'border-dashed opacity-55',
        m.kind === 'rule-group' && 'rounded-xl',
        selected && 'outline-3 outline-offset-2 outline-indigo-500',
        data.highlight && HIGHLIGHT_RING[data.highlight],
      )}
    >
      <Handle
        type="target"
        position={Position.Top}
        className="!size-1.5 !min-w-0 !border-0 !bg-zinc-400"
        isConnectable={false}
      />
      <div className="flex items-center gap-1 text-[10px] font-medium tracking-wide text-zinc-500 uppercase dark:text-zinc-400">
        <span>{KIND_LABEL[m.kind]}</span>
        {m.badge ? (
          <span className="ml-auto truncate rounded bg-black/5 px-1 normal-case dark:bg-white/10">
            {m.badge}
          </span>
        ) : null}
        {data.highlight ? (
          <span className="rounded bg-black/10 px-1 normal-case dark:bg-white/15">{data.highlight}</span>
        ) : null}
      </div>
      <div
        title={m.label}
        className={cx(
          'truncate text-xs font-semibold text-zinc-900 dark:text-zinc-50',
          data.highlight === 'removed' && 'line-through',
        )}
      >
        {m.label}
      </div>
      {m.sublabel ? (
        <div title={m.sublabel} className="truncate text-[11px] text-zinc-600 dark:text-zinc-300">
          {m.sublabel}
        </div>
      ) : null}
      <Handle
        type="source"
        position={Position.Bottom}
        className="!size-1.5 !min-w-0 !border-0 !bg-zinc-400"
        isConnectable={false}
      />
    </div>
  );
});

export function nodeAriaLabel(m: GraphNodeModel): string {
  return `${KIND_LABEL[m.kind]} ${m.label}${m.badge ? `, ${m.badge}` : ''}${m.dimmed ? ', dimmed' : ''}`;
}
