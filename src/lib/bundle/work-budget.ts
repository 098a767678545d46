/**
 * A budget of work steps for one piece of synchronous work (validating a bundle, running a turn),
 * so that a hostile or absurdly large bundle is refused with a clear reason instead of holding the
 * event loop (or the browser tab). Steps are counted, not timed: the same input always gives the
 * same answer, whatever the machine's load.
 *
 * The budget is set for the duration of a synchronous call (`withWorkBudget`), and the loops whose
 * length depends on the bundle call `spend`. Work that only adds a nicety (a "Did you mean"
 * hint) draws on a separate allowance with `spendOptional`, and is skipped once that runs out
 * rather than failing the request. Outside such a call both do nothing, so pure helpers stay
 * usable on their own.
 */

export class WorkBudgetExceeded extends Error {
  constructor(
    /** What was being done, e.g. "validating the bundle". */
    readonly task: string,
    readonly limit: number,
    /** What grew too much, when it is text being written (replaces the count of steps). */
    grew?: string,
  ) {
    super(
      grew === undefined
        ? `The agent settings bundle is too complex: ${task} took more than ${limit.toLocaleString('en-US')} steps. Make it smaller (fewer rules, formulas or conditions per tool) and try again.`
        : `The agent settings bundle is too complex: ${task} ${grew}. Make it smaller (shorter values, fewer repeated placeholders or concatenations) and try again.`,
    );
    this.name = 'WorkBudgetExceeded';
  }
}

let current: { left: number; limit: number; optional: number; task: string } | null = null;

/**
 * Runs `fn` with a budget of `limit` steps (throws `WorkBudgetExceeded` when it spends more) and
 * an allowance of `optional` steps for optional work.
 */
export function withWorkBudget<T>(task: string, limit: number, fn: () => T, optional = 0): T {
  const outer = current;
  current = { left: limit, limit, optional, task };
  try {
    return fn();
  } finally {
    current = outer;
  }
}

/** The steps the running budget has left, or null outside a budget. */
export function stepsLeft(): number | null {
  return current === null ? null : current.left;
}

/** Counts `steps` against the running budget, if any. */
export function spend(steps: number): void {
  if (current === null) return;
  current.left -= steps;
  if (current.left < 0) throw new WorkBudgetExceeded(current.task, current.limit);
}

/**
 * The longest text one value, message or reply may be written to. Text is work too: every
 * character written counts one step, so a bundle that doubles a value again and again, or prints
 * it 100,000 times, is refused before it holds the memory.
 */
export const MAX_WRITTEN_CHARS = 1_000_000;

/**
 * Counts `added` characters written to `what` (e.g. "the computed value 'total'"), whose length
 * becomes `length`: refused when that is over `MAX_WRITTEN_CHARS` or the budget cannot pay.
 */
export function spendWriting(added: number, length: number, what: string): void {
  if (current === null) return;
  const over =
    length > MAX_WRITTEN_CHARS
      ? `would write ${what} with more than ${MAX_WRITTEN_CHARS.toLocaleString('en-US')} characters`
      : current.left < added
        ? `ran out of its ${current.limit.toLocaleString('en-US')} steps writing ${what} (every character written counts)`
        : null;
  if (over !== null) throw new WorkBudgetExceeded(current.task, current.limit, over);
  current.left -= added;
}

/** Spends `steps` of optional work if the allowance covers them; false (nothing spent) when not. */
export function spendOptional(steps: number): boolean {
  if (current === null) return true;
  if (current.optional < steps) return false;
  current.optional -= steps;
  return true;
}
