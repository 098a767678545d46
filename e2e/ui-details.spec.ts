/**
 * The smaller details a user meets while debugging: dialogs that close, statuses that pass, a
 * message length refused before sending, a snapshot's bundle, a service that stops answering.
 */
import type { Page } from '@playwright/test';
import { editDisputeWindow } from './bundle-editing';
import { expect, sendMessage, startThread, test } from './fixtures';

const BLOCKED_DISPUTE = 'I want to dispute a charge of $120 at Coffee Corner from 10 days ago';
const conversation = (page: Page) => page.getByRole('log', { name: 'Conversation' });
const turnArticle = (page: Page, n: number) => conversation(page).getByRole('article', { name: `Turn ${n}` });

test('the Connection dialog opened from the palette closes with its button or Escape, giving focus back', async ({
  page,
}) => {
  await startThread(page);
  const box = page.getByRole('textbox', { name: 'Message' });
  const dialog = page.getByRole('dialog', { name: 'Connection settings' });
  for (const how of ['button', 'Escape'] as const) {
    await box.focus();
    await page.keyboard.press('Control+k');
    await page.getByRole('combobox', { name: 'Search commands' }).fill('connection settings');
    await page.keyboard.press('Enter');
    await expect(dialog).toBeVisible();
    if (how === 'button') await dialog.getByRole('button', { name: 'Close' }).click();
    else await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await expect(box).toBeFocused();
  }
});

test('"Link copied" passes: it clears at the next action', async ({ browser, baseURL }) => {
  const context = await browser.newContext({ baseURL, permissions: ['clipboard-read', 'clipboard-write'] });
  const page = await context.newPage();
  await startThread(page);
  await sendMessage(page, 'hello');
  const status = page.getByRole('status').filter({ hasText: 'Link copied' });
  await page.getByRole('button', { name: 'Copy link' }).click();
  await expect(status).toBeVisible();
  await page.keyboard.press('Shift');
  await expect(status).toHaveCount(0);
  await context.close();
});

test('a message over 20,000 characters is refused with its count and kept; unbroken text wraps', async ({
  page,
}) => {
  await startThread(page);
  const box = page.getByRole('textbox', { name: 'Message' });
  const send = page.getByRole('button', { name: 'Send' });
  await box.fill('a'.repeat(20_431));
  await expect(page.getByText('20,431 / 20,000 characters')).toBeVisible();
  await expect(send).toBeDisabled();
  await box.press('Control+Enter');
  await expect(box).toHaveValue('a'.repeat(20_431));
  await expect(conversation(page).getByRole('article')).toHaveCount(0);

  // A 5,000-character word (pasted: nobody types it) stays inside the chat pane.
  await box.press('Control+A');
  await box.press('Backspace');
  await page.keyboard.insertText('x'.repeat(5_000));
  await send.click();
  await expect(page.getByText('The agent is replying…')).toHaveCount(0);
  const chat = page.getByRole('region', { name: 'Chat' });
  await expect(turnArticle(page, 1)).toBeVisible();
  const overflow = await chat.evaluate((el) => {
    const right = el.getBoundingClientRect().right;
    return [...el.querySelectorAll('article *')].filter((e) => e.getBoundingClientRect().right > right + 1)
      .length;
  });
  expect(overflow).toBe(0);
});

test('closing a comparison that shows a bundle diff throws nothing; Reset to baseline can be undone', async ({
  page,
}) => {
  await startThread(page, 'card-disputes');
  await sendMessage(page, BLOCKED_DISPUTE);
  await editDisputeWindow(page, 30);
  const status = page.getByTestId('bundle-status');
  await expect(status).toContainText('edited');
  await page.getByRole('button', { name: 'Reset to baseline' }).click();
  await expect(status).toContainText('same as baseline');
  await page.getByRole('button', { name: 'Undo' }).click();
  await expect(status).toContainText('edited');

  await turnArticle(page, 1).getByRole('button', { name: 'Rerun from here (turn 1)' }).click();
  const dialog = page.getByRole('dialog', { name: 'Rerun turn 1 as a new branch' });
  await dialog.getByRole('radio', { name: /Current draft/ }).check();
  await dialog.getByRole('button', { name: 'Rerun' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(turnArticle(page, 1).getByText(/local bundle #[0-9a-f]{8}/)).toBeVisible();
  await page.getByRole('tab', { name: 'Branches' }).click();
  await page.getByRole('button', { name: 'Compare with parent' }).click();
  const bundles = page.getByRole('region', { name: 'Bundles used' });
  await expect(bundles.locator('.monaco-diff-editor')).toBeVisible({ timeout: 30_000 });
  await page.getByRole('button', { name: 'Close', exact: true }).click();
  await expect(bundles).toHaveCount(0);
  // Monaco reports a bad teardown from a timer: give it the time to.
  await page.evaluate(() => new Promise((r) => setTimeout(r, 500)));
});

test('a snapshot made with its bundle shows it, and counts "1 turn"', async ({ page }) => {
  await startThread(page, 'card-disputes');
  await sendMessage(page, BLOCKED_DISPUTE);
  await page.getByRole('button', { name: 'Share…' }).click();
  const share = page.getByRole('dialog', { name: /Share/ });
  await share.getByLabel('Include the bundle').check();
  await share.getByRole('button', { name: 'Create snapshot link' }).click();
  const link = await share.getByRole('textbox', { name: 'Snapshot link' }).inputValue();
  await page.goto(link);
  await expect(page.getByText('1 turn · made')).toBeVisible();
  await page.getByRole('button', { name: 'Bundle' }).click();
  const bundle = page.getByRole('region', { name: 'Bundle' });
  await expect(bundle.getByLabel('Bundle JSON')).toContainText('DISPUTE_WINDOW');
});

test.describe('a service that stops answering', () => {
  test.use({ expectedConsole: /net::ERR_FAILED|net::ERR_INTERNET_DISCONNECTED/ });
  test('the header says unreachable (with the last contact), then online again; offline too', async ({
    page,
    context,
  }) => {
    await startThread(page);
    const indicator = page.getByTestId('service-status');
    await expect(indicator).toContainText('Online');
    const origin = new URL(page.url()).origin;
    await page.route(`${origin}/v1/**`, (route) => route.abort('failed'));
    await page.getByRole('textbox', { name: 'Message' }).fill('hello');
    await page.getByRole('button', { name: 'Send' }).click();
    await expect(indicator).toContainText('Service unreachable');
    await expect(indicator).toContainText('last contact');

    await page.unroute(`${origin}/v1/**`);
    await indicator.getByRole('button', { name: 'Try again' }).click();
    await expect(indicator).toContainText('Online');

    await context.setOffline(true);
    await expect(indicator).toContainText('Offline');
    await context.setOffline(false);
    await expect(indicator).toContainText('Online');
  });
});
