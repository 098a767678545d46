/**
 * Conversations as tests in real Chromium against the reference service: a blocked turn saved as
 * a test, the suite run against the active version (passes), the draft edited so the case fails,
 * the run against the draft showing the flipped rule with both reasons, the failing turn opened
 * in the compare view; coverage naming a rule the suite never reaches; a suite folder imported
 * (a broken file refused by name, the valid ones kept), exported as a zip and imported back.
 */
import { mkdtempSync, readdirSync, readFileSync, writeFileSync, mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { strFromU8, unzipSync } from 'fflate';
import type { Page } from '@playwright/test';
import { baselineText, goToLineEnd, lineOf, openBundleEditor } from './bundle-editing';
import { connect, DEV_KEY, expect, sendMessage, startThread, test } from './fixtures';

const BLOCKED_DISPUTE = 'I want to dispute a charge of $120 at Coffee Corner from 10 days ago';
const EXAMPLE_SUITE = path.join(import.meta.dirname, '..', 'server', 'agents', 'card-disputes', 'tests');

async function openTests(page: Page) {
  await page.getByRole('tab', { name: 'Tests' }).click();
  return page.getByRole('region', { name: 'Tests of card-disputes' });
}

test('save a turn as a test, run it, break it with a draft, see the flip and compare it', async ({
  page,
}) => {
  const original = await startThread(page, 'card-disputes');
  await sendMessage(page, BLOCKED_DISPUTE);
  const turn = page.getByRole('log', { name: 'Conversation' }).getByRole('article', { name: 'Turn 1' });
  await expect(turn.getByTitle('Decision: block_with_explanation')).toBeVisible();

  // One click opens the case, prefilled from what happened.
  await turn.getByRole('button', { name: 'Save as test (turn 1)' }).click();
  const dialog = page.getByRole('dialog', { name: 'Save turn 1 as a test' });
  await expect(dialog.getByLabel('Decision')).toHaveValue('block_with_explanation');
  await expect(dialog.getByLabel('Expect rule DISPUTE_WINDOW in turn 1')).toBeChecked();
  await expect(dialog.getByLabel('Result of rule DISPUTE_WINDOW in turn 1')).toHaveValue('blocked');
  await expect(dialog.getByLabel('Value of parameter transaction.transaction-amount in turn 1')).toHaveValue(
    '120',
  );
  // The clock is the service's task clock, not a guess.
  await expect(dialog.getByLabel('Task clock (ISO-8601)')).toHaveValue(/^\d{4}-\d\d-\d\dT/);
  await expect(dialog.getByText('The thread’s clock, as the service keeps it')).toBeVisible();
  // Edit before saving: a name, and the reply expectation left out.
  await dialog.getByLabel('Case name').fill('Window closed after 8 days');
  await dialog.getByLabel('Expect the reply of turn 1 to contain a text').uncheck();
  await dialog.getByRole('button', { name: 'Save test' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(turn.getByRole('status')).toHaveText('Saved to card-disputes’s tests.');

  // The suite runs against the active version: the case passes.
  const tests = await openTests(page);
  await expect(tests.getByRole('list', { name: 'Test cases' })).toContainText('Window closed after 8 days');
  await tests.getByRole('button', { name: 'Run 1 test' }).click();
  await expect(tests.getByRole('status')).toHaveText(
    'Done against the active version: 1 passed, 0 failed, 0 could not run.',
  );
  await expect(tests.getByRole('progressbar', { name: 'Suite run progress' })).toHaveAttribute('value', '1');
  const results = tests.getByRole('table', { name: 'Suite results' });
  await expect(results).toContainText('as expected');

  // Coverage: a rule the suite never reaches is named, the one it reached is not.
  const neverEvaluated = tests.getByRole('list', { name: 'Rules never evaluated' });
  await expect(neverEvaluated).toContainText('ALREADY_FROZEN');
  await expect(neverEvaluated.getByText('DISPUTE_WINDOW', { exact: true })).toHaveCount(0);
  await expect(tests.getByRole('list', { name: 'Rules never allowed' })).toContainText('DISPUTE_WINDOW');

  // The same coverage beside the bundle editor.
  const baseline = await baselineText(page);
  const line = lineOf(baseline, '"DISPUTE_WINDOW"', /"value": 8$/);
  await openBundleEditor(page);
  await page.getByText('What the tests do not reach').click();
  await expect(
    page.getByRole('region', { name: 'Suite coverage' }).getByRole('list', { name: 'Rules never evaluated' }),
  ).toContainText('ALREADY_FROZEN');

  // Widen the window to 30 days in the draft: the saved case must now fail against the draft.
  await goToLineEnd(page, line);
  await page.keyboard.press('Backspace');
  await page.keyboard.type('30');
  await expect(page.getByTestId('bundle-status')).toContainText('Valid');
  await openTests(page);
  await tests.getByRole('radio', { name: 'The draft bundle' }).check();
  const sent = page.waitForRequest(
    (r) => r.url().includes('/v1/messaging/messages') && r.method() === 'POST',
  );
  await tests.getByRole('button', { name: 'Run 1 test' }).click();
  const body = (await sent).postDataJSON() as { agent_settings_bundle?: unknown };
  expect(JSON.stringify(body.agent_settings_bundle)).toContain('"value":30');
  await expect(tests.getByRole('status')).toHaveText(
    /^Done against the draft bundle [0-9a-f]{8}: 0 passed, 1 failed, 0 could not run\.$/,
  );
  await expect(results).toContainText('rule DISPUTE_WINDOW: expected blocked, got allowed');
  await expect(results.getByText(/^now: /)).toBeVisible();
  await expect(results.getByText(/^when saved: blocked, /)).toBeVisible();

  // The failing turn opens in the compare view against the thread it was saved from.
  await results
    .getByRole('button', {
      name: 'Compare turn 1 of Window closed after 8 days with the thread it was saved from',
    })
    .click();
  await expect(page).toHaveURL(new RegExp(`[?&]compare=${original}\\.\\.`));
  await expect(page.getByText('block_with_explanation').first()).toBeVisible();
});

test('import a suite folder (a broken file refused by name), export it as a zip, import it back', async ({
  page,
}) => {
  const work = mkdtempSync(path.join(tmpdir(), 'threadline-suite-'));
  try {
    // The example agent's suite plus one broken file and one case holding a key.
    const folder = path.join(work, 'card-disputes-tests');
    mkdirSync(folder);
    const names = readdirSync(EXAMPLE_SUITE).filter((f) => f.endsWith('.case.json'));
    for (const f of names) writeFileSync(path.join(folder, f), readFileSync(path.join(EXAMPLE_SUITE, f)));
    writeFileSync(path.join(folder, 'broken.case.json'), '{"format": "threadline-test-case",');
    const keyed = JSON.parse(readFileSync(path.join(EXAMPLE_SUITE, names[0]!), 'utf8')) as object;
    writeFileSync(path.join(folder, 'keyed.case.json'), JSON.stringify({ ...keyed, api_key: DEV_KEY }));

    // No File System Access API here: the export falls back to a zip download.
    await page.addInitScript(() => {
      delete (window as { showDirectoryPicker?: unknown }).showDirectoryPicker;
    });
    await page.goto('/');
    await connect(page, { agentId: 'card-disputes' });
    const tests = await openTests(page);
    await tests.getByLabel('Test suite folder').setInputFiles(folder);
    const alert = tests.getByRole('alert');
    await expect(alert).toContainText(`${names.length} cases added.`);
    await expect(alert).toContainText('2 files refused');
    await expect(alert).toContainText('card-disputes-tests/broken.case.json: not JSON');
    await expect(alert).toContainText(
      'card-disputes-tests/keyed.case.json: (the case): unknown field "api_key"',
    );
    const list = tests.getByRole('list', { name: 'Test cases' });
    await expect(list.getByRole('listitem')).toHaveCount(names.length);

    // Delete with undo: the case comes back in its place.
    const firstName = (await list.getByRole('listitem').first().locator('p').first().textContent())!;
    await tests.getByRole('button', { name: `Delete ${firstName}` }).click();
    await expect(list.getByRole('listitem')).toHaveCount(names.length - 1);
    await expect(list).not.toContainText(firstName);
    await tests.getByRole('button', { name: 'Undo' }).click();
    await expect(list.getByRole('listitem')).toHaveCount(names.length);
    await expect(list.getByRole('listitem').first()).toContainText(firstName);

    // Export: a zip holding the folder, one file per case, the same cases, no key anywhere.
    const download = page.waitForEvent('download');
    await tests.getByRole('button', { name: 'Export folder' }).click();
    const zipPath = path.join(work, 'export.zip');
    await (await download).saveAs(zipPath);
    const files = unzipSync(readFileSync(zipPath));
    expect(Object.keys(files).sort()).toEqual(names.map((f) => `card-disputes-tests/${f}`).sort());
    for (const f of names) {
      const text = strFromU8(files[`card-disputes-tests/${f}`]!);
      expect(JSON.parse(text)).toEqual(JSON.parse(readFileSync(path.join(EXAMPLE_SUITE, f), 'utf8')));
      expect(text).not.toContain(DEV_KEY);
    }

    // Import the exported folder back: every case replaced in place, none added.
    const back = path.join(work, 'back');
    for (const [name, bytes] of Object.entries(files)) {
      mkdirSync(path.dirname(path.join(back, name)), { recursive: true });
      writeFileSync(path.join(back, name), bytes);
    }
    await tests.getByLabel('Test suite folder').setInputFiles(path.join(back, 'card-disputes-tests'));
    await expect(tests.getByRole('status')).toContainText(
      `0 cases added, ${names.length} replaced (same file name).`,
    );
    await expect(list.getByRole('listitem')).toHaveCount(names.length);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
});
