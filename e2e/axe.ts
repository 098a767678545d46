/**
 * axe-core in the page under test: evaluated from node_modules (never a CDN), run on the whole
 * document; violations of impact serious or critical (and content outside landmarks) returned as
 * readable lines.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from '@playwright/test';
import type { AxeResults, Result } from 'axe-core';

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** What fails a screen: every serious or critical violation, and content outside landmarks. */
const GATED_IMPACTS = new Set(['serious', 'critical']);
const GATED_RULES = new Set(['region', 'landmark-one-main']);
const gated = (v: Result) => GATED_IMPACTS.has(v.impact ?? '') || GATED_RULES.has(v.id);

/** One line per failing node: rule, impact, target and axe's own summary (with the contrast ratio). */
export function describeViolations(screen: string, violations: Result[]): string[] {
  return violations.flatMap((v) =>
    v.nodes.map(
      (n) =>
        `[${screen}] ${v.id} (${v.impact ?? 'unknown'}): ${n.target.join(' ')}\n    ${(
          n.failureSummary ?? v.help
        )
          .replace(/\s*\n\s*/g, ' ')
          .slice(0, 400)}\n    html: ${n.html.slice(0, 200)}`,
    ),
  );
}

/** Runs axe on the page as it is now; returns the gated violations, described. */
export async function axeViolations(page: Page, screen: string): Promise<string[]> {
  // Evaluated by the browser's debugging protocol, so the app's Content-Security-Policy (which
  // rightly refuses inline scripts) stays as it is.
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axeSource);
  const results = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (ctx: Document, opts: object) => Promise<AxeResults> } })
      .axe;
    return axe.run(document, { resultTypes: ['violations'] });
  });
  return describeViolations(screen, results.violations.filter(gated));
}
