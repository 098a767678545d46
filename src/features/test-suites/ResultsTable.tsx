/**
 * A suite run's results, case × turn: what each turn had to decide and what it decided, every
 * failed expectation, and for a rule that flipped both reasons (now, and in the thread the case was
 * saved from). A failing turn opens in the compare view: the run's task against the source thread.
 */
import { Fragment } from 'react';
import { Badge } from '../../components/ui/Badge';
import { describeMismatch, type CaseResult, type Mismatch, type TestCase } from '../../lib/test-cases';
import { useTranscript } from '../../domain/transcript/use-transcript';
import type { SuiteRun } from './suite-run';

export interface ResultsTableProps {
  run: SuiteRun;
  cases: ReadonlyMap<string, TestCase>;
  onlyFailures: boolean;
  onCompare: (sourceTaskId: string, runTaskId: string) => void;
}

/** The reason a rule had in the thread the case was saved from (the case's turn i is the thread's). */
function SavedReason({ taskId, turnIndex, ruleId }: { taskId: string; turnIndex: number; ruleId: string }) {
  const { turns, isLoading } = useTranscript(taskId);
  if (isLoading) return <span className="text-zinc-500"> (reading the saved turn…)</span>;
  const rule = turns[turnIndex]?.trace?.rules_evaluated.find((r) => r.rule_id === ruleId);
  if (!rule) return null;
  return (
    <span className="block text-zinc-600 dark:text-zinc-400">
      when saved: {rule.result}, {rule.reason || rule.predicate}
    </span>
  );
}

function MismatchLine({
  m,
  source,
  turnIndex,
}: {
  m: Mismatch;
  source: TestCase['source'];
  turnIndex: number;
}) {
  if (m.kind !== 'rule') return <li>{describeMismatch(m)}</li>;
  return (
    <li>
      <span>
        rule {m.subject}: expected {m.expected}, got {m.actual}
      </span>
      {m.reason ? <span className="block text-zinc-600 dark:text-zinc-400">now: {m.reason}</span> : null}
      {source ? <SavedReason taskId={source.task_id} turnIndex={turnIndex} ruleId={m.subject} /> : null}
    </li>
  );
}

function statusTone(status: CaseResult['status']) {
  return status === 'passed' ? 'ok' : status === 'failed' ? 'blocked' : 'error';
}

export function ResultsTable({ run, cases, onlyFailures, onCompare }: ResultsTableProps) {
  return (
    // Wide enough that a narrow pane scrolls the table sideways rather than wrapping a word per line.
    <table aria-label="Suite results" className="w-full min-w-[40rem] border-collapse text-left text-xs">
      <thead>
        <tr className="border-b border-zinc-200 dark:border-zinc-800">
          <th scope="col" className="p-1">
            Case
          </th>
          <th scope="col" className="p-1">
            Turn
          </th>
          <th scope="col" className="p-1">
            Expected
          </th>
          <th scope="col" className="p-1">
            Actual
          </th>
          <th scope="col" className="p-1">
            What differs
          </th>
        </tr>
      </thead>
      <tbody>
        {run.entryIds.map((id) => {
          const result = run.results.get(id);
          const testCase = cases.get(id);
          const name = testCase?.name ?? result?.name ?? '(deleted case)';
          if (!result)
            return run.status === 'running' ? (
              <tr key={id} className="border-b border-zinc-100 dark:border-zinc-900">
                <th scope="row" className="p-1 font-medium">
                  {name}
                </th>
                <td colSpan={4} className="p-1 text-zinc-500">
                  waiting…
                </td>
              </tr>
            ) : onlyFailures ? null : (
              <tr key={id} className="border-b border-zinc-100 dark:border-zinc-900">
                <th scope="row" className="p-1 font-medium">
                  {name}
                </th>
                <td colSpan={4} className="p-1 text-zinc-500">
                  not run ({run.status})
                </td>
              </tr>
            );
          if (onlyFailures && result.status === 'passed') return null;
          const source = testCase?.source;
          return (
            <Fragment key={id}>
              {result.turns.map((t, i) => {
                const failed = t.mismatches.length > 0;
                if (onlyFailures && !failed) return null;
                return (
                  <tr key={i} className="border-b border-zinc-100 align-top dark:border-zinc-900">
                    <th scope="row" className="p-1 font-medium">
                      {name} <Badge tone={statusTone(result.status)}>{result.status}</Badge>
                    </th>
                    <td className="p-1" title={t.say}>
                      {i + 1}: {t.say.length > 60 ? `${t.say.slice(0, 59)}…` : t.say}
                    </td>
                    <td className="p-1 font-mono">{t.expect.decision}</td>
                    <td
                      className={`p-1 font-mono ${t.observed.trace.decision !== t.expect.decision ? 'text-red-700 dark:text-red-300' : ''}`}
                    >
                      {t.observed.trace.decision || '(none)'}
                    </td>
                    <td className="p-1">
                      {failed ? (
                        <>
                          <ul className="flex flex-col gap-0.5">
                            {t.mismatches.map((m, k) => (
                              <MismatchLine key={k} m={m} source={source} turnIndex={i} />
                            ))}
                          </ul>
                          {source && result.taskId ? (
                            <button
                              type="button"
                              className="mt-1 rounded px-1.5 py-0.5 text-indigo-700 hover:bg-indigo-50 dark:text-indigo-300 dark:hover:bg-indigo-950"
                              aria-label={`Compare turn ${i + 1} of ${name} with the thread it was saved from`}
                              onClick={() => onCompare(source.task_id, result.taskId!)}
                            >
                              Compare with the saved thread
                            </button>
                          ) : (
                            <p className="text-zinc-500">
                              {source
                                ? 'The run has no task to compare.'
                                : 'The case names no thread it was saved from.'}
                            </p>
                          )}
                        </>
                      ) : (
                        <span className="text-emerald-700 dark:text-emerald-300">as expected</span>
                      )}
                    </td>
                  </tr>
                );
              })}
              {result.status === 'error' ? (
                <tr className="border-b border-zinc-100 align-top dark:border-zinc-900">
                  <th scope="row" className="p-1 font-medium">
                    {name} <Badge tone="error">error</Badge>
                  </th>
                  <td colSpan={4} className="p-1 text-fuchsia-800 dark:text-fuchsia-300">
                    Could not run to the end: {result.error}
                  </td>
                </tr>
              ) : null}
              {result.notes.length ? (
                <tr>
                  <td colSpan={5} className="p-1 text-amber-800 dark:text-amber-300">
                    {name}: {result.notes.join('; ')}
                  </td>
                </tr>
              ) : null}
            </Fragment>
          );
        })}
      </tbody>
    </table>
  );
}
