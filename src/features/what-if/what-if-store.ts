/**
 * The one what-if of the trace shown: the values edited for one turn, whether they were typed on
 * the graph's nodes or in the *What would change this?* panel. Edits belong to their turn: editing
 * another turn starts a new what-if, and Reset returns to the real turn. Kept in memory only (a
 * what-if is not a conversation turn and is never stored).
 */
import { create } from 'zustand';
import { emptyRecord, withEntry } from '../../lib/own-records';
import type { EditValue } from './what-if-model';

/** Keyed by parameter code, which a bundle names as it likes: a record with no prototype. */
export type Edits = Readonly<Record<string, EditValue>>;

interface WhatIfState {
  /** The turn the edits belong to (`taskId` and interaction id). */
  turn: string;
  edits: Edits;
  /** Gives `code` a value in the what-if of `turn` (the edits of another turn are dropped). */
  setEdit: (turn: string, code: string, value: EditValue) => void;
  /** Replaces the what-if of `turn` with exactly these edits (a why-not suggestion). */
  setEdits: (turn: string, edits: Edits) => void;
  /** Back to the real turn. */
  reset: () => void;
}

const NONE: Edits = Object.freeze(emptyRecord<EditValue>());

export const turnKey = (taskId: string, interactionId: string) => `${taskId}\u0000${interactionId}`;

export const useWhatIfStore = create<WhatIfState>()((set) => ({
  turn: '',
  edits: NONE,
  setEdit: (turn, code, value) =>
    set((s) => ({ turn, edits: withEntry(s.turn === turn ? s.edits : NONE, code, value) })),
  setEdits: (turn, edits) => set({ turn, edits: Object.assign(emptyRecord<EditValue>(), edits) }),
  reset: () => set({ turn: '', edits: NONE }),
}));

/** The edits of this turn's what-if (the same object while they do not change; empty: none). */
export function useTurnEdits(taskId: string, interactionId: string): Edits {
  const key = turnKey(taskId, interactionId);
  return useWhatIfStore((s) => (s.turn === key ? s.edits : NONE));
}

/** True while this turn has a what-if (at least one value edited). */
export function useHasWhatIf(taskId: string | undefined, interactionId: string): boolean {
  const key = taskId ? turnKey(taskId, interactionId) : '';
  return useWhatIfStore((s) => key !== '' && s.turn === key && Object.keys(s.edits).length > 0);
}
