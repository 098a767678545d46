/**
 * The first hour of a new user, typed at human speed: the key prompt after a reload, the rerun
 * dialog's defaults, the Bundle tab before any edit, turns that keep their place when a service
 * sends odd field types, diffs and graphs framed on what changed, and the smaller details.
 */
import { baselineText, editDisputeWindow, goToLineEnd, lineOf, openBundleEditor } from './bundle-editing';
import type { Locator } from '@playwright/test';
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

const BLOCKED_DISPUTE = 'I want to dispute a charge of $120 at Coffee Corner from 10 days ago';

test('the rerun dialog preselects the edited draft, tells its choices apart, and the branch opens on its trace', async ({
  page,
}) => {
  const original = await startThread(page, 'card-disputes');
  await sendMessage(page, BLOCKED_DISPUTE);
  const turn = page.getByRole('log', { name: 'Conversation' }).getByRole('article', { name: 'Turn 1' });
  await expect(turn.getByTitle('Decision: block_with_explanation')).toBeVisible();
  await editDisputeWindow(page, 30);

  await turn.getByRole('button', { name: 'Rerun from here (turn 1)' }).click();
  const dialog = page.getByRole('dialog', { name: 'Rerun turn 1 as a new branch' });
  // The draft just edited is what a user who clicks Rerun without reading means.
  await expect(dialog.getByRole('radio', { name: /Current draft/ })).toBeChecked();
  const descriptions = await dialog
    .getByRole('radio')
    .evaluateAll((radios) => radios.map((r) => r.closest('label')?.textContent?.split('—')[1]?.trim() ?? ''));
  expect(descriptions.length).toBeGreaterThanOrEqual(3);
  expect(new Set(descriptions).size).toBe(descriptions.length);
  await dialog.getByRole('button', { name: 'Rerun' }).click();
  await expect(dialog).toHaveCount(0);

  await expect(page).not.toHaveURL(new RegExp(`[?&]task=${original}(&|$)`));
  await expect(page.getByRole('tab', { name: 'Trace' })).toHaveAttribute('aria-selected', 'true');
  const branchTurn = page.getByRole('log', { name: 'Conversation' }).getByRole('article', { name: 'Turn 1' });
  await expect(branchTurn.getByText(/local bundle #[0-9a-f]{8}/)).toBeVisible();
  await expect(branchTurn.getByTitle('Decision: block_with_explanation')).toHaveCount(0);
});

test('the Bundle tab shows no error before any edit, and an error says what to do with controls that exist', async ({
  page,
}) => {
  await startThread(page, 'card-disputes');
  await sendMessage(page, 'Hello');
  const baseline = await baselineText(page);
  await openBundleEditor(page);
  const inspector = page.getByRole('region', { name: 'Inspector' });
  await expect(inspector.getByTestId('thread-runs-with')).toBeVisible();
  await expect(inspector.getByRole('alert')).toHaveCount(0);
  await expect(inspector.getByText(/draft yet/)).toHaveCount(0);

  // A draft that is not JSON: the reason names the fix, and no control that is gone.
  await goToLineEnd(page, lineOf(baseline, '"DISPUTE_WINDOW"', /"value": 8$/));
  await page.keyboard.type('x');
  const problem = inspector.getByRole('alert').filter({ hasText: 'not valid JSON' });
  await expect(problem).toContainText('Fix it in the Bundle tab');
  await expect(problem).toContainText('Runs with');
  await expect(page.getByText(/Use this bundle/)).toHaveCount(0);
});

test('diffs open on the change with the rest folded, and every bundle change is said in words', async ({
  page,
}) => {
  await startThread(page, 'card-disputes');
  await sendMessage(page, BLOCKED_DISPUTE);
  const turn = page.getByRole('log', { name: 'Conversation' }).getByRole('article', { name: 'Turn 1' });
  await expect(turn.getByTitle('Decision: block_with_explanation')).toBeVisible();
  await editDisputeWindow(page, 30);
  const change = 'DISPUTE_WINDOW: window 8 → 30 days';

  // The Bundle tab's diff opens on the changed line, far down the bundle, the rest folded.
  const inspector = page.getByRole('region', { name: 'Inspector' });
  await inspector.getByRole('button', { name: 'Diff with baseline' }).click();
  await expect(inspector.getByText(/"value":\s30,?$/)).toBeVisible();
  await expect(inspector.getByText(/\d+ hidden lines/).first()).toBeVisible();

  // The rerun dialog says what the draft changes.
  await turn.getByRole('button', { name: 'Rerun from here (turn 1)' }).click();
  const dialog = page.getByRole('dialog', { name: 'Rerun turn 1 as a new branch' });
  await expect(dialog.getByText(change)).toBeVisible();
  await dialog.getByRole('button', { name: 'Rerun' }).click();
  await expect(dialog).toHaveCount(0);

  // The branch tree says it, and the comparison's header too, with its diff on the change.
  await page.getByRole('tab', { name: 'Branches' }).click();
  const tree = page.getByRole('tree', { name: 'Branch tree' });
  await expect(tree.getByText(change, { exact: false })).toBeVisible();
  await tree.getByRole('button', { name: 'Compare with parent' }).click();
  const comparison = page.getByRole('region', { name: 'Comparison' });
  await expect(comparison.getByTestId('compare-bundle-change')).toContainText(change);
  const bundles = comparison.getByRole('region', { name: 'Bundles used' });
  await bundles.scrollIntoViewIfNeeded();
  await expect(bundles.getByText(/"value":\s30,?$/)).toBeVisible();
});

/** True when `inner` lies wholly inside `outer` on screen. */
async function whollyInside(inner: Locator, outer: Locator): Promise<boolean> {
  const [a, b] = [await inner.boundingBox(), await outer.boundingBox()];
  if (!a || !b) return false;
  return (
    a.x >= b.x - 1 &&
    a.y >= b.y - 1 &&
    a.x + a.width <= b.x + b.width + 1 &&
    a.y + a.height <= b.y + b.height + 1
  );
}

/** The zoom a node is drawn at: its width on screen over its width in the layout. */
const zoomOfNode = (node: Locator) =>
  node.evaluate((el) => el.getBoundingClientRect().width / (el as HTMLElement).offsetWidth);

test('compare frames the flipped rule and the decision of both graphs at a legible size; Fit view stays legible', async ({
  page,
}) => {
  await startThread(page, 'card-disputes');
  await sendMessage(page, BLOCKED_DISPUTE);
  const turn = page.getByRole('log', { name: 'Conversation' }).getByRole('article', { name: 'Turn 1' });
  await expect(turn.getByTitle('Decision: block_with_explanation')).toBeVisible();
  await editDisputeWindow(page, 30);
  await turn.getByRole('button', { name: 'Rerun from here (turn 1)' }).click();
  const dialog = page.getByRole('dialog', { name: 'Rerun turn 1 as a new branch' });
  await dialog.getByRole('radio', { name: /Current draft/ }).check();
  await dialog.getByRole('button', { name: 'Rerun' }).click();
  await expect(dialog).toHaveCount(0);
  await page.getByRole('tab', { name: 'Branches' }).click();
  await page
    .getByRole('tree', { name: 'Branch tree' })
    .getByRole('button', { name: 'Compare with parent' })
    .click();

  const comparison = page.getByRole('region', { name: 'Comparison' });
  for (const side of ['A', 'B']) {
    const graph = comparison.getByRole('group', { name: new RegExp(`^Trace graph ${side}`) });
    await graph.scrollIntoViewIfNeeded();
    const rule = graph
      .locator('.react-flow__node')
      .filter({ has: page.locator('[data-kind="rule"]') })
      .filter({
        hasText: 'DISPUTE_WINDOW',
      });
    const decision = graph
      .locator('.react-flow__node')
      .filter({ has: page.locator('[data-kind="decision"]') });
    await expect(rule).toBeVisible();
    await expect.poll(() => whollyInside(rule, graph)).toBe(true);
    await expect.poll(() => whollyInside(decision, graph)).toBe(true);
    expect(await zoomOfNode(decision)).toBeGreaterThanOrEqual(0.9);
    // Fit view never shrinks the text below the legible zoom.
    await graph.getByRole('button', { name: 'Fit View' }).click();
    await expect.poll(() => zoomOfNode(decision)).toBeGreaterThanOrEqual(0.9);
  }
});

test('the smaller details: the palette from the editor with the loop actions, the editor keeps its place, the Tests tab keeps its choice', async ({
  page,
}) => {
  await startThread(page, 'card-disputes');
  await sendMessage(page, 'Hello');
  await sendMessage(page, 'Hello again');
  const turn2 = page.getByRole('log', { name: 'Conversation' }).getByRole('article', { name: 'Turn 2' });
  await expect(turn2).toBeVisible();

  // The thread list: "card-disputes · just now"; the turn: what it ran with, in words.
  await expect(page.getByRole('navigation').getByText('card-disputes · just now')).toBeVisible();
  await expect(turn2.getByText('the agent’s own bundle')).toBeVisible();
  await expect(page.getByText(/card-disputes’s/)).toHaveCount(0);

  // A proceed decision node says "proceed" once; "Follow latest" only where a later turn exists.
  const graph = page.getByRole('group', { name: /^Trace graph/ });
  const decision = graph.locator('[data-kind="decision"]');
  await expect(decision).toBeVisible();
  const said = (await decision.textContent()) ?? '';
  if (/proceed/.test(said)) expect(said.match(/proceed/g)).toHaveLength(1);
  await turn2.getByRole('button', { name: 'Show trace of turn 2' }).click();
  await expect(page.getByTestId('trace-turn')).toContainText('Turn 2 of 2');
  await expect(page.getByRole('button', { name: 'Follow latest' })).toHaveCount(0);
  const turn1 = page.getByRole('log', { name: 'Conversation' }).getByRole('article', { name: 'Turn 1' });
  await turn1.getByRole('button', { name: 'Show trace of turn 1' }).click();
  await expect(page.getByRole('button', { name: 'Follow latest' })).toBeVisible();

  // Ctrl+K while the editor has focus opens the palette, which offers the loop's actions.
  const baseline = await baselineText(page);
  await openBundleEditor(page);
  await goToLineEnd(page, lineOf(baseline, '"DISPUTE_WINDOW"', /"value": 8$/));
  await page.keyboard.press('Control+K');
  const palette = page.getByRole('dialog', { name: 'Command palette' });
  await expect(palette).toBeVisible();
  const search = palette.getByRole('combobox', { name: 'Search commands' });
  for (const title of ['Save this turn as a test', 'Run the test suite', 'Run this thread with this draft']) {
    await search.pressSequentially(title);
    await expect(palette.getByRole('option', { name: new RegExp(title) })).toBeVisible();
    await search.press('Control+A');
    await search.press('Backspace');
  }
  await page.keyboard.press('Escape');
  await expect(palette).toBeHidden();

  // The editor is where it was left after a visit to another tab.
  const inspector = page.getByRole('region', { name: 'Inspector' });
  await expect(inspector.getByText(/"value":\s8,?$/).first()).toBeVisible();
  await page.getByRole('tab', { name: 'Trace' }).click();
  await page.getByRole('tab', { name: 'Bundle' }).click();
  await expect(page.locator('[data-editor-ready="true"]')).toBeVisible({ timeout: 30_000 });
  await expect(inspector.getByText(/"code":\s"DISPUTE_WINDOW"/)).toBeVisible();

  // The Tests tab keeps its "Run against" choice and its results across a reload.
  await turn1.getByRole('button', { name: 'Save as test (turn 1)' }).click();
  const save = page.getByRole('dialog', { name: 'Save turn 1 as a test' });
  await save.getByRole('button', { name: 'Save test' }).click();
  await expect(save).toHaveCount(0);
  await page.getByRole('tab', { name: 'Tests' }).click();
  const runSection = page.getByRole('region', { name: 'Run the suite' });
  await runSection.getByRole('button', { name: 'Run 1 test' }).click();
  await expect(runSection.getByRole('status')).toContainText('Done against the active version');
  await runSection.getByRole('radio', { name: 'The draft bundle' }).check();
  await page.reload();
  await page.getByRole('tab', { name: 'Tests' }).click();
  const again = page.getByRole('region', { name: 'Run the suite' });
  await expect(again.getByRole('radio', { name: 'The draft bundle' })).toBeChecked();
  await expect(again.getByRole('table', { name: 'Suite results' })).toBeVisible();
  await expect(again.getByRole('status')).toContainText('1 passed');
});

test('a thread’s name is kept by the service: a link’s recipient sees it', async ({
  page,
  browser,
  baseURL,
}) => {
  const task = await startThread(page, 'card-disputes');
  await sendMessage(page, 'Hello');
  await expect(page.getByRole('article', { name: 'Turn 1' })).toBeVisible();
  const renamed = page.waitForResponse(
    (r) => r.url().includes(`/reference/v1/tasks/${task}/title`) && r.request().method() === 'PUT',
  );
  await page.getByRole('button', { name: 'Rename the thread' }).click();
  const name = page.getByRole('textbox', { name: 'Thread name' });
  await name.press('Control+A');
  await name.pressSequentially('Coffee Corner dispute');
  await name.press('Enter');
  expect((await renamed).status()).toBe(200);

  const other = await browser.newContext({ baseURL });
  const fresh = await other.newPage();
  await fresh.goto(`/?task=${task}`);
  const gate = fresh.getByRole('dialog', { name: 'Open a shared thread' });
  await gate.getByLabel('API key', { exact: true }).pressSequentially(DEV_KEY);
  await gate.getByRole('button', { name: 'Open the thread' }).click();
  await expect(
    fresh.getByRole('region', { name: 'Chat' }).getByRole('heading', { name: 'Coffee Corner dispute' }),
  ).toBeVisible();
  await other.close();
});
