/** The chat's transcript turns as the comparison's turns (the alignment needs only these fields). */
import type { Turn } from '../chat';
import type { CompareTurn } from './align';

export interface SideTurn extends CompareTurn {
  index: number;
  bundleHash: string | null;
}

export function toCompareTurns(turns: readonly Turn[]): SideTurn[] {
  return turns.map((t) => ({
    interaction_id: t.id,
    user_text: t.userText,
    reply_text: t.replyText,
    trace: t.trace ?? null,
    index: t.index,
    bundleHash: t.bundleHash ?? null,
  }));
}
