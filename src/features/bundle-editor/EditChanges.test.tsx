// @vitest-environment jsdom
import { QueryClient, QueryClientProvider, queryOptions } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { DiffResult } from '../../contract/analysis';
import { installDomStubs } from '../../lib/dom-stubs.fixture';
import { suiteOf, useSuitesStore } from '../../domain/suites/suites-store';
import { EditChanges } from './EditChanges';

// The worker is the engine's; here its answers are given, so the view is what is tested.
const answers = vi.hoisted(() => ({ diff: null as DiffResult | null }));
vi.mock('../../domain/bundles/edit-analysis', () => ({
  bundleDiffQueryOptions: (base: string, head: string) =>
    queryOptions({
      queryKey: ['bundle-diff', base, head],
      queryFn: () => Promise.resolve(answers.diff!),
      retry: false,
    }),
  replayWitness: (_bundle: string, messages: readonly string[]) =>
    Promise.resolve(messages.map(() => ({ decision: 'request_information', rules: {}, tools_invoked: [] }))),
}));

beforeAll(() => installDomStubs());
afterEach(cleanup);

const witness = {
  tool: 'BOOK_ROOM',
  clock: '2026-11-28T12:00:00.000Z',
  values: { nights: 11 },
  messages: ['I want to book a room', '11'],
};

function show(diff: DiffResult, props: Partial<Parameters<typeof EditChanges>[0]> = {}) {
  answers.diff = diff;
  render(
    <QueryClientProvider client={new QueryClient()}>
      <EditChanges agentId="hotel" baseText="{}" headText='{"a":1}' headValid label="Changes" {...props} />
    </QueryClientProvider>,
  );
  return screen.getByRole('region', { name: 'Changes' });
}

describe('What this edit changes', () => {
  it('lists each difference with its witness, and saves the witness as a test case', async () => {
    const region = show({
      equivalent: false,
      capped: false,
      not_analysed: [],
      regions: 60,
      differences: [
        {
          tool: 'BOOK_ROOM',
          region: { words: 'nights > 7 and ≤ 14', parts: [] },
          points: 1,
          before: { decision: 'request_confirmation', rules: [], tools_invoked: [], reply: '' },
          after: { decision: 'block_with_explanation', rules: ['MAX_NIGHTS'], tools_invoked: [], reply: '' },
          witness,
        },
      ],
    });
    expect(await within(region).findByText('1 decision change (60 regions checked)')).toBeTruthy();
    const [item] = within(within(region).getByRole('list', { name: 'Decision changes' })).getAllByRole(
      'listitem',
    );
    if (!item) throw new Error('no difference listed');
    expect(item.textContent).toContain(
      'BOOK_ROOM — nights > 7 and ≤ 14: needs confirmation → blocked (MAX_NIGHTS)',
    );
    expect(item.textContent).toContain('Witness: nights = 11 · clock 2026-11-28T12:00:00.000Z');
    expect(
      within(item)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['“I want to book a room”', '“11”']);
    // No app handler: no "Open as thread" offered.
    expect(within(item).queryByRole('button', { name: 'Open as thread' })).toBeNull();

    fireEvent.click(within(item).getByRole('button', { name: 'Save as test case' }));
    expect((await within(item).findByRole('status')).textContent).toBe(
      'Saved “BOOK_ROOM — nights > 7 and ≤ 14” to hotel’s tests (Tests tab).',
    );
    const saved = suiteOf(useSuitesStore.getState().suites, 'hotel').at(-1)!.testCase;
    expect(saved.turns).toEqual([
      { say: 'I want to book a room', expect: { decision: 'request_information' } },
      { say: '11', expect: { decision: 'block_with_explanation', rules: { MAX_NIGHTS: 'blocked' } } },
    ]);
  });

  it('claims equivalence only when proved, and says what was not analysed', async () => {
    const proved = show({ equivalent: true, capped: false, not_analysed: [], regions: 4, differences: [] });
    expect(
      await within(proved).findByText('Equivalent: no decision changes (4 regions checked)'),
    ).toBeTruthy();
    cleanup();
    const partial = show({
      equivalent: true,
      capped: true,
      not_analysed: [{ tool: 'REFUND', reason: 'too many regions' }],
      regions: 4,
      differences: [],
    });
    expect(await within(partial).findByText(/^No decision change found/)).toBeTruthy();
    expect(partial.textContent).not.toContain('Equivalent');
    expect(within(partial).getByRole('list', { name: 'Not analysed' }).textContent).toContain(
      'REFUND: too many regions',
    );
  });

  it('does not analyse a draft that does not validate', () => {
    const region = show(
      { equivalent: true, capped: false, not_analysed: [], regions: 1, differences: [] },
      { headValid: false },
    );
    expect(region.textContent).toContain('The edited bundle does not validate');
  });
});
