/**
 * "Save as test cases" for a selection of turns (the search's results): one case per turn, as
 * "Save as test" would prefill it, added to each turn's agent's suite; then says what was saved
 * where and names each turn that could not be saved, with the reason.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Button } from '../../components/ui/Button';
import { plural } from '../../lib/format';
import { MAX_SAVED_AT_ONCE, saveTurnsAsCases, type SaveOutcome, type TurnToSave } from './save-turns';

export function SaveTurnsAsTests({ turns, onSaved }: { turns: readonly TurnToSave[]; onSaved?: () => void }) {
  const queryClient = useQueryClient();
  const [saving, setSaving] = useState(false);
  const [outcome, setOutcome] = useState<SaveOutcome | null>(null);
  const tooMany = turns.length > MAX_SAVED_AT_ONCE;
  return (
    <div className="flex flex-wrap items-center gap-2 text-xs">
      <Button
        size="sm"
        variant="primary"
        disabled={saving || turns.length === 0 || tooMany}
        onClick={() => {
          setSaving(true);
          setOutcome(null);
          void saveTurnsAsCases(queryClient, turns)
            .then((o) => {
              setOutcome(o);
              if (o.saved.size) onSaved?.();
            })
            .finally(() => setSaving(false));
        }}
      >
        {saving ? 'Saving…' : 'Save as test cases'}
      </Button>
      <span className="text-zinc-600 dark:text-zinc-400">
        {tooMany
          ? `${turns.length} selected: at most ${MAX_SAVED_AT_ONCE} at once`
          : turns.length
            ? `${plural(turns.length, 'turn')} selected`
            : 'Select turns to save them as test cases'}
      </span>
      {outcome ? <Outcome outcome={outcome} /> : null}
    </div>
  );
}

function Outcome({ outcome }: { outcome: SaveOutcome }) {
  const saved = [...outcome.saved].map(([agent, n]) => `${plural(n, 'test case')} to ${agent}’s tests`);
  return (
    <div role="status" className="basis-full">
      {saved.length ? (
        <p className="text-emerald-700 dark:text-emerald-300">Saved {saved.join(', ')} (the Tests tab).</p>
      ) : null}
      {outcome.failed.length ? (
        <ul className="text-red-700 dark:text-red-300">
          {outcome.failed.map((f, i) => (
            <li key={i}>
              Not saved, {f.label}: {f.reason}
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
