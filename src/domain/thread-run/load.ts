/**
 * The thread-run unit, loaded once on first use (its bundle lookups and draft checks stay out of
 * the first load). Features call its actions through this one import.
 */
export const loadThreadRun = () => import('./thread-run');

export type ThreadRun = Awaited<ReturnType<typeof loadThreadRun>>;
