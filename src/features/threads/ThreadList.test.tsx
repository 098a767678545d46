// @vitest-environment jsdom
/**
 * The thread list at scale, by counting work rather than timing it: the rows drawn, the rows a
 * send changes in the page, and the comparisons the order makes, at 1,000 to 8,000 threads.
 */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { setApiConfigSource } from '../../api/client';
import { useConnectionStore } from '../../domain/connection/connection-store';
import { installDomStubs } from '../../lib/dom-stubs.fixture';
import { orderWork } from '../../domain/threads/thread-order';
import { THREAD_ROW_HEIGHT, ThreadList } from './ThreadList';
import { replaceThreads, useThreadsStore, type ThreadRecord } from '../../domain/threads/threads-store';

beforeAll(() => installDomStubs({ width: 300, height: 600 }));

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

let taskList: (url: string) => Response;

function seed(n: number): void {
  const threads: ThreadRecord[] = [];
  for (let i = 0; i < n; i += 1) {
    const id = `t${String(i).padStart(5, '0')}`;
    const at = new Date(Date.UTC(2025, 0, 1) + i * 60_000).toISOString();
    threads.push({
      id,
      title: `Thread ${i}`,
      agent_id: i % 2 ? 'card-disputes' : 'flight-changes',
      created_at: at,
    });
  }
  replaceThreads(threads);
}

beforeEach(() => {
  useConnectionStore.setState({ apiKey: 'k' });
  setApiConfigSource(() => ({
    baseUrl: 'http://svc.test',
    keyHeader: 'x-service-api-key',
    apiKey: 'k',
    extraHeaders: [],
    timeoutMs: 5000,
  }));
  taskList = () => json({ error: 'Not Found', message: 'no such route' }, 404);
  vi.stubGlobal('fetch', (url: string) => {
    if (url.includes('/reference/v1/tasks')) return Promise.resolve(taskList(url));
    if (url.includes('/reference/v1/agents'))
      return Promise.resolve(json({ agents: [{ id: 'card-disputes', name: 'Cards', versions: [] }] }));
    return Promise.resolve(json({}, 404));
  });
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function show() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <ThreadList activeTaskId={undefined} onOpen={() => {}} onNew={() => {}} />
    </QueryClientProvider>,
  );
}

/** The rows (list items) whose content or place changed while `act` ran. */
async function rowsChangedBy(action: () => void): Promise<number> {
  const list = screen.getByRole('navigation', { name: 'Threads' }).querySelector('ul')!;
  const changed = new Set<Node>();
  const observer = new MutationObserver((records) => {
    for (const r of records) {
      let node: Node | null = r.target;
      while (node && node.parentNode !== list) node = node.parentNode;
      changed.add(node ?? list);
    }
  });
  observer.observe(list, { subtree: true, childList: true, attributes: true, characterData: true });
  await act(async () => action());
  observer.takeRecords().forEach(() => undefined);
  observer.disconnect();
  return changed.size;
}

async function workOfSends(n: number) {
  seed(n);
  show();
  await screen.findByText(/this service does not list threads/);
  const drawn = screen.getAllByRole('listitem').length;
  const newest = useThreadsStore.getState().order[0]!;
  const middle = useThreadsStore.getState().order[Math.floor(n / 2)]!;
  orderWork.comparisons = 0;
  orderWork.fullSorts = 0;
  // A send in the open (newest) thread, then in a thread from the middle of the list.
  const sendInNewest = await rowsChangedBy(() =>
    useThreadsStore.getState().touchThread(newest, '2026-01-01T00:00:00.000Z'),
  );
  const comparisonsNewest = orderWork.comparisons;
  const sendInMiddle = await rowsChangedBy(() =>
    useThreadsStore.getState().touchThread(middle, '2026-01-02T00:00:00.000Z'),
  );
  expect(useThreadsStore.getState().order.slice(0, 2)).toEqual([middle, newest]);
  return {
    drawn,
    sendInNewest,
    comparisonsNewest,
    sendInMiddle,
    comparisons: orderWork.comparisons,
    fullSorts: orderWork.fullSorts,
  };
}

describe('ThreadList at scale', () => {
  it('draws the rows on screen only, and a send touches O(1) rows and O(log n) comparisons', async () => {
    const sizes = [1_000, 2_000, 4_000, 8_000];
    const work = [];
    for (const n of sizes) {
      work.push(await workOfSends(n));
      cleanup();
    }
    const [small] = work;
    for (const [i, w] of work.entries()) {
      // Drawn: the rows of a 600 px list and a few more (overscan), whatever the number of threads.
      expect(w.drawn).toBeLessThanOrEqual(Math.ceil(600 / THREAD_ROW_HEIGHT) + 2 * 8);
      expect(w.drawn).toBe(small!.drawn);
      // A send in the newest thread redraws its own row, moves nothing and compares nothing.
      expect(w.sendInNewest).toBe(1);
      expect(w.comparisonsNewest).toBe(0);
      // A send elsewhere moves one thread to the top: the rows on screen shift, no more.
      expect(w.sendInMiddle).toBeLessThanOrEqual(w.drawn);
      expect(w.sendInMiddle).toBe(small!.sendInMiddle);
      // No thread list is sorted on a send; the order's comparisons grow with log n only.
      expect(w.fullSorts).toBe(0);
      expect(w.comparisons).toBeLessThanOrEqual(2 * Math.ceil(Math.log2(sizes[i]!)) + 2);
    }
  });

  it('lists the team’s threads after this browser’s, each once, and filters by title', async () => {
    seed(3);
    taskList = (url) =>
      json({
        items: [
          {
            task_id: 't00001',
            agent_id: 'card-disputes',
            title: 'Thread 1',
            turn_count: 2,
            last_activity_at: '',
          },
          {
            task_id: 'team-1',
            agent_id: 'card-disputes',
            title: 'Refund for Sam',
            turn_count: 4,
            last_activity_at: '2025-01-01T00:00:00Z',
            parent: null,
          },
        ],
        next_cursor: null,
        url,
      });
    show();
    await screen.findByText('Shared on this service');
    const rows = screen.getAllByRole('listitem').map((li) => li.textContent);
    expect(rows.map((r) => r?.split(/card|flight/)[0])).toEqual([
      'Thread 2',
      'Thread 1',
      'Thread 0',
      'Shared on this service',
      'Refund for Sam',
    ]);
    expect(rows[4]).toContain('4 turns');
    await userEvent.type(screen.getByLabelText('Search threads by title'), 'refund');
    await waitFor(() => expect(screen.getAllByRole('listitem')).toHaveLength(2));
    const nav = screen.getByRole('navigation', { name: 'Threads' });
    expect(within(nav).getByText('Refund for Sam')).toBeTruthy();
  });
});

describe('ThreadList storage', () => {
  it('lists the threads it could read and says how many stored ones it could not', async () => {
    seed(2);
    useThreadsStore.setState({ unreadable: ['damaged-1', 'damaged-2'] });
    show();
    expect(await screen.findByText(/2 threads stored in this browser could not be read/)).toBeTruthy();
    expect(screen.getAllByRole('listitem')).toHaveLength(2);
    useThreadsStore.setState({ unreadable: [] });
  });
});

describe('ThreadList keyboard', () => {
  it('moves between threads with ↑ ↓ Home End, to rows not drawn yet', async () => {
    seed(1_000);
    show();
    await screen.findByText(/this service does not list threads/);
    const first = screen.getByRole('button', { name: /^Thread 999/ });
    first.focus();
    await userEvent.keyboard('{ArrowDown}');
    expect(document.activeElement?.textContent).toMatch(/^Thread 998/);
    await userEvent.keyboard('{End}');
    await waitFor(() => expect(document.activeElement?.textContent).toMatch(/^Thread 0flight/));
    await userEvent.keyboard('{ArrowUp}');
    await waitFor(() => expect(document.activeElement?.textContent).toMatch(/^Thread 1card/));
    await userEvent.keyboard('{Home}');
    await waitFor(() => expect(document.activeElement?.textContent).toMatch(/^Thread 999/));
    // Still only the rows on screen are drawn.
    expect(screen.getAllByRole('listitem').length).toBeLessThan(40);
  });
});
