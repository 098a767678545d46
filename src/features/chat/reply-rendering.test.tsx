// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { installDomStubs } from '../../lib/dom-stubs.fixture';
import { MessageList } from './MessageList';
import type { Turn } from '../../domain/transcript/transcript';

/** Counts every Markdown parse (the real renderer underneath). */
const parses = vi.hoisted(() => ({ count: 0 }));
vi.mock('react-markdown', async (importOriginal) => {
  const real = await importOriginal<typeof import('react-markdown')>();
  return {
    ...real,
    default: (options: Parameters<typeof real.default>[0]) => {
      parses.count += 1;
      return real.default(options);
    },
  };
});

beforeAll(() => installDomStubs({ width: 800, height: 600 }));
afterEach(cleanup);

const noop = () => {};
const turn = (i: number, replyText: string): Turn => ({
  id: `m${i}`,
  index: i,
  userText: `question ${i}`,
  replyText,
  suggestions: ['more'],
  decision: 'proceed',
  textUnavailable: false,
});

function list(turns: Turn[], selectedTurnId: string | undefined, busy = false) {
  return (
    <MessageList
      turns={turns}
      outbox={busy ? [{ localId: 'l', taskId: 't', text: 'x', status: 'pending', startedAt: 0 }] : []}
      selectedTurnId={selectedTurnId}
      onSelectTurn={noop}
      onSend={noop}
      onRetry={noop}
      onDiscard={noop}
      renderTurnActions={actions}
    />
  );
}
const actions = (t: Turn) => <span>action {t.id}</span>;

describe('reply rendering cost', () => {
  it('parses each reply once: selecting turns, a pending message and a remount parse nothing again', async () => {
    const turns = [turn(0, '**first**'), turn(1, '*second*'), turn(2, 'third')];
    const view = render(list(turns, undefined));
    await screen.findByText('first', { selector: 'strong' });
    const afterFirstDraw = parses.count;
    expect(afterFirstDraw).toBe(3);

    view.rerender(list(turns, 'm0'));
    view.rerender(list(turns, 'm1'));
    view.rerender(list(turns, 'm1', true));
    expect(parses.count).toBe(afterFirstDraw);

    view.unmount();
    render(list(turns, 'm2'));
    await screen.findByText('first', { selector: 'strong' });
    expect(parses.count).toBe(afterFirstDraw);
  });

  it('collapses a very long reply: its head is shown and parsed, the whole only on "Show all"', async () => {
    const long = `# Head\n${'word '.repeat(200_000)}`;
    render(list([turn(0, long)], undefined));
    const showAll = await screen.findByRole('button', { name: /Show all \(1\.0 million characters\)/ });
    const article = screen.getByRole('article', { name: 'Turn 1' });
    expect(article.textContent.length).toBeLessThan(5_000);
    const parsesBefore = parses.count;
    showAll.click();
    await screen.findByRole('button', { name: 'Show less' });
    expect(screen.getByRole('article', { name: 'Turn 1' }).textContent.length).toBeGreaterThan(1_000_000);
    // Too long to format without holding the page: shown as plain text, saying so, never parsed.
    expect(screen.getByText(/Shown as plain text/)).toBeTruthy();
    expect(parses.count).toBe(parsesBefore);
  });
});
