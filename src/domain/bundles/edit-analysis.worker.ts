/**
 * What an edit changes, off the main thread (see edit-analysis.ts): the engine's semantic diff of
 * two bundle texts (`diff`), and a witness conversation run turn by turn with a bundle (`replay`:
 * each turn's decision, rule results and tools, the state chained from a new task's), which a test
 * case built from the witness expects. The engine runs only here, never on the page's thread.
 */
import type { DiffResult } from '../../contract/analysis';
import type { Bundle } from '../../contract/bundle';
import { validateBundle } from '../../lib/bundle/validate';
import { diffBundles } from '../../../engine/analysis';
import { engine } from '../../../engine';

/** The user id every replayed turn runs with (the one a test case runs with when it names none). */
const REPLAY_USER = 'test-user';

export type EditAnalysisRequest = { id: number } & (
  | { kind: 'diff'; base: string; head: string; clock: string }
  | { kind: 'replay'; bundle: string; messages: readonly string[]; clock: string }
);

/** One replayed turn: what the engine decided. */
export interface ReplayedTurn {
  decision: string;
  /** rule id → result, for every rule the turn evaluated. */
  rules: Record<string, string>;
  tools_invoked: string[];
}

export type EditAnalysisAnswer =
  | { id: number; ok: true; kind: 'diff'; result: DiffResult }
  | { id: number; ok: true; kind: 'replay'; turns: ReplayedTurn[] }
  | { id: number; ok: false; message: string };

function validBundle(text: string, which: string): Bundle {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    throw new Error(`${which} is not valid JSON`);
  }
  const errors = validateBundle(doc).filter((i) => i.severity === 'error').length;
  if (errors > 0) throw new Error(`${which} does not validate (${errors} error${errors === 1 ? '' : 's'})`);
  return doc as Bundle;
}

function replay(bundle: Bundle, messages: readonly string[], clock: string): ReplayedTurn[] {
  let state = engine.initialState(bundle, clock, REPLAY_USER);
  return messages.map((text, i) => {
    const out = engine.runTurn({
      bundle,
      state,
      text,
      clock,
      interactionId: `witness-${i + 1}`,
      userId: REPLAY_USER,
    });
    state = out.state;
    const rules: Record<string, string> = Object.create(null) as Record<string, string>;
    for (const r of out.trace.rules_evaluated) rules[r.rule_id] = r.result;
    return {
      decision: out.trace.decision,
      rules,
      tools_invoked: out.trace.tools_invoked.map((t) => t.tool),
    };
  });
}

function answer(request: EditAnalysisRequest): EditAnalysisAnswer {
  const { id } = request;
  if (request.kind === 'diff') {
    const base = validBundle(request.base, 'The bundle before the edit');
    const head = validBundle(request.head, 'The edited bundle');
    return { id, ok: true, kind: 'diff', result: diffBundles(base, head, { clock: request.clock }) };
  }
  const bundle = validBundle(request.bundle, 'The bundle');
  return { id, ok: true, kind: 'replay', turns: replay(bundle, request.messages, request.clock) };
}

self.onmessage = (event: MessageEvent<EditAnalysisRequest>) => {
  let out: EditAnalysisAnswer;
  try {
    out = answer(event.data);
  } catch (e) {
    out = { id: event.data.id, ok: false, message: e instanceof Error ? e.message : String(e) };
  }
  self.postMessage(out);
};
