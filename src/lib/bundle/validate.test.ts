import { describe, expect, it } from 'vitest';
import { richBundle } from './rich-bundle.fixture';
import { BUNDLE_ISSUE_CODES, isRunnable, validateBundle, type BundleIssueCode } from './validate';

type Path = (string | number)[];
type Doc = Record<string, unknown>;

function container(doc: Doc, path: Path): Record<string | number, unknown> {
  let cur: unknown = doc;
  for (const seg of path) cur = (cur as Record<string | number, unknown>)[seg];
  return cur as Record<string | number, unknown>;
}
/** Sets the value at `path` (creating nothing: the parent must exist). */
function set(doc: Doc, path: Path, value: unknown): void {
  container(doc, path.slice(0, -1))[path[path.length - 1]!] = value;
}
function remove(doc: Doc, path: Path): void {
  delete container(doc, path.slice(0, -1))[path[path.length - 1]!];
}
function push(doc: Doc, path: Path, value: unknown): void {
  (container(doc, path) as unknown as unknown[]).push(value);
}
function fresh(): Doc {
  return JSON.parse(JSON.stringify(richBundle())) as Doc;
}

const DISPUTE = ['agent_tools', 0];
const WINDOW_RULE = [...DISPUTE, 'rules', 'pre', 'constraint', 0];
const WINDOW_LEAF = [...WINDOW_RULE, 'when'];

interface Case {
  name: string;
  mutate: (b: Doc) => void;
  code: BundleIssueCode;
  severity: 'error' | 'warning';
  loc: Path;
  message?: string | RegExp;
  /** Further issues the same change rightly causes (by code). */
  also?: BundleIssueCode[];
}

const cases: Case[] = [
  {
    name: 'a missing required field',
    mutate: (b) => remove(b, ['agent_tools', 2, 'code']),
    code: 'missing_field',
    severity: 'error',
    loc: ['agent_tools', 2, 'code'],
    message: 'agent_tools[2] has no "code", which is required.',
  },
  {
    name: 'a field of the wrong type',
    mutate: (b) => set(b, [...DISPUTE, 'config', 'params', 'required'], 'transaction-id'),
    code: 'wrong_type',
    severity: 'error',
    loc: [...DISPUTE, 'config', 'params', 'required'],
    message: /must be a list, not the text "transaction-id"/,
  },
  {
    name: 'a condition group of the wrong type (inside a union)',
    mutate: (b) => set(b, [...WINDOW_RULE, 'when'], { all: 'x' }),
    code: 'wrong_type',
    severity: 'error',
    loc: [...WINDOW_RULE, 'when', 'all'],
  },
  {
    name: 'a condition with none of the keys that decide its shape',
    mutate: (b) => set(b, [...WINDOW_RULE, 'when'], {}),
    code: 'wrong_type',
    severity: 'error',
    loc: [...WINDOW_RULE, 'when'],
    message: /must have one of the keys "all", "any", "not" or "method"/,
  },
  {
    name: 'a bad leaf deep inside not',
    mutate: (b) => set(b, [...WINDOW_RULE, 'when'], { not: { method: 5 } }),
    code: 'wrong_type',
    severity: 'error',
    loc: [...WINDOW_RULE, 'when', 'not', 'method'],
  },
  {
    name: 'an unknown rule action',
    mutate: (b) => set(b, [...WINDOW_RULE, 'then', 'action'], 'BLCK'),
    code: 'invalid_value',
    severity: 'error',
    loc: [...WINDOW_RULE, 'then', 'action'],
    message: /is the text "BLCK", which is not one of TEXT, .*\. Did you mean BLOCK\?/,
  },
  {
    name: 'an unknown schema version',
    mutate: (b) => set(b, ['schema_version'], 2),
    code: 'invalid_value',
    severity: 'error',
    loc: ['schema_version'],
  },
  {
    name: 'both agent_tools and tools',
    mutate: (b) => set(b, ['tools'], []),
    code: 'alias_conflict',
    severity: 'error',
    loc: ['tools'],
  },
  {
    name: 'both applied_to and applies_to',
    mutate: (b) => set(b, ['rules', 0, 'applies_to'], ['DISPUTE_CHARGE']),
    code: 'alias_conflict',
    severity: 'error',
    loc: ['rules', 0, 'applies_to'],
  },
  {
    name: 'a duplicate parameter code',
    mutate: (b) => push(b, ['parameters'], { code: 'amount', type: 'numeric' }),
    code: 'duplicate_parameter',
    severity: 'error',
    loc: ['parameters', 13, 'code'],
    message:
      "Parameter code 'amount' is defined twice (parameters[2] and parameters[13]); codes must be unique.",
  },
  {
    name: 'a duplicate entity name',
    mutate: (b) => push(b, ['entities'], { name: 'transaction' }),
    code: 'duplicate_entity',
    severity: 'error',
    loc: ['entities', 2, 'name'],
  },
  {
    name: 'a duplicate tool code',
    mutate: (b) => push(b, ['agent_tools'], { code: 'VERIFY_IDENTITY' }),
    code: 'duplicate_tool',
    severity: 'error',
    loc: ['agent_tools', 3, 'code'],
  },
  {
    name: 'a duplicate integration code',
    mutate: (b) => push(b, ['integrations'], { code: 'get-profile', type: 'RAG' }),
    code: 'duplicate_integration',
    severity: 'error',
    loc: ['integrations', 3, 'code'],
  },
  {
    name: 'a rule code used twice (global and in a tool)',
    mutate: (b) => set(b, [...WINDOW_RULE, 'code'], 'no-cards-abroad'),
    code: 'duplicate_rule',
    severity: 'error',
    loc: [...WINDOW_RULE, 'code'],
  },
  {
    name: 'a tool requiring an unknown parameter',
    mutate: (b) => set(b, [...DISPUTE, 'config', 'params', 'required', 0], 'transaction-dat'),
    code: 'unknown_parameter',
    severity: 'error',
    loc: [...DISPUTE, 'config', 'params', 'required', 0],
    message:
      "Tool DISPUTE_CHARGE requires parameter 'transaction-dat', which is not defined. Did you mean 'transaction-date'?",
  },
  {
    name: 'an unknown parameter in an OR-group',
    mutate: (b) => set(b, [...DISPUTE, 'config', 'params', 'required', 2, 1], 'fone'),
    code: 'unknown_parameter',
    severity: 'error',
    loc: [...DISPUTE, 'config', 'params', 'required', 2, 1],
    message: /either-or group .*Did you mean 'phone'\?/,
  },
  {
    name: 'an unknown optional parameter',
    mutate: (b) => set(b, [...DISPUTE, 'config', 'params', 'optional', 0], 'nope'),
    code: 'unknown_parameter',
    severity: 'error',
    loc: [...DISPUTE, 'config', 'params', 'optional', 0],
  },
  {
    name: "an unknown parameter as an entity's identifier",
    mutate: (b) => set(b, ['entities', 1, 'identifier'], 'tx-id'),
    code: 'unknown_parameter',
    severity: 'error',
    loc: ['entities', 1, 'identifier'],
  },
  {
    name: "an unknown parameter in an entity's parameters",
    mutate: (b) => set(b, ['entities', 1, 'parameters', 1], 'amt'),
    code: 'unknown_parameter',
    severity: 'error',
    loc: ['entities', 1, 'parameters', 1],
  },
  {
    name: 'an unknown parameter read by a rule condition',
    mutate: (b) => set(b, [...WINDOW_LEAF, 'params'], 'transaction-day'),
    code: 'unknown_parameter',
    severity: 'error',
    loc: [...WINDOW_LEAF, 'params'],
    message:
      "The condition of rule 'dispute-window' reads parameter 'transaction-day', which is not defined. Did you mean 'transaction-date'?",
  },
  {
    name: 'an unknown parameter read by a trigger',
    mutate: (b) =>
      set(b, [...DISPUTE, 'config', 'triggers', 'when', 'any', 1, 'params', 0], 'nothing-like-it'),
    code: 'unknown_parameter',
    severity: 'error',
    loc: [...DISPUTE, 'config', 'triggers', 'when', 'any', 1, 'params', 0],
    message: /^The trigger of tool DISPUTE_CHARGE reads parameter 'nothing-like-it'/,
  },
  {
    name: 'an unknown parameter in a {"ref"} value',
    mutate: (b) =>
      set(b, [...DISPUTE, 'rules', 'pre', 'constraint', 2, 'when', 'all', 1, 'value', 'ref'], 'feee'),
    code: 'unknown_parameter',
    severity: 'error',
    loc: [...DISPUTE, 'rules', 'pre', 'constraint', 2, 'when', 'all', 1, 'value', 'ref'],
  },
  {
    name: 'an unknown parameter in then.params',
    mutate: (b) =>
      set(
        b,
        [...DISPUTE, 'rules', 'pre', 'required_parameters', 0, 'then', 'params', 'mandatory', 0],
        'date',
      ),
    code: 'unknown_parameter',
    severity: 'error',
    loc: [...DISPUTE, 'rules', 'pre', 'required_parameters', 0, 'then', 'params', 'mandatory', 0],
    message: /^Rule DISPUTE_CHARGE\.pre\.required_parameters\[0\] makes parameter 'date' required/,
  },
  {
    name: 'an unknown parameter in an entity-param leaf',
    mutate: (b) =>
      set(
        b,
        [...DISPUTE, 'rules', 'pre', 'constraint', 1, 'when', 'all', 1, 'not', 'params', 'param'],
        'verified',
      ),
    code: 'unknown_parameter',
    severity: 'error',
    loc: [...DISPUTE, 'rules', 'pre', 'constraint', 1, 'when', 'all', 1, 'not', 'params', 'param'],
  },
  {
    name: 'an unknown parameter in a computation formula',
    mutate: (b) => set(b, ['parameters', 8, 'computation'], '{{amont}} * 0.02'),
    code: 'unknown_parameter',
    severity: 'error',
    loc: ['parameters', 8, 'computation'],
    message:
      /The formula computing 'fee' uses parameter 'amont', which is not defined\. Did you mean 'amount'\?/,
  },
  {
    name: 'a computations entry filling an unknown parameter',
    mutate: (b) => set(b, ['computations', 0, 'parameter'], 'totl'),
    code: 'unknown_parameter',
    severity: 'error',
    loc: ['computations', 0, 'parameter'],
    also: ['computed_without_computation'], // 'total' is left without a computation
  },
  {
    name: 'an integration mapping into an unknown parameter',
    mutate: (b) =>
      set(b, ['integrations', 0, 'settings', 'response_mapping'], { verified: 'profile.verified' }),
    code: 'unknown_parameter',
    severity: 'error',
    loc: ['integrations', 0, 'settings', 'response_mapping', 'verified'],
  },
  {
    name: 'an unknown sub-entity',
    mutate: (b) => set(b, ['entities', 1, 'sub_entities', 0], 'user_profile'),
    code: 'unknown_entity',
    severity: 'error',
    loc: ['entities', 1, 'sub_entities', 0],
    message: /Did you mean 'user-profile'\?/,
  },
  {
    name: 'an unknown entity in a condition',
    mutate: (b) => set(b, [...DISPUTE, 'rules', 'summary', 'success', 0, 'when', 'params'], 'transactions'),
    code: 'unknown_entity',
    severity: 'error',
    loc: [...DISPUTE, 'rules', 'summary', 'success', 0, 'when', 'params'],
  },
  {
    name: 'a global rule applied to an unknown tool',
    mutate: (b) => set(b, ['rules', 0, 'applied_to', 0], 'DISPUTE_CHARGES'),
    code: 'unknown_tool',
    severity: 'error',
    loc: ['rules', 0, 'applied_to', 0],
    message:
      "Rule 'no-cards-abroad' applies to tool DISPUTE_CHARGES, which is not defined. Did you mean DISPUTE_CHARGE?",
  },
  {
    name: 'the applies_to alias naming an unknown tool',
    mutate: (b) => set(b, ['rules', 1, 'applies_to'], ['NOPE']),
    code: 'unknown_tool',
    severity: 'error',
    loc: ['rules', 1, 'applies_to', 0],
  },
  {
    name: 'a rule activating an unknown tool',
    mutate: (b) =>
      set(b, [...DISPUTE, 'rules', 'pre', 'constraint', 1, 'then', 'settings', 'tool'], 'VERIFY'),
    code: 'unknown_tool',
    severity: 'error',
    loc: [...DISPUTE, 'rules', 'pre', 'constraint', 1, 'then', 'settings', 'tool'],
  },
  {
    name: 'a computation applied to an unknown tool',
    mutate: (b) => set(b, ['computations', 0, 'applied_to', 0], 'X'),
    code: 'unknown_tool',
    severity: 'error',
    loc: ['computations', 0, 'applied_to', 0],
  },
  {
    name: 'a tool calling an unknown integration',
    mutate: (b) => set(b, [...DISPUTE, 'integrations', 1, 'code'], 'file-disput'),
    code: 'unknown_integration',
    severity: 'error',
    loc: [...DISPUTE, 'integrations', 1, 'code'],
    message:
      "Tool DISPUTE_CHARGE calls integration 'file-disput', which is not defined. Did you mean 'file-dispute'?",
  },
  {
    name: 'a rule calling an unknown integration',
    mutate: (b) =>
      set(b, [...DISPUTE, 'rules', 'summary', 'success', 0, 'then', 'settings', 'integration'], 'zzz'),
    code: 'unknown_integration',
    severity: 'error',
    loc: [...DISPUTE, 'rules', 'summary', 'success', 0, 'then', 'settings', 'integration'],
  },
  {
    name: 'an unknown condition method',
    mutate: (b) => set(b, [...WINDOW_LEAF, 'method'], 'param_valu'),
    code: 'unknown_method',
    severity: 'error',
    loc: [...WINDOW_LEAF, 'method'],
    message:
      "The condition of rule 'dispute-window' uses method 'param_valu', which does not exist. Did you mean 'param_value'?",
  },
  {
    name: 'a summary-only method in a pre rule',
    mutate: (b) =>
      set(b, [...WINDOW_LEAF], {
        method: 'number_of_entities',
        params: 'transaction',
        operation: 'gt',
        value: 2,
      }),
    code: 'method_outside_summary',
    severity: 'error',
    loc: [...WINDOW_LEAF, 'method'],
  },
  {
    name: 'an unknown operation',
    mutate: (b) => set(b, [...WINDOW_LEAF, 'operation'], 'more_than_days'),
    code: 'unknown_operation',
    severity: 'error',
    loc: [...WINDOW_LEAF, 'operation'],
    message: /Did you mean 'more_than_x_days'\?/,
  },
  {
    name: 'gt on an enum',
    mutate: (b) =>
      set(b, [...WINDOW_LEAF], { method: 'param_value', params: 'reason', operation: 'gt', value: 1 }),
    code: 'operation_type_mismatch',
    severity: 'error',
    loc: [...WINDOW_LEAF, 'operation'],
    message: /applies 'gt' to parameter 'reason', which is an enum; 'gt' compares numbers or dates/,
  },
  {
    name: 'more_than_x_days on a string',
    mutate: (b) => set(b, [...WINDOW_LEAF, 'params'], 'transaction-id'),
    code: 'operation_type_mismatch',
    severity: 'error',
    loc: [...WINDOW_LEAF, 'operation'],
    message: /'more_than_x_days' compares dates/,
  },
  {
    name: 'a legacy method whose default operation does not fit (about on a number)',
    mutate: (b) => set(b, [...WINDOW_LEAF], { method: 'users-question', operation: 'gt', value: 3 }),
    code: 'operation_type_mismatch',
    severity: 'error',
    loc: [...WINDOW_LEAF, 'operation'],
  },
  {
    name: 'between with one value',
    mutate: (b) => set(b, [...DISPUTE, 'rules', 'pre', 'constraint', 2, 'when', 'all', 0, 'value'], [0]),
    code: 'between_arity',
    severity: 'error',
    loc: [...DISPUTE, 'rules', 'pre', 'constraint', 2, 'when', 'all', 0, 'value'],
    message: /uses 'between' with 1 value; it needs exactly two/,
  },
  {
    name: 'between with no value',
    mutate: (b) => remove(b, [...DISPUTE, 'rules', 'pre', 'constraint', 2, 'when', 'all', 0, 'value']),
    code: 'between_arity',
    severity: 'error',
    loc: [...DISPUTE, 'rules', 'pre', 'constraint', 2, 'when', 'all', 0, 'value'],
  },
  {
    name: 'between with its bounds reversed',
    mutate: (b) => set(b, [...DISPUTE, 'rules', 'pre', 'constraint', 2, 'when', 'all', 0, 'value'], [500, 0]),
    code: 'between_order',
    severity: 'error',
    loc: [...DISPUTE, 'rules', 'pre', 'constraint', 2, 'when', 'all', 0, 'value'],
    message: /uses 'between' with 500 above 0; write the low bound first: \[0, 500\]/,
  },
  {
    name: 'a comparison without its value',
    mutate: (b) => remove(b, [...WINDOW_LEAF, 'value']),
    code: 'missing_operand',
    severity: 'error',
    loc: [...WINDOW_LEAF, 'value'],
    message: /without a value to compare with/,
  },
  {
    name: 'an entity condition reading a parameter its entity does not hold',
    mutate: (b) =>
      set(
        b,
        [...DISPUTE, 'rules', 'pre', 'constraint', 1, 'when', 'all', 1, 'not', 'params', 'param'],
        'confirmed',
      ),
    code: 'unknown_entity_parameter',
    severity: 'error',
    loc: [...DISPUTE, 'rules', 'pre', 'constraint', 1, 'when', 'all', 1, 'not', 'params', 'param'],
    message: /reads parameter 'confirmed' of entity 'user-profile', which does not hold it/,
  },
  {
    name: 'a formula that does not parse',
    mutate: (b) => set(b, ['parameters', 8, 'computation'], '{{amount}} * * 2'),
    code: 'formula_invalid',
    severity: 'error',
    loc: ['parameters', 8, 'computation'],
    message: /cannot run: '\*' at character 14 where a value is expected/,
  },
  {
    name: 'two formulas for one parameter',
    mutate: (b) =>
      push(b, ['computations'], { code: 'OTHER_FEE', parameter: 'fee', formula: '{{amount}} * 0.5' }),
    code: 'computation_conflict',
    severity: 'error',
    loc: ['computations', 1, 'formula'],
  },
  {
    name: 'computed without computation',
    mutate: (b) => remove(b, ['parameters', 8, 'computation']),
    code: 'computed_without_computation',
    severity: 'error',
    loc: ['parameters', 8, 'computation'],
  },
  {
    name: 'a number JSON cannot hold (1e309 parses as Infinity)',
    mutate: (b) => set(b, [...WINDOW_LEAF, 'value'], JSON.parse('1e309')),
    code: 'non_finite_number',
    severity: 'error',
    loc: [...WINDOW_LEAF, 'value'],
    message:
      /rules\.pre\.constraint\[0\]\.when\.value is a number too large for JSON \(it reads as Infinity\)/,
  },
  {
    name: 'more work than one request may use',
    mutate: (b) => set(b, ['rules', 0, 'then', 'message'], 'x'.repeat(6_000_000)),
    code: 'bundle_too_complex',
    severity: 'error',
    loc: [],
    message: /too complex: checking the bundle took more than 5,000,000 steps/,
  },
  {
    name: 'a computation cycle',
    mutate: (b) => set(b, ['parameters', 8, 'computation'], '{{fee}} + 1'),
    code: 'computation_cycle',
    severity: 'error',
    loc: ['parameters', 8, 'computation'],
  },
  {
    name: 'an enum compared with a value it does not have',
    mutate: (b) =>
      set(b, [...DISPUTE, 'rules', 'pre', 'required_parameters', 1, 'when', 'value', 1], 'duplicat'),
    code: 'value_not_in_enum',
    severity: 'warning',
    loc: [...DISPUTE, 'rules', 'pre', 'required_parameters', 1, 'when', 'value', 1],
    message: /Did you mean "duplicate"\?/,
  },
  {
    name: 'an enum without values',
    mutate: (b) => remove(b, ['parameters', 3, 'values']),
    code: 'enum_without_values',
    severity: 'warning',
    loc: ['parameters', 3, 'values'],
  },
  {
    name: 'a computation on a parameter that is not computed',
    mutate: (b) => set(b, ['parameters', 2, 'computation'], '1'),
    code: 'computation_ignored',
    severity: 'warning',
    loc: ['parameters', 2, 'computation'],
  },
  {
    name: 'a message placeholder naming no parameter',
    mutate: (b) => set(b, [...WINDOW_RULE, 'then', 'message'], 'Too late for {{transaction_date}}.'),
    code: 'unknown_placeholder',
    severity: 'warning',
    loc: [...WINDOW_RULE, 'then', 'message'],
    message: /Did you mean 'transaction-date'\?/,
  },
  {
    name: 'a tool code not in SCREAMING_SNAKE_CASE',
    mutate: (b) => {
      set(b, ['agent_tools', 2, 'code'], 'listTransactions');
    },
    code: 'tool_code_style',
    severity: 'warning',
    loc: ['agent_tools', 2, 'code'],
    message: "Tool code 'listTransactions' should be SCREAMING_SNAKE_CASE, e.g. LIST_TRANSACTIONS.",
  },
  {
    name: 'a parameter code not in kebab-case',
    mutate: (b) => set(b, ['parameters', 11, 'code'], 'Transactions_List'),
    code: 'parameter_code_style',
    severity: 'warning',
    loc: ['parameters', 11, 'code'],
    message: "Parameter code 'Transactions_List' should be kebab-case, e.g. 'transactions-list'.",
  },
  {
    name: 'an integration code not in kebab-case',
    mutate: (b) => {
      set(b, ['integrations', 2, 'code'], 'policyDocs');
      set(b, ['agent_tools', 2, 'integrations', 0, 'code'], 'policyDocs');
    },
    code: 'integration_code_style',
    severity: 'warning',
    loc: ['integrations', 2, 'code'],
  },
  {
    name: 'a number of days written as a word (the rule could never be evaluated)',
    mutate: (b) => set(b, [...WINDOW_LEAF, 'value'], 'thirty'),
    code: 'operand_type_mismatch',
    severity: 'error',
    loc: [...WINDOW_LEAF, 'value'],
    message: /compares the days of 'more_than_x_days' with "thirty", which is not a number of days/,
  },
  {
    name: 'a number where a date is compared',
    mutate: (b) =>
      set(b, [...WINDOW_LEAF], {
        method: 'param_value',
        params: 'transaction-date',
        operation: 'gt',
        value: 8,
      }),
    code: 'operand_type_mismatch',
    severity: 'error',
    loc: [...WINDOW_LEAF, 'value'],
    message:
      /parameter 'transaction-date' \(date\) with 8, which is not a date \(YYYY-MM-DD\).*more_than_x_days/,
  },
  {
    name: 'a text bound of between on a number',
    mutate: (b) =>
      set(b, [...DISPUTE, 'rules', 'pre', 'constraint', 2, 'when', 'all', 0, 'value'], [0, 'five']),
    code: 'operand_type_mismatch',
    severity: 'error',
    loc: [...DISPUTE, 'rules', 'pre', 'constraint', 2, 'when', 'all', 0, 'value', 1],
  },
  {
    name: 'a number compared with a reference to a text parameter',
    mutate: (b) =>
      set(b, [...DISPUTE, 'rules', 'pre', 'constraint', 2, 'when', 'all', 1, 'value'], { ref: 'email' }),
    code: 'operand_type_mismatch',
    severity: 'error',
    loc: [...DISPUTE, 'rules', 'pre', 'constraint', 2, 'when', 'all', 1, 'value', 'ref'],
    message: /with parameter 'email', which is a string; it needs a number/,
  },
  {
    name: 'a boolean compared with a word that is not true or false',
    mutate: (b) =>
      set(b, [...DISPUTE, 'rules', 'pre', 'constraint', 1, 'when', 'all', 1, 'not', 'value'], 'verified'),
    code: 'operand_type_mismatch',
    severity: 'error',
    loc: [...DISPUTE, 'rules', 'pre', 'constraint', 1, 'when', 'all', 1, 'not', 'value'],
  },
  {
    name: 'an activation through settings.tools naming an unknown tool',
    mutate: (b) =>
      set(b, [...DISPUTE, 'rules', 'pre', 'constraint', 1, 'then', 'settings'], {
        tools: [{ name: 'VERIFY_IDENTIY', description: 'Verify first' }],
      }),
    code: 'unknown_tool',
    severity: 'error',
    loc: [...DISPUTE, 'rules', 'pre', 'constraint', 1, 'then', 'settings', 'tools', 0, 'name'],
    message: /activates tool VERIFY_IDENTIY, which is not defined\. Did you mean VERIFY_IDENTITY\?/,
  },
  {
    name: 'a summary message after one that always holds (only the first message is said)',
    mutate: (b) => {
      push(b, [...DISPUTE, 'rules', 'summary', 'success'], {
        when: null,
        then: { action: 'TEXT', message: 'All done.' },
      });
      push(b, [...DISPUTE, 'rules', 'summary', 'success'], {
        code: 'ANYTHING_ELSE',
        when: { method: 'param_value', params: 'amount', operation: 'gt', value: 0 },
        then: { action: 'TEXT', message: 'Anything else?' },
      });
    },
    code: 'unreachable_message',
    severity: 'warning',
    loc: [...DISPUTE, 'rules', 'summary', 'success', 2, 'then', 'message'],
    message:
      "ANYTHING_ELSE's message never reaches a reply: DISPUTE_CHARGE.summary.success[1] comes first in summary.success, always holds (it has no condition) and its message closes DISPUTE_CHARGE (only the first message of the summary is said). Put ANYTHING_ELSE first, or give DISPUTE_CHARGE.summary.success[1] a condition.",
  },
  {
    name: 'a fifth starter suggestion (a new thread offers four)',
    mutate: (b) => set(b, ['general_settings', 'starter_suggestions'], ['a', 'b', 'c', 'd', 'e']),
    code: 'starter_never_offered',
    severity: 'warning',
    loc: ['general_settings', 'starter_suggestions', 4],
    message: /is never offered: a new thread offers the first 4 starters only/,
  },
  {
    name: 'an activation that names no tool',
    mutate: (b) => remove(b, ['agent_tools', 1, 'rules', 'pre', 'constraint', 0, 'then', 'settings']),
    code: 'activation_without_tool',
    severity: 'warning',
    loc: ['agent_tools', 1, 'rules', 'pre', 'constraint', 0, 'then', 'action'],
  },
  {
    name: 'a current-shape response mapping into an unknown parameter',
    mutate: (b) =>
      set(b, ['integrations', 0, 'settings', 'response_mapping'], {
        entities: [
          {
            code: 'user-profile',
            paths: ['profile'],
            mappings: [{ key: 'verified', param: 'identity-verifed' }],
          },
        ],
      }),
    code: 'unknown_parameter',
    severity: 'error',
    loc: ['integrations', 0, 'settings', 'response_mapping', 'entities', 0, 'mappings', 0, 'param'],
  },
  {
    name: 'a current-shape response mapping into an unknown entity',
    mutate: (b) =>
      set(b, ['integrations', 0, 'settings', 'response_mapping'], {
        entities: [
          {
            code: 'profile',
            paths: ['profile'],
            mappings: [{ key: 'verified', param: 'identity-verified' }],
          },
        ],
      }),
    code: 'unknown_entity',
    severity: 'error',
    loc: ['integrations', 0, 'settings', 'response_mapping', 'entities', 0, 'code'],
  },
  {
    name: 'a request field reading an unknown parameter',
    mutate: (b) =>
      set(
        b,
        ['integrations', 1, 'settings', 'request_schema'],
        [{ key: 'txn', required: true, type: 'STRING', params: ['transaction-ids'] }],
      ),
    code: 'unknown_parameter',
    severity: 'error',
    loc: ['integrations', 1, 'settings', 'request_schema', 0, 'params', 0],
  },
  {
    name: 'a nested sub-entity including an unknown parameter',
    mutate: (b) =>
      push(b, ['entities', 1, 'sub_entities'], {
        name: 'merchant',
        parameters: ['merchant-name'],
      }),
    code: 'unknown_parameter',
    severity: 'error',
    loc: ['entities', 1, 'sub_entities', 1, 'parameters', 0],
  },
];

describe('validateBundle', () => {
  it('finds nothing wrong with a valid bundle that uses every feature', () => {
    expect(validateBundle(richBundle())).toEqual([]);
  });

  it('accepts every shape real projects use (docs/bundle/README.md)', () => {
    const doc = fresh();
    set(
      doc,
      ['entities', 1, 'sub_entities'],
      [
        'user-profile',
        {
          name: 'merchant',
          parameters: ['tags'],
          sub_entities: [
            {
              name: 'merchant-card',
              identifier: 'card',
              parameters: ['card'],
              sub_entities: ['transaction'],
            },
          ],
        },
      ],
    );
    set(doc, [...DISPUTE, 'rules', 'pre', 'constraint', 1, 'then', 'settings'], {
      tools: [{ name: 'Verify identity', description: 'by its name', guidelines: 'ask for the email' }],
    });
    set(doc, ['integrations', 0, 'settings'], {
      endpoint: { url: 'https://bank.example/profile', method: 'GET', authentication: { type: 'bearer' } },
      request_schema: [
        { key: 'txn', required: true, type: 'STRING', params: ['transaction-id'], value_source: 'param' },
        { key: 'who', type: 'OBJECT', entities: ['user-profile'] },
        { key: 'channel', type: 'ENUM', values: ['web', 'app'], default_value: 'web' },
      ],
      response_mapping: {
        entities: [
          {
            code: 'user-profile',
            identifier: 'email',
            paths: ['profiles'],
            mappings: [{ key: 'verified', param: 'identity-verified' }],
          },
        ],
      },
      test_curl: 'curl https://bank.example/profile',
      query_guidelines: 'by email',
      response_parser: 'return response.data',
      test_curl_response: { profiles: [{ verified: true }] },
    });
    set(doc, ['integrations', 1, 'settings', 'response_mapping'], {
      parameters: [{ mappings: [{ param: 'phone' }, { param: 'email', key: 'contact.email' }] }],
      entities: [],
      resources: [],
    });
    set(doc, ['integrations', 2, 'settings'], {
      response_mapping: {
        customer: [
          {
            name: 'Customer',
            paths: ['data'],
            mappings: [
              { key: ['contact', 'phone'], label: 'Phone', param: 'phone', show: true, sample: '+1 555' },
            ],
          },
        ],
      },
    });
    expect(validateBundle(doc)).toEqual([]);
  });

  it('accepts an empty bundle', () => {
    expect(validateBundle({})).toEqual([]);
  });

  it.each([[null], [[]], ['{}'], [42]])('rejects %j as not an object', (doc) => {
    const issues = validateBundle(doc);
    expect(issues).toEqual([
      { code: 'not_an_object', severity: 'error', loc: [], message: expect.stringContaining('JSON object') },
    ]);
  });

  it.each(cases)('reports $name', ({ mutate, code, severity, loc, message, also = [] }) => {
    const doc = fresh();
    mutate(doc);
    const issues = validateBundle(doc);
    expect(issues).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ code, severity, loc }),
        ...also.map((c) => expect.objectContaining({ code: c })),
      ]),
    );
    expect(issues).toHaveLength(1 + also.length);
    const main = issues.find((i) => i.code === code)!;
    if (typeof message === 'string') expect(main.message).toBe(message);
    else if (message) expect(main.message).toMatch(message);
  });

  it('has a test case for every issue code, and each code has a fixed severity', () => {
    const tested = new Set(cases.map((c) => c.code).concat('not_an_object'));
    expect([...tested].sort()).toEqual(Object.keys(BUNDLE_ISSUE_CODES).sort());
    for (const c of cases) expect(BUNDLE_ISSUE_CODES[c.code].severity).toBe(c.severity);
  });

  it('reports every problem at once', () => {
    const doc = fresh();
    set(doc, [...DISPUTE, 'config', 'params', 'required', 0], 'transaction-dat');
    set(doc, [...WINDOW_LEAF, 'operation'], 'nope');
    set(doc, ['rules', 0, 'then', 'action'], 'SHOUT');
    push(doc, ['parameters'], { code: 'amount', type: 'numeric' });
    expect(
      validateBundle(doc)
        .map((i) => i.code)
        .sort(),
    ).toEqual(['duplicate_parameter', 'invalid_value', 'unknown_operation', 'unknown_parameter']);
  });

  it('reports both members of a computation cycle, naming the cycle', () => {
    const doc = fresh();
    set(doc, ['parameters', 8, 'computation'], '{{total}} * 0.02');
    const issues = validateBundle(doc);
    expect(issues.map((i) => i.loc)).toEqual([
      ['parameters', 8, 'computation'],
      ['computations', 0, 'formula'],
    ]);
    expect(issues[0]!.message).toContain("'fee' → 'total' → 'fee'");
  });

  it('names a self-referencing parameter as its own cycle', () => {
    const doc = fresh();
    set(doc, ['parameters', 8, 'computation'], '{{fee}} + 1');
    expect(validateBundle(doc)[0]!.message).toContain("'fee' → 'fee'");
  });

  it('accepts the tools alias in place of agent_tools, with locs into it', () => {
    const doc = fresh();
    set(doc, ['tools'], doc.agent_tools);
    remove(doc, ['agent_tools']);
    expect(validateBundle(doc)).toEqual([]);
    set(doc, ['tools', 0, 'config', 'params', 'optional', 0], 'nope');
    expect(validateBundle(doc)).toEqual([
      expect.objectContaining({
        code: 'unknown_parameter',
        loc: ['tools', 0, 'config', 'params', 'optional', 0],
      }),
    ]);
  });

  it('accepts every legacy kebab-case method', () => {
    const doc = fresh();
    const legacy = [
      { method: 'existing-parameters-in-conversation', params: ['amount'] },
      { method: 'missing-parameters-in-conversation', params: ['email'] },
      { method: 'users-question', operation: 'about', value: 'fees' },
      {
        method: 'user-profile',
        params: { entity: 'user-profile', param: 'identity-verified' },
        operation: 'eq',
        value: true,
      },
      { method: 'tool-required-params-filled', params: ['transaction-id', 'reason'] },
    ];
    set(doc, [...WINDOW_RULE, 'when'], { all: legacy });
    expect(validateBundle(doc)).toEqual([]);
  });

  it('still checks references in a bundle with schema errors elsewhere', () => {
    const doc = fresh();
    set(doc, ['general_settings'], 'not an object');
    set(doc, [...DISPUTE, 'integrations', 0, 'code'], 'nope');
    expect(validateBundle(doc).map((i) => i.code)).toEqual(['wrong_type', 'unknown_integration']);
  });

  it('lists the defined names when there is no close match and few of them', () => {
    const doc = fresh();
    set(doc, [...DISPUTE, 'integrations', 0, 'code'], 'zzzzzzzzzz');
    expect(validateBundle(doc)[0]!.message).toContain(
      "Defined integrations: 'get-profile', 'file-dispute', 'policy-docs'.",
    );
  });
});

describe('isRunnable', () => {
  it('allows warnings but not errors', () => {
    const warningsOnly = validateBundle({ parameters: [{ code: 'A_B', type: 'string' }] });
    expect(warningsOnly.length).toBeGreaterThan(0);
    expect(isRunnable(warningsOnly)).toBe(true);
    expect(isRunnable(validateBundle([]))).toBe(false);
  });
});
