/**
 * The action registry: every command the palette lists and every keyboard shortcut runs. Features
 * contribute actions in one line, either once at module scope (`registerActions('theme', [...])`)
 * or from a mounted component with the context they need (`useRegisterActions('chat', actions)`):
 * an action exists while its contributor is mounted. Pure helpers below are tested on their own.
 */
import { useEffect } from 'react';
import { create } from 'zustand';
import { fuzzyFilter, type FuzzyMatch } from '../../lib/fuzzy';
import { isTypingTarget, matchesShortcut, parseShortcut, type KeyLike } from '../../lib/keyboard';

export interface Action {
  /** Unique; a later contribution with the same id replaces the earlier one. */
  id: string;
  title: string;
  group: ActionGroup;
  keywords?: readonly string[];
  /** e.g. "j", "mod+k", "mod+shift+l" (see lib/keyboard). Shown in the palette and in "?". */
  shortcut?: string;
  /** When false the action is listed but cannot run; `hint` says why. */
  enabled?: boolean;
  hint?: string;
  run: () => void;
}

const GROUPS = ['Thread', 'Navigate', 'Share', 'Editor', 'View', 'Theme', 'Help'] as const;
export type ActionGroup = (typeof GROUPS)[number];

interface RegistryState {
  sources: Record<string, readonly Action[]>;
}

export const useActionRegistry = create<RegistryState>()(() => ({ sources: {} }));

/** Adds (or replaces) the actions of one contributor. Returns the function that removes them. */
export function registerActions(source: string, actions: readonly Action[]): () => void {
  useActionRegistry.setState((s) => ({ sources: { ...s.sources, [source]: actions } }));
  return () =>
    useActionRegistry.setState((s) => {
      if (s.sources[source] !== actions) return s;
      const { [source]: _gone, ...rest } = s.sources;
      return { sources: rest };
    });
}

/**
 * Keeps a mounted component's actions in the registry (an outside store) while it is mounted.
 * Pass a memoised list: a new list replaces the previous one.
 */
export function useRegisterActions(source: string, actions: readonly Action[]): void {
  useEffect(() => registerActions(source, actions), [source, actions]);
}

/** Every registered action once (the latest contribution of an id wins), in group order. */
export function collectActions(sources: Record<string, readonly Action[]>): Action[] {
  const byId = new Map<string, Action>();
  for (const list of Object.values(sources)) for (const a of list) byId.set(a.id, a);
  const order = (g: ActionGroup) => GROUPS.indexOf(g);
  return [...byId.values()]
    .map((a, i) => ({ a, i }))
    .sort((x, y) => order(x.a.group) - order(y.a.group) || x.i - y.i)
    .map(({ a }) => a);
}

export const selectActions = (s: RegistryState) => s.sources;

function searchText(a: Action): string {
  return [a.title, a.group, ...(a.keywords ?? [])].join(' · ');
}

/** The palette's list for a query: fuzzy on title, group and keywords; enabled before disabled. */
export function paletteResults(
  query: string,
  actions: readonly Action[],
): Array<{ action: Action; match: FuzzyMatch | null }> {
  if (!query.trim()) return actions.map((action) => ({ action, match: null }));
  const hits = fuzzyFilter(query, actions, searchText).map(({ item, match }) => {
    // Highlight only within the title.
    const inTitle = match.positions.every((p) => p < item.title.length);
    return { action: item, match: inTitle ? match : null };
  });
  const on = hits.filter((h) => h.action.enabled !== false);
  const off = hits.filter((h) => h.action.enabled === false);
  return [...on, ...off];
}

/**
 * The action a key press runs, if any. Single keys without a modifier ("j", "?") never fire while
 * the user is typing; shortcuts with a modifier do.
 */
export function actionForKey(
  e: KeyLike & { target?: unknown },
  actions: readonly Action[],
  isMac: boolean,
): Action | undefined {
  const typing = isTypingTarget(e.target);
  return actions.find((a) => {
    if (!a.shortcut || a.enabled === false) return false;
    const spec = parseShortcut(a.shortcut);
    const single = !spec.mod && !spec.alt;
    if (single && typing) return false;
    return matchesShortcut(e, a.shortcut, isMac);
  });
}
