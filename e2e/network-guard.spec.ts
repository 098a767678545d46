/**
 * The network guard is wired in and catches what it should. Whether any request left the
 * machine during the run is checked by the global teardown (network-guard.ts), over every spec.
 */
import { expect, test } from '@playwright/test';
import { BLOCKED_BODY, PROBE_BODY, PROBE_HOST, assertNoLeaks, readLeaks, startGuard } from './network-guard';

test('off-machine requests from the browser go to the network guard', async ({ page }) => {
  const response = await page.goto(`http://${PROBE_HOST}/`);
  expect(await response?.text()).toBe(PROBE_BODY);
});

test('the guard refuses an off-machine request, logs it, and the check fails on it', async ({
  browser,
}, testInfo) => {
  // A guard of this test's own, so the run's log (checked at teardown) stays empty.
  const guard = await startGuard(0, testInfo.outputPath('leaks.log'));
  const context = await browser.newContext({
    proxy: { server: `http://127.0.0.1:${guard.port}`, bypass: '127.0.0.1,localhost,[::1]' },
  });
  try {
    const page = await context.newPage();
    expect(readLeaks(guard.log)).toEqual([]);
    expect(() => assertNoLeaks(guard.log)).not.toThrow();

    const response = await page.goto('http://leak.example.test/path?q=1');
    expect(response?.status()).toBe(403);
    expect(await response?.text()).toBe(BLOCKED_BODY);
    await page.evaluate(() =>
      fetch('http://other.example.test/api', { method: 'POST', mode: 'no-cors' }).catch(() => undefined),
    );

    await expect
      .poll(() => readLeaks(guard.log))
      .toEqual(
        expect.arrayContaining([
          'GET http://leak.example.test/path?q=1',
          'POST http://other.example.test/api',
        ]),
      );
    expect(() => assertNoLeaks(guard.log)).toThrow(
      /tried to leave this machine[\s\S]*leak\.example\.test\/path/,
    );
  } finally {
    await context.close();
    await guard.close();
  }
});
