/**
 * Computed parameters: each `usage: computed` parameter has a formula (inline `computation` or a
 * `computations[]` entry naming it), each formula can run (it parses, calls known functions, never
 * divides by a literal zero), formulas name only defined parameters, one formula computes a
 * parameter for a tool, and no parameter is computed from itself, directly or through others.
 */
import { FORMULA_FUNCTIONS, formulaProblem } from './formula-syntax';
import { formatLoc, type Loc } from './issue-codes';
import {
  asArray,
  asObject,
  asString,
  refParameter,
  refTool,
  report,
  type ValidationContext,
} from './validation-context';
import { placeholders } from './placeholders';
import { spend } from './work-budget';

interface Formula {
  parameter: string;
  text: string;
  loc: Loc;
  /** The tools it computes for: null = every tool (an inline computation, or no applied_to). */
  tools: string[] | null;
}

/** Every formula in the bundle, keyed by the parameter it computes. */
function formulas(ctx: ValidationContext): Formula[] {
  const out: Formula[] = [];
  asArray(ctx.doc.parameters)?.forEach((p, i) => {
    const o = asObject(p);
    const code = asString(o?.code);
    const text = asString(o?.computation);
    if (code !== undefined && text !== undefined)
      out.push({ parameter: code, text, loc: ['parameters', i, 'computation'], tools: null });
  });
  asArray(ctx.doc.computations)?.forEach((c, i) => {
    const o = asObject(c);
    const code = asString(o?.parameter);
    const text = asString(o?.formula);
    const applied = asArray(o?.applied_to ?? o?.applies_to)?.filter(
      (t): t is string => typeof t === 'string',
    );
    if (code !== undefined && text !== undefined)
      out.push({
        parameter: code,
        text,
        loc: ['computations', i, 'formula'],
        tools: applied && applied.length > 0 ? applied : null,
      });
  });
  return out;
}

export function checkComputations(ctx: ValidationContext): void {
  const all = formulas(ctx);
  const computedBy = new Set(all.map((f) => f.parameter));

  asArray(ctx.doc.parameters)?.forEach((p, i) => {
    const o = asObject(p);
    const code = asString(o?.code);
    if (!o || code === undefined) return;
    if (o.usage === 'computed' && !computedBy.has(code)) {
      report(
        ctx,
        'computed_without_computation',
        `Parameter '${code}' has usage "computed" but no computation. Add "computation": a formula over {{param-code}} (e.g. "{{amount}} * 0.02"), or a computations entry for it.`,
        ['parameters', i, 'computation'],
      );
    }
    if (typeof o.computation === 'string' && o.usage !== 'computed') {
      report(
        ctx,
        'computation_ignored',
        `Parameter '${code}' has a computation but its usage is ${o.usage === undefined ? 'not set' : `"${String(o.usage)}"`}, so it is never computed. Set "usage": "computed".`,
        ['parameters', i, 'computation'],
      );
    }
  });

  asArray(ctx.doc.computations)?.forEach((c, i) => {
    const o = asObject(c);
    if (!o) return;
    const name = asString(o.code) !== undefined ? `'${String(o.code)}'` : `computations[${i}]`;
    const target = asString(o.parameter);
    if (target !== undefined)
      refParameter(ctx, target, `Computation ${name} fills parameter '${target}'`, [
        'computations',
        i,
        'parameter',
      ]);
    const key = o.applied_to !== undefined ? 'applied_to' : 'applies_to';
    if (o.applied_to !== undefined && o.applies_to !== undefined) {
      report(
        ctx,
        'alias_conflict',
        `Computation ${name} has both applied_to and applies_to; keep one (applies_to is an alias).`,
        ['computations', i, 'applies_to'],
      );
    }
    asArray(o[key])?.forEach((t, j) => {
      if (typeof t === 'string')
        refTool(ctx, t, `Computation ${name} applies to tool ${t}`, ['computations', i, key, j]);
    });
  });

  for (const f of all) {
    spend(1);
    const problem = formulaProblem(f.text);
    if (problem !== null)
      report(
        ctx,
        'formula_invalid',
        `The formula computing '${f.parameter}' cannot run: ${problem}. Formulas combine {{param-code}} references, numbers, "texts", operators (+ - * / % == != < > <= >= && || ! ? :) and functions (${Object.keys(FORMULA_FUNCTIONS).join(', ')}).`,
        f.loc,
      );
    for (const ref of placeholders(f.text)) {
      refParameter(ctx, ref, `The formula computing '${f.parameter}' uses parameter '${ref}'`, f.loc);
    }
  }
  checkConflicts(ctx, all);
  checkCycles(ctx, all);
}

const sameFormula = (a: string, b: string) => a.replace(/\s+/g, '') === b.replace(/\s+/g, '');
const overlap = (a: string[] | null, b: string[] | null) =>
  a === null || b === null || a.some((t) => b.includes(t));

/**
 * One formula per parameter and tool: a second formula for a parameter that an earlier one
 * already computes for the same tool, and that says something else, is an error (one of them
 * would silently win). Formulas for disjoint `applied_to` tools may differ.
 */
function checkConflicts(ctx: ValidationContext, all: Formula[]): void {
  const byParameter = new Map<string, Formula[]>();
  for (const f of all) {
    const earlier = byParameter.get(f.parameter) ?? [];
    spend(earlier.length);
    const clash = earlier.find((e) => overlap(e.tools, f.tools) && !sameFormula(e.text, f.text));
    if (clash)
      report(
        ctx,
        'computation_conflict',
        `Parameter '${f.parameter}' is computed twice for the same tool${f.tools ? ` (${f.tools.join(', ')})` : ''}: ${JSON.stringify(f.text)} here and ${JSON.stringify(clash.text)} at ${formatLoc(clash.loc)}. Keep one formula (or give each its own applied_to tools).`,
        f.loc,
      );
    earlier.push(f);
    byParameter.set(f.parameter, earlier);
  }
}

function checkCycles(ctx: ValidationContext, all: Formula[]): void {
  const deps = new Map<string, Set<string>>();
  const locOf = new Map<string, Loc>();
  for (const f of all) {
    if (!locOf.has(f.parameter)) locOf.set(f.parameter, f.loc);
    const set = deps.get(f.parameter) ?? new Set<string>();
    for (const ref of placeholders(f.text)) set.add(ref);
    deps.set(f.parameter, set);
  }
  const reported = new Set<string>();
  const cyclic = onCycles(deps);
  for (const start of deps.keys()) {
    if (reported.has(start) || !cyclic.has(start)) continue;
    const cycle = cycleThrough(start, deps, cyclic);
    if (!cycle) continue;
    const text = [...cycle, cycle[0]].map((c) => `'${c}'`).join(' → ');
    for (const member of cycle) {
      if (reported.has(member)) continue;
      reported.add(member);
      report(
        ctx,
        'computation_cycle',
        `Parameter '${member}' is computed from itself: ${text}. Break the cycle by computing one of them from other parameters.`,
        locOf.get(member)!,
      );
    }
  }
}

/**
 * The parameters that lie on a cycle: members of a strongly connected component with more than one
 * member, or computed from themselves (Tarjan's algorithm, iterative, linear in the graph).
 */
function onCycles(deps: Map<string, Set<string>>): Map<string, number> {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const component = new Map<string, number>();
  let counter = 0;
  let components = 0;
  for (const root of deps.keys()) {
    if (index.has(root)) continue;
    const frames: { node: string; next: Iterator<string> }[] = [];
    const enter = (node: string) => {
      index.set(node, counter);
      low.set(node, counter++);
      stack.push(node);
      onStack.add(node);
      frames.push({ node, next: (deps.get(node) ?? new Set<string>()).values() });
    };
    enter(root);
    while (frames.length > 0) {
      const frame = frames[frames.length - 1]!;
      const step = frame.next.next();
      spend(1);
      if (!step.done) {
        const next = step.value;
        if (!index.has(next)) enter(next);
        else if (onStack.has(next)) low.set(frame.node, Math.min(low.get(frame.node)!, index.get(next)!));
        continue;
      }
      frames.pop();
      const parent = frames[frames.length - 1];
      if (parent) low.set(parent.node, Math.min(low.get(parent.node)!, low.get(frame.node)!));
      if (low.get(frame.node) !== index.get(frame.node)) continue;
      const members: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        members.push(member);
      } while (member !== frame.node);
      if (members.length > 1 || deps.get(frame.node)?.has(frame.node))
        for (const m of members) component.set(m, components);
      components++;
    }
  }
  return component;
}

/** The shortest dependency path from `start` back to itself within its component (breadth-first), or null. */
function cycleThrough(
  start: string,
  deps: Map<string, Set<string>>,
  component: Map<string, number>,
): string[] | null {
  const own = component.get(start);
  const previous = new Map<string, string>();
  const queue = [start];
  for (let q = 0; q < queue.length; q++) {
    const node = queue[q]!;
    for (const next of deps.get(node) ?? []) {
      if (component.get(next) !== own) continue;
      spend(1);
      if (next === start) {
        const path = [node];
        while (path[0] !== start) path.unshift(previous.get(path[0]!)!);
        return path;
      }
      if (!previous.has(next)) {
        previous.set(next, node);
        queue.push(next);
      }
    }
  }
  return null;
}
