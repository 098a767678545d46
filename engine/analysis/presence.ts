/**
 * Requirements only their presence reads. The tool checks its requirements in order and asks for
 * the first one missing; a requirement that nothing else reads (no condition, formula, integration
 * request or answer, message, other tool's list, added requirement) changes the outcome only by
 * being that first missing one. So k such requirements make k + 1 regions (the first missing is
 * the 1st, …, the kth, or none is), not 2^k: whichever of the later ones are given, the tool asks
 * for the same one, with the same rule deciding, and runs nothing. The engine decides each.
 */
import { placeholders } from '../../src/lib/bundle/placeholders';
import { readResponseMapping } from '../../src/lib/bundle/response-mapping';
import { formulaRefs } from '../formula';
import type { CompiledBundle, CompiledTool } from '../types';
import { isComputed } from './computed';
import { rulesOf } from './rules-of';

const memo = new WeakMap<CompiledBundle, Set<string>>();

/** Every code the bundle names in a `{{placeholder}}`, a formula, an integration mapping or an added requirement. */
function namedAnywhere(compiled: CompiledBundle): Set<string> {
  let out = memo.get(compiled);
  if (out) return out;
  out = new Set<string>();
  const stack: unknown[] = [compiled.bundle];
  let steps = 0;
  while (stack.length > 0 && steps++ < 2_000_000) {
    const x = stack.pop();
    if (typeof x === 'string') {
      if (x.includes('{{')) for (const p of placeholders(x)) out.add(p);
    } else if (Array.isArray(x)) stack.push(...x);
    else if (x && typeof x === 'object') stack.push(...Object.values(x));
  }
  for (const p of compiled.params.values())
    if (typeof p.computation === 'string') for (const r of formulaRefs(p.computation)) out.add(r);
  for (const c of compiled.bundle.computations ?? [])
    if (typeof c.formula === 'string') for (const r of formulaRefs(c.formula)) out.add(r);
  for (const i of compiled.integrations.values())
    for (const e of readResponseMapping(i.settings?.response_mapping).entries) out.add(e.param);
  for (const t of compiled.tools)
    for (const r of rulesOf(t)) {
      const added: unknown = r.rule.then?.params?.mandatory;
      if (Array.isArray(added)) for (const c of added) if (typeof c === 'string') out.add(c);
    }
  memo.set(compiled, out);
  return out;
}

/** The tool's single requirements (not OR-groups) only their presence reads, in the tool's order. */
export function presenceOnly(
  compiled: CompiledBundle,
  tool: CompiledTool,
  readElsewhere: ReadonlySet<string>,
): string[] {
  const named = namedAnywhere(compiled);
  const once = tool.required.filter((r): r is string => typeof r === 'string');
  const inGroups = new Set(tool.required.filter(Array.isArray).flat());
  return once.filter(
    (code, i) =>
      once.indexOf(code) === i &&
      !inGroups.has(code) &&
      !tool.optional.includes(code) &&
      !readElsewhere.has(code) &&
      !named.has(code) &&
      !isComputed(compiled, code) &&
      !compiled.profileParams.has(code),
  );
}

/** Codes both scopes treat as presence only, in one order, or none when their orders differ. */
export function sharedPresence(a: readonly string[], b: readonly string[]): string[] {
  const common = a.filter((c) => b.includes(c));
  const inB = b.filter((c) => common.includes(c));
  return common.every((c, i) => inB[i] === c) ? common : [];
}
