import { describe, expect, it } from 'vitest';
import { validateBundle } from '../../src/lib/bundle/validate';
import { exampleAgents } from './converse';

describe('example agents', () => {
  for (const agent of exampleAgents()) {
    for (const version of agent.versions) {
      it(`${agent.id}/${version.id} validates with no issues`, () => {
        expect(validateBundle(version.bundle)).toEqual([]);
      });
    }
  }

  it('exercise all five rule types in their rules', () => {
    for (const agent of exampleAgents()) {
      const active = agent.versions.find((v) => v.id === agent.active_version)!.bundle;
      const json = JSON.stringify(active);
      expect(json).toContain('"BLOCK"');
      expect(json).toContain('"ACTIVATE_SUB_TOOL"');
      expect(json).toMatch(/"requires_confirmation":\s*true/);
      expect(json).toMatch(/"type":"user-profile"/);
    }
  });
});
