/**
 * Screenshots of the real UI for the README, into docs/: the workspace with a blocked turn and its
 * graph, the bundle editor (an edit and what it changes), the compare view, a snapshot, the command palette and the dark theme.
 *
 *   npx tsx scripts/screenshots.ts
 *
 * Builds the SPA, starts the reference service on a free port with a throwaway data folder, drives
 * Chromium through the same flows a user would, and stops everything at the end.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, statSync } from 'node:fs';
import { chromium, type Page } from '@playwright/test';
import { chromiumLaunchOptions } from '../tools/lib/chromium';
import { startServiceProcess } from '../tools/lib/service-process';

const OUT = 'docs';
const DIST = '.e2e/dist-screens';
const DATA = '.e2e/data-screens';
const BLOCKED = 'I want to dispute a charge of $120 at Coffee Corner from 10 days ago';
const EDITED = 'I want to dispute a charge of $120 at Coffee Corner from 3 days ago';

async function shot(page: Page, name: string): Promise<void> {
  await page.mouse.move(0, 0);
  const path = `${OUT}/${name}.png`;
  await page.screenshot({ path });
  console.log(`${path}: ${(statSync(path).size / 1024).toFixed(0)} KB`);
}

async function send(page: Page, text: string): Promise<void> {
  await page.getByRole('textbox', { name: 'Message' }).fill(text);
  await page.getByRole('button', { name: 'Send' }).click();
  await page.getByText('The agent is replying…').waitFor({ state: 'detached' });
}

async function main() {
  mkdirSync(OUT, { recursive: true });
  rmSync(DATA, { recursive: true, force: true });
  execFileSync('npx', ['vite', 'build', '--logLevel', 'warn', '--outDir', DIST], { stdio: 'inherit' });
  const service = await startServiceProcess({ data: DATA, dist: DIST });
  const base = service.url;
  const browser = await chromium.launch(chromiumLaunchOptions);
  try {
    const context = await browser.newContext({
      baseURL: base,
      viewport: { width: 1440, height: 860 },
      colorScheme: 'light',
      permissions: ['clipboard-read', 'clipboard-write'],
    });
    const page = await context.newPage();

    // Workspace: a blocked dispute, its graph and the blocked rule's details.
    await page.goto('/');
    await page.getByLabel('API key', { exact: true }).fill('dev-key');
    await page.getByLabel('Remember the key on this device').check();
    // The agent field becomes a picker once the service has listed its agents.
    const agent = page.getByRole('combobox', { name: 'Agent', exact: true });
    await agent.waitFor();
    await agent.selectOption('card-disputes');
    await page.getByRole('button', { name: 'Start a thread' }).click();
    await page.waitForURL(/[?&]task=/);
    await send(page, 'Hello');
    await send(page, BLOCKED);
    const graph = page.getByRole('group', { name: 'Trace graph of turn 2' });
    await graph.locator('[data-kind="rule"][data-tone="blocked"]').first().click();
    await page.getByRole('region', { name: /^Details of / }).waitFor();
    const threadUrl = page.url();
    await shot(page, 'workspace-blocked-turn');

    // Command palette over the workspace.
    await page.keyboard.press('Control+k');
    await page.getByRole('combobox', { name: 'Search commands' }).waitFor();
    await shot(page, 'command-palette');
    await page.keyboard.press('Escape');

    // Bundle editor: DISPUTE_WINDOW widened from 8 to 30 days, the diff against the baseline with
    // what the edit changes (then the draft is reset, so the rerun below runs the agent's own).
    await page.getByRole('tab', { name: 'Bundle' }).click();
    await page.locator('[data-editor-ready="true"]').waitFor({ timeout: 30_000 });
    await page.locator('.monaco-editor .view-lines').first().waitFor();
    const baseline = await page.request.get('/reference/v1/agents/card-disputes/bundle', {
      headers: { 'x-service-api-key': 'dev-key' },
    });
    const lines =
      `${JSON.stringify(((await baseline.json()) as { bundle: unknown }).bundle, null, 2)}\n`.split('\n');
    const from = lines.findIndex((l) => l.includes('"DISPUTE_WINDOW"'));
    const windowLine = lines.findIndex((l, i) => i > from && /"value": 8$/.test(l)) + 1;
    await page.getByRole('textbox', { name: 'Bundle editor' }).focus();
    await page.keyboard.press('Control+G');
    await page.keyboard.type(String(windowLine));
    await page.keyboard.press('Enter');
    await page.keyboard.press('End');
    await page.keyboard.press('Backspace');
    await page.keyboard.type('30');
    await page.getByRole('button', { name: 'Diff with baseline' }).click();
    await page
      .getByRole('region', { name: 'What this edit changes from the baseline' })
      .getByText(/decision change|Equivalent/)
      .first()
      .waitFor({ timeout: 60_000 });
    await shot(page, 'bundle-editor');
    await page.getByRole('button', { name: 'Diff with baseline' }).click();
    await page.getByRole('button', { name: 'Reset to baseline' }).click();
    await page.getByRole('tab', { name: 'Trace' }).click();

    // A rerun of the blocked turn with an edited message, then the comparison.
    await page.getByRole('button', { name: 'Rerun from here (turn 2)' }).click();
    await page.getByLabel('Message to replay').fill(EDITED);
    await page.getByRole('button', { name: 'Rerun', exact: true }).click();
    const parentTask = new URL(threadUrl).searchParams.get('task');
    await page.waitForURL(
      (u) => Boolean(u.searchParams.get('task')) && u.searchParams.get('task') !== parentTask,
      { timeout: 30_000 },
    );
    await page.getByRole('article', { name: 'Turn 2' }).waitFor();
    await page.keyboard.press('Control+k');
    await page.getByRole('combobox', { name: 'Search commands' }).fill('compare with the parent');
    await page.keyboard.press('Enter');
    await page.waitForURL(/[?&]compare=/);
    await page.waitForTimeout(1500); // let the two graphs lay out and fit (a picture, not a test)
    await shot(page, 'compare-view');

    // Snapshot: the blocked thread, values masked, opened read-only.
    await page.goto(threadUrl);
    await page.getByRole('button', { name: 'Share…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Share this thread' });
    await dialog.getByLabel('Mask all values').check();
    await dialog.getByRole('button', { name: 'Create snapshot link' }).click();
    const link = await dialog.getByRole('textbox', { name: 'Snapshot link' }).inputValue();
    await dialog.getByRole('button', { name: 'Close' }).click();
    await page.goto(link);
    await page.getByText('Snapshot, read-only').waitFor();
    await page.getByRole('group', { name: /^Trace graph of turn/ }).waitFor();
    await page.waitForTimeout(500);
    await shot(page, 'snapshot-read-only');
    await page.getByRole('button', { name: 'Close snapshot' }).click();

    // Dark theme, chosen from the palette.
    await page.goto(threadUrl);
    await page.getByRole('group', { name: /^Trace graph of turn/ }).waitFor();
    await page.keyboard.press('Control+k');
    await page.getByRole('combobox', { name: 'Search commands' }).fill('dark theme');
    await page.keyboard.press('Enter');
    await page.getByRole('group', { name: /^Trace graph of turn/ }).waitFor();
    await page.waitForTimeout(500);
    await shot(page, 'dark-theme');
    await context.close();
  } finally {
    await browser.close();
    await service.stop();
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
