/**
 * Tool choice (the intent). A pending tool is continued unless the message clearly starts
 * another; otherwise enabled main tools are scored by word overlap with their name (double
 * weight), when_to_use and goal, plus a bonus for tools whose trigger holds; the best wins and
 * ties go to the earlier tool. No candidate → the fallback intent `general_question`.
 */
import { evaluateCondition, type ConditionContext } from './conditions';
import { contentStems } from './text';
import type { CompiledBundle, CompiledTool, Pending, Values } from './types';
import type { Confirmation } from './understand/words';

const FALLBACK_INTENT = 'general_question';
const TRIGGER_BONUS = 3;
/** Distinct matched words another tool needs to take over from a pending one. */
const TAKEOVER_WORDS = 2;

export type ToolChoice =
  | {
      kind: 'continue';
      tool: CompiledTool;
      intent: 'confirm' | 'deny' | 'provide_information';
      considered: string[];
    }
  | { kind: 'new'; tool: CompiledTool; intent: string; considered: string[]; via: 'words' | 'trigger' }
  | { kind: 'fallback'; intent: string; considered: string[] };

interface Scored {
  tool: CompiledTool;
  score: number;
  words: number;
  trigger: boolean;
}

export function intentOf(code: string): string {
  return code
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/[^A-Za-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .toLowerCase();
}

/**
 * The tools ranked for `message`. `cond` gives what the tools' triggers are evaluated against; it
 * is asked only if an enabled tool has a trigger, and at most once.
 */
export function scoreTools(
  compiled: CompiledBundle,
  message: string,
  cond: () => ConditionContext,
): Scored[] {
  let context: ConditionContext | undefined;
  const byTool = new Map<number, Scored>();
  const get = (tool: CompiledTool) => {
    let s = byTool.get(tool.index);
    if (!s) byTool.set(tool.index, (s = { tool, score: 0, words: 0, trigger: false }));
    return s;
  };
  for (const st of contentStems(message)) {
    const row = compiled.toolIndex.get(st);
    if (!row) continue;
    // Rarer words say more: weight by how few tools use them.
    const rarity = 1 / Math.sqrt(row.size);
    for (const [index, weight] of row) {
      const s = get(compiled.tools[index]!);
      s.score += weight * rarity;
      s.words += 1;
    }
  }
  for (const tool of compiled.tools) {
    const when = tool.tool.config?.triggers?.when;
    if (!tool.enabled || when == null) continue;
    if (evaluateCondition(when, (context ??= cond())).holds) {
      const s = get(tool);
      s.score += TRIGGER_BONUS;
      s.trigger = true;
    }
  }
  return [...byTool.values()]
    .filter((s) => s.score > 0 && s.tool.enabled && (s.tool.main || s.trigger))
    .sort((a, b) => b.score - a.score || a.tool.index - b.tool.index);
}

/**
 * The tool for the turn. `extracted` gives the values read from the message with the pending tool
 * preferred, and `cond` what triggers are evaluated against (see `scoreTools`): each is asked only
 * when the choice depends on it, so a turn reads its message for the choice only if it must.
 */
export function chooseTool(
  compiled: CompiledBundle,
  message: string,
  pending: Pending | null,
  extracted: () => Values,
  confirmation: Confirmation | null,
  cond: () => ConditionContext,
): ToolChoice {
  const ranked = scoreTools(compiled, message, cond);
  const considered = ranked.map((s) => s.tool.code);
  const pendingTool = pending ? compiled.toolByCode.get(pending.tool) : undefined;
  if (pending && pendingTool && pendingTool.enabled) {
    if (pending.awaiting === 'confirmation' && confirmation) {
      return { kind: 'continue', tool: pendingTool, intent: confirmation, considered: [pendingTool.code] };
    }
    const own = new Set([...pendingTool.required.flat(), ...pendingTool.optional, ...pending.asked]);
    const suppliedOwn = () => Object.keys(extracted()).some((code) => own.has(code));
    const best = ranked[0];
    const ownScore = ranked.find((s) => s.tool.code === pendingTool.code)?.score ?? 0;
    const takeover =
      best !== undefined &&
      best.tool.code !== pendingTool.code &&
      (best.words >= TAKEOVER_WORDS || best.trigger) &&
      best.score > ownScore;
    const waitsForAnswer = pending.awaiting === 'information' || pending.awaiting === 'confirmation';
    if (!takeover && (waitsForAnswer || suppliedOwn())) {
      return {
        kind: 'continue',
        tool: pendingTool,
        intent: 'provide_information',
        considered: [pendingTool.code],
      };
    }
  }
  const best = ranked[0];
  if (!best) return { kind: 'fallback', intent: FALLBACK_INTENT, considered };
  return {
    kind: 'new',
    tool: best.tool,
    intent: intentOf(best.tool.code),
    considered,
    via: best.words > 0 ? 'words' : 'trigger',
  };
}
