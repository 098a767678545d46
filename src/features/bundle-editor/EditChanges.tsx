/**
 * "What this edit changes": the engine's semantic diff from `baseText` to `headText`, computed in
 * a Web Worker (domain/bundles/edit-analysis.ts), in words. Equivalence is claimed only when the
 * engine proved it; otherwise each difference with its witness, what was not analysed, and for a
 * witness conversation *Save as test case* and *Open as thread*.
 */
import { useQuery } from '@tanstack/react-query';
import type { Difference } from '../../contract/analysis';
import { Button } from '../../components/ui/Button';
import { Spinner } from '../../components/ui/Spinner';
import { bundleDiffQueryOptions } from '../../domain/bundles/edit-analysis';
import { differenceWords, regionTitle, summarizeDiff, witnessWords } from './edit-changes-model';
import { WitnessActions } from './WitnessActions';
import type { OpenWitnessThread } from './witness-thread';

export interface EditChangesProps {
  agentId: string;
  /** The bundle before the edit (text); null when it is not known. */
  baseText: string | null;
  /** The bundle after the edit (text). */
  headText: string;
  /** Whether `headText` validates: an invalid draft is not analysed. */
  headValid: boolean;
  /** The region's accessible name (one page may show two of these). */
  label: string;
  onOpenAsThread?: OpenWitnessThread | undefined;
}

const box = 'flex flex-col gap-1 rounded border border-zinc-200 p-2 text-xs dark:border-zinc-700';

export function EditChanges({
  agentId,
  baseText,
  headText,
  headValid,
  label,
  onOpenAsThread,
}: EditChangesProps) {
  const run = baseText !== null && headValid && baseText !== headText;
  const diff = useQuery({ ...bundleDiffQueryOptions(baseText ?? '', headText), enabled: run });
  return (
    <section aria-label={label} className={box}>
      <h4 className="font-semibold text-zinc-700 dark:text-zinc-200">What this edit changes</h4>
      {baseText === null ? (
        <p className="text-zinc-500">
          The bundle before the edit is not loaded, so the two cannot be compared yet.
        </p>
      ) : !headValid ? (
        <p className="text-zinc-500">
          The edited bundle does not validate: fix its errors (see Problems) to see what it changes.
        </p>
      ) : baseText === headText ? (
        <p className="text-zinc-500">Nothing: the two bundles are the same text.</p>
      ) : diff.isPending ? (
        <p className="flex items-center gap-2 text-zinc-500">
          <Spinner label="Working out what this edit changes" /> Working out what this edit changes…
        </p>
      ) : diff.isError ? (
        <div role="alert" className="text-red-700 dark:text-red-300">
          <p>What this edit changes could not be worked out: {diff.error.message}.</p>
          <p className="flex items-center gap-2">
            The text diff still shows the edit.
            <Button size="sm" variant="ghost" onClick={() => void diff.refetch()}>
              Try again
            </Button>
          </p>
        </div>
      ) : (
        <DiffBody
          agentId={agentId}
          headText={headText}
          differences={diff.data.differences}
          summary={summarizeDiff(diff.data)}
          onOpenAsThread={onOpenAsThread}
        />
      )}
    </section>
  );
}

function DiffBody({
  agentId,
  headText,
  differences,
  summary,
  onOpenAsThread,
}: {
  agentId: string;
  headText: string;
  differences: readonly Difference[];
  summary: ReturnType<typeof summarizeDiff>;
  onOpenAsThread?: OpenWitnessThread | undefined;
}) {
  return (
    <>
      {summary.equivalent ? (
        <p className="text-emerald-700 dark:text-emerald-300">{summary.equivalent}</p>
      ) : (
        <p className="text-zinc-600 dark:text-zinc-300">{summary.headline}</p>
      )}
      {differences.length > 0 ? (
        <ul aria-label="Decision changes" className="flex max-h-72 flex-col gap-2 overflow-y-auto">
          {differences.map((d, i) => (
            <li key={`${d.tool}:${d.region.words}:${i}`} className="flex flex-col gap-0.5">
              <p className="font-medium">{differenceWords(d)}</p>
              <p className="text-zinc-600 dark:text-zinc-400">Witness: {witnessWords(d.witness)}</p>
              {d.witness.messages?.length ? (
                <ol
                  aria-label="Witness messages"
                  className="ml-4 list-decimal text-zinc-600 dark:text-zinc-400"
                >
                  {d.witness.messages.map((m, k) => (
                    <li key={k}>“{m}”</li>
                  ))}
                </ol>
              ) : null}
              <WitnessActions
                agentId={agentId}
                headText={headText}
                witness={d.witness}
                name={regionTitle(d)}
                description={`What an edit changes: ${differenceWords(d)}.`}
                expected={d.after}
                onOpenAsThread={onOpenAsThread}
              />
            </li>
          ))}
        </ul>
      ) : null}
      {summary.limits.length > 0 ? (
        <ul aria-label="Not analysed" className="ml-4 list-disc text-amber-800 dark:text-amber-200">
          {summary.limits.map((l, i) => (
            <li key={i}>{l}</li>
          ))}
        </ul>
      ) : null}
    </>
  );
}
