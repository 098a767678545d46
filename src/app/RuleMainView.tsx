/**
 * A rule's page as a main view (`view=rule&agent=…&rule=…`): a turn opens its thread at that
 * turn, a count opens the search for its turns.
 */
import { RulePage } from '../features/search';
import type { MainViewProps } from './extensions';

export default function RuleMainView({ search, setSearch }: MainViewProps) {
  const leave = { view: undefined, agent: undefined, rule: undefined };
  return (
    <RulePage
      agentId={search.agent ?? ''}
      ruleId={search.rule ?? ''}
      openTurn={(task, turn) =>
        setSearch({ ...leave, task, turn, tab: 'trace', node: undefined, compare: undefined })
      }
      openSearch={(find) => setSearch({ ...leave, view: 'search', find })}
      close={() => setSearch(leave)}
    />
  );
}
