/**
 * Sharing: a trace link opened in a fresh browser (no key) asks for a key and shows the same turn
 * and node; a snapshot link opens read-only from a static copy of the app with no service behind
 * it; masked values are nowhere in the snapshot URL, decoded or not; export → import round trip,
 * a thread and its branch included; the one-file HTML snapshot opens from disk.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize } from 'node:path';
import { pathToFileURL } from 'node:url';
import { inflateSync, strFromU8 } from 'fflate';
import type { APIRequestContext, Browser, Page } from '@playwright/test';
import { DEV_KEY, expect, sendMessage, startThread, test } from './fixtures';
import { builtSpaDir } from './ports';

const BLOCKED_DISPUTE = 'I want to dispute a charge of $120 at Coffee Corner from 10 days ago';
const RECENT_DISPUTE = 'I want to dispute a charge of $120 at Coffee Corner from 3 days ago';
const distDir = builtSpaDir();

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.svg': 'image/svg+xml',
  '.json': 'application/json',
  '.woff2': 'font/woff2',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
};

/** The built app and nothing else: no API answers (any /v1 or /reference path is a 503). */
async function staticApp(): Promise<{ url: string; server: Server; apiHits: string[] }> {
  const apiHits: string[] = [];
  const server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    if (path.startsWith('/v1') || path.startsWith('/reference') || path === '/healthz') {
      apiHits.push(path);
      res.writeHead(503).end();
      return;
    }
    const file = normalize(join(distDir, path === '/' ? 'index.html' : path));
    let body: Buffer;
    try {
      if (!file.startsWith(normalize(distDir))) throw new Error('outside');
      body = readFileSync(file);
    } catch {
      body = readFileSync(join(distDir, 'index.html'));
      res.writeHead(200, { 'content-type': TYPES['.html']! }).end(body);
      return;
    }
    res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, server, apiHits };
}

/** A thread with a blocked turn whose blocked rule is selected; returns its ids. */
async function blockedThread(page: Page): Promise<{ task: string; turn: string; node: string }> {
  const task = await startThread(page, 'card-disputes');
  await sendMessage(page, BLOCKED_DISPUTE);
  const graph = page.getByRole('group', { name: 'Trace graph of turn 1' });
  await graph.locator('[data-kind="rule"][data-tone="blocked"]').first().click();
  await expect(page).toHaveURL(/[?&]node=/);
  const url = new URL(page.url());
  const turn = await page.getByRole('article', { name: 'Turn 1' }).getAttribute('data-turn-id');
  return { task, turn: turn ?? '', node: url.searchParams.get('node') ?? '' };
}

async function traceValues(request: APIRequestContext, task: string): Promise<string[]> {
  const r = await request.get(`/v1/messaging/tasks/${task}/trace-info`, {
    headers: { 'x-service-api-key': DEV_KEY },
  });
  const traces = (await r.json()) as Array<{
    entities: Record<string, unknown>;
    tools_invoked: Array<{ parameters: Record<string, unknown> }>;
  }>;
  const values = new Set<string>();
  const walk = (v: unknown) => {
    if (typeof v === 'string' || typeof v === 'number') values.add(String(v));
    else if (v && typeof v === 'object') Object.values(v).forEach(walk);
  };
  for (const t of traces) {
    walk(t.entities);
    for (const inv of t.tools_invoked) walk(inv.parameters);
  }
  return [...values];
}

function decodeFragment(url: string): unknown {
  const payload = new URLSearchParams(new URL(url).hash.slice(1)).get('snapshot') ?? '';
  const b64 = payload.replace(/-/g, '+').replace(/_/g, '/');
  return JSON.parse(strFromU8(inflateSync(Buffer.from(b64, 'base64'))));
}

async function openShare(page: Page) {
  await page.getByRole('button', { name: 'Share…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Share this thread' });
  await expect(dialog).toBeVisible();
  return dialog;
}

async function freshPage(browser: Browser, baseURL: string) {
  const context = await browser.newContext({ baseURL });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(e.message));
  return { context, page, problems };
}

test('a trace link opened in a fresh browser asks for a key, then shows the same turn and node', async ({
  page,
  browser,
  baseURL,
}) => {
  const ids = await blockedThread(page);
  const dialog = await openShare(page);
  const link = await dialog.getByRole('textbox', { name: 'Trace link' }).inputValue();
  const url = new URL(link);
  expect(url.origin).toBe(new URL(baseURL!).origin);
  expect([...url.searchParams.keys()].sort()).toEqual(['node', 'task', 'turn']);
  expect(url.searchParams.get('task')).toBe(ids.task);
  expect(url.searchParams.get('turn')).toBe(ids.turn);
  expect(url.searchParams.get('node')).toBe(ids.node);
  expect(link).not.toContain(DEV_KEY);

  const fresh = await freshPage(browser, baseURL!);
  await fresh.page.goto(link);
  const gate = fresh.page.getByRole('dialog', { name: 'Open a shared thread' });
  await expect(gate).toBeVisible();
  await expect(gate).toContainText(ids.task);
  await gate.getByLabel('API key', { exact: true }).fill(DEV_KEY);
  await gate.getByRole('button', { name: 'Open the thread' }).click();
  await expect(gate).toBeHidden();

  const turn = fresh.page.getByRole('article', { name: 'Turn 1' });
  await expect(turn.getByText(BLOCKED_DISPUTE)).toBeVisible();
  await expect(turn.getByRole('button', { name: 'Show trace of turn 1' })).toHaveAttribute(
    'aria-pressed',
    'true',
  );
  const graph = fresh.page.getByRole('group', { name: 'Trace graph of turn 1' });
  await expect(graph.locator('.react-flow__node.selected')).toHaveCount(1);
  await expect(graph.locator(`.react-flow__node.selected[data-id="${ids.node}"]`)).toHaveCount(1);
  await expect(fresh.page.getByRole('region', { name: /^Details of / })).toBeVisible();
  expect(new URL(fresh.page.url()).searchParams.get('node')).toBe(ids.node);
  expect(fresh.problems).toEqual([]);
  await fresh.context.close();
});

test('a snapshot link opens read-only with no service, and masked values are nowhere in it', async ({
  page,
  browser,
  request,
}) => {
  const ids = await blockedThread(page);
  const values = await traceValues(request, ids.task);
  expect(values.length).toBeGreaterThan(0);

  const dialog = await openShare(page);
  await expect(dialog.getByLabel('Snapshot contents')).toContainText('1 turn with messages, 1 trace');
  await expect(dialog.getByRole('group', { name: /Mask values/ })).toBeVisible();
  await dialog.getByLabel('Mask all values').check();
  await dialog.getByRole('button', { name: 'Create snapshot link' }).click();
  const link = await dialog.getByRole('textbox', { name: 'Snapshot link' }).inputValue();
  expect(new URL(link).search).toBe('');
  expect(new URL(link).hash).toMatch(/^#snapshot=[A-Za-z0-9_-]+$/);

  // Masked values appear neither in the URL nor in what it decodes to.
  const decoded = decodeFragment(link) as {
    masked: string[];
    threads: Array<{ turns: Array<{ user_text: string }> }>;
  };
  const strings: string[] = [];
  const walk = (v: unknown, key?: string) => {
    if (
      key &&
      [
        'id',
        'task_id',
        'interaction_id',
        'rule_id',
        'created_at',
        'focus',
        'masked',
        'agent_id',
        'code',
      ].includes(key)
    )
      return;
    if (typeof v === 'string' || typeof v === 'number') strings.push(String(v));
    else if (Array.isArray(v)) v.forEach((x) => walk(x));
    else if (v && typeof v === 'object') Object.entries(v).forEach(([k, x]) => walk(x, k));
  };
  walk(decoded);
  for (const v of values) {
    if (v.length >= 3) {
      expect(link, `"${v}" in the snapshot URL`).not.toContain(encodeURIComponent(v));
      expect(
        strings.filter((s) => s.includes(v)),
        `"${v}" in the decoded snapshot`,
      ).toEqual([]);
    } else {
      // Short values (such as "10") are masked where they stand alone, not inside other words.
      expect(strings, `"${v}" as a value in the decoded snapshot`).not.toContain(v);
    }
  }
  expect(decoded.masked.length).toBeGreaterThan(0);
  expect(decoded.threads[0]!.turns[0]!.user_text).toContain('‹');

  // Open it from a copy of the app with no service behind it.
  const app = await staticApp();
  try {
    const viewer = await freshPage(browser, app.url);
    const requests: string[] = [];
    viewer.page.on('request', (r) => requests.push(new URL(r.url()).pathname));
    const snapshotUrl = new URL(link);
    await viewer.page.goto(`${app.url}/${snapshotUrl.hash}`);
    await expect(viewer.page.getByText('Snapshot, read-only')).toBeVisible();
    const turn = viewer.page.getByRole('article', { name: 'Turn 1' });
    await expect(turn).toContainText('I want to dispute a charge of');
    await expect(turn).not.toContainText('Coffee Corner');
    await expect(turn.getByRole('button', { name: 'Show trace of turn 1' })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
    const graph = viewer.page.getByRole('group', { name: 'Trace graph of turn 1' });
    await expect(graph.locator(`.react-flow__node.selected[data-id="${ids.node}"]`)).toHaveCount(1);
    await expect(viewer.page.getByRole('region', { name: /^Details of / })).toBeVisible();
    await expect(viewer.page.getByRole('textbox', { name: 'Message' })).toBeDisabled();
    await expect(viewer.page.getByRole('button', { name: 'Send' })).toBeDisabled();
    await expect(viewer.page.getByRole('button', { name: 'Rerun from here (turn 1)' })).toBeDisabled();
    expect(app.apiHits).toEqual([]);
    expect(requests.filter((p) => p.startsWith('/v1') || p.startsWith('/reference'))).toEqual([]);
    expect(viewer.problems).toEqual([]);
    await viewer.context.close();
  } finally {
    app.server.close();
  }
});

test('export → import round trip shows the same thread read-only (file picker and drop); the transcript exports as Markdown', async ({
  page,
}) => {
  await blockedThread(page);
  const title = await page.getByRole('region', { name: 'Chat' }).getByRole('heading').first().innerText();
  const dialog = await openShare(page);

  const [json] = await Promise.all([
    page.waitForEvent('download'),
    dialog.getByRole('button', { name: 'Export JSON' }).click(),
  ]);
  expect(json.suggestedFilename()).toMatch(/^threadline-.+\.json$/);
  const exported = readFileSync(await json.path(), 'utf8');
  const doc = JSON.parse(exported) as { format: string; version: number; kind: string; threads: unknown[] };
  expect([doc.format, doc.version, doc.kind, doc.threads.length]).toEqual(['threadline', 1, 'export', 1]);
  await expect(dialog.getByRole('status').filter({ hasText: 'Exported 1 thread (1 turn).' })).toBeVisible();

  const [md] = await Promise.all([
    page.waitForEvent('download'),
    dialog.getByRole('button', { name: 'Export transcript (Markdown)' }).click(),
  ]);
  const markdown = readFileSync(await md.path(), 'utf8');
  expect(markdown).toContain('## Turn 1');
  expect(markdown).toContain(`> ${BLOCKED_DISPUTE}`);
  expect(markdown).toContain('decision `block_with_explanation`');
  await dialog.getByRole('button', { name: 'Close' }).click();

  // Import with the file picker.
  await page
    .getByLabel('Import a Threadline file')
    .setInputFiles({ name: 'thread.json', mimeType: 'application/json', buffer: Buffer.from(exported) });
  await expect(page.getByText('Exported file, read-only')).toBeVisible();
  await expect(
    page.getByRole('region', { name: 'Chat' }).getByRole('heading', { name: title }),
  ).toBeVisible();
  await expect(page.getByRole('article', { name: 'Turn 1' }).getByText(BLOCKED_DISPUTE)).toBeVisible();
  await expect(
    page
      .getByRole('group', { name: 'Trace graph of turn 1' })
      .locator('[data-kind="rule"][data-tone="blocked"]')
      .first(),
  ).toBeVisible();
  await expect(page.getByRole('textbox', { name: 'Message' })).toBeDisabled();
  await page.getByRole('button', { name: 'Close snapshot' }).click();
  await expect(page.getByText('Exported file, read-only')).toBeHidden();

  // Import by dropping the file on the window.
  await page.evaluate((text) => {
    const dt = new DataTransfer();
    dt.items.add(new File([text], 'thread.json', { type: 'application/json' }));
    document.body.dispatchEvent(new DragEvent('dragenter', { dataTransfer: dt, bubbles: true }));
    document.body.dispatchEvent(
      new DragEvent('dragover', { dataTransfer: dt, bubbles: true, cancelable: true }),
    );
    document.body.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
  }, exported);
  await expect(page.getByText('Exported file, read-only')).toBeVisible();
  await expect(page.getByRole('article', { name: 'Turn 1' }).getByText(BLOCKED_DISPUTE)).toBeVisible();
  await page.getByRole('button', { name: 'Close snapshot' }).click();

  // Something that is not an export is refused in words.
  await page.getByLabel('Import a Threadline file').setInputFiles({
    name: 'bundle.json',
    mimeType: 'application/json',
    buffer: Buffer.from('{"schema_version":1}'),
  });
  await expect(page.getByRole('alert').filter({ hasText: 'Import failed.' })).toContainText(
    'not a Threadline snapshot or export',
  );
});

test('an export of a thread and its branch opens elsewhere with its branch tree and compares them, with no service', async ({
  page,
  browser,
  baseURL,
}) => {
  const original = await startThread(page, 'card-disputes');
  await sendMessage(page, BLOCKED_DISPUTE);
  const turn = page.getByRole('log', { name: 'Conversation' }).getByRole('article', { name: 'Turn 1' });
  await expect(turn.getByTitle('Decision: block_with_explanation')).toBeVisible();

  // A branch: the same turn rerun with a charge inside the dispute window.
  await turn.getByRole('button', { name: 'Rerun from here (turn 1)' }).click();
  const rerun = page.getByRole('dialog', { name: 'Rerun turn 1 as a new branch' });
  const message = rerun.getByLabel('Message to replay');
  await message.click();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.press('Backspace');
  await message.pressSequentially(RECENT_DISPUTE);
  await rerun.getByRole('button', { name: 'Rerun' }).click();
  await expect(rerun).toHaveCount(0);
  await expect(page).not.toHaveURL(new RegExp(`[?&]task=${original}(&|$)`));
  const branch = new URL(page.url()).searchParams.get('task')!;

  const dialog = await openShare(page);
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    dialog.getByRole('button', { name: 'Export JSON' }).click(),
  ]);
  const exported = readFileSync(await download.path(), 'utf8');
  expect((JSON.parse(exported) as { threads: unknown[] }).threads).toHaveLength(2);

  // Another browser, no key: import the file.
  const fresh = await freshPage(browser, baseURL!);
  await fresh.page.goto('/');
  const requests: string[] = [];
  fresh.page.on('request', (r) => requests.push(new URL(r.url()).pathname));
  await fresh.page
    .getByLabel('Import a Threadline file')
    .setInputFiles({ name: 'family.json', mimeType: 'application/json', buffer: Buffer.from(exported) });
  await expect(fresh.page.getByText('Exported file, read-only')).toBeVisible();
  const tree = fresh.page.getByRole('tree', { name: 'Branch tree' });
  await expect(tree.getByRole('treeitem')).toHaveCount(2);
  const branchItem = tree.locator(`[role="treeitem"][data-task-id="${branch}"]`);
  await expect(branchItem).toHaveAttribute('aria-level', '2');
  await expect(branchItem).toContainText('Forked at turn 1');
  await expect(branchItem).toContainText('text edited');
  await expect(tree.locator(`[role="treeitem"][data-task-id="${original}"]`)).toContainText('blocked');

  await branchItem.getByRole('button', { name: 'Compare with parent' }).click();
  const comparison = fresh.page.getByRole('region', { name: 'Comparison' });
  const row = comparison.getByRole('article').first();
  await expect(row.getByLabel('Decision changed')).toContainText('blocked');
  await expect(row).toContainText('message edited');
  await expect(comparison.getByRole('group', { name: /^Trace graph A/ })).toBeVisible();
  await expect(comparison.getByRole('group', { name: /^Trace graph B/ })).toBeVisible();

  // Back to a thread: the branch opens from the comparison.
  await comparison.getByRole('button', { name: /^B / }).click();
  await expect(fresh.page.getByRole('article', { name: 'Turn 1' }).getByText(RECENT_DISPUTE)).toBeVisible();
  expect(requests.filter((p) => p.startsWith('/v1') || p.startsWith('/reference'))).toEqual([]);
  expect(fresh.problems).toEqual([]);
  await fresh.context.close();
});

test('the one-file HTML snapshot opens from disk (file://) with nothing fetched: transcript and trace graph', async ({
  page,
  browser,
}) => {
  const ids = await blockedThread(page);
  const dialog = await openShare(page);
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    dialog.getByRole('button', { name: 'Download as one HTML file' }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^threadline-.+\.html$/);
  // Saved under its own name, as a browser saves it: the .html extension is what makes a file://
  // page open as HTML rather than as text.
  const path = join(mkdtempSync(join(tmpdir(), 'threadline-one-file-')), download.suggestedFilename());
  await download.saveAs(path);
  const html = readFileSync(path, 'utf8');
  // One file: no script, style, font or image comes from anywhere else, and the page may not connect.
  expect(html).not.toMatch(/<script[^>]*\ssrc=|<link\b/);
  expect(html).toMatch(
    /http-equiv="Content-Security-Policy" content="default-src 'none'; [^"]*connect-src 'none'/,
  );
  expect(html).not.toContain(DEV_KEY);

  const context = await browser.newContext();
  const viewer = await context.newPage();
  const problems: string[] = [];
  viewer.on('pageerror', (e) => problems.push(e.message));
  viewer.on('console', (m) => {
    if (m.type() === 'error') problems.push(m.text());
  });
  const requests: string[] = [];
  viewer.on('request', (r) => requests.push(r.url()));
  const url = pathToFileURL(path).href;
  await viewer.goto(url);
  await expect(viewer.getByText('Snapshot, read-only')).toBeVisible();
  const turn = viewer.getByRole('article', { name: 'Turn 1' });
  await expect(turn.getByText(BLOCKED_DISPUTE)).toBeVisible();
  const graph = viewer.getByRole('group', { name: 'Trace graph of turn 1' });
  await expect(graph.locator('[data-kind="rule"][data-tone="blocked"]').first()).toBeVisible();
  await expect(graph.locator(`.react-flow__node.selected[data-id="${ids.node}"]`)).toHaveCount(1);
  // The Thread tab comes from the same file.
  await viewer.getByRole('tab', { name: 'Thread' }).click();
  await expect(viewer.getByRole('tab', { name: 'Thread' })).toHaveAttribute('aria-selected', 'true');
  await expect(viewer.getByRole('textbox', { name: 'Message' })).toBeDisabled();
  expect(requests.filter((r) => !r.startsWith('data:') && !r.startsWith('blob:'))).toEqual([url]);
  expect(problems).toEqual([]);
  await context.close();
});
