/**
 * The agent settings bundle (bundle mode), as zod schemas.
 *
 * One document shared by the browser (editor, validator) and the reference service (422 checks,
 * engine). Objects are loose: keys this schema does not know are kept, because real agents'
 * bundles carry more than the reference engine reads. Every field carries a description, which
 * the JSON Schema export turns into the editor's hover documentation.
 */
import { z } from 'zod';

export const PARAMETER_TYPES = [
  'string',
  'numeric',
  'date',
  'boolean',
  'enum',
  'object',
  'list_of_objects',
  'array',
] as const;
const PARAMETER_USAGES = ['input', 'output', 'all', 'computed'] as const;
const ENTITY_TYPES = ['normal', 'user-profile'] as const;
const INTEGRATION_TYPES = ['API', 'RAG', 'MCP', 'INTERNAL_CONTEXT', 'STRUCTURED', 'GEN_AI'] as const;
export const RULE_ACTIONS = [
  'TEXT',
  'ASK_A_QUESTION',
  'API',
  'BLOCK',
  'ACTIVATE_ANOTHER_TOOL',
  'ACTIVATE_SUB_TOOL',
  'BLOCK_AND_ACTIVATE_ANOTHER_TOOL',
  'ADD_REQUIRED_PARAM',
  'ADD_OPTIONAL_PARAM',
  'RETRY',
] as const;
export const CONDITION_METHODS = [
  'param_value',
  'entity_param',
  'entity_param_referenced',
  'param_extracted_current',
  'number_of_entities',
  'entity_param_value',
] as const;
/** The older kebab-case vocabulary, accepted and mapped onto the methods above by the validator and engine. */
export const LEGACY_CONDITION_METHODS = [
  'existing-parameters-in-conversation',
  'missing-parameters-in-conversation',
  'users-question',
  'user-profile',
  'tool-required-params-filled',
] as const;
export const CONDITION_OPERATIONS = [
  'eq',
  'neq',
  'contains',
  'not_contains',
  'gt',
  'lt',
  'gte',
  'lte',
  'between',
  'is_empty',
  'is_not_empty',
  'about',
  'more_than_x_days',
  'less_than_x_days',
  'exactly_x_days',
  'any_have_value',
  'all_have_value',
] as const;

const Scalar = z.union([z.string(), z.number(), z.boolean(), z.null()]);

const ValueRef = z
  .object({ ref: z.string().describe('Code of the parameter whose current value is compared.') })
  .describe('A reference to another parameter\'s value: {"ref": "param-code"}.');

export const ConditionLeaf = z.looseObject({
  method: z
    .string()
    .describe(
      'What the condition reads: param_value, entity_param, entity_param_referenced, param_extracted_current, number_of_entities, entity_param_value (or a legacy kebab-case method).',
    ),
  params: z
    .union([z.string(), z.array(z.string()), z.record(z.string(), z.unknown())])
    .optional()
    .describe('The parameter code(s) the method reads, or an object {param, entity} for entity methods.'),
  operation: z
    .string()
    .optional()
    .describe(
      'Comparison: eq, neq, contains, not_contains, gt, lt, gte, lte, between, is_empty, is_not_empty, about, more_than_x_days, less_than_x_days, exactly_x_days, any_have_value, all_have_value.',
    ),
  value: z
    .union([Scalar, z.array(Scalar), ValueRef])
    .optional()
    .describe(
      'Literal to compare with; an array for between (two values) or any-of for eq; or {"ref": "param-code"}.',
    ),
});
export type ConditionLeaf = z.infer<typeof ConditionLeaf>;

export type Condition = { all: Condition[] } | { any: Condition[] } | { not: Condition } | ConditionLeaf;

export const Condition: z.ZodType<Condition> = z
  .union([
    z.object({
      get all() {
        return z.array(Condition).describe('Holds when every condition holds.');
      },
    }),
    z.object({
      get any() {
        return z.array(Condition).describe('Holds when at least one condition holds.');
      },
    }),
    z.object({
      get not() {
        return Condition.describe('Holds when the condition does not hold.');
      },
    }),
    ConditionLeaf,
  ])
  .describe(
    'A condition group: {all: [...]}, {any: [...]}, {not: ...} or a leaf {method, params, operation, value}.',
  );

const ActivatedTool = z
  .looseObject({
    name: z.string().describe('Code or name of the tool to activate.'),
    description: z.string().optional().describe('Why the tool is activated.'),
    guidelines: z.string().optional().describe('Guidelines for the activated tool.'),
  })
  .describe('A tool that an ACTIVATE_* rule activates, named by its code or its name.');

const RuleThen = z.looseObject({
  action: z.enum(RULE_ACTIONS).describe('What the rule does when its condition holds.'),
  message: z.string().optional().describe('Text for the user; {{param-code}} is filled with the value.'),
  params: z
    .looseObject({
      mandatory: z.array(z.string()).optional().describe('Parameter codes made required.'),
      optional: z.array(z.string()).optional().describe('Parameter codes made optional.'),
    })
    .optional()
    .describe('Parameters added by ADD_REQUIRED_PARAM / ADD_OPTIONAL_PARAM.'),
  settings: z
    .looseObject({
      tools: z
        .array(ActivatedTool)
        .optional()
        .describe(
          'The tool(s) that ACTIVATE_ANOTHER_TOOL, ACTIVATE_SUB_TOOL and BLOCK_AND_ACTIVATE_ANOTHER_TOOL activate: [{name, description, guidelines?}].',
        ),
      tool: z.string().optional().describe('Code of the tool to activate (the short form of tools).'),
      integration: z.string().optional().describe('Code of the integration an API rule calls.'),
      requires_confirmation: z
        .boolean()
        .optional()
        .describe('Makes the rule a confirmation rule: the tool waits for an explicit yes.'),
    })
    .optional()
    .describe(
      'Action settings: {"tools": [{"name": "OTHER_TOOL", "description": "..."}]} for ACTIVATE_*, {"integration": "code"} for API, {"requires_confirmation": true}.',
    ),
});

export const Rule = z.looseObject({
  code: z
    .string()
    .optional()
    .describe('Rule identifier (rule_id in traces); a stable path is used when absent.'),
  description: z.string().optional().describe('What the rule is for, in words.'),
  when: Condition.nullable().optional().describe('Condition group; null or absent means always.'),
  then: RuleThen.describe('The action taken when the condition holds.'),
  applied_to: z
    .array(z.string())
    .optional()
    .describe('Global rules only: tool codes the rule applies to; an empty list means every tool.'),
  applies_to: z.array(z.string()).optional().describe('Accepted alias of applied_to.'),
});
export type Rule = z.infer<typeof Rule>;

export const Parameter = z.looseObject({
  code: z.string().describe('Unique kebab-case code, e.g. transaction-date.'),
  description: z.string().optional().describe('What the parameter means.'),
  type: z.enum(PARAMETER_TYPES).describe('Value type; decides how values are extracted and compared.'),
  usage: z
    .enum(PARAMETER_USAGES)
    .optional()
    .describe('input, output, all, or computed (then computation is required).'),
  values: z
    .array(z.union([z.string(), z.number()]))
    .optional()
    .describe('Allowed values of an enum parameter.'),
  examples: z
    .array(z.union([z.string(), z.number()]))
    .optional()
    .describe('Example values; ids are recognised by their shape.'),
  nested_params: z
    .array(z.unknown())
    .optional()
    .describe('Parameters nested in an object or list parameter.'),
  question: z.string().optional().describe('What the agent asks when this parameter is missing.'),
  computation: z
    .string()
    .optional()
    .describe('Formula over {{param-code}}; required exactly when usage is computed.'),
});
export type Parameter = z.infer<typeof Parameter>;

export interface Entity {
  name: string;
  type?: (typeof ENTITY_TYPES)[number] | undefined;
  description?: string | undefined;
  identifier?: string | undefined;
  parameters?: string[] | undefined;
  sub_entities?: (string | Entity)[] | undefined;
  [key: string]: unknown;
}

export const Entity: z.ZodType<Entity> = z.looseObject({
  name: z.string().describe('Entity name, e.g. transaction or user-profile.'),
  type: z
    .enum(ENTITY_TYPES)
    .optional()
    .describe('normal, or user-profile for facts about the user (authentication rules).'),
  description: z.string().optional().describe('What the entity stands for.'),
  identifier: z.string().optional().describe('Code of the parameter identifying one instance.'),
  parameters: z.array(z.string()).optional().describe('Parameter codes that belong to the entity.'),
  get sub_entities() {
    return z
      .array(z.union([z.string(), Entity]))
      .optional()
      .describe(
        'Entities nested in this one: an entity name, or a whole entity object (with its own sub_entities).',
      );
  },
});

export const RequestField = z
  .looseObject({
    key: z.string().describe('Name of the field in the request.'),
    required: z.boolean().optional().describe('The call fails when the field has no value.'),
    description: z.string().optional().describe('What the field carries.'),
    type: z
      .string()
      .optional()
      .describe('STRING, NUMBER, BOOLEAN, ENUM, OBJECT or ARRAY: the value is sent in this shape.'),
    value_source: z.string().optional().describe('Where the value comes from (kept as given).'),
    params: z
      .array(z.string())
      .optional()
      .describe(
        'Parameter codes the value comes from (the first filled one; all of them for OBJECT or ARRAY).',
      ),
    entities: z
      .array(z.string())
      .optional()
      .describe("Entity names whose parameters' values make the field (an object per entity)."),
    values: z.array(z.unknown()).optional().describe('Allowed values of an ENUM field.'),
    default_value: z.unknown().optional().describe('The value sent when no parameter gives one.'),
  })
  .describe('One request field of an integration, built from parameters, entities or a default.');

export type RequestField = z.infer<typeof RequestField>;

const MappingEntry = z
  .looseObject({
    param: z.string().optional().describe('Parameter code the value is copied into.'),
    key: z
      .union([z.string(), z.array(z.string())])
      .optional()
      .describe('Path in the response (dots, [0], [key={{param}}]), or its segments as a list.'),
    label: z.string().optional().describe('Label of the field (kept as given).'),
    show: z.boolean().optional().describe('Whether the field is shown (kept as given).'),
    sample: z.unknown().optional().describe('A sample value (kept as given).'),
  })
  .describe("Copies the value at key (under the group's paths) into param.");

const MappingGroup = z
  .looseObject({
    code: z.string().optional().describe('Entity name (current shape).'),
    name: z.string().optional().describe('Group name (legacy shape).'),
    identifier: z
      .string()
      .optional()
      .describe(
        'Parameter identifying the entity: in a list, the element whose field matches its value is read.',
      ),
    paths: z.array(z.string()).optional().describe('Base paths in the response the keys are read under.'),
    mappings: z.array(MappingEntry).optional().describe('Fields copied into parameters.'),
  })
  .describe('A group of mappings read under common base paths.');

const ResponseMapping = z
  .record(z.string(), z.union([z.string(), z.array(MappingGroup)]))
  .describe(
    'How the response fills parameters: {"param-code": "path"}; {"entities": [{code, identifier, paths, mappings: [{key, param}]}]}; {"parameters": [{mappings: [{param, key?}]}], "entities": [], "resources": []}; or the legacy {"<category>": [{name, paths, mappings: [{key: [path...], param}]}]}.',
  );

export const Integration = z.looseObject({
  code: z.string().describe('Unique kebab-case code.'),
  type: z.enum(INTEGRATION_TYPES).describe('API, RAG, MCP, INTERNAL_CONTEXT, STRUCTURED or GEN_AI.'),
  description: z.string().optional().describe('What the integration does.'),
  settings: z
    .looseObject({
      endpoint: z
        .looseObject({
          url: z.string().optional().describe('URL of the endpoint.'),
          method: z.string().optional().describe('HTTP method, e.g. GET or POST.'),
          authentication: z
            .unknown()
            .optional()
            .describe('How the endpoint authenticates (kept as given; never used by the reference engine).'),
        })
        .optional()
        .describe('HTTP endpoint of an API integration (never called by the reference engine).'),
      request_schema: z
        .union([z.array(z.union([z.string(), RequestField])), z.record(z.string(), z.unknown())])
        .optional()
        .describe(
          'The request fields: [{key, required, type, params[], entities[], default_value}], a list of parameter codes, or a JSON Schema object whose properties are parameter codes.',
        ),
      response_mapping: ResponseMapping.optional(),
      test_curl_response: z
        .unknown()
        .optional()
        .describe('Canned response the reference engine answers with.'),
      test_curl: z.string().optional().describe('A curl command to test the endpoint (kept as given).'),
      query_guidelines: z.string().optional().describe('How to query the integration (kept as given).'),
      response_parser: z
        .string()
        .optional()
        .describe(
          'A JS snippet that reshapes the response: never executed by the reference engine (the trace says so).',
        ),
    })
    .optional()
    .describe(
      'How the integration is reached; for API: endpoint, request_schema, response_mapping, test_curl_response.',
    ),
});
export type Integration = z.infer<typeof Integration>;

const Computation = z.looseObject({
  code: z.string().optional().describe('Computation identifier.'),
  parameter: z.string().optional().describe('The computed parameter this computation fills.'),
  formula: z.string().optional().describe('Formula over {{param-code}}.'),
  applied_to: z.array(z.string()).optional().describe('Tool codes the computation runs for.'),
  applies_to: z.array(z.string()).optional().describe('Accepted alias of applied_to.'),
});

const ParamRequirement = z.union([z.string(), z.array(z.string())]);

export const Tool = z.looseObject({
  code: z.string().describe('Unique SCREAMING_SNAKE_CASE code, e.g. DISPUTE_CHARGE.'),
  name: z.string().optional().describe('Human name; its words help choose the tool.'),
  when_to_use: z.string().optional().describe('When the tool applies; its words help choose the tool.'),
  goal: z.string().optional().describe('What the tool achieves; its words help choose the tool.'),
  status: z.boolean().optional().describe('Enabled (default true).'),
  main_tool: z.boolean().optional().describe("May be chosen directly from the user's words."),
  requires_confirmation: z
    .boolean()
    .optional()
    .describe('Ask the user to confirm before running the integrations.'),
  response_type: z.string().optional().describe('How the tool answers (free text, kept as given).'),
  config: z
    .looseObject({
      triggers: z
        .looseObject({
          when: Condition.nullable().optional().describe('Condition group that makes the tool a candidate.'),
        })
        .optional()
        .describe('The tool is a candidate whenever this condition holds.'),
      params: z
        .looseObject({
          required: z
            .array(ParamRequirement)
            .optional()
            .describe('Required parameter codes; an inner array is an OR-group (one of them suffices).'),
          optional: z.array(z.string()).optional().describe('Optional parameter codes.'),
        })
        .optional()
        .describe('The parameters the tool needs: required (with either-or groups) and optional.'),
    })
    .optional()
    .describe('Triggers and parameters of the tool.'),
  integrations: z
    .array(z.looseObject({ code: z.string().describe('Code of an integration defined in integrations.') }))
    .optional()
    .describe('Integrations called, in order, when the tool proceeds.'),
  rules: z
    .looseObject({
      pre: z
        .looseObject({
          constraint: z.array(Rule).optional().describe('Policy constraints checked before running.'),
          required_parameters: z.array(Rule).optional().describe('Rules that add or require parameters.'),
          missing_info: z
            .array(Rule)
            .optional()
            .describe('Rules applied while required information is missing.'),
        })
        .optional()
        .describe('Rules checked before the integrations run.'),
      summary: z
        .looseObject({
          success: z.array(Rule).optional().describe('Rules applied after integrations succeeded.'),
          fail: z.array(Rule).optional().describe('Rules applied after an integration failed.'),
          missing_info: z
            .array(Rule)
            .optional()
            .describe('Rules applied when the integrations left information missing.'),
        })
        .optional()
        .describe('Rules applied after the integrations ran.'),
    })
    .optional()
    .describe("The tool's rules, before (pre) and after (summary) its integrations."),
});
export type Tool = z.infer<typeof Tool>;

const GeneralSettings = z.looseObject({
  name: z.string().optional().describe("The agent's name."),
  objective: z.string().optional().describe('What the agent is for, in a sentence.'),
  tone_of_voice: z.string().optional().describe('How the agent sounds, e.g. friendly and professional.'),
  brevity: z.string().optional().describe('How long replies should be.'),
  guardrails: z
    .union([z.string(), z.array(z.string())])
    .optional()
    .describe('What the agent must never do (one text or a list).'),
  persona_guidelines: z.string().optional().describe('Who the agent is and how it behaves.'),
  language: z.string().optional().describe('Language of the replies.'),
  welcome_message: z.string().optional().describe("The agent's first greeting in a new task."),
  starter_suggestions: z
    .array(z.string())
    .optional()
    .describe(
      "The suggestions a new task offers under the welcome message (Threadline's reference engine; the names of the main tools when absent).",
    ),
  context: z.unknown().optional().describe('Background facts the agent may use.'),
});

export const Bundle = z
  .looseObject({
    schema_version: z.literal(1).optional().describe('Bundle format version; 1 is the only one.'),
    general_settings: GeneralSettings.optional().describe(
      'Name, objective, tone, guardrails and welcome message of the agent.',
    ),
    parameters: z.array(Parameter).optional().describe('The data units of the conversation.'),
    entities: z.array(Entity).optional().describe('Groups of parameters (domain objects).'),
    integrations: z.array(Integration).optional().describe('What tools call.'),
    rules: z.array(Rule).optional().describe('Global rules, each applied_to some tools (empty = all).'),
    computations: z.array(Computation).optional().describe('Computed values, each applied_to tools.'),
    agent_tools: z.array(Tool).optional().describe('The tools.'),
    tools: z.array(Tool).optional().describe('Accepted alias of agent_tools.'),
  })
  .describe('Agent settings bundle: a local agent configuration to run without deploying it.');
export type Bundle = z.infer<typeof Bundle>;
