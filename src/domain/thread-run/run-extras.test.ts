import { QueryClient } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../api/errors';
import { setApiConfigSource } from '../../api/client';
import { bundleHash } from '../../lib/bundle/hash';
import { richBundle } from '../../lib/bundle/rich-bundle.fixture';
import { bundleText } from '../bundles/analysis';
import { isBundleBlockedError } from '../bundles/active-bundle';
import { rememberBundle } from '../bundles/bundle-archive';
import { useBundleDraftStore } from '../bundles/draft-store';
import { replaceThreads } from '../threads/threads-store';
import { draftThreadRunsWith, putRefusalOnMarkers } from './refusal';
import { runExtrasFor } from './run-extras';

const bundle = richBundle() as unknown as Record<string, unknown>;
const hash = bundleHash(bundle);
let fetched: string[];

beforeEach(() => {
  fetched = [];
  setApiConfigSource(() => ({
    baseUrl: 'http://svc.test',
    keyHeader: 'x-service-api-key',
    apiKey: 'k',
    extraHeaders: [],
    timeoutMs: 5000,
  }));
  vi.stubGlobal('fetch', (url: string) => {
    fetched.push(url);
    return Promise.resolve(
      new Response(JSON.stringify({ error: 'Not Found', message: 'Bundle not found' }), {
        status: 404,
        headers: { 'content-type': 'application/json' },
      }),
    );
  });
  replaceThreads([
    { id: 'own', title: 'A', agent_id: 'card-disputes', created_at: '' },
    {
      id: 'pinned',
      title: 'B',
      agent_id: 'card-disputes',
      created_at: '',
      runs_with: { bundle_hash: hash, version_id: 'v1-30-day-window', version_tag: null },
    },
    {
      id: 'lost',
      title: 'C',
      agent_id: 'card-disputes',
      created_at: '',
      runs_with: { bundle_hash: 'feedface', version_id: null, version_tag: null },
    },
  ]);
  useBundleDraftStore.setState({ drafts: {}, serverIssues: null });
});
afterEach(() => vi.unstubAllGlobals());

describe('what a send carries', () => {
  it('a thread on its agent’s own bundle sends no bundle and no pin, whatever drafts exist', async () => {
    useBundleDraftStore.setState({ drafts: { 'card-disputes': bundleText(bundle) } });
    expect(await runExtrasFor(new QueryClient(), 'own')).toEqual({});
  });

  it('a thread with a bundle and a pin sends both, the bundle found by its hash', async () => {
    await rememberBundle(hash, bundle);
    expect(await runExtrasFor(new QueryClient(), 'pinned')).toEqual({
      agent: { version_id: 'v1-30-day-window' },
      agent_settings_bundle: bundle,
    });
  });

  it('a bundle held neither here nor on the server is refused before anything is sent', async () => {
    const error = await runExtrasFor(new QueryClient(), 'lost').catch((e: unknown) => e);
    expect(isBundleBlockedError(error)).toBe(true);
    expect((error as Error).message).toContain('bundle #feedface');
    expect(fetched).toEqual(['http://svc.test/reference/v1/bundles/feedface']);
  });

  it('a 422 about the draft the thread runs with goes on the editor’s markers; another thread’s does not', () => {
    const text = bundleText(bundle);
    useBundleDraftStore.setState({ drafts: { 'card-disputes': text } });
    const issues = [{ code: 'x', message: 'no', loc: ['parameters', 0], severity: 'error' as const }];
    const refused = new ApiError({
      kind: 'http',
      status: 422,
      title: 'Invalid',
      message: 'bad',
      guidance: '',
      issues,
    });
    putRefusalOnMarkers(refused, draftThreadRunsWith('own'));
    expect(useBundleDraftStore.getState().serverIssues).toBeNull();
    putRefusalOnMarkers(refused, draftThreadRunsWith('pinned'));
    expect(useBundleDraftStore.getState().serverIssues).toEqual({ agentId: 'card-disputes', text, issues });
  });
});
