/**
 * Every shape real projects use (the vendor's shapes, docs/bundle/README.md) validates and runs with its meaning, and the trace shows its
 * effect: nested sub-entities, activations through then.settings.tools, request fields built from
 * request_schema, the three response_mapping shapes, and what the engine does not run.
 */
import { describe, expect, it } from 'vitest';
import type { Bundle } from '../src/contract/bundle';
import { validateBundle } from '../src/lib/bundle/validate';
import { calls, converse, ruleResults } from '../server/agents/converse';

const CLOCK = '2025-03-15T10:00:00Z';

const RESPONSE = {
  data: {
    orders: [
      { number: 'A-1001', total: '40.00', item: { sku: 'SKU-1', warehouse: { code: 'W-NORTH' } } },
      { number: 'A-1002', total: '75.50', item: { sku: 'SKU-2', warehouse: { code: 'W-SOUTH' } } },
    ],
  },
  customer: { tier: 'gold', email: 'ada@example.com' },
};

const bundle: Bundle = {
  general_settings: { name: 'Shapes' },
  parameters: [
    {
      code: 'order-number',
      type: 'string',
      usage: 'input',
      description: 'Order number',
      examples: ['A-1001'],
    },
    { code: 'order-total', type: 'numeric', usage: 'output', description: 'Order total' },
    { code: 'sku', type: 'string', usage: 'output' },
    { code: 'warehouse-code', type: 'string', usage: 'output' },
    { code: 'tier', type: 'enum', usage: 'output', values: ['silver', 'gold'] },
    { code: 'customer-email', type: 'string', usage: 'output' },
    { code: 'channel', type: 'string', usage: 'output' },
  ],
  entities: [
    {
      name: 'order',
      identifier: 'order-number',
      parameters: ['order-number', 'order-total'],
      sub_entities: [
        {
          name: 'line-item',
          parameters: ['sku'],
          sub_entities: [{ name: 'warehouse', parameters: ['warehouse-code'] }],
        },
      ],
    },
    { name: 'customer', type: 'user-profile', parameters: ['tier', 'customer-email'] },
  ],
  integrations: [
    {
      code: 'order-api',
      type: 'API',
      settings: {
        endpoint: { url: 'https://shop.example/orders', method: 'GET', authentication: { type: 'bearer' } },
        request_schema: [
          {
            key: 'orderId',
            required: true,
            type: 'STRING',
            params: ['order-number'],
            value_source: 'parameter',
          },
          { key: 'channel', type: 'ENUM', values: ['web', 'app'], default_value: 'web' },
          { key: 'customer', type: 'OBJECT', entities: ['customer'] },
        ],
        // current shape: entities with base paths; the list element is chosen by the identifier
        response_mapping: {
          entities: [
            {
              code: 'order',
              identifier: 'order-number',
              paths: ['data.orders'],
              mappings: [
                { key: 'number', param: 'order-number' },
                { key: 'total', param: 'order-total' },
                { key: 'item.sku', param: 'sku' },
                { key: 'item.warehouse.code', param: 'warehouse-code' },
              ],
            },
          ],
        },
        test_curl_response: RESPONSE,
        test_curl: 'curl https://shop.example/orders',
        query_guidelines: 'by order number',
        response_parser: 'return response.data;',
      },
    },
    {
      code: 'customer-api',
      type: 'API',
      settings: {
        // {parameters: [...]} shape: a mapping without a key reads the field named like the parameter
        response_mapping: {
          parameters: [{ mappings: [{ param: 'tier' }, { param: 'customer-email', key: 'email' }] }],
          entities: [],
          resources: [],
        },
        test_curl_response: RESPONSE.customer,
      },
    },
    {
      code: 'channel-mcp',
      type: 'MCP',
      settings: {
        // legacy shape: categories of groups, a key given as path segments
        response_mapping: {
          session: [
            {
              name: 'Session',
              paths: ['session'],
              mappings: [
                { key: ['meta', 'channel'], label: 'Channel', param: 'channel', show: true, sample: 'web' },
              ],
            },
          ],
        },
        test_curl_response: { session: { meta: { channel: 'app' } } },
      },
    },
  ],
  agent_tools: [
    {
      code: 'RETURN_ITEM',
      name: 'Return an item',
      when_to_use: 'The customer wants to return an item of an order',
      main_tool: true,
      config: { params: { required: ['order-number'] } },
      integrations: [{ code: 'channel-mcp' }],
      rules: {
        pre: {
          constraint: [
            {
              code: 'LOOKUP_FIRST',
              when: { method: 'param_value', params: 'order-total', operation: 'is_empty' },
              then: {
                action: 'ACTIVATE_SUB_TOOL',
                settings: {
                  tools: [{ name: 'Look up an order', description: 'by its name', guidelines: 'quietly' }],
                },
              },
            },
          ],
        },
      },
    },
    {
      code: 'LOOKUP_ORDER',
      name: 'Look up an order',
      config: { params: { required: ['order-number'] } },
      integrations: [{ code: 'order-api' }],
    },
  ],
};

describe('the shapes real projects use (docs/bundle/README.md)', () => {
  it('validate', () => {
    expect(validateBundle(bundle)).toEqual([]);
  });

  const out = converse(bundle, CLOCK).say('I want to return an item of order A-1002');

  it('activates a tool named in then.settings.tools (by its name)', () => {
    expect(ruleResults(out).LOOKUP_FIRST).toBe('allowed');
    expect(out.trace.rules_evaluated.find((r) => r.rule_id === 'LOOKUP_FIRST')!.reason).toContain(
      'LOOKUP_ORDER ran first',
    );
    expect(out.trace.decisions).toContainEqual(
      expect.objectContaining({ type: 'activate_tool', tool: 'LOOKUP_ORDER', by: 'LOOKUP_FIRST' }),
    );
    expect(calls(out)).toEqual(['LOOKUP_ORDER/order-api:success', 'RETURN_ITEM/channel-mcp:success']);
  });

  it('builds the request fields from request_schema and shows them in tools_invoked', () => {
    expect(out.trace.tools_invoked[0]!.parameters).toEqual({
      orderId: 'A-1002',
      channel: 'web',
      customer: { tier: 'gold', 'customer-email': 'ada@example.com' },
    });
  });

  it('reads the current entities mapping, choosing the list element by its identifier', () => {
    expect(out.trace.entities).toMatchObject({
      'order.order-number': 'A-1002',
      'order.order-total': 75.5,
    });
  });

  it('keys nested sub-entities by their path in the trace', () => {
    expect(out.trace.entities).toMatchObject({
      'order.line-item.sku': 'SKU-2',
      'order.line-item.warehouse.warehouse-code': 'W-SOUTH',
    });
  });

  it('reads the {parameters: [...]} mapping (a profile) and the legacy category mapping', () => {
    expect(out.trace.entities).toMatchObject({
      'customer.tier': 'gold',
      'customer.customer-email': 'ada@example.com',
    });
    expect(out.trace.value_sources).toMatchObject({
      tier: 'profile:customer-api',
      channel: 'integration:channel-mcp',
    });
    expect(out.trace.entities.channel).toBe('app');
  });

  it('says in the trace what the reference engine did not run', () => {
    const [lookup, mcp] = out.trace.tools_invoked;
    expect(lookup!.not_run).toEqual([
      'response_parser (a JS snippet: never executed by the reference engine)',
    ]);
    expect(String(lookup!.detail)).toContain('not run: response_parser');
    expect(mcp!.not_run).toEqual([expect.stringContaining('MCP call (not reached by the reference engine')]);
  });

  it('a required request field without a value fails the call, saying which', () => {
    const b = structuredClone(bundle);
    (b.integrations![0]!.settings!.request_schema as { params?: string[] }[])[0]!.params = ['sku'];
    const o = converse(b, CLOCK).say('I want to return an item of order A-1002');
    expect(calls(o)[0]).toBe('LOOKUP_ORDER/order-api:failure');
    expect(String(o.trace.tools_invoked[0]!.detail)).toContain('required request field orderId has no value');
  });
});
