/**
 * Many turns saved as test cases at once (a selection of search results): each turn becomes the
 * case "Save as test" would prefill for it, unedited (the deciding rules, the tools, the values
 * filled in that turn, the start of the reply), added to its agent's suite. Each thread is read
 * as "Save as test" reads it; a turn that cannot become a case is named with the reason, the
 * others are saved. At most MAX_SAVED_AT_ONCE turns, one thread read at a time.
 */
import type { QueryClient } from '@tanstack/react-query';
import { readTranscript } from '../../domain/transcript/read-transcript';
import { useThreadsStore } from '../../domain/threads/threads-store';
import { buildCase, prefillFromThread } from './prefill';
import { useSuitesStore } from '../../domain/suites/suites-store';

export const MAX_SAVED_AT_ONCE = 50;

/** A turn to save: its thread, its interaction id, and its agent as the caller knows it. */
export interface TurnToSave {
  taskId: string;
  turnId: string;
  agentId: string;
  /** How the turn is named to a person ("turn 2: “I want to dispute…”"). */
  label: string;
}

export interface SaveOutcome {
  /** Agent id → how many cases were added to its suite. */
  saved: Map<string, number>;
  failed: { label: string; reason: string }[];
}

export async function saveTurnsAsCases(
  queryClient: QueryClient,
  turns: readonly TurnToSave[],
): Promise<SaveOutcome> {
  const outcome: SaveOutcome = { saved: new Map(), failed: [] };
  if (turns.length > MAX_SAVED_AT_ONCE) {
    outcome.failed.push({
      label: `${turns.length} turns`,
      reason: `At most ${MAX_SAVED_AT_ONCE} turns are saved at once: select fewer.`,
    });
    return outcome;
  }
  for (const t of turns) {
    try {
      const { turns: transcript, info } = await readTranscript(queryClient, t.taskId);
      const threads = useThreadsStore.getState().threads;
      const prefill = prefillFromThread({
        taskId: t.taskId,
        turnId: t.turnId,
        turns: transcript,
        thread: threads.get(t.taskId),
        info,
        agentId: t.agentId,
        now: new Date().toISOString(),
      });
      if (!prefill.ok) {
        outcome.failed.push({ label: t.label, reason: prefill.reason });
        continue;
      }
      const built = buildCase(prefill.draft);
      if (!built.ok) {
        outcome.failed.push({ label: t.label, reason: built.errors.join('; ') });
        continue;
      }
      const agentId = prefill.draft.agentId;
      useSuitesStore.getState().addCase(agentId, built.testCase);
      outcome.saved.set(agentId, (outcome.saved.get(agentId) ?? 0) + 1);
    } catch (error) {
      outcome.failed.push({
        label: t.label,
        reason: `its thread could not be read (${error instanceof Error ? error.message : String(error)})`,
      });
    }
  }
  return outcome;
}
