/**
 * A valid bundle that uses every feature of the format (all parameter types, entities, API
 * integrations, global and tool rules of every kind, OR-groups, triggers, legacy methods and
 * aliases, computations). Tests derive broken variants from it, one problem at a time.
 */
export function richBundle() {
  return {
    schema_version: 1,
    general_settings: {
      name: 'Card disputes',
      objective: 'Help customers dispute card charges.',
      guardrails: ['Never reveal full card numbers.'],
      welcome_message: 'Hi! How can I help with your card?',
    },
    parameters: [
      {
        code: 'transaction-id',
        type: 'string',
        usage: 'input',
        examples: ['TX-1001'],
        question: 'Which transaction?',
      },
      { code: 'transaction-date', type: 'date', usage: 'input', question: 'When was the charge?' },
      { code: 'amount', type: 'numeric', usage: 'input' },
      {
        code: 'reason',
        type: 'enum',
        values: ['fraud', 'duplicate', 'not_received'],
        question: 'Why do you dispute it?',
      },
      { code: 'email', type: 'string' },
      { code: 'phone', type: 'string' },
      { code: 'confirmed', type: 'boolean' },
      { code: 'identity-verified', type: 'boolean', usage: 'output' },
      { code: 'fee', type: 'numeric', usage: 'computed', computation: '{{amount}} * 0.02' },
      { code: 'total', type: 'numeric', usage: 'computed' },
      { code: 'card', type: 'object', nested_params: [{ code: 'last-four', type: 'string' }] },
      { code: 'transactions', type: 'list_of_objects' },
      { code: 'tags', type: 'array' },
    ],
    entities: [
      {
        name: 'user-profile',
        type: 'user-profile',
        identifier: 'email',
        parameters: ['identity-verified', 'phone'],
      },
      {
        name: 'transaction',
        identifier: 'transaction-id',
        parameters: ['transaction-date', 'amount'],
        sub_entities: ['user-profile'],
      },
    ],
    integrations: [
      {
        code: 'get-profile',
        type: 'API',
        settings: {
          endpoint: { url: 'https://bank.example/profile', method: 'GET' },
          response_mapping: { 'identity-verified': 'profile.verified' },
          test_curl_response: { profile: { verified: true } },
        },
      },
      { code: 'file-dispute', type: 'API', settings: { test_curl_response: { ok: true } } },
      { code: 'policy-docs', type: 'RAG' },
    ],
    rules: [
      {
        code: 'no-cards-abroad',
        when: { method: 'param_value', params: 'tags', operation: 'contains', value: 'abroad' },
        then: { action: 'TEXT', message: 'We cannot help with {{transaction-id}} abroad.' },
        applied_to: ['DISPUTE_CHARGE'],
      },
      { code: 'always', when: null, then: { action: 'TEXT' }, applies_to: [] },
    ],
    computations: [
      {
        code: 'total-with-fee',
        parameter: 'total',
        formula: '{{amount}} + {{fee}}',
        applied_to: ['DISPUTE_CHARGE'],
      },
    ],
    agent_tools: [
      {
        code: 'DISPUTE_CHARGE',
        name: 'Dispute a charge',
        when_to_use: 'The user does not recognise a charge',
        main_tool: true,
        requires_confirmation: true,
        config: {
          triggers: {
            when: {
              any: [
                { method: 'users-question', value: 'dispute' },
                { method: 'param_extracted_current', params: ['transaction-id'], operation: 'is_not_empty' },
              ],
            },
          },
          params: {
            required: ['transaction-id', 'reason', ['email', 'phone']],
            optional: ['transaction-date'],
          },
        },
        integrations: [{ code: 'get-profile' }, { code: 'file-dispute' }],
        rules: {
          pre: {
            constraint: [
              {
                code: 'dispute-window',
                when: {
                  method: 'param_value',
                  params: 'transaction-date',
                  operation: 'more_than_x_days',
                  value: 8,
                },
                then: {
                  action: 'BLOCK',
                  message: 'Disputes must be filed within 8 days of {{transaction-date}}.',
                },
              },
              {
                code: 'big-needs-identity',
                when: {
                  all: [
                    { method: 'param_value', params: 'amount', operation: 'gt', value: 500 },
                    {
                      not: {
                        method: 'entity_param',
                        params: { entity: 'user-profile', param: 'identity-verified' },
                        operation: 'eq',
                        value: true,
                      },
                    },
                  ],
                },
                then: { action: 'BLOCK_AND_ACTIVATE_ANOTHER_TOOL', settings: { tool: 'VERIFY_IDENTITY' } },
              },
              {
                when: {
                  all: [
                    { method: 'param_value', params: 'amount', operation: 'between', value: [0, 5] },
                    { method: 'param_value', params: 'amount', operation: 'lt', value: { ref: 'fee' } },
                  ],
                },
                then: { action: 'TEXT' },
              },
            ],
            required_parameters: [
              {
                when: { method: 'existing-parameters-in-conversation', params: ['reason'] },
                then: {
                  action: 'ADD_REQUIRED_PARAM',
                  params: { mandatory: ['transaction-date'], optional: ['tags'] },
                },
              },
              {
                when: {
                  method: 'param_value',
                  params: 'reason',
                  operation: 'eq',
                  value: ['fraud', 'duplicate'],
                },
                then: { action: 'ASK_A_QUESTION' },
              },
            ],
            missing_info: [
              {
                when: { method: 'missing-parameters-in-conversation', params: ['email'] },
                then: { action: 'ASK_A_QUESTION' },
              },
            ],
          },
          summary: {
            success: [
              {
                when: { method: 'number_of_entities', params: 'transaction', operation: 'gte', value: 1 },
                then: {
                  action: 'API',
                  settings: { integration: 'file-dispute' },
                  message: 'Filed {{transaction-id}}.',
                },
              },
            ],
            fail: [
              {
                when: {
                  method: 'entity_param_value',
                  params: 'transaction.amount',
                  operation: 'lt',
                  value: 1,
                },
                then: { action: 'RETRY' },
              },
            ],
          },
        },
      },
      {
        code: 'VERIFY_IDENTITY',
        name: 'Verify identity',
        config: { params: { required: ['email'] } },
        rules: {
          pre: {
            constraint: [
              {
                when: { method: 'user-profile', params: ['identity-verified'], operation: 'is_empty' },
                then: { action: 'ACTIVATE_SUB_TOOL', settings: { tool: 'DISPUTE_CHARGE' } },
              },
            ],
          },
        },
      },
      {
        code: 'LIST_TRANSACTIONS',
        name: 'List recent transactions',
        main_tool: true,
        integrations: [{ code: 'policy-docs' }],
      },
    ],
  };
}
