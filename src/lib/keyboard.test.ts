import { describe, expect, it } from 'vitest';
import { formatShortcut, isTypingTarget, matchesShortcut, parseShortcut } from './keyboard';

const ev = (
  key: string,
  mods: Partial<{ ctrlKey: boolean; metaKey: boolean; shiftKey: boolean; altKey: boolean }> = {},
) => ({
  key,
  ctrlKey: false,
  metaKey: false,
  shiftKey: false,
  altKey: false,
  ...mods,
});

describe('shortcuts', () => {
  it('parses a spec', () => {
    expect(parseShortcut('mod+shift+K')).toEqual({ key: 'k', mod: true, shift: true, alt: false });
  });

  it('maps mod to Ctrl off macOS and ⌘ on macOS', () => {
    expect(matchesShortcut(ev('k', { ctrlKey: true }), 'mod+k', false)).toBe(true);
    expect(matchesShortcut(ev('k', { metaKey: true }), 'mod+k', false)).toBe(false);
    expect(matchesShortcut(ev('k', { metaKey: true }), 'mod+k', true)).toBe(true);
    expect(matchesShortcut(ev('K', { ctrlKey: true }), 'mod+k', false)).toBe(true);
  });

  it('does not fire single keys with modifiers', () => {
    expect(matchesShortcut(ev('j'), 'j', false)).toBe(true);
    expect(matchesShortcut(ev('j', { ctrlKey: true }), 'j', false)).toBe(false);
    expect(matchesShortcut(ev('J', { shiftKey: true }), 'j', false)).toBe(false);
  });

  it('ignores shift for symbols such as ?', () => {
    expect(matchesShortcut(ev('?', { shiftKey: true }), '?', false)).toBe(true);
  });

  it('formats for the platform', () => {
    expect(formatShortcut('mod+k', false)).toBe('Ctrl+K');
    expect(formatShortcut('mod+k', true)).toBe('⌘K');
    expect(formatShortcut('mod+enter', false)).toBe('Ctrl+Enter');
    expect(formatShortcut('j', false)).toBe('j');
    expect(formatShortcut('?', true)).toBe('?');
  });
});

describe('isTypingTarget', () => {
  const el = (tagName: string, attrs: Record<string, string> = {}, inEditor = false) => ({
    tagName,
    isContentEditable: false,
    getAttribute: (n: string) => attrs[n] ?? null,
    closest: (sel: string) => (inEditor && sel.includes('monaco') ? {} : null),
  });

  it('is true in text fields, text areas, selects and editors', () => {
    expect(isTypingTarget(el('INPUT'))).toBe(true);
    expect(isTypingTarget(el('INPUT', { type: 'password' }))).toBe(true);
    expect(isTypingTarget(el('TEXTAREA'))).toBe(true);
    expect(isTypingTarget(el('SELECT'))).toBe(true);
    expect(isTypingTarget(el('DIV', {}, true))).toBe(true);
    expect(isTypingTarget({ tagName: 'DIV', isContentEditable: true })).toBe(true);
  });

  it('is false on buttons, checkboxes and the page', () => {
    expect(isTypingTarget(el('BUTTON'))).toBe(false);
    expect(isTypingTarget(el('INPUT', { type: 'checkbox' }))).toBe(false);
    expect(isTypingTarget(el('BODY'))).toBe(false);
    expect(isTypingTarget(null)).toBe(false);
  });
});
