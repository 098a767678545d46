/**
 * The bundle validator, shared by the browser (instant squiggles) and the service (the 422).
 *
 * Fail closed and report every problem at once: schema errors first (at their exact paths),
 * then the semantic checks the bundle guide (docs/bundle/) lists on the raw, un-normalised document, so every `loc`
 * points into the text the author wrote. The bundle may run only when no issue is an error.
 */
import type { BundleIssue } from '../../contract/api';
import { Bundle, PARAMETER_TYPES } from '../../contract/bundle';
import { bundleIssue, formatLoc, type Loc } from './issue-codes';
import { describeValue, schemaIssues } from './schema-issues';
import { checkComputations } from './validate-computations';
import { checkFormulaLengths, checkMessageLength } from './validate-output-size';
import { readResponseMapping } from './response-mapping';
import { checkCondition } from './validate-condition';
import {
  asArray,
  asObject,
  asString,
  refEntity,
  refIntegration,
  refParameter,
  refTool,
  report,
  type Json,
  type ParameterInfo,
  type ValidationContext,
} from './validation-context';
import { placeholders } from './placeholders';
import { suggestion } from './suggest';
import { spend, WorkBudgetExceeded, withWorkBudget } from './work-budget';

export { BUNDLE_ISSUE_CODES, type BundleIssueCode } from './issue-codes';

/**
 * The most work one validation may do, in steps (see `work-budget.ts`): far above any bundle a
 * person writes (the richest example takes a few thousand), low enough that a hostile bundle is
 * refused in well under a second. Beyond it the issues found so far are kept and
 * `bundle_too_complex` is added.
 */
const VALIDATION_WORK_LIMIT = 5_000_000;
/** Comparisons spent on "Did you mean" hints; beyond, unknown names get no hint. */
const VALIDATION_HINT_LIMIT = 500_000;

/** The starters a new thread offers at most (`general_settings.starter_suggestions`); later ones are never shown. */
export const MAX_STARTER_SUGGESTIONS = 4;

export function validateBundle(doc: unknown): BundleIssue[] {
  const root = asObject(doc);
  if (!root) {
    return [
      bundleIssue(
        'not_an_object',
        `A bundle must be a JSON object ({ ... }), not ${describeValue(doc)}.`,
        [],
      ),
    ];
  }
  const ctx: ValidationContext = {
    doc: root,
    issues: [],
    parameters: new Map(),
    entities: new Set(),
    tools: new Set(),
    toolNames: new Set(),
    integrations: new Set(),
  };
  try {
    withWorkBudget('checking the bundle', VALIDATION_WORK_LIMIT, () => check(ctx), VALIDATION_HINT_LIMIT);
  } catch (error) {
    if (!(error instanceof WorkBudgetExceeded)) throw error;
    report(ctx, 'bundle_too_complex', error.message, []);
  }
  return ctx.issues;
}

function check(ctx: ValidationContext): void {
  const root = ctx.doc;
  const nonFinite = checkNumbers(ctx);
  const parsed = Bundle.safeParse(root);
  if (!parsed.success) {
    // A non-finite number is already reported at its place; zod would add "not a number" there.
    for (const issue of schemaIssues(parsed.error.issues, root))
      if (!nonFinite.has(JSON.stringify(issue.loc))) ctx.issues.push(issue);
  }
  const toolsKey = collectDefinitions(ctx);
  checkStarters(ctx);
  checkParameters(ctx);
  checkEntities(ctx);
  checkIntegrations(ctx);
  const ruleCodes: RuleCodes = new Map();
  asArray(root.rules)?.forEach((r, i) => checkRule(ctx, r, ['rules', i], `rules[${i}]`, false, ruleCodes));
  if (toolsKey) asArray(root[toolsKey])?.forEach((t, i) => checkTool(ctx, t, [toolsKey, i], ruleCodes));
  checkComputations(ctx);
  checkFormulaLengths(ctx);
}

/** True when the bundle may run: no issue is an error (warnings allowed). */
export function isRunnable(issues: readonly BundleIssue[]): boolean {
  return issues.every((i) => i.severity !== 'error');
}

// ---------------------------------------------------------------- general settings

/** Starters past the first four (non-empty ones) are never offered: each is reported where it is. */
function checkStarters(ctx: ValidationContext): void {
  const list = asArray(asObject(ctx.doc.general_settings)?.starter_suggestions);
  let offered = 0;
  list?.forEach((s, i) => {
    if (typeof s !== 'string' || s.trim() === '') return;
    offered++;
    if (offered > MAX_STARTER_SUGGESTIONS)
      report(
        ctx,
        'starter_never_offered',
        `general_settings.starter_suggestions[${i}] (${JSON.stringify(s.slice(0, 60))}) is never offered: a new thread offers the first ${MAX_STARTER_SUGGESTIONS} starters only. Remove it, or put it among the first ${MAX_STARTER_SUGGESTIONS}.`,
        ['general_settings', 'starter_suggestions', i],
      );
  });
}

// ---------------------------------------------------------------- numbers

/**
 * Reports every number JSON cannot hold (`1e309` parses as Infinity, which would be stored and
 * hashed as something else); answers their locations (as JSON text) so zod's issue there is not
 * repeated.
 */
function checkNumbers(ctx: ValidationContext): Set<string> {
  const found = new Set<string>();
  const path: Loc = [];
  const visit = (value: unknown): void => {
    spend(1);
    if (typeof value === 'number') {
      if (Number.isFinite(value)) return;
      const loc = [...path];
      found.add(JSON.stringify(loc));
      report(
        ctx,
        'non_finite_number',
        `${formatLoc(loc)} is ${value > 0 ? 'a number too large' : value < 0 ? 'a negative number too large' : 'not a number'} for JSON (it reads as ${String(value)}). Write a number between -1.7e308 and 1.7e308, or text.`,
        loc,
      );
    } else if (Array.isArray(value)) {
      value.forEach((item, i) => {
        path.push(i);
        visit(item);
        path.pop();
      });
    } else if (typeof value === 'object' && value !== null) {
      for (const key of Object.keys(value)) {
        path.push(key);
        visit((value as Json)[key]);
        path.pop();
      }
    }
  };
  visit(ctx.doc);
  return found;
}

// ---------------------------------------------------------------- definitions and naming

const SCREAMING_SNAKE = /^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*$/;
const KEBAB = /^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$/;

function words(code: string): string[] {
  return code
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean);
}
const toScreamingSnake = (code: string) => words(code).join('_').toUpperCase();
const toKebab = (code: string) => words(code).join('-').toLowerCase();

/** Records every defined name (reporting duplicates and naming); returns the key holding the tools. */
function collectDefinitions(ctx: ValidationContext): 'agent_tools' | 'tools' | null {
  const { doc } = ctx;
  const firstAt = new Map<string, number>();
  asArray(doc.parameters)?.forEach((p, i) => {
    const o = asObject(p);
    const code = asString(o?.code);
    if (!o || code === undefined) return;
    if (ctx.parameters.has(code)) {
      report(
        ctx,
        'duplicate_parameter',
        `Parameter code '${code}' is defined twice (parameters[${firstAt.get(code)}] and parameters[${i}]); codes must be unique.`,
        ['parameters', i, 'code'],
      );
      return;
    }
    firstAt.set(code, i);
    ctx.parameters.set(code, parameterInfo(o, code, ['parameters', i]));
    if (!KEBAB.test(code)) {
      report(
        ctx,
        'parameter_code_style',
        `Parameter code '${code}' should be kebab-case, e.g. '${toKebab(code)}'.`,
        ['parameters', i, 'code'],
      );
    }
  });
  // nested parameters may be referenced by their own code or as parent.child
  asArray(doc.parameters)?.forEach((p, i) => {
    const parent = asString(asObject(p)?.code);
    asArray(asObject(p)?.nested_params)?.forEach((n, j) => {
      const o = asObject(n);
      const code = asString(o?.code);
      if (!o || code === undefined) return;
      const info = parameterInfo(o, code, ['parameters', i, 'nested_params', j]);
      if (!ctx.parameters.has(code)) ctx.parameters.set(code, info);
      if (parent !== undefined && !ctx.parameters.has(`${parent}.${code}`))
        ctx.parameters.set(`${parent}.${code}`, info);
    });
  });

  unique(doc.entities, 'name', (name, i, first) =>
    report(
      ctx,
      'duplicate_entity',
      `Entity '${name}' is defined twice (entities[${first}] and entities[${i}]); names must be unique.`,
      ['entities', i, 'name'],
    ),
  ).forEach((n) => ctx.entities.add(n));
  for (const { entity } of nestedEntities(doc.entities)) {
    const name = asString(entity.name);
    if (name !== undefined) ctx.entities.add(name);
  }

  unique(doc.integrations, 'code', (code, i, first) =>
    report(
      ctx,
      'duplicate_integration',
      `Integration code '${code}' is defined twice (integrations[${first}] and integrations[${i}]); codes must be unique.`,
      ['integrations', i, 'code'],
    ),
  ).forEach((code) => ctx.integrations.add(code));
  asArray(doc.integrations)?.forEach((g, i) => {
    const code = asString(asObject(g)?.code);
    if (code !== undefined && !KEBAB.test(code)) {
      report(
        ctx,
        'integration_code_style',
        `Integration code '${code}' should be kebab-case, e.g. '${toKebab(code)}'.`,
        ['integrations', i, 'code'],
      );
    }
  });

  if (doc.agent_tools !== undefined && doc.tools !== undefined) {
    report(
      ctx,
      'alias_conflict',
      'The bundle has both agent_tools and tools; keep one (tools is an alias of agent_tools). Only agent_tools is read.',
      ['tools'],
    );
  }
  const toolsKey = doc.agent_tools !== undefined ? 'agent_tools' : doc.tools !== undefined ? 'tools' : null;
  if (!toolsKey) return null;
  unique(doc[toolsKey], 'code', (code, i, first) =>
    report(
      ctx,
      'duplicate_tool',
      `Tool code ${code} is defined twice (${toolsKey}[${first}] and ${toolsKey}[${i}]); codes must be unique.`,
      [toolsKey, i, 'code'],
    ),
  ).forEach((code) => ctx.tools.add(code));
  asArray(doc[toolsKey])?.forEach((t, i) => {
    const name = asString(asObject(t)?.name)?.trim().toLowerCase();
    if (name) ctx.toolNames.add(name);
    const code = asString(asObject(t)?.code);
    if (code !== undefined && !SCREAMING_SNAKE.test(code)) {
      report(
        ctx,
        'tool_code_style',
        `Tool code '${code}' should be SCREAMING_SNAKE_CASE, e.g. ${toScreamingSnake(code) || 'MY_TOOL'}.`,
        [toolsKey, i, 'code'],
      );
    }
  });
  return toolsKey;
}

function parameterInfo(o: Json, code: string, loc: Loc): ParameterInfo {
  const type = (PARAMETER_TYPES as readonly unknown[]).includes(o.type)
    ? (o.type as ParameterInfo['type'])
    : undefined;
  const values = asArray(o.values)
    ?.filter((v) => typeof v === 'string' || typeof v === 'number')
    .map(String);
  return { code, type, values, usage: asString(o.usage), loc };
}

/** The distinct string `key`s of a list's objects, in order; calls `duplicate` for each repeat. */
function unique(
  list: unknown,
  key: string,
  duplicate: (name: string, index: number, firstIndex: number) => void,
): string[] {
  const first = new Map<string, number>();
  asArray(list)?.forEach((item, i) => {
    const name = asString(asObject(item)?.[key]);
    if (name === undefined) return;
    if (first.has(name)) duplicate(name, i, first.get(name)!);
    else first.set(name, i);
  });
  return [...first.keys()];
}

// ---------------------------------------------------------------- parameters, entities, integrations

function checkParameters(ctx: ValidationContext): void {
  asArray(ctx.doc.parameters)?.forEach((p, i) => {
    const o = asObject(p);
    const code = asString(o?.code);
    if (!o || code === undefined || o.type !== 'enum') return;
    const values = asArray(o.values);
    if (!values || values.length === 0) {
      report(
        ctx,
        'enum_without_values',
        `Parameter '${code}' is an enum but lists no values, so no answer can ever fill it. Add "values": [...].`,
        ['parameters', i, 'values'],
      );
    }
  });
}

/**
 * Every entity object nested in `sub_entities` (at any depth), with its path, depth first; read
 * with an explicit stack so a deeply nested document cannot exhaust the call stack.
 */
function nestedEntities(list: unknown): { entity: Json; loc: Loc }[] {
  const out: { entity: Json; loc: Loc }[] = [];
  const stack: { entity: Json; loc: Loc }[] = [];
  const pushSubs = (entity: Json, loc: Loc) => {
    const subs = asArray(entity.sub_entities) ?? [];
    for (let j = subs.length - 1; j >= 0; j--) {
      const o = asObject(subs[j]);
      if (o) stack.push({ entity: o, loc: [...loc, 'sub_entities', j] });
    }
  };
  const top = asArray(list) ?? [];
  for (let i = top.length - 1; i >= 0; i--) {
    const o = asObject(top[i]);
    if (o) stack.push({ entity: o, loc: ['entities', i] });
  }
  const isTop = new Set(stack.map((s) => s.entity));
  while (stack.length > 0) {
    const item = stack.pop()!;
    if (!isTop.has(item.entity)) out.push(item);
    pushSubs(item.entity, item.loc);
  }
  return out;
}

function checkEntity(ctx: ValidationContext, o: Json, loc: Loc): void {
  const name = asString(o.name) ?? formatLoc(loc);
  const identifier = asString(o.identifier);
  if (identifier !== undefined) {
    refParameter(ctx, identifier, `Entity '${name}' uses parameter '${identifier}' as its identifier`, [
      ...loc,
      'identifier',
    ]);
  }
  asArray(o.parameters)?.forEach((p, j) => {
    if (typeof p === 'string')
      refParameter(ctx, p, `Entity '${name}' includes parameter '${p}'`, [...loc, 'parameters', j]);
  });
  asArray(o.sub_entities)?.forEach((s, j) => {
    if (typeof s === 'string')
      refEntity(ctx, s, `Entity '${name}' nests entity '${s}'`, [...loc, 'sub_entities', j]);
  });
}

function checkEntities(ctx: ValidationContext): void {
  asArray(ctx.doc.entities)?.forEach((e, i) => {
    const o = asObject(e);
    if (o) checkEntity(ctx, o, ['entities', i]);
  });
  for (const { entity, loc } of nestedEntities(ctx.doc.entities)) checkEntity(ctx, entity, loc);
}

function checkIntegrations(ctx: ValidationContext): void {
  asArray(ctx.doc.integrations)?.forEach((g, i) => {
    const o = asObject(g);
    const name = asString(o?.code) ?? `integrations[${i}]`;
    const settings = asObject(o?.settings);
    const at: Loc = ['integrations', i, 'settings'];
    const mapping = readResponseMapping(settings?.response_mapping);
    const identifiers = new Set<string>();
    for (const entry of mapping.entries) {
      refParameter(
        ctx,
        entry.param,
        `Integration '${name}' maps its response into parameter '${entry.param}'`,
        [...at, 'response_mapping', ...entry.loc],
      );
      const id = entry.identifier;
      if (id && !identifiers.has(formatLoc(id.loc))) {
        identifiers.add(formatLoc(id.loc));
        refParameter(ctx, id.param, `Integration '${name}' identifies entities by parameter '${id.param}'`, [
          ...at,
          'response_mapping',
          ...id.loc,
        ]);
      }
    }
    for (const entity of mapping.entities)
      refEntity(ctx, entity.name, `Integration '${name}' maps its response into entity '${entity.name}'`, [
        ...at,
        'response_mapping',
        ...entity.loc,
      ]);
    asArray(settings?.request_schema)?.forEach((item, j) => {
      const fieldAt: Loc = [...at, 'request_schema', j];
      if (typeof item === 'string') {
        refParameter(ctx, item, `Integration '${name}' sends parameter '${item}'`, fieldAt);
        return;
      }
      const field = asObject(item);
      const key = asString(field?.key) ?? `request_schema[${j}]`;
      asArray(field?.params)?.forEach((p, k) => {
        if (typeof p === 'string')
          refParameter(ctx, p, `Request field '${key}' of integration '${name}' reads parameter '${p}'`, [
            ...fieldAt,
            'params',
            k,
          ]);
      });
      asArray(field?.entities)?.forEach((e, k) => {
        if (typeof e === 'string')
          refEntity(ctx, e, `Request field '${key}' of integration '${name}' reads entity '${e}'`, [
            ...fieldAt,
            'entities',
            k,
          ]);
      });
    });
  });
}

// ---------------------------------------------------------------- tools and rules

const PRE_LISTS = ['constraint', 'required_parameters', 'missing_info'] as const;
const SUMMARY_LISTS = ['success', 'fail', 'missing_info'] as const;

function checkTool(ctx: ValidationContext, tool: unknown, loc: Loc, ruleCodes: RuleCodes): void {
  const o = asObject(tool);
  if (!o) return;
  const code = asString(o.code) ?? `${String(loc[0])}[${String(loc[1])}]`;
  const config = asObject(o.config);
  const params = asObject(config?.params);
  asArray(params?.required)?.forEach((req, j) => {
    const at = [...loc, 'config', 'params', 'required', j];
    if (typeof req === 'string') refParameter(ctx, req, `Tool ${code} requires parameter '${req}'`, at);
    else {
      asArray(req)?.forEach((alt, k) => {
        if (typeof alt === 'string') {
          refParameter(
            ctx,
            alt,
            `Tool ${code} accepts parameter '${alt}' in an either-or group (required[${j}])`,
            [...at, k],
          );
        }
      });
    }
  });
  asArray(params?.optional)?.forEach((opt, j) => {
    if (typeof opt === 'string')
      refParameter(ctx, opt, `Tool ${code} lists optional parameter '${opt}'`, [
        ...loc,
        'config',
        'params',
        'optional',
        j,
      ]);
  });
  asArray(o.integrations)?.forEach((g, j) => {
    const ic = asString(asObject(g)?.code);
    if (ic !== undefined)
      refIntegration(ctx, ic, `Tool ${code} calls integration '${ic}'`, [...loc, 'integrations', j, 'code']);
  });
  const triggers = asObject(config?.triggers);
  if (triggers)
    checkCondition(ctx, triggers.when, [...loc, 'config', 'triggers', 'when'], {
      label: `The trigger of tool ${code}`,
      summary: false,
    });

  const rules = asObject(o.rules);
  checkSummaryMessages(ctx, asObject(rules?.summary), [...loc, 'rules', 'summary'], code);
  for (const [phase, lists, summary] of [
    ['pre', PRE_LISTS, false],
    ['summary', SUMMARY_LISTS, true],
  ] as const) {
    const group = asObject(rules?.[phase]);
    for (const list of lists) {
      asArray(group?.[list])?.forEach((r, j) => {
        checkRule(
          ctx,
          r,
          [...loc, 'rules', phase, list, j],
          `${code}.${phase}.${list}[${j}]`,
          summary,
          ruleCodes,
        );
      });
    }
  }
}

/**
 * In a summary list, the first message of a rule that holds closes the tool and later messages are
 * not said. A message after a rule that always holds (no `when`) and closes the tool with its own
 * message can never show: reported at that message. (Lint finds the cases that depend on values.)
 */
function checkSummaryMessages(
  ctx: ValidationContext,
  summary: Json | undefined,
  loc: Loc,
  tool: string,
): void {
  for (const list of SUMMARY_LISTS) {
    let closing: string | undefined;
    asArray(summary?.[list])?.forEach((r, j) => {
      const o = asObject(r);
      const then = asObject(o?.then);
      const action = asString(then?.action);
      const message = asString(then?.message);
      if (!o || !message?.trim() || (action !== undefined && GATING.has(action))) return;
      const id = asString(o.code) ?? `${tool}.summary.${list}[${j}]`;
      if (closing !== undefined) {
        report(
          ctx,
          'unreachable_message',
          `${id}'s message never reaches a reply: ${closing} comes first in summary.${list}, always holds (it has no condition) and its message closes ${tool} (only the first message of the summary is said). Put ${id} first, or give ${closing} a condition.`,
          [...loc, list, j, 'then', 'message'],
        );
      } else if (o.when === undefined || o.when === null) closing = id;
    });
  }
}

type RuleCodes = Map<string, Loc>;

const ACTIVATING = new Set(['ACTIVATE_ANOTHER_TOOL', 'ACTIVATE_SUB_TOOL', 'BLOCK_AND_ACTIVATE_ANOTHER_TOOL']);
/** Actions whose message blocks or hands over rather than closing the tool in a summary. */
const GATING = new Set(['BLOCK', ...ACTIVATING]);

function checkRule(
  ctx: ValidationContext,
  rule: unknown,
  loc: Loc,
  fallbackId: string,
  summary: boolean,
  ruleCodes: RuleCodes,
): void {
  const o = asObject(rule);
  if (!o) return;
  const code = asString(o.code);
  if (code !== undefined) {
    const first = ruleCodes.get(code);
    if (first) {
      report(
        ctx,
        'duplicate_rule',
        `Rule code '${code}' is used twice (${formatLoc(first)} and ${formatLoc(loc)}); rule codes identify rules in traces and must be unique.`,
        [...loc, 'code'],
      );
    } else ruleCodes.set(code, loc);
  }
  const name = code !== undefined ? `rule '${code}'` : `rule ${fallbackId}`;
  const Name = `R${name.slice(1)}`;
  checkCondition(ctx, o.when, [...loc, 'when'], { label: `The condition of ${name}`, summary });

  const then = asObject(o.then);
  const params = asObject(then?.params);
  for (const [key, verb] of [
    ['mandatory', 'required'],
    ['optional', 'optional'],
  ] as const) {
    asArray(params?.[key])?.forEach((p, j) => {
      if (typeof p === 'string')
        refParameter(ctx, p, `${Name} makes parameter '${p}' ${verb}`, [...loc, 'then', 'params', key, j]);
    });
  }
  const settings = asObject(then?.settings);
  const target = asString(settings?.tool);
  if (target !== undefined)
    refTool(ctx, target, `${Name} activates tool ${target}`, [...loc, 'then', 'settings', 'tool']);
  const activated = asArray(settings?.tools);
  activated?.forEach((t, j) => {
    const named = asString(asObject(t)?.name);
    // a tool may be named by its code or by its name
    if (named !== undefined && !ctx.toolNames.has(named.trim().toLowerCase()))
      refTool(ctx, named, `${Name} activates tool ${named}`, [
        ...loc,
        'then',
        'settings',
        'tools',
        j,
        'name',
      ]);
  });
  const action = asString(then?.action);
  if (action !== undefined && ACTIVATING.has(action) && target === undefined && !activated?.length) {
    report(
      ctx,
      'activation_without_tool',
      `${Name} is ${action} but names no tool to activate; add "settings": {"tools": [{"name": "TOOL_CODE", "description": "..."}]}.`,
      [...loc, 'then', 'action'],
    );
  }
  const integration = asString(settings?.integration);
  if (integration !== undefined) {
    refIntegration(ctx, integration, `${Name} calls integration '${integration}'`, [
      ...loc,
      'then',
      'settings',
      'integration',
    ]);
  }
  const message = asString(then?.message);
  if (message !== undefined) {
    spend(message.length);
    checkMessageLength(ctx, message, name, [...loc, 'then', 'message']);
    for (const ph of new Set(placeholders(message))) {
      if (ctx.parameters.has(ph)) continue;
      report(
        ctx,
        'unknown_placeholder',
        `The message of ${name} fills {{${ph}}}, which names no parameter, so it is shown as written.${suggestion(ph, ctx.parameters, 'parameters')}`,
        [...loc, 'then', 'message'],
      );
    }
  }

  if (o.applied_to !== undefined && o.applies_to !== undefined) {
    report(
      ctx,
      'alias_conflict',
      `${Name} has both applied_to and applies_to; keep one (applies_to is an alias). Only applied_to is read.`,
      [...loc, 'applies_to'],
    );
  }
  const key = o.applied_to !== undefined ? 'applied_to' : 'applies_to';
  asArray(o[key])?.forEach((t, j) => {
    if (typeof t === 'string') refTool(ctx, t, `${Name} applies to tool ${t}`, [...loc, key, j]);
  });
}
