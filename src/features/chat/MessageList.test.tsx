// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { pageWindow } from '../../api/trace-window';
import { installDomStubs } from '../../lib/dom-stubs.fixture';
import { MessageList } from './MessageList';
import type { Turn } from '../../domain/transcript/transcript';

beforeAll(() => installDomStubs({ width: 800, height: 600 }));
afterEach(cleanup);

const turns: Turn[] = Array.from({ length: 5000 }, (_, i) => ({
  id: `m${i}`,
  index: i,
  userText: `question ${i}`,
  replyText: `answer ${i}`,
  suggestions: [],
  decision: 'proceed',
  textUnavailable: false,
}));

const noop = () => {};

describe('MessageList', () => {
  it('of a long thread holding its newest page: counts every turn, says which are loading, asks for those in view', async () => {
    const asked: Array<[number, number]> = [];
    const window = pageWindow(5000, 500, 10, []);
    render(
      <MessageList
        turns={turns.slice(4500)}
        part={{ total: 5000, start: 4500, window, loadTurns: (from, to) => asked.push([from, to]) }}
        outbox={[]}
        selectedTurnId={undefined}
        onSelectTurn={noop}
        onSend={noop}
        onRetry={noop}
        onDiscard={noop}
      />,
    );
    expect(await screen.findByRole('article', { name: 'Turn 5000' })).toBeTruthy();
    // Nothing is asked for while the newest turns are in view.
    await new Promise((r) => setTimeout(r, 200));
    expect(asked).toEqual([]);

    const log = screen.getByRole('log', { name: 'Conversation' });
    fireEvent.wheel(log, { deltaY: -5000 });
    log.scrollTop = 0;
    fireEvent.scroll(log);
    expect(await screen.findAllByText(/Turn 1: loading turns 1–500…/)).toHaveLength(1);
    await vi.waitFor(() => expect(asked.length).toBeGreaterThan(0));
    const [from, to] = asked.at(-1)!;
    expect(from).toBe(0);
    expect(to).toBeGreaterThan(0);
    expect(to).toBeLessThan(40);
  });

  it('keeps only the rows in view in the DOM for a thread of 5000 turns', async () => {
    render(
      <MessageList
        turns={turns}
        outbox={[]}
        selectedTurnId={undefined}
        onSelectTurn={noop}
        onSend={noop}
        onRetry={noop}
        onDiscard={noop}
        renderTurnActions={(t) => <span>action {t.id}</span>}
      />,
    );
    // It follows the newest turn.
    expect(await screen.findByRole('article', { name: 'Turn 5000' })).toBeTruthy();
    const rendered = screen.getAllByRole('article');
    expect(rendered.length).toBeLessThan(40);
    expect(screen.getByText('action m4999')).toBeTruthy();
    expect(screen.queryByRole('article', { name: 'Turn 1' })).toBeNull();
  });

  it('stays where the reader scrolled up to when a turn arrives, and follows their own message', async () => {
    const some = turns.slice(0, 50);
    const props = {
      outbox: [],
      selectedTurnId: undefined,
      onSelectTurn: noop,
      onSend: noop,
      onRetry: noop,
      onDiscard: noop,
    };
    const { rerender } = render(<MessageList {...props} turns={some} />);
    expect(await screen.findByRole('article', { name: 'Turn 50' })).toBeTruthy();

    // The reader scrolls up with the wheel.
    const log = screen.getByRole('log', { name: 'Conversation' });
    fireEvent.wheel(log, { deltaY: -5000 });
    log.scrollTop = 0;
    fireEvent.scroll(log);
    expect(await screen.findByRole('article', { name: 'Turn 1' })).toBeTruthy();

    rerender(<MessageList {...props} turns={turns.slice(0, 51)} />);
    expect(screen.getByRole('article', { name: 'Turn 1' })).toBeTruthy();
    expect(screen.queryByRole('article', { name: 'Turn 51' })).toBeNull();

    const mine = {
      localId: 'l1',
      taskId: 't',
      text: 'my question',
      status: 'pending' as const,
      startedAt: 0,
    };
    rerender(<MessageList {...props} turns={turns.slice(0, 51)} outbox={[mine]} />);
    expect(await screen.findByText('my question')).toBeTruthy();
    expect(screen.queryByRole('article', { name: 'Turn 1' })).toBeNull();
  });
});
