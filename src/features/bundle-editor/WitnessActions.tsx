/**
 * What a witness conversation can become: **Save as test case** (its messages replayed with the
 * head bundle in the worker, then saved to the agent's suite, see witness-case.ts) and **Open as
 * thread** (a new thread of the agent running the head bundle, the messages sent in order; the
 * app does it). Each says what happened, and what to do when it failed.
 */
import { useState } from 'react';
import type { SideOutcome, Witness } from '../../contract/analysis';
import { Button } from '../../components/ui/Button';
import { replayWitness } from '../../domain/bundles/edit-analysis';
import { useSuitesStore } from '../../domain/suites/suites-store';
import { witnessWords } from './edit-changes-model';
import { caseFromWitness } from './witness-case';
import type { OpenWitnessThread } from './witness-thread';

export interface WitnessActionsProps {
  agentId: string;
  /** The head side's bundle text: the witness runs with it. */
  headText: string;
  witness: Witness;
  /** The case's name (the region, or the finding). */
  name: string;
  description?: string;
  /** The head side's outcome, which the case's last turn expects. */
  expected?: SideOutcome;
  onOpenAsThread?: OpenWitnessThread | undefined;
}

type Status = { tone: 'ok' | 'error' | 'busy'; text: string } | null;

export function WitnessActions({
  agentId,
  headText,
  witness,
  name,
  description,
  expected,
  onOpenAsThread,
}: WitnessActionsProps) {
  const [status, setStatus] = useState<Status>(null);
  const messages = witness.messages ?? [];
  if (messages.length === 0) return null;
  const busy = status?.tone === 'busy';

  const onSave = async () => {
    setStatus({ tone: 'busy', text: 'Replaying the conversation…' });
    try {
      const replayed = await replayWitness(headText, messages, witness.clock);
      const built = caseFromWitness({
        agentId,
        name,
        witness,
        replayed,
        ...(description ? { description } : {}),
        ...(expected ? { expected } : {}),
      });
      if (!built.ok) {
        setStatus({ tone: 'error', text: `The test case was not saved: ${built.errors.join('; ')}.` });
        return;
      }
      useSuitesStore.getState().addCase(agentId, built.testCase);
      setStatus({ tone: 'ok', text: `Saved “${built.testCase.name}” to ${agentId}’s tests (Tests tab).` });
    } catch (e) {
      setStatus({
        tone: 'error',
        text: `The test case was not saved: ${e instanceof Error ? e.message : String(e)}. Try again; if it keeps failing, reload the page.`,
      });
    }
  };

  const onOpen = async () => {
    if (!onOpenAsThread) return;
    setStatus({ tone: 'busy', text: 'Opening the thread and sending its messages…' });
    try {
      await onOpenAsThread({ agentId, bundle: JSON.parse(headText) as Record<string, unknown>, messages });
      setStatus({
        tone: 'ok',
        text: `Opened a thread of ${agentId} with ${messages.length === 1 ? 'its message' : `its ${messages.length} messages`} sent.`,
      });
    } catch (e) {
      setStatus({
        tone: 'error',
        text: `The thread was not opened: ${e instanceof Error ? e.message : String(e)}. Check the connection, then try again.`,
      });
    }
  };

  return (
    <div className="flex flex-wrap items-center gap-1">
      <Button size="sm" variant="ghost" disabled={busy} onClick={() => void onSave()}>
        Save as test case
      </Button>
      {onOpenAsThread ? (
        <Button size="sm" variant="ghost" disabled={busy} onClick={() => void onOpen()}>
          Open as thread
        </Button>
      ) : null}
      {status ? (
        <span
          role={status.tone === 'error' ? 'alert' : 'status'}
          className={
            status.tone === 'error'
              ? 'text-red-700 dark:text-red-300'
              : status.tone === 'ok'
                ? 'text-emerald-700 dark:text-emerald-300'
                : 'text-zinc-500'
          }
        >
          {status.text}
        </span>
      ) : null}
    </div>
  );
}

/** A lint finding's witness in words (values, clock, messages), then its actions. */
export function FindingWitness(props: WitnessActionsProps) {
  const { witness } = props;
  return (
    <>
      <span>Witness: {witnessWords(witness)}</span>
      {witness.messages?.length ? (
        <span>Messages: {witness.messages.map((m) => `“${m}”`).join(', ')}</span>
      ) : null}
      <WitnessActions {...props} />
    </>
  );
}
