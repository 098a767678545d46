export { SaveAsTestAction, SaveWhatIfAsTest } from './SaveAsTest';
export type { WhatIfTurn } from './prefill';
export { SaveTurnsAsTests } from './SaveTurnsAsTests';
export { type TurnToSave } from './save-turns';
export { SuitesPanel, type SuitesPanelProps } from './SuitesPanel';
export { CoveragePanel } from './CoveragePanel';
export { type RunTarget, type SuiteRun } from './suite-run';
