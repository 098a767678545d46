/**
 * "What would change this?": for the selected turn, the smallest changes that give another
 * decision (why not), and a what-if that decides the turn again with values edited here, side
 * by side with the real turn. Both are answered by the reference service's engine
 * (`POST /reference/v1/what-if`); nothing is sent to the conversation or stored.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { toApiError } from '../../api/errors';
import { whatIfQueryOptions } from '../../api/what-if';
import { Badge } from '../../components/ui/Badge';
import { Button } from '../../components/ui/Button';
import { ErrorCallout } from '../../components/ui/ErrorCallout';
import { Spinner } from '../../components/ui/Spinner';
import { useDebouncedValue } from '../../components/ui/use-debounced-value';
import type { WhatIfParameter, WhatIfResponse } from '../../contract/what-if';
import { applyBundleChange } from '../../lib/bundle/change-at-path';
import { showDecision } from '../../lib/trace-tones';
import { bundleText } from '../../domain/bundles/analysis';
import { useBundleDraftStore } from '../../domain/bundles/draft-store';
import {
  changedNodes,
  differenceText,
  editorKind,
  editorText,
  editorValue,
  editsToSend,
  type EditValue,
} from './what-if-model';
import { engineWorkerAvailable } from './engine-client';
import { inBrowserQueryOptions, turnBundle, turnBundleQueryOptions, type Decided } from './what-if-queries';

export interface WhatIfPanelProps {
  taskId: string;
  interactionId: string;
  /** The graph nodes the what-if changes (undefined: none, the real turn is shown). */
  onChangedNodes: (nodes: Record<string, 'changed'> | undefined) => void;
  /** Opens an inspector tab (the Bundle tab, for a bundle change made a draft). */
  openTab?: ((id: string) => void) | undefined;
}

type WhyNotItem = NonNullable<WhatIfResponse['why_not']>['items'][number];

function DecisionBadge({ decision }: { decision: string }) {
  const shown = showDecision(decision);
  return <Badge tone={shown?.tone ?? 'neutral'}>{shown?.label ?? decision}</Badge>;
}

function ValueEditor({
  p,
  value,
  onChange,
}: {
  p: WhatIfParameter;
  value: EditValue | undefined;
  onChange: (v: EditValue) => void;
}) {
  const kind = editorKind(p);
  const shown = editorText(value ?? p.value);
  const [text, setText] = useState(shown);
  // Reset (or a suggestion applied) replaces what the editor shows; typing keeps its text.
  const [from, setFrom] = useState(shown);
  if (from !== shown) {
    setFrom(shown);
    setText(shown);
  }
  const id = `what-if-${p.code}`;
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
        {p.code}
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
        No single change gives this turn another decision{capped ? ' among the changes examined' : ''}.
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

export default function WhatIfPanel({ taskId, interactionId, onChangedNodes, openTab }: WhatIfPanelProps) {
  const queryClient = useQueryClient();
  const setDraft = useBundleDraftStore((s) => s.setDraft);
  const [edits, setEdits] = useState<Record<string, EditValue>>({});
  const [draftError, setDraftError] = useState<unknown>(null);
  const base = useQuery(
    whatIfQueryOptions({ taskId, interactionId, edits: [], whyNot: true, engineInput: true }),
  );
  const order = useMemo(() => (base.data?.parameters ?? []).map((p) => p.code), [base.data]);
  const sent = useDebouncedValue(
    useMemo(() => editsToSend(edits, order), [edits, order]),
    200,
  );
  const edited = sent.length > 0;
  // The bundle the turn ran with, for the engine in this browser.
  const source = base.data?.bundle_source;
  const bundle = useQuery({
    ...turnBundleQueryOptions(queryClient, source),
    enabled: Boolean(source) && engineWorkerAvailable(),
  });
  const input = base.data?.engine_input;
  const inBrowser = Boolean(input && bundle.data) && engineWorkerAvailable();
  const local = useQuery({
    ...inBrowserQueryOptions({
      taskId,
      interactionId,
      edits: sent,
      source,
      bundle: bundle.data,
      input,
      recordedReply: base.data?.recorded.reply ?? '',
    }),
    enabled: edited && inBrowser,
  });
  // A worker that failed to start or crashed: the service decides from then on.
  const useLocal = inBrowser && !(local.isError && !engineWorkerAvailable());
  // The service decides when the engine cannot run here (no worker, the bundle not at hand).
  const remote = useQuery({
    ...whatIfQueryOptions({ taskId, interactionId, edits: sent, whyNot: false }),
    enabled: edited && !useLocal && !bundle.isFetching,
    select: (r): Decided => ({ ...r.what_if, differences: r.differences, where: 'service' }),
  });
  const decided = useLocal ? local : remote;
  const result = edited ? decided.data : undefined;

  useEffect(() => {
    onChangedNodes(result && result.differences.length > 0 ? changedNodes(result.differences) : undefined);
  }, [result, onChangedNodes]);
  useEffect(() => () => onChangedNodes(undefined), [onChangedNodes]);

  const makeDraft = async (item: WhyNotItem) => {
    if (!source || !item.change) return;
    setDraftError(null);
    try {
      const ranWith = await turnBundle(queryClient, source);
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
  if (base.error)
    return (
      <div className="space-y-2 p-3 text-sm">
        <ErrorCallout error={toApiError(base.error)} />
        <p className="text-zinc-600 dark:text-zinc-400">
          What if and why not run on the reference service, for turns it stored.
        </p>
      </div>
    );
  const data = base.data;
  const whyNot = data.why_not;

  return (
    <div className="space-y-4 p-3" data-testid="what-if-panel">
      <section aria-label="What would change this?">
        <h3 className="mb-1 text-sm font-semibold">What would change this?</h3>
        <p className="mb-2 text-xs text-zinc-600 dark:text-zinc-400">
          The smallest single changes that give this turn another decision, each checked by deciding the turn
          again on the reference engine.
        </p>
        {whyNot ? (
          <WhyNotList
            items={whyNot.items}
            capped={whyNot.capped}
            onData={(item) => {
              if (!item.edit) return;
              setEdits(
                'missing' in item.edit
                  ? { [item.edit.code]: { missing: true } }
                  : { [item.edit.code]: item.edit.value },
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
          <Button
            size="sm"
            variant="ghost"
            className="ml-auto"
            onClick={() => setEdits({})}
            disabled={!edited}
          >
            Reset
          </Button>
        </div>
        <p className="text-xs text-zinc-600 dark:text-zinc-400">
          Edit a value: the turn is decided again at once, with what it understood held fixed. Nothing is sent
          to the conversation.
        </p>
        <div className="space-y-1">
          {data.parameters.map((p) => (
            <ValueEditor
              key={p.code}
              p={p}
              value={Object.prototype.hasOwnProperty.call(edits, p.code) ? edits[p.code] : undefined}
              onChange={(v) => setEdits((e) => ({ ...e, [p.code]: v }))}
            />
          ))}
        </div>
        <div
          className="grid grid-cols-2 gap-2"
          aria-label="This turn and the what-if, side by side"
          role="group"
        >
          <article aria-label="This turn" className="rounded border border-zinc-200 p-2 dark:border-zinc-700">
            <h4 className="mb-1 text-xs font-semibold">This turn</h4>
            <DecisionBadge decision={data.recorded.decision} />
            <p className="mt-1 text-sm whitespace-pre-wrap">{data.recorded.reply}</p>
          </article>
          <article
            aria-label="What if (not a conversation turn)"
            className="rounded border border-dashed border-indigo-300 p-2 dark:border-indigo-700"
          >
            <h4 className="mb-1 text-xs font-semibold">What if (not a conversation turn)</h4>
            {!edited ? (
              <p className="text-sm text-zinc-600 dark:text-zinc-400">
                Edit a value to see the turn decided again.
              </p>
            ) : decided.error ? (
              <ErrorCallout error={toApiError(decided.error)} />
            ) : !result ? (
              <Spinner label="Deciding the turn again" />
            ) : (
              <>
                <DecisionBadge decision={result.decision} />
                <p className="mt-1 text-sm whitespace-pre-wrap">{result.reply}</p>
                <p className="mt-1 text-xs text-zinc-600 dark:text-zinc-400">
                  {result.where === 'browser'
                    ? 'Decided in this browser by the reference engine, with the bundle and clock the turn ran with.'
                    : 'Decided by the reference service, with the bundle and clock the turn ran with.'}
                </p>
                {result.overridden.length > 0 ? (
                  <p className="mt-1 text-xs text-amber-800 dark:text-amber-300">
                    Produced again during the turn (edit what it comes from): {result.overridden.join(', ')}
                  </p>
                ) : null}
              </>
            )}
          </article>
        </div>
        {result ? (
          <section aria-label="What the what-if changes">
            <h4 className="text-xs font-semibold">What changes</h4>
            {result.differences.length === 0 ? (
              <p className="text-sm text-zinc-600 dark:text-zinc-400">
                Nothing: the same decision, rules and tools.
              </p>
            ) : (
              <ul className="list-disc pl-5 text-sm">
                {result.differences.map((d) => (
                  <li key={`${d.kind}:${d.subject}`}>{differenceText(d)}</li>
                ))}
              </ul>
            )}
          </section>
        ) : null}
      </section>
    </div>
  );
}
