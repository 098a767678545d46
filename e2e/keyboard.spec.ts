/**
 * Keyboard first: the command palette (Ctrl+K) filters fuzzily and runs actions with the keyboard,
 * j/k move between turns (and type normally in the message box), ? lists the shortcuts, and the
 * theme chosen from the palette is remembered across reloads.
 */
import { expect, sendMessage, startThread, test } from './fixtures';

test('the palette filters, moves with the arrow keys and runs an action; the theme is remembered', async ({
  page,
}) => {
  await page.goto('/');
  // A person presses Ctrl+K once the page is drawn.
  await expect(page.getByRole('heading', { name: 'Threadline', level: 1 })).toBeVisible();
  await page.keyboard.press('Control+k');
  const palette = page.getByRole('dialog', { name: 'Command palette' });
  await expect(palette).toBeVisible();
  const search = palette.getByRole('combobox', { name: 'Search commands' });
  await expect(search).toBeFocused();
  const options = palette.getByRole('option');
  // Every action is listed: thread, share, theme, help.
  for (const name of [
    'New thread',
    'Copy trace link',
    'Create a snapshot link…',
    'Switch to dark theme',
    'Keyboard shortcuts',
    'Focus the bundle editor',
  ]) {
    await expect(options.filter({ hasText: name })).toHaveCount(1);
  }

  await search.fill('swdark');
  await expect(options.first()).toContainText('Switch to dark theme');
  await search.fill('theme');
  // The three theme actions rank first (an acronym-like match may follow them).
  for (let i = 0; i < 3; i += 1)
    await expect(options.nth(i)).toContainText(/Switch to (light|dark|system) theme/);
  await expect(options.nth(0)).toHaveAttribute('aria-selected', 'true');
  await search.press('ArrowDown');
  await expect(options.nth(1)).toHaveAttribute('aria-selected', 'true');
  await expect(search).toHaveAttribute('aria-activedescendant', (await options.nth(1).getAttribute('id'))!);
  await search.press('ArrowUp');
  await expect(options.nth(0)).toHaveAttribute('aria-selected', 'true');
  await expect(options.nth(0)).toContainText('Switch to dark theme');
  await search.press('Enter');
  await expect(palette).toBeHidden();
  await expect(page.locator('html')).toHaveClass(/\bdark\b/);
  await expect(page.getByRole('button', { name: /^Dark theme/ })).toBeVisible();

  await page.reload();
  await expect(page.locator('html')).toHaveClass(/\bdark\b/);

  // Escape closes; a disabled action says why.
  await page.keyboard.press('Control+k');
  await search.fill('snapshot');
  await expect(options.first()).toHaveAttribute('aria-disabled', 'true');
  await expect(options.first()).toContainText('Open a thread first');
  await search.press('Escape');
  await expect(palette).toBeHidden();

  // Back to the system theme from the palette.
  await page.keyboard.press('Control+k');
  await search.fill('system theme');
  await search.press('Enter');
  await expect(page.getByRole('button', { name: /^System theme/ })).toBeVisible();
});

test('j and k move between turns, not while typing; ? lists the shortcuts', async ({ page }) => {
  await startThread(page, 'card-disputes');
  await sendMessage(page, 'Hello');
  await sendMessage(page, 'I want to dispute a charge of $120 at Coffee Corner from 10 days ago');
  const trace = (n: number) => page.getByRole('button', { name: `Show trace of turn ${n}` });
  await expect(trace(2)).toHaveAttribute('aria-pressed', 'true');

  // Typing j and k in the message box types them.
  const box = page.getByRole('textbox', { name: 'Message' });
  await box.click();
  await page.keyboard.type('jk');
  await expect(box).toHaveValue('jk');
  await expect(trace(2)).toHaveAttribute('aria-pressed', 'true');
  await box.fill('');

  // Outside inputs they move between turns, and the URL follows.
  await page.getByRole('log', { name: 'Conversation' }).click({ position: { x: 5, y: 5 } });
  await page.keyboard.press('k');
  await expect(trace(1)).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByRole('group', { name: 'Trace graph of turn 1' })).toBeVisible();
  const turn1 = new URL(page.url()).searchParams.get('turn');
  await expect(page.getByRole('article', { name: 'Turn 1' })).toHaveAttribute('data-turn-id', turn1!);
  await page.keyboard.press('j');
  await expect(trace(2)).toHaveAttribute('aria-pressed', 'true');

  // The palette runs the same navigation.
  await page.keyboard.press('Control+k');
  await page.getByRole('combobox', { name: 'Search commands' }).fill('previous turn');
  await page.keyboard.press('Enter');
  await expect(trace(1)).toHaveAttribute('aria-pressed', 'true');

  // ? lists the shortcuts.
  await page.keyboard.press('?');
  const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await expect(help).toBeVisible();
  for (const keys of ['Ctrl+K', 'j', 'k', '?', 'Ctrl+Enter']) {
    await expect(help.getByRole('cell', { name: keys, exact: true })).toBeVisible();
  }
  await page.keyboard.press('Escape');
  await expect(help).toBeHidden();

  // Focus the message box from the palette, then Ctrl+Enter sends.
  await page.keyboard.press('Control+k');
  await page.getByRole('combobox', { name: 'Search commands' }).fill('focus message');
  await page.keyboard.press('Enter');
  await expect(box).toBeFocused();
});

test('a new thread puts the focus in the message box; a skip link comes first; / focuses the message box', async ({
  page,
}) => {
  const box = page.getByRole('textbox', { name: 'Message' });
  // From the welcome screen.
  const first = await startThread(page, 'card-disputes');
  await expect(box).toBeFocused();

  // From the New thread dialog (opened from the thread list): the new thread's box, not the old one's.
  await page.getByRole('navigation', { name: 'Threads' }).getByRole('button', { name: 'New thread' }).click();
  const dialog = page.getByRole('dialog', { name: 'New thread' });
  await dialog.getByRole('button', { name: 'Start' }).click();
  await expect(dialog).toBeHidden();
  await expect(page).not.toHaveURL(new RegExp(`[?&]task=${first}(&|$)`));
  await expect(box).toBeFocused();
  await page.keyboard.type('typed at once');
  await expect(box).toHaveValue('typed at once');
  await box.fill('');

  // The first Tab reaches the skip link, shown only while it has the focus; Enter goes to the box.
  await page.reload();
  const skip = page.getByRole('link', { name: 'Skip to message box' });
  expect((await skip.boundingBox())?.width ?? 0).toBeLessThanOrEqual(1);
  await page.keyboard.press('Tab');
  await expect(skip).toBeFocused();
  expect((await skip.boundingBox())?.width ?? 0).toBeGreaterThan(50);
  await page.keyboard.press('Enter');
  await expect(box).toBeFocused();
  expect(new URL(page.url()).hash).toBe('');

  // "/" from anywhere but a text field focuses the box (and types nothing); "?" lists it.
  await page.getByRole('log', { name: 'Conversation' }).click({ position: { x: 5, y: 5 } });
  await expect(box).not.toBeFocused();
  await page.keyboard.press('/');
  await expect(box).toBeFocused();
  await expect(box).toHaveValue('');
  await page.getByRole('log', { name: 'Conversation' }).click({ position: { x: 5, y: 5 } });
  await page.keyboard.press('?');
  const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await expect(help.getByRole('row').filter({ hasText: 'Focus the message box' })).toContainText('/');
  await page.keyboard.press('Escape');

  // With no thread open, the skip link goes to the main content.
  await page.goto('/');
  await page.keyboard.press('Tab');
  await expect(page.getByRole('link', { name: 'Skip to main content' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('main')).toBeFocused();
});

test('a dialog keeps Tab inside, closes on Escape and gives the focus back to its button', async ({
  page,
}) => {
  await page.goto('/');
  const opener = page.getByRole('banner').getByRole('button', { name: 'Connection', exact: true });
  await opener.click();
  const dialog = page.getByRole('dialog', { name: 'Connection settings' });
  await expect(dialog).toBeVisible();
  const focusInside = () => dialog.evaluate((d) => d.contains(document.activeElement));
  expect(await focusInside()).toBe(true);
  // Shift+Tab from the first stop goes round to the last, never to the page behind.
  await page.keyboard.press('Shift+Tab');
  expect(await focusInside()).toBe(true);
  for (let i = 0; i < 40; i += 1) {
    await page.keyboard.press('Tab');
    expect(await focusInside()).toBe(true);
  }
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(opener).toBeFocused();
});
