/**
 * The turn search as a main view: its filters in the URL (`find`), a result opens its thread at
 * that turn, selected results are saved as test cases.
 */
import { hitLabel, SearchView } from '../features/search';
import { SaveTurnsAsTests } from '../features/test-suites';
import type { MainViewProps } from './extensions';

export default function SearchMainView({ search, setSearch }: MainViewProps) {
  return (
    <SearchView
      find={search.find ?? ''}
      setFind={(find) => setSearch({ find })}
      openTurn={(task, turn) =>
        setSearch({
          view: undefined,
          find: undefined,
          task,
          turn,
          tab: 'trace',
          node: undefined,
          compare: undefined,
        })
      }
      close={() => setSearch({ view: undefined, find: undefined })}
      selectionActions={(selected, clear) => (
        <SaveTurnsAsTests
          turns={selected.map((h) => ({
            taskId: h.task_id,
            turnId: h.interaction_id,
            agentId: h.agent_id,
            label: hitLabel(h),
          }))}
          onSaved={clear}
        />
      )}
    />
  );
}
