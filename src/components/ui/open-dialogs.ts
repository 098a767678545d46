/**
 * Which modal dialogs are open, kept by the Modal primitive: what must wait until none is (a
 * focus move to the page behind, which a modal dialog makes inert) and the keyboard shortcuts
 * (a dialog owns the keys) ask here instead of searching the DOM.
 */

let openCount = 0;
const waiting: Array<() => void> = [];

export function anyDialogOpen(): boolean {
  return openCount > 0;
}

/** Runs `fn` now when no dialog is open, else once the last one has closed (and given focus back). */
export function afterDialogsClose(fn: () => void): void {
  if (openCount === 0) fn();
  else waiting.push(fn);
}

/** Called by Modal when it opens; the returned function, when it has closed. */
export function dialogOpened(): () => void {
  openCount += 1;
  let closed = false;
  return () => {
    if (closed) return;
    closed = true;
    openCount -= 1;
    if (openCount > 0) return;
    for (const fn of waiting.splice(0)) fn();
  };
}
