/**
 * Resizable panes (horizontal or vertical), small enough for the first load. Separators are
 * focusable ARIA separators: drag them, or use the arrow keys (Shift for bigger steps), Home and
 * End; a double click restores the default sizes. Sizes persist in localStorage under `storageKey`.
 */
import { Fragment, useRef, useState, type KeyboardEvent, type PointerEvent, type ReactNode } from 'react';
import { cx } from '../../lib/format';
import { resizePair, restoreSizes } from './split-sizes';

export interface Pane {
  id: string;
  /** Percent of the group. */
  defaultSize: number;
  minSize: number;
  className?: string;
  children: ReactNode;
}

export interface SplitPanesProps {
  orientation: 'horizontal' | 'vertical';
  panes: Pane[];
  /** Accessible names of the separators, one per boundary. */
  separatorLabels: string[];
  storageKey?: string;
  className?: string;
}

function load(key: string | undefined): unknown {
  if (!key) return undefined;
  try {
    return JSON.parse(localStorage.getItem(key) ?? 'null');
  } catch {
    return undefined;
  }
}

function save(key: string | undefined, sizes: number[]) {
  if (!key) return;
  try {
    localStorage.setItem(key, JSON.stringify(sizes));
  } catch {
    /* the layout lasts for this page only */
  }
}

export function SplitPanes({ orientation, panes, separatorLabels, storageKey, className }: SplitPanesProps) {
  const defaults = panes.map((p) => p.defaultSize);
  const mins = panes.map((p) => p.minSize);
  const [sizes, setSizes] = useState(() => restoreSizes(load(storageKey), defaults, mins));
  const containerRef = useRef<HTMLDivElement>(null);
  const drag = useRef<{ index: number; start: number; sizes: number[]; extent: number } | null>(null);
  const horizontal = orientation === 'horizontal';

  const commit = (next: number[]) => {
    setSizes(next);
    save(storageKey, next);
  };

  const onPointerDown = (index: number) => (e: PointerEvent<HTMLDivElement>) => {
    const rect = containerRef.current?.getBoundingClientRect();
    if (!rect) return;
    e.currentTarget.setPointerCapture(e.pointerId);
    drag.current = {
      index,
      start: horizontal ? e.clientX : e.clientY,
      sizes,
      extent: horizontal ? rect.width : rect.height,
    };
  };
  const onPointerMove = (e: PointerEvent<HTMLDivElement>) => {
    const d = drag.current;
    if (!d || d.extent <= 0) return;
    const delta = (((horizontal ? e.clientX : e.clientY) - d.start) / d.extent) * 100;
    setSizes(resizePair(d.sizes, mins, d.index, delta));
  };
  const onPointerUp = (e: PointerEvent<HTMLDivElement>) => {
    if (!drag.current) return;
    drag.current = null;
    e.currentTarget.releasePointerCapture(e.pointerId);
    save(storageKey, sizes);
  };
  const onKeyDown = (index: number) => (e: KeyboardEvent<HTMLDivElement>) => {
    const step = e.shiftKey ? 10 : 2;
    const back = horizontal ? 'ArrowLeft' : 'ArrowUp';
    const forward = horizontal ? 'ArrowRight' : 'ArrowDown';
    const deltas: Record<string, number> = { [back]: -step, [forward]: step, Home: -100, End: 100 };
    const delta = deltas[e.key];
    if (delta === undefined) return;
    e.preventDefault();
    commit(resizePair(sizes, mins, index, delta));
  };

  return (
    <div
      ref={containerRef}
      className={cx('flex min-h-0 min-w-0', horizontal ? 'flex-row' : 'flex-col', className)}
    >
      {panes.map((pane, i) => (
        <Fragment key={pane.id}>
          <div
            id={`pane-${pane.id}`}
            className={cx('min-h-0 min-w-0 overflow-hidden', pane.className)}
            style={{ flexBasis: `${sizes[i] ?? pane.defaultSize}%`, flexGrow: 0, flexShrink: 1 }}
          >
            {pane.children}
          </div>
          {i < panes.length - 1 ? (
            <div
              role="separator"
              tabIndex={0}
              aria-label={separatorLabels[i] ?? 'Resize'}
              aria-orientation={horizontal ? 'vertical' : 'horizontal'}
              aria-controls={`pane-${pane.id}`}
              aria-valuenow={Math.round(sizes[i] ?? 0)}
              aria-valuemin={Math.round(mins[i] ?? 0)}
              aria-valuemax={Math.round((sizes[i] ?? 0) + (sizes[i + 1] ?? 0) - (mins[i + 1] ?? 0))}
              onPointerDown={onPointerDown(i)}
              onPointerMove={onPointerMove}
              onPointerUp={onPointerUp}
              onPointerCancel={onPointerUp}
              onKeyDown={onKeyDown(i)}
              onDoubleClick={() => commit([...defaults])}
              className={cx(
                'shrink-0 touch-none bg-zinc-200 transition-colors select-none hover:bg-indigo-400 focus-visible:bg-indigo-500 focus-visible:outline-none dark:bg-zinc-800',
                horizontal ? 'w-1 cursor-col-resize' : 'h-1 cursor-row-resize',
              )}
            />
          ) : null}
        </Fragment>
      ))}
    </div>
  );
}
