/** The chat's transcript turns as the comparison's turns (the alignment needs only these fields). */
import type { Turn } from '../../domain/transcript/transcript';
import type { CompareTurn } from './align';

export interface SideTurn extends CompareTurn {
  index: number;
  /** null = the agent's own bundle; undefined = not recorded. */
  bundleHash: string | null | undefined;
  versionId: string | undefined;
}

export function toCompareTurns(turns: readonly Turn[]): SideTurn[] {
  return turns.map((t) => ({
    interaction_id: t.id,
    user_text: t.userText,
    reply_text: t.replyText,
    trace: t.trace ?? null,
    index: t.index,
    bundleHash: t.bundleHash,
    versionId: t.versionId,
  }));
}
