/**
 * A validated bundle, normalised once and indexed for fast turns. Cached per bundle object, so
 * a service that keeps the bundle in memory pays the cost once.
 */
import type { Bundle, Entity, Integration, Parameter, Rule, Tool } from '../src/contract/bundle';
import { bundleHash } from '../src/lib/bundle/hash';
import { normalizeBundle } from '../src/lib/bundle/normalize';
import { readResponseMapping } from '../src/lib/bundle/response-mapping';
import { contentStems } from './text';
import type { CompiledBundle, CompiledTool, RuleStage, StagedRule } from './types';

const cache = new WeakMap<object, CompiledBundle>();

export function compileBundle(bundle: Bundle): CompiledBundle {
  const hit = cache.get(bundle);
  if (hit) return hit;
  const compiled = compile(bundle);
  cache.set(bundle, compiled);
  return compiled;
}

/** Remembers `compiled` as the compiled form of `bundle` (a variant derived without compiling, see compile-variant.ts). */
export function rememberCompiled(bundle: Bundle, compiled: CompiledBundle): void {
  cache.set(bundle, compiled);
}

const list = <T>(x: T[] | undefined | null): T[] => (Array.isArray(x) ? x : []);

function staged(rules: Rule[] | undefined, stage: RuleStage, path: string): StagedRule[] {
  return list(rules).map((rule, i) => ({
    id: typeof rule.code === 'string' && rule.code ? rule.code : `${path}[${i}]`,
    stage,
    rule,
  }));
}

/** The union of two ascending index lists, ascending (duplicates kept once). */
function mergeSorted(a: number[], b: number[]): number[] {
  const out: number[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    const next = j >= b.length || (i < a.length && a[i]! <= b[j]!) ? a[i++]! : b[j++]!;
    if (out[out.length - 1] !== next) out.push(next);
  }
  return out;
}

function compile(raw: Bundle): CompiledBundle {
  const bundle = normalizeBundle(raw);
  const params = new Map<string, Parameter>();
  for (const p of list(bundle.parameters))
    if (p && typeof p.code === 'string' && !params.has(p.code)) params.set(p.code, p);
  const inputParams = [...params.values()].filter(
    (p) => p.usage === undefined || p.usage === 'input' || p.usage === 'all',
  );

  const entities = new Map<string, Entity>();
  const entityOfParam = new Map<string, Entity>();
  const entityKeyOfParam = new Map<string, string>();
  const profileParams = new Set<string>();
  // Entities and, depth first, the entity objects nested in their sub_entities (a nested entity
  // is keyed by its path, `order.line-item`; a nested user profile's parts are profile facts).
  const stack: { e: Entity; path: string; profile: boolean }[] = list(bundle.entities)
    .filter((e) => e && typeof e.name === 'string')
    .map((e) => ({ e, path: e.name, profile: e.type === 'user-profile' }))
    .reverse();
  while (stack.length > 0) {
    const { e, path, profile } = stack.pop()!;
    if (!entities.has(e.name)) entities.set(e.name, e);
    for (const code of list(e.parameters)) {
      if (typeof code !== 'string') continue;
      if (!entityOfParam.has(code)) {
        entityOfParam.set(code, e);
        entityKeyOfParam.set(code, path);
      }
      if (profile) profileParams.add(code);
    }
    const nested = list(e.sub_entities).filter(
      (s): s is Entity => !!s && typeof s === 'object' && typeof s.name === 'string',
    );
    for (let i = nested.length - 1; i >= 0; i--) {
      const sub = nested[i]!;
      stack.push({ e: sub, path: `${path}.${sub.name}`, profile: profile || sub.type === 'user-profile' });
    }
  }

  const integrations = new Map<string, Integration>();
  for (const i of list(bundle.integrations))
    if (i && typeof i.code === 'string' && !integrations.has(i.code)) integrations.set(i.code, i);
  // Integrations whose mapping fills only user-profile parameters, reading no conversation value.
  const profileIntegrations = [...integrations.values()]
    .filter((i) => {
      const { entries } = readResponseMapping(i.settings?.response_mapping);
      return (
        entries.length > 0 &&
        entries.every(
          (e) =>
            profileParams.has(e.param) &&
            !e.identifier &&
            [...e.bases, ...e.keys].every((path) => !path.includes('{{')),
        )
      );
    })
    .map((i) => i.code);

  const globalRules = staged(bundle.rules, 'global', 'rules');
  // Tool code → indexes of the global rules that apply to it (an absent or empty list = every tool).
  const everyTool: number[] = [];
  const byTool = new Map<string, number[]>();
  globalRules.forEach((g, i) => {
    const applied = g.rule.applied_to;
    if (!Array.isArray(applied) || applied.length === 0) everyTool.push(i);
    else for (const code of new Set(applied)) (byTool.get(code) ?? byTool.set(code, []).get(code)!).push(i);
  });
  // Tools with no rules of their own share one list, so indexing stays linear in tools + rules.
  const shared = everyTool.map((i) => globalRules[i]!);
  const globalsFor = (code: string) => {
    const own = byTool.get(code);
    return own ? mergeSorted(everyTool, own).map((i) => globalRules[i]!) : shared;
  };
  const tools: CompiledTool[] = [];
  const toolByCode = new Map<string, CompiledTool>();
  const toolByName = new Map<string, CompiledTool>();
  const toolIndex = new Map<string, Map<number, number>>();
  bundle.agent_tools.forEach((tool: Tool) => {
    if (!tool || typeof tool.code !== 'string' || toolByCode.has(tool.code)) return;
    const code = tool.code;
    const pre = tool.rules?.pre;
    const summary = tool.rules?.summary;
    const ct: CompiledTool = {
      tool,
      code,
      index: tools.length,
      enabled: tool.status !== false,
      main: tool.main_tool === true,
      required: list(tool.config?.params?.required).filter((r) => typeof r === 'string' || Array.isArray(r)),
      optional: list(tool.config?.params?.optional).filter((r) => typeof r === 'string'),
      globals: globalsFor(code),
      pre: staged(pre?.constraint, 'constraint', `${code}.pre.constraint`),
      requiredRules: staged(
        pre?.required_parameters,
        'required_parameters',
        `${code}.pre.required_parameters`,
      ),
      missingInfo: staged(pre?.missing_info, 'missing_info', `${code}.pre.missing_info`),
      success: staged(summary?.success, 'success', `${code}.summary.success`),
      fail: staged(summary?.fail, 'fail', `${code}.summary.fail`),
      summaryMissingInfo: staged(
        summary?.missing_info,
        'summary_missing_info',
        `${code}.summary.missing_info`,
      ),
    };
    tools.push(ct);
    toolByCode.set(code, ct);
    if (typeof tool.name === 'string') {
      const key = tool.name.trim().toLowerCase();
      if (key && !toolByName.has(key)) toolByName.set(key, ct);
    }
    if (!ct.enabled || !ct.main) return;
    const weigh = (text: unknown, weight: number) => {
      if (typeof text !== 'string') return;
      for (const s of contentStems(text)) {
        let row = toolIndex.get(s);
        if (!row) toolIndex.set(s, (row = new Map()));
        row.set(ct.index, Math.max(row.get(ct.index) ?? 0, weight));
      }
    };
    weigh(tool.when_to_use, 1);
    weigh(tool.goal, 1);
    weigh(tool.name, 2);
  });

  const name =
    typeof bundle.general_settings?.name === 'string' && bundle.general_settings.name.trim()
      ? bundle.general_settings.name.trim()
      : 'Agent';
  return {
    bundle,
    fingerprint: bundleHash(raw),
    name,
    params,
    inputParams,
    entityOfParam,
    entityKeyOfParam,
    entities,
    profileParams,
    integrations,
    profileIntegrations,
    tools,
    toolByCode,
    toolByName,
    toolIndex,
  };
}
