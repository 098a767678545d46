/**
 * What a suite run does not test: the bundle's rules never evaluated, never blocked or never
 * allowed, its tools never invoked, and the decisions never reached. Rule ids are the engine's:
 * the rule's code, or its path (`rules[2]`, `TOOL.pre.constraint[0]`) when it has none.
 */
import type { Bundle } from '../../contract/bundle';
import { KNOWN_DECISIONS } from '../../contract/trace';
import { normalizeBundle } from '../bundle/normalize';
import { bundleRules } from '../bundle/rules-of';
import type { ObservedTrace } from './compare';

export interface Coverage {
  rules: string[];
  tools: string[];
  neverEvaluated: string[];
  neverBlocked: string[];
  neverAllowed: string[];
  toolsNeverInvoked: string[];
  decisionsNeverReached: string[];
}

/** Every rule id and tool code of the bundle, in bundle order, each once. */
export function bundleRulesAndTools(bundle: Bundle): { rules: string[]; tools: string[] } {
  const tools = normalizeBundle(bundle).agent_tools.map((t) => (typeof t.code === 'string' ? t.code : ''));
  return {
    rules: [...new Set(bundleRules(bundle).map((r) => r.id))],
    tools: [...new Set(tools.filter(Boolean))],
  };
}

export function coverage(bundle: Bundle, traces: Iterable<ObservedTrace>): Coverage {
  const { rules, tools } = bundleRulesAndTools(bundle);
  const evaluated = new Set<string>();
  const blocked = new Set<string>();
  const allowed = new Set<string>();
  const invoked = new Set<string>();
  const decisions = new Set<string>();
  for (const trace of traces) {
    decisions.add(trace.decision);
    for (const r of trace.rules_evaluated) {
      evaluated.add(r.rule_id);
      if (r.result === 'blocked') blocked.add(r.rule_id);
      if (r.result === 'allowed') allowed.add(r.rule_id);
    }
    for (const t of trace.tools_invoked) invoked.add(t.tool);
  }
  return {
    rules,
    tools,
    neverEvaluated: rules.filter((r) => !evaluated.has(r)),
    neverBlocked: rules.filter((r) => !blocked.has(r)),
    neverAllowed: rules.filter((r) => !allowed.has(r)),
    toolsNeverInvoked: tools.filter((t) => !invoked.has(t)),
    decisionsNeverReached: KNOWN_DECISIONS.filter((d) => !decisions.has(d)),
  };
}
