/**
 * "Know what an edit changes", in real Chromium against the reference service, at 1440×900: an
 * agent created from a pasted bundle is edited in Monaco as a person types (a threshold lowered,
 * then a rule whose condition can never hold); the lint marks that rule in the editor and lists it
 * in Problems; Publish says what the edit changes, region by region with its witness; the
 * witness is saved as a test case with one click (it shows in the Tests tab, and passes against
 * the draft but not against the active version) and opened as a thread that runs the draft.
 */
import path from 'node:path';
import type { Page } from '@playwright/test';
import { projectFiles } from '../server/agents/registry';
import { assembleProject } from '../src/lib/bundle/assemble';
import { draftMarkerLines, goToLineEnd, lineOf } from './bundle-editing';
import { DEV_KEY, expect, test } from './fixtures';

const STARTER = path.join(import.meta.dirname, '..', 'docs', 'bundle', 'starter-agent');

function starterText(): string {
  const { bundle } = assembleProject(projectFiles(STARTER));
  return `${JSON.stringify(bundle, null, 2)}\n`;
}

/** A constraint that can never hold: more than 500 nights and fewer than 100 at once. */
const NEVER_RULE =
  ', {"code": "NEVER_HOLDS", "when": {"all": [{"method": "param_value", "params": "nights", "operation": "gt", "value": 500}, {"method": "param_value", "params": "nights", "operation": "lt", "value": 100}]}, "then": {"action": "BLOCK", "message": "Never."}}';

async function createAgent(page: Page, id: string) {
  await page.goto('/');
  await page
    .getByLabel('API key', { exact: true })
    .filter({ visible: true })
    .first()
    .pressSequentially(DEV_KEY);
  await expect(page.getByLabel('Agent', { exact: true })).toHaveJSProperty('tagName', 'SELECT');
  await page.getByRole('button', { name: 'New agent…' }).click();
  const form = page.getByRole('form', { name: 'New agent' });
  await form.getByLabel('Bundle', { exact: true }).focus();
  await page.keyboard.insertText(starterText());
  await form.getByLabel('Agent id (optional)').pressSequentially(id);
  await form.getByRole('button', { name: 'Create agent' }).click();
  await expect(form).toHaveCount(0);
  await expect(page.getByLabel('Agent', { exact: true })).toHaveValue(id);
  await page.getByRole('button', { name: 'Start a thread' }).click();
  await expect(page).toHaveURL(/[?&]task=/);
}

test.use({ viewport: { width: 1440, height: 900 } });

test('an edit is linted as it is typed, Publish says what it changes, and its witness becomes a test', async ({
  page,
}) => {
  const id = `hotel-edit-${Date.now().toString(36)}`;
  await createAgent(page, id);
  const baseline = starterText();

  await page.getByRole('tab', { name: 'Bundle' }).click();
  await expect(page.locator('[data-editor-ready="true"]')).toBeVisible({ timeout: 30_000 });
  const status = page.getByTestId('bundle-status');
  await expect(status).toContainText('Valid');
  const editor = page.getByRole('textbox', { name: 'Bundle editor' });

  // At most 7 nights instead of 14.
  await goToLineEnd(page, lineOf(baseline, '"MAX_NIGHTS"', /"value": 14$/));
  await page.keyboard.press('Backspace');
  await page.keyboard.press('Backspace');
  await editor.pressSequentially('7');
  await expect(status).toContainText('Valid · edited');

  // A second constraint after MAX_NIGHTS, typed on the line that closes it: it can never hold.
  const ruleLine = lineOf(baseline, '"MAX_NIGHTS"', /^ {12}\}$/);
  await goToLineEnd(page, ruleLine);
  await editor.pressSequentially(NEVER_RULE);
  await expect(status).toContainText('Valid · edited');

  // The lint marks it, on the line it was typed on, and lists it with its rule.
  const problems = page.getByRole('list', { name: 'Problems' });
  const finding = problems.getByRole('listitem').filter({ hasText: 'NEVER_HOLDS' });
  await expect(finding).toContainText(/lint (error|warning|info)/i);
  await expect
    .poll(async () => [
      ...(await draftMarkerLines(page, 'error')),
      ...(await draftMarkerLines(page, 'warning')),
      ...(await draftMarkerLines(page, 'info')),
    ])
    .toContain(ruleLine);
  await expect(problems).not.toContainText('Lint could not run');

  // Publish: what the edit changes, in words, with the witness.
  await page.getByRole('button', { name: 'Publish…' }).click();
  const publish = page.getByRole('group', { name: 'Publish a version' });
  const changes = publish.getByRole('region', { name: 'Publish: what this edit changes' });
  await expect(changes).toContainText('What this edit changes');
  await expect(changes).toContainText(/\d+ decision changes? \(\d+ regions checked\)/);
  await expect(changes).not.toContainText('Equivalent');
  // A change the engine reaches with a conversation: its messages are listed, one click saves it.
  const change = changes
    .getByRole('list', { name: 'Decision changes' })
    .getByRole('listitem')
    .filter({ hasText: '→ blocked (MAX_NIGHTS)' })
    .filter({ has: page.getByRole('list', { name: 'Witness messages' }) })
    .first();
  await expect(change).toContainText(/^BOOK_ROOM — [^:]*nights > 7 and ≤ 14/);
  await expect(change).toContainText(/Witness: .*nights = \d+.* · clock \d{4}-\d\d-\d\dT/);
  const caseName = (await change.locator('p').first().textContent())!.split(':')[0]!;

  await change.getByRole('button', { name: 'Save as test case' }).click();
  await expect(change.getByRole('status')).toHaveText(`Saved “${caseName}” to ${id}’s tests (Tests tab).`);

  // Open as thread: a new thread running the draft, the witness's messages sent in order, the
  // last one blocked by the lowered limit.
  const messages = await change
    .getByRole('list', { name: 'Witness messages' })
    .getByRole('listitem')
    .allTextContents();
  const before = new URL(page.url()).searchParams.get('task');
  await change.getByRole('button', { name: 'Open as thread' }).click();
  await expect.poll(() => new URL(page.url()).searchParams.get('task')).not.toBe(before);
  const last = page
    .getByRole('log', { name: 'Conversation' })
    .getByRole('article', { name: `Turn ${messages.length}` });
  await expect(last).toContainText(messages[messages.length - 1]!.replace(/^“|”$/g, ''));
  await expect(last.getByTitle('Decision: block_with_explanation')).toBeVisible();

  // The case is in the agent's suite.
  await page.getByRole('tab', { name: 'Tests' }).click();
  const tests = page.getByRole('region', { name: `Tests of ${id}` });
  const cases = tests.getByRole('list', { name: 'Test cases' }).getByRole('listitem');
  await expect(cases).toHaveCount(1);
  await expect(cases.first()).toContainText(caseName);

  // It holds what the edit changes: it passes against the draft and fails against the active version.
  await tests.getByRole('radio', { name: 'The draft bundle' }).check();
  await tests.getByRole('button', { name: 'Run 1 test' }).click();
  await expect(tests.getByRole('status')).toContainText('1 passed, 0 failed');
  await tests.getByRole('radio', { name: 'The active version' }).check();
  await tests.getByRole('button', { name: 'Run 1 test' }).click();
  await expect(tests.getByRole('status')).toContainText('0 passed, 1 failed');
});
