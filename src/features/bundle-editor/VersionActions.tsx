/**
 * *Publish* and *Activate* for an agent created on the reference service, in the Bundle tab. Publish
 * stores the editor's draft as a new version that never changes (tag, note, optionally made
 * active); Activate makes another version the one new threads run with. Each shows what changes
 * before it is done: the decisions that change (the engine's semantic diff, in a worker) and the
 * text diff against the active version. Threads keep the version they pinned.
 */
import { useState } from 'react';
import { useActivateVersion, usePublishVersion } from '../../api/agent-admin';
import { useAgentBundle } from '../../api/agent-bundle';
import type { AgentIn } from '../../api/agents';
import { toApiError } from '../../api/errors';
import { Button } from '../../components/ui/Button';
import { ErrorCallout } from '../../components/ui/ErrorCallout';
import { inputClass } from '../../components/ui/Field';
import { bundleText } from '../../domain/bundles/analysis';
import { LazyBundleDiff } from '../../components/monaco/LazyBundleDiff';
import { LazyEditChanges } from './lazy-views';
import type { OpenWitnessThread } from './witness-thread';

export interface VersionActionsProps {
  agent: AgentIn;
  /** The editor's text (the draft, or the active version's bundle when not edited). */
  text: string;
  /** The active version's bundle text. */
  activeText: string | null;
  /** Whether the text is a bundle that validates (publishing anything else is refused). */
  valid: boolean;
  onDone: (message: string) => void;
  onOpenAsThread?: OpenWitnessThread | undefined;
}

const field = 'flex flex-col gap-1 text-xs font-medium text-zinc-600 dark:text-zinc-300';

function Diff({ original, modified, label }: { original: string; modified: string; label: string }) {
  if (original === modified)
    return <p className="text-xs text-zinc-500">No difference with the active version.</p>;
  return (
    <div className="h-64 overflow-hidden rounded border border-zinc-200 dark:border-zinc-700">
      <LazyBundleDiff original={original} modified={modified} id={label} label={label} />
    </div>
  );
}

export function VersionActions({
  agent,
  text,
  activeText,
  valid,
  onDone,
  onOpenAsThread,
}: VersionActionsProps) {
  const [open, setOpen] = useState<'publish' | 'activate' | null>(null);
  const next = `v${agent.versions.length + 1}`;
  const [tag, setTag] = useState('');
  const [note, setNote] = useState('');
  const [activate, setActivate] = useState(false);
  const others = agent.versions.filter((v) => v.id !== agent.active_version);
  const [chosen, setChosen] = useState('');
  const target = chosen || others[0]?.id || '';
  const targetBundle = useAgentBundle(open === 'activate' && target ? agent.id : undefined, target);
  const publish = usePublishVersion();
  const activateVersion = useActivateVersion();

  const onPublish = () => {
    let bundle: Record<string, unknown>;
    try {
      bundle = JSON.parse(text) as Record<string, unknown>;
    } catch {
      return;
    }
    publish.mutate(
      { agentId: agent.id, bundle, tag: tag.trim(), note: note.trim(), activate },
      {
        onSuccess: (a) => {
          const added = a.versions[a.versions.length - 1];
          setOpen(null);
          setTag('');
          setNote('');
          onDone(
            `Published ${added?.tag ?? added?.id ?? 'a version'}${activate ? ' and made it active' : ''}.`,
          );
        },
      },
    );
  };

  const onActivate = () =>
    activateVersion.mutate(
      { agentId: agent.id, version: target },
      {
        onSuccess: (a) => {
          setOpen(null);
          const v = a.versions.find((x) => x.id === a.active_version);
          onDone(`${v?.tag ?? a.active_version} is now the active version: new threads run it.`);
        },
      },
    );

  return (
    <>
      <Button
        size="sm"
        variant="ghost"
        aria-pressed={open === 'publish'}
        onClick={() => setOpen(open === 'publish' ? null : 'publish')}
      >
        Publish…
      </Button>
      <Button
        size="sm"
        variant="ghost"
        aria-pressed={open === 'activate'}
        disabled={others.length === 0}
        onClick={() => setOpen(open === 'activate' ? null : 'activate')}
      >
        Activate…
      </Button>
      {open === 'publish' ? (
        <div
          role="group"
          aria-label="Publish a version"
          className="flex w-full flex-col gap-2 border-t border-zinc-200 pt-2 dark:border-zinc-800"
        >
          <p className="text-xs text-zinc-600 dark:text-zinc-400">
            Publishing stores this draft as version {next} of {agent.name || agent.id}; a published version
            never changes. What it changes against the active version ({agent.active_version}):
          </p>
          <LazyEditChanges
            agentId={agent.id}
            baseText={activeText}
            headText={text}
            headValid={valid}
            label="Publish: what this edit changes"
            onOpenAsThread={onOpenAsThread}
          />
          <Diff
            original={activeText ?? '{}'}
            modified={text}
            label="Publish: the draft against the active version"
          />
          <div className="flex flex-wrap items-end gap-2">
            <label className={field}>
              Tag
              <input
                className={inputClass('w-32')}
                value={tag}
                placeholder={next}
                onChange={(e) => setTag(e.target.value)}
              />
            </label>
            <label className={`${field} flex-1`}>
              Note
              <input
                className={inputClass()}
                value={note}
                placeholder="what changed"
                onChange={(e) => setNote(e.target.value)}
              />
            </label>
            <label className="flex items-center gap-1 text-xs text-zinc-600 dark:text-zinc-300">
              <input type="checkbox" checked={activate} onChange={(e) => setActivate(e.target.checked)} />
              Make it active
            </label>
            <Button size="sm" variant="primary" disabled={!valid || publish.isPending} onClick={onPublish}>
              {publish.isPending ? 'Publishing…' : `Publish ${tag.trim() || next}`}
            </Button>
          </div>
          {!valid ? (
            <p className="text-xs text-red-700 dark:text-red-300">Fix the errors before publishing.</p>
          ) : null}
          {publish.error ? <ErrorCallout error={toApiError(publish.error)} /> : null}
        </div>
      ) : null}
      {open === 'activate' ? (
        <div
          role="group"
          aria-label="Activate a version"
          className="flex w-full flex-col gap-2 border-t border-zinc-200 pt-2 dark:border-zinc-800"
        >
          <div className="flex flex-wrap items-end gap-2">
            <label className={field}>
              Version
              <select
                className={inputClass('w-auto')}
                value={target}
                onChange={(e) => setChosen(e.target.value)}
              >
                {others.map((v) => (
                  <option key={v.id} value={v.id}>
                    {v.tag ? `${v.tag} · ` : ''}
                    {v.id}
                    {v.description ? ` · ${v.description}` : ''}
                  </option>
                ))}
              </select>
            </label>
            <Button
              size="sm"
              variant="primary"
              disabled={!target || activateVersion.isPending}
              onClick={onActivate}
            >
              {activateVersion.isPending ? 'Activating…' : 'Activate'}
            </Button>
          </div>
          <p className="text-xs text-zinc-600 dark:text-zinc-400">
            New threads will run this version instead of {agent.active_version}; threads already started keep
            theirs. What changes:
          </p>
          {targetBundle.data ? (
            <LazyEditChanges
              agentId={agent.id}
              baseText={activeText}
              headText={bundleText(targetBundle.data.bundle)}
              headValid
              label="Activate: what this edit changes"
              onOpenAsThread={onOpenAsThread}
            />
          ) : null}
          {targetBundle.data ? (
            <Diff
              original={activeText ?? '{}'}
              modified={bundleText(targetBundle.data.bundle)}
              label="Activate: the version against the active one"
            />
          ) : null}
          {activateVersion.error ? <ErrorCallout error={toApiError(activateVersion.error)} /> : null}
        </div>
      ) : null}
    </>
  );
}
