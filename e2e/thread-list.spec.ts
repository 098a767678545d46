/**
 * The thread list on the reference service: a teammate's thread (made in another browser with
 * the same key) is listed after this browser's own, found by its title, opened; the agent filter;
 * moving between threads with the arrow keys. Threads stored by an earlier version (the whole
 * list under one key) are still listed after the upgrade; a damaged stored thread is skipped and
 * said.
 */
import type { Browser, Page } from '@playwright/test';
import { expect, sendMessage, startThread, test } from './fixtures';

async function teammate(browser: Browser, baseURL: string) {
  const context = await browser.newContext({ baseURL });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(e.message));
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(m.text());
  });
  return { context, page, problems };
}

test('a teammate’s thread is listed after mine, found by title, opened; the agent filter', async ({
  page,
  browser,
  baseURL,
}) => {
  const name = `Refund for Sam ${Date.now().toString(36)}`;
  const other = await teammate(browser, baseURL!);
  await startThread(other.page, 'card-disputes');
  await sendMessage(other.page, 'I want to dispute a charge of $120 at Coffee Corner from 10 days ago');
  const chat = other.page.getByRole('region', { name: 'Chat' });
  await chat.getByRole('button', { name: 'Rename the thread' }).click();
  const field = chat.getByLabel('Thread name');
  await field.press('ControlOrMeta+a');
  await field.pressSequentially(name);
  await field.press('Enter');
  await expect(chat.getByRole('heading', { level: 2 })).toContainText(name);
  expect(other.problems).toEqual([]);
  await other.context.close();

  const mine = await startThread(page, 'flight-changes');
  const threads = page.getByRole('navigation', { name: 'Threads' });
  await expect(threads).toContainText(
    'This browser’s threads first, then every other thread your key may see.',
  );
  // Mine first; the team's below their heading.
  await expect(threads.getByRole('listitem').first()).toContainText('flight-changes');
  await expect(threads.getByRole('heading', { name: 'Shared on this service' })).toBeVisible();

  await threads.getByLabel('Search threads by title').pressSequentially(name.slice(0, 20));
  const theirs = threads.getByRole('button', { name: new RegExp(name) });
  await expect(theirs).toBeVisible();
  await expect(theirs).toContainText('card-disputes · 1 turn');
  await theirs.click();
  await expect(page).not.toHaveURL(new RegExp(`[?&]task=${mine}(&|$)`));
  await expect(
    page.getByRole('log', { name: 'Conversation' }).getByRole('article', { name: 'Turn 1' }),
  ).toContainText('Coffee Corner');

  // The agent filter: only flight-changes threads, theirs gone, mine back once the search is cleared.
  await threads.getByLabel('Filter threads by agent').selectOption('flight-changes');
  await expect(theirs).toHaveCount(0);
  await threads.getByLabel('Search threads by title').clear();
  await expect(threads.getByRole('listitem').first()).toContainText('flight-changes');
  for (const row of await threads.getByRole('listitem').all())
    if (!(await row.getByRole('heading').count())) await expect(row).toContainText('flight-changes');

  // The keyboard: from my thread, ↓ passes the heading to the team's first thread, ↑ comes back.
  await threads.getByLabel('Filter threads by agent').selectOption('');
  const myRow = threads.getByRole('listitem').first().getByRole('button').first();
  await threads.getByLabel('Search threads by title').click();
  await page.keyboard.press('Tab'); // the agent filter
  await page.keyboard.press('Tab');
  await expect(myRow).toBeFocused();
  await page.keyboard.press('ArrowDown');
  const teamRow = threads.getByRole('listitem').nth(2).getByRole('button');
  await expect(teamRow).toBeFocused();
  await page.keyboard.press('ArrowUp');
  await expect(myRow).toBeFocused();
});

type StoreOp = { op: 'put'; key: string; value: unknown } | { op: 'get'; key: string } | { op: 'keys' };

/** One read or write in an IndexedDB object store of the page. */
async function inStore<T>(page: Page, db: string, store: string, op: StoreOp): Promise<T> {
  return page.evaluate(
    async ({ db, store, op }) => {
      const opened = await new Promise<IDBDatabase>((resolve, reject) => {
        const r = indexedDB.open(db);
        r.onsuccess = () => resolve(r.result);
        r.onerror = () => reject(new Error(String(r.error)));
      });
      const s = opened.transaction(store, 'readwrite').objectStore(store);
      const request: IDBRequest =
        op.op === 'put' ? s.put(op.value, op.key) : op.op === 'get' ? s.get(op.key) : s.getAllKeys();
      const result = await new Promise((resolve, reject) => {
        request.onsuccess = () => resolve(request.result);
        request.onerror = () => reject(new Error(String(request.error)));
      });
      opened.close();
      return result as T;
    },
    { db, store, op },
  );
}

test('threads kept by an earlier version are listed after the upgrade; a damaged one is skipped and said', async ({
  page,
}) => {
  const mine = await startThread(page, 'card-disputes');
  const old = (n: number) => ({
    id: `kept-${n}`,
    title: `Kept from before ${n}`,
    agent_id: 'card-disputes',
    created_at: `2025-01-0${n}T00:00:00.000Z`,
  });
  // The list as an earlier version stored it: whole, under one key.
  const legacy = { state: { threads: { 'kept-1': old(1), 'kept-2': old(2) } }, version: 1 };
  await inStore(page, 'keyval-store', 'keyval', { op: 'put', key: 'threadline:threads', value: legacy });
  await page.reload();
  const threads = page.getByRole('navigation', { name: 'Threads' });
  await expect(threads.getByRole('button', { name: /^Kept from before 1/ })).toBeVisible();
  await expect(threads.getByRole('button', { name: /^Kept from before 2/ })).toBeVisible();
  // Now one record per thread, and the old value is gone.
  await expect
    .poll(() => inStore<string[]>(page, 'threadline-threads', 'threads', { op: 'keys' }))
    .toEqual(expect.arrayContaining(['kept-1', 'kept-2', mine]));
  expect(
    await inStore(page, 'keyval-store', 'keyval', { op: 'get', key: 'threadline:threads' }),
  ).toBeUndefined();

  // A damaged record is skipped and said; every other thread is listed.
  await inStore(page, 'threadline-threads', 'threads', { op: 'put', key: 'damaged', value: 'not a thread' });
  await page.reload();
  await expect(threads).toContainText(
    'One thread stored in this browser could not be read and is not listed.',
  );
  await expect(threads.getByRole('button', { name: /^Kept from before 1/ })).toBeVisible();
  await expect(threads.getByRole('listitem')).toHaveCount(3);
});
