/**
 * One aligned turn's decision diff, decision first: the decision, rules whose result flipped
 * (predicate and reason on both sides), rules on one side only, tools added or removed, and the
 * parameters and entities that differ.
 */
import { memo, type ReactNode } from 'react';
import { Badge } from '../../components/ui/Badge';
import { displayValue } from '../../lib/format';
import { resultTone } from '../../lib/trace-tones';
import { DecisionBadge } from '../../components/DecisionBadge';
import type { OneSidedRule, RulePair, TraceDiff } from './trace-diff';

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section aria-label={title} className="flex flex-col gap-1">
      <h4 className="text-xs font-semibold text-zinc-600 dark:text-zinc-300">{title}</h4>
      {children}
    </section>
  );
}

function RuleSideView({ side, label }: { side: RulePair['a']; label: string }) {
  return (
    <div className="min-w-0 flex-1 rounded border border-zinc-200 p-2 dark:border-zinc-700">
      <div className="flex items-center gap-1.5 text-xs text-zinc-500">
        {label}
        <Badge tone={resultTone(side.result)}>{side.result || '(none)'}</Badge>
      </div>
      <code className="mt-1 block text-xs break-words">{side.predicate}</code>
      <p className="mt-0.5 text-xs break-words text-zinc-600 dark:text-zinc-400">{side.reason}</p>
    </div>
  );
}

function RulePairView({ pair, labels }: { pair: RulePair; labels: [string, string] }) {
  return (
    <li
      aria-label={`Rule ${pair.rule_id}: ${pair.a.result} → ${pair.b.result}`}
      className="flex flex-col gap-1"
    >
      <p className="text-xs">
        <span className="font-mono font-semibold">{pair.rule_id}</span>{' '}
        <span className="text-zinc-500">({pair.rule_type})</span>: {pair.a.result} → {pair.b.result}
      </p>
      <div className="flex flex-col gap-2 sm:flex-row">
        <RuleSideView side={pair.a} label={labels[0]} />
        <RuleSideView side={pair.b} label={labels[1]} />
      </div>
    </li>
  );
}

function OneSided({ rules, side }: { rules: OneSidedRule[]; side: string }) {
  return (
    <ul className="flex flex-col gap-1">
      {rules.map((r, i) => (
        <li key={`${r.rule_id}#${i}`} className="text-xs">
          <span className="font-mono font-semibold">{r.rule_id}</span>{' '}
          <span className="text-zinc-500">
            ({r.rule_type}, only in {side})
          </span>{' '}
          <Badge tone={resultTone(r.side.result)}>{r.side.result || '(none)'}</Badge>
          <code className="ml-1 break-words">{r.side.predicate}</code>
        </li>
      ))}
    </ul>
  );
}

function Values({ items }: { items: { key: string; a: unknown; b: unknown }[] }) {
  return (
    <ul className="flex flex-col gap-0.5 text-xs">
      {items.map((v) => (
        <li key={v.key}>
          <span className="font-mono">{v.key}</span>:{' '}
          {v.a === undefined ? <em>absent</em> : displayValue(v.a)} →{' '}
          {v.b === undefined ? <em>absent</em> : displayValue(v.b)}
        </li>
      ))}
    </ul>
  );
}

export interface DecisionDiffViewProps {
  diff: TraceDiff;
  /** Names of the two sides, e.g. ["A", "B"]. */
  labels: [string, string];
}

export const DecisionDiffView = memo(function DecisionDiffView({ diff, labels }: DecisionDiffViewProps) {
  const [la, lb] = labels;
  return (
    <div className="flex flex-col gap-3">
      <p
        aria-label={diff.decision.changed ? 'Decision changed' : 'Decision unchanged'}
        className="flex flex-wrap items-center gap-2 text-sm"
      >
        <span className="font-semibold">
          {diff.decision.changed ? 'Decision changed:' : 'Decision unchanged:'}
        </span>
        <DecisionBadge decision={diff.decision.a ?? undefined} />
        {diff.decision.changed ? (
          <>
            <span aria-hidden>→</span>
            <DecisionBadge decision={diff.decision.b ?? undefined} />
          </>
        ) : null}
        {diff.intent.changed ? (
          <span className="text-xs text-zinc-500">
            intent {diff.intent.a || '(none)'} → {diff.intent.b || '(none)'}
          </span>
        ) : null}
      </p>
      {diff.rulesFlipped.length > 0 ? (
        <Section title="Rules whose result flipped">
          <ul className="flex flex-col gap-2">
            {diff.rulesFlipped.map((p, i) => (
              <RulePairView key={`${p.rule_id}#${i}`} pair={p} labels={labels} />
            ))}
          </ul>
        </Section>
      ) : null}
      {diff.rulesOnlyA.length + diff.rulesOnlyB.length > 0 ? (
        <Section title="Rules on one side only">
          <OneSided rules={diff.rulesOnlyA} side={la} />
          <OneSided rules={diff.rulesOnlyB} side={lb} />
        </Section>
      ) : null}
      {diff.rulesReworded.length > 0 ? (
        <Section title="Rules with the same result, evaluated differently">
          <ul className="flex flex-col gap-2">
            {diff.rulesReworded.map((p, i) => (
              <RulePairView key={`${p.rule_id}#${i}`} pair={p} labels={labels} />
            ))}
          </ul>
        </Section>
      ) : null}
      {diff.toolsAdded.length + diff.toolsRemoved.length + diff.toolsChanged.length > 0 ? (
        <Section title="Tools invoked">
          <ul className="flex flex-col gap-0.5 text-xs">
            {diff.toolsAdded.map((t, i) => (
              <li key={`+${t}#${i}`}>
                <Badge tone="ok">added</Badge> <span className="font-mono">{t}</span> (only in {lb})
              </li>
            ))}
            {diff.toolsRemoved.map((t, i) => (
              <li key={`-${t}#${i}`}>
                <Badge tone="blocked">removed</Badge> <span className="font-mono">{t}</span> (only in {la})
              </li>
            ))}
            {diff.toolsChanged.map((t, i) => (
              <li key={`~${t.tool}#${i}`}>
                <Badge tone="confirm">changed</Badge> <span className="font-mono">{t.tool}</span>:{' '}
                {t.a.result} → {t.b.result}
              </li>
            ))}
          </ul>
        </Section>
      ) : null}
      {diff.paramsAdded.length + diff.paramsRemoved.length + diff.paramValues.length > 0 ? (
        <Section title="Parameters">
          {diff.paramsAdded.length ? (
            <p className="text-xs">
              Extracted only in {lb}: {diff.paramsAdded.join(', ')}
            </p>
          ) : null}
          {diff.paramsRemoved.length ? (
            <p className="text-xs">
              Extracted only in {la}: {diff.paramsRemoved.join(', ')}
            </p>
          ) : null}
          {diff.paramValues.length ? <Values items={diff.paramValues} /> : null}
        </Section>
      ) : null}
      {diff.entities.length > 0 ? (
        <Section title="Entities">
          <Values items={diff.entities} />
        </Section>
      ) : null}
      {!diff.changed ? (
        <p className="text-xs text-zinc-500">The two traces of this turn are the same.</p>
      ) : null}
    </div>
  );
});
