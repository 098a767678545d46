import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { Bundle, Parameter } from '../../src/contract/bundle';
import { stepsLeft, withWorkBudget, WorkBudgetExceeded } from '../../src/lib/bundle/work-budget';
import { converse, exampleBundle } from '../../server/agents/converse';
import { parseClock, type Clock } from '../clock';
import { compileBundle } from '../compile';
import * as reading from './index';
import { understandRemembered } from './remembered';

// Every reading of a message goes through this spy, so a test sees when one is remembered.
vi.mock('./index', async (original) => {
  const actual = await original<typeof import('./index')>();
  return { ...actual, understand: vi.fn(actual.understand) };
});
const readings = vi.mocked(reading.understand);
beforeEach(() => {
  readings.mockClear();
});

interface Inputs {
  params: Parameter[];
  text: string;
  clock: Clock;
  expected?: string[];
  preferred?: string[];
  given?: string[];
}
const ctxOf = (i: Inputs) => ({ expected: i.expected ?? [], preferred: i.preferred ?? [], given: i.given });
/** A new bundle object each time, as a draft is: remembered only by what it holds. */
const compiledOf = (params: Parameter[]) =>
  compileBundle(JSON.parse(JSON.stringify({ parameters: params })) as Bundle);
const remembered = (i: Inputs, budget = 1_000_000) =>
  withWorkBudget('reading', budget, () =>
    understandRemembered(compiledOf(i.params), i.text, i.clock, ctxOf(i)),
  ).values;
const readAfresh = (i: Inputs) => reading.understand(compiledOf(i.params), i.text, i.clock, ctxOf(i)).values;

const clock = parseClock('2025-03-15T10:00:00Z');
const guests: Parameter = { code: 'count', type: 'numeric', description: 'number of guests' };
const ref: Parameter = { code: 'ref', type: 'string', examples: ['ABC123'] };
const reason: Parameter = { code: 'reason', type: 'enum', values: ['duplicate charge', 'fraud'] };
const when: Parameter = { code: 'when', type: 'date' };
const notes: Parameter[] = [
  { code: 'first-note', type: 'string' },
  { code: 'second-note', type: 'string' },
];
const dates: Parameter[] = [
  { code: 'travel-date', type: 'date' },
  { code: 'birth-date', type: 'date' },
];

/** Inputs, and the same inputs with one thing changed that changes what is read. */
const changes: [string, Inputs, Inputs][] = [
  [
    'the message',
    { params: [guests], text: 'we are 4 guests', clock },
    { params: [guests], text: 'we are 5 guests', clock },
  ],
  [
    'the clock',
    { params: [when], text: '3 days ago', clock },
    { params: [when], text: '3 days ago', clock: parseClock('2025-03-16T10:00:00Z') },
  ],
  [
    "a parameter's description",
    { params: [guests], text: 'we are 4 guests', clock },
    { params: [{ ...guests, description: 'number of rooms' }], text: 'we are 4 guests', clock },
  ],
  [
    "a parameter's code",
    { params: [guests], text: 'we are 4 guests', clock },
    { params: [{ ...guests, code: 'guest-count' }], text: 'we are 4 guests', clock },
  ],
  [
    "a parameter's type",
    { params: [guests], text: 'we are 4 guests', clock },
    { params: [{ ...guests, type: 'string' }], text: 'we are 4 guests', clock },
  ],
  [
    "a parameter's usage",
    { params: [guests], text: 'we are 4 guests', clock },
    { params: [{ ...guests, usage: 'output' }], text: 'we are 4 guests', clock },
  ],
  [
    "a parameter's examples",
    { params: [ref], text: 'booking XYZ789', clock },
    { params: [{ ...ref, examples: ['TX-1042'] }], text: 'booking XYZ789', clock },
  ],
  [
    "an enum's values",
    { params: [reason], text: 'it was fraud', clock },
    { params: [{ ...reason, values: ['duplicate charge'] }], text: 'it was fraud', clock },
  ],
  [
    'a parameter added',
    { params: [ref], text: 'we are 4 guests', clock },
    { params: [ref, guests], text: 'we are 4 guests', clock },
  ],
  [
    "the parameters' order",
    { params: notes, text: '"hello there"', clock, expected: ['first-note', 'second-note'] },
    { params: [...notes].reverse(), text: '"hello there"', clock, expected: ['first-note', 'second-note'] },
  ],
  [
    'the parameters expected',
    { params: [guests], text: '3', clock, expected: ['count'] },
    { params: [guests], text: '3', clock },
  ],
  [
    'the parameters preferred',
    { params: dates, text: 'March 3', clock },
    { params: dates, text: 'March 3', clock, preferred: ['birth-date'] },
  ],
  [
    'the parameters already given',
    { params: [when], text: 'now', clock, expected: ['when'] },
    { params: [when], text: 'now', clock, expected: ['when'], given: ['when'] },
  ],
];

describe('understandings remembered', () => {
  it.each(changes)('reads the message again when %s changes', (_, before, after) => {
    expect(readAfresh(after)).not.toEqual(readAfresh(before));
    expect(remembered(before)).toEqual(readAfresh(before));
    readings.mockClear();
    expect(remembered(after)).toEqual(readAfresh(after));
    expect(readings).toHaveBeenCalledTimes(2);
  });

  it('remembers the same inputs in another bundle object, values in the same order', () => {
    const inputs: Inputs = { params: [guests, reason, when], text: 'fraud by 4 guests 3 days ago', clock };
    const first = remembered(inputs);
    const again = remembered({ ...inputs, params: structuredClone(inputs.params) });
    expect(readings).toHaveBeenCalledTimes(1);
    expect(again).toEqual(readAfresh(inputs));
    expect(Object.keys(again)).toEqual(Object.keys(first));
  });

  it('spends the steps of the first reading again, and goes over the budget where it would', () => {
    const inputs: Inputs = {
      params: [guests, ref, reason, when],
      text: 'booking ABC123 for 2 guests',
      clock,
    };
    const spent = () =>
      withWorkBudget('reading', 1_000_000, () => {
        understandRemembered(compiledOf(inputs.params), inputs.text, inputs.clock, ctxOf(inputs));
        return 1_000_000 - stepsLeft()!;
      });
    const first = spent();
    expect(first).toBeGreaterThan(0);
    expect(spent()).toBe(first);
    expect(readings).toHaveBeenCalledTimes(1);
    expect(() => remembered(inputs, first - 1)).toThrow(WorkBudgetExceeded);
    expect(remembered(inputs, first)).toEqual(readAfresh(inputs));
    expect(() => remembered({ ...inputs, text: 'booking XYZ789 for 3 guests' }, first - 1)).toThrow(
      WorkBudgetExceeded,
    );
  });

  it('hands out copies: changing an answer changes nothing remembered', () => {
    const inputs: Inputs = { params: [guests], text: 'we are 7 guests', clock };
    remembered(inputs).count = 8;
    remembered(inputs).count = 9;
    expect(remembered(inputs)).toEqual({ count: 7 });
    expect(readings).toHaveBeenCalledTimes(1);
  });

  it('remembers nothing outside a work budget, or for parameters that are more than their JSON', () => {
    const compiled = compiledOf([guests]);
    understandRemembered(compiled, 'we are 9 guests', clock, { expected: [], preferred: [] });
    expect(remembered({ params: [guests], text: 'we are 9 guests', clock })).toEqual({ count: 9 });
    expect(readings).toHaveBeenCalledTimes(2);

    // -0 and 0 write the same JSON, but are not the same value.
    const zero: Parameter = { code: 'level', type: 'enum', values: [0] };
    const minusZero = compileBundle({ parameters: [{ ...zero, values: [-0] }] });
    expect(remembered({ params: [zero], text: 'level 0', clock })).toEqual({ level: 0 });
    const read = withWorkBudget('reading', 1_000_000, () =>
      understandRemembered(minusZero, 'level 0', clock, { expected: [], preferred: [] }),
    );
    expect(Object.is(read.values.level, -0)).toBe(true);
  });
});

describe('a turn', () => {
  it('reads its message once when it starts a tool, as when it continues one', () => {
    const c = converse(exampleBundle('card-disputes'), '2025-03-15T10:00:00Z');
    for (const text of ['I want to dispute a charge from the 2nd of March', 'It was a duplicate charge']) {
      readings.mockClear();
      c.say(text);
      expect(readings).toHaveBeenCalledTimes(1);
    }
  });
});
