/** Public surface of the test suites feature (conversation tests kept per agent). */
export {
  useSuitesStore,
  useSuiteCases,
  useSuiteEntries,
  suiteOf,
  addCase,
  replaceCase,
  removeCase,
  importCases,
  selectSuites,
  selectSuitesHydrated,
  type SuiteEntry,
  type SuitesState,
  type ImportedCase,
  type ImportOutcome,
} from './suites-store';
export { SaveAsTestAction, SaveWhatIfAsTest } from './SaveAsTest';
export type { WhatIfTurn } from './prefill';
export { SaveTurnsAsTests } from './SaveTurnsAsTests';
export { type TurnToSave } from './save-turns';
export { SuitesPanel, type SuitesPanelProps } from './SuitesPanel';
export { CoveragePanel } from './CoveragePanel';
export { useSuiteRunStore, startSuiteRun, cancelSuiteRun, type RunTarget, type SuiteRun } from './suite-run';
