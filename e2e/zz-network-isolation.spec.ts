/**
 * Runs last (files run in name order, one worker): during the whole browser suite, no request
 * left the machine. The network guard (network-guard.ts) logged every attempt; the log must be
 * empty. First, prove the guard is wired in: an off-machine URL reaches it, not the internet.
 */
import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { PROBE_BODY, PROBE_HOST, leakLogPath } from './network-guard';

const port = Number(process.env.E2E_PORT ?? 8790);

test('off-machine requests from the browser go to the network guard', async ({ page }) => {
  const response = await page.goto(`http://${PROBE_HOST}/`);
  expect(await response?.text()).toBe(PROBE_BODY);
});

test('no request left localhost during the browser suite', () => {
  const leaks = readFileSync(leakLogPath(port), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => (JSON.parse(line) as { request: string }).request);
  expect(leaks).toEqual([]);
});
