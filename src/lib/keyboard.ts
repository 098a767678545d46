/**
 * Keyboard shortcut helpers: parsing "mod+k" style specs, matching events, formatting for the
 * platform, and telling whether the user is typing (single-key shortcuts stay out of the way of
 * inputs, text areas, selects and code editors). Pure apart from reading the event's target.
 */

export interface ShortcutSpec {
  key: string;
  /** Ctrl on Windows/Linux, ⌘ on macOS. */
  mod: boolean;
  shift: boolean;
  alt: boolean;
}

export function parseShortcut(spec: string): ShortcutSpec {
  const parts = spec.split('+').map((p) => p.trim());
  const key = (parts.pop() ?? '').toLowerCase();
  const mods = new Set(parts.map((p) => p.toLowerCase()));
  return { key, mod: mods.has('mod'), shift: mods.has('shift'), alt: mods.has('alt') };
}

export interface KeyLike {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  shiftKey: boolean;
  altKey: boolean;
}

/**
 * Whether the event is this shortcut. For printable keys such as "?" the shift state is part of
 * the character, so shift is only compared for letters, digits and named keys.
 */
export function matchesShortcut(e: KeyLike, spec: ShortcutSpec | string, isMac: boolean): boolean {
  const s = typeof spec === 'string' ? parseShortcut(spec) : spec;
  const key = e.key.toLowerCase();
  if (key !== s.key) return false;
  const mod = isMac ? e.metaKey : e.ctrlKey;
  const otherMod = isMac ? e.ctrlKey : e.metaKey;
  if (mod !== s.mod || otherMod) return false;
  if (e.altKey !== s.alt) return false;
  const symbol = s.key.length === 1 && !/[a-z0-9]/.test(s.key);
  if (!symbol && e.shiftKey !== s.shift) return false;
  return true;
}

/** "mod+k" → "⌘K" on macOS, "Ctrl+K" elsewhere. */
export function formatShortcut(spec: string, isMac: boolean): string {
  const s = parseShortcut(spec);
  const key =
    s.key.length === 1
      ? s.key.toUpperCase()
      : s.key === 'enter'
        ? 'Enter'
        : s.key === 'escape'
          ? 'Esc'
          : s.key;
  const mods = [
    s.mod ? (isMac ? '⌘' : 'Ctrl') : '',
    s.alt ? (isMac ? '⌥' : 'Alt') : '',
    s.shift ? (isMac ? '⇧' : 'Shift') : '',
  ].filter(Boolean);
  if (mods.length === 0) return s.key.length === 1 ? s.key : key;
  return isMac ? mods.join('') + key : [...mods, key].join('+');
}

interface ElementLike {
  tagName?: string;
  isContentEditable?: boolean;
  closest?: (selector: string) => unknown;
  getAttribute?: (name: string) => string | null;
}

/** True when keys typed now go into a text field, a select or a code editor. */
export function isTypingTarget(target: unknown): boolean {
  if (!target || typeof target !== 'object') return false;
  const el = target as ElementLike;
  const tag = (el.tagName ?? '').toLowerCase();
  if (tag === 'textarea' || tag === 'select') return true;
  if (tag === 'input') {
    const type = (el.getAttribute?.('type') ?? 'text').toLowerCase();
    return !['checkbox', 'radio', 'button', 'submit', 'reset', 'range', 'color', 'file'].includes(type);
  }
  if (el.isContentEditable) return true;
  return Boolean(el.closest?.('.monaco-editor, [contenteditable="true"], [role="textbox"]'));
}

export function detectMac(): boolean {
  return (
    typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform || navigator.userAgent)
  );
}
