import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadAgents, resolveVersion } from './registry';

describe('agent registry', () => {
  const agents = loadAgents();

  it('loads the three example agents with two versions each', () => {
    expect(agents.map((a) => a.id)).toEqual(['card-disputes', 'flight-changes', 'shop-returns']);
    for (const a of agents) expect(a.versions.length).toBeGreaterThanOrEqual(2);
  });

  it('assembles every version into a bundle with tools', () => {
    for (const a of agents) {
      for (const v of a.versions) expect((v.bundle.agent_tools ?? []).length).toBeGreaterThan(0);
    }
  });

  it('resolves the active version without a pin, and pins by id or tag', () => {
    const cd = agents.find((a) => a.id === 'card-disputes')!;
    expect(resolveVersion(cd, {})?.id).toBe('v2-8-day-window');
    expect(resolveVersion(cd, { version_tag: 'v1' })?.id).toBe('v1-30-day-window');
    expect(resolveVersion(cd, { version_id: 'v1-30-day-window' })?.tag).toBe('v1');
    expect(resolveVersion(cd, { version_tag: 'v9' })).toBeUndefined();
  });

  it('names the file when a project does not assemble', () => {
    const dir = mkdtempSync(join(tmpdir(), 'agents-'));
    mkdirSync(join(dir, 'broken', 'v1'), { recursive: true });
    writeFileSync(
      join(dir, 'broken', 'agent.json'),
      JSON.stringify({
        name: 'B',
        description: '',
        active_version: 'v1',
        versions: [{ id: 'v1', tag: null, description: '' }],
      }),
    );
    writeFileSync(join(dir, 'broken', 'v1', 'parameters.aui.json'), '{ not json');
    expect(() => loadAgents(dir)).toThrow(/parameters\.aui\.json/);
  });
});
