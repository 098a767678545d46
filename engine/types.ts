/** Internal types of the engine (the service sees only contract.ts). */
import type { Entity, Integration, Parameter, Rule, Tool } from '../src/contract/bundle';
import type { normalizeBundle } from '../src/lib/bundle/normalize';

/** Parameter code → current value (JSON). A missing key means "not known". Made by `newValues` (no prototype). */
export type Values = Record<string, unknown>;

export type NormalizedBundle = ReturnType<typeof normalizeBundle>;

export type Awaiting = 'information' | 'confirmation' | 'blocked' | 'retry';

export interface Pending {
  tool: string;
  awaiting: Awaiting;
  /** Parameters asked for in the last reply (a bare answer goes to them first). */
  asked: string[];
  /** Tools suspended behind this one, resumed in this order once it proceeds. */
  resume: string[];
  /** The tool's values when confirmation was requested; a changed value needs a new confirmation. */
  snapshot?: string;
  /**
   * What a yes to the last reply confirms, and nothing else: the confirmations it asked for
   * (confirmation rules' ids, `<TOOL>.requires_confirmation`) and those given already for the same
   * values. Absent in a state written before it was kept: every confirmation.
   */
  confirming?: string[];
  /**
   * Tools that finished (their integrations succeeded) for this request in earlier turns: a
   * sub-tool among them is not run again until the request ends (the tool proceeds, is declined,
   * or another tool starts).
   */
  done?: string[];
}

/**
 * Where a value in the state came from: the user's words (`conversation`), an integration's
 * answer (`integration:<code>`), the user profile loaded up front (`profile:<code>`), a
 * computation (`computed`), or a state written before origins were recorded (`unrecorded`).
 */
export type Origin = string;

export interface EngineStateShape {
  values: Values;
  pending: Pending | null;
  /** Profile integrations already loaded into `values`. */
  profile_loaded: string[];
  /** Fingerprint of the bundle the previous turn ran with (null before the first turn). */
  bundle: string | null;
  /** Parameter code → where its value came from (null prototype). */
  origins: Record<string, Origin>;
}

export type RuleStage =
  | 'global'
  | 'constraint'
  | 'required_parameters'
  | 'missing_info'
  | 'success'
  | 'fail'
  | 'summary_missing_info';

export interface StagedRule {
  id: string;
  stage: RuleStage;
  rule: Rule;
}

export interface CompiledTool {
  tool: Tool;
  code: string;
  index: number;
  enabled: boolean;
  main: boolean;
  /** Required entries: a code, or an OR-group of codes. */
  required: (string | string[])[];
  optional: string[];
  /** Global rules that apply to it, then its own rules, in evaluation order. */
  globals: StagedRule[];
  pre: StagedRule[];
  requiredRules: StagedRule[];
  missingInfo: StagedRule[];
  success: StagedRule[];
  fail: StagedRule[];
  summaryMissingInfo: StagedRule[];
}

export interface CompiledBundle {
  bundle: NormalizedBundle;
  /** SHA-256 of the bundle's canonical JSON: a state records which bundle produced it. */
  fingerprint: string;
  name: string;
  params: Map<string, Parameter>;
  /** Parameters the user may supply (usage input, all or unset), in bundle order. */
  inputParams: Parameter[];
  entityOfParam: Map<string, Entity>;
  /** Parameter code → the path of its entity (`order.line-item` for a nested one), for trace keys. */
  entityKeyOfParam: Map<string, string>;
  entities: Map<string, Entity>;
  /** Parameters of user-profile entities. */
  profileParams: Set<string>;
  integrations: Map<string, Integration>;
  /** Integrations whose mapping fills only user-profile parameters: loaded into the state up front. */
  profileIntegrations: string[];
  tools: CompiledTool[];
  toolByCode: Map<string, CompiledTool>;
  /** Tool name (trimmed, lower-case) → tool: activations may name a tool by its name. */
  toolByName: Map<string, CompiledTool>;
  /** Word stem → (tool index → weight), for word-overlap scoring of main tools. */
  toolIndex: Map<string, Map<number, number>>;
}
