/**
 * The traces of a suite run that coverage needs, kept as the cases finish: a trace is kept only
 * when it shows a decision, a rule result or a tool no kept trace shows, so at most one per
 * decision, rule result and tool of the bundle is held, however long the suite. Coverage computed
 * from them equals coverage computed from every trace.
 */
import type { ObservedTrace } from '../src/lib/test-cases';

export class CoverageTraces {
  private readonly seen = new Set<string>();
  private readonly kept: ObservedTrace[] = [];

  add(trace: ObservedTrace): void {
    const marks = [
      `decision ${trace.decision}`,
      ...trace.rules_evaluated.map((r) => `rule ${r.result} ${r.rule_id}`),
      ...trace.tools_invoked.map((t) => `tool ${t.tool}`),
    ];
    if (marks.every((m) => this.seen.has(m))) return;
    for (const m of marks) this.seen.add(m);
    this.kept.push(trace);
  }

  traces(): readonly ObservedTrace[] {
    return this.kept;
  }
}
