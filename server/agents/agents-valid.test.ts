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
});
