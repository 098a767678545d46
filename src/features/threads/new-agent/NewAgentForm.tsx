/**
 * *New agent* (reference service): a bundle pasted, a bundle file, a project folder or the starter
 * template becomes an agent of the service, kept in its database. Its name, welcome message and
 * starter suggestions come from the bundle's general settings. Also shows the agent folders'
 * skipped projects and reloads the folders.
 */
import { useRef, useState } from 'react';
import {
  useAgentFolderProblems,
  useCreateAgent,
  useReloadAgentFolders,
  type AgentFolderProblem,
} from '../../../api/agent-admin';
import { toApiError } from '../../../api/errors';
import { Button } from '../../../components/ui/Button';
import { ErrorCallout } from '../../../components/ui/ErrorCallout';
import { inputClass } from '../../../components/ui/Field';
import { plural } from '../../../lib/format';
import { importFiles } from '../../../domain/bundles/import-files';
import { readFileList } from '../../../domain/bundles/read-files';
import { starterTemplateText } from './starter-template';

export interface NewAgentFormProps {
  /** Called with the new agent's id once the service has it. */
  onCreated: (agentId: string) => void;
  onCancel?: () => void;
}

const label = 'flex flex-col gap-1 text-xs font-medium text-zinc-600 dark:text-zinc-300';

export function NewAgentForm({ onCreated, onCancel }: NewAgentFormProps) {
  const [text, setText] = useState('');
  const [id, setId] = useState('');
  const [note, setNote] = useState<string | null>(null);
  const [parseError, setParseError] = useState<string | null>(null);
  const create = useCreateAgent();
  const reload = useReloadAgentFolders();
  const problems = useAgentFolderProblems(true);
  const folderInput = useRef<HTMLInputElement | null>(null);
  const fileInput = useRef<HTMLInputElement | null>(null);

  const onPicked = async (list: FileList | null) => {
    if (!list || list.length === 0) return;
    const result = importFiles(await readFileList(list));
    if (!result.ok) {
      setParseError(result.message);
      return;
    }
    setParseError(null);
    setText(result.text);
    setNote(
      result.kind === 'project'
        ? `Read the project (${plural(result.fileCount, 'file')}).`
        : 'Read the bundle file.',
    );
  };

  const submit = () => {
    let bundle: unknown;
    try {
      bundle = JSON.parse(text);
    } catch (e) {
      setParseError(`The bundle is not valid JSON: ${e instanceof Error ? e.message : String(e)}`);
      return;
    }
    if (!bundle || typeof bundle !== 'object' || Array.isArray(bundle)) {
      setParseError('The bundle must be a JSON object.');
      return;
    }
    setParseError(null);
    create.mutate(
      { ...(id.trim() ? { id: id.trim() } : {}), bundle: bundle as Record<string, unknown> },
      { onSuccess: (agent) => onCreated(agent.id) },
    );
  };

  const folderProblems = problems.data ?? [];
  return (
    <form
      aria-label="New agent"
      className="flex flex-col gap-3"
      onSubmit={(e) => {
        e.preventDefault();
        if (text.trim() && !create.isPending) submit();
      }}
    >
      <p className="text-xs text-zinc-600 dark:text-zinc-400">
        Paste a bundle, read a bundle file or an agent project folder, or start from the template. The service
        keeps the agent; its name, welcome message and starters come from the bundle’s general settings.
      </p>
      <div className="flex flex-wrap gap-1">
        <Button
          size="sm"
          variant="ghost"
          onClick={() => {
            setText(starterTemplateText());
            setNote('The starter template: one tool, one policy rule and one confirmation.');
          }}
        >
          Starter template
        </Button>
        <Button size="sm" variant="ghost" onClick={() => fileInput.current?.click()}>
          Bundle file…
        </Button>
        <Button size="sm" variant="ghost" onClick={() => folderInput.current?.click()}>
          Project folder…
        </Button>
      </div>
      <input
        ref={(el) => {
          folderInput.current = el;
          el?.setAttribute('webkitdirectory', '');
        }}
        type="file"
        multiple
        hidden
        aria-label="New agent's project folder"
        onChange={(e) => {
          void onPicked(e.target.files);
          e.target.value = '';
        }}
      />
      <input
        ref={fileInput}
        type="file"
        accept=".json,application/json"
        hidden
        aria-label="New agent's bundle file"
        onChange={(e) => {
          void onPicked(e.target.files);
          e.target.value = '';
        }}
      />
      <label className={label}>
        Bundle
        <textarea
          className={inputClass('h-40 font-mono text-xs')}
          value={text}
          spellCheck={false}
          placeholder='{"general_settings": {"name": "…", "welcome_message": "…"}, "parameters": [], "agent_tools": []}'
          onChange={(e) => setText(e.target.value)}
        />
      </label>
      {note ? <p className="text-xs text-zinc-500 dark:text-zinc-400">{note}</p> : null}
      <label className={label}>
        Agent id (optional)
        <input
          className={inputClass()}
          value={id}
          placeholder="from the bundle's general_settings (id, else name)"
          onChange={(e) => setId(e.target.value)}
        />
      </label>
      {parseError ? (
        <p role="alert" className="text-xs text-red-700 dark:text-red-300">
          {parseError}
        </p>
      ) : null}
      {create.error ? <ErrorCallout error={toApiError(create.error)} /> : null}
      <div className="flex gap-2">
        <Button type="submit" variant="primary" disabled={!text.trim() || create.isPending}>
          {create.isPending ? 'Creating…' : 'Create agent'}
        </Button>
        {onCancel ? (
          <Button variant="ghost" onClick={onCancel}>
            Cancel
          </Button>
        ) : null}
        <Button
          variant="ghost"
          className="ml-auto"
          onClick={() => reload.mutate()}
          disabled={reload.isPending}
        >
          {reload.isPending ? 'Reloading…' : 'Reload folders'}
        </Button>
      </div>
      {reload.isSuccess ? (
        <p role="status" className="text-xs text-zinc-600 dark:text-zinc-400">
          Folders read again: {reload.data.agents.length ? reload.data.agents.join(', ') : 'no agents'}.
        </p>
      ) : null}
      {reload.error ? <ErrorCallout error={toApiError(reload.error)} /> : null}
      <FolderProblems
        problems={(reload.data?.problems ?? folderProblems).filter((p) => p.severity !== 'warning')}
        title="Agent projects skipped (fix them, then reload the folders):"
        testId="folder-problems"
      />
      <FolderProblems
        problems={(reload.data?.problems ?? folderProblems).filter((p) => p.severity === 'warning')}
        title="Files ignored in loaded agent projects (rename or remove them, then reload the folders):"
        testId="folder-ignored-files"
      />
    </form>
  );
}

/** One list of the folders' problems, under its title; nothing when there is none. */
function FolderProblems({
  problems,
  title,
  testId,
}: {
  problems: readonly AgentFolderProblem[];
  title: string;
  testId: string;
}) {
  if (problems.length === 0) return null;
  return (
    <div data-testid={testId} className="text-xs text-amber-900 dark:text-amber-100">
      <p className="font-medium">{title}</p>
      <ul className="mt-1 list-disc pl-4">
        {problems.map((p, i) => (
          <li key={i}>
            <span className="font-mono">
              {p.project}
              {p.file ? `/${p.file}` : ''}
            </span>
            {p.path ? ` · ${p.path}` : ''}: {p.message}
          </li>
        ))}
      </ul>
    </div>
  );
}
