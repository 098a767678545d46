import { connect, DEV_KEY, expect, sendMessage, startThread, test } from './fixtures';

const BLOCKED_DISPUTE = 'I want to dispute a charge of $120 at Coffee Corner from 10 days ago';

test('a new user sees the welcome screen with the connection form', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('heading', { name: /Talk to an agent/ })).toBeVisible();
  await expect(page.getByLabel('API key', { exact: true })).toHaveAttribute('type', 'password');
  await connect(page);
  await page.getByRole('button', { name: 'Test connection' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Connected' })).toBeVisible();
  // The key never reaches the URL.
  expect(page.url()).not.toContain('dev-key');
});

test('a blocked dispute: reply, decision badge, the blocked rule and its reason, and the same view after reload', async ({
  page,
}) => {
  await startThread(page, 'card-disputes', true);
  const conversation = page.getByRole('log', { name: 'Conversation' });
  await expect(page.getByRole('list', { name: 'Starter suggestions' })).toBeVisible();

  await sendMessage(page, BLOCKED_DISPUTE);
  const turn = conversation.getByRole('article', { name: 'Turn 1' });
  await expect(turn.getByText(BLOCKED_DISPUTE)).toBeVisible();
  await expect(turn.getByText('Decision: blocked', { exact: true })).toBeVisible();
  await expect(turn.getByTitle('Measured round trip')).toHaveText(/\d+ ms|\d+(\.\d+)? s/);

  // The graph of the turn shows the blocked policy rule.
  const graph = page.getByRole('group', { name: 'Trace graph of turn 1' });
  const blockedRule = graph.locator('[data-kind="rule"][data-tone="blocked"]').first();
  await expect(blockedRule).toBeVisible();
  await expect(graph.locator('[data-kind="group"]').filter({ hasText: 'rules allowed' })).toBeVisible();
  await expect(graph.locator('[data-kind="decision"]')).toContainText('blocked by DISPUTE_WINDOW');

  // Open the rule and read its reason.
  await blockedRule.click();
  const details = page.getByRole('region', { name: /^Details of / });
  await expect(details).toBeVisible();
  await expect(details.getByText('reason', { exact: true })).toBeVisible();
  await expect(details.getByText('blocked', { exact: true }).first()).toBeVisible();
  const reason = await details.locator('dt:text-is("reason") + dd').innerText();
  expect(reason.length).toBeGreaterThan(10);
  await expect(page).toHaveURL(/[?&]node=rule/);

  // Reload by URL: the same view comes back.
  const url = page.url();
  await page.goto('about:blank');
  await page.goto(url);
  const again = page.getByRole('log', { name: 'Conversation' }).getByRole('article', { name: 'Turn 1' });
  await expect(again.getByText(BLOCKED_DISPUTE)).toBeVisible();
  await expect(again.getByText('Decision: blocked', { exact: true })).toBeVisible();
  await expect(
    page.getByRole('region', { name: /^Details of / }).locator('dt:text-is("reason") + dd'),
  ).toHaveText(reason);
  const graphAgain = page.getByRole('group', { name: 'Trace graph of turn 1' });
  await expect(graphAgain.locator('.react-flow__node.selected')).toHaveCount(1);

  // Keyboard: the arrow keys move the selection to another node, and the URL follows.
  const nodeBefore = new URL(page.url()).searchParams.get('node');
  await graphAgain.focus();
  await page.keyboard.press('ArrowUp');
  await expect.poll(() => new URL(page.url()).searchParams.get('node')).not.toBe(nodeBefore);

  // The Thread tab: one row per turn with intent, decision and rule counts.
  await page.getByRole('tab', { name: 'Thread' }).click();
  const row = page.getByRole('row').filter({ hasText: 'dispute_charge' });
  await expect(row).toContainText('blocked');
  await expect(row).toContainText(/\d+ blocked/);
  await row.getByRole('button', { name: 'Focus turn 1' }).click();
  await expect(page).toHaveURL(/[?&]turn=/);
});

test('without a remembered key, a reload asks for the key and then restores the thread', async ({ page }) => {
  await startThread(page, 'card-disputes');
  await sendMessage(page, 'Hello');
  await expect(page.getByRole('article', { name: 'Turn 1' })).toBeVisible();
  await page.reload();
  // Behind the key prompt: this browser's record, said to be only that.
  const onlyLocal = page.getByText(
    'Showing only what this browser recorded: the service’s turns load once the API key is entered.',
  );
  await expect(onlyLocal).toBeVisible();
  await connect(page);
  await expect(
    page.getByRole('article', { name: 'Turn 1' }).getByText('Hello', { exact: true }),
  ).toBeVisible();
  await expect(onlyLocal).toHaveCount(0);
});

test('a link to a thread this browser never saw says its messages wait for the key, not that there are none', async ({
  page,
  browser,
  baseURL,
}) => {
  const taskId = await startThread(page, 'card-disputes');
  await sendMessage(page, 'Hello');
  const other = await browser.newContext({ baseURL });
  const fresh = await other.newPage();
  await fresh.goto(`/?task=${taskId}`);
  await expect(fresh.getByText('This thread’s messages load once the API key is entered.')).toBeVisible();
  await expect(fresh.getByText('This thread’s traces load once the API key is entered.')).toBeVisible();
  await expect(fresh.getByText(/No messages yet|No turns yet/)).toHaveCount(0);
  const gate = fresh.getByRole('dialog', { name: 'Open a shared thread' });
  await gate.getByLabel('API key', { exact: true }).fill(DEV_KEY);
  await gate.getByRole('button', { name: 'Open the thread' }).click();
  await expect(
    fresh.getByRole('article', { name: 'Turn 1' }).getByText('Hello', { exact: true }),
  ).toBeVisible();
  await other.close();
});
