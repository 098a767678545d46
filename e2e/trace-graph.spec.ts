/**
 * The trace graph's first view answers "why did the agent say that?" at 1024 × 700: the causal
 * path, legible without zooming; the decision names the rule that decided; a missing-information
 * check is not drawn as a block; the rest opens on demand; the view refits on resize; the wheel
 * zooms only a focused graph.
 */
import type { Locator, Page } from '@playwright/test';
import { expect, openAllGroups, selectGraphNode, sendMessage, startThread, test } from './fixtures';

const BLOCKED_DISPUTE = 'I want to dispute a charge of $120 at Coffee Corner from 10 days ago';

test.use({ viewport: { width: 1024, height: 700 } });

/** The font size of `text` as drawn on screen: its computed size × the graph's zoom (the viewport transform). */
async function renderedFontPx(text: Locator): Promise<number> {
  return text.evaluate((el) => {
    const css = parseFloat(getComputedStyle(el).fontSize);
    const viewport = el.closest('.react-flow__viewport');
    const zoom = viewport ? new DOMMatrixReadOnly(getComputedStyle(viewport).transform).a : 1;
    return css * zoom;
  });
}

/** Is the element's box entirely inside the graph's box (on screen, not clipped)? */
async function inside(el: Locator, graph: Locator): Promise<boolean> {
  const [a, b] = await Promise.all([el.boundingBox(), graph.boundingBox()]);
  if (!a || !b) return false;
  return (
    a.x >= b.x - 1 &&
    a.y >= b.y - 1 &&
    a.x + a.width <= b.x + b.width + 1 &&
    a.y + a.height <= b.y + b.height + 1
  );
}

async function blockedDispute(page: Page) {
  await startThread(page, 'card-disputes');
  await sendMessage(page, BLOCKED_DISPUTE);
  const graph = page.getByRole('group', { name: 'Trace graph of turn 1' });
  await expect(graph.locator('[data-kind="decision"]')).toBeVisible();
  return graph;
}

test('at 1024 × 700 the default graph shows the deciding rule legibly, the decision names it, and nothing else is blocked', async ({
  page,
}) => {
  const graph = await blockedDispute(page);
  const rule = graph.locator('[data-kind="rule"]').filter({ hasText: 'DISPUTE_WINDOW' });
  const decision = graph.locator('[data-kind="decision"]');

  // The causal path is on screen: intent, the value the rule read, the rule, the decision.
  await expect(rule).toBeVisible();
  await expect.poll(() => inside(rule, graph)).toBe(true);
  await expect.poll(() => inside(decision, graph)).toBe(true);
  await expect(graph.locator('[data-kind="intent"]')).toContainText('dispute_charge');
  await expect(graph.locator('[data-kind="param"]').filter({ hasText: 'transaction-date' })).toBeVisible();
  await expect(rule).toContainText('on DISPUTE_CHARGE');

  // Legible without zooming: the rule's name and the decision at 11 px or more on screen.
  const ruleName = rule.getByText('DISPUTE_WINDOW', { exact: true });
  expect(await renderedFontPx(ruleName)).toBeGreaterThanOrEqual(11);
  const decisionText = decision.getByText(/blocked by DISPUTE_WINDOW/);
  expect(await renderedFontPx(decisionText)).toBeGreaterThanOrEqual(11);
  await expect(decision).toContainText('blocked by DISPUTE_WINDOW: days_since(transaction-date) = 10 > 8');

  // The chat bubble names the rule too.
  const turn = page.getByRole('log', { name: 'Conversation' }).getByRole('article', { name: 'Turn 1' });
  await expect(turn).toContainText('by DISPUTE_WINDOW: days_since(transaction-date) = 10 > 8');

  // The rest is one click away, in groups: the other rules, values and tools.
  expect(await graph.locator('.react-flow__node').count()).toBeLessThanOrEqual(12);
  await openAllGroups(page, graph);
  const info = graph.locator('[data-kind="rule"]').filter({ hasText: 'DISPUTE_CHARGE.params.required' });
  await expect(info).toHaveAttribute('data-tone', 'info');
  await expect(info).toContainText('needs information');
  await expect(info).not.toContainText('blocked');
  // Only the deciding rule is drawn as blocked, and only its edge into the decision is red.
  await expect(graph.locator('[data-kind="rule"][data-tone="blocked"]')).toHaveCount(1);
  await expect(graph.locator('[data-kind="rule"][data-tone="blocked"]')).toContainText('DISPUTE_WINDOW');
  const redEdges = await graph
    .locator('.react-flow__edge')
    .evaluateAll((edges) =>
      edges
        .filter(
          (e) =>
            e.querySelector('path')?.getAttribute('style')?.includes('rgb(239, 68, 68)') ||
            e.querySelector('path')?.getAttribute('style')?.includes('#ef4444'),
        )
        .map((e) => e.getAttribute('data-id') ?? e.getAttribute('aria-label') ?? ''),
    );
  expect(redEdges.length).toBeGreaterThan(0);
  for (const id of redEdges) {
    expect(id).toContain('->');
    expect(id).not.toContain('params.required');
  }

  // The tool inspector shows no internal flag.
  await selectGraphNode(page, graph.locator('[data-kind="tool"]').filter({ hasText: 'FREEZE_CARD' }));
  const details = page.getByRole('region', { name: /^Details of / });
  await expect(details).toContainText('FREEZE_CARD');
  await expect(details).not.toContainText('dimmed');
});

test('the graph refits when the window is resized, and the wheel zooms it only once it has focus', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  const graph = await blockedDispute(page);
  const decision = graph.locator('[data-kind="decision"]');
  await expect.poll(() => inside(decision, graph)).toBe(true);
  await page.setViewportSize({ width: 1024, height: 700 });
  await expect.poll(() => inside(decision, graph)).toBe(true);
  const rule = graph.locator('[data-kind="rule"]').filter({ hasText: 'DISPUTE_WINDOW' });
  await expect.poll(() => inside(rule, graph)).toBe(true);

  const zoom = () =>
    graph
      .locator('.react-flow__viewport')
      .evaluate((v) => new DOMMatrixReadOnly(getComputedStyle(v).transform).a);
  const before = await zoom();
  const box = (await graph.boundingBox())!;
  await page.mouse.move(box.x + 20, box.y + box.height / 2);
  // Not a fixed wait: the wheel event reaches the graph, then two frames are drawn after it.
  await graph.evaluate((el) => {
    (window as { wheelHandled?: Promise<void> }).wheelHandled = new Promise((resolve) =>
      el.addEventListener(
        'wheel',
        () => requestAnimationFrame(() => requestAnimationFrame(() => resolve())),
        {
          capture: true,
          once: true,
        },
      ),
    );
  });
  await page.mouse.wheel(0, -400);
  await page.evaluate(() => (window as { wheelHandled?: Promise<void> }).wheelHandled);
  expect(await zoom()).toBe(before);
  await graph.focus();
  await page.mouse.wheel(0, -400);
  await expect.poll(zoom).not.toBe(before);
});

test('at 1440 × 900 every group beside the path is one click away, and the decision’s cause does not run into its action', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  const graph = await blockedDispute(page);
  const rule = graph.locator('[data-kind="rule"]').filter({ hasText: 'DISPUTE_WINDOW' });
  await expect.poll(() => inside(rule, graph)).toBe(true);
  expect(await renderedFontPx(rule.getByText('DISPUTE_WINDOW', { exact: true }))).toBeGreaterThanOrEqual(11);

  // Each group is drawn on screen or, when only the path fits legibly, listed beside the graph;
  // a listed group opens with one click and is brought into view.
  const listed = page.getByRole('group', { name: 'Beside the causal path' });
  const groups = graph.locator('[data-kind="group"]');
  expect(await groups.count()).toBeGreaterThan(0);
  await expect(listed).toContainText(`Beside the path (${await groups.count()}):`);
  let opened = false;
  for (const group of await groups.all()) {
    const name = (await group.locator('[title]').first().getAttribute('title')) ?? '';
    if (await inside(group, graph)) continue;
    const button = listed.getByRole('button', { name: `+ ${name}` });
    await expect(button).toBeVisible();
    if (!opened && name === '8 entities') {
      await button.click();
      await expect(listed.getByRole('button', { name: `− ${name}` })).toHaveAttribute('aria-pressed', 'true');
      await expect.poll(() => inside(groups.filter({ hasText: name }), graph)).toBe(true);
      await expect(graph.locator('[data-kind="entity"]').first()).toBeVisible();
      opened = true;
    }
  }

  const decision = graph.locator('[data-kind="decision"]');
  const cause = decision.getByText(/^blocked by DISPUTE_WINDOW/);
  const action = decision.getByText('block_with_explanation', { exact: true });
  const [c, a, box] = await Promise.all([cause.boundingBox(), action.boundingBox(), decision.boundingBox()]);
  expect(c!.y + c!.height).toBeLessThanOrEqual(a!.y + 0.5);
  expect(a!.y + a!.height).toBeLessThanOrEqual(box!.y + box!.height + 0.5);
  // Nothing of the cause is clipped.
  expect(await cause.evaluate((el) => el.scrollHeight <= el.clientHeight)).toBe(true);
});
