// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, fireEvent, render, renderHook, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { setApiConfigSource } from '../../api/client';
import { ApiError } from '../../api/errors';
import { installDomStubs } from '../../lib/dom-stubs.fixture';
import { useConnectionStore } from '../../domain/connection/connection-store';
import { replaceThreads, useThreadsStore } from '../../domain/threads/threads-store';
import { ChatPane } from './ChatPane';
import { useDraftsStore } from './drafts-store';
import { selectOutbox, useOutboxStore } from './outbox-store';
import { useSendTurn } from './use-send-turn';

beforeAll(() => installDomStubs());

type Pending = { url: string; body: unknown; resolve: (r: Response) => void; reject: (e: unknown) => void };
let requests: Pending[] = [];
let traceList: unknown[] = [];

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

beforeEach(() => {
  requests = [];
  traceList = [];
  useConnectionStore.setState({ apiKey: 'k' });
  setApiConfigSource(() => ({
    baseUrl: 'http://svc.test',
    keyHeader: 'x-service-api-key',
    apiKey: 'k',
    extraHeaders: [],
    timeoutMs: 5000,
  }));
  replaceThreads([
    {
      id: 't1',
      title: 'Test thread',
      agent_id: 'card-disputes',
      created_at: '2025-01-01T00:00:00Z',
      welcome_message: 'Welcome!',
      suggestions: ['Dispute a charge'],
    },
  ]);
  useDraftsStore.setState({ drafts: {} });
  vi.stubGlobal('fetch', (url: string, init: RequestInit) => {
    if (url.includes('/trace-info')) return Promise.resolve(json(traceList));
    return new Promise<Response>((resolve, reject) =>
      requests.push({ url, body: JSON.parse(String(init.body)), resolve, reject }),
    );
  });
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function renderChat(extra: Partial<Parameters<typeof ChatPane>[0]> = {}, taskId = 't1') {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <ChatPane taskId={taskId} selectedTurnId={undefined} onSelectTurn={() => {}} {...extra} />
    </QueryClientProvider>,
  );
}

const reply = {
  id: 'm1',
  text: 'Sorry, **too late** to dispute.',
  followup_suggestions: ['Freeze my card'],
  trace_info: { interaction_id: 'm1', intent: 'dispute_charge', decision: 'block_with_explanation' },
};

describe('ChatPane', () => {
  it('shows the welcome and starters; Ctrl+Enter sends with include_trace, the bubble appears at once, then the reply with its badge and chips', async () => {
    renderChat({ renderTurnActions: (turn) => <button type="button">Action for {turn.id}</button> });
    expect(await screen.findByText('Welcome!')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Dispute a charge' })).toBeTruthy();

    const box = screen.getByRole('textbox', { name: 'Message' });
    fireEvent.change(box, { target: { value: 'I want to dispute a charge' } });
    fireEvent.keyDown(box, { key: 'Enter', ctrlKey: true });

    expect(screen.getByText('I want to dispute a charge')).toBeTruthy();
    expect(screen.getByText('The agent is replying…')).toBeTruthy();
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Send' }).disabled).toBe(true);
    await waitFor(() => expect(requests).toHaveLength(1));
    expect(requests[0]?.url).toContain('include_trace=true');
    expect(requests[0]?.body).toEqual({ type: 'message', task_id: 't1', text: 'I want to dispute a charge' });

    await act(async () => requests[0]?.resolve(json(reply)));
    expect((await screen.findByTitle('Decision: block_with_explanation')).textContent).toBe(
      'Decision: blocked',
    );
    expect(screen.getByRole('button', { name: 'Freeze my card' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Action for m1' })).toBeTruthy();
    expect(screen.queryByText('The agent is replying…')).toBeNull();
    expect(screen.getByTitle('Measured round trip')).toBeTruthy();
    expect((box as HTMLTextAreaElement).value).toBe('');

    // ↑ in the empty box recalls the last message.
    fireEvent.keyDown(box, { key: 'ArrowUp' });
    expect((box as HTMLTextAreaElement).value).toBe('I want to dispute a charge');
  });

  it('shows a failure inline; retry sends once, however often it is clicked', async () => {
    renderChat();
    await screen.findByText('Welcome!');
    fireEvent.change(screen.getByRole('textbox', { name: 'Message' }), { target: { value: 'hello' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(requests).toHaveLength(1));
    await act(async () =>
      requests[0]?.resolve(json({ error: 'Unauthorized', message: 'Invalid or missing API key' }, 401)),
    );

    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Invalid or missing API key');
    expect(alert.textContent).toContain('did not accept the API key');

    // An impatient double click. The entry turns pending before anything is sent, so the second
    // click finds no Retry button (React re-renders between the two clicks, as in a browser).
    await userEvent.setup().dblClick(screen.getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(requests).toHaveLength(2));
    expect(screen.queryByRole('button', { name: 'Retry' })).toBeNull();
    expect(screen.getByText('The agent is replying…')).toBeTruthy();

    await act(async () =>
      requests[1]?.resolve(
        json({ ...reply, id: 'm2', trace_info: { ...reply.trace_info, interaction_id: 'm2' } }),
      ),
    );
    await waitFor(() => expect(screen.queryByRole('alert')).toBeNull());
    expect(within(screen.getByRole('log', { name: 'Conversation' })).getAllByText('hello')).toHaveLength(1);
    // A sent message never renames the thread.
    expect(screen.getByRole('heading', { name: /Test thread/ })).toBeTruthy();
    expect(useThreadsStore.getState().threads.get('t1')?.title).toBe('Test thread');
    expect(requests).toHaveLength(2);
  });

  it('a retry started twice before React re-renders still sends once (the outbox guard)', async () => {
    // No click can do this (see above); a second caller of `retry` (a shortcut, a stale handler) could.
    const client = new QueryClient();
    const { result } = renderHook(() => useSendTurn('t1'), {
      wrapper: ({ children }) => <QueryClientProvider client={client}>{children}</QueryClientProvider>,
    });
    const { begin, fail } = useOutboxStore.getState();
    begin({ localId: 'l-twice', taskId: 't1', text: 'hello' });
    fail(
      't1',
      'l-twice',
      new ApiError({ kind: 'network', status: 0, title: 'x', message: 'y', guidance: 'z' }),
    );
    const entry = selectOutbox('t1')(useOutboxStore.getState()).find((e) => e.localId === 'l-twice')!;

    act(() => {
      result.current.retry(entry);
      result.current.retry(entry);
    });
    await waitFor(() => expect(requests).toHaveLength(1));
    await act(async () => requests[0]?.resolve(json(reply)));
    await waitFor(() => expect(selectOutbox('t1')(useOutboxStore.getState())).toEqual([]));
    expect(requests).toHaveLength(1);
  });

  it('keeps the draft per thread', () => {
    useDraftsStore.getState().setDraft('t1', 'half-written');
    renderChat();
    expect(screen.getByRole<HTMLTextAreaElement>('textbox', { name: 'Message' }).value).toBe('half-written');
  });

  it('opened from a link in a fresh browser: shows the turns from the traces and can keep the thread', async () => {
    traceList = [
      {
        interaction_id: 'm7',
        intent: 'dispute_charge',
        decision: 'request_confirmation',
        input: { message: 'Dispute the $40 charge' },
        response: { message: 'Shall I file it?', suggestions: ['Yes'] },
      },
    ];
    renderChat({}, 'elsewhere');
    expect(await screen.findByText('Dispute the $40 charge')).toBeTruthy();
    expect(screen.getByText('Shall I file it?')).toBeTruthy();
    expect(screen.getByTitle('Decision: request_confirmation').textContent).toBe(
      'Decision: needs confirmation',
    );
    fireEvent.click(screen.getByRole('button', { name: 'Keep in my threads' }));
    expect(useThreadsStore.getState().threads.get('elsewhere')?.title).toBe('Dispute the $40 charge');
    expect(screen.queryByRole('button', { name: 'Keep in my threads' })).toBeNull();
  });
});
