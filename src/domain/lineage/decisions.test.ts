import { describe, expect, it } from 'vitest';
import { decisionsAlong } from './decisions';
import { buildBranchTree, type LineageRecord } from './lineage';

const rec = (task_id: string, parent_task_id: string, parent_interaction_id: string): LineageRecord => ({
  task_id,
  parent_task_id,
  parent_interaction_id,
  edited_text: 'x',
  original_text: 'x',
  bundle_hash: null,
  version_id: null,
  version_tag: null,
  created_at: `2025-01-01T00:00:0${task_id.length}.000Z`,
});
const t = (interaction_id: string, decision: string) => ({ interaction_id, decision });

describe('decisionsAlong', () => {
  it("starts a branch's decisions at its fork point and the root's at its first turn", () => {
    const tree = buildBranchTree('root', [rec('b1', 'root', 'r2'), rec('b11', 'b1', 'b1-3')]);
    const traces = new Map([
      ['root', [t('r1', 'request_information'), t('r2', 'block_with_explanation'), t('r3', 'proceed')]],
      ['b1', [t('b1-1', 'request_information'), t('b1-2', 'request_confirmation'), t('b1-3', 'proceed')]],
      [
        'b11',
        [t('x1', 'request_information'), t('x2', 'request_confirmation'), t('x3', 'block_with_explanation')],
      ],
    ]);
    const d = decisionsAlong(tree, traces);
    expect(d.get('root')).toEqual({
      forkIndex: null,
      decisions: ['request_information', 'block_with_explanation', 'proceed'],
    });
    expect(d.get('b1')).toEqual({ forkIndex: 1, decisions: ['request_confirmation', 'proceed'] });
    expect(d.get('b11')).toEqual({ forkIndex: 2, decisions: ['block_with_explanation'] });
  });

  it('shows every decision when the fork cannot be found, and nothing before traces load', () => {
    const tree = buildBranchTree('root', [rec('b1', 'root', 'gone')]);
    const d = decisionsAlong(tree, new Map([['b1', [t('a', 'proceed')]]]));
    expect(d.get('b1')).toEqual({ forkIndex: null, decisions: ['proceed'] });
    expect(d.get('root')).toEqual({ forkIndex: null, decisions: [] });
  });
});
