/** Public surface of the search feature: the turn search view and its filters. */
export { SearchView, type SearchViewProps } from './SearchView';
export { hitLabel } from './Hit';
export { type FindFilter } from './find';
export { RulePage, type RulePageProps } from './RulePage';
