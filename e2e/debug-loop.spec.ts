/**
 * The debugging loop in real Chromium against the reference service: a blocked dispute, the
 * bundle edited in Monaco, a rerun from that interaction with the draft, the new branch in the
 * tree, and the comparison showing the policy rule and the decision change. And a bundle with an
 * error: a marker at the right line, and nothing sent.
 */
import type { Request } from '@playwright/test';
import { baselineText, draftMarkerLines, goToLineEnd, lineOf, openBundleEditor } from './bundle-editing';
import { expect, sendMessage, startThread, test } from './fixtures';

const BLOCKED_DISPUTE = 'I want to dispute a charge of $120 at Coffee Corner from 10 days ago';

test('edit the dispute window, rerun from the blocked turn, see the branch and the decision change', async ({
  page,
  baseURL,
}) => {
  // Monaco is served by the app itself: no request may leave for another origin (a CDN).
  const elsewhere: string[] = [];
  page.on('request', (r) => {
    if (/^https?:/.test(r.url()) && !r.url().startsWith(baseURL!)) elsewhere.push(r.url());
  });
  const original = await startThread(page, 'card-disputes');
  await sendMessage(page, BLOCKED_DISPUTE);
  const turn = page.getByRole('log', { name: 'Conversation' }).getByRole('article', { name: 'Turn 1' });
  await expect(turn.getByTitle('Decision: block_with_explanation')).toBeVisible();

  // Edit the dispute window from 8 to 30 days in the bundle editor.
  const baseline = await baselineText(page);
  const line = lineOf(baseline, '"DISPUTE_WINDOW"', /"value": 8$/);
  await openBundleEditor(page);
  await goToLineEnd(page, line);
  await page.keyboard.press('Backspace');
  await page.keyboard.type('30');
  await expect(page.getByTestId('bundle-status')).toContainText('edited');
  await expect(page.getByTestId('bundle-status')).toContainText('Valid');

  // Rerun from that interaction with the draft.
  await turn.getByRole('button', { name: 'Rerun from here (turn 1)' }).click();
  const dialog = page.getByRole('dialog', { name: 'Rerun turn 1 as a new branch' });
  await expect(dialog.getByLabel('Message to replay')).toHaveValue(BLOCKED_DISPUTE);
  await dialog.getByRole('radio', { name: /Current draft/ }).check();
  const rerun = page.waitForResponse(
    (r) => r.url().includes('/v1/messaging/messages/rerun') && r.request().method() === 'POST',
  );
  await dialog.getByRole('button', { name: 'Rerun' }).click();
  const answer = await rerun;
  expect(answer.status()).toBe(200);
  const sent = answer.request().postDataJSON() as {
    agent_settings_bundle?: { agent_tools?: unknown[] };
    include_trace?: unknown;
  };
  expect(JSON.stringify(sent.agent_settings_bundle)).toContain('"value":30');
  expect(answer.url()).toContain('include_trace=true');
  await expect(dialog).toHaveCount(0);

  // The branch opens, its turn ran with the local bundle.
  await expect(page).not.toHaveURL(new RegExp(`[?&]task=${original}(&|$)`));
  const branch = new URL(page.url()).searchParams.get('task')!;
  const branchTurn = page.getByRole('log', { name: 'Conversation' }).getByRole('article', { name: 'Turn 1' });
  await expect(branchTurn.getByText(/local bundle #[0-9a-f]{8}/)).toBeVisible();
  await expect(branchTurn.getByTitle(/^Decision: /)).toBeVisible();
  await expect(branchTurn.getByTitle('Decision: block_with_explanation')).toHaveCount(0);

  // The tree shows the thread and its branch.
  await page.getByRole('tab', { name: 'Branches' }).click();
  const tree = page.getByRole('tree', { name: 'Branch tree' });
  await expect(tree.getByRole('treeitem')).toHaveCount(2);
  const branchItem = tree.locator(`[role="treeitem"][data-task-id="${branch}"]`);
  await expect(branchItem).toHaveAttribute('aria-level', '2');
  await expect(branchItem).toContainText(/bundle #[0-9a-f]{8}/);
  await expect(tree.locator(`[role="treeitem"][data-task-id="${original}"]`)).toContainText('blocked');

  // Compare the branch with its parent.
  await branchItem.getByRole('button', { name: 'Compare with parent' }).click();
  await expect(page).toHaveURL(new RegExp(`[?&]compare=${original}\\.\\.${branch}`));
  const comparison = page.getByRole('region', { name: 'Comparison' });
  const row = comparison.getByRole('article').first();
  await expect(row.getByLabel('Decision changed')).toBeVisible();
  await expect(row.getByLabel('Decision changed')).toContainText('blocked');
  const flipped = row.getByRole('region', { name: 'Rules whose result flipped' });
  await expect(
    flipped.getByRole('listitem', { name: 'Rule DISPUTE_WINDOW: blocked → allowed' }),
  ).toBeVisible();
  await expect(flipped).toContainText('(policy)');
  await expect(flipped).toContainText('8');
  await expect(flipped).toContainText('30');
  // The graphs side by side, the changed rule highlighted on both.
  const graphA = comparison.getByRole('group', { name: /^Trace graph A/ });
  const graphB = comparison.getByRole('group', { name: /^Trace graph B/ });
  await expect(graphA.locator('[data-kind="decision"]')).toContainText('changed');
  await expect(graphB.locator('[data-kind="decision"]')).toContainText('changed');
  await expect(graphA.locator('[data-kind="rule"]').filter({ hasText: 'DISPUTE_WINDOW' })).toContainText(
    'changed',
  );
  await expect(graphB.locator('[data-kind="rule"]').filter({ hasText: 'DISPUTE_WINDOW' })).toContainText(
    'changed',
  );
  // The wheel over a graph that does not have focus scrolls the comparison, not the graph.
  const scroller = comparison.locator('.overflow-y-auto').first();
  const zoomOf = () =>
    graphA
      .locator('.react-flow__viewport')
      .evaluate((v) => new DOMMatrixReadOnly(getComputedStyle(v).transform).a);
  // The graphs are stacked: the first is brought on screen before the wheel turns over it.
  await graphA.scrollIntoViewIfNeeded();
  const zoomBefore = await zoomOf();
  const scrollBefore = await scroller.evaluate((el) => el.scrollTop);
  const box = (await graphA.boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.wheel(0, 200);
  await expect.poll(() => scroller.evaluate((el) => el.scrollTop)).toBeGreaterThan(scrollBefore);
  expect(await zoomOf()).toBe(zoomBefore);
  // The bundles each side ran with: the original ran with its agent's version, the branch with the draft.
  const bundles = page.getByRole('region', { name: 'Bundles used' });
  await expect(bundles).toContainText('A: turn 1 the agent’s own bundle (version v2-8-day-window)');
  await expect(bundles).toContainText(/B: turn 1 local bundle #[0-9a-f]{8}/);
  // Only differences keeps the changed turn.
  await comparison.getByLabel('Only differences').check();
  await expect(comparison.getByRole('article')).toHaveCount(1);
  expect(elsewhere).toEqual([]);
});

test('a bundle with an error shows a marker at the right line, and nothing is sent', async ({ page }) => {
  await startThread(page, 'card-disputes');
  await sendMessage(page, BLOCKED_DISPUTE);
  const turn = page.getByRole('log', { name: 'Conversation' }).getByRole('article', { name: 'Turn 1' });
  await expect(turn.getByTitle('Decision: block_with_explanation')).toBeVisible();

  // Misspell the parameter the dispute window reads.
  const baseline = await baselineText(page);
  const line = lineOf(baseline, '"DISPUTE_WINDOW"', /"params": "transaction-date",$/);
  await openBundleEditor(page);
  await goToLineEnd(page, line);
  for (let i = 0; i < 3; i += 1) await page.keyboard.press('Backspace'); // drops `e",`
  await page.keyboard.type('x",');

  // The marker sits on that line, in Monaco and in the problems list.
  await expect(page.getByTestId('bundle-status')).toContainText('1 error');
  const problem = page
    .getByRole('list', { name: 'Problems' })
    .getByRole('button')
    .filter({ hasText: 'transaction-datx' });
  await expect(problem).toHaveAttribute('data-line', String(line));
  await expect.poll(() => draftMarkerLines(page, 'error')).toEqual([line]);

  // The draft cannot be chosen for the thread, and nothing leaves the browser.
  const requests: Request[] = [];
  page.on('request', (r) => {
    if (r.method() === 'POST' && /\/v1\/messaging\/messages/.test(r.url())) requests.push(r);
  });
  await expect(
    page.getByRole('alert').filter({ hasText: 'The bundle has 1 error, so it is not sent' }),
  ).toBeVisible();
  await expect(page.getByRole('button', { name: 'Run this thread with this draft' })).toBeDisabled();
  await expect(page.getByRole('combobox', { name: 'Runs with bundle' })).toHaveValue('own');
  await expect(
    page
      .getByRole('combobox', { name: 'Runs with bundle' })
      .getByRole('option', { name: /draft \(not sendable\)/ }),
  ).toBeDisabled();

  await turn.getByRole('button', { name: 'Rerun from here (turn 1)' }).click();
  const dialog = page.getByRole('dialog', { name: 'Rerun turn 1 as a new branch' });
  await dialog.getByRole('radio', { name: /Current draft/ }).check();
  await expect(dialog.getByText('The bundle has 1 error, so it is not sent')).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Rerun' })).toBeDisabled();
  await dialog.getByRole('button', { name: 'Cancel' }).click();

  expect(requests.map((r) => r.url())).toEqual([]);
});
