/**
 * Attacks a web page could make on the local service in the user's real browser: a page on
 * another origin calling the API with the public development key, and a DNS-rebinding page (a
 * foreign domain that resolves to this machine). Both must get nothing. Console errors are
 * expected here (the browser reports the refused requests), so this spec uses Playwright's own
 * `test` rather than the fixture that fails on them.
 */
import { chromium, expect, test } from '@playwright/test';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromiumLaunchOptions } from '../tools/lib/chromium';
import { DEV_KEY } from './fixtures';
import { e2ePorts } from './ports';

const servicePort = e2ePorts().service;
const service = `http://127.0.0.1:${servicePort}`;

/** What the attacking page tries, in the page: each step's status, or the browser's refusal. */
async function attack(page: import('@playwright/test').Page, base: string) {
  return page.evaluate(
    async ({ base, key }) => {
      const outcome: Record<string, string> = {};
      const headers = { 'x-service-api-key': key, 'content-type': 'application/json' };
      const step = async (name: string, run: () => Promise<Response>) => {
        try {
          const response = await run();
          outcome[name] = String(response.status);
          return response.ok ? ((await response.json()) as Record<string, unknown>) : undefined;
        } catch (error) {
          outcome[name] = `refused (${(error as Error).name})`;
          return undefined;
        }
      };
      const task = await step('create a task', () =>
        fetch(`${base}/v1/messaging/tasks`, {
          method: 'POST',
          headers,
          body: JSON.stringify({ agent_id: 'card-disputes', user_id: 'victim' }),
        }),
      );
      const taskId = String(task?.id ?? 'unknown-task');
      await step('send a message', () =>
        fetch(`${base}/v1/messaging/messages?include_trace=true`, {
          method: 'POST',
          headers,
          body: JSON.stringify({ type: 'message', task_id: taskId, text: 'I want to dispute a charge' }),
        }),
      );
      await step('read traces', () =>
        fetch(`${base}/v1/messaging/tasks/${taskId}/trace-info`, { headers: { 'x-service-api-key': key } }),
      );
      await step('list agents', () =>
        fetch(`${base}/reference/v1/agents`, { headers: { 'x-service-api-key': key } }),
      );
      return outcome;
    },
    { base, key: DEV_KEY },
  );
}

const refusedEverywhere = {
  'create a task': 'refused (TypeError)',
  'send a message': 'refused (TypeError)',
  'read traces': 'refused (TypeError)',
  'list agents': 'refused (TypeError)',
};

let elsewhere: Server;
let elsewhereUrl: string;

test.beforeAll(async () => {
  elsewhere = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end('<!doctype html><link rel="icon" href="data:,"><title>Some other site</title><p>hello</p>');
  });
  await new Promise<void>((resolve) => elsewhere.listen(0, '127.0.0.1', resolve));
  elsewhereUrl = `http://127.0.0.1:${(elsewhere.address() as AddressInfo).port}`;
});
test.afterAll(() => new Promise<void>((resolve) => elsewhere.close(() => resolve())));

test('a page on another origin cannot create a task, send, read traces or list agents', async ({ page }) => {
  await page.goto(elsewhereUrl);
  await expect(page).toHaveTitle('Some other site');
  expect(await attack(page, service)).toEqual(refusedEverywhere);
});

test("the service's own page still works, and another local origin of it counts as foreign", async ({
  page,
}) => {
  await page.goto(`${service}/`);
  const own = await attack(page, service);
  expect(own).toEqual({
    'create a task': '200',
    'send a message': '200',
    'read traces': '200',
    'list agents': '200',
  });
  // localhost and 127.0.0.1 are two origins: the page served as localhost calling 127.0.0.1.
  await page.goto(`http://localhost:${servicePort}/`);
  expect(await attack(page, service)).toEqual(refusedEverywhere);
});

test('a DNS-rebinding page (a foreign name resolved to this machine) gets a 403, not the app or the API', async () => {
  const browser = await chromium.launch({
    ...chromiumLaunchOptions,
    args: [...chromiumLaunchOptions.args, '--host-resolver-rules=MAP rebound.test 127.0.0.1'],
  });
  try {
    // The name resolves to this machine, so it must bypass the proxy that guards against leaks.
    const context = await browser.newContext({
      proxy: {
        server: `http://127.0.0.1:${e2ePorts().guard}`,
        bypass: '127.0.0.1,localhost,[::1],rebound.test',
      },
    });
    const page = await context.newPage();
    const rebound = `http://rebound.test:${servicePort}`;
    const response = await page.goto(`${rebound}/`);
    expect(response?.status()).toBe(403);
    await expect(page.locator('body')).toContainText('Host not allowed: rebound.test');
    // Same-origin from the rebound page's point of view: still refused by the Host check.
    expect(await attack(page, rebound)).toEqual({
      'create a task': '403',
      'send a message': '403',
      'read traces': '403',
      'list agents': '403',
    });
  } finally {
    await browser.close();
  }
});
