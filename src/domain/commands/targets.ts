/**
 * Targets: what one part of the app does on another's behalf (focus the message box, send it,
 * focus the bundle editor, run the test suite, open a turn's rerun dialog). The part that owns
 * the element registers a handler under a name while it is mounted (`useTarget`); the part that
 * asks calls the name (`runTarget`), so nothing is found through DOM selectors or labels.
 * A request for something about to appear (a lazily loaded panel, a thread being opened) waits
 * for its registration (`runTargetWhenReady`) for a few seconds, and never past the closing of
 * a modal dialog, which keeps the page behind it inert.
 */
import { useEffect, useRef } from 'react';
import { afterDialogsClose } from '../../components/ui/open-dialogs';

/** The names the app uses; a name with an id is one per thread or turn. */
export const targetNames = {
  focusComposer: (taskId: string) => `composer.focus:${taskId}`,
  sendComposer: (taskId: string) => `composer.send:${taskId}`,
  focusBundleEditor: 'bundle-editor.focus',
  runSuite: 'suite.run',
  rerunTurn: (turnId: string) => `turn.rerun:${turnId}`,
  saveTurnAsTest: (turnId: string) => `turn.save-test:${turnId}`,
} as const;

/** How long a request waits for its target to register (a lazily loaded chunk on a slow link). */
export const TARGET_WAIT_MS = 3000;

const handlers = new Map<string, () => void>();
/** Requests waiting for their target: name → when they give up (epoch ms). One per name. */
const waiting = new Map<string, number>();

/** Registers `handler` under `name` (replacing an earlier one); returns the function that removes it. */
export function registerTarget(name: string, handler: () => void): () => void {
  handlers.set(name, handler);
  const until = waiting.get(name);
  if (until !== undefined) {
    waiting.delete(name);
    if (Date.now() <= until) afterDialogsClose(() => handlers.get(name)?.());
  }
  return () => {
    if (handlers.get(name) === handler) handlers.delete(name);
  };
}

/**
 * Keeps a mounted component's target registered while `handler` is defined; the latest handler
 * runs (no need to memoise it).
 */
export function useTarget(name: string, handler: (() => void) | undefined): void {
  const latest = useRef(handler);
  useEffect(() => {
    latest.current = handler;
  });
  const available = handler !== undefined;
  useEffect(
    () => (available ? registerTarget(name, () => latest.current?.()) : undefined),
    [name, available],
  );
}

/** Runs the target if it is registered; false when nothing answers to `name`. */
export function runTarget(name: string): boolean {
  const handler = handlers.get(name);
  if (!handler) return false;
  handler();
  return true;
}

/** Runs the target now if it is registered, else once it registers within TARGET_WAIT_MS. */
export function runTargetWhenReady(name: string, now = Date.now()): void {
  for (const [n, until] of waiting) if (until < now) waiting.delete(n);
  if (handlers.has(name)) afterDialogsClose(() => handlers.get(name)?.());
  else waiting.set(name, now + TARGET_WAIT_MS);
}
