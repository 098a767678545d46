/** Internal types of the engine (the service sees only contract.ts). */
import type { Entity, Integration, Parameter, Rule, Tool } from '../../src/contract/bundle';
import type { normalizeBundle } from '../../src/lib/bundle/normalize';

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
}

export interface EngineStateShape {
  values: Values;
  pending: Pending | null;
  /** Profile integrations already loaded into `values`. */
  profile_loaded: string[];
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
  name: string;
  params: Map<string, Parameter>;
  /** Parameters the user may supply (usage input, all or unset), in bundle order. */
  inputParams: Parameter[];
  entityOfParam: Map<string, Entity>;
  entities: Map<string, Entity>;
  /** Parameters of user-profile entities. */
  profileParams: Set<string>;
  integrations: Map<string, Integration>;
  /** Integrations whose mapping fills only user-profile parameters: loaded into the state up front. */
  profileIntegrations: string[];
  tools: CompiledTool[];
  toolByCode: Map<string, CompiledTool>;
  /** Word stem → (tool index → weight), for word-overlap scoring of main tools. */
  toolIndex: Map<string, Map<number, number>>;
}
