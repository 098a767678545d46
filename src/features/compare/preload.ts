/** Fetches and evaluates the comparison's chunk ahead of the first comparison. */
export const preloadCompareView = () => import('./CompareView');
