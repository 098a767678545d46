/** The index entry computed beside a turn (off the request loop) is the one its stored trace gives. */
import { describe, expect, it } from 'vitest';
import type { Bundle } from '../../src/contract/bundle';
import { engine } from '../../engine';
import { timedTurn } from '../work/engine-work';
import { indexEntryAt } from './index-entry-at';
import type { ComputedTurn } from './store';
import { turnIndexEntry } from '../../engine/turn-index-entry';
import { term } from './turn-terms';

const bundle: Bundle = {
  rules: [{ code: 'NOTE', when: null, then: { action: 'TEXT', settings: { message: 'Noted {{amount}}.' } } }],
  parameters: [{ code: 'amount', type: 'numeric' as const }],
  agent_tools: [{ code: 'DISPUTE_CHARGE', name: 'Dispute a charge', main_tool: true }],
};

describe('indexEntryAt', () => {
  it('gives a computed turn the entry of its stored trace, at the position, owner and time it is stored with', () => {
    const text = 'I want to dispute a charge of 120';
    const run = timedTurn(
      engine,
      {
        bundle,
        state: engine.initialState(bundle, '2026-11-01T10:00:00Z', 'user-1'),
        text,
        clock: '2026-11-01T10:00:00Z',
        interactionId: 'm-2',
        userId: 'user-1',
      },
      { taskId: 'task-1', agentId: 'agent-a', versionId: 'v1', bundleHash: 'hash-1' },
    );
    const turn: ComputedTurn = {
      taskId: 'task-1',
      interactionId: 'm-2',
      userMessage: { id: 'm-1', text, createdAt: '2026-11-02T09:00:00.000Z' },
      reply: { text: run.reply, suggestions: run.suggestions, createdAt: '2026-11-02T09:00:01.000Z' },
      traceJson: run.traceJson,
      indexEntry: run.indexEntry,
      state: run.state,
      bundleHash: 'hash-1',
      versionId: 'v1',
    };
    const task = { agentId: 'agent-a', userId: 'user-1' };
    const { traceJson, indexEntry: _entry, ...rest } = turn;
    const stored = { ...rest, trace: JSON.parse(traceJson) as never };
    const entry = indexEntryAt(task, turn, 7);
    expect(entry).toEqual(turnIndexEntry(task, stored, 7, term));
    expect(entry).toMatchObject({ seq: 7, createdAt: '2026-11-02T09:00:01.000Z', taskId: 'task-1' });
    expect(entry.terms.length + entry.rules.length).toBeGreaterThan(0);
  });
});
