/** The turn search as a main view: its filters in the URL (`find`), a result opens its thread at that turn. */
import { SearchView } from '../features/search';
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
    />
  );
}
