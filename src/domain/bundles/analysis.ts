/**
 * What the editor's text is worth: parsed or not, and the shared validator's issues. Decides
 * whether a draft may be sent and, when not, says why in words. Pure. The browser runs
 * `analyzeText` in a Web Worker (see analysis-runner.ts), so `checking` stands for a text whose
 * answer has not come back yet.
 */
import type { BundleIssue } from '../../contract/api';
import { validateBundle } from '../../lib/bundle/validate';
import { plural } from '../../lib/format';
import { jsonSyntaxErrorOffset } from './json-syntax';

export type DraftAnalysis =
  | { kind: 'empty' }
  | { kind: 'checking' }
  | { kind: 'invalid-json'; message: string; offset: number | null }
  | {
      kind: 'parsed';
      bundle: Record<string, unknown>;
      doc: unknown;
      issues: BundleIssue[];
      errors: number;
      warnings: number;
    };

/** Where JSON.parse stopped, from its message (V8 says "at position N" or "(line L column C)"). */
export function jsonErrorOffset(text: string, message: string): number | null {
  const pos = /position (\d+)/.exec(message);
  if (pos) return Math.min(Number(pos[1]), text.length);
  const lc = /line (\d+) column (\d+)/.exec(message);
  if (lc) {
    const line = Number(lc[1]);
    const column = Number(lc[2]);
    let offset = 0;
    for (let l = 1; l < line; l += 1) {
      const nl = text.indexOf('\n', offset);
      if (nl === -1) return text.length;
      offset = nl + 1;
    }
    return Math.min(offset + column - 1, text.length);
  }
  if (/end of (JSON|data) input/i.test(message)) return text.length;
  return null;
}

export function analyzeText(text: string): DraftAnalysis {
  if (text.trim() === '') return { kind: 'empty' };
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    return {
      kind: 'invalid-json',
      message,
      offset: jsonSyntaxErrorOffset(text) ?? jsonErrorOffset(text, message),
    };
  }
  let issues: BundleIssue[];
  try {
    issues = validateBundle(doc);
  } catch (e) {
    // E.g. nesting too deep for the validator's recursion: say so rather than show nothing.
    const why = e instanceof Error ? e.message : String(e);
    issues = [
      {
        code: 'bundle_too_complex',
        severity: 'error',
        loc: [],
        message: `The bundle could not be checked (${why}). Make it smaller or less deeply nested.`,
      },
    ];
  }
  const errors = issues.filter((i) => i.severity === 'error').length;
  const isObject = typeof doc === 'object' && doc !== null && !Array.isArray(doc);
  return {
    kind: 'parsed',
    doc,
    bundle: isObject ? (doc as Record<string, unknown>) : {},
    issues,
    errors: isObject ? errors : Math.max(errors, 1),
    warnings: issues.length - errors,
  };
}

/** Why this draft must not be sent, in words; null when it may be. Warnings never block. */
export function sendBlockReason(a: DraftAnalysis): string | null {
  if (a.kind === 'empty')
    return 'The bundle editor is empty, so there is nothing to send. Write or import a bundle in the Bundle tab, or run with the agent’s own bundle (Runs with, beside the message box).';
  if (a.kind === 'checking') return 'The bundle is still being checked. Send again in a moment.';
  if (a.kind === 'invalid-json')
    return `The bundle is not valid JSON (${a.message}). Fix it in the Bundle tab (the Problems list points at it), or run with the agent’s own bundle (Runs with, beside the message box).`;
  if (a.errors > 0) {
    return `The bundle has ${plural(a.errors, 'error')}, so it is not sent. Fix ${a.errors === 1 ? 'it' : 'them'} in the Bundle tab (see Problems), or run with the agent’s own bundle (Runs with, beside the message box).`;
  }
  return null;
}

/** The editor's text for a bundle: two-space JSON with a final newline (what the baseline shows). */
export function bundleText(bundle: unknown): string {
  return `${JSON.stringify(bundle, null, 2)}\n`;
}
