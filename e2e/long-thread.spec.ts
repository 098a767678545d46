/**
 * A thread of thousands of turns, sent through the real API: it opens at its newest turn, the
 * chat and the Thread tab keep only the rows in view in the document, the first turn can be
 * reached, and a send appends the newest turn and shows it.
 */
import type { APIRequestContext } from '@playwright/test';
import { DEV_KEY, expect, sendMessage, test } from './fixtures';

const TURNS = 2_000;
/** A turn in the middle, far from both ends. */
const MIDDLE = Math.round(TURNS * 0.6);
/** Far below the thread's length: what a virtualized list of a 1,000-pixel-high pane may hold. */
const MAX_ROWS_DRAWN = 80;
const headers = { 'x-service-api-key': DEV_KEY };
/** A Thread-tab row's button, named "‹intent› (focus turn N)". */
const focusTurn = (n: number) => new RegExp(`\\(focus turn ${n}\\)$`);

async function seedThread(request: APIRequestContext, turns: number, greeting = 'Hello'): Promise<string> {
  const task = await request.post('/v1/messaging/tasks', {
    headers,
    data: { agent_id: 'card-disputes', user_id: 'long-thread' },
  });
  expect(task.ok()).toBe(true);
  const { id } = (await task.json()) as { id: string };
  let next = 0;
  // Sent eight at a time; the service keeps them in the order it answers them.
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (next < turns) {
        next += 1;
        const r = await request.post('/v1/messaging/messages', {
          headers,
          data: { type: 'message', task_id: id, text: `${greeting} (${next})` },
        });
        expect(r.ok()).toBe(true);
      }
    }),
  );
  return id;
}

test('a thread of thousands of turns opens, draws only what is in view, reaches its first turn and grows', async ({
  page,
  request,
}) => {
  test.setTimeout(300_000);
  const task = await seedThread(request, TURNS);
  await page.setViewportSize({ width: 1400, height: 1000 });
  await page.goto(`/?task=${task}`);
  const gate = page.getByRole('dialog', { name: 'Open a shared thread' });
  await gate.getByLabel('API key', { exact: true }).fill(DEV_KEY);
  await gate.getByRole('button', { name: 'Open the thread' }).click();

  // The chat opens at the newest turn, with a bounded number of turns in the document.
  const conversation = page.getByRole('log', { name: 'Conversation' });
  await expect(conversation.getByRole('article', { name: `Turn ${TURNS}`, exact: true })).toBeInViewport({
    timeout: 60_000,
  });
  const articles = await conversation.getByRole('article').count();
  expect(articles).toBeGreaterThan(0);
  expect(articles).toBeLessThan(MAX_ROWS_DRAWN);

  // The Thread tab: every turn counted, few drawn.
  await page.getByRole('tab', { name: 'Thread' }).click();
  const table = page.getByRole('table', { name: 'Turns of this thread' });
  await expect(table).toHaveAttribute('aria-rowcount', String(TURNS + 1));
  // (exact: the thread list also names the thread with its length)
  await expect(page.getByText(`${TURNS} turns`, { exact: true })).toBeVisible();
  await expect(table.getByRole('button', { name: focusTurn(TURNS) })).toBeInViewport();
  const rows = await table.getByRole('row').count();
  expect(rows).toBeGreaterThan(1);
  expect(rows).toBeLessThan(MAX_ROWS_DRAWN);

  // Scrolling the table to its top reaches the first turn (rows are measured as they come in).
  const body = table.locator('[role="rowgroup"]').nth(1);
  await expect(async () => {
    await body.evaluate((el) => el.scrollTo(0, 0));
    await expect(table.getByRole('button', { name: focusTurn(1) })).toBeInViewport({
      timeout: 500,
    });
  }).toPass({ timeout: 20_000 });
  expect(await table.getByRole('row').count()).toBeLessThan(MAX_ROWS_DRAWN);

  // "Go to turn": any turn in one step; the chat follows the pinned turn.
  await page.getByLabel('Go to turn').pressSequentially(String(MIDDLE));
  await page.getByRole('button', { name: 'Go', exact: true }).click();
  await expect(table.getByRole('button', { name: focusTurn(MIDDLE) })).toBeFocused();
  await expect(page).toHaveURL(/[?&]turn=/);
  await expect(conversation.getByRole('article', { name: `Turn ${MIDDLE}`, exact: true })).toBeInViewport();
  // The arrow keys move from row to row.
  await page.keyboard.press('ArrowDown');
  await expect(table.getByRole('button', { name: focusTurn(MIDDLE + 1) })).toBeFocused();

  // Scrolling the chat to its top reaches the first turn.
  await expect(async () => {
    await conversation.evaluate((el) => el.scrollTo(0, 0));
    await expect(conversation.getByRole('article', { name: 'Turn 1', exact: true })).toBeInViewport({
      timeout: 500,
    });
  }).toPass({ timeout: 20_000 });
  expect(await conversation.getByRole('article').count()).toBeLessThan(MAX_ROWS_DRAWN);

  // A send appends the newest turn and brings it into view, in the chat and in the Thread tab.
  await sendMessage(page, 'One more question');
  const newest = conversation.getByRole('article', { name: `Turn ${TURNS + 1}`, exact: true });
  await expect(newest).toBeInViewport();
  await expect(newest.getByText('One more question', { exact: true })).toBeVisible();
  await expect(page.getByText(`${TURNS + 1} turns`, { exact: true })).toBeVisible();
  expect(await conversation.getByRole('article').count()).toBeLessThan(MAX_ROWS_DRAWN);
});

test('compare of two long threads says which turns it compares and which not, and brings earlier ones in', async ({
  page,
  request,
}) => {
  test.setTimeout(300_000);
  // 1,100 turns each: pages of 500, so each opens on its newest page (turns 1,001–1,100). Their
  // messages differ: no turn is shared, the turns are paired in order.
  const [a, b] = await Promise.all([seedThread(request, 1_100), seedThread(request, 1_100, 'Hi')]);
  await page.goto(`/?compare=${a}..${b}`);
  const prompt = page.getByRole('form', { name: 'API key needed' });
  await prompt.getByLabel('API key', { exact: true }).pressSequentially(DEV_KEY);
  await prompt.getByRole('button', { name: 'Use this key' }).click();

  const coverage = page.getByRole('region', { name: 'Turns compared' });
  await expect(coverage).toContainText(
    'only part is compared: turns 1,001–1,100 of A (of 1,100) and turns 1,001–1,100 of B (of 1,100)',
    { timeout: 60_000 },
  );
  await expect(coverage).toContainText('Not compared: turns 1–1,000 of A; turns 1–1,000 of B.');
  const comparison = page.getByRole('region', { name: 'Comparison' });
  await expect(comparison.getByRole('heading', { name: 'Turn 1001 ↔ 1001' })).toBeVisible();
  await expect(comparison.getByRole('heading', { name: /^Turn 1000\b/ })).toHaveCount(0);

  await coverage.getByRole('button', { name: 'Compare 500 earlier turns too' }).click();
  await expect(coverage).toContainText('turns 501–1,100 of A (of 1,100) and turns 501–1,100 of B (of 1,100)');
  await expect(coverage).toContainText('Not compared: turns 1–500 of A; turns 1–500 of B.');
  await expect(comparison.getByRole('heading', { name: 'Turn 501 ↔ 501' })).toBeAttached();
});
