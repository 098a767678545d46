/**
 * The focus trap of a modal dialog: which elements inside it take focus with Tab, and where Tab
 * or Shift+Tab goes from the focused one (round from the last to the first and back).
 */

const FOCUSABLE = [
  'a[href]',
  'button:not([disabled])',
  'input:not([disabled]):not([type="hidden"])',
  'select:not([disabled])',
  'textarea:not([disabled])',
  '[tabindex]',
  '[contenteditable="true"]',
].join(',');

/** The elements of `root` that Tab visits, in document order (tabindex -1 and hidden ones excluded). */
export function tabbableIn(root: Element): HTMLElement[] {
  return [...root.querySelectorAll<HTMLElement>(FOCUSABLE)].filter(
    (el) => el.tabIndex >= 0 && !el.closest('[hidden], [inert]') && !isRadioSkipped(el),
  );
}

/** Tab stops once per radio group: on the checked radio, or the first when none is checked. */
function isRadioSkipped(el: HTMLElement): boolean {
  if (!(el instanceof HTMLInputElement) || el.type !== 'radio' || !el.name || el.checked) return false;
  const group = [
    ...(el.form ?? el.ownerDocument).querySelectorAll<HTMLInputElement>('input[type="radio"]'),
  ].filter((r) => r.name === el.name && !r.disabled);
  return group.some((r) => r.checked) || group[0] !== el;
}

/**
 * Where focus goes when Tab (or Shift+Tab) is pressed on `current`: null when the browser's own
 * move stays inside, else the element to focus instead (the first after the last, the last before
 * the first, or either end when focus is not on a tab stop inside).
 */
export function wrapFocus(
  stops: readonly HTMLElement[],
  current: Element | null,
  backwards: boolean,
): HTMLElement | null {
  const first = stops[0];
  const last = stops.at(-1);
  if (!first || !last) return null;
  const at = current ? stops.indexOf(current as HTMLElement) : -1;
  if (at < 0) return backwards ? last : first;
  if (backwards && at === 0) return last;
  if (!backwards && at === stops.length - 1) return first;
  return null;
}
