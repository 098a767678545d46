/**
 * The workspace's palette actions (new thread, send, turn navigation with j/k, rerun, compare,
 * inspector tabs, the bundle editor, connection settings) and the share target. The app layer
 * owns them because they need the URL; each is one entry in the action registry. What they do
 * to a feature's element (focus the message box, open a turn's rerun dialog, run the suite) goes
 * through the target the feature registers (domain/commands/targets), never a DOM query.
 */
import { useMemo } from 'react';
import { useLineage } from '../domain/lineage/use-lineage';
import { useTranscript } from '../domain/transcript/use-transcript';
import { useRegisterActions, type Action } from '../domain/commands/registry';
import { runTarget, runTargetWhenReady, targetNames } from '../domain/commands/targets';
import { formatComparePair, parseComparePair } from '../features/compare/pair';
import { useShareActions, type ShareTarget } from '../features/share';
import { inspectorTabs } from './extensions';
import type { WorkspaceSearch } from './search';
import { useSetSearch } from './use-set-search';
import { useWorkspaceDialog } from './workspace-view';

export function linkParentOf(
  search: WorkspaceSearch,
): { task_id: string; interaction_id: string } | undefined {
  return search.parent && search.fork ? { task_id: search.parent, interaction_id: search.fork } : undefined;
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
  const newThread = useWorkspaceDialog('new-thread').show;
  const showConnection = useWorkspaceDialog('connection').show;
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
        run: () => task && runTarget(targetNames.sendComposer(task)),
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
        run: () => task && runTarget(targetNames.focusComposer(task)),
      },
      {
        id: 'turn.rerun',
        title: 'Rerun from this turn…',
        group: 'Thread',
        keywords: ['regenerate', 'branch', 'replay'],
        ...(task && index >= 0 ? {} : { enabled: false, hint: 'Select a turn first' }),
        run: () => turnId && runTarget(targetNames.rerunTurn(turnId)),
      },
      {
        id: 'turn.save-test',
        title: 'Save this turn as a test…',
        group: 'Thread',
        keywords: ['case', 'suite', 'expectation'],
        ...(task && index >= 0 ? {} : { enabled: false, hint: 'Select a turn first' }),
        run: () => turnId && runTarget(targetNames.saveTurnAsTest(turnId)),
      },
      {
        id: 'suite.run',
        title: 'Run the test suite',
        group: 'Thread',
        keywords: ['tests', 'cases', 'suite'],
        run: () => {
          setSearch({ tab: 'tests', compare: undefined });
          runTargetWhenReady(targetNames.runSuite);
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
          runTargetWhenReady(targetNames.focusBundleEditor);
        },
      },
      {
        id: 'connection.settings',
        title: 'Connection settings…',
        group: 'View',
        keywords: ['key', 'server', 'base url', 'agent'],
        run: showConnection,
      },
    ];
    return list;
  }, [task, compare, turnId, turns, setSearch, newThread, showConnection, parent]);
  useRegisterActions('workspace', actions);
}
