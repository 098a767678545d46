/**
 * Accessibility: axe-core (from node_modules) on every main screen, light and dark, with no serious
 * or critical violation; and the keyboard paths: focus in the message box after New thread, a skip
 * link first in the tab order, and a shortcut to the message box listed under `?`.
 */
import type { Page } from '@playwright/test';
import { axeViolations } from './axe';
import { editDisputeWindow } from './bundle-editing';
import { connect, expect, sendMessage, test } from './fixtures';

const BLOCKED_DISPUTE = 'I want to dispute a charge of $120 at Coffee Corner from 10 days ago';

/** Checks the screen as it is in the light theme, then in the dark one (the app follows the system). */
async function checkBothThemes(page: Page, screen: string, found: string[]) {
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    if (scheme === 'dark') await expect(page.locator('html')).toHaveClass(/\bdark\b/);
    else await expect(page.locator('html')).not.toHaveClass(/\bdark\b/);
    // Colours ease in (transition-colors): measure them once they have settled. Monaco paints a
    // theme's token colours in its next animation frames (until then, a line's token classes can
    // still be the other theme's): measure after two, and once its tokens stop changing.
    await page.evaluate(() =>
      Promise.allSettled(
        document
          .getAnimations()
          .filter((a) => a instanceof CSSTransition)
          .map((a) => a.finished),
      ),
    );
    await page.evaluate(
      () => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))),
    );
    // Monaco may tokenize its lines again after the switch (a diff view does, as its models settle):
    // measure once its token classes are the same twice in a row, 250 ms apart.
    await page.waitForFunction(
      () => {
        const tokens = [...document.querySelectorAll('.monaco-editor .view-lines span[class*="mtk"]')]
          .map((e) => e.className)
          .join(' ');
        const w = window as unknown as { lastTokens?: string };
        const settled = w.lastTokens === tokens;
        w.lastTokens = tokens;
        return settled;
      },
      undefined,
      { polling: 250, timeout: 15_000 },
    );
    found.push(...(await axeViolations(page, `${screen}, ${scheme}`)));
  }
}

test('no serious or critical axe violation (nor content outside landmarks) on any main screen, light and dark', async ({
  page,
}) => {
  test.setTimeout(240_000);
  const found: string[] = [];
  const turn = (n: number) =>
    page.getByRole('log', { name: 'Conversation' }).getByRole('article', { name: `Turn ${n}` });

  // Connect (the welcome screen with its connection form).
  await page.goto('/');
  // Remembered, so the reloads below keep the key.
  await connect(page, { agentId: 'card-disputes', remember: true });
  await checkBothThemes(page, 'connect', found);

  // Chat with a blocked turn and its trace, a rule selected in the graph.
  await page.getByRole('button', { name: 'Start a thread' }).click();
  await expect(page).toHaveURL(/[?&]task=/);
  await sendMessage(page, BLOCKED_DISPUTE);
  await expect(turn(1).getByTitle('Decision: block_with_explanation')).toBeVisible();
  const graph = page.getByRole('group', { name: 'Trace graph of turn 1' });
  await graph.locator('[data-kind="rule"][data-tone="blocked"]').first().click();
  await expect(page.getByRole('region', { name: /^Details of / })).toBeVisible();
  await checkBothThemes(page, 'chat with trace', found);

  // The other inspector tabs: Thread, Bundle (the editor, with an edited draft), Branches.
  await page.getByRole('tab', { name: 'Thread' }).click();
  await expect(page.getByRole('tab', { name: 'Thread' })).toHaveAttribute('aria-selected', 'true');
  await checkBothThemes(page, 'thread tab', found);
  await page.emulateMedia({ colorScheme: 'light' });
  await editDisputeWindow(page, 30);
  await checkBothThemes(page, 'bundle editor', found);
  await page.getByRole('button', { name: 'Diff with baseline' }).click();
  await expect(page.locator('.monaco-diff-editor')).toBeVisible({ timeout: 30_000 });
  // Beside it, what the edit changes: checked once the engine has answered (the page as it stays).
  await expect(page.getByRole('region', { name: 'What this edit changes from the baseline' })).toContainText(
    /decision change|Equivalent/,
    { timeout: 30_000 },
  );
  await checkBothThemes(page, 'bundle diff', found);
  // The draft survives a reload. (Reloading rather than closing the diff view keeps this test
  // about accessibility: closing a Monaco diff view has its own test.)
  await page.reload();
  await expect(page.locator('[data-editor-ready="true"]')).toBeVisible({ timeout: 30_000 });

  // The rerun dialog, then the branch it makes.
  await turn(1).getByRole('button', { name: 'Rerun from here (turn 1)' }).click();
  const rerun = page.getByRole('dialog', { name: 'Rerun turn 1 as a new branch' });
  await rerun.getByRole('radio', { name: /Current draft/ }).check();
  await checkBothThemes(page, 'rerun dialog', found);
  await rerun.getByRole('button', { name: 'Rerun' }).click();
  await expect(rerun).toHaveCount(0);
  await expect(turn(1).getByTitle(/^Decision: /)).toBeVisible();

  await page.getByRole('tab', { name: 'Branches' }).click();
  const tree = page.getByRole('tree', { name: 'Branch tree' });
  await expect(tree.getByRole('treeitem')).toHaveCount(2);
  await checkBothThemes(page, 'branch tree', found);

  // Compare the branch with its parent: decision diff, both graphs, the bundles' diff editor.
  await tree.getByRole('button', { name: 'Compare with parent' }).click();
  const comparison = page.getByRole('region', { name: 'Comparison' });
  await expect(comparison.getByRole('article').first().getByLabel('Decision changed')).toBeVisible();
  await expect(page.locator('.monaco-diff-editor')).toBeVisible({ timeout: 30_000 });
  // Both sides of the bundles' diff editor are named (axe's "label" rule checks the same).
  const diffBoxes = page.locator('.monaco-diff-editor textarea');
  expect(await diffBoxes.count()).toBeGreaterThanOrEqual(2);
  for (const box of await diffBoxes.all()) await expect(box).toHaveAttribute('aria-label', /^Bundle diff: /);
  await checkBothThemes(page, 'compare', found);
  // ...and stay named once the page has re-rendered them (here, in the other theme).
  for (const box of await diffBoxes.all()) await expect(box).toHaveAttribute('aria-label', /^Bundle diff: /);
  const compared = new URL(page.url());
  compared.searchParams.delete('compare');
  await page.goto(compared.toString());
  await expect(turn(1)).toBeVisible();

  // Share, and the snapshot it makes.
  await page.getByRole('button', { name: 'Share…' }).click();
  const share = page.getByRole('dialog', { name: 'Share this thread' });
  await expect(share.getByLabel('Snapshot contents')).toBeVisible();
  await checkBothThemes(page, 'share dialog', found);
  await share.getByRole('button', { name: 'Create snapshot link' }).click();
  const link = await share.getByRole('textbox', { name: 'Snapshot link' }).inputValue();
  await share.getByRole('button', { name: 'Close' }).click();

  // The palette, the shortcuts, the connection settings.
  await page.keyboard.press('Control+k');
  await expect(page.getByRole('dialog', { name: 'Command palette' })).toBeVisible();
  await checkBothThemes(page, 'command palette', found);
  await page.getByRole('combobox', { name: 'Search commands' }).fill('connection settings');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('dialog', { name: 'Connection settings' })).toBeVisible();
  await checkBothThemes(page, 'connection settings', found);
  await page.keyboard.press('Escape');
  await page.getByRole('log', { name: 'Conversation' }).click({ position: { x: 5, y: 5 } });
  await page.keyboard.press('?');
  await expect(page.getByRole('dialog', { name: 'Keyboard shortcuts' })).toBeVisible();
  await checkBothThemes(page, 'shortcuts dialog', found);
  await page.keyboard.press('Escape');

  await page.goto(link);
  await expect(page.getByText('Snapshot, read-only')).toBeVisible();
  await expect(page.getByRole('group', { name: 'Trace graph of turn 1' })).toBeVisible();
  await checkBothThemes(page, 'snapshot page', found);

  expect(found.length, `axe violations:\n${found.join('\n')}`).toBe(0);
});

/** Every visible placeholder's contrast against its field's background (axe leaves placeholders out). */
function placeholderContrasts(page: Page) {
  return page.evaluate(() => {
    const canvas = document.createElement('canvas').getContext('2d', { willReadFrequently: true })!;
    const rgba = (css: string) => {
      canvas.clearRect(0, 0, 1, 1);
      canvas.fillStyle = css;
      canvas.fillRect(0, 0, 1, 1);
      return [...canvas.getImageData(0, 0, 1, 1).data];
    };
    const luminance = ([r, g, b]: number[]) => {
      const c = (v: number) => ((v /= 255) <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4);
      return 0.2126 * c(r!) + 0.7152 * c(g!) + 0.0722 * c(b!);
    };
    const fields = [
      ...document.querySelectorAll<HTMLInputElement>('input[placeholder], textarea[placeholder]'),
    ];
    return fields
      .filter((f) => f.getClientRects().length > 0)
      .map((f) => {
        const fg = rgba(getComputedStyle(f, '::placeholder').color);
        let bg = rgba(getComputedStyle(f).backgroundColor);
        for (let e = f.parentElement; bg[3] === 0 && e; e = e.parentElement)
          bg = rgba(getComputedStyle(e).backgroundColor);
        // The placeholder's own alpha over the background.
        const a = fg[3]! / 255;
        const shown = fg.slice(0, 3).map((v, i) => v * a + bg[i]! * (1 - a));
        const [hi, lo] = [luminance(shown), luminance(bg)].sort((x, y) => y - x);
        return { field: f.placeholder, ratio: Math.round(((hi! + 0.05) / (lo! + 0.05)) * 100) / 100 };
      });
  });
}

test('placeholders read at 4.5:1 or more, light and dark', async ({ page }) => {
  await page.goto('/');
  const seen = new Set<string>();
  const check = async () => {
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      if (scheme === 'dark') await expect(page.locator('html')).toHaveClass(/\bdark\b/);
      else await expect(page.locator('html')).not.toHaveClass(/\bdark\b/);
      await page.evaluate(() => Promise.allSettled(document.getAnimations().map((a) => a.finished)));
      for (const { field, ratio } of await placeholderContrasts(page)) {
        seen.add(field);
        expect(ratio, `placeholder "${field}" (${scheme})`).toBeGreaterThanOrEqual(4.5);
      }
    }
  };
  await check(); // the connection form
  await connect(page, { agentId: 'card-disputes' });
  await page.getByRole('button', { name: 'Start a thread' }).click();
  await expect(page.getByRole('textbox', { name: 'Message' })).toBeVisible();
  await check(); // the composer
  expect([...seen]).toContain('Write a message…');
  expect(seen.size).toBeGreaterThanOrEqual(3);
});
