/**
 * "Save as test" under each turn: one click opens the case prefilled from the thread up to that
 * turn (decision, deciding rules, tools, parameters, reply), every expectation editable or
 * uncheckable; Save adds the case to the agent's suite. The task clock comes from the service
 * (reference service) or, failing that, the thread's creation time, and the dialog says which.
 */
import { useQuery } from '@tanstack/react-query';
import { useId, useState, type ReactNode } from 'react';
import { taskInfoQueryOptions } from '../../api/lineage';
import { Button } from '../../components/ui/Button';
import { inputClass, TextField } from '../../components/ui/Field';
import { KNOWN_DECISIONS } from '../../contract/trace';
import type { TestCase } from '../../lib/test-cases';
import type { Turn } from '../../domain/transcript/transcript';
import { useTranscript } from '../../domain/transcript/use-transcript';
import { Modal } from '../../components/ui/Modal';
import { useKeyReady } from '../../domain/connection/use-key-ready';
import { useThreadsStore } from '../../domain/threads/threads-store';
import { buildCase, prefillFromThread, type CaseDraft, type TurnDraft, type WhatIfTurn } from './prefill';
import { useSuitesStore } from '../../domain/suites/suites-store';
import { targetNames, useTarget } from '../../domain/commands/targets';
import { isLocalMessageId } from '../../domain/transcript/transcript';

export function SaveAsTestAction({ turn, taskId }: { turn: Turn; taskId: string }) {
  const [open, setOpen] = useState(false);
  const [saved, setSaved] = useState<string | null>(null);
  const canSave = Boolean(turn.userText) && !isLocalMessageId(turn.id);
  const openForm = () => {
    setSaved(null);
    setOpen(true);
  };
  // "Save this turn as a test…" in the palette opens this turn's form.
  useTarget(targetNames.saveTurnAsTest(turn.id), canSave ? openForm : undefined);
  if (!canSave) return null;
  return (
    <>
      <button
        type="button"
        onClick={openForm}
        aria-label={`Save as test (turn ${turn.index + 1})`}
        className="rounded px-1.5 py-0.5 text-indigo-700 hover:bg-indigo-50 dark:text-indigo-300 dark:hover:bg-indigo-950"
      >
        Save as test
      </button>
      {saved ? (
        <span role="status" className="text-emerald-700 dark:text-emerald-300">
          {saved}
        </span>
      ) : null}
      <Modal
        open={open}
        onClose={() => setOpen(false)}
        label={`Save turn ${turn.index + 1} as a test`}
        className="w-[min(48rem,calc(100vw-2rem))]"
      >
        <SaveAsTestForm
          taskId={taskId}
          turnId={turn.id}
          onCancel={() => setOpen(false)}
          onSaved={(text) => {
            setOpen(false);
            setSaved(text);
          }}
        />
      </Modal>
    </>
  );
}

/**
 * "Save as test" for a what-if of a turn: the same dialog, the turn replaced by the what-if (its
 * message states the edited values, its expectations are the what-if's outcome).
 */
export function SaveWhatIfAsTest({
  taskId,
  turnId,
  turnNumber,
  whatIf,
  disabled,
}: {
  taskId: string;
  turnId: string;
  turnNumber: number;
  whatIf: WhatIfTurn;
  disabled?: boolean;
}) {
  const [open, setOpen] = useState(false);
  const [saved, setSaved] = useState<string | null>(null);
  return (
    <>
      <Button
        size="sm"
        variant="ghost"
        disabled={disabled}
        onClick={() => {
          setSaved(null);
          setOpen(true);
        }}
      >
        Save as test
      </Button>
      {saved ? (
        <span role="status" className="text-xs text-emerald-700 dark:text-emerald-300">
          {saved}
        </span>
      ) : null}
      <Modal
        open={open}
        onClose={() => setOpen(false)}
        label={`Save the what-if of turn ${turnNumber} as a test`}
        className="w-[min(48rem,calc(100vw-2rem))]"
      >
        <SaveAsTestForm
          taskId={taskId}
          turnId={turnId}
          whatIf={whatIf}
          onCancel={() => setOpen(false)}
          onSaved={(text) => {
            setOpen(false);
            setSaved(text);
          }}
        />
      </Modal>
    </>
  );
}

function SaveAsTestForm({
  taskId,
  turnId,
  whatIf,
  onCancel,
  onSaved,
}: {
  taskId: string;
  turnId: string;
  whatIf?: WhatIfTurn;
  onCancel: () => void;
  onSaved: (text: string) => void;
}) {
  const thread = useThreadsStore((s) => s.threads.get(taskId));
  const transcript = useTranscript(taskId);
  const keyReady = useKeyReady();
  const info = useQuery({ ...taskInfoQueryOptions(taskId), enabled: keyReady });
  const clock = info.data?.reference_clock ?? null;

  if ((info.isPending && keyReady) || (transcript.isLoading && !transcript.turns.length))
    return <p className="p-4 text-sm text-zinc-500">Reading the thread…</p>;
  const prefill = prefillFromThread({
    taskId,
    turnId,
    turns: transcript.turns,
    thread,
    info: info.data,
    now: new Date().toISOString(),
    whatIf,
  });
  if (!prefill.ok)
    return (
      <FormShell onCancel={onCancel}>
        <p role="alert" className="text-sm text-red-700 dark:text-red-300">
          {prefill.reason}
        </p>
      </FormShell>
    );
  const agentId = prefill.draft.agentId;
  return (
    <CaseEditor
      initial={prefill.draft}
      clockKnown={clock !== null}
      onCancel={onCancel}
      onSave={(testCase) => {
        useSuitesStore.getState().addCase(agentId, testCase);
        onSaved(`Saved to ${agentId}’s tests.`);
      }}
    />
  );
}

function FormShell({ onCancel, children }: { onCancel: () => void; children: ReactNode }) {
  return (
    <div className="flex flex-col gap-3 p-4">
      <h2 className="text-sm font-semibold">Save as test</h2>
      {children}
      <div className="flex justify-end">
        <Button onClick={onCancel}>Close</Button>
      </div>
    </div>
  );
}

function CaseEditor({
  initial,
  clockKnown,
  onCancel,
  onSave,
}: {
  initial: CaseDraft;
  clockKnown: boolean;
  onCancel: () => void;
  onSave: (testCase: TestCase) => void;
}) {
  const [draft, setDraft] = useState(initial);
  const [errors, setErrors] = useState<string[]>([]);
  const decisionsId = useId();
  const setTurn = (i: number, patch: (t: TurnDraft) => TurnDraft) =>
    setDraft((d) => ({ ...d, turns: d.turns.map((t, j) => (j === i ? patch(t) : t)) }));

  return (
    <form
      className="flex max-h-[85vh] flex-col"
      onSubmit={(e) => {
        e.preventDefault();
        const built = buildCase(draft);
        if (!built.ok) setErrors(built.errors);
        else onSave(built.testCase);
      }}
    >
      <div className="flex flex-col gap-3 overflow-y-auto p-4">
        <h2 className="text-sm font-semibold">Save as test</h2>
        <p className="text-xs text-zinc-600 dark:text-zinc-400">
          The conversation up to this turn, replayed message by message. Each turn must reach its decision;
          the checked expectations must hold too. Uncheck what should be free to change.
        </p>
        <TextField
          label="Case name"
          value={draft.name}
          onChange={(e) => setDraft((d) => ({ ...d, name: e.target.value }))}
        />
        {draft.description !== undefined ? (
          <TextField
            label="Description"
            value={draft.description}
            onChange={(e) => setDraft((d) => ({ ...d, description: e.target.value }))}
          />
        ) : null}
        <TextField
          label="Task clock (ISO-8601)"
          value={draft.clock}
          onChange={(e) => setDraft((d) => ({ ...d, clock: e.target.value }))}
          hint={
            clockKnown
              ? 'The thread’s clock, as the service keeps it: dates such as “10 days ago” replay against it.'
              : 'The service does not say this thread’s clock: this is when the thread was created in this browser. Check it before saving if a turn depends on dates.'
          }
        />
        <datalist id={decisionsId}>
          {KNOWN_DECISIONS.map((d) => (
            <option key={d} value={d} />
          ))}
        </datalist>
        {draft.turns.map((t, i) => (
          <TurnEditor key={i} index={i} turn={t} decisionsId={decisionsId} onChange={(p) => setTurn(i, p)} />
        ))}
        {errors.length ? (
          <div
            role="alert"
            className="rounded border border-red-300 bg-red-50 p-2 text-xs text-red-800 dark:border-red-800 dark:bg-red-950 dark:text-red-200"
          >
            <p className="font-medium">The case cannot be saved:</p>
            <ul className="list-disc pl-4">
              {errors.map((e) => (
                <li key={e}>{e}</li>
              ))}
            </ul>
          </div>
        ) : null}
      </div>
      <div className="flex justify-end gap-2 border-t border-zinc-200 p-3 dark:border-zinc-800">
        <Button onClick={onCancel}>Cancel</Button>
        <Button type="submit" variant="primary">
          Save test
        </Button>
      </div>
    </form>
  );
}

const check = 'h-4 w-4 accent-indigo-600';
const small = inputClass('h-7 w-full text-xs');

function TurnEditor({
  index,
  turn,
  decisionsId,
  onChange,
}: {
  index: number;
  turn: TurnDraft;
  decisionsId: string;
  onChange: (patch: (t: TurnDraft) => TurnDraft) => void;
}) {
  const n = index + 1;
  return (
    <fieldset className="rounded border border-zinc-200 p-2 dark:border-zinc-800">
      <legend className="px-1 text-xs font-medium">
        Turn {n}: “{turn.say.length > 80 ? `${turn.say.slice(0, 79)}…` : turn.say}”
      </legend>
      <div className="grid grid-cols-[auto_1fr] items-center gap-x-2 gap-y-1 text-xs">
        <label htmlFor={`turn-${n}-decision`}>Decision</label>
        <input
          id={`turn-${n}-decision`}
          className={small}
          list={decisionsId}
          value={turn.decision}
          onChange={(e) => onChange((t) => ({ ...t, decision: e.target.value }))}
        />
        {turn.rules.map((r, j) => (
          <Row
            key={r.id}
            checked={r.checked}
            label={`Rule ${r.id}${r.deciding ? ' (decided the turn)' : ''}`}
            valueLabel={`Result of rule ${r.id} in turn ${n}`}
            value={r.result}
            onCheck={(on) =>
              onChange((t) => ({ ...t, rules: t.rules.map((x, k) => (k === j ? { ...x, checked: on } : x)) }))
            }
            onValue={(v) =>
              onChange((t) => ({ ...t, rules: t.rules.map((x, k) => (k === j ? { ...x, result: v } : x)) }))
            }
            checkLabel={`Expect rule ${r.id} in turn ${n}`}
          />
        ))}
        {turn.moreRules ? (
          <p className="col-span-2 text-zinc-500">{turn.moreRules} more rules evaluated, not listed.</p>
        ) : null}
        <Row
          checked={turn.tools.checked}
          label="Tools invoked (exactly; comma-separated, empty = none)"
          valueLabel={`Tools invoked in turn ${n}`}
          checkLabel={`Expect the tools invoked in turn ${n}`}
          value={turn.tools.text}
          onCheck={(on) => onChange((t) => ({ ...t, tools: { ...t.tools, checked: on } }))}
          onValue={(v) => onChange((t) => ({ ...t, tools: { ...t.tools, text: v } }))}
        />
        {turn.parameters.map((p, j) => (
          <Row
            key={p.code}
            checked={p.checked}
            label={`Parameter ${p.code} (JSON)`}
            valueLabel={`Value of parameter ${p.code} in turn ${n}`}
            checkLabel={`Expect parameter ${p.code} in turn ${n}`}
            value={p.value}
            onCheck={(on) =>
              onChange((t) => ({
                ...t,
                parameters: t.parameters.map((x, k) => (k === j ? { ...x, checked: on } : x)),
              }))
            }
            onValue={(v) =>
              onChange((t) => ({
                ...t,
                parameters: t.parameters.map((x, k) => (k === j ? { ...x, value: v } : x)),
              }))
            }
          />
        ))}
        {turn.moreParameters ? (
          <p className="col-span-2 text-zinc-500">{turn.moreParameters} more parameters held, not listed.</p>
        ) : null}
        <Row
          checked={turn.reply.checked}
          label="Reply contains"
          valueLabel={`Text the reply of turn ${n} contains`}
          checkLabel={`Expect the reply of turn ${n} to contain a text`}
          value={turn.reply.text}
          onCheck={(on) => onChange((t) => ({ ...t, reply: { ...t.reply, checked: on } }))}
          onValue={(v) => onChange((t) => ({ ...t, reply: { ...t.reply, text: v } }))}
        />
      </div>
    </fieldset>
  );
}

function Row({
  checked,
  label,
  checkLabel,
  valueLabel,
  value,
  onCheck,
  onValue,
}: {
  checked: boolean;
  label: string;
  checkLabel: string;
  valueLabel: string;
  value: string;
  onCheck: (on: boolean) => void;
  onValue: (v: string) => void;
}) {
  return (
    <>
      <label className="flex items-center gap-1.5">
        <input
          type="checkbox"
          className={check}
          checked={checked}
          onChange={(e) => onCheck(e.target.checked)}
          aria-label={checkLabel}
        />
        <span>{label}</span>
      </label>
      <input
        className={small}
        aria-label={valueLabel}
        value={value}
        disabled={!checked}
        onChange={(e) => onValue(e.target.value)}
      />
    </>
  );
}
