/** The starter template New agent offers is the bundle guide's starter agent, assembled. */
import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { starterTemplateText } from './starter-template';

describe('the starter template', () => {
  it("assembles every file of the guide's starter agent into one bundle", () => {
    const bundle = JSON.parse(starterTemplateText()) as {
      agent_tools: { code: string }[];
      parameters: { code: string }[];
      integrations: { code: string }[];
    };
    expect(bundle.agent_tools.map((t) => t.code)).toEqual(['BOOK_ROOM']);
    expect(bundle.parameters.map((p) => p.code)).toEqual([
      'arrival-date',
      'nights',
      'room-type',
      'booking-number',
    ]);
    expect(bundle.integrations.map((i) => i.code)).toEqual(['booking-api']);
  });

  it('reads the folder the guide prints (no file of it left out)', () => {
    const tools = readdirSync(new URL('../../../../docs/bundle/starter-agent/tools', import.meta.url));
    expect(tools.length).toBe(JSON.parse(starterTemplateText()).agent_tools.length);
  });
});
