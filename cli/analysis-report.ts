/** The text reports of `threadline lint` and `threadline diff`: a line per finding or difference, its witness indented. */
import {
  FINDING_SEVERITIES,
  type DiffResult,
  type LintResponse,
  type NotAnalysed,
  type SideOutcome,
  type Witness,
} from '../src/contract/analysis';
import { plural } from '../src/lib/format';

/** A bundle path as people read it: `tools[0].rules.pre.constraint[1]`. */
function pathText(path: readonly (string | number)[]): string {
  let out = '';
  for (const p of path) out += typeof p === 'number' ? `[${p}]` : out ? `.${p}` : p;
  return out || '(bundle)';
}

function witnessLines(w: Witness): string[] {
  const values = Object.entries(w.values).map(([code, v]) => `${code} = ${JSON.stringify(v)}`);
  const lines = [
    `    witness: ${w.tool} at clock ${w.clock}${values.length ? `: ${values.join(', ')}` : ''}`,
  ];
  if (w.messages?.length)
    lines.push(`    conversation: ${w.messages.map((m) => JSON.stringify(m)).join(' → ')}`);
  return lines;
}

function notAnalysedLines(items: readonly NotAnalysed[]): string[] {
  return items.map((n) => {
    const where = [n.tool, n.rule, n.param].filter(Boolean).join(' ');
    return `not analysed${where ? ` (${where})` : ''}: ${n.reason}`;
  });
}

export function lintText(r: LintResponse): string {
  const lines: string[] = [];
  for (const f of r.findings) {
    lines.push(`${f.severity} ${f.code} at ${pathText(f.loc.path)}: ${f.message}`);
    if (f.witness) lines.push(...witnessLines(f.witness));
  }
  lines.push(...notAnalysedLines(r.not_analysed));
  if (r.capped) lines.push('capped: the analysis stopped at its limits (see "not analysed")');
  const counts = FINDING_SEVERITIES.map((severity) => {
    const n = r.findings.filter((f) => f.severity === severity).length;
    return severity === 'info' ? `${n.toLocaleString('en-US')} info` : plural(n, severity);
  });
  lines.push(`${counts.join(', ')} (${plural(r.regions, 'region')} decided)`);
  return `${lines.join('\n')}\n`;
}

const outcome = (o: SideOutcome) => `${o.decision}${o.rules.length ? ` (${o.rules.join(', ')})` : ''}`;

export function diffText(r: DiffResult): string {
  const lines: string[] = [];
  for (const d of r.differences) {
    lines.push(`${d.tool}: ${d.region.words}: ${outcome(d.before)} → ${outcome(d.after)}`);
    lines.push(...witnessLines(d.witness));
  }
  lines.push(...notAnalysedLines(r.not_analysed));
  if (r.capped) lines.push('capped: the analysis stopped at its limits (see "not analysed")');
  const points = r.differences.reduce((n, d) => n + d.points, 0);
  lines.push(
    r.equivalent
      ? `equivalent (${plural(r.regions, 'region')})`
      : `${plural(r.differences.length, 'difference')} in ${plural(points, 'region')}`,
  );
  return `${lines.join('\n')}\n`;
}
