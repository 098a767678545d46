// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { setApiConfigSource } from '../../api/client';
import { installDomStubs } from '../../lib/dom-stubs.fixture';
import { useLineageStore } from '../../domain/lineage/lineage-store';
import { bundleText } from '../../domain/bundles/analysis';
import { useBundleDraftStore } from '../../domain/bundles/draft-store';
import { AGENTS_OWN } from '../../domain/threads/run-config';
import { replaceThreads, useThreadsStore } from '../../domain/threads/threads-store';
import { RerunDialog } from './RerunDialog';

beforeAll(() => installDomStubs());

const goodBundle = { parameters: [{ code: 'transaction-date', type: 'date' }] };
const badBundle = { parameters: [{ code: 'transaction-date', type: 'when' }] };
let posted: { url: string; body: Record<string, unknown> }[] = [];
let answer: () => Response;

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

beforeEach(() => {
  posted = [];
  answer = () =>
    json({
      regenerated_task_id: 'branch-1',
      message: {
        id: 'm9',
        text: 'Filed.',
        bundle_hash: 'feedface00000000',
        trace_info: { decision: 'proceed' },
      },
    });
  setApiConfigSource(() => ({
    baseUrl: 'http://svc.test',
    keyHeader: 'x-service-api-key',
    apiKey: 'k',
    extraHeaders: [],
    timeoutMs: 5000,
  }));
  useLineageStore.setState({ records: [] });
  replaceThreads([
    { id: 't1', title: 'Dispute', agent_id: 'card-disputes', created_at: '2025-01-01T00:00:00Z' },
  ]);
  useBundleDraftStore.setState({
    drafts: { 'card-disputes': bundleText(badBundle) },
    serverIssues: null,
    hydrated: true,
  });
  vi.stubGlobal('fetch', (url: string, init: RequestInit) => {
    if (init.method === 'POST') {
      posted.push({ url, body: JSON.parse(String(init.body)) as Record<string, unknown> });
      return Promise.resolve(answer());
    }
    return Promise.resolve(json({ agent_id: 'card-disputes', version_id: 'v2', bundle: goodBundle }));
  });
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function renderDialog(defaultBundle: 'draft' | null = 'draft') {
  const onClose = vi.fn();
  const onOpened = vi.fn();
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <RerunDialog
        target={{
          taskId: 't1',
          interactionId: 'm2',
          originalText: 'dispute the charge from 10 days ago',
          agentId: 'card-disputes',
        }}
        turnNumber={2}
        {...(defaultBundle ? { defaultBundle } : {})}
        threadConfig={AGENTS_OWN}
        onClose={onClose}
        onOpened={onOpened}
      />
    </QueryClientProvider>,
  );
  return { onClose, onOpened };
}

describe('RerunDialog', () => {
  it('refuses a draft with errors and says why; nothing is sent', () => {
    renderDialog();
    expect(screen.getByRole('dialog', { name: 'Rerun turn 2 as a new branch' })).toBeTruthy();
    expect(screen.getByRole('status').textContent).toMatch(/1 error, so it is not sent/);
    const submit = screen.getByRole<HTMLButtonElement>('button', { name: 'Rerun' });
    expect(submit.disabled).toBe(true);
    fireEvent.click(submit);
    expect(posted).toEqual([]);
  });

  it('reruns an edited text with the baseline, then records the branch and opens it', async () => {
    const { onOpened, onClose } = renderDialog();
    fireEvent.change(screen.getByLabelText('Message to replay'), {
      target: { value: 'dispute the charge from 5 days ago' },
    });
    fireEvent.click(screen.getByRole('radio', { name: /Baseline/ }));
    fireEvent.change(screen.getByLabelText('Revision tag (optional)'), { target: { value: 'v1' } });
    await waitFor(() =>
      expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Rerun' }).disabled).toBe(false),
    );
    fireEvent.click(screen.getByRole('button', { name: 'Rerun' }));

    await waitFor(() => expect(onOpened).toHaveBeenCalledWith('branch-1', 'm9'));
    expect(onClose).toHaveBeenCalled();
    expect(posted).toHaveLength(1);
    expect(posted[0]!.url).toContain('/v1/messaging/messages/rerun?include_trace=true');
    expect(posted[0]!.body).toEqual({
      task_id: 't1',
      interaction_id: 'm2',
      text: 'dispute the charge from 5 days ago',
      agent_id: 'card-disputes',
      version_tag: 'v1',
      agent_settings_bundle: goodBundle,
    });
    expect(useLineageStore.getState().records).toMatchObject([
      {
        task_id: 'branch-1',
        parent_task_id: 't1',
        parent_interaction_id: 'm2',
        edited_text: 'dispute the charge from 5 days ago',
        bundle_hash: 'feedface00000000',
        version_tag: 'v1',
      },
    ]);
    // The branch runs with what its rerun ran with, and keeps the name given at the fork.
    expect(useThreadsStore.getState().threads.get('branch-1')).toMatchObject({
      title: 'Dispute · rerun of turn 2',
      agent_id: 'card-disputes',
      runs_with: { bundle_hash: 'feedface00000000', version_id: null, version_tag: 'v1' },
    });
    expect(useThreadsStore.getState().threads.get('branch-1')).not.toHaveProperty('parent');
  });

  it('preselects a valid edited draft and describes every choice differently', async () => {
    useBundleDraftStore.setState({ drafts: { 'card-disputes': bundleText(goodBundle) } });
    renderDialog(null);
    await waitFor(() =>
      expect(screen.getByRole<HTMLInputElement>('radio', { name: /Current draft/ }).checked).toBe(true),
    );
    const hints = screen.getAllByRole('radio').map((r) => r.closest('label')?.textContent?.split('—')[1]);
    expect(new Set(hints).size).toBe(hints.length);
  });

  it('preselects what the thread runs with when the draft has errors', () => {
    renderDialog(null);
    expect(screen.getByRole<HTMLInputElement>('radio', { name: /None/ }).checked).toBe(true);
    expect(screen.queryByRole('status')).toBeNull();
  });

  it("puts a 422's issues on the draft's markers", async () => {
    useBundleDraftStore.setState({ drafts: { 'card-disputes': bundleText(goodBundle) } });
    answer = () =>
      json(
        {
          error: 'Unprocessable Entity',
          message: 'invalid bundle',
          issues: [{ code: 'x', message: 'no', loc: ['parameters', 0], severity: 'error' }],
        },
        422,
      );
    renderDialog();
    fireEvent.click(screen.getByRole('button', { name: 'Rerun' }));
    await waitFor(() => expect(useBundleDraftStore.getState().serverIssues?.issues).toHaveLength(1));
    expect(useBundleDraftStore.getState().serverIssues?.text).toBe(bundleText(goodBundle));
    expect(screen.getByText('The service’s issues are marked in the Bundle tab.')).toBeTruthy();
  });
});
