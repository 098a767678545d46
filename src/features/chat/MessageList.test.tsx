// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
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

    const log = screen.getByRole('log', { name: 'Conversation' });
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
