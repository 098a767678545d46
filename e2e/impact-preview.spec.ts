/**
 * The impact preview: with a saved case in the agent's suite, an edit to the bundle draft that
 * does not flip it counts 0, an edit that does counts 1, and the changed turn is one click away.
 * Against a service without the reference helpers the preview says so and never guesses.
 */
import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { baselineText, editDisputeWindow, goToLineEnd, lineOf } from './bundle-editing';
import { startFakeVendor, VENDOR_KEY } from './fake-vendor';
import { expect, startThread, test } from './fixtures';

const OUTSIDE_WINDOW = JSON.parse(
  readFileSync('server/agents/card-disputes/tests/dispute-outside-window.case.json', 'utf8'),
) as { name: string; agent_id: string };

/**
 * Puts cases in the suites store's persisted form (IndexedDB, idb-keyval's default database) as
 * "Save as test" would leave them; the app reads them on its next load.
 */
async function seedSuite(page: Page, agentId: string, cases: unknown[]) {
  await page.goto('/');
  await page.evaluate(
    async ({ agentId, cases }) => {
      const value = {
        state: {
          suites: {
            [agentId]: cases.map((testCase, i) => ({
              id: `seeded-${i}`,
              file: `case-${i}.case.json`,
              testCase,
              addedAt: new Date().toISOString(),
            })),
          },
        },
        version: 1,
      };
      await new Promise<void>((resolve, reject) => {
        const open = indexedDB.open('keyval-store');
        open.onupgradeneeded = () => open.result.createObjectStore('keyval');
        open.onerror = () => reject(new Error(String(open.error)));
        open.onsuccess = () => {
          const tx = open.result.transaction('keyval', 'readwrite');
          tx.objectStore('keyval').put(value, 'threadline:test-suites');
          tx.oncomplete = () => {
            open.result.close();
            resolve();
          };
          tx.onerror = () => reject(new Error(String(tx.error)));
        };
      });
    },
    { agentId, cases },
  );
}

test('an edit that flips a saved case turns the count from 0 to 1, and the list shows the turn', async ({
  page,
}) => {
  await seedSuite(page, 'card-disputes', [OUTSIDE_WINDOW]);
  await startThread(page, 'card-disputes');

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
  const row = table.getByRole('row').filter({ hasText: OUTSIDE_WINDOW.name });
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
      await seedSuite(page, 'support-bot', [{ ...OUTSIDE_WINDOW, agent_id: 'support-bot' }]);
      await page.goto('/');
      await page.getByLabel('Base URL').fill(vendor.url);
      await page.getByLabel('API key header').fill('x-aui-api-key');
      await page.getByLabel('API key', { exact: true }).fill(VENDOR_KEY);
      await page.getByLabel('Agent', { exact: true }).fill('support-bot');
      await page.getByRole('button', { name: 'Start a thread' }).click();
      await expect(page).toHaveURL(/[?&]task=/);
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
