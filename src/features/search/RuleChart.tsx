/**
 * A rule's results per day as stacked bars, drawn in SVG: one bar per day (days without a turn
 * left empty), one colour per result as its badge shows it, a legend, and each bar's counts in
 * its tooltip.
 */
import { resultTone, type Tone } from '../../lib/trace-tones';
import type { DailySeries } from './rule-stats';

const FILL: Record<Tone, string> = {
  ok: 'fill-emerald-500',
  blocked: 'fill-red-500',
  confirm: 'fill-amber-500',
  info: 'fill-sky-500',
  error: 'fill-fuchsia-500',
  muted: 'fill-zinc-400',
  neutral: 'fill-indigo-400',
};
const SWATCH: Record<Tone, string> = {
  ok: 'bg-emerald-500',
  blocked: 'bg-red-500',
  confirm: 'bg-amber-500',
  info: 'bg-sky-500',
  error: 'bg-fuchsia-500',
  muted: 'bg-zinc-400',
  neutral: 'bg-indigo-400',
};

const HEIGHT = 80;
const BAR = 8;
const GAP = 2;

export function RuleChart({ series, ruleId }: { series: DailySeries; ruleId: string }) {
  if (series.days.length === 0 || series.max === 0) return null;
  const width = series.days.length * (BAR + GAP);
  const first = series.days[0]!;
  const last = series.days[series.days.length - 1]!;
  return (
    <figure aria-label={`${ruleId}'s results per day`} className="flex flex-col gap-1">
      <svg
        role="img"
        aria-label={`Results per day from ${first} to ${last}`}
        viewBox={`0 0 ${width} ${HEIGHT}`}
        preserveAspectRatio="none"
        className="h-20 w-full max-w-3xl"
      >
        {series.days.map((day, i) => {
          let y = HEIGHT;
          const parts = series.series.filter((s) => s.counts[i]! > 0);
          return (
            <g key={day}>
              <title>
                {`${day}: ${parts.map((s) => `${s.result.replaceAll('_', ' ')} ${s.counts[i]}`).join(', ') || 'none'}`}
              </title>
              {parts.map((s) => {
                const h = (s.counts[i]! / series.max) * HEIGHT;
                y -= h;
                return (
                  <rect
                    key={s.result}
                    x={i * (BAR + GAP)}
                    y={y}
                    width={BAR}
                    height={h}
                    className={FILL[resultTone(s.result)]}
                  />
                );
              })}
            </g>
          );
        })}
      </svg>
      <figcaption className="flex flex-wrap items-center gap-3 text-xs text-zinc-600 dark:text-zinc-400">
        <span>
          {first} – {last}
        </span>
        {series.series.map((s) => (
          <span key={s.result} className="inline-flex items-center gap-1">
            <span
              className={`inline-block h-2.5 w-2.5 rounded-sm ${SWATCH[resultTone(s.result)]}`}
              aria-hidden
            />
            {s.result.replaceAll('_', ' ')}
          </span>
        ))}
      </figcaption>
    </figure>
  );
}
