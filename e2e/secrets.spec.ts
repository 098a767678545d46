/**
 * The API key never leaves the places it belongs. With a distinctive key on a service of its own,
 * the test connects (remember off, then on, then off again), chats, copies a trace link, makes a
 * snapshot and exports files, then scans everything the app produced: page URLs, request URLs,
 * the clipboard, links in the page, local and session storage, IndexedDB, cookies, exported files
 * and the snapshot (decoded). With "remember" on, the key may sit in local storage under the
 * connection entry only, and must be gone from it once "remember" is off again.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inflateSync, strFromU8 } from 'fflate';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { startServiceProcess, type ServiceProcess } from '../tools/lib/service-process';
import { builtSpaDir } from './ports';

const KEY = 'tl-secret-K3yZ9qW7vX2mPq8';
const CONNECTION_ENTRY = 'threadline:connection';

let service: ServiceProcess | undefined;
let baseURL = '';
let dataDir = '';

test.beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'threadline-secrets-'));
  service = await startServiceProcess({ data: dataDir, keys: `${KEY}=*`, dist: builtSpaDir() });
  baseURL = service.url;
});

test.afterAll(async () => {
  await service?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

/** Everything the browser keeps, by place, as text. */
async function storage(
  page: Page,
): Promise<{ local: Record<string, string>; session: Record<string, string>; idb: string }> {
  return page.evaluate(async () => {
    const dump = (s: Storage) =>
      Object.fromEntries(
        Array.from({ length: s.length }, (_, i) => s.key(i)!).map((k) => [k, s.getItem(k) ?? '']),
      );
    const dbs = await indexedDB.databases();
    const parts: string[] = [];
    for (const info of dbs) {
      if (!info.name) continue;
      const db = await new Promise<IDBDatabase>((resolve, reject) => {
        const r = indexedDB.open(info.name!);
        r.onsuccess = () => resolve(r.result);
        r.onerror = () => reject(r.error ?? new Error('IndexedDB open failed'));
      });
      for (const store of Array.from(db.objectStoreNames)) {
        const tx = db.transaction(store, 'readonly');
        const [keys, values] = await Promise.all(
          ['getAllKeys', 'getAll'].map(
            (m) =>
              new Promise<unknown>((resolve, reject) => {
                const r = (tx.objectStore(store) as unknown as Record<string, () => IDBRequest>)[m]!();
                r.onsuccess = () => resolve(r.result);
                r.onerror = () => reject(r.error ?? new Error('IndexedDB read failed'));
              }),
          ),
        );
        parts.push(JSON.stringify({ db: info.name, store, keys, values }));
      }
      db.close();
    }
    return { local: dump(localStorage), session: dump(sessionStorage), idb: parts.join('\n') };
  });
}

async function clipboard(page: Page): Promise<string> {
  return page.evaluate(() => navigator.clipboard.readText());
}

function decodeSnapshot(url: string): string {
  const payload = new URLSearchParams(new URL(url).hash.slice(1)).get('snapshot') ?? '';
  return strFromU8(inflateSync(Buffer.from(payload.replace(/-/g, '+').replace(/_/g, '/'), 'base64')));
}

test('the API key appears in no URL, clipboard, link, storage, export or snapshot', async ({ browser }) => {
  const context = await browser.newContext({ baseURL, permissions: ['clipboard-read', 'clipboard-write'] });
  const page = await context.newPage();
  const produced: Array<{ where: string; text: string }> = [];
  const seen = (where: string, text: string) => produced.push({ where, text });
  page.on('framenavigated', (f) => seen('page URL', f.url()));
  page.on('request', (r) => seen('request URL', r.url()));
  page.on('pageerror', (e) => seen('page error', e.message));

  // Connect with "remember" off, start a thread and chat.
  await page.goto('/');
  await page.getByLabel('API key', { exact: true }).fill(KEY);
  await expect(page.getByLabel('Remember the key on this device')).not.toBeChecked();
  const agent = page.getByLabel('Agent', { exact: true });
  await expect(agent).toHaveJSProperty('tagName', 'SELECT');
  await agent.selectOption('card-disputes');
  await page.getByRole('button', { name: 'Start a thread' }).click();
  await expect(page).toHaveURL(/[?&]task=/);
  await page
    .getByRole('textbox', { name: 'Message' })
    .fill('I want to dispute a charge of $120 at Coffee Corner from 10 days ago');
  await page.getByRole('button', { name: 'Send' }).click();
  const graph = page.getByRole('group', { name: 'Trace graph of turn 1' });
  await graph.locator('[data-kind="rule"]').first().click();
  await expect(page).toHaveURL(/[?&]node=/);

  // Trace link from the header, into the clipboard.
  await page.getByRole('button', { name: 'Copy link' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Link copied' })).toBeVisible();
  const traceLink = await clipboard(page);
  expect(traceLink).toContain('task=');
  seen('clipboard (trace link)', traceLink);

  // Snapshot link and files from the share dialog.
  await page.getByRole('button', { name: 'Share…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Share this thread' });
  await dialog.getByRole('button', { name: 'Create snapshot link' }).click();
  const snapshotLink = await dialog.getByRole('textbox', { name: 'Snapshot link' }).inputValue();
  seen('snapshot link', snapshotLink);
  seen('snapshot (decoded)', decodeSnapshot(snapshotLink));
  seen('clipboard (snapshot link)', await clipboard(page));
  for (const [button, name] of [
    ['Export JSON', 'export JSON'],
    ['Export transcript (Markdown)', 'export Markdown'],
  ] as const) {
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      dialog.getByRole('button', { name: button }).click(),
    ]);
    seen(`${name} (name)`, download.suggestedFilename());
    seen(name, readFileSync(await download.path(), 'utf8'));
  }
  for (const href of await page
    .locator('a[href]')
    .evaluateAll((as) => as.map((a) => (a as HTMLAnchorElement).href)))
    seen('link', href);
  await dialog.getByRole('button', { name: 'Close' }).click();

  // The snapshot opens (read-only) and its own download carries no key either.
  await page.goto(snapshotLink);
  await expect(page.getByText('Snapshot, read-only')).toBeVisible();
  const [snapFile] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Download file' }).click(),
  ]);
  seen('snapshot file', readFileSync(await snapFile.path(), 'utf8'));
  await page.getByRole('button', { name: 'Close snapshot' }).click();
  await page.goto(traceLink);
  // Remember was off: the key was in memory only, so the link asks again (inline prompt or dialog).
  await expect(page.getByLabel('API key', { exact: true }).filter({ visible: true }).first()).toHaveValue('');

  let kept = await storage(page);
  for (const [k, v] of Object.entries(kept.local)) seen(`localStorage ${k}`, v);
  for (const [k, v] of Object.entries(kept.session)) seen(`sessionStorage ${k}`, v);
  seen('IndexedDB', kept.idb);
  for (const c of await context.cookies()) seen(`cookie ${c.name}`, c.value);

  // Remember on: the key is kept under the connection entry, and nowhere else.
  await page.getByRole('button', { name: 'Connection', exact: true }).click();
  const settings = page.getByRole('dialog', { name: 'Connection settings' });
  await settings.getByLabel('API key', { exact: true }).fill(KEY);
  await settings.getByLabel('Remember the key on this device').check();
  await settings.getByRole('button', { name: 'Close' }).click();
  await page.reload();
  await expect(page.getByRole('article', { name: 'Turn 1' })).toBeVisible();
  kept = await storage(page);
  expect(kept.local[CONNECTION_ENTRY]).toContain(KEY);
  for (const [k, v] of Object.entries(kept.local))
    if (k !== CONNECTION_ENTRY) seen(`localStorage ${k} (remember on)`, v);
  for (const [k, v] of Object.entries(kept.session)) seen(`sessionStorage ${k} (remember on)`, v);
  seen('IndexedDB (remember on)', kept.idb);

  // Remember off again: the key leaves local storage.
  await page.getByRole('button', { name: 'Connection', exact: true }).click();
  await settings.getByLabel('Remember the key on this device').uncheck();
  await settings.getByRole('button', { name: 'Close' }).click();
  kept = await storage(page);
  expect(kept.local[CONNECTION_ENTRY] ?? '').not.toContain(KEY);
  for (const [k, v] of Object.entries(kept.local)) seen(`localStorage ${k} (remember off)`, v);
  seen('IndexedDB (remember off)', kept.idb);
  seen('page URL (end)', page.url());

  const leaks = produced
    .filter((p) => p.text.includes(KEY) || p.text.includes(encodeURIComponent(KEY)))
    .map((p) => p.where);
  expect(leaks).toEqual([]);
  // The scan looked at real material.
  expect(produced.filter((p) => p.where === 'export JSON')[0]!.text).toContain('"format": "threadline"');
  expect(produced.some((p) => p.where === 'IndexedDB' && p.text.length > 50)).toBe(true);
  expect(produced.filter((p) => p.where === 'request URL').length).toBeGreaterThan(3);
  await context.close();
});
