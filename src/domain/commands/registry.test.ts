import { afterEach, describe, expect, it } from 'vitest';
import {
  actionForKey,
  collectActions,
  paletteResults,
  registerActions,
  useActionRegistry,
  type Action,
} from './registry';

const noop = () => {};
const a = (id: string, title: string, extra: Partial<Action> = {}): Action => ({
  id,
  title,
  group: 'Thread',
  run: noop,
  ...extra,
});
const key = (
  k: string,
  mods: Partial<{ ctrlKey: boolean; metaKey: boolean; shiftKey: boolean; altKey: boolean }> = {},
  target?: unknown,
) => ({
  key: k,
  ctrlKey: false,
  metaKey: false,
  shiftKey: false,
  altKey: false,
  target,
  ...mods,
});

afterEach(() => useActionRegistry.setState({ sources: {} }));

describe('action registry', () => {
  it('adds a contributor in one call and removes it with the returned function', () => {
    const off = registerActions('x', [a('new', 'New thread')]);
    expect(collectActions(useActionRegistry.getState().sources).map((x) => x.id)).toEqual(['new']);
    off();
    expect(useActionRegistry.getState().sources).toEqual({});
  });

  it('keeps a newer contribution when an older unregisters late', () => {
    const first = registerActions('x', [a('one', 'One')]);
    registerActions('x', [a('two', 'Two')]);
    first();
    expect(collectActions(useActionRegistry.getState().sources).map((x) => x.id)).toEqual(['two']);
  });

  it('orders by group and lets a later id replace an earlier one', () => {
    const list = collectActions({
      a: [a('theme', 'Dark theme', { group: 'Theme' }), a('send', 'Send')],
      b: [a('send', 'Send the message')],
    });
    expect(list.map((x) => x.title)).toEqual(['Send the message', 'Dark theme']);
  });
});

describe('palette results', () => {
  const actions = [
    a('new', 'New thread'),
    a('link', 'Copy trace link', { group: 'Share', keywords: ['url', 'share'] }),
    a('snap', 'Create snapshot link', { group: 'Share', enabled: false, hint: 'Open a thread first' }),
    a('dark', 'Dark theme', { group: 'Theme' }),
  ];

  it('lists every action for an empty query', () => {
    expect(paletteResults('', actions).map((r) => r.action.id)).toEqual(['new', 'link', 'snap', 'dark']);
  });

  it('filters fuzzily, also on keywords, enabled first', () => {
    expect(paletteResults('link', actions).map((r) => r.action.id)).toEqual(['link', 'snap']);
    expect(paletteResults('url', actions).map((r) => r.action.id)).toEqual(['link']);
    expect(paletteResults('url', actions)[0]!.match).toBeNull();
    expect(paletteResults('nt', actions)[0]!.action.id).toBe('new');
  });
});

describe('shortcuts', () => {
  const input = { tagName: 'TEXTAREA' };
  const actions = [
    a('next', 'Next turn', { shortcut: 'j' }),
    a('palette', 'Palette', { shortcut: 'mod+k' }),
    a('off', 'Off', { shortcut: 'x', enabled: false }),
  ];

  it('runs single keys only when not typing', () => {
    expect(actionForKey(key('j'), actions, false)?.id).toBe('next');
    expect(actionForKey(key('j', {}, input), actions, false)).toBeUndefined();
  });

  it('runs modifier shortcuts even while typing', () => {
    expect(actionForKey(key('k', { ctrlKey: true }, input), actions, false)?.id).toBe('palette');
  });

  it('skips disabled actions', () => {
    expect(actionForKey(key('x'), actions, false)).toBeUndefined();
  });
});
