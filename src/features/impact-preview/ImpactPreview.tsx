/**
 * "This draft changes N of M saved cases", under the bundle editor's toolbar, with the changed
 * turns one click away: case, turn, decision before → after, every difference, and how the turn
 * stands against what its case expects.
 */
import { useState, type ReactNode } from 'react';
import { Badge, type Tone } from '../../components/ui/Badge';
import { Button } from '../../components/ui/Button';
import { Spinner } from '../../components/ui/Spinner';
import { IMPACT_LIMITS } from '../../contract/impact';
import { describeDifference, type ImpactSummary, type Verdict } from './impact-model';
import { useImpactPreview } from './use-impact-preview';

export interface ImpactPreviewProps {
  agentId: string;
  canFetch: boolean;
  /** Shown where the preview cannot run: runs the suite through the public API instead. */
  onRunSuite?: (() => void) | undefined;
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

const VERDICT_TONES: Record<Verdict, Tone> = {
  'now fails': 'blocked',
  'still fails': 'blocked',
  'now passes': 'ok',
  passes: 'muted',
};

const WHAT_CHANGES =
  'A case changes when a turn reaches another decision, a rule another result, or other tools than with the active version';

function ChangedList({ summary }: { summary: ImpactSummary }) {
  return (
    <div className="max-h-72 overflow-auto border-t border-zinc-200 dark:border-zinc-800">
      {summary.rows.length === 0 && summary.problems.length === 0 ? (
        <p className="px-3 py-2 text-zinc-500">No saved case changes.</p>
      ) : null}
      {summary.problems.map((p) => (
        <p key={`problem-${p.caseId}`} role="alert" className="px-3 py-1.5 text-red-800 dark:text-red-200">
          <span className="font-medium">{p.caseName}</span>: {p.text}
        </p>
      ))}
      {summary.rows.length ? (
        <table className="w-full text-left" aria-label="Changed cases">
          <thead className="text-zinc-500">
            <tr>
              <th className="px-3 py-1 font-medium">Case</th>
              <th className="px-2 py-1 font-medium">Turn</th>
              <th className="px-2 py-1 font-medium">Decision</th>
              <th className="px-2 py-1 font-medium">Expectations</th>
            </tr>
          </thead>
          <tbody>
            {summary.rows.map((r) => (
              <tr
                key={`${r.caseId}-${r.turn}`}
                className="border-t border-zinc-100 align-top dark:border-zinc-800"
              >
                <td className="px-3 py-1.5">
                  <div className="font-medium">{r.caseName}</div>
                  <div className="text-zinc-500">{r.file}</div>
                </td>
                <td className="px-2 py-1.5">
                  <div>{r.turn}</div>
                  <div className="max-w-48 truncate text-zinc-500" title={r.message}>
                    “{r.message}”
                  </div>
                </td>
                <td className="px-2 py-1.5">
                  <div>
                    {r.decisionBefore} → {r.decisionAfter}
                  </div>
                  <ul className="text-zinc-500">
                    {r.differences
                      .filter((d) => d.kind !== 'decision')
                      .map((d) => (
                        <li key={`${d.kind}-${d.subject}`}>{describeDifference(d)}</li>
                      ))}
                  </ul>
                </td>
                <td className="px-2 py-1.5">
                  <Badge tone={VERDICT_TONES[r.verdict]}>{r.verdict}</Badge>
                  {r.mismatches.length ? (
                    <div className="mt-0.5 text-zinc-500">
                      {plural(r.mismatches.length, 'expectation')} not met
                    </div>
                  ) : null}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </div>
  );
}

export function ImpactPreview({ agentId, canFetch, onRunSuite }: ImpactPreviewProps) {
  const state = useImpactPreview(agentId, canFetch);
  const [open, setOpen] = useState(false);

  let line: ReactNode;
  let summary: ImpactSummary | null = null;
  switch (state.kind) {
    case 'loading':
      line = 'Impact: loading the saved cases…';
      break;
    case 'no-cases':
      line = `Impact: no saved cases for ${agentId || 'this agent'}. Save a turn as a test to see what a draft changes.`;
      break;
    case 'no-key':
      line = 'Impact: add the API key in Connection to replay the saved cases with the draft.';
      break;
    case 'unavailable':
      line = (
        <>
          Impact preview unavailable: it replays the {plural(state.total, 'saved case')} next to the engine,
          which only the reference service offers. Run the suite against the draft instead (it uses the public
          API).
          {onRunSuite ? (
            <Button size="sm" variant="ghost" className="ml-1" onClick={onRunSuite}>
              Run the suite
            </Button>
          ) : null}
        </>
      );
      break;
    case 'too-large':
      line = `Impact preview off: the suite has ${plural(state.total, 'case')} and ${plural(state.messages, 'message')}, more than one replay takes (${IMPACT_LIMITS.cases.toLocaleString('en-US')} cases, ${IMPACT_LIMITS.messages.toLocaleString('en-US')} messages). Run the suite against the draft instead.`;
      break;
    case 'no-draft':
      line = `Impact: no edits yet. Edit the bundle to see which of the ${plural(state.total, 'saved case')} it changes.`;
      break;
    case 'invalid-draft':
      line = `Impact: the draft cannot run as it is (see Problems), so the ${plural(state.total, 'saved case')} are not replayed.`;
      break;
    case 'error':
      line = (
        <span role="alert">
          Impact preview failed: {state.error.message} {state.error.guidance ?? ''}
        </span>
      );
      break;
    case 'counting':
      summary = state.previous;
      line = (
        <>
          <Spinner label="Replaying the saved cases" /> Replaying {plural(state.total, 'saved case')} with the
          draft…
          {state.previous ? (
            <span className="text-zinc-500"> (before your last edit: {state.previous.changed} changed)</span>
          ) : null}
        </>
      );
      break;
    case 'done':
      summary = state.summary;
      line = (
        <>
          This draft changes <strong>{state.summary.changed}</strong> of{' '}
          {plural(state.summary.total, 'saved case')}
          <span className="text-zinc-500"> (against the active version {state.summary.baseline})</span>
          {state.summary.problems.length ? (
            <span className="text-red-700 dark:text-red-300">
              ; {plural(state.summary.problems.length, 'case')} could not run
            </span>
          ) : null}
        </>
      );
      break;
  }

  return (
    <section
      aria-label="Impact preview"
      data-testid="impact-preview"
      data-state={state.kind}
      className="border-b border-zinc-200 text-xs dark:border-zinc-800"
    >
      <div className="flex flex-wrap items-center gap-2 px-3 py-1.5">
        <p
          aria-live="polite"
          data-testid="impact-count"
          className="flex flex-1 items-center gap-1"
          title={WHAT_CHANGES}
        >
          {line}
        </p>
        {summary ? (
          <Button size="sm" variant="ghost" aria-expanded={open} onClick={() => setOpen((v) => !v)}>
            {open ? 'Hide changed cases' : 'Show changed cases'}
          </Button>
        ) : null}
      </div>
      {open && summary ? (
        <>
          <p className="px-3 pb-1 text-zinc-500">
            {WHAT_CHANGES}; the reply’s wording and the values held do not count.
          </p>
          <ChangedList summary={summary} />
        </>
      ) : null}
    </section>
  );
}
