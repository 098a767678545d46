/**
 * The header's connection indicator: offline (the browser has no network), unreachable (the last
 * request to the service failed, with the last successful contact), or online. While unreachable
 * the page's queries are retried every 15 s, so the indicator clears on its own on recovery.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useSyncExternalStore } from 'react';
import { getReachability, subscribeReachability } from '../../api/reachability';
import { cx } from '../../lib/format';

const RETRY_MS = 15_000;

function subscribeOnline(listener: () => void): () => void {
  window.addEventListener('online', listener);
  window.addEventListener('offline', listener);
  return () => {
    window.removeEventListener('online', listener);
    window.removeEventListener('offline', listener);
  };
}

const clock = (ms: number) =>
  new Date(ms).toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit', second: '2-digit' });

export function ServiceStatus() {
  const online = useSyncExternalStore(subscribeOnline, () => navigator.onLine);
  const { lastContact, failure } = useSyncExternalStore(subscribeReachability, getReachability);
  const queryClient = useQueryClient();
  const unreachable = online && failure !== null;

  useEffect(() => {
    if (!unreachable) return;
    // Sync with the service: ask again now and then until it answers.
    const timer = setInterval(() => void queryClient.refetchQueries({ type: 'active' }), RETRY_MS);
    return () => clearInterval(timer);
  }, [unreachable, queryClient]);

  const last = lastContact ? `last contact ${clock(lastContact)}` : 'never reached';
  const [label, detail, tone] = !online
    ? ['Offline', `This browser has no network; what is shown is from before (${last}).`, 'warn']
    : unreachable
      ? ['Service unreachable', `${failure.message} Shown data may be stale (${last}).`, 'bad']
      : lastContact
        ? ['Online', `The service answered (${last}).`, 'ok']
        : [null, '', 'ok'];
  return (
    <span role="status" data-testid="service-status" className="flex items-center gap-1 text-xs">
      {label ? (
        <span
          title={detail}
          className={cx(
            'inline-flex items-center gap-1.5 rounded-full px-2 py-0.5 whitespace-nowrap',
            tone === 'ok' && 'text-zinc-600 dark:text-zinc-300',
            tone === 'warn' &&
              'bg-amber-100 font-medium text-amber-900 dark:bg-amber-950 dark:text-amber-100',
            tone === 'bad' && 'bg-red-100 font-medium text-red-900 dark:bg-red-950 dark:text-red-100',
          )}
        >
          <span
            aria-hidden="true"
            className={cx(
              'size-2 rounded-full',
              tone === 'ok' ? 'bg-emerald-500' : tone === 'warn' ? 'bg-amber-500' : 'bg-red-500',
            )}
          />
          {label}
          {tone === 'ok' ? <span className="sr-only"> ({last})</span> : <span> · {last}</span>}
        </span>
      ) : null}
      {unreachable ? (
        <button
          type="button"
          onClick={() => void queryClient.refetchQueries({ type: 'active' })}
          className="rounded px-1.5 py-0.5 text-indigo-700 hover:bg-indigo-50 dark:text-indigo-300 dark:hover:bg-indigo-950"
        >
          Try again
        </button>
      ) : null}
    </span>
  );
}
