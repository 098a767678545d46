import { expect, test } from '@playwright/test';

test('the served app opens in Chromium without console errors', async ({ page }) => {
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(message.text());
  });
  page.on('pageerror', (error) => problems.push(error.message));

  const response = await page.goto('/');
  expect(response?.status()).toBe(200);
  expect(response?.headers()['content-security-policy']).toContain("script-src 'self'");
  await expect(page).toHaveTitle(/Threadline/);
  await expect(page.locator('#root')).not.toBeEmpty();
  await page.waitForLoadState('networkidle');
  expect(problems).toEqual([]);
});

test('a client route is answered by the app, and the API is served beside it', async ({ page, request }) => {
  const response = await page.goto('/some/client/route');
  expect(response?.status()).toBe(200);
  await expect(page).toHaveTitle(/Threadline/);
  const health = await request.get('/healthz');
  expect(await health.json()).toMatchObject({ status: 'ok', store: { kind: 'sqlite', reachable: true } });
});
