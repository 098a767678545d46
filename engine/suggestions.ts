/** Deterministic follow-up suggestions: likely answers to the question asked, yes/no when confirming, other tools. */
import type { Parameter } from '../src/contract/bundle';
import { toolLabel } from './reply';
import { codeWords } from './text';
import type { CompiledBundle } from './types';

const MAX = 4;
const CONFIRM_SUGGESTIONS = ['Yes, go ahead', 'No, cancel'];

export function otherToolNames(compiled: CompiledBundle, exclude: string | null): string[] {
  return compiled.tools
    .filter((t) => t.enabled && t.main && t.code !== exclude)
    .map((t) => toolLabel(t.tool));
}

/** Whether a date parameter is about the future (a new or travel date) rather than the past. */
function looksAhead(p: Parameter): boolean {
  return /\b(new|next|future|travel|depart|departure|return|fly|arrival|appointment)\b/i.test(
    `${codeWords(p.code)} ${p.description ?? ''}`,
  );
}

/** Likely answers to a question about these parameters. */
function answersFor(compiled: CompiledBundle, codes: string[]): string[] {
  const out: string[] = [];
  for (const code of codes) {
    const p = compiled.params.get(code);
    if (!p) continue;
    if (p.type === 'enum') out.push(...(p.values ?? []).map(String));
    else if (p.type === 'boolean') out.push('Yes', 'No');
    else if (p.type === 'date')
      out.push(...(looksAhead(p) ? ['Tomorrow', 'Next Friday'] : ['Today', 'Yesterday']));
    else if (Array.isArray(p.examples) && p.examples.length > 0) out.push(String(p.examples[0]));
  }
  return out;
}

export function suggestionsFor(
  compiled: CompiledBundle,
  decision: string,
  tool: string | null,
  asked: string[],
): string[] {
  let list: string[];
  if (decision === 'request_confirmation') list = CONFIRM_SUGGESTIONS;
  else if (decision === 'request_information') {
    const answers = answersFor(compiled, asked);
    list = answers.length ? answers : otherToolNames(compiled, tool);
  } else list = otherToolNames(compiled, tool);
  return [...new Set(list)].slice(0, MAX);
}
