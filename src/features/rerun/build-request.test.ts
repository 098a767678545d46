import { describe, expect, it } from 'vitest';
import { RerunIn } from '../../contract/api';
import {
  preferredBundleChoice,
  buildRerunRequest,
  formProblem,
  type RerunForm,
  type RerunTarget,
} from './build-request';
import { lineageRecordFor } from '../../domain/thread-run/lineage-record';

const target: RerunTarget = {
  taskId: 't1',
  interactionId: 'm2',
  originalText: 'dispute the $40 charge from 10 days ago',
  agentId: 'card-disputes',
};
const form = (patch: Partial<RerunForm> = {}): RerunForm => ({
  text: target.originalText,
  bundleChoice: 'none',
  versionId: '',
  versionTag: '',
  ...patch,
});
const bundle = { parameters: [] };

describe('buildRerunRequest', () => {
  it('replays the original text without a bundle or a pin', () => {
    expect(buildRerunRequest(target, form(), null)).toEqual({
      task_id: 't1',
      interaction_id: 'm2',
      text: target.originalText,
      agent_id: 'card-disputes',
    });
  });

  it('carries an edited text, the chosen bundle and a trimmed pin', () => {
    const body = buildRerunRequest(
      target,
      form({ text: '  edited  ', bundleChoice: 'draft', versionId: ' v1-30-day-window ', versionTag: 'v1' }),
      bundle,
    );
    expect(body).toEqual({
      task_id: 't1',
      interaction_id: 'm2',
      text: 'edited',
      agent_id: 'card-disputes',
      version_id: 'v1-30-day-window',
      version_tag: 'v1',
      agent_settings_bundle: bundle,
    });
  });

  it('never attaches a bundle when "none" is chosen', () => {
    expect(buildRerunRequest(target, form({ bundleChoice: 'none' }), bundle)).not.toHaveProperty(
      'agent_settings_bundle',
    );
  });
});

describe('formProblem', () => {
  it('asks for a text', () => {
    expect(formProblem(form({ text: '   ' }), null)).toMatch(/message/);
  });
  it('refuses a draft with errors, with the reason', () => {
    expect(
      formProblem(form({ bundleChoice: 'draft' }), { status: 'blocked', reason: 'The bundle has 1 error.' }),
    ).toBe('The bundle has 1 error.');
    expect(formProblem(form({ bundleChoice: 'baseline' }), { status: 'loading' })).toMatch(/loading/);
  });
  it('is satisfied by a ready bundle or none', () => {
    expect(formProblem(form({ bundleChoice: 'draft' }), { status: 'ready' })).toBeNull();
    expect(formProblem(form(), { status: 'blocked', reason: 'x' })).toBeNull();
  });
});

describe('lineageRecordFor', () => {
  const answer = RerunIn.parse({
    regenerated_task_id: 't9',
    message: { id: 'm9', text: 'ok', bundle_hash: 'abc123' },
  });
  const now = new Date('2025-03-01T10:00:00.000Z');

  it('records the fork point, both texts, the bundle hash from the service and the pin', () => {
    const request = buildRerunRequest(
      target,
      form({ text: 'edited', bundleChoice: 'draft', versionTag: 'v1' }),
      bundle,
    );
    expect(lineageRecordFor(target, request, answer, 'local-hash', now)).toEqual({
      task_id: 't9',
      parent_task_id: 't1',
      parent_interaction_id: 'm2',
      edited_text: 'edited',
      original_text: target.originalText,
      bundle_hash: 'abc123',
      version_id: null,
      version_tag: 'v1',
      created_at: '2025-03-01T10:00:00.000Z',
    });
  });

  it('falls back to the locally computed hash, and records none without a bundle', () => {
    const noHash = RerunIn.parse({ regenerated_task_id: 't9', message: { id: 'm9', text: 'ok' } });
    const withBundle = buildRerunRequest(target, form({ bundleChoice: 'baseline' }), bundle);
    expect(lineageRecordFor(target, withBundle, noHash, 'local-hash', now).bundle_hash).toBe('local-hash');
    expect(
      lineageRecordFor(target, buildRerunRequest(target, form(), null), answer, null, now).bundle_hash,
    ).toBeNull();
  });
});

describe('preferredBundleChoice', () => {
  it('prefers a valid draft that differs from what the thread runs with', () => {
    expect(preferredBundleChoice(undefined, { status: 'ready', hash: 'aa' })).toBe('draft');
    expect(preferredBundleChoice('bb', { status: 'ready', hash: 'aa' })).toBe('draft');
  });
  it('keeps what the thread runs with when the draft is that bundle, has errors or is absent', () => {
    expect(preferredBundleChoice('aa', { status: 'ready', hash: 'aa' })).toBe('thread');
    expect(preferredBundleChoice('aa', { status: 'blocked' })).toBe('thread');
    expect(preferredBundleChoice(null, { status: 'blocked' })).toBe('none');
  });
});
