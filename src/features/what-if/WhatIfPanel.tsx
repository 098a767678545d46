/**
 * "What would change this?": for the selected turn, the smallest changes that give another
 * decision (why not), and an editor for every value a what-if may change. The what-if itself is
 * the turn's one what-if (what-if-store.ts), shown above the graph (WhatIfStrip) whether its
 * values were edited here or on the graph's nodes. Both are answered by the reference engine;
 * nothing is sent to the conversation or stored. On a deployed service the turn is the reference
 * engine's prediction with the user's bundle (PredictionNote says so, beside the deployed
 * service's own decision).
 */
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { toApiError } from '../../api/errors';
import { Badge } from '../../components/ui/Badge';
import { Button } from '../../components/ui/Button';
import { ErrorCallout } from '../../components/ui/ErrorCallout';
import { Spinner } from '../../components/ui/Spinner';
import type { WhatIfResponse } from '../../contract/what-if';
import { applyBundleChange } from '../../lib/bundle/change-at-path';
import { bundleText } from '../../domain/bundles/analysis';
import { useBundleDraftStore } from '../../domain/bundles/draft-store';
import { NotAvailable } from './NotAvailable';
import { PredictionNote } from './PredictionNote';
import { useWhatIfBase } from './use-what-if';
import { DecisionBadge, ValueEditor } from './ValueEditor';
import { differenceText, HELD_FIXED } from './what-if-model';
import { turnBundle } from './what-if-queries';
import { turnKey, useTurnEdits, useWhatIfStore } from './what-if-store';

export interface WhatIfPanelProps {
  taskId: string;
  interactionId: string;
  /** Opens an inspector tab (the Bundle tab, for a bundle change made a draft). */
  openTab?: ((id: string) => void) | undefined;
}

type WhyNotItem = NonNullable<WhatIfResponse['why_not']>['items'][number];

function WhyNotList({
  items,
  capped,
  onData,
  onBundle,
}: {
  items: WhyNotItem[];
  capped: boolean;
  onData: (item: WhyNotItem) => void;
  onBundle: (item: WhyNotItem) => void;
}) {
  const families = [
    { family: 'data', title: 'Change a value (opens a what-if)' },
    { family: 'bundle', title: 'Change the bundle (makes a draft)' },
  ] as const;
  if (items.length === 0)
    return (
      <p className="text-sm text-zinc-600 dark:text-zinc-400">
        No single change, nor pair of value changes, gives this turn another decision
        {capped ? ' among the changes examined' : ''}.
      </p>
    );
  return (
    <div className="space-y-3">
      {families.map(({ family, title }) => {
        const mine = items.filter((i) => i.family === family);
        if (mine.length === 0) return null;
        return (
          <section key={family} aria-label={title}>
            <h4 className="mb-1 text-xs font-semibold text-zinc-600 dark:text-zinc-400">{title}</h4>
            <ul className="space-y-1">
              {mine.map((item) => {
                const others = item.differences.filter((d) => d.kind !== 'decision');
                return (
                  <li key={`${item.summary}`}>
                    <button
                      type="button"
                      onClick={() => (family === 'data' ? onData(item) : onBundle(item))}
                      className="w-full rounded border border-zinc-200 px-2 py-1 text-left text-sm hover:bg-zinc-50 focus-visible:outline-2 focus-visible:outline-indigo-500 dark:border-zinc-700 dark:hover:bg-zinc-800"
                    >
                      <span className="flex flex-wrap items-center gap-2">
                        <span>{item.summary}</span>
                        <span aria-hidden="true">→</span>
                        <DecisionBadge decision={item.decision} />
                      </span>
                      {others.length > 0 ? (
                        <span className="mt-0.5 block text-xs text-zinc-600 dark:text-zinc-400">
                          also: {others.slice(0, 4).map(differenceText).join('; ')}
                          {others.length > 4 ? `; ${others.length - 4} more` : ''}
                        </span>
                      ) : null}
                    </button>
                  </li>
                );
              })}
            </ul>
          </section>
        );
      })}
      {capped ? (
        <p className="text-xs text-zinc-600 dark:text-zinc-400">
          This bundle is large: only the first changes were examined.
        </p>
      ) : null}
    </div>
  );
}

export default function WhatIfPanel({ taskId, interactionId, openTab }: WhatIfPanelProps) {
  const queryClient = useQueryClient();
  const setDraft = useBundleDraftStore((s) => s.setDraft);
  const key = turnKey(taskId, interactionId);
  const edits = useTurnEdits(taskId, interactionId);
  const { setEdit, setEdits, reset } = useWhatIfStore();
  const edited = Object.keys(edits).length > 0;
  const [draftError, setDraftError] = useState<unknown>(null);
  const base = useWhatIfBase(taskId, interactionId);
  const source = base.data?.bundle_source;
  const prediction = base.prediction;

  const makeDraft = async (item: WhyNotItem) => {
    if (!source || !item.change) return;
    setDraftError(null);
    try {
      // A prediction's bundle is the draft itself: the change is made to it.
      const ranWith = prediction ? prediction.bundle : await turnBundle(queryClient, source);
      setDraft(source.agent_id, bundleText(applyBundleChange(ranWith, item.change)));
      openTab?.('bundle');
    } catch (e) {
      setDraftError(e);
    }
  };

  if (base.isPending)
    return (
      <p className="flex items-center gap-2 p-3 text-sm text-zinc-600 dark:text-zinc-400">
        <Spinner label="Finding what would change this turn" /> Finding what would change this turn…
      </p>
    );
  if (base.error || base.unpredicted || !base.data)
    return (
      <NotAvailable error={base.error} unpredicted={base.unpredicted} openTab={openTab} className="p-3" />
    );
  const data = base.data;
  const whyNot = data.why_not;

  return (
    <div className="space-y-4 p-3" data-testid="what-if-panel">
      {prediction ? <PredictionNote facts={prediction} engineDecision={data.recorded.decision} /> : null}
      <section aria-label="What would change this?">
        <h3 className="mb-1 text-sm font-semibold">What would change this?</h3>
        <p className="mb-2 text-xs text-zinc-600 dark:text-zinc-400">
          The smallest single changes that give this turn another decision (and, for a decision no single
          change gives, two values changed together), each checked by deciding the turn again on the reference
          engine.
        </p>
        {whyNot ? (
          <WhyNotList
            items={whyNot.items}
            capped={whyNot.capped}
            onData={(item) => {
              const given = item.edits ?? (item.edit ? [item.edit] : []);
              if (given.length === 0) return;
              setEdits(
                key,
                Object.fromEntries(
                  given.map((e) => [e.code, 'missing' in e ? { missing: true as const } : e.value]),
                ),
              );
            }}
            onBundle={(item) => void makeDraft(item)}
          />
        ) : null}
        {draftError ? <ErrorCallout error={toApiError(draftError)} /> : null}
      </section>

      <section aria-label="What if" className="space-y-2">
        <div className="flex items-center gap-2">
          <h3 className="text-sm font-semibold">What if</h3>
          <Badge tone="muted">not a conversation turn</Badge>
          <Button size="sm" variant="ghost" className="ml-auto" onClick={reset} disabled={!edited}>
            Reset
          </Button>
        </div>
        <p className="text-xs text-zinc-600 dark:text-zinc-400">
          Edit a value here or on a value’s node in the graph: the turn is decided again at once and shown
          above the graph beside the real turn. {HELD_FIXED} Nothing is sent to the conversation.
        </p>
        <div className="space-y-1">
          {data.parameters.map((p) => (
            <ValueEditor
              key={p.code}
              p={p}
              value={Object.hasOwn(edits, p.code) ? edits[p.code] : undefined}
              onChange={(v) => setEdit(key, p.code, v)}
            />
          ))}
        </div>
        <p className="text-xs text-zinc-600 dark:text-zinc-400">
          {prediction ? 'This turn, as the reference engine predicts it with your bundle: ' : 'This turn: '}
          <DecisionBadge decision={data.recorded.decision} />
        </p>
      </section>
    </div>
  );
}
