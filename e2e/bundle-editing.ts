/** Editing a bundle in the real Monaco editor, as a keyboard user would (shared by browser tests). */
import type { Page } from '@playwright/test';
import { DEV_KEY, expect } from './fixtures';

/** The editor's text for the agent's baseline, as the editor shows it. */
export async function baselineText(page: Page): Promise<string> {
  const res = await page.request.get('/reference/v1/agents/card-disputes/bundle', {
    headers: { 'x-service-api-key': DEV_KEY },
  });
  expect(res.ok()).toBe(true);
  const body = (await res.json()) as { bundle: unknown };
  return `${JSON.stringify(body.bundle, null, 2)}\n`;
}

/** 1-based line of the first line matching `re` at or after the line holding `after`. */
export function lineOf(text: string, after: string, re: RegExp): number {
  const lines = text.split('\n');
  const from = lines.findIndex((l) => l.includes(after));
  expect(from, `a line with ${after}`).toBeGreaterThanOrEqual(0);
  const i = lines.findIndex((l, k) => k >= from && re.test(l));
  expect(i, `a line matching ${re}`).toBeGreaterThanOrEqual(0);
  return i + 1;
}

export async function openBundleEditor(page: Page) {
  await page.getByRole('tab', { name: 'Bundle' }).click();
  // Monaco's chunk is large: on a busy machine its first load may take longer than the default wait.
  await expect(page.locator('[data-editor-ready="true"]')).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId('bundle-status')).toContainText('Valid');
}

/** Puts the cursor at the end of a line with Monaco's "Go to line", as a keyboard user would. */
export async function goToLineEnd(page: Page, line: number) {
  await page.getByRole('textbox', { name: 'Bundle editor' }).focus();
  await page.keyboard.press('Control+G');
  await page.keyboard.type(String(line));
  await page.keyboard.press('Enter');
  await page.keyboard.press('End');
}

/** Opens the Bundle tab and changes DISPUTE_WINDOW's value from 8 to `days`. */
export async function editDisputeWindow(page: Page, days: number) {
  const baseline = await baselineText(page);
  const line = lineOf(baseline, '"DISPUTE_WINDOW"', /"value": 8$/);
  await openBundleEditor(page);
  await goToLineEnd(page, line);
  await page.keyboard.press('Backspace');
  await page.keyboard.type(String(days));
  await expect(page.getByTestId('bundle-status')).toContainText('edited');
  await expect(page.getByTestId('bundle-status')).toContainText('Valid');
}

/** A marker as `window.threadlineTestHooks.editorMarkers()` returns it (monaco/setup.ts). */
interface TestMarker {
  model: string;
  severity: 'error' | 'warning' | 'info' | 'hint';
  startLineNumber: number;
}

/** The lines of the draft's markers of a severity, read through Monaco's model API. */
export async function draftMarkerLines(page: Page, severity: TestMarker['severity']): Promise<number[]> {
  return page.evaluate((wanted) => {
    const hooks = (window as { threadlineTestHooks?: { editorMarkers: () => TestMarker[] } })
      .threadlineTestHooks;
    if (!hooks)
      throw new Error('this build has no test hooks (VITE_TEST_HOOKS=1, see scripts/e2e-server.mjs)');
    return hooks
      .editorMarkers()
      .filter((m) => m.model.endsWith('/draft.json') && m.severity === wanted)
      .map((m) => m.startLineNumber);
  }, severity);
}
