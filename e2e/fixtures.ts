/**
 * Shared helpers for browser tests. `test` fails any test that logs a console error or throws a
 * page error; `connect` fills the connection form for the reference service; `startThread`
 * opens a new thread with an agent and waits for its welcome.
 */
import { expect, test as base, type Locator, type Page } from '@playwright/test';

export const DEV_KEY = 'dev-key';

/**
 * Failed responses the app asks for on purpose: "Test connection" reads the traces of a task that
 * cannot exist, and its 404 is the proof that the key was accepted.
 */
const EXPECTED_FAILURES = [
  { status: 404, path: /\/v1\/messaging\/tasks\/0{8}-0{4}-0{4}-0{4}-0{12}\/trace-info$/ },
];

export const test = base.extend<{
  consoleProblems: string[];
  /** More failed responses a test expects (e.g. a service without the reference helpers). */
  expectedFailure: { matches: (status: number, path: string) => boolean };
  /** Console errors a test provokes on purpose (e.g. requests it makes fail with page.route). */
  expectedConsole: RegExp | null;
}>({
  expectedFailure: [{ matches: () => false }, { option: true }],
  expectedConsole: [null, { option: true }],
  consoleProblems: [
    async ({ page, expectedFailure, expectedConsole }, use) => {
      const problems: string[] = [];
      const isExpected = (status: number, url: string) => {
        const path = new URL(url).pathname;
        return (
          EXPECTED_FAILURES.some((e) => e.status === status && e.path.test(path)) ||
          expectedFailure.matches(status, path)
        );
      };
      page.on('console', (m) => {
        if (m.type() !== 'error') return;
        if (expectedConsole?.test(m.text())) return;
        // "Failed to load resource: … 404" for a response this test expects.
        const status = /status of (\d{3})/.exec(m.text())?.[1];
        if (status && m.location().url && isExpected(Number(status), m.location().url)) return;
        problems.push(`console: ${m.text()}`);
      });
      // Names the request behind a "Failed to load resource" console error.
      page.on('response', (r) => {
        if (r.status() >= 400 && !isExpected(r.status(), r.url()))
          problems.push(`response: ${r.status()} ${r.request().method()} ${new URL(r.url()).pathname}`);
      });
      page.on('pageerror', (e) => problems.push(`page: ${e.message}`));
      await use(problems);
      expect(problems, 'console errors or page errors').toEqual([]);
    },
    { auto: true },
  ],
});

export { expect };

/** Fills the API key (and optionally the agent) in whichever connection form is on screen. */
export async function connect(page: Page, opts: { agentId?: string; key?: string; remember?: boolean } = {}) {
  // The key prompt above the chat and a connection form may both be on screen: either will do.
  // The key is typed as a person types it; the prompt takes it on Enter.
  const field = page.getByLabel('API key', { exact: true }).filter({ visible: true }).first();
  await field.pressSequentially(opts.key ?? DEV_KEY);
  if ((await field.getAttribute('id')) === 'key-prompt') await field.press('Enter');
  if (opts.remember) await page.getByLabel('Remember the key on this device').check();
  if (opts.agentId) {
    // The reference service lists its agents once the key is in: the field becomes a picker.
    const agent = page.getByLabel('Agent', { exact: true });
    await expect(agent).toHaveJSProperty('tagName', 'SELECT');
    await agent.selectOption(opts.agentId);
  }
}

/** From the welcome screen: connect and start a thread; resolves with the new task id. */
export async function startThread(page: Page, agentId = 'card-disputes', remember = false): Promise<string> {
  await page.goto('/');
  await connect(page, { agentId, remember });
  await page.getByRole('button', { name: 'Start a thread' }).click();
  await expect(page).toHaveURL(/[?&]task=/);
  const task = new URL(page.url()).searchParams.get('task');
  if (!task) throw new Error('no task in the URL');
  return task;
}

/** Sends a message with the composer and waits until it is no longer pending. */
export async function sendMessage(page: Page, text: string) {
  const box = page.getByRole('textbox', { name: 'Message' });
  await box.pressSequentially(text);
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(page.getByText('The agent is replying…')).toHaveCount(0);
}

/** Opens every closed group of a trace graph (with the keyboard: a group may lie off screen). */
export async function openAllGroups(page: Page, graph: Locator) {
  for (;;) {
    const closed = graph.locator('.react-flow__node:has([data-kind="group"][data-open="false"])');
    if ((await closed.count()) === 0) return;
    await closed.first().focus();
    await page.keyboard.press('Enter');
  }
}

/** Selects a node of a trace graph (focus and Enter: it may lie off screen). */
export async function selectGraphNode(page: Page, node: Locator) {
  await node.locator('xpath=ancestor-or-self::*[contains(@class, "react-flow__node")][1]').focus();
  await page.keyboard.press('Enter');
}
