import type { ReactNode } from 'react';

export interface ErrorLike {
  title: string;
  message: string;
  guidance?: string;
  status?: number;
}

/** An error in plain words: what happened, the service's message, what to do. */
export function ErrorCallout({ error, action }: { error: ErrorLike; action?: ReactNode }) {
  return (
    <div
      role="alert"
      className="rounded-md border border-red-300 bg-red-50 p-3 text-sm text-red-900 dark:border-red-800 dark:bg-red-950/60 dark:text-red-100"
    >
      <p className="font-semibold">
        {error.title}
        {error.status ? <span className="ml-1 font-normal opacity-70">({error.status})</span> : null}
      </p>
      <p className="mt-1 break-words">{error.message}</p>
      {error.guidance ? <p className="mt-1 opacity-80">{error.guidance}</p> : null}
      {action ? <div className="mt-2">{action}</div> : null}
    </div>
  );
}
