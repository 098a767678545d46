/**
 * Your own agent, first class, in real Chromium against the reference service: an agent created
 * from a pasted bundle greets with its own welcome and starters, is edited, published as v2 and
 * activated; a thread pinned to v1 keeps v1; a turn saved as a test lands in the agent's own
 * suite, which runs against v1 and v2 with different outcomes. Agents loaded with `--agents` show
 * with their versions, and a broken project is reported and skipped.
 */
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { projectFiles } from '../server/agents/registry';
import { assembleProject } from '../src/lib/bundle/assemble';
import { goToLineEnd, lineOf } from './bundle-editing';
import { DEV_KEY, expect, test } from './fixtures';
import { startServiceProcess, type ServiceProcess } from '../tools/lib/service-process';
import { builtSpaDir } from './ports';

const STARTER = path.join(import.meta.dirname, '..', 'docs', 'bundle', 'starter-agent');
const TEN_NIGHTS = 'book a suite from next friday for 10 nights';

function starterText(): string {
  const { bundle } = assembleProject(projectFiles(STARTER));
  return `${JSON.stringify(bundle, null, 2)}\n`;
}

async function typeKey(page: Page) {
  await page
    .getByLabel('API key', { exact: true })
    .filter({ visible: true })
    .first()
    .pressSequentially(DEV_KEY);
  await expect(page.getByLabel('Agent', { exact: true })).toHaveJSProperty('tagName', 'SELECT');
}

async function say(page: Page, text: string) {
  await page.getByRole('textbox', { name: 'Message' }).pressSequentially(text);
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(page.getByText('The agent is replying…')).toHaveCount(0);
}

const turn = (page: Page, n: number) =>
  page.getByRole('log', { name: 'Conversation' }).getByRole('article', { name: `Turn ${n}` });

/** A new thread with the agent at a version ('' = the active one). */
async function newThread(page: Page, agentId: string, version: string) {
  await page.getByRole('button', { name: 'New thread' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'New thread' });
  await dialog.getByLabel('Agent', { exact: true }).selectOption(agentId);
  await dialog.getByLabel('Version').selectOption(version);
  await dialog.getByRole('button', { name: 'Start' }).click();
  await expect(dialog).toHaveCount(0);
}

test('create an agent from a pasted bundle, talk to it, publish v2, activate it, pin v1, test both', async ({
  page,
}) => {
  const id = `hotel-${Date.now().toString(36)}`;
  await page.goto('/');
  await typeKey(page);

  // New agent from a pasted bundle, with an id of our own.
  await page.getByRole('button', { name: 'New agent…' }).click();
  const form = page.getByRole('form', { name: 'New agent' });
  await form.getByLabel('Bundle', { exact: true }).focus();
  await page.keyboard.insertText(starterText());
  await form.getByLabel('Agent id (optional)').pressSequentially(id);
  await form.getByRole('button', { name: 'Create agent' }).click();
  await expect(form).toHaveCount(0);

  // It is chosen in the picker; the thread greets with its own welcome and starters.
  await expect(page.getByLabel('Agent', { exact: true })).toHaveValue(id);
  await page.getByRole('button', { name: 'Start a thread' }).click();
  await expect(page).toHaveURL(/[?&]task=/);
  await expect(page.getByText('Welcome to the Harbour Hotel! I can book a room for you.')).toBeVisible();
  await expect(
    page.getByRole('button', { name: 'Book a suite for 2 nights from next friday' }),
  ).toBeVisible();
  await say(page, TEN_NIGHTS);
  await expect(turn(page, 1).getByTitle('Decision: request_confirmation')).toBeVisible();

  // Save the turn as a test: it goes to this agent's own suite.
  await turn(page, 1).getByRole('button', { name: 'Save as test (turn 1)' }).click();
  const save = page.getByRole('dialog', { name: 'Save turn 1 as a test' });
  await save.getByRole('button', { name: 'Save test' }).click();
  await expect(turn(page, 1).getByRole('status')).toHaveText(`Saved to ${id}’s tests.`);

  // Edit: at most 7 nights. Then publish the draft as v2, seeing what changes first.
  const baseline = starterText();
  await page.getByRole('tab', { name: 'Bundle' }).click();
  await expect(page.locator('[data-editor-ready="true"]')).toBeVisible({ timeout: 30_000 });
  await goToLineEnd(page, lineOf(baseline, '"MAX_NIGHTS"', /"value": 14$/));
  await page.keyboard.press('Backspace');
  await page.keyboard.press('Backspace');
  await page.keyboard.type('7');
  await expect(page.getByTestId('bundle-status')).toContainText('Valid · edited');
  await page.getByRole('button', { name: 'Publish…' }).click();
  const publish = page.getByRole('group', { name: 'Publish a version' });
  await expect(publish).toContainText('Publishing stores this draft as version v2');
  await expect(
    publish.getByRole('textbox', { name: /Publish: the draft against the active version/ }).first(),
  ).toBeAttached();
  await publish.getByLabel('Note').pressSequentially('At most 7 nights');
  await publish.getByRole('button', { name: 'Publish v2' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Published v2.' })).toBeVisible();

  // Activate v2, seeing the diff against v1.
  await page.getByRole('button', { name: 'Activate…' }).click();
  const activate = page.getByRole('group', { name: 'Activate a version' });
  await expect(activate.getByRole('combobox')).toHaveValue('v2');
  await expect(activate).toContainText('New threads will run this version instead of v1');
  await activate.getByRole('button', { name: 'Activate' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'v2 is now the active version' })).toBeVisible();

  // A thread pinned to v1 keeps v1's 14 nights; a thread on the active version (v2) refuses 10.
  await newThread(page, id, 'v1');
  await say(page, TEN_NIGHTS);
  await expect(turn(page, 1).getByTitle('Decision: request_confirmation')).toBeVisible();
  await newThread(page, id, '');
  await say(page, TEN_NIGHTS);
  await expect(turn(page, 1).getByTitle('Decision: block_with_explanation')).toBeVisible();

  // The agent's own suite: it passes against v1 and fails against v2.
  await page.getByRole('tab', { name: 'Tests' }).click();
  const tests = page.getByRole('region', { name: `Tests of ${id}` });
  await expect(tests.getByRole('list', { name: 'Test cases' }).getByRole('listitem')).toHaveCount(1);
  await tests.getByRole('radio', { name: 'A version' }).check();
  await tests.getByLabel('Version to run against').selectOption('v1');
  await tests.getByRole('button', { name: 'Run 1 test' }).click();
  await expect(tests.getByRole('status')).toContainText('1 passed, 0 failed');
  await tests.getByLabel('Version to run against').selectOption('v2');
  await tests.getByRole('button', { name: 'Run 1 test' }).click();
  await expect(tests.getByRole('status')).toContainText('0 passed, 1 failed');
});

test.describe('agents loaded from folders', () => {
  let service: ServiceProcess | undefined;
  let work = '';

  test.beforeAll(async () => {
    work = mkdtempSync(path.join(tmpdir(), 'threadline-agent-folders-'));
    const agents = path.join(work, 'agents');
    // A versioned agent (two versions) and a broken single project.
    for (const v of ['v1-first', 'v2-second'])
      cpSync(STARTER, path.join(agents, 'rooms', v), { recursive: true });
    writeFileSync(
      path.join(agents, 'rooms', 'agent.json'),
      JSON.stringify({
        name: 'Rooms from a folder',
        description: 'Loaded with --agents',
        active_version: 'v2-second',
        versions: [
          { id: 'v2-second', tag: 'v2', description: 'Second' },
          { id: 'v1-first', tag: 'v1', description: 'First' },
        ],
      }),
    );
    // A global rule in a file one letter off its name: ignored, and said so.
    writeFileSync(path.join(agents, 'rooms', 'v2-second', 'rule.aui.json'), '[]');
    mkdirSync(path.join(agents, 'broken'));
    writeFileSync(path.join(agents, 'broken', 'agent.aui.json'), '{"name": "Broken"}');
    writeFileSync(
      path.join(agents, 'broken', 'parameters.aui.json'),
      '[{"code": "x", "type": "no-such-type"}]',
    );
    service = await startServiceProcess({
      data: path.join(work, 'data'),
      dist: builtSpaDir(),
      args: ['--agents', agents],
    });
  });
  test.afterAll(async () => {
    await service?.stop();
    rmSync(work, { recursive: true, force: true });
  });

  test('shows a folder agent with its versions, reports the broken project it skipped and the misnamed file it ignored', async ({
    page,
  }) => {
    await page.goto(`${service!.url}/`);
    await typeKey(page);
    const agent = page.getByLabel('Agent', { exact: true });
    await expect(agent.locator('option', { hasText: 'Rooms from a folder (rooms)' })).toHaveCount(1);
    await expect(agent.locator('option', { hasText: '(broken)' })).toHaveCount(0);
    await agent.selectOption('rooms');
    const version = page.getByLabel('Version');
    await expect(version.locator('option')).toHaveText([
      'Active version (v2-second)',
      'v2 · v2-second · Second',
      'v1 · v1-first · First',
    ]);
    await page.getByRole('button', { name: 'New agent…' }).click();
    const problems = page.getByTestId('folder-problems');
    await expect(problems).toContainText('broken/parameters.aui.json');
    await expect(problems).toContainText('parameters.0.type');
    await expect(problems).not.toContainText('rule.aui.json');
    const ignored = page.getByTestId('folder-ignored-files');
    await expect(ignored).toContainText('Files ignored in loaded agent projects');
    await expect(ignored).toContainText('rooms/v2-second/rule.aui.json');
  });
});
