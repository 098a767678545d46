/**
 * The impact preview: with a turn saved as a test in the agent's suite, an edit to the bundle draft that
 * does not flip it counts 0, an edit that does counts 1, and the changed turn is one click away.
 * Against a service without the reference helpers the preview says so and never guesses.
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { baselineText, editDisputeWindow, goToLineEnd, lineOf } from './bundle-editing';
import { startFakeVendor, VENDOR_KEY } from '../tools/lib/fake-vendor';
import { expect, sendMessage, startThread, test } from './fixtures';

/** A folder holding these cases as files, the way a suite lives beside an agent project. */
function suiteFolder(cases: object[]): string {
  const folder = path.join(mkdtempSync(path.join(tmpdir(), 'threadline-impact-')), 'tests');
  mkdirSync(folder);
  cases.forEach((c, i) => writeFileSync(path.join(folder, `case-${i}.case.json`), JSON.stringify(c)));
  return folder;
}

const OUTSIDE_WINDOW = JSON.parse(
  readFileSync('server/agents/card-disputes/tests/dispute-outside-window.case.json', 'utf8'),
) as { name: string; agent_id: string };

const BLOCKED_DISPUTE = 'I want to dispute a charge of $120 at Coffee Corner from 10 days ago';
const CASE_NAME = 'Window closed after 8 days';

/** Saves turn 1 of the open thread as a test, as a user does (its suggested expectations kept). */
async function saveTurnAsTest(page: Page) {
  await sendMessage(page, BLOCKED_DISPUTE);
  const turn = page.getByRole('log', { name: 'Conversation' }).getByRole('article', { name: 'Turn 1' });
  await turn.getByRole('button', { name: 'Save as test (turn 1)' }).click();
  const dialog = page.getByRole('dialog', { name: 'Save turn 1 as a test' });
  await dialog.getByLabel('Case name').fill(CASE_NAME);
  await dialog.getByRole('button', { name: 'Save test' }).click();
  await expect(turn.getByRole('status')).toHaveText('Saved to card-disputes’s tests.');
}

test('an edit that flips a saved case turns the count from 0 to 1, and the list shows the turn', async ({
  page,
}) => {
  await startThread(page, 'card-disputes');
  await saveTurnAsTest(page);

  // 8 → 9 days: a charge from 10 days ago is still outside the window.
  await editDisputeWindow(page, 9);
  const count = page.getByTestId('impact-count');
  await expect(count).toHaveText(/^This draft changes 0 of 1 saved case \(against the active version v2\)$/);

  // 9 → 30 days: the same charge is now inside it.
  await page.keyboard.press('Backspace');
  await page.keyboard.type('30');
  await expect(count).toHaveText(/^This draft changes 1 of 1 saved case/);

  await page.getByRole('button', { name: 'Show changed cases' }).click();
  const table = page.getByRole('table', { name: 'Changed cases' });
  const row = table.getByRole('row').filter({ hasText: CASE_NAME });
  await expect(row).toContainText('block_with_explanation →');
  await expect(row).toContainText('rule DISPUTE_WINDOW: blocked → allowed');
  await expect(row.getByRole('cell').nth(1)).toContainText('1');
  await expect(row).toContainText('now fails');

  // Back to 8 days: the draft is the baseline again, nothing changes.
  await goToLineEnd(page, lineOf(await baselineText(page), '"DISPUTE_WINDOW"', /"value": 8$/));
  await page.keyboard.press('Backspace');
  await page.keyboard.press('Backspace');
  await page.keyboard.type('8');
  await expect(count).toHaveText(/^This draft changes 0 of 1 saved case/);
});

test.describe('a service without the reference helpers', () => {
  test.use({
    expectedFailure: { matches: (status, path) => status === 404 && path.startsWith('/reference/v1/') },
  });

  test('the preview says it needs the reference service instead of guessing', async ({ page }) => {
    const vendor = await startFakeVendor();
    try {
      await page.goto('/');
      await page.getByLabel('Base URL').fill(vendor.url);
      await page.getByLabel('API key header').fill('x-aui-api-key');
      await page.getByLabel('API key', { exact: true }).fill(VENDOR_KEY);
      await page.getByLabel('Agent', { exact: true }).fill('support-bot');
      await page.getByRole('button', { name: 'Start a thread' }).click();
      await expect(page).toHaveURL(/[?&]task=/);
      // One saved case, imported as a folder in the Tests tab.
      await page.getByRole('tab', { name: 'Tests' }).click();
      await page
        .getByRole('region', { name: 'Tests of support-bot' })
        .getByLabel('Test suite folder')
        .setInputFiles(suiteFolder([{ ...OUTSIDE_WINDOW, agent_id: 'support-bot' }]));
      await expect(
        page.getByRole('region', { name: 'Tests of support-bot' }).getByRole('status'),
      ).toContainText('1 case added.');
      await page.getByRole('tab', { name: 'Bundle' }).click();
      await expect(page.getByTestId('impact-count')).toContainText(
        'Impact preview unavailable: it replays the 1 saved case next to the engine, which only the reference service offers.',
      );
      expect(vendor.requests.some((r) => r.path.includes('/impact'))).toBe(false);
    } finally {
      await vendor.close();
    }
  });
});
