/**
 * Script and markup in agent output render as inert text. The payloads reach the traces through
 * the real engine: a local bundle whose agent name, rule messages, rule descriptions and an
 * integration's canned response carry them, sent as `agent_settings_bundle` over the API, plus a
 * user message whose quoted text becomes an entity value, a rule reason and a tool parameter, and
 * a first message typed in the composer that becomes the thread title.
 *
 * Evidence of inertness: a `window.__pwned` canary every payload tries to set, a mutation
 * observer recording any injected element (even briefly), no page errors or console errors (the
 * shared fixture fails the test on those), and the payload text visible as text.
 */
import type { APIRequestContext, Page } from '@playwright/test';
import { DEV_KEY, expect, openAllGroups, selectGraphNode, sendMessage, startThread, test } from './fixtures';

const payload = (tag: string) =>
  `<img id=xss-${tag} src=x onerror=window.__pwned='${tag}'><script id=xss-${tag}-s>window.__pwned='${tag}-s'</script><b id=xss-${tag}-b>bold</b>`;

/** A small agent whose every piece of text that can reach a trace or a reply carries a payload. */
const bundle = {
  schema_version: 1,
  general_settings: { name: `Agent ${payload('name')}`, welcome_message: `Welcome ${payload('welcome')}` },
  parameters: [
    {
      code: 'order-note',
      description: 'the note for the order',
      type: 'string',
      usage: 'input',
      question: `Which note? ${payload('question')}`,
    },
    { code: 'order-ref', description: 'order reference', type: 'string', usage: 'output' },
  ],
  entities: [
    {
      name: 'order',
      type: 'normal',
      description: 'an order',
      identifier: 'order-note',
      parameters: ['order-note', 'order-ref'],
    },
  ],
  integrations: [
    {
      code: 'place-order-api',
      type: 'API',
      settings: {
        endpoint: { url: 'http://127.0.0.1:9/orders', method: 'POST' },
        test_curl_response: { ref: `R-${payload('tool')}` },
        response_mapping: { 'order-ref': 'ref' },
      },
    },
  ],
  agent_tools: [
    {
      code: 'PLACE_ORDER',
      name: 'Place an order',
      when_to_use: 'The customer wants to place an order',
      goal: 'Place an order',
      status: true,
      main_tool: true,
      requires_confirmation: false,
      config: { params: { required: ['order-note'], optional: [] } },
      integrations: [{ code: 'place-order-api' }],
      rules: {
        pre: {
          constraint: [
            {
              code: 'NOTE_POLICY',
              description: `Policy ${payload('desc')}`,
              when: {
                method: 'param_value',
                params: 'order-note',
                operation: 'contains',
                value: 'forbidden',
              },
              then: { action: 'BLOCK', message: `Blocked ${payload('block')} {{order-note}}` },
            },
          ],
        },
        summary: {
          success: [
            {
              code: 'ORDER_DONE',
              when: null,
              then: {
                action: 'TEXT',
                message: `Placed ${payload('reply')} {{order-ref}} for {{order-note}} [a link](javascript:window.__pwned='md')`,
              },
            },
          ],
        },
      },
    },
  ],
};

const TITLE_TEXT = `${payload('title')} hello`;
const ORDER = `I want to place an order with the note "${payload('entity')}"`;
const FORBIDDEN = `I want to place an order with the note "forbidden ${payload('entity2')}"`;

async function sendWithBundle(request: APIRequestContext, taskId: string, text: string) {
  const response = await request.post('/v1/messaging/messages?include_trace=true', {
    headers: { 'x-service-api-key': DEV_KEY },
    data: { type: 'message', task_id: taskId, text, agent_settings_bundle: bundle },
  });
  expect(response.status()).toBe(200);
  return (await response.json()) as { text: string; trace_info: { decision: string } };
}

async function expectNothingInjected(page: Page) {
  const state = await page.evaluate(() => ({
    pwned: (window as { __pwned?: unknown }).__pwned,
    seen: (window as { __xssSeen?: string[] }).__xssSeen ?? ['observer missing'],
    now: [...document.querySelectorAll('[id^="xss-"]')].map((e) => e.outerHTML),
    scripts: [...document.scripts].filter((s) => s.text.includes('__pwned')).length,
    jsLinks: [...document.querySelectorAll('a[href]')].filter((a) =>
      /^\s*javascript:/i.test(a.getAttribute('href') ?? ''),
    ).length,
  }));
  expect(state).toEqual({ pwned: undefined, seen: [], now: [], scripts: 0, jsLinks: 0 });
}

test.beforeEach(async ({ page }) => {
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as { __xssSeen?: string[] }).__xssSeen = seen;
    new MutationObserver((records) => {
      for (const record of records) {
        for (const node of record.addedNodes) {
          if (!(node instanceof Element)) continue;
          for (const el of [node, ...node.querySelectorAll('*')]) {
            if (
              el.id.startsWith('xss-') ||
              (el.tagName === 'SCRIPT' && (el.textContent ?? '').includes('__pwned'))
            )
              seen.push(el.outerHTML.slice(0, 200));
          }
        }
      }
    }).observe(document, { childList: true, subtree: true });
  });
});

test('replies, entity values, rule reasons, tool parameters and thread titles render as inert text', async ({
  page,
  request,
}) => {
  const taskId = await startThread(page, 'card-disputes', true);
  await sendMessage(page, TITLE_TEXT); // the first message names the thread

  const order = await sendWithBundle(request, taskId, ORDER);
  expect(order.trace_info.decision).toBe('proceed');
  expect(order.text).toContain("onerror=window.__pwned='reply'");
  const blocked = await sendWithBundle(request, taskId, FORBIDDEN);
  expect(blocked.trace_info.decision).toBe('block_with_explanation');
  await sendWithBundle(request, taskId, 'hello there');

  // The turns sent over the API come in from the server's traces.
  await page.reload();
  const conversation = page.getByRole('log', { name: 'Conversation' });
  await expect(conversation.getByRole('article', { name: 'Turn 4' })).toBeVisible();

  // Thread title and the first user message, as text.
  await expect(page.getByText(`<img id=xss-title src=x`).first()).toBeVisible();
  // Replies (rendered as Markdown, which shows markup as text or leaves raw tags out, never as
  // elements): the success summary with the canned tool response, the block message, the name.
  const turn2 = conversation.getByRole('article', { name: 'Turn 2' });
  await expect(turn2).toContainText("Placed <img id=xss-reply src=x onerror=window.__pwned='reply'>");
  await expect(turn2).toContainText("R-<img id=xss-tool src=x onerror=window.__pwned='tool'>");
  await expect(turn2.getByText('a link')).toBeVisible();
  await expect(conversation.getByRole('article', { name: 'Turn 3' })).toContainText(
    "Blocked <img id=xss-block src=x onerror=window.__pwned='block'>",
  );
  await expect(conversation.getByRole('article', { name: 'Turn 4' })).toContainText(
    "I'm Agent <img id=xss-name src=x",
  );
  // The user's own messages are shown verbatim.
  await expect(turn2.getByText(ORDER, { exact: true })).toBeVisible();
  await expectNothingInjected(page);

  // The graph of turn 2: entity value, rule reason, tool parameters in the node details.
  await turn2.getByRole('button', { name: 'Show trace of turn 2' }).click();
  const graph = page.getByRole('group', { name: 'Trace graph of turn 2' });
  await expect(graph).toBeVisible();
  const details = page.getByRole('region', { name: /^Details of / });

  await openAllGroups(page, graph);
  await selectGraphNode(page, graph.locator('[data-kind="rule"]').filter({ hasText: 'NOTE_POLICY' }));
  await expect(details.locator('dt:text-is("reason") + dd')).toContainText('<img id=xss-entity src=x');

  await selectGraphNode(page, graph.locator('[data-kind="tool"]').first());
  await expect(details).toContainText(
    `"order-note": "<img id=xss-entity src=x onerror=window.__pwned='entity'>`,
  );

  const entity = graph.locator('[data-kind="entity"]').filter({ hasText: 'order-ref' });
  await selectGraphNode(page, entity.first());
  await expect(details).toContainText('R-<img id=xss-tool src=x');

  // The blocked turn's graph: the blocking rule's reason carries the entity payload too.
  await conversation.getByRole('button', { name: 'Show trace of turn 3' }).click();
  const graph3 = page.getByRole('group', { name: 'Trace graph of turn 3' });
  await graph3.locator('[data-kind="rule"][data-tone="blocked"]').first().click();
  await expect(details.locator('dt:text-is("reason") + dd')).toContainText('forbidden <img id=xss-entity2');

  await expectNothingInjected(page);
});
