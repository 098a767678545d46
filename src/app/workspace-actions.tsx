/**
 * The workspace's palette actions (new thread, send, turn navigation with j/k, rerun, compare,
 * inspector tabs, the bundle editor, connection settings) and the share target. The app layer
 * owns them because they need the URL; each is one entry in the action registry.
 */
import { useMemo } from 'react';
import { create } from 'zustand';
import { useLineage } from '../domain/lineage/use-lineage';
import { useTranscript } from '../domain/transcript/use-transcript';
import { useRegisterActions, type Action } from '../domain/commands/registry';
import { formatComparePair, parseComparePair } from '../features/compare/pair';
import { useShareActions, type ShareTarget } from '../features/share';
import { inspectorTabs } from './extensions';
import type { WorkspaceSearch } from './search';
import { useSetSearch } from './use-set-search';

const useConnectionDialogStore = create<{ open: boolean; show: () => void; close: () => void }>()((set) => ({
  open: false,
  show: () => set({ open: true }),
  close: () => set({ open: false }),
}));

const useNewThreadDialogStore = create<{ open: boolean; show: () => void; close: () => void }>()((set) => ({
  open: false,
  show: () => set({ open: true }),
  close: () => set({ open: false }),
}));

/** "New thread" asks which agent (and version): one dialog, opened from the list, the palette or the welcome. */
export function useNewThreadDialog() {
  const open = useNewThreadDialogStore((s) => s.open);
  const show = useNewThreadDialogStore((s) => s.show);
  const close = useNewThreadDialogStore((s) => s.close);
  return { open, show, close };
}

export function linkParentOf(
  search: WorkspaceSearch,
): { task_id: string; interaction_id: string } | undefined {
  return search.parent && search.fork ? { task_id: search.parent, interaction_id: search.fork } : undefined;
}

export function useConnectionDialog() {
  const open = useConnectionDialogStore((s) => s.open);
  const close = useConnectionDialogStore((s) => s.close);
  return { open, close };
}

/** The composer of the open thread (its accessible name is its handle). */
export function composer(): HTMLTextAreaElement | null {
  return document.querySelector<HTMLTextAreaElement>('textarea[aria-label="Message"]:not([disabled])');
}

/**
 * Focuses the message box once it is on screen and no dialog holds the focus (a closing dialog
 * hands focus back to its opener), giving up after ~3 s. `leaving` is the box of the thread being
 * left: a new thread's box is a new element, so that one is waited past.
 */
export function focusComposer(leaving: Element | null = null, frames = 180): void {
  const box = composer();
  if (box && box !== leaving && !document.querySelector('dialog[open]')) box.focus();
  else if (frames > 0) requestAnimationFrame(() => focusComposer(leaving, frames - 1));
}

/** Focuses an element that appears shortly (a lazily loaded panel), giving up after ~3 s. */
function focusWhenReady(selector: string, frames = 180): void {
  const el = document.querySelector<HTMLElement>(selector);
  if (el) el.focus();
  else if (frames > 0) requestAnimationFrame(() => focusWhenReady(selector, frames - 1));
}

/** Clicks a button that appears shortly (a lazily loaded panel) once it can be clicked, giving up after ~3 s. */
function clickWhenReady(selector: string, frames = 180): void {
  const el = document.querySelector<HTMLButtonElement>(selector);
  if (el && !el.disabled) el.click();
  else if (frames > 0) requestAnimationFrame(() => clickWhenReady(selector, frames - 1));
}

/** Clicks one of a turn's own actions (its accessible name starts with `name`). */
function clickTurnButton(turnId: string | undefined, name: string): void {
  if (!turnId) return;
  document
    .querySelector<HTMLButtonElement>(`[data-turn-id="${CSS.escape(turnId)}"] button[aria-label^="${name}"]`)
    ?.click();
}

/**
 * What a link reproduces: the thread, the turn on screen, the node, the tab, the comparison and
 * its filter, and, when the server does not keep lineage, the branch's origin as ids.
 */
export function useWorkspaceTarget(search: WorkspaceSearch): ShareTarget | undefined {
  const taskId = search.task ?? parseComparePair(search.compare)?.a;
  const transcript = useTranscript(taskId);
  const lineage = useLineage(search.task, linkParentOf(search));
  const turnId = search.turn ?? transcript.turns.at(-1)?.id;
  const record =
    lineage.source === 'browser' ? lineage.records.find((r) => r.task_id === search.task) : undefined;
  const { node, tab, compare, only } = search;
  const parent = record?.parent_task_id;
  const fork = record?.parent_interaction_id;
  return useMemo(
    () => (taskId ? { taskId, turnId, nodeId: node, view: { tab, compare, only, parent, fork } } : undefined),
    [taskId, turnId, node, tab, compare, only, parent, fork],
  );
}

export function useWorkspaceActions(search: WorkspaceSearch, target: ShareTarget | undefined): void {
  useShareActions(target);
  const setSearch = useSetSearch();
  const { turns } = useTranscript(search.task);
  const newThread = useNewThreadDialogStore((s) => s.show);
  const lineage = useLineage(search.task, linkParentOf(search));
  const parent = search.task ? lineage.records.find((r) => r.task_id === search.task) : undefined;

  const turnId = target?.turnId;
  const { task, compare } = search;
  const actions = useMemo<Action[]>(() => {
    const index = turnId ? turns.findIndex((t) => t.id === turnId) : -1;
    const noThread = task ? {} : { enabled: false, hint: 'Open a thread first' };
    const go = (i: number) => {
      const t = turns[i];
      if (t) setSearch({ turn: t.id, node: undefined });
    };
    const list: Action[] = [
      {
        id: 'thread.new',
        title: 'New thread',
        group: 'Thread',
        keywords: ['start', 'create', 'task', 'agent'],
        run: newThread,
      },
      {
        id: 'chat.send',
        title: 'Send the message',
        group: 'Thread',
        keywords: ['submit', 'composer'],
        ...noThread,
        run: () => {
          const box = composer();
          if (box?.value.trim()) box.form?.requestSubmit();
          else box?.focus();
        },
      },
      {
        id: 'chat.focus',
        title: 'Focus the message box',
        group: 'Thread',
        // Free here (j, k and ? are taken); many sites use it to focus their main input, and
        // browsers leave it to a page that handles it (Firefox's quick find included).
        shortcut: '/',
        keywords: ['composer', 'type', 'skip'],
        ...noThread,
        run: () => composer()?.focus(),
      },
      {
        id: 'turn.rerun',
        title: 'Rerun from this turn…',
        group: 'Thread',
        keywords: ['regenerate', 'branch', 'replay'],
        ...(task && index >= 0 ? {} : { enabled: false, hint: 'Select a turn first' }),
        run: () => clickTurnButton(turnId, 'Rerun from here'),
      },
      {
        id: 'turn.save-test',
        title: 'Save this turn as a test…',
        group: 'Thread',
        keywords: ['case', 'suite', 'expectation'],
        ...(task && index >= 0 ? {} : { enabled: false, hint: 'Select a turn first' }),
        run: () => clickTurnButton(turnId, 'Save as test'),
      },
      {
        id: 'suite.run',
        title: 'Run the test suite',
        group: 'Thread',
        keywords: ['tests', 'cases', 'suite'],
        run: () => {
          setSearch({ tab: 'tests', compare: undefined });
          clickWhenReady('[data-action="run-suite"]');
        },
      },
      {
        id: 'turn.next',
        title: 'Next turn',
        group: 'Navigate',
        shortcut: 'j',
        ...(index < turns.length - 1 ? {} : { enabled: false, hint: 'Last turn' }),
        run: () => go(index < 0 ? 0 : index + 1),
      },
      {
        id: 'turn.previous',
        title: 'Previous turn',
        group: 'Navigate',
        shortcut: 'k',
        ...(index > 0 ? {} : { enabled: false, hint: 'First turn' }),
        run: () => go(index - 1),
      },
      {
        id: 'compare.parent',
        title: 'Compare with the parent thread',
        group: 'Navigate',
        keywords: ['diff', 'branch', 'rerun'],
        ...(parent ? {} : { enabled: false, hint: 'This thread is not a branch' }),
        run: () => parent && task && setSearch({ compare: formatComparePair(parent.parent_task_id, task) }),
      },
      ...(compare
        ? [
            {
              id: 'compare.close',
              title: 'Close the comparison',
              group: 'Navigate' as const,
              run: () => setSearch({ compare: undefined }),
            },
          ]
        : []),
      ...inspectorTabs.map<Action>((t) => ({
        id: `tab.${t.id}`,
        title: `Show the ${t.label} tab`,
        group: 'View',
        keywords: ['inspector'],
        run: () => setSearch({ tab: t.id, compare: undefined }),
      })),
      {
        id: 'editor.focus',
        title: 'Focus the bundle editor',
        group: 'Editor',
        keywords: ['monaco', 'bundle', 'edit'],
        ...(inspectorTabs.some((t) => t.id === 'bundle') ? {} : { enabled: false, hint: 'No bundle editor' }),
        run: () => {
          setSearch({ tab: 'bundle', compare: undefined });
          focusWhenReady('.monaco-editor textarea');
        },
      },
      {
        id: 'connection.settings',
        title: 'Connection settings…',
        group: 'View',
        keywords: ['key', 'server', 'base url', 'agent'],
        run: () => useConnectionDialogStore.getState().show(),
      },
    ];
    return list;
  }, [task, compare, turnId, turns, setSearch, newThread, parent]);
  useRegisterActions('workspace', actions);
}
