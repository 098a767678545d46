/**
 * Running a turn of a thread, as one unit loaded on first use (`load.ts`): sending a message,
 * rerunning a turn into a branch, recording an answer as the thread's local turn, putting a
 * refusal's issues on the editor's markers, and what a thread's message carries.
 */
export { sendTurn, type SendTurnInput } from './send-turn';
export { rerunTurn, type RerunTurnDone, type RerunTurnInput } from './rerun-turn';
export { recordAnswer, localTurnOf, type Answer } from './record-answer';
export { putRefusalOnMarkers, draftThreadRunsWith, type DraftSent } from './refusal';
export { runExtrasFor, type RunExtras } from './run-extras';
