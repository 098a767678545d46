/**
 * What the editor's text is worth: parsed or not, and the shared validator's issues. Decides
 * whether a draft may be sent and, when not, says why in words. Pure; memoised on the last text
 * because the editor, the problems list and the send guard all ask about the same text.
 */
import type { BundleIssue } from '../../contract/api';
import { validateBundle } from '../../lib/bundle/validate';
import { jsonSyntaxErrorOffset } from './json-syntax';

export type DraftAnalysis =
  | { kind: 'empty' }
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
  const issues = validateBundle(doc);
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

let last: { text: string; analysis: DraftAnalysis } | null = null;

/** analyzeText, remembering the last answer (the same text is asked about many times in a row). */
export function analyzeDraft(text: string): DraftAnalysis {
  if (last && last.text === text) return last.analysis;
  const analysis = analyzeText(text);
  last = { text, analysis };
  return analysis;
}

/** Why this draft must not be sent, in words; null when it may be. Warnings never block. */
export function sendBlockReason(a: DraftAnalysis): string | null {
  if (a.kind === 'empty')
    return 'The bundle editor is empty. Write or import a bundle, or turn "Use this bundle" off.';
  if (a.kind === 'invalid-json')
    return `The bundle is not valid JSON (${a.message}). Fix it in the bundle editor, or turn "Use this bundle" off.`;
  if (a.errors > 0) {
    return `The bundle has ${a.errors} error${a.errors === 1 ? '' : 's'}, so it is not sent. Fix ${a.errors === 1 ? 'it' : 'them'} in the bundle editor (see Problems), or turn "Use this bundle" off.`;
  }
  return null;
}

/** The editor's text for a bundle: two-space JSON with a final newline (what the baseline shows). */
export function bundleText(bundle: unknown): string {
  return `${JSON.stringify(bundle, null, 2)}\n`;
}
