/** The app's name in a header: the workspace's and a read-only document's. */
export function Brand() {
  return (
    <h1 className="text-sm font-semibold tracking-tight">
      <span aria-hidden className="mr-1 text-indigo-500">
        ⟿
      </span>
      Threadline
    </h1>
  );
}
