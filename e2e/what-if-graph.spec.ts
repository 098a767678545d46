/**
 * What if, edited on the graph itself, in real Chromium against the reference service: from the
 * blocked 10-day dispute, the date typed on the transaction-date node as 8 days ago flips the
 * decision and the window rule (marked on the graph), beside the real turn and marked as not a
 * conversation turn; Reset returns to the real turn. The what-if is then saved as a test (found in
 * the Tests tab) and opened as a branch whose message states the date.
 */
import type { Locator, Page } from '@playwright/test';
import { expect, sendMessage, startThread, test } from './fixtures';

const BLOCKED_DISPUTE = 'I want to dispute a charge of $120 at Coffee Corner from 10 days ago';

/** `YYYY-MM-DD` plus `days`. */
function addDays(iso: string, days: number): string {
  const d = new Date(`${iso}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/** Types a date into a date field as a person does (month, day, year; the browser's en-US order). */
async function typeDate(page: Page, field: Locator, iso: string) {
  const [y, m, d] = iso.split('-');
  // A click on the month, the field's first part; the browser moves on to the day and the year.
  await field.click({ position: { x: 12, y: 10 } });
  await page.keyboard.type(`${m}${d}${y}`);
}

async function blockedDisputeGraph(page: Page) {
  await startThread(page, 'card-disputes');
  await sendMessage(page, BLOCKED_DISPUTE);
  const turn = page.getByRole('log', { name: 'Conversation' }).getByRole('article', { name: 'Turn 1' });
  await expect(turn.getByTitle('Decision: block_with_explanation')).toBeVisible();
  const graph = page.getByRole('group', { name: 'Trace graph of turn 1' });
  await expect(graph.locator('[data-kind="decision"]')).toContainText('blocked');
  return { turn, graph };
}

/** Clicks the transaction-date node and answers its what-if editor (the date field). */
async function dateEditorOnTheNode(page: Page, graph: Locator) {
  await graph.locator('.react-flow__node[data-id="param:transaction-date"]').click();
  const editor = page.getByRole('group', { name: 'What if: transaction-date' });
  await expect(editor).toBeVisible();
  await expect(editor).toContainText('not a conversation turn');
  const field = editor.getByLabel('transaction-date');
  await expect(field).toHaveValue(/^\d{4}-\d{2}-\d{2}$/);
  return { editor, field, recorded: await field.inputValue() };
}

test('the date typed on its node as 8 days ago flips the decision and the window rule; Reset restores the turn', async ({
  page,
}) => {
  const { graph } = await blockedDisputeGraph(page);
  const { field, recorded } = await dateEditorOnTheNode(page, graph);
  const eightDaysAgo = addDays(recorded, 2);
  await typeDate(page, field, eightDaysAgo);
  await expect(field).toHaveValue(eightDaysAgo);

  const strip = page.getByRole('region', { name: 'What if (not a conversation turn)' });
  await expect(strip).toContainText(`transaction-date = "${eightDaysAgo}"`);
  await expect(strip).toContainText('understanding and tool choice held fixed');
  await expect(strip.getByRole('article', { name: 'This turn' })).toContainText('within 8 days');
  const whatIf = strip.getByRole('article', { name: 'The what-if' });
  await expect(whatIf.getByText('Needs information')).toBeVisible();
  await expect(whatIf).toContainText('reason for the dispute');
  await expect(strip.getByRole('note', { name: 'What the what-if changes' })).toContainText(
    'DISPUTE_WINDOW blocked → allowed',
  );
  // The rule that flipped, and the decision, are marked on the graph.
  await expect(graph.locator('.react-flow__node[data-id="rule:DISPUTE_WINDOW"]')).toContainText('changed');
  await expect(graph.locator('.react-flow__node[data-id="decision"]')).toContainText('changed');
  // Nothing was added to the conversation.
  await expect(page.getByRole('log', { name: 'Conversation' }).getByRole('article')).toHaveCount(1);

  await strip.getByRole('button', { name: 'Reset' }).click();
  await expect(strip).toHaveCount(0);
  await expect(graph.getByText('changed', { exact: true })).toHaveCount(0);
  await expect(field).toHaveValue(recorded);
});

test('a what-if edited on the graph is saved as a test and opened as a branch that states the value', async ({
  page,
}) => {
  const { graph } = await blockedDisputeGraph(page);
  const { field, recorded } = await dateEditorOnTheNode(page, graph);
  const eightDaysAgo = addDays(recorded, 2);
  await typeDate(page, field, eightDaysAgo);
  const strip = page.getByRole('region', { name: 'What if (not a conversation turn)' });
  await expect(
    strip.getByRole('article', { name: 'The what-if' }).getByText('Needs information'),
  ).toBeVisible();

  // Saved as a test: the case states the date in its message and expects the what-if's outcome.
  await strip.getByRole('button', { name: 'Save as test' }).click();
  const dialog = page.getByRole('dialog', { name: 'Save the what-if of turn 1 as a test' });
  await expect(dialog.getByLabel('Description')).toHaveValue(/What if turn 1 had transaction-date/);
  await expect(dialog.getByText(`“My transaction date is ${eightDaysAgo}. I want to dispute`)).toBeVisible();
  await expect(dialog.getByLabel('Decision')).toHaveValue('request_information');
  await expect(dialog.getByLabel('Expect rule DISPUTE_WINDOW in turn 1')).toBeChecked();
  await expect(dialog.getByLabel('Value of parameter transaction-date in turn 1')).toHaveValue(
    `"${eightDaysAgo}"`,
  );
  await dialog.getByRole('button', { name: 'Save test' }).click();
  await expect(strip.getByRole('status')).toHaveText('Saved to card-disputes’s tests.');

  // Opened as a branch: a rerun of the turn with a message stating the date.
  await strip.getByRole('button', { name: 'Open as branch' }).click();
  const rerun = page.getByRole('dialog', { name: 'Rerun turn 1 as a new branch' });
  await expect(rerun).toContainText('may differ from the what-if');
  await expect(rerun.getByLabel('Message to replay')).toHaveValue(
    `My transaction date is ${eightDaysAgo}. ${BLOCKED_DISPUTE}`,
  );
  await rerun.getByRole('button', { name: 'Rerun' }).click();
  const branchTurn = page.getByRole('log', { name: 'Conversation' }).getByRole('article', { name: 'Turn 1' });
  await expect(branchTurn).toContainText(`My transaction date is ${eightDaysAgo}.`);
  await expect(branchTurn.getByTitle(/^Decision: /)).toBeVisible();
  await expect(page.getByRole('region', { name: 'What if (not a conversation turn)' })).toHaveCount(0);

  // The saved case is in the agent's tests.
  await page.getByRole('tab', { name: 'Tests' }).click();
  const cases = page
    .getByRole('region', { name: 'Tests of card-disputes' })
    .getByRole('list', { name: 'Test cases' });
  await expect(cases.getByRole('listitem').filter({ hasText: '(what if)' })).toHaveCount(1);
});
