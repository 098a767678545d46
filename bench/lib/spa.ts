/** Steps the SPA benchmarks share: the build they run, starting a thread, finding a bundle line. */
import type { Page } from '@playwright/test';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { argValue } from '../../tools/lib/args';

/** The built SPA: the folder given with `--dist`, else a fresh production build in `work`. */
export function builtSpa(work: string): string {
  const given = argValue('dist');
  if (given) return given;
  const dist = join(work, 'dist');
  execFileSync('npx', ['vite', 'build', '--logLevel', 'warn', '--outDir', dist], { stdio: 'inherit' });
  return dist;
}

/**
 * Opens the SPA at `base`, enters `key` (remembered when asked), picks `agentId` once the reference
 * service lists its agents, and starts a thread; answers its task id.
 */
export async function startThreadIn(
  page: Page,
  base: string,
  key: string,
  { agentId = 'card-disputes', remember = false }: { agentId?: string; remember?: boolean } = {},
): Promise<string> {
  await page.goto(base);
  await page.getByLabel('API key', { exact: true }).fill(key);
  if (remember) await page.getByLabel('Remember the key on this device').check();
  const agent = page.getByLabel('Agent', { exact: true });
  // The reference service lists its agents once the key is in: the field becomes a picker.
  await agent.and(page.locator('select')).waitFor();
  await agent.selectOption(agentId);
  await page.getByRole('button', { name: 'Start a thread' }).click();
  await page.waitForURL(/[?&]task=/);
  return new URL(page.url()).searchParams.get('task')!;
}

/**
 * Puts the bundle editor's cursor at the end of card-disputes' DISPUTE_WINDOW `"value": 8` line
 * (found in the bundle as the service answers it, pretty-printed as the editor shows it).
 */
export async function goToDisputeWindowValue(page: Page, base: string, key: string): Promise<void> {
  const res = await page.request.get(`${base}/reference/v1/agents/card-disputes/bundle`, {
    headers: { 'x-service-api-key': key },
  });
  const text = `${JSON.stringify(((await res.json()) as { bundle: unknown }).bundle, null, 2)}\n`;
  const lines = text.split('\n');
  const from = lines.findIndex((l) => l.includes('"DISPUTE_WINDOW"'));
  const line = lines.findIndex((l, k) => k >= from && /"value": 8$/.test(l)) + 1;
  await page.getByRole('textbox', { name: 'Bundle editor' }).focus();
  await page.keyboard.press('Control+G');
  await page.keyboard.type(String(line));
  await page.keyboard.press('Enter');
  await page.keyboard.press('End');
}
