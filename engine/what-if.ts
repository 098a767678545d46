/**
 * What if: a recorded turn decided again with some values changed, the understanding held fixed.
 * The turn's message is not read again: the tool it chose, its intent and the values read from it
 * are taken from its trace; the edits replace (or remove) values, as if the user had said them;
 * then the rules, the decision, the reply and the trace follow exactly as in a turn
 * (`decideTurn`). With no edits the answer is the recorded turn, byte for byte.
 */
import type { Trace } from '../src/contract/trace';
import { WHAT_IF_REQUEST_LIMITS } from '../src/contract/what-if';
import { scoreTools, type ToolChoice } from './choose-tool';
import type { TurnInput, TurnOutput } from './contract';
import { guardedRun } from './guard';
import { decideTurn, startTurn, type TurnStart } from './turn';
import type { Values } from './types';
import { newValues } from './values';

/** A value changed for the what-if: a new value, or `missing` (not known). */
export type ValueEdit = { code: string; value: string | number | boolean } | { code: string; missing: true };

/** What a recorded turn's trace says about its understanding (the fields read here). */
export type RecordedTurn = Pick<Trace, 'interaction_id' | 'intent' | 'decisions'> & {
  input?: { message?: string };
  understanding?: { extracted_params?: Record<string, unknown> };
};

export interface WhatIfInput {
  /** The bundle the turn is decided with (usually the one it ran with). */
  bundle: TurnInput['bundle'];
  /** The engine state before the turn. */
  state: TurnInput['state'];
  /** The task's clock. */
  clock: string;
  userId: string;
  /** The recorded turn's trace: its message, intent, tool choice and values read. */
  recorded: RecordedTurn;
  edits: readonly ValueEdit[];
}

export interface WhatIfOutput extends TurnOutput {
  /** Edited codes whose value at the end of the turn is not the edit (an integration or formula produced it again). */
  overridden: string[];
}

/** An edit list or a recorded turn the engine cannot decide: the message says why. */
export class WhatIfInputError extends Error {
  constructor(
    message: string,
    readonly path: (string | number)[],
  ) {
    super(message);
    this.name = 'WhatIfInputError';
  }
}

/** The same bounds as the service's request (`src/contract/what-if.ts`). */
const WHAT_IF_LIMITS = WHAT_IF_REQUEST_LIMITS;

function checkEdits(start: TurnStart, edits: readonly ValueEdit[]): void {
  if (edits.length > WHAT_IF_LIMITS.edits)
    throw new WhatIfInputError(`At most ${WHAT_IF_LIMITS.edits} edits, got ${edits.length}`, ['edits']);
  const seen = new Set<string>();
  edits.forEach((e, i) => {
    if (!start.compiled.params.has(e.code))
      throw new WhatIfInputError(`The bundle has no parameter ${JSON.stringify(e.code)}`, [
        'edits',
        i,
        'code',
      ]);
    if (seen.has(e.code))
      throw new WhatIfInputError(`${e.code} is edited twice; give one value per parameter`, [
        'edits',
        i,
        'code',
      ]);
    seen.add(e.code);
    if ('value' in e && typeof e.value === 'string' && e.value.length > WHAT_IF_LIMITS.valueChars)
      throw new WhatIfInputError(
        `The value of ${e.code} is longer than ${WHAT_IF_LIMITS.valueChars} characters`,
        ['edits', i, 'value'],
      );
    if ('value' in e && typeof e.value === 'number' && !Number.isFinite(e.value))
      throw new WhatIfInputError(`The value of ${e.code} is not a finite number`, ['edits', i, 'value']);
  });
}

/** The tool choice the recorded turn made, read from its trace (never from its message). */
function recordedChoice(start: TurnStart, recorded: RecordedTurn, extracted: Values): ToolChoice {
  const first = (recorded.decisions ?? []).find(
    (d) => d.type === 'activate_tool' || d.type === 'tool_text_response',
  ) as { type: string; tool?: unknown; via?: unknown } | undefined;
  if (!first) throw new WhatIfInputError('The recorded trace has no tool choice to hold fixed', ['trace']);
  if (first.type === 'tool_text_response')
    return { kind: 'fallback', intent: recorded.intent, considered: [] };
  const tool = typeof first.tool === 'string' ? start.compiled.toolByCode.get(first.tool) : undefined;
  if (!tool || !tool.enabled)
    throw new WhatIfInputError(
      `The recorded turn ran the tool ${JSON.stringify(first.tool)}, which this bundle does not enable`,
      ['trace', 'decisions'],
    );
  if (first.via === 'continue') {
    const intent = recorded.intent;
    if (intent !== 'confirm' && intent !== 'deny' && intent !== 'provide_information')
      throw new WhatIfInputError(`The recorded intent ${JSON.stringify(intent)} does not continue a tool`, [
        'trace',
        'intent',
      ]);
    return { kind: 'continue', tool, intent, considered: [tool.code] };
  }
  // The tools considered are the ranking of the message's words and triggers, as when it ran.
  const considered = scoreTools(start.compiled, start.message, () => ({
    compiled: start.compiled,
    values: Object.assign(newValues(start.values), extracted),
    current: extracted,
    message: start.message,
    clock: start.clock,
  })).map((s) => s.tool.code);
  return {
    kind: 'new',
    tool,
    intent: recorded.intent,
    considered,
    via: first.via === 'trigger' ? 'trigger' : 'words',
  };
}

function readExtracted(recorded: RecordedTurn): Values {
  const x = recorded.understanding?.extracted_params;
  return newValues(x && typeof x === 'object' && !Array.isArray(x) ? x : undefined);
}

function whatIfTurn(input: WhatIfInput): WhatIfOutput {
  const start = startTurn({
    bundle: input.bundle,
    state: input.state,
    text: typeof input.recorded.input?.message === 'string' ? input.recorded.input.message : '',
    clock: input.clock,
    interactionId: input.recorded.interaction_id,
    userId: input.userId,
  });
  checkEdits(start, input.edits);
  const extracted = readExtracted(input.recorded);
  const choice = recordedChoice(start, input.recorded, extracted);
  for (const e of input.edits) {
    if ('missing' in e) {
      delete extracted[e.code];
      delete start.values[e.code];
      delete start.origins[e.code];
    } else extracted[e.code] = e.value;
  }
  const out = decideTurn(start, choice, extracted);
  const finalValues = (out.state.values ?? {}) as Values;
  const overridden = input.edits
    .filter((e) =>
      'missing' in e
        ? e.code in finalValues
        : JSON.stringify(finalValues[e.code]) !== JSON.stringify(e.value),
    )
    .map((e) => e.code);
  return { ...out, overridden };
}

/**
 * Decides the recorded turn again with `edits` applied to its values. Throws `WhatIfInputError`
 * for edits or a trace it cannot hold fixed, and `WorkBudgetExceeded` past the turn's work budget.
 */
export function whatIf(input: WhatIfInput): WhatIfOutput {
  return guardedRun('deciding the turn again', () => whatIfTurn(input));
}
