/** Each example agent shows every rule type and every decision in ordinary conversations. */
import { describe, expect, it } from 'vitest';
import { KNOWN_DECISIONS, KNOWN_RULE_TYPES } from '../../src/contract/trace';
import { converse, exampleBundle } from './converse';

const CLOCK = '2025-03-15T10:00:00Z';
const SCRIPTS: Record<string, string[][]> = {
  'card-disputes': [
    ['I want to dispute a charge of $120 at Coffee Corner from 10 days ago'],
    ['dispute a $620 charge from yesterday'],
    ['dispute an unauthorized $45 charge from 2 days ago', 'jane@example.com', 'yes'],
  ],
  'flight-changes': [
    ['I need to change my flight', 'ABC123', 'next friday', 'yes'],
    ['cancel my flight ABC123'],
  ],
  'shop-returns': [
    ['I want to return order NW-555210, it arrived damaged, refund to the original payment'],
    ['return the jacket from order NW-482913, I changed my mind, store credit, email ada@example.com', 'yes'],
    ['Where is my parcel?'],
  ],
};

describe('rule types and decisions covered', () => {
  for (const [agent, scripts] of Object.entries(SCRIPTS)) {
    it(agent, () => {
      const types = new Set<string>();
      const decisions = new Set<string>();
      for (const script of scripts) {
        const c = converse(exampleBundle(agent), CLOCK);
        for (const text of script) {
          const out = c.say(text);
          decisions.add(out.trace.decision);
          for (const r of out.trace.rules_evaluated) types.add(r.rule_type);
        }
      }
      expect([...types].sort()).toEqual([...KNOWN_RULE_TYPES].sort());
      expect([...decisions].sort()).toEqual([...KNOWN_DECISIONS].sort());
    });
  }
});
