/** Every example agent is offered in the agent picker; the returns agent runs its demo in the browser. */
import { DEV_KEY, expect, openAllGroups, sendMessage, startThread, test } from './fixtures';

test('the agent picker offers the three example agents', async ({ page }) => {
  await page.goto('/');
  await page.getByLabel('API key', { exact: true }).filter({ visible: true }).first().fill(DEV_KEY);
  const agent = page.getByLabel('Agent', { exact: true });
  await expect(agent).toHaveJSProperty('tagName', 'SELECT');
  for (const id of ['card-disputes', 'flight-changes', 'shop-returns'])
    await expect(agent.locator(`option[value="${id}"]`)).toHaveCount(1);
});

test('a returns thread: the order is looked up first, then the agent asks for the reason', async ({
  page,
}) => {
  await startThread(page, 'shop-returns');
  await sendMessage(page, 'I would like to return the jacket from order NW-482913');
  const turn = page.getByRole('article', { name: 'Turn 1' });
  await expect(turn.getByText('Why are you returning it')).toBeVisible();
  await expect(turn.getByTitle('Decision: request_information')).toBeVisible();
  const graph = page.getByRole('group', { name: 'Trace graph of turn 1' });
  // The graph opens on the causal path (the missing reason); the other rules wait in groups.
  const rule = graph.locator('.react-flow__node[data-id="rule:LOOK_UP_ORDER_FIRST"]');
  await expect(graph.locator('.react-flow__node[data-id^="rules:"]').first()).toBeVisible();
  await expect(rule).toHaveCount(0);
  await openAllGroups(page, graph);
  await expect(rule).toBeVisible();
});
