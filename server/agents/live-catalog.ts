/**
 * Every agent the service knows, in one catalog: the example agents (or the catalog a test
 * passes), the agents of the folders given with `--agents` (re-read by `reloadFolders`), and the
 * agents created through the API (kept in the store). Reads are synchronous, from memory; `sync`
 * brings the created agents up to date with the store when its revision changed, so an agent
 * created or published by another instance sharing the database is seen within a second.
 * An id belongs to the first of: examples, created agents, folder agents.
 */
import type { Bundle } from '../../src/contract/bundle';
import type { AgentCatalog, VersionPin } from '../service/dependencies';
import type { AgentStore, StoredAgent } from '../store/store';
import { loadAgentFolders, type ReportedProblem } from './folders';
import { resolveVersion, type AgentRecord } from './registry';

/** How long a read of the store's agents revision is trusted (another instance may write meanwhile). */
const SYNC_INTERVAL_MS = 1000;

function createdRecord(stored: StoredAgent): AgentRecord {
  const versions = stored.versions.map((v) => ({
    id: v.id,
    tag: v.tag,
    description: v.note,
    bundle: JSON.parse(v.bundle) as Bundle,
    createdAt: v.createdAt,
  }));
  const active = versions.find((v) => v.id === stored.activeVersion);
  const settings = active?.bundle.general_settings;
  return {
    id: stored.id,
    name: (typeof settings?.name === 'string' && settings.name.trim()) || stored.id,
    description: typeof settings?.objective === 'string' ? settings.objective : '',
    active_version: stored.activeVersion,
    versions,
    source: 'created',
  };
}

export class LiveAgentCatalog implements AgentCatalog {
  private folderAgents: AgentRecord[] = [];
  private folderProblems: ReportedProblem[] = [];
  private created: AgentRecord[] = [];
  private byId = new Map<string, AgentRecord>();
  private revision = -1;
  private checkedAt = -Infinity;
  private syncing: Promise<void> | undefined;

  constructor(
    private readonly base: AgentCatalog,
    private readonly folders: readonly string[],
    private readonly store: AgentStore | undefined,
    private readonly now: () => number = () => Date.now(),
  ) {
    this.reloadFolders();
  }

  list(): readonly AgentRecord[] {
    return [...this.byId.values()];
  }

  get(agentId: string): AgentRecord | undefined {
    return this.byId.get(agentId);
  }

  resolve(agent: AgentRecord, pin: VersionPin): AgentRecord['versions'][number] | undefined {
    return resolveVersion(agent, pin);
  }

  /** Where an agent comes from; undefined when unknown. */
  sourceOf(agentId: string): AgentRecord['source'] | undefined {
    const agent = this.byId.get(agentId);
    return agent && (agent.source ?? 'example');
  }

  /** The projects of the folders that were skipped at the last (re)load, and why. */
  problems(): readonly ReportedProblem[] {
    return this.folderProblems;
  }

  /** Re-reads the folders; stored tasks keep their agent and version ids. */
  reloadFolders(): { agents: AgentRecord[]; problems: ReportedProblem[] } {
    const taken = new Set([...this.base.list().map((a) => a.id), ...this.created.map((a) => a.id)]);
    const loaded = loadAgentFolders(this.folders, taken);
    this.folderAgents = loaded.agents.map((a) => ({ ...a, source: 'folder' as const }));
    this.folderProblems = loaded.problems;
    this.rebuild();
    return { agents: this.folderAgents, problems: this.folderProblems };
  }

  /** Brings the created agents up to date (at most once a second unless `force`). */
  async sync(force = false): Promise<void> {
    if (!this.store) return;
    if (!force && this.now() - this.checkedAt < SYNC_INTERVAL_MS) return;
    // One read at a time; callers meanwhile wait for it.
    this.syncing ??= this.readStore().finally(() => (this.syncing = undefined));
    await this.syncing;
  }

  private async readStore(): Promise<void> {
    const store = this.store!;
    const revision = await store.agentsRevision();
    this.checkedAt = this.now();
    if (revision === this.revision) return;
    const stored = await store.listStoredAgents();
    this.created = stored.map(createdRecord);
    this.revision = revision;
    this.rebuild();
  }

  private rebuild(): void {
    const byId = new Map<string, AgentRecord>();
    for (const a of [...this.base.list(), ...this.created, ...this.folderAgents])
      if (!byId.has(a.id)) byId.set(a.id, a);
    this.byId = byId;
  }
}
