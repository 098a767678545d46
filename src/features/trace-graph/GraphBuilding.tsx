/**
 * Shown in the graph's place while a huge trace's model is built in slices: the decision and
 * what decided it first (in words), and how many of the rules have been read, so a graph still
 * being built is never taken for the whole one.
 */
import type { TolerantTrace } from '../../contract/trace';
import { decisionCause } from '../../lib/decision-cause';
import { showDecision } from '../../lib/trace-tones';

export function GraphBuilding({
  trace,
  rulesRead,
  rules,
}: {
  trace: TolerantTrace;
  rulesRead: number;
  rules: number;
}) {
  const cause = decisionCause(trace);
  const decision = cause?.sentence ?? showDecision(trace.decision)?.label ?? 'no decision';
  return (
    <div data-testid="graph-building" className="flex h-full flex-col gap-2 p-3 text-sm">
      <p className="font-medium text-zinc-800 dark:text-zinc-100">Decision: {decision}</p>
      <p role="status" className="text-zinc-600 dark:text-zinc-300">
        Drawing the graph of this turn ({rules.toLocaleString('en-US')} rules): the rest of the graph appears
        when every rule is read.
      </p>
      <progress
        className="w-64"
        value={rulesRead}
        max={Math.max(rules, 1)}
        aria-label={`Rules read: ${rulesRead.toLocaleString('en-US')} of ${rules.toLocaleString('en-US')}`}
      />
    </div>
  );
}
