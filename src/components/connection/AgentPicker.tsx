/**
 * Which agent (and version) to talk to: a picker from the server's agent list when it offers one
 * (the reference service does), else a text field. Controlled: the caller owns the choice.
 */
import { useId, useState } from 'react';
import { useAgents } from '../../api/agents';
import { inputClass } from '../ui/Field';
import { useKeyReady } from '../../domain/connection/use-key-ready';

const OTHER = '__other__';

export interface AgentChoice {
  agentId: string;
  /** '' = the agent's active version. */
  versionId: string;
}

export function AgentPicker({ value, onChange }: { value: AgentChoice; onChange: (v: AgentChoice) => void }) {
  const { agentId, versionId } = value;
  const keyReady = useKeyReady();
  const agents = useAgents(keyReady);
  const [typing, setTyping] = useState(false);
  const id = useId();
  const list = agents.data ?? null;
  const known = list?.find((a) => a.id === agentId);
  const usePicker = list !== null && list.length > 0 && !typing && (known !== undefined || agentId === '');

  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="text-xs font-medium text-zinc-600 dark:text-zinc-300">
        Agent
      </label>
      {usePicker ? (
        <select
          id={id}
          className={inputClass()}
          value={known ? agentId : ''}
          onChange={(e) => {
            if (e.target.value === OTHER) {
              setTyping(true);
              return;
            }
            onChange({ agentId: e.target.value, versionId: '' });
          }}
        >
          {known ? null : <option value="">Choose an agent…</option>}
          {list.map((a) => (
            <option key={a.id} value={a.id}>
              {a.name ? `${a.name} (${a.id})` : a.id}
            </option>
          ))}
          <option value={OTHER}>Other (type an id)…</option>
        </select>
      ) : (
        <input
          id={id}
          className={inputClass()}
          value={agentId}
          placeholder="agent management id"
          onChange={(e) => onChange({ agentId: e.target.value, versionId })}
        />
      )}
      <p className="text-xs text-zinc-500 dark:text-zinc-400">
        {!keyReady
          ? 'Enter the API key to see the agents this server offers.'
          : agents.isFetching
            ? 'Looking for the agent list…'
            : known?.description ||
              (agents.isSuccess && list === null
                ? 'This server does not list its agents: type the agent id.'
                : '')}
      </p>
      {known && known.versions.length > 0 ? (
        <label className="mt-2 flex flex-col gap-1 text-xs font-medium text-zinc-600 dark:text-zinc-300">
          Version
          <select
            className={inputClass()}
            value={versionId}
            onChange={(e) => onChange({ agentId, versionId: e.target.value })}
          >
            <option value="">Active version{known.active_version ? ` (${known.active_version})` : ''}</option>
            {known.versions.map((v) => (
              <option key={v.id} value={v.id}>
                {v.tag ? `${v.tag} · ` : ''}
                {v.id}
                {v.description ? ` · ${v.description}` : ''}
              </option>
            ))}
          </select>
        </label>
      ) : list === null && agentId ? (
        <label className="mt-2 flex flex-col gap-1 text-xs font-medium text-zinc-600 dark:text-zinc-300">
          Version id (optional)
          <input
            className={inputClass()}
            value={versionId}
            placeholder="active version"
            onChange={(e) => onChange({ agentId, versionId: e.target.value })}
          />
        </label>
      ) : null}
    </div>
  );
}
