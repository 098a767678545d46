/**
 * Which turns of two long threads the comparison covers, when not both whole (compared-part.ts):
 * the turns compared and, exactly, those not compared, with a way to bring earlier or later turns
 * into the comparison (a page of each thread more, through the same windows the chat holds). A
 * page that did not load is named.
 */
import { Button } from '../../components/ui/Button';
import type { ApiError } from '../../api/errors';
import { rangeLabel, type ComparedPart, type ComparedSide } from './compared-part';

export interface CoverageProps {
  part: ComparedPart;
  /** Turns a "load" asks for on each side (the service's page). */
  step: number;
  /** Asks both threads for positions `[from, to)`. */
  load: (from: number, to: number) => void;
  /** Pages of either thread that did not load. */
  failures: readonly ApiError[];
}

function sideText(label: string, side: ComparedSide): string {
  const { from, to } = side.compared;
  return to > from ? `${rangeLabel(side.compared)} of ${label}` : `no turn of ${label}`;
}

export function CompareCoverage({ part, step, load, failures }: CoverageProps) {
  if (part.whole && failures.length === 0) return null;
  const notCompared = (['A', 'B'] as const).flatMap((label) =>
    (label === 'A' ? part.a : part.b).notCompared.map((r) => `${rangeLabel(r)} of ${label}`),
  );
  const from = part.a.compared.from;
  const to = Math.max(part.a.compared.to, part.b.compared.to);
  const more = (side: ComparedSide) => side.notCompared.some((r) => r.from >= side.compared.to);
  const fmt = (n: number) => n.toLocaleString('en-US');
  return (
    <section
      aria-label="Turns compared"
      className="flex flex-col gap-2 rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-100"
    >
      <p>
        Only part of these threads is loaded, so only part is compared: {sideText('A', part.a)} (of{' '}
        {fmt(part.a.total)}) and {sideText('B', part.b)} (of {fmt(part.b.total)}).
      </p>
      {notCompared.length > 0 ? <p>Not compared: {notCompared.join('; ')}.</p> : null}
      {failures.map((f) => (
        <p key={f.title} role="alert">
          {f.title}.
        </p>
      ))}
      <div className="flex flex-wrap gap-2">
        {from > 0 ? (
          <Button size="sm" onClick={() => load(Math.max(0, from - step), from)}>
            Compare {fmt(Math.min(step, from))} earlier turns too
          </Button>
        ) : null}
        {more(part.a) || more(part.b) ? (
          <Button size="sm" onClick={() => load(to, to + step)}>
            Compare later turns too
          </Button>
        ) : null}
      </div>
    </section>
  );
}
