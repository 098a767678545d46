/**
 * Agents as a user manages them (reference only): create one from a bundle, read it, edit its
 * server-side draft, publish the draft (or a bundle) as an immutable version, make a version the
 * active one, delete an agent no thread uses, and re-read the agent folders. Only agents created
 * through the API change here; an example or folder agent changes with its files.
 */
import type { z } from 'zod';
import type {
  AgentDetail,
  AgentLoadProblem,
  CreateAgentRequest,
  DraftResponse,
  PublishRequest,
} from '../../src/contract/agents';
import type { ApiKey } from '../auth/api-keys';
import { keyAllowsAgent } from '../auth/api-keys';
import { AGENT_ID_PATTERN } from '../agents/registry';
import type { LiveAgentCatalog } from '../agents/live-catalog';
import type { AgentStore, StoredAgentVersion } from '../store/store';
import type { AgentRecord, MessagingDependencies } from './dependencies';
import { AccessDeniedError, ConflictError, InvalidInputError, NotFoundError } from './errors';
import { shareOf, workOf, type WorkShare } from '../work/engine-work';

/** At most this many agents are created, and this many versions published per agent (bounded storage and reads). */
const MAX_CREATED_AGENTS = 500;
const MAX_VERSIONS_PER_AGENT = 200;

type Bundle = Record<string, unknown>;

/** An agent id made from a name: lower case, words joined by "-", at most 60 characters. */
function agentIdFromName(name: unknown): string {
  const slug = (typeof name === 'string' ? name : '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
    .replace(/-+$/, '');
  return slug || 'my-agent';
}

export class AgentsService {
  constructor(
    private readonly store: AgentStore,
    private readonly catalog: LiveAgentCatalog,
    private readonly deps: Pick<MessagingDependencies, 'bundles' | 'engine' | 'clock' | 'work'>,
  ) {}

  private async validated(bundle: Bundle, path: (string | number)[], share: WorkShare): Promise<void> {
    const issues = await workOf(this.deps).validate(bundle, share);
    if (issues.some((i) => i.severity === 'error')) throw InvalidInputError.bundle(issues, path);
  }

  private detail(agent: AgentRecord): AgentDetail {
    const active = this.catalog.resolve(agent, {});
    const welcome = active
      ? this.deps.engine.welcome(active.bundle, this.deps.clock.now().toISOString())
      : undefined;
    return {
      id: agent.id,
      name: agent.name,
      description: agent.description,
      source: agent.source ?? 'example',
      active_version: agent.active_version,
      versions: agent.versions.map((v) => ({
        id: v.id,
        tag: v.tag,
        description: v.description,
        created_at: v.createdAt ?? null,
      })),
      welcome_message: welcome?.welcome_message ?? null,
      suggestions: welcome?.suggestions ?? [],
    };
  }

  /** The agent the key may use; 403 before 404, as everywhere else. */
  private async visible(key: ApiKey, agentId: string): Promise<AgentRecord> {
    if (!keyAllowsAgent(key, agentId)) throw new AccessDeniedError(agentId);
    await this.catalog.sync(true);
    const agent = this.catalog.get(agentId);
    if (!agent) throw new NotFoundError(`Agent not found: ${agentId}`);
    return agent;
  }

  /** A created agent the key may use; an example or folder agent is refused with what to do instead. */
  private async editable(key: ApiKey, agentId: string): Promise<AgentRecord> {
    const agent = await this.visible(key, agentId);
    if (agent.source === 'created') return agent;
    const where =
      agent.source === 'folder'
        ? 'is loaded from a project folder: edit its files and reload the folders (POST /reference/v1/agents/reload)'
        : 'ships with Threadline and cannot be changed here: create your own agent from its bundle instead';
    throw new ConflictError(`Agent ${agentId} ${where}.`);
  }

  private async after(agentId: string): Promise<AgentDetail> {
    await this.catalog.sync(true);
    const agent = this.catalog.get(agentId);
    if (!agent) throw new NotFoundError(`Agent not found: ${agentId}`);
    return this.detail(agent);
  }

  /** The id is the request's, else the bundle's `general_settings.id` (as a project's agent.aui.json may name it), else made from its name. */
  async create(key: ApiKey, req: z.infer<typeof CreateAgentRequest>): Promise<AgentDetail> {
    const settings = req.bundle.general_settings as { id?: unknown; name?: unknown } | undefined;
    const named =
      typeof settings?.id === 'string' && AGENT_ID_PATTERN.test(settings.id) ? settings.id : undefined;
    const id = req.id ?? named ?? agentIdFromName(settings?.name);
    if (!keyAllowsAgent(key, id)) throw new AccessDeniedError(id);
    await this.validated(req.bundle, ['bundle'], shareOf(key, id));
    await this.catalog.sync(true);
    if (this.catalog.get(id))
      throw new ConflictError(`An agent with the id ${id} already exists; choose another id.`);
    if (this.catalog.list().filter((a) => a.source === 'created').length >= MAX_CREATED_AGENTS)
      throw new ConflictError(`This service keeps at most ${MAX_CREATED_AGENTS} agents; delete one first.`);
    const now = this.deps.clock.now().toISOString();
    const content = JSON.stringify(req.bundle);
    const first: StoredAgentVersion = {
      id: 'v1',
      tag: req.tag ?? 'v1',
      note: req.note ?? 'First version',
      bundle: content,
      createdAt: now,
    };
    const created = await this.store.createAgent({ id, createdAt: now }, first, { content, updatedAt: now });
    if (!created) throw new ConflictError(`An agent with the id ${id} already exists; choose another id.`);
    return this.after(id);
  }

  async get(key: ApiKey, agentId: string): Promise<AgentDetail> {
    return this.detail(await this.visible(key, agentId));
  }

  async getDraft(key: ApiKey, agentId: string): Promise<z.infer<typeof DraftResponse>> {
    await this.editable(key, agentId);
    const draft = await this.store.getAgentDraft(agentId);
    if (!draft) throw new NotFoundError(`Agent not found: ${agentId}`);
    return { agent_id: agentId, bundle: JSON.parse(draft.content) as Bundle, updated_at: draft.updatedAt };
  }

  /** Keeps the draft as sent (it may not validate yet: it is work in progress). */
  async putDraft(key: ApiKey, agentId: string, bundle: Bundle): Promise<z.infer<typeof DraftResponse>> {
    await this.editable(key, agentId);
    const updatedAt = this.deps.clock.now().toISOString();
    if (!(await this.store.putAgentDraft(agentId, { content: JSON.stringify(bundle), updatedAt })))
      throw new NotFoundError(`Agent not found: ${agentId}`);
    return { agent_id: agentId, bundle, updated_at: updatedAt };
  }

  async publish(key: ApiKey, agentId: string, req: z.infer<typeof PublishRequest>): Promise<AgentDetail> {
    const agent = await this.editable(key, agentId);
    if (agent.versions.length >= MAX_VERSIONS_PER_AGENT)
      throw new ConflictError(
        `Agent ${agentId} has ${MAX_VERSIONS_PER_AGENT} versions, the most kept per agent.`,
      );
    let bundle = req.bundle;
    if (!bundle) {
      const draft = await this.store.getAgentDraft(agentId);
      if (!draft) throw new NotFoundError(`Agent not found: ${agentId}`);
      bundle = JSON.parse(draft.content) as Bundle;
    }
    await this.validated(bundle, req.bundle ? ['bundle'] : ['draft'], shareOf(key, agentId));
    const now = this.deps.clock.now().toISOString();
    const n = agent.versions.length + 1;
    const content = JSON.stringify(bundle);
    const version: StoredAgentVersion = {
      id: `v${n}`,
      tag: req.tag ?? `v${n}`,
      note: req.note ?? '',
      bundle: content,
      createdAt: now,
    };
    const added = await this.store.addAgentVersion(agentId, version);
    if (added === 'no-agent') throw new NotFoundError(`Agent not found: ${agentId}`);
    if (added === 'taken')
      throw new ConflictError(
        `Agent ${agentId} already has a version ${version.id} or tagged ${version.tag}: published versions never change; choose another tag.`,
      );
    if (req.bundle) await this.store.putAgentDraft(agentId, { content, updatedAt: now });
    if (req.activate) await this.store.setActiveAgentVersion(agentId, version.id);
    return this.after(agentId);
  }

  async activate(key: ApiKey, agentId: string, versionRef: string): Promise<AgentDetail> {
    const agent = await this.editable(key, agentId);
    const version =
      agent.versions.find((v) => v.id === versionRef) ?? agent.versions.find((v) => v.tag === versionRef);
    if (!version)
      throw InvalidInputError.at(
        ['version'],
        `Unknown version for agent ${agentId}: ${versionRef}`,
        'unknown_version',
      );
    if (!(await this.store.setActiveAgentVersion(agentId, version.id)))
      throw new NotFoundError(`Agent not found: ${agentId}`);
    return this.after(agentId);
  }

  async remove(key: ApiKey, agentId: string): Promise<void> {
    await this.editable(key, agentId);
    const outcome = await this.store.deleteAgent(agentId);
    if (outcome === 'no-agent') throw new NotFoundError(`Agent not found: ${agentId}`);
    if (outcome === 'has-tasks')
      throw new ConflictError(
        `Agent ${agentId} has threads, so it is kept: its threads and their traces would lose the agent they ran with.`,
      );
    await this.catalog.sync(true);
  }

  /** Problems are about every folder agent: only a key for every agent sees them or reloads. */
  private requireAllAgents(key: ApiKey): void {
    if (key.agents !== '*') throw new AccessDeniedError('* (every agent: reloading and folder problems)');
  }

  reload(key: ApiKey): { agents: string[]; problems: AgentLoadProblem[] } {
    this.requireAllAgents(key);
    const loaded = this.catalog.reloadFolders();
    return { agents: loaded.agents.map((a) => a.id), problems: loaded.problems };
  }

  problems(key: ApiKey): { problems: AgentLoadProblem[] } {
    this.requireAllAgents(key);
    return { problems: [...this.catalog.problems()] };
  }
}
