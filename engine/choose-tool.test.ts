import { describe, expect, it } from 'vitest';
import type { Bundle } from '../src/contract/bundle';
import { chooseTool, intentOf } from './choose-tool';
import { parseClock } from './clock';
import { compileBundle } from './compile';
import type { Pending } from './types';

const bundle: Bundle = {
  parameters: [
    { code: 'vip', type: 'boolean' },
    { code: 'ref', type: 'string' },
  ],
  agent_tools: [
    {
      code: 'ORDER_PIZZA',
      name: 'Order a pizza',
      when_to_use: 'The user wants to order food',
      main_tool: true,
      config: { params: { required: ['ref'] } },
    },
    {
      code: 'TRACK_ORDER',
      name: 'Track my order',
      when_to_use: 'The user asks where their order or delivery is',
      main_tool: true,
    },
    {
      code: 'VIP_DESK',
      name: 'VIP desk',
      main_tool: false,
      config: { triggers: { when: { method: 'param_value', params: 'vip', operation: 'eq', value: true } } },
    },
    { code: 'DISABLED', name: 'Order pizza now', status: false, main_tool: true },
  ],
};
const compiled = compileBundle(bundle);
const cond = (values: Record<string, unknown> = {}) => ({
  compiled,
  values,
  current: values,
  message: '',
  clock: parseClock('2025-01-01T00:00:00Z'),
});
const choose = (text: string, pending: Pending | null = null, values: Record<string, unknown> = {}) =>
  chooseTool(
    compiled,
    text,
    pending,
    () => values,
    null,
    () => cond(values),
  );

describe('tool choice', () => {
  it('scores enabled main tools by word overlap', () => {
    expect(choose('I would like to order a pizza')).toMatchObject({ kind: 'new', intent: 'order_pizza' });
    expect(choose('where is my delivery?')).toMatchObject({ kind: 'new', intent: 'track_order' });
  });

  it('falls back to general_question when nothing matches', () => {
    expect(choose('good morning')).toMatchObject({
      kind: 'fallback',
      intent: 'general_question',
      considered: [],
    });
  });

  it('chooses a tool whose trigger holds', () => {
    expect(choose('hello', null, { vip: true })).toMatchObject({
      kind: 'new',
      intent: 'vip_desk',
      via: 'trigger',
    });
  });

  it('continues a pending tool unless another clearly starts', () => {
    const pending: Pending = { tool: 'ORDER_PIZZA', awaiting: 'information', asked: ['ref'], resume: [] };
    expect(choose('hmm, not sure', pending)).toMatchObject({
      kind: 'continue',
      intent: 'provide_information',
    });
    expect(choose('actually, track my order delivery', pending)).toMatchObject({
      kind: 'new',
      intent: 'track_order',
    });
  });

  it('turns codes into snake_case intents', () => {
    expect(intentOf('DISPUTE_CHARGE')).toBe('dispute_charge');
    expect(intentOf('lookupBooking')).toBe('lookup_booking');
  });
});
