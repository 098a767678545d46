/**
 * The starter template (docs/bundle/starter-agent) loads as an agent from its folder, and the
 * bundle guide prints its files exactly as they are.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { STARTER_DIR } from '../../tests/support/starter-agent';
import { loadAgentFolders } from './folders';

describe('the starter template', () => {
  it('loads from its folder as one agent with one version, named by its agent.aui.json', () => {
    const { agents, problems } = loadAgentFolders([STARTER_DIR]);
    expect(problems).toEqual([]);
    expect(agents.map((a) => [a.id, a.name, a.versions.map((v) => v.id)])).toEqual([
      ['room-bookings', 'Harbour Hotel Bookings', ['local']],
    ]);
  });

  it('is printed in full, file by file, in the bundle guide', () => {
    const guide = readFileSync(join(STARTER_DIR, '..', 'README.md'), 'utf8');
    for (const file of [
      'agent.aui.json',
      'parameters.aui.json',
      'integrations.aui.json',
      'tools/book_room.aui.json',
    ])
      expect(guide).toContain(
        `\`${file}\`\n\n\`\`\`json\n${readFileSync(join(STARTER_DIR, file), 'utf8')}\`\`\``,
      );
  });
});
