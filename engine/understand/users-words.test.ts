/**
 * Understanding a user's words: lengths of time in weeks, fortnights, months and half days, a
 * date range's end and length, "starting Friday" as the coming Friday, corrections without the
 * usual words, and a date given again after a refusal (docs/bundle/README.md, "Parameters").
 */
import { describe, expect, it } from 'vitest';
import type { Bundle } from '../../src/contract/bundle';
import { converse, ruleResults } from '../../server/agents/converse';

const CLOCK = '2025-03-15T12:00:00Z'; // a Saturday
const leave: Bundle = {
  parameters: [
    {
      code: 'start-date',
      type: 'date',
      usage: 'input',
      description: 'The first day of leave',
      question: 'When does your leave start?',
    },
    { code: 'end-date', type: 'date', usage: 'input', description: 'The last day of leave' },
    {
      code: 'leave-days',
      type: 'numeric',
      usage: 'input',
      description: 'How many days of leave',
      question: 'How many days?',
    },
  ],
  agent_tools: [
    {
      code: 'REQUEST_LEAVE',
      name: 'Request leave',
      when_to_use: 'The employee wants to take leave or time off',
      main_tool: true,
      requires_confirmation: true,
      config: { params: { required: ['start-date', 'leave-days'], optional: ['end-date'] } },
      rules: {
        pre: {
          constraint: [
            {
              code: 'NO_PAST_START',
              when: { method: 'param_value', params: 'start-date', operation: 'more_than_x_days', value: 0 },
              then: { action: 'BLOCK', message: 'Leave cannot start in the past.' },
            },
          ],
        },
      },
    },
  ],
};
const stay: Bundle = {
  parameters: [
    { code: 'check-in', type: 'date', usage: 'input', description: 'The day the guest arrives' },
    { code: 'check-out', type: 'date', usage: 'input', description: 'The day the guest leaves' },
    { code: 'nights', type: 'numeric', usage: 'input', description: 'How many nights the guest stays' },
  ],
  agent_tools: [
    {
      code: 'BOOK_ROOM',
      name: 'Book a room',
      main_tool: true,
      config: { params: { required: ['check-in', 'nights'], optional: ['check-out'] } },
    },
  ],
};
const first = (bundle: Bundle, text: string) => converse(bundle, CLOCK).say(text).trace.entities;

describe("understanding a user's words", () => {
  it.each([
    ['I want to take leave for two months starting 2025-04-01', 60],
    ['I want to take a fortnight of leave starting 2025-04-01', 14],
    ['I want to take half a day of leave starting 2025-04-01', 0.5],
    ['I want to take leave for 3 weeks starting 2025-04-01', 21],
  ])('durations in weeks and months for a count of days: %j', (text, days) => {
    expect(first(leave, text)).toMatchObject({ 'start-date': '2025-04-01', 'leave-days': days });
  });

  it('"3 a day" and "twice a day" are not lengths', () => {
    expect(first(leave, 'I want to take leave starting 2025-04-01, I take pills 3 a day')).not.toHaveProperty(
      'leave-days',
    );
  });

  it("a date range's end and length: days count both ends, nights the days between", () => {
    expect(first(leave, 'I want to take leave from April 3 to April 10')).toEqual({
      'start-date': '2025-04-03',
      'end-date': '2025-04-10',
      'leave-days': 8,
    });
    expect(first(stay, 'book a room from April 3 to April 10')).toEqual({
      'check-in': '2025-04-03',
      'check-out': '2025-04-10',
      nights: 7,
    });
    // A length the user says is theirs: the range does not replace it.
    expect(first(stay, 'book a room for 2 nights from April 3 to April 10')).toMatchObject({ nights: 2 });
  });

  it('"starting Friday" is the coming Friday, never one already past', () => {
    const out = converse(leave, CLOCK).say('I want to take 3 days of leave starting Friday');
    expect(out.trace.entities['start-date']).toBe('2025-03-21');
    expect(ruleResults(out).NO_PAST_START).toBe('allowed');
    expect(first(leave, 'I want to take 3 days of leave from Monday')['start-date']).toBe('2025-03-17');
  });

  it('a correction without the usual words: "it was April 3, not April 4"', () => {
    const c = converse(leave, CLOCK);
    expect(c.say('I want to take 3 days of leave starting April 4').trace.decision).toBe(
      'request_confirmation',
    );
    const corrected = c.say('it was April 3, not April 4');
    expect(corrected.trace.entities['start-date']).toBe('2025-04-03');
    expect(corrected.trace.decision).toBe('request_confirmation');
    expect(corrected.reply).toContain('2025-04-03');
    // The date said not to be the one is left out wherever it stands.
    const d = converse(leave, CLOCK);
    d.say('I want to take 3 days of leave starting April 4');
    expect(d.say('not April 4, April 3').trace.entities['start-date']).toBe('2025-04-03');
  });

  it('a date given again after a refusal replaces the refused one, "today" included', () => {
    const c = converse(leave, CLOCK);
    const refused = c.say('I want to take 3 days of leave starting yesterday');
    expect(refused.trace.decision).toBe('block_with_explanation');
    const again = c.say('then starting today');
    expect(again.trace.entities['start-date']).toBe('2025-03-15');
    expect(ruleResults(again).NO_PAST_START).toBe('allowed');
    expect(again.trace.decision).toBe('request_confirmation');
    // Not after a refusal: "today" still never replaces a date the user gave.
    const d = converse(leave, CLOCK);
    d.say('I want to take 3 days of leave starting April 4');
    expect(d.say('ok, today I am sure').trace.entities['start-date']).toBe('2025-04-04');
  });
});
