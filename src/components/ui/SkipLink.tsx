/**
 * The first stop of the Tab order: hidden until focused, then shown at the top left. It moves
 * focus itself (`onSkip`) rather than by fragment, so the URL (the app's state) stays as it is.
 */
export function SkipLink({ label, onSkip }: { label: string; onSkip: () => void }) {
  return (
    <a
      href="#main-content"
      onClick={(e) => {
        e.preventDefault();
        onSkip();
      }}
      className="sr-only rounded-md bg-white text-sm font-medium text-indigo-700 shadow-lg focus:not-sr-only focus:fixed focus:top-2 focus:left-2 focus:z-50 focus:px-3 focus:py-2 focus:outline-2 focus:outline-indigo-500 dark:bg-zinc-900 dark:text-indigo-300"
    >
      {label}
    </a>
  );
}
