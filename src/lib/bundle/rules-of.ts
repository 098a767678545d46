/**
 * Every rule of a bundle with the id the engine gives it in traces (its `code`, or its path such
 * as `rules[2]` or `DISPUTE_CHARGE.pre.constraint[0]` when it has none) and where it sits: the
 * bundle's own rules first, then each tool's pre-conditions and summaries, in bundle order.
 */
import type { Bundle, Rule } from '../../contract/bundle';
import { normalizeBundle } from './normalize';

export interface BundleRule {
  id: string;
  /** Where the rule sits: `rules`, or the tool and list (`DISPUTE_CHARGE.pre.constraint`). */
  place: string;
  rule: Rule;
}

const list = <T>(x: T[] | undefined | null): T[] => (Array.isArray(x) ? x : []);

function rulesAt(rules: Rule[] | undefined, place: string): BundleRule[] {
  return list(rules).map((rule, i) => ({
    id: typeof rule.code === 'string' && rule.code ? rule.code : `${place}[${i}]`,
    place,
    rule,
  }));
}

export function bundleRules(bundle: Bundle): BundleRule[] {
  const b = normalizeBundle(bundle);
  const out = rulesAt(b.rules, 'rules');
  for (const tool of b.agent_tools) {
    const code = typeof tool.code === 'string' ? tool.code : '';
    if (!code) continue;
    const pre = tool.rules?.pre;
    const summary = tool.rules?.summary;
    out.push(
      ...rulesAt(pre?.constraint, `${code}.pre.constraint`),
      ...rulesAt(pre?.required_parameters, `${code}.pre.required_parameters`),
      ...rulesAt(pre?.missing_info, `${code}.pre.missing_info`),
      ...rulesAt(summary?.success, `${code}.summary.success`),
      ...rulesAt(summary?.fail, `${code}.summary.fail`),
      ...rulesAt(summary?.missing_info, `${code}.summary.missing_info`),
    );
  }
  return out;
}
