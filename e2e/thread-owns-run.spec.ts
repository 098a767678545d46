/**
 * A thread owns its run: the six ways the debugging loop used to give silently wrong answers,
 * each driven in real Chromium against the reference service. A bundle draft never reaches
 * another agent's thread; a branch keeps what its rerun ran with; the trace follows the newest
 * turn; links reproduce the view (and the server keeps lineage and bundles, so a link works in any
 * browser); a branch keeps its name; "New thread" asks which agent, and the header shows the open
 * thread's.
 */
import type { Browser, Page, Request } from '@playwright/test';
import { editDisputeWindow } from './bundle-editing';
import { DEV_KEY, expect, sendMessage, startThread, test } from './fixtures';

const BLOCKED_DISPUTE = 'I want to dispute a charge of $120 at Coffee Corner from 10 days ago';

const conversation = (page: Page) => page.getByRole('log', { name: 'Conversation' });
const turnArticle = (page: Page, n: number) => conversation(page).getByRole('article', { name: `Turn ${n}` });

/** Collects the message sends (not reruns) the page makes. */
function recordSends(page: Page): Request[] {
  const sends: Request[] = [];
  page.on('request', (r) => {
    if (r.method() === 'POST' && /\/v1\/messaging\/messages\?/.test(r.url())) sends.push(r);
  });
  return sends;
}

/** "New thread" from the thread list: the dialog asks which agent. */
async function newThread(page: Page, agentId: string): Promise<string> {
  const before = new URL(page.url()).searchParams.get('task');
  await page.getByRole('button', { name: 'New thread' }).click();
  const dialog = page.getByRole('dialog', { name: 'New thread' });
  await expect(dialog).toBeVisible();
  await dialog.getByLabel('Agent', { exact: true }).selectOption(agentId);
  await dialog.getByRole('button', { name: 'Start' }).click();
  await expect(dialog).toBeHidden();
  await expect(page).not.toHaveURL(new RegExp(`[?&]task=${before}(&|$)`));
  return new URL(page.url()).searchParams.get('task')!;
}

/** A blocked dispute, the window edited to 30 days, and a rerun of turn 1 with that draft. */
async function branchWithDraft(page: Page): Promise<{ original: string; branch: string }> {
  const original = await startThread(page, 'card-disputes');
  await sendMessage(page, BLOCKED_DISPUTE);
  await expect(turnArticle(page, 1).getByTitle('Decision: block_with_explanation')).toBeVisible();
  await editDisputeWindow(page, 30);
  await turnArticle(page, 1).getByRole('button', { name: 'Rerun from here (turn 1)' }).click();
  const dialog = page.getByRole('dialog', { name: 'Rerun turn 1 as a new branch' });
  await dialog.getByRole('radio', { name: /Current draft/ }).check();
  await dialog.getByRole('button', { name: 'Rerun' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(page).not.toHaveURL(new RegExp(`[?&]task=${original}(&|$)`));
  const branch = new URL(page.url()).searchParams.get('task')!;
  await expect(turnArticle(page, 1).getByText(/local bundle #[0-9a-f]{8}/)).toBeVisible();
  return { original, branch };
}

async function freshPage(browser: Browser, baseURL: string, permissions: string[] = []) {
  const context = await browser.newContext({ baseURL, permissions });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(e.message));
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(m.text());
  });
  return { context, page, problems };
}

test('1: a card-disputes draft never reaches a flight-changes thread', async ({ page }) => {
  await startThread(page, 'card-disputes');
  await editDisputeWindow(page, 30);
  await page.getByRole('button', { name: 'Run this thread with this draft' }).click();
  await expect(page.getByTestId('thread-runs-with')).toContainText('(this draft)');

  const sends = recordSends(page);
  await newThread(page, 'flight-changes');
  await expect(page.getByTestId('header-thread')).toContainText('flight-changes · the agent’s own bundle');
  await expect(page.getByRole('combobox', { name: 'Runs with bundle' })).toHaveValue('own');
  for (const text of ['I need to change my flight', 'ABC123', 'next friday', 'yes'])
    await sendMessage(page, text);

  expect(sends).toHaveLength(4);
  for (const r of sends) expect(r.postDataJSON()).not.toHaveProperty('agent_settings_bundle');
  for (let n = 1; n <= 4; n += 1) {
    await expect(turnArticle(page, n).getByText('the agent’s own bundle')).toBeVisible();
  }
  await expect(conversation(page)).not.toContainText('Card Disputes');
  // The Bundle tab edits this thread's agent, not the other thread's.
  await page.getByRole('tab', { name: 'Bundle' }).click();
  await expect(page.getByTestId('editor-agent')).toContainText('flight-changes draft');
});

test('2: a branch keeps the bundle its rerun ran with, and compare names every bundle a side ran with', async ({
  page,
}) => {
  const { original, branch } = await branchWithDraft(page);
  const badge =
    (await turnArticle(page, 1)
      .getByText(/local bundle #/)
      .textContent()) ?? '';
  const branchHash = /local bundle #[0-9a-f]{8}/.exec(badge)![0];

  // Resetting the editor's draft changes nothing for the branch: it runs with its bundle by hash.
  await page.getByRole('tab', { name: 'Bundle' }).click();
  await page.getByRole('button', { name: 'Reset to baseline' }).click();
  await expect(page.getByTestId('bundle-status')).toContainText('same as baseline');

  const sends = recordSends(page);
  await sendMessage(page, 'It was a duplicate charge');
  expect(JSON.stringify(sends[0]!.postDataJSON().agent_settings_bundle)).toContain('"value":30');
  await expect(turnArticle(page, 2).getByText(branchHash)).toBeVisible();
  await expect(turnArticle(page, 2)).not.toContainText('8 days');

  // The Branches tab says what the branch runs with now.
  await page.getByRole('tab', { name: 'Branches' }).click();
  const row = page.locator(`[role="treeitem"][data-task-id="${branch}"]`);
  await expect(row).toContainText(`Runs with card-disputes · ${branchHash}`);

  // Changed for this branch, visibly: the next turn runs with the agent's own bundle.
  await page.getByRole('combobox', { name: 'Runs with bundle' }).selectOption('own');
  await expect(row).toContainText('Runs with card-disputes · the agent’s own bundle');
  await sendMessage(page, 'ok');
  expect(sends[1]!.postDataJSON()).not.toHaveProperty('agent_settings_bundle');
  await expect(turnArticle(page, 3).getByText('the agent’s own bundle')).toBeVisible();

  await row.getByRole('button', { name: 'Compare with parent' }).click();
  await expect(page).toHaveURL(new RegExp(`[?&]compare=${original}\\.\\.${branch}`));
  const bundles = page.getByRole('region', { name: 'Bundles used' });
  await expect(bundles).toContainText(
    `B: turns 1–2 ${branchHash} (version v2-8-day-window) · turn 3 the agent’s own bundle (version v2-8-day-window)`,
  );
  await expect(bundles).toContainText('A: turn 1 the agent’s own bundle (version v2-8-day-window)');
});

test('3: the trace follows the newest turn unless a turn is pinned', async ({ page }) => {
  await startThread(page, 'card-disputes');
  await sendMessage(page, BLOCKED_DISPUTE);
  const first = page.getByRole('group', { name: 'Trace graph of turn 1' });
  await first.locator('[data-kind="decision"]').click();
  await expect(page.getByRole('region', { name: /^Details of / })).toBeVisible();

  await sendMessage(page, 'It was a duplicate charge');
  await expect(page.getByRole('group', { name: 'Trace graph of turn 2' })).toBeVisible();
  await expect(page.getByTestId('trace-turn')).toContainText('Turn 2 of 2');
  await expect(page.getByTestId('trace-turn')).toContainText('following the newest turn');

  // Pinning a turn says so, with the way back.
  await turnArticle(page, 1).getByRole('button', { name: 'Show trace of turn 1' }).click();
  await expect(page.getByTestId('trace-turn')).toContainText('Turn 1 of 2');
  await sendMessage(page, 'ok');
  await expect(page.getByTestId('trace-turn')).toContainText('Turn 1 of 3');
  await page.getByRole('button', { name: 'Follow latest' }).click();
  await expect(page.getByRole('group', { name: 'Trace graph of turn 3' })).toBeVisible();
});

test('4: links reproduce the view anywhere; a comparison is shareable and never concluded before it loads', async ({
  page,
  browser,
  baseURL,
}) => {
  const { original, branch } = await branchWithDraft(page);

  // A branch's link, opened in a fresh browser: the server keeps its lineage.
  await page.getByRole('tab', { name: 'Branches' }).click();
  const branchLink = new URL(page.url());
  const fresh = await freshPage(browser, baseURL!);
  await fresh.page.goto(branchLink.toString());
  const gate = fresh.page.getByRole('dialog', { name: 'Open a shared thread' });
  await gate.getByLabel('API key', { exact: true }).fill(DEV_KEY);
  await gate.getByRole('button', { name: 'Open the thread' }).click();
  const tree = fresh.page.getByRole('tree', { name: 'Branch tree' });
  await expect(tree.getByRole('treeitem')).toHaveCount(2);
  const row = tree.locator(`[role="treeitem"][data-task-id="${branch}"]`);
  await expect(row).toHaveAttribute('aria-level', '2');
  await expect(row).toContainText(/bundle #[0-9a-f]{8}/);
  await expect(fresh.page.getByRole('region', { name: 'Branches' })).not.toContainText('No branches yet');
  await fresh.context.close();

  // The comparison's link keeps the pair and the filter.
  await page
    .locator(`[role="treeitem"][data-task-id="${branch}"]`)
    .getByRole('button', { name: 'Compare with parent' })
    .click();
  const comparison = page.getByRole('region', { name: 'Comparison' });
  await comparison.getByLabel('Only differences').check();
  await expect(page).toHaveURL(/[?&]only=differences/);
  const compareUrl = page.url();

  const other = await freshPage(browser, baseURL!, ['clipboard-read', 'clipboard-write']);
  await other.page.goto(compareUrl);
  // Before the key: no conclusion.
  const otherComparison = other.page.getByRole('region', { name: 'Comparison' });
  await expect(otherComparison).toContainText('Neither thread is loaded yet');
  await expect(otherComparison).not.toContainText('hold the same turns');
  const otherGate = other.page.getByRole('dialog', { name: 'Open a shared thread' });
  await otherGate.getByLabel('API key', { exact: true }).fill(DEV_KEY);
  await otherGate.getByRole('button', { name: 'Open the thread' }).click();
  // Elsewhere, the bundles come from the server: the agent and the branch's bundle are known.
  const bundles = other.page.getByRole('region', { name: 'Bundles used' });
  await expect(bundles).toContainText('A: turn 1 the agent’s own bundle (version v2-8-day-window)');
  await expect(bundles).toContainText(/B: turn 1 local bundle #[0-9a-f]{8}/);
  await expect(bundles).not.toContainText('agent not known');
  // Both bundles are found (the branch's from the server by its hash), so they are diffed.
  await expect(bundles).toContainText(
    /Last turns: A the agent’s own bundle against B local bundle #[0-9a-f]{8}/,
  );
  await expect(bundles.locator('.monaco-diff-editor')).toBeVisible({ timeout: 30_000 });
  await expect(otherComparison.getByLabel('Only differences')).toBeChecked();

  // Copy link in the compare view carries the pair and the filter, never the key.
  await other.page.getByRole('button', { name: 'Copy link' }).click();
  const copied = new URL(await other.page.evaluate(() => navigator.clipboard.readText()));
  expect(copied.searchParams.get('compare')).toBe(`${original}..${branch}`);
  expect(copied.searchParams.get('only')).toBe('differences');
  expect(copied.toString()).not.toContain(DEV_KEY);
  expect(other.problems).toEqual([]);
  await other.context.close();
});

test('5: a branch keeps its name when a message is sent in it, and can be renamed', async ({ page }) => {
  await branchWithDraft(page);
  const chat = page.getByRole('region', { name: 'Chat' });
  const name = chat.getByRole('heading', { level: 2 });
  await expect(name).toContainText('rerun');
  const before = (await name.textContent())!;
  await sendMessage(page, 'It was a duplicate charge');
  await expect(name).toHaveText(before);
  await expect(page.getByRole('navigation', { name: 'Threads' })).not.toContainText(
    'It was a duplicate charge',
  );

  await chat.getByRole('button', { name: 'Rename the thread' }).click();
  await chat.getByLabel('Thread name').fill('30-day window');
  await chat.getByLabel('Thread name').press('Enter');
  await expect(name).toContainText('30-day window');
  await expect(page.getByRole('navigation', { name: 'Threads' })).toContainText('30-day window');
});

test('6: New thread asks which agent, defaulting to the last used; the header shows the open thread’s', async ({
  page,
}) => {
  const cards = await startThread(page, 'card-disputes');
  await expect(page.getByTestId('header-thread')).toContainText(
    'card-disputes · the agent’s own bundle · version v2-8-day-window',
  );
  await page.getByRole('button', { name: 'New thread' }).click();
  const dialog = page.getByRole('dialog', { name: 'New thread' });
  await expect(dialog.getByLabel('Agent', { exact: true })).toHaveValue('card-disputes');
  await dialog.getByLabel('Agent', { exact: true }).selectOption('flight-changes');
  await dialog.getByLabel('Version').selectOption('v1-launch-fees');
  await dialog.getByRole('button', { name: 'Start' }).click();
  await expect(page.getByTestId('header-thread')).toContainText(
    'flight-changes · the agent’s own bundle · version v1-launch-fees',
  );

  // Back in the first thread, the header follows the thread, not the last choice.
  // This browser's threads come first (the team's follow).
  await page
    .getByRole('navigation', { name: 'Threads' })
    .getByRole('button', { name: /card-disputes/ })
    .first()
    .click();
  await expect(page).toHaveURL(new RegExp(`[?&]task=${cards}(&|$)`));
  await expect(page.getByTestId('header-thread')).toContainText('card-disputes · the agent’s own bundle');

  // The next New thread defaults to the last used agent and version.
  await page.getByRole('button', { name: 'New thread' }).click();
  await expect(dialog.getByLabel('Agent', { exact: true })).toHaveValue('flight-changes');
  await expect(dialog.getByLabel('Version')).toHaveValue('v1-launch-fees');
});
