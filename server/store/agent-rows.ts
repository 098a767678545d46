/** Rows of the agents tables ⇄ the records of `store.ts`, shared by the SQLite and PostgreSQL stores. */
import type { StoredAgent, StoredAgentVersion } from './store';

export interface AgentRow {
  id: string;
  active_version: string;
  created_at: string;
}

export interface AgentVersionRow {
  agent_id: string;
  id: string;
  tag: string | null;
  note: string;
  bundle: string;
  created_at: string;
}

/** Agents with their versions, from the two tables' rows (versions already in publishing order). */
export function rowsToAgents(agents: AgentRow[], versions: AgentVersionRow[]): StoredAgent[] {
  const byAgent = new Map<string, StoredAgentVersion[]>();
  for (const v of versions) {
    const list = byAgent.get(v.agent_id) ?? [];
    list.push({ id: v.id, tag: v.tag, note: v.note, bundle: v.bundle, createdAt: v.created_at });
    byAgent.set(v.agent_id, list);
  }
  return agents.map((a) => ({
    id: a.id,
    activeVersion: a.active_version,
    createdAt: a.created_at,
    versions: byAgent.get(a.id) ?? [],
  }));
}
