/**
 * Finding the conversations that matter: from a rule's details in the graph to every turn where
 * it blocked, narrowed by words and a value, two results saved as test cases, a result opened in
 * its thread, and the search kept as a link that opens in a fresh browser.
 */
import { connect, expect, selectGraphNode, sendMessage, startThread, test } from './fixtures';

test.use({ viewport: { width: 1440, height: 900 } });

test('finds every turn a rule blocked from its details, narrows by words and a value, opens one; the search is a link', async ({
  page,
  browser,
}) => {
  // Words no other test sends, so the results are this test's turns.
  const marker = `kumquat${Date.now().toString(36)}`;
  const first = await startThread(page, 'card-disputes');
  await sendMessage(page, `I want to dispute a charge of $120 at Coffee Corner from 10 days ago, ${marker}`);
  await startThread(page, 'card-disputes');
  await sendMessage(page, `I want to dispute a charge of $300 at Coffee Corner from 12 days ago, ${marker}`);

  // From the blocking rule's details: every turn where it blocked, for this agent.
  const graph = page.getByRole('group', { name: 'Trace graph of turn 1' });
  await selectGraphNode(page, graph.locator('[data-kind="rule"]').filter({ hasText: 'DISPUTE_WINDOW' }));
  await page
    .getByRole('region', { name: 'Details of DISPUTE_WINDOW' })
    .getByRole('button', { name: 'Find turns like this' })
    .click();
  const filters = page.getByRole('list', { name: 'Filters' });
  await expect(filters.getByRole('listitem')).toHaveText([
    /agent card-disputes/,
    /rule DISPUTE_WINDOW blocked/,
  ]);
  const results = page.getByRole('list', { name: 'Matching turns' });
  await expect(results.getByRole('listitem').first()).toBeVisible();

  // Narrowed by words, typed as a person types them.
  const box = page.getByRole('textbox', { name: 'Search turns' });
  await box.pressSequentially(marker);
  await box.press('Enter');
  await expect(results.getByRole('listitem')).toHaveCount(2);
  await expect(results.getByRole('listitem').first()).toContainText('$300');
  await expect(results.getByRole('listitem').first()).toContainText('by DISPUTE_WINDOW');
  await expect(page.getByTestId('facet-total')).toContainText('2 matching turns');

  // And by a value.
  await box.pressSequentially('param:transaction-amount>200');
  await box.press('Enter');
  await expect(results.getByRole('listitem')).toHaveCount(1);
  await expect(results.getByRole('listitem')).toContainText('$300');
  const link = page.url();
  await page.getByRole('button', { name: 'Remove filter transaction-amount > 200' }).click();
  await expect(results.getByRole('listitem')).toHaveCount(2);

  // The two results saved as test cases, one per turn.
  await results.getByRole('checkbox', { name: /\$120/ }).check();
  await results.getByRole('checkbox', { name: /\$300/ }).check();
  await expect(page.getByText('2 turns selected')).toBeVisible();
  await page.getByRole('button', { name: 'Save as test cases' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Saved' })).toHaveText(
    'Saved 2 test cases to card-disputes’s tests (the Tests tab).',
  );
  await expect(results.getByRole('checkbox', { checked: true })).toHaveCount(0);

  // A result opens its thread at that turn, on its trace.
  await results.getByRole('button', { name: /\$120/ }).click();
  await expect(page).toHaveURL(new RegExp(`task=${first}`));
  await expect(
    page.getByRole('group', { name: 'Trace graph of turn 1' }).locator('[data-kind="decision"]'),
  ).toContainText('blocked');

  // The saved cases are in the agent's tests, each replaying its conversation.
  await page.getByRole('tab', { name: 'Tests' }).click();
  const cases = page
    .getByRole('region', { name: 'Tests of card-disputes' })
    .getByRole('list', { name: 'Test cases' });
  await expect(cases.getByRole('listitem').filter({ hasText: 'turn 1' })).toHaveCount(2);

  // The narrowed search as a link, in a fresh browser: the key, then the same single result.
  const fresh = await browser.newContext({ baseURL: new URL(link).origin });
  const other = await fresh.newPage();
  await other.goto(link);
  await connect(other);
  await expect(other.getByRole('list', { name: 'Filters' }).getByRole('listitem')).toHaveCount(4);
  await expect(other.getByRole('list', { name: 'Matching turns' }).getByRole('listitem')).toHaveCount(1);
  await fresh.close();
});

test("a rule's page, from the graph's details and from the Bundle tab, counts as the search does", async ({
  page,
}) => {
  await startThread(page, 'card-disputes');
  await sendMessage(page, 'I want to dispute a charge of $120 at Coffee Corner from 10 days ago');

  // From the blocking rule's details in the graph.
  const graph = page.getByRole('group', { name: 'Trace graph of turn 1' });
  await selectGraphNode(page, graph.locator('[data-kind="rule"]').filter({ hasText: 'DISPUTE_WINDOW' }));
  await page
    .getByRole('region', { name: 'Details of DISPUTE_WINDOW' })
    .getByRole('button', { name: 'Rule’s page' })
    .click();
  await expect(page).toHaveURL(/view=rule/);
  await expect(page.getByRole('heading', { name: 'Rule DISPUTE_WINDOW of card-disputes' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Definition' })).toContainText('"code": "DISPUTE_WINDOW"');
  await expect(page.getByRole('img', { name: /^Results per day from / })).toBeVisible();
  const blocked = page.getByRole('list', { name: 'Results' }).getByRole('button', { name: /^blocked/ });
  const blockedCount = Number((await blocked.textContent())!.replace(/\D/g, ''));
  expect(blockedCount).toBeGreaterThan(0);
  const latest = page.getByRole('list', { name: 'Latest turns where DISPUTE_WINDOW was blocked' });
  await expect(latest.getByRole('listitem')).toHaveCount(Math.min(blockedCount, 5));

  // The count is the search's: the same number of matching turns.
  await blocked.click();
  await expect(page.getByRole('list', { name: 'Filters' }).getByRole('listitem')).toHaveText([
    /agent card-disputes/,
    /rule DISPUTE_WINDOW blocked/,
  ]);
  await expect(page.getByTestId('facet-total')).toHaveText(
    new RegExp(`^${blockedCount} matching turns?, since`),
  );

  // A latest turn opens its thread at that turn.
  await page.goBack();
  await latest.getByRole('button').first().click();
  await expect(page).toHaveURL(/[?&]task=.*[&?]turn=|[?&]turn=.*[&?]task=/);
  await expect(page.getByRole('group', { name: /^Trace graph of turn/ })).toBeVisible();

  // From the Bundle tab: every rule of the bundle has its page.
  await page.getByRole('tab', { name: 'Bundle' }).click();
  await page.getByText('Rules: how often each was evaluated').click();
  await page
    .getByRole('list', { name: 'Rule pages' })
    .getByRole('button', { name: 'DISPUTE_WINDOW', exact: true })
    .click();
  await expect(page.getByRole('heading', { name: 'Rule DISPUTE_WINDOW of card-disputes' })).toBeVisible();
  await expect(page.getByTestId('rule-total')).toHaveText(/^Evaluated in [\d,]+ turns?, since/);
  await expect(
    page.getByRole('list', { name: 'Results' }).getByRole('button', { name: /^blocked/ }),
  ).toHaveText(`blocked${blockedCount}`);
});

test('a turn found by words of its reply alone shows them, from its reply', async ({ page }) => {
  const task = await startThread(page, 'card-disputes');
  await sendMessage(page, 'show me my recent transactions');
  await page.getByRole('button', { name: 'Search turns' }).click();
  const box = page.getByRole('textbox', { name: 'Search turns' });
  await box.pressSequentially(`task:${task}`);
  await box.press('Enter');
  await box.pressSequentially('coffee');
  await box.press('Enter');
  const results = page.getByRole('list', { name: 'Matching turns' });
  await expect(results.getByRole('listitem')).toHaveCount(1);
  await expect(results.getByRole('listitem')).toContainText('show me my recent transactions');
  await expect(results.getByRole('listitem')).toContainText(/In the reply: .*Coffee Corner/);

  // Words the message holds: the message shows them, and the reply is not repeated.
  await page.getByRole('button', { name: /^Remove filter words/ }).click();
  await box.pressSequentially('transactions');
  await box.press('Enter');
  await expect(results.getByRole('listitem')).toHaveCount(1);
  await expect(results.getByRole('listitem')).not.toContainText('In the reply');
});
