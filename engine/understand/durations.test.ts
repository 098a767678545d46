/**
 * Values read where they belong: a length of time is a quantity, a date fills one date parameter
 * of the tool the message is about, and "now" / "today" are dates only when the message is about
 * a date.
 */
import { describe, expect, it } from 'vitest';
import type { Bundle } from '../../src/contract/bundle';
import { converse } from '../../server/agents/converse';
import { parseClock } from '../clock';
import { compileBundle } from '../compile';
import { fixture } from '../fixtures/load.fixture';
import { understand } from './index';

const CLOCK = '2025-03-15T12:00:00Z';
const stay: Bundle = {
  parameters: [
    { code: 'nights', type: 'numeric', description: 'Number of nights of the stay' },
    { code: 'check-in', type: 'date', description: 'First night of the stay' },
    { code: 'guests', type: 'numeric', description: 'Number of guests' },
  ],
};
const pass = compileBundle(fixture('duration'));
const PASS_PARAMS = ['days', 'start'];
const read = (
  text: string,
  opts: { expected?: string[]; preferred?: string[]; given?: string[] } = {},
  compiled = pass,
) =>
  understand(compiled, text, parseClock(CLOCK), {
    expected: opts.expected ?? [],
    preferred: opts.preferred ?? PASS_PARAMS,
    given: opts.given ?? [],
  }).values;

describe('durations are quantities, not dates', () => {
  it.each([
    ['Buy a pass for 6 days from 2 April 2025', { days: 6, start: '2025-04-02' }],
    ['Buy a pass for 5 days', { days: 5 }],
    ['a 2-week pass starting 3 April 2025', { days: 14, start: '2025-04-03' }],
    ['a pass for one week', { days: 7 }],
    ['I need 3 days of pass, from April 2', { days: 3, start: '2025-04-02' }],
  ])('%j', (text, expected) => {
    expect(read(text)).toEqual(expected);
  });

  it('a count of days before "ago" or after "in" is still a relative date', () => {
    expect(read('a pass from 3 days ago')).toEqual({ start: '2025-03-12' });
    expect(read('a pass starting in 2 days')).toEqual({ start: '2025-03-17' });
  });

  it('"for 3 nights starting Friday": 3 nights, and the start is a Friday, not the clock plus 3', () => {
    const values = read('for 3 nights starting Friday', {}, compileBundle(stay));
    expect(values.nights).toBe(3);
    expect(new Date(`${String(values['check-in'])}T00:00:00Z`).getUTCDay()).toBe(5);
    expect(values.guests).toBeUndefined();
  });

  it('a duration with no parameter of its unit fills nothing and is not read as a date', () => {
    expect(read('for 3 nights please')).toEqual({});
  });
});

describe('a date phrase fills at most one date parameter, of the tool in play', () => {
  it('"from 2 to 8 April" gives the start, and the length in days (both ends included)', () => {
    expect(read('a pass from 2 to 8 April')).toEqual({ start: '2025-04-02', days: 7 });
  });

  it("a date goes to another tool's parameter only with its words nearby", () => {
    expect(read('Buy a pass for 2 days from 2 April 2025, and 9 April 2025')).toEqual({
      days: 2,
      start: '2025-04-02',
    });
    expect(read('a pass from 2 April 2025; my home move starts 9 April 2025')).toEqual({
      start: '2025-04-02',
      'move-date': '2025-04-09',
    });
  });

  it('with no tool in play, a lone date parameter still takes the date', () => {
    expect(read('I move on 9 April 2025', { preferred: ['move-date'] })).toEqual({
      'move-date': '2025-04-09',
    });
  });
});

describe('"now" and "today"', () => {
  it('inside a sentence about something else, fill no date', () => {
    for (const text of ['OK now go ahead', 'now I want a pass for 3 days', 'yes, do it right now'])
      expect(read(text)).not.toHaveProperty('start');
  });

  it('fill the date the message is about, or the one just asked for', () => {
    expect(read('start it today')).toEqual({ start: '2025-03-15' });
    expect(read('today', { expected: ['start'] })).toEqual({ start: '2025-03-15' });
  });

  it('never replace a date the user gave, unless the message corrects it', () => {
    expect(read('start it today', { given: ['start'] })).toEqual({});
    expect(read('actually, start it today instead', { given: ['start'] })).toEqual({ start: '2025-03-15' });
  });
});

describe('in a conversation', () => {
  it('"OK now go ahead" confirms; "make that 15 April instead" corrects the start and asks again', () => {
    const c = converse(fixture('duration'), CLOCK);
    expect(c.say('Buy a pass, 3 days, starting 1 April 2025').trace.decision).toBe('request_confirmation');
    const corrected = c.say('make that 15 April instead');
    expect(corrected.trace.understanding?.extracted_params).toEqual({ start: '2025-04-15' });
    expect(corrected.trace.decision).toBe('request_confirmation');
    const done = c.say('OK now go ahead');
    expect(done.trace.decision).toBe('proceed');
    expect(done.trace.tools_invoked[0]?.parameters).toEqual({ days: 3, start: '2025-04-15' });
  });
});
