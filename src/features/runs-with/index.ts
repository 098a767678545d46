/** Public surface of the runs-with feature: what a thread sends with, chosen per thread. */
export { RunsWithControl, ThreadDraftControls } from './RunsWithControl';
