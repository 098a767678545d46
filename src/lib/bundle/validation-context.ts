/**
 * What the semantic checks share: the definitions found in the bundle (parameters, entities,
 * tools, integrations), the issue list, and reference checks that report a dangling name with a
 * "Did you mean ...?" hint. The checks read the raw document defensively, so they still run (and
 * report) where the schema found problems elsewhere.
 */
import type { BundleIssue } from '../../contract/api';
import type { ParameterType } from './operation-types';
import { bundleIssue, type BundleIssueCode, type Loc } from './issue-codes';
import { suggestion } from './suggest';

export type Json = Record<string, unknown>;

export const asObject = (v: unknown): Json | undefined =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Json) : undefined;
export const asArray = (v: unknown): unknown[] | undefined => (Array.isArray(v) ? v : undefined);
export const asString = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

export interface ParameterInfo {
  code: string;
  type: ParameterType | undefined;
  values: string[] | undefined;
  usage: string | undefined;
  loc: Loc;
}

export interface ValidationContext {
  doc: Json;
  issues: BundleIssue[];
  parameters: Map<string, ParameterInfo>;
  entities: Set<string>;
  tools: Set<string>;
  /** Tool names (trimmed, lower-case): an activation may name a tool by its name. */
  toolNames: Set<string>;
  integrations: Set<string>;
}

export function report(ctx: ValidationContext, code: BundleIssueCode, message: string, loc: Loc): void {
  ctx.issues.push(bundleIssue(code, message, loc));
}

/**
 * Reports `name` when `known` does not hold it. `sentence` is the message up to and including
 * the name, e.g. "Tool DISPUTE_CHARGE requires parameter 'transaction-dat'".
 */
function checkRef(
  ctx: ValidationContext,
  code: BundleIssueCode,
  known: ReadonlySet<string> | ReadonlyMap<string, unknown>,
  plural: string,
  name: string,
  sentence: string,
  loc: Loc,
  quote: string,
): boolean {
  if (known.has(name)) return true;
  report(
    ctx,
    code,
    `${sentence}, which is not defined.${suggestion(name, [...known.keys()], plural, quote)}`,
    loc,
  );
  return false;
}

export const refParameter = (ctx: ValidationContext, name: string, sentence: string, loc: Loc) =>
  checkRef(ctx, 'unknown_parameter', ctx.parameters, 'parameters', name, sentence, loc, "'");
export const refEntity = (ctx: ValidationContext, name: string, sentence: string, loc: Loc) =>
  checkRef(ctx, 'unknown_entity', ctx.entities, 'entities', name, sentence, loc, "'");
export const refTool = (ctx: ValidationContext, name: string, sentence: string, loc: Loc) =>
  checkRef(ctx, 'unknown_tool', ctx.tools, 'tools', name, sentence, loc, '');
export const refIntegration = (ctx: ValidationContext, name: string, sentence: string, loc: Loc) =>
  checkRef(ctx, 'unknown_integration', ctx.integrations, 'integrations', name, sentence, loc, "'");

/** The `{{param-code}}` placeholders of a formula or message, with their positions. */
export function placeholders(text: string): string[] {
  return [...text.matchAll(/\{\{\s*([^{}]+?)\s*\}\}/g)].map((m) => m[1]!);
}
