/**
 * What would change a decision, in real Chromium against the reference service: from the blocked
 * 10-day dispute, the panel offers the exact 8-day date boundary and the window change; the
 * window change becomes a draft that a rerun from the turn sends, and the branch is no longer
 * blocked; an amount of 620 typed in the what-if makes the identity rule block, shown above the
 * graph beside the real turn, marked as not a conversation turn, and Reset returns to the real turn.
 */
import type { Page } from '@playwright/test';
import { expect, sendMessage, startThread, test } from './fixtures';

const BLOCKED_DISPUTE = 'I want to dispute a charge of $120 at Coffee Corner from 10 days ago';

async function blockedDisputePanel(page: Page) {
  await startThread(page, 'card-disputes');
  await sendMessage(page, BLOCKED_DISPUTE);
  const turn = page.getByRole('log', { name: 'Conversation' }).getByRole('article', { name: 'Turn 1' });
  await expect(turn.getByTitle('Decision: block_with_explanation')).toBeVisible();
  await page.getByRole('tab', { name: 'What would change this?' }).click();
  const panel = page.getByTestId('what-if-panel');
  await expect(panel).toBeVisible();
  return { turn, panel };
}

test('the panel offers the 8-day boundary and the window change; the window change is a draft a rerun flips', async ({
  page,
}) => {
  const { turn, panel } = await blockedDisputePanel(page);
  const values = panel.getByRole('region', { name: 'Change a value (opens a what-if)' });
  await expect(
    values.getByRole('button', {
      name: /transaction-date on or after \d{4}-\d{2}-\d{2}, i\.e\. ≤ 8 days ago/,
    }),
  ).toBeVisible();
  const bundleChanges = panel.getByRole('region', { name: 'Change the bundle (makes a draft)' });
  const windowChange = bundleChanges.getByRole('button', {
    name: /DISPUTE_WINDOW with a window of 10 days or more \(now 8\)/,
  });
  await expect(windowChange).toContainText('DISPUTE_WINDOW blocked → allowed');

  // The window change opens as a draft in the Bundle tab.
  await windowChange.click();
  await expect(page.getByRole('tab', { name: 'Bundle', selected: true })).toBeVisible();
  await expect(page.locator('[data-editor-ready="true"]')).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId('bundle-status')).toContainText('edited');
  await expect(page.getByTestId('bundle-status')).toContainText('Valid');

  // Rerun from the blocked turn with the draft: the branch's turn is not blocked.
  await turn.getByRole('button', { name: 'Rerun from here (turn 1)' }).click();
  const dialog = page.getByRole('dialog', { name: 'Rerun turn 1 as a new branch' });
  await dialog.getByRole('radio', { name: /Current draft/ }).check();
  const rerun = page.waitForResponse(
    (r) => r.url().includes('/v1/messaging/messages/rerun') && r.request().method() === 'POST',
  );
  await dialog.getByRole('button', { name: 'Rerun' }).click();
  const answer = await rerun;
  expect(answer.status()).toBe(200);
  const sent = answer.request().postDataJSON() as { agent_settings_bundle?: unknown };
  expect(JSON.stringify(sent.agent_settings_bundle)).toContain('"operation":"more_than_x_days","value":10');
  const branchTurn = page.getByRole('log', { name: 'Conversation' }).getByRole('article', { name: 'Turn 1' });
  await expect(branchTurn.getByText(/local bundle #[0-9a-f]{8}/)).toBeVisible();
  await expect(branchTurn.getByTitle(/^Decision: /)).toBeVisible();
  await expect(branchTurn.getByTitle('Decision: block_with_explanation')).toHaveCount(0);
});

test('an amount of 620 typed in the what-if makes the identity rule block; Reset returns to the real turn', async ({
  page,
}) => {
  const { panel } = await blockedDisputePanel(page);
  const amount = panel.getByLabel('transaction-amount');
  await expect(amount).toHaveValue('120');
  await amount.press('Control+A');
  await amount.pressSequentially('620');

  // The what-if is shown above the graph, beside the real turn.
  const strip = page.getByRole('region', { name: 'What if (not a conversation turn)' });
  await expect(strip.getByRole('note', { name: 'What the what-if changes' })).toContainText(
    'VERIFIED_IDENTITY_ABOVE_500 allowed → blocked',
  );
  await expect(strip.getByRole('article', { name: 'The what-if' })).toContainText(/identity/i);
  await expect(strip.getByRole('article', { name: 'This turn' })).toContainText('within 8 days');
  await expect(strip.getByText('not a conversation turn', { exact: true })).toBeVisible();
  // The rule that flipped is marked on the graph (or the group holding it).
  const graph = page.getByRole('group', { name: 'Trace graph of turn 1' });
  await expect(graph.getByText('changed').first()).toBeVisible();
  // Nothing was added to the conversation.
  await expect(page.getByRole('log', { name: 'Conversation' }).getByRole('article')).toHaveCount(1);

  await panel.getByRole('button', { name: 'Reset' }).click();
  await expect(amount).toHaveValue('120');
  await expect(strip).toHaveCount(0);
  await expect(graph.getByText('changed')).toHaveCount(0);
});
