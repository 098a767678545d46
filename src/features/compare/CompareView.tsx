/**
 * The live comparison: both transcripts (trace list + local records) and what the service says of
 * each thread → CompareLayout; the bundles used come from this browser or the service. Until both
 * threads are loaded (no key yet, one failed) the view says so and concludes nothing. Of long
 * threads (a window of turns held each), one stretch of positions is compared on both sides and
 * the turns outside it are named, with a way to bring them in (compared-part.ts, CompareCoverage).
 */
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { taskInfoQueryOptions } from '../../api/lineage';
import { Button } from '../../components/ui/Button';
import { EmptyState } from '../../components/ui/EmptyState';
import { Spinner } from '../../components/ui/Spinner';
import { shortId } from '../../lib/format';
import { useTranscript } from '../../domain/transcript/use-transcript';
import { useKeyReady } from '../../domain/connection/use-key-ready';
import { useThreadsStore } from '../../domain/threads/threads-store';
import { BundleChangeHeader, BundlesUsed } from './BundlesUsed';
import { CompareLayout, type CompareSide } from './CompareLayout';
import { parseComparePair } from './pair';
import { toCompareTurns } from './turns';
import { comparedPart, turnsIn } from './compared-part';
import { CompareCoverage } from './CompareCoverage';

/** Turns asked for by one "compare more" when the service does not page (it never is then). */
const DEFAULT_STEP = 500;

export interface CompareViewProps {
  /** The URL's `compare` value, `<taskA>..<taskB>`. */
  pair: string | undefined;
  /** The URL's "only differences" filter. */
  onlyDifferences: boolean;
  onOnlyDifferences: (on: boolean) => void;
  onPairChange: (pair: string | undefined) => void;
  onOpenTask: (taskId: string) => void;
}

export default function CompareView({ pair: pairValue, ...rest }: CompareViewProps) {
  const pair = parseComparePair(pairValue);
  const keyReady = useKeyReady();
  const a = useTranscript(pair?.a);
  const b = useTranscript(pair?.b);
  const threadA = useThreadsStore((s) => (pair ? s.threads.get(pair.a) : undefined));
  const threadB = useThreadsStore((s) => (pair ? s.threads.get(pair.b) : undefined));
  // A thread this browser does not know: the server says which agent it runs and its name.
  const infoA = useQuery({ ...taskInfoQueryOptions(pair?.a ?? ''), enabled: Boolean(pair) && keyReady });
  const infoB = useQuery({ ...taskInfoQueryOptions(pair?.b ?? ''), enabled: Boolean(pair) && keyReady });
  const part = comparedPart(
    { start: a.start, held: a.turns.length, total: a.total },
    { start: b.start, held: b.turns.length, total: b.total },
  );
  const [fromA, toA, fromB, toB] = [
    part.a.compared.from,
    part.a.compared.to,
    part.b.compared.from,
    part.b.compared.to,
  ];
  const turnsA = useMemo(
    () => toCompareTurns(turnsIn(a.turns, { from: fromA, to: toA })),
    [a.turns, fromA, toA],
  );
  const turnsB = useMemo(
    () => toCompareTurns(turnsIn(b.turns, { from: fromB, to: toB })),
    [b.turns, fromB, toB],
  );

  if (!pair) {
    return (
      <EmptyState
        title="Nothing to compare"
        action={<Button onClick={() => rest.onPairChange(undefined)}>Back to the workspace</Button>}
      >
        A comparison needs two different threads, as <code>compare=&lt;taskA&gt;..&lt;taskB&gt;</code>. Pick
        two in the Branches tab.
      </EmptyState>
    );
  }

  const side = (which: 'A' | 'B'): CompareSide & { label: string } => {
    const thread = which === 'A' ? threadA : threadB;
    const info = which === 'A' ? infoA.data : infoB.data;
    return {
      label: which,
      agentId: thread?.agent_id || info?.agent_id || undefined,
      turns: which === 'A' ? turnsA : turnsB,
      title: thread?.title || info?.title || `Thread ${shortId(which === 'A' ? pair.a : pair.b)}`,
    };
  };
  const sideA = side('A');
  const sideB = side('B');
  const loading = a.isLoading || b.isLoading;
  // Nothing is concluded about two threads until both are loaded.
  const bothLoaded = a.isLoaded && b.isLoaded;
  const notReady = !keyReady ? (
    <p role="status" className="text-sm text-zinc-600 dark:text-zinc-300">
      Neither thread is loaded yet: enter the API key above to load both and compare them.
    </p>
  ) : loading ? (
    <div className="flex items-center gap-2 text-sm text-zinc-500">
      <Spinner label="Loading the threads" /> Loading the threads…
    </div>
  ) : a.error || b.error ? (
    <p role="alert" className="text-sm text-red-700 dark:text-red-300">
      A thread could not be loaded. Check the connection and that both threads live on this server.
    </p>
  ) : !bothLoaded ? (
    <p role="status" className="text-sm text-zinc-600 dark:text-zinc-300">
      {a.isLoaded ? 'Thread B' : b.isLoaded ? 'Thread A' : 'Neither thread'} is loaded yet, so nothing is
      compared.
    </p>
  ) : undefined;

  return (
    <CompareLayout
      pair={pair}
      a={sideA}
      b={sideB}
      notReady={notReady}
      headerExtra={<BundleChangeHeader a={sideA} b={sideB} />}
      coverage={
        <CompareCoverage
          part={part}
          step={a.window?.pageSize || b.window?.pageSize || DEFAULT_STEP}
          load={(from, to) => {
            a.loadTurns(from, to, true);
            b.loadTurns(from, to, true);
          }}
          failures={[...(a.window?.failed.values() ?? []), ...(b.window?.failed.values() ?? [])]}
        />
      }
      bundles={<BundlesUsed a={sideA} b={sideB} />}
      {...rest}
    />
  );
}
