// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { setApiConfigSource } from '../../api/client';
import { installDomStubs } from '../../lib/dom-stubs.fixture';
import { replaceThreads } from '../../domain/threads/threads-store';
import { BranchTree } from './BranchTree';
import type { LineageRecord } from '../../domain/lineage/lineage';
import { useLineageStore } from '../../domain/lineage/lineage-store';

beforeAll(() => installDomStubs());

const rec = (
  task_id: string,
  parent_task_id: string,
  parent_interaction_id: string,
  extra: Partial<LineageRecord> = {},
): LineageRecord => ({
  task_id,
  parent_task_id,
  parent_interaction_id,
  edited_text: 'dispute it',
  original_text: 'dispute it',
  bundle_hash: null,
  version_id: null,
  version_tag: null,
  created_at: `2025-01-01T00:00:0${task_id.length}.000Z`,
  ...extra,
});

const traces: Record<string, { interaction_id: string; decision: string }[]> = {
  root: [
    { interaction_id: 'r1', decision: 'request_information' },
    { interaction_id: 'r2', decision: 'block_with_explanation' },
  ],
  b1: [
    { interaction_id: 'b1-1', decision: 'request_information' },
    { interaction_id: 'b1-2', decision: 'request_confirmation' },
  ],
  b11: [{ interaction_id: 'x', decision: 'proceed' }],
};

beforeEach(() => {
  setApiConfigSource(() => ({
    baseUrl: 'http://svc.test',
    keyHeader: 'x-service-api-key',
    apiKey: 'k',
    extraHeaders: [],
    timeoutMs: 5000,
  }));
  useLineageStore.setState({
    records: [
      rec('b1', 'root', 'r2', { bundle_hash: 'abcdef0123456789' }),
      rec('b11', 'b1', 'b1-1', { edited_text: 'a new text' }),
    ],
  });
  replaceThreads([
    { id: 'root', title: 'Original', agent_id: 'card-disputes', created_at: '2025-01-01T00:00:00Z' },
    { id: 'b1', title: 'Branch one', agent_id: 'card-disputes', created_at: '2025-01-01T00:00:01Z' },
  ]);
  vi.stubGlobal('fetch', (url: string) => {
    const task = /tasks\/([^/]+)\/trace-info/.exec(url)?.[1] ?? '';
    return Promise.resolve(
      new Response(JSON.stringify(traces[task] ?? []), {
        status: 200,
        headers: { 'content-type': 'application/json' },
      }),
    );
  });
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function renderTree(taskId: string) {
  const onOpen = vi.fn();
  const onCompare = vi.fn();
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <BranchTree taskId={taskId} onOpen={onOpen} onCompare={onCompare} />
    </QueryClientProvider>,
  );
  return { onOpen, onCompare };
}

describe('BranchTree', () => {
  it('shows the whole family from any member, with levels, changes and decisions after each fork', async () => {
    renderTree('b11');
    const items = screen.getAllByRole('treeitem');
    expect(items.map((i) => [i.getAttribute('data-task-id'), i.getAttribute('aria-level')])).toEqual([
      ['root', '1'],
      ['b1', '2'],
      ['b11', '3'],
    ]);
    expect(items[1]!.textContent).toContain('bundle #abcdef01');
    expect(items[2]!.textContent).toContain('text edited: “a new text”');
    expect(items[2]!.getAttribute('aria-selected')).toBe('true');
    // Branch b1 forked at the root's 2nd turn: its own decisions start there.
    await waitFor(() =>
      expect(within(items[1]!).getByRole('list', { name: 'Decisions' }).textContent).toBe(
        'Decision: needs confirmation',
      ),
    );
    expect(items[1]!.textContent).toContain('Forked at turn 2');
    await waitFor(() =>
      expect(within(items[0]!).getByRole('list', { name: 'Decisions' }).textContent).toBe(
        'Decision: needs informationDecision: blocked',
      ),
    );
  });

  it('with a refused key, says where each branch forked and why the turn number is unknown', async () => {
    vi.stubGlobal('fetch', () =>
      Promise.resolve(
        new Response(JSON.stringify({ error: 'unauthorized', message: 'Invalid API key' }), {
          status: 401,
          headers: { 'content-type': 'application/json' },
        }),
      ),
    );
    renderTree('b1');
    const items = screen.getAllByRole('treeitem');
    await waitFor(() =>
      expect(items[1]!.textContent).toContain(
        'Forked at interaction r2 (fork point unknown: the key was refused)',
      ),
    );
    expect(items[2]!.textContent).toContain(
      'Forked at interaction b1-1 (fork point unknown: the key was refused)',
    );
    expect(screen.getByRole('tree').textContent).not.toContain('?');
  });

  it('opens with Enter, picks two with Space, and compares them', () => {
    const { onOpen, onCompare } = renderTree('root');
    const items = screen.getAllByRole('treeitem');
    items[0]!.focus();
    fireEvent.keyDown(items[0]!, { key: ' ' });
    fireEvent.keyDown(items[0]!, { key: 'ArrowDown' });
    expect(document.activeElement).toBe(items[1]);
    fireEvent.keyDown(items[1]!, { key: 'Enter' });
    expect(onOpen).toHaveBeenCalledWith('b1');
    fireEvent.keyDown(items[1]!, { key: 'End' });
    expect(document.activeElement).toBe(items[2]);
    fireEvent.keyDown(items[2]!, { key: ' ' });
    fireEvent.click(screen.getByRole('button', { name: 'Compare picked' }));
    expect(onCompare).toHaveBeenCalledWith('root', 'b11');
  });

  it('compares a branch with its parent in one click', () => {
    const { onCompare } = renderTree('root');
    const b11 = screen.getAllByRole('treeitem')[2]!;
    fireEvent.click(within(b11).getByRole('button', { name: 'Compare with parent' }));
    expect(onCompare).toHaveBeenCalledWith('b1', 'b11');
  });
});
