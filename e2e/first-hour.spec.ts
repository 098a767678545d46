/**
 * The first hour of a new user, typed at human speed: the key prompt after a reload, the rerun
 * dialog's defaults, the Bundle tab before any edit, turns that keep their place when a service
 * sends odd field types, diffs and graphs framed on what changed, and the smaller details.
 */
import { expect, sendMessage, startThread, test, DEV_KEY } from './fixtures';

/** A person types a key in about a second: one character at a time, with pauses between them. */
const HUMAN = { delay: 60 };

test('the key prompt takes the whole key, on Enter, after a reload and on a compare link', async ({
  page,
  browser,
  baseURL,
}) => {
  const first = await startThread(page, 'card-disputes');
  await sendMessage(page, 'Hello');
  await expect(page.getByRole('article', { name: 'Turn 1' })).toBeVisible();
  const second = await startThread(page, 'card-disputes');
  await sendMessage(page, 'Hi there');
  await expect(page.getByRole('article', { name: 'Turn 1' })).toBeVisible();

  // After a reload without a remembered key, the prompt stays while the key is typed.
  await page.reload();
  const prompt = page.getByRole('form', { name: 'API key needed' });
  const field = prompt.getByLabel('API key', { exact: true });
  await field.pressSequentially(DEV_KEY.slice(0, 1), HUMAN);
  await expect(prompt).toBeVisible();
  await field.pressSequentially(DEV_KEY.slice(1), HUMAN);
  await expect(prompt).toBeVisible();
  await field.press('Enter');
  await expect(prompt).toHaveCount(0);
  await expect(
    page.getByRole('article', { name: 'Turn 1' }).getByText('Hi there', { exact: true }),
  ).toBeVisible();

  // A compare link opened in a browser without a key offers the same prompt, applied by its button.
  const other = await browser.newContext({ baseURL });
  const fresh = await other.newPage();
  await fresh.goto(`/?compare=${first}..${second}`);
  const comparePrompt = fresh.getByRole('form', { name: 'API key needed' });
  await comparePrompt.getByLabel('API key', { exact: true }).pressSequentially(DEV_KEY, HUMAN);
  await expect(comparePrompt).toBeVisible();
  await comparePrompt.getByRole('button', { name: 'Use this key' }).click();
  await expect(comparePrompt).toHaveCount(0);
  await expect(fresh.getByRole('region', { name: 'Comparison' }).getByText('Hi there').first()).toBeVisible();
  await other.close();
});
