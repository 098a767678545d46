import { describe, expect, it } from 'vitest';
import { AGENTS_OWN, branchRunConfig, runConfigOf, withDraft, type RunConfig } from './run-config';

describe('configuration inheritance', () => {
  it('a branch starts with the bundle its rerun ran with and the parent’s version pin', () => {
    const parent: RunConfig = { bundle_hash: null, version_id: 'v1-30-day-window', version_tag: null };
    expect(branchRunConfig(parent, { bundle_hash: 'abc' })).toEqual({
      bundle_hash: 'abc',
      version_id: 'v1-30-day-window',
      version_tag: null,
    });
  });

  it('a rerun without a bundle gives a branch on the agent’s own bundle, even below a branch with one', () => {
    const parent: RunConfig = { bundle_hash: 'abc', version_id: null, version_tag: null };
    expect(branchRunConfig(parent, { bundle_hash: null })).toEqual(AGENTS_OWN);
  });

  it('a branch of a branch keeps what its own rerun ran with, not the root’s', () => {
    const root = AGENTS_OWN;
    const child = branchRunConfig(root, { bundle_hash: 'draft-1', version_tag: 'v1' });
    const grandchild = branchRunConfig(child, { bundle_hash: 'draft-1' });
    expect(child).toEqual({ bundle_hash: 'draft-1', version_id: null, version_tag: 'v1' });
    // The version pin is inherited from the parent branch, the bundle is the rerun's.
    expect(grandchild).toEqual({ bundle_hash: 'draft-1', version_id: null, version_tag: 'v1' });
    const other = branchRunConfig(child, { bundle_hash: 'draft-2', version_id: 'v2-8-day-window' });
    expect(other).toEqual({ bundle_hash: 'draft-2', version_id: 'v2-8-day-window', version_tag: null });
  });

  it('a version pin plus a bundle: both are kept, and a rerun’s pin replaces the parent’s entirely', () => {
    const parent: RunConfig = { bundle_hash: 'abc', version_id: 'v1-30-day-window', version_tag: 'v1' };
    expect(branchRunConfig(parent, { bundle_hash: 'abc' })).toEqual(parent);
    expect(branchRunConfig(parent, { bundle_hash: 'abc', version_tag: 'v2' })).toEqual({
      bundle_hash: 'abc',
      version_id: null,
      version_tag: 'v2',
    });
  });

  it('a draft of another agent is refused; the thread’s own agent’s draft is taken with the pin kept', () => {
    const config: RunConfig = { bundle_hash: null, version_id: 'v1-launch-fees', version_tag: null };
    const refused = withDraft({ agent_id: 'flight-changes' }, config, {
      agentId: 'card-disputes',
      hash: 'abc',
    });
    expect(refused).toEqual({
      ok: false,
      reason: expect.stringContaining('The draft belongs to card-disputes; this thread runs flight-changes'),
    });
    expect(withDraft({ agent_id: '' }, config, { agentId: 'card-disputes', hash: 'abc' }).ok).toBe(false);
    expect(
      withDraft({ agent_id: 'flight-changes' }, config, { agentId: 'flight-changes', hash: 'def' }),
    ).toEqual({
      ok: true,
      config: { bundle_hash: 'def', version_id: 'v1-launch-fees', version_tag: null },
    });
  });

  it('reads a stored record tolerantly: none or damaged is the agent’s own', () => {
    expect(runConfigOf(undefined)).toEqual(AGENTS_OWN);
    expect(runConfigOf({ runs_with: 'x' })).toEqual(AGENTS_OWN);
    expect(runConfigOf({ runs_with: { bundle_hash: 'abc', version_id: 3 } })).toEqual({
      bundle_hash: 'abc',
      version_id: null,
      version_tag: null,
    });
  });
});
