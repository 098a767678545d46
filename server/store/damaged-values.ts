/**
 * Every JSON value read back from the database is checked (parsed) before it is used or served:
 * a row damaged on disk, by a faulty copy or by hand is found where it is read, said so in words,
 * and confined to its own item. A trace in a list is replaced by an error trace naming what
 * happened (the other items are served as they are); a damaged task or state row is a
 * `StoredValueDamagedError`, answered 500 with a message saying which value of which task. Each
 * one found is reported to the listeners (the request log) and counted for `/healthz`.
 */

export class StoredValueDamagedError extends Error {
  constructor(readonly what: string) {
    super(
      `The stored ${what} is damaged (it is not valid JSON), so it cannot be read. Other tasks are not affected; restore the database from a backup to recover this one.`,
    );
    this.name = 'StoredValueDamagedError';
  }
}

export interface DamagedSummary {
  /** Damaged values found since the service started. */
  count: number;
  /** The latest one: what it was and when it was found. */
  last: { what: string; at: string } | null;
}

type Listener = (what: string) => void;
const listeners = new Set<Listener>();
const summary: DamagedSummary = { count: 0, last: null };

/** Calls `listener` with each damaged value found; answers the function that stops it. */
export function onDamagedValue(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function damagedValues(): DamagedSummary {
  return { count: summary.count, last: summary.last };
}

function report(what: string): void {
  summary.count += 1;
  summary.last = { what, at: new Date().toISOString() };
  for (const listener of listeners) listener(what);
}

/** The parsed stored JSON `text` of `what` (e.g. "state of task t-1"); refused when damaged. */
export function parseStored<T>(text: string, what: string): T {
  try {
    return JSON.parse(text) as T;
  } catch {
    report(what);
    throw new StoredValueDamagedError(what);
  }
}

const INTERACTION_ID = /^\{"interaction_id":"((?:[^"\\]|\\.){1,200})"/;

/**
 * A stored trace's JSON text when it parses; else an error trace in its place (the interaction
 * id kept when it can still be read), so a list shows every good trace and marks the bad one.
 */
export function checkedTraceJson(text: string, taskId: string): string {
  try {
    JSON.parse(text);
    return text;
  } catch {
    const id = INTERACTION_ID.exec(text)?.[1];
    const interactionId = id === undefined ? null : (JSON.parse(`"${id}"`) as string);
    const what = `trace of interaction ${interactionId ?? '(unknown)'} of task ${taskId}`;
    report(what);
    return JSON.stringify({
      interaction_id: interactionId,
      intent: 'error',
      entities: {},
      parameters_extracted: [],
      rules_evaluated: [],
      tools_considered: [],
      tools_invoked: [],
      decision: 'error',
      damaged: true,
      error: new StoredValueDamagedError(what).message,
    });
  }
}
