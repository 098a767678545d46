/**
 * An agent whose id is a name every JavaScript object inherits (`constructor`): the app treats it
 * as any other id. A thread with it, its bundle draft edited and sent, then the page reloaded:
 * the app never falls over, and the draft is still there.
 */
import { baselineText, editDisputeWindow } from './bundle-editing';
import { DEV_KEY, expect, sendMessage, startThread, test } from './fixtures';

const AGENT = 'constructor';

test('an agent named constructor: thread, draft edited and sent, reload keeps the draft', async ({
  page,
}) => {
  // The agent runs the card-disputes bundle under an id of its own (the service keeps a second
  // creation's 409 as "already there", so the spec may run twice against one service).
  const bundle = JSON.parse(await baselineText(page)) as unknown;
  const created = await page.request.post('/reference/v1/agents', {
    headers: { 'x-service-api-key': DEV_KEY },
    data: { id: AGENT, bundle },
  });
  expect([201, 200, 409]).toContain(created.status());

  await startThread(page, AGENT);
  await editDisputeWindow(page, 30);
  await page.getByRole('button', { name: 'Run this thread with this draft' }).click();
  await expect(page.getByTestId('thread-runs-with')).toContainText('(this draft)');
  await sendMessage(page, 'I want to dispute a charge of $120 at Coffee Corner from 10 days ago');
  const conversation = page.getByRole('log', { name: 'Conversation' });
  await expect(
    conversation.getByRole('article', { name: 'Turn 1' }).getByText(/local bundle #/),
  ).toBeVisible();

  await page.reload();
  await expect(page.getByText('Something went wrong')).toHaveCount(0);
  await expect(page.getByTestId('thread-runs-with')).toContainText('(this draft)');
  await page.getByRole('tab', { name: 'Bundle' }).click();
  await expect(page.getByTestId('editor-agent')).toContainText(`${AGENT} draft`);
  await expect(page.getByTestId('bundle-status')).toContainText('edited');
  await expect(page.getByText('Something went wrong')).toHaveCount(0);
});
