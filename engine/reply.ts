/** Reply text: `{{param-code}}` filling and the deterministic templates used when the bundle gives no message. */
import type { Tool } from '../src/contract/bundle';
import { fillPlaceholders } from '../src/lib/bundle/placeholders';
import { codeWords } from './text';
import type { CompiledBundle, Values } from './types';
import { formatNumber, isFilled } from './values';

/** A value as it reads in a sentence. */
function formatValue(v: unknown): string {
  if (v === undefined || v === null) return '';
  if (typeof v === 'number') return formatNumber(v);
  if (typeof v === 'boolean') return v ? 'yes' : 'no';
  if (typeof v === 'string') return v;
  if (Array.isArray(v)) return v.map((item) => formatValue(item)).join('; ');
  if (typeof v === 'object') {
    return Object.values(v as Record<string, unknown>)
      .filter((x) => x === null || typeof x !== 'object')
      .map((x) => formatValue(x))
      .join(' · ');
  }
  return String(v);
}

/** Fills `{{param-code}}` with current values; an unknown value becomes `unknown` (or `missing`). */
export function fillTemplate(
  template: string,
  values: Values,
  _compiled: CompiledBundle,
  missing = 'unknown',
): string {
  return fillPlaceholders(template, (code) => (isFilled(values[code]) ? formatValue(values[code]) : missing));
}

export function toolLabel(tool: Tool): string {
  return typeof tool.name === 'string' && tool.name.trim() ? tool.name.trim() : codeWords(tool.code);
}

function paramLabel(_compiled: CompiledBundle, code: string): string {
  return codeWords(code);
}

/** What to ask for one missing requirement (a code, or an OR-group of codes). */
export function questionFor(compiled: CompiledBundle, requirement: string | string[]): string {
  const codes = Array.isArray(requirement) ? requirement : [requirement];
  if (codes.length === 1) {
    const p = compiled.params.get(codes[0]!);
    if (p && typeof p.question === 'string' && p.question.trim()) return p.question.trim();
    return `What is the ${paramLabel(compiled, codes[0]!)}?`;
  }
  return `Could you give me your ${codes.map((c) => paramLabel(compiled, c)).join(' or ')}?`;
}

/** Restates the values collected for a tool and asks to go ahead. */
export function confirmationText(
  compiled: CompiledBundle,
  tool: Tool,
  codes: string[],
  values: Values,
): string {
  const parts = codes
    .filter((c) => isFilled(values[c]))
    .map((c) => `${paramLabel(compiled, c)}: ${formatValue(values[c])}`);
  const what = toolLabel(tool).toLowerCase();
  return parts.length
    ? `Please confirm: ${what} with ${parts.join(', ')}. Shall I go ahead?`
    : `Please confirm: ${what}. Shall I go ahead?`;
}

export function doneText(tool: Tool, success: boolean): string {
  return success
    ? `Done: ${toolLabel(tool).toLowerCase()}.`
    : `Sorry, ${toolLabel(tool).toLowerCase()} did not go through. Please try again later.`;
}

/**
 * What a tool says when its lookup found nothing and no `summary.missing_info` rule speaks: what
 * was looked for (the request's values), and to check it. Not an apology for a failure.
 */
export function notFoundText(compiled: CompiledBundle, tool: Tool, request: Values): string {
  const parts = Object.keys(request)
    .filter((k) => isFilled(request[k]))
    .map((k) => `${paramLabel(compiled, k)} ${formatValue(request[k])}`);
  return parts.length
    ? `Sorry, I found nothing for ${parts.join(', ')}. Please check ${parts.length > 1 ? 'them' : 'it'} and tell me again.`
    : `Sorry, ${toolLabel(tool).toLowerCase()} found nothing.`;
}

export function deniedText(tool: Tool): string {
  return `OK, I won't ${toolLabel(tool).toLowerCase()}. Is there anything else I can help with?`;
}

export function generalText(compiled: CompiledBundle): string {
  const names = compiled.tools.filter((t) => t.enabled && t.main).map((t) => toolLabel(t.tool).toLowerCase());
  const can = names.length
    ? ` I can help you ${names.length > 1 ? `${names.slice(0, -1).join(', ')} or ${names.at(-1)}` : names[0]}.`
    : '';
  return `I'm ${compiled.name}.${can} What would you like to do?`;
}
