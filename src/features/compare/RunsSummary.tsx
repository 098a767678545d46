/** One side's bundles, turn by turn, in words ("A: turns 1–3 the agent's own bundle · turn 4 …"). */
import { bundleLabel } from '../../domain/threads/run-config';
import { runSegments, type RunTurn } from './runs';

export function SideSummary({ side }: { side: { label: string; turns: RunTurn[] } }) {
  const segments = runSegments(side.turns);
  return (
    <li>
      <span className="font-semibold">{side.label}:</span>{' '}
      {segments.length === 0
        ? 'no turns'
        : segments
            .map(
              (s) =>
                `${s.first === s.last ? `turn ${s.first + 1}` : `turns ${s.first + 1}–${s.last + 1}`} ${bundleLabel(s.bundleHash)}${s.versionId ? ` (version ${s.versionId})` : ''}`,
            )
            .join(' · ')}
    </li>
  );
}
