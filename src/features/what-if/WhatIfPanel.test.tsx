// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { setApiConfigSource } from '../../api/client';
import { installDomStubs } from '../../lib/dom-stubs.fixture';
import { useBundleDraftStore } from '../../domain/bundles/draft-store';
import { useConnectionStore } from '../../domain/connection/connection-store';
import WhatIfPanel from './WhatIfPanel';
import WhatIfStrip from './WhatIfStrip';
import { useHasWhatIf, useWhatIfStore } from './what-if-store';

beforeAll(() => installDomStubs());

const bundle = {
  agent_tools: [
    {
      code: 'DISPUTE_CHARGE',
      rules: {
        pre: {
          constraint: [
            {
              code: 'DISPUTE_WINDOW',
              when: {
                method: 'param_value',
                params: 'transaction-date',
                operation: 'more_than_x_days',
                value: 8,
              },
              then: { action: 'BLOCK' },
            },
          ],
        },
      },
    },
  ],
};
const windowPath = ['agent_tools', 0, 'rules', 'pre', 'constraint', 0, 'when', 'value'];
const base = {
  task_id: 't1',
  interaction_id: 'm1',
  not_a_conversation_turn: true,
  bundle_source: { agent_id: 'card-disputes', version_id: 'v2', bundle_hash: null },
  parameters: [
    { code: 'transaction-amount', type: 'numeric', value: 120 },
    { code: 'dispute-reason', type: 'enum', values: ['duplicate', 'unauthorized'] },
  ],
  recorded: { decision: 'block_with_explanation', reply: 'Only within 8 days.' },
  what_if: {
    decision: 'block_with_explanation',
    reply: 'Only within 8 days.',
    suggestions: [],
    trace: {},
    overridden: [],
  },
  differences: [],
  why_not: {
    decision: 'block_with_explanation',
    capped: false,
    items: [
      {
        family: 'data',
        decision: 'request_information',
        summary: 'transaction-date on or after 2025-03-07, i.e. ≤ 8 days ago (now 2025-03-05)',
        edit: { code: 'transaction-date', value: '2025-03-07' },
        differences: [
          { kind: 'decision', subject: '', before: 'block_with_explanation', after: 'request_information' },
          { kind: 'rule', subject: 'DISPUTE_WINDOW', before: 'blocked', after: 'allowed' },
        ],
        reply: 'Why?',
      },
      {
        family: 'bundle',
        decision: 'request_information',
        summary: 'DISPUTE_WINDOW with a window of 10 days or more (now 8)',
        change: { op: 'set', path: windowPath, value: 10 },
        differences: [
          { kind: 'decision', subject: '', before: 'block_with_explanation', after: 'request_information' },
        ],
        reply: 'Why?',
      },
    ],
  },
};
const identity = {
  ...base,
  why_not: undefined,
  what_if: {
    decision: 'block_with_explanation',
    reply: 'Verify your identity.',
    suggestions: [],
    trace: {},
    overridden: [],
  },
  differences: [
    { kind: 'rule', subject: 'VERIFIED_IDENTITY_ABOVE_500', before: 'allowed', after: 'blocked' },
  ],
};

let posted: Record<string, unknown>[] = [];
const json = (body: unknown) =>
  new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });

beforeEach(() => {
  posted = [];
  setApiConfigSource(() => ({
    baseUrl: 'http://svc.test',
    keyHeader: 'x-service-api-key',
    apiKey: 'k',
    extraHeaders: [],
    timeoutMs: 5000,
  }));
  useBundleDraftStore.setState({ drafts: {}, serverIssues: null, hydrated: true });
  // A key is in, and the service lists its agents: the reference service, which stores its turns.
  useConnectionStore.setState({ apiKey: 'k' });
  useWhatIfStore.getState().reset();
  vi.stubGlobal('fetch', (url: string, init: RequestInit) => {
    if (init.method === 'POST') {
      const body = JSON.parse(String(init.body)) as { edits: unknown[] };
      posted.push(body);
      return Promise.resolve(json(body.edits.length ? identity : base));
    }
    if (url.endsWith('/reference/v1/agents')) return Promise.resolve(json({ agents: [] }));
    expect(url).toContain('/reference/v1/agents/card-disputes/bundle');
    return Promise.resolve(json({ agent_id: 'card-disputes', version_id: 'v2', bundle }));
  });
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

/** The panel and, while the turn has a what-if, the strip that shows it (as the trace view does). */
function PanelAndStrip({
  onChangedNodes,
  openTab,
}: {
  onChangedNodes: (n: Record<string, 'changed'> | undefined) => void;
  openTab: (id: string) => void;
}) {
  const hasWhatIf = useHasWhatIf('t1', 'm1');
  return (
    <>
      {hasWhatIf ? (
        <WhatIfStrip taskId="t1" interactionId="m1" turnNumber={1} onChangedNodes={onChangedNodes} />
      ) : null}
      <WhatIfPanel taskId="t1" interactionId="m1" openTab={openTab} />
    </>
  );
}

function renderPanel() {
  const onChangedNodes = vi.fn();
  const openTab = vi.fn();
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <PanelAndStrip onChangedNodes={onChangedNodes} openTab={openTab} />
    </QueryClientProvider>,
  );
  return { onChangedNodes, openTab };
}

describe('WhatIfPanel', () => {
  it('lists the changes by family, each with what else it changes', async () => {
    renderPanel();
    const values = await screen.findByRole('region', { name: 'Change a value (opens a what-if)' });
    expect(values.textContent).toContain('transaction-date on or after 2025-03-07');
    expect(values.textContent).toContain('also: DISPUTE_WINDOW blocked → allowed');
    expect(screen.getByRole('region', { name: 'Change the bundle (makes a draft)' }).textContent).toContain(
      'DISPUTE_WINDOW with a window of 10 days or more',
    );
  });

  it('a bundle change becomes the agent draft and opens the Bundle tab', async () => {
    const { openTab } = renderPanel();
    fireEvent.click(await screen.findByRole('button', { name: /DISPUTE_WINDOW with a window of 10 days/ }));
    await waitFor(() => expect(openTab).toHaveBeenCalledWith('bundle'));
    const draft = JSON.parse(useBundleDraftStore.getState().drafts['card-disputes']!) as typeof bundle;
    expect(draft.agent_tools[0]!.rules.pre.constraint[0]!.when.value).toBe(10);
  });

  it('an edited value is decided again, beside the real turn, and Reset returns to it', async () => {
    const { onChangedNodes } = renderPanel();
    const amount = await screen.findByLabelText('transaction-amount');
    expect((amount as HTMLInputElement).value).toBe('120');
    fireEvent.change(amount, { target: { value: '620' } });
    const strip = await screen.findByRole('region', { name: 'What if (not a conversation turn)' });
    const whatIf = within(strip).getByRole('article', { name: 'The what-if' });
    await waitFor(() => expect(whatIf.textContent).toContain('Verify your identity.'));
    expect(posted.at(-1)).toMatchObject({
      edits: [{ code: 'transaction-amount', value: 620 }],
      why_not: false,
    });
    expect(within(strip).getByRole('note', { name: 'What the what-if changes' }).textContent).toContain(
      'VERIFIED_IDENTITY_ABOVE_500 allowed → blocked',
    );
    expect(strip.textContent).toContain('transaction-amount = 620');
    expect(strip.textContent).toContain('understanding and tool choice held fixed');
    expect(onChangedNodes).toHaveBeenLastCalledWith({ 'rule:VERIFIED_IDENTITY_ABOVE_500': 'changed' });
    expect(within(strip).getByRole('article', { name: 'This turn' }).textContent).toContain(
      'Only within 8 days.',
    );

    fireEvent.click(within(strip).getByRole('button', { name: 'Reset' }));
    await waitFor(() =>
      expect(screen.queryByRole('region', { name: 'What if (not a conversation turn)' })).toBeNull(),
    );
    expect((amount as HTMLInputElement).value).toBe('120');
    expect(onChangedNodes).toHaveBeenLastCalledWith(undefined);
  });

  it('an edit on a value of the graph and one in the panel make one what-if', async () => {
    renderPanel();
    await screen.findByLabelText('transaction-amount');
    // As the editor on the transaction-date node writes it.
    act(() => useWhatIfStore.getState().setEdit('t1\u0000m1', 'transaction-date', '2025-03-07'));
    fireEvent.change(screen.getByLabelText('transaction-amount'), { target: { value: '620' } });
    await waitFor(() =>
      expect(posted.at(-1)).toMatchObject({
        edits: [
          { code: 'transaction-amount', value: 620 },
          { code: 'transaction-date', value: '2025-03-07' },
        ],
      }),
    );
  });

  it('a value change from the list opens a what-if with it', async () => {
    renderPanel();
    fireEvent.click(await screen.findByRole('button', { name: /transaction-date on or after/ }));
    await waitFor(() =>
      expect(posted.at(-1)).toMatchObject({ edits: [{ code: 'transaction-date', value: '2025-03-07' }] }),
    );
  });
});

describe('WhatIfPanel on a deployed service', () => {
  it('a thread this browser has no record of: says the agent is not known and what to do, assumes none', async () => {
    // The connection names an agent with a draft; the thread's own agent is not known here.
    useConnectionStore.setState({ apiKey: 'k', agentId: 'card-disputes' });
    useBundleDraftStore.setState({ drafts: { 'card-disputes': JSON.stringify(bundle) }, hydrated: true });
    const asked: string[] = [];
    vi.stubGlobal('fetch', (url: string) => {
      asked.push(url);
      // A deployed service: no reference helpers, and no traces for this sketch of a thread.
      return Promise.resolve(
        new Response(JSON.stringify({ error: { message: 'Not found' } }), {
          status: 404,
          headers: { 'content-type': 'application/json' },
        }),
      );
    });
    renderPanel();
    const note = await screen.findByRole('note', { name: 'What if is not available' });
    expect(note.textContent).toContain('The agent this thread ran is not known here');
    expect(note.textContent).toContain('Open the thread in the browser that started it');
    expect(
      screen.queryByRole('group', { name: 'Prediction of the reference engine with your bundle' }),
    ).toBeNull();
    expect(asked.some((u) => u.includes('what-if'))).toBe(false);
  });
});
