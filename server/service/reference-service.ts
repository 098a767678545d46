/**
 * The reference-only helpers over the example agents and the bundle tools: the agents a key may
 * use, a version's bundle (the editor's baseline), validation without running, the bundle schema.
 */
import type { z } from 'zod';
import type { AgentBundleResponse, AgentList, ValidateResponse } from '../../src/contract/api';
import type { ApiKey } from '../auth/api-keys';
import { keyAllowsAgent } from '../auth/api-keys';
import { AccessDeniedError, NotFoundError } from './errors';
import { shareOf, type EngineWork } from '../work/engine-work';
import type { AgentCatalog, AgentRecord, BundleTools } from './dependencies';

type Answer<T extends z.ZodType> = z.infer<T>;

export interface VersionQuery {
  version?: string | undefined;
  version_id?: string | undefined;
  version_tag?: string | undefined;
}

/** `version_id` by id, `version_tag` by tag, `version` by either; none → the active version. */
function findVersion(agent: AgentRecord, query: VersionQuery) {
  if (query.version_id !== undefined) return agent.versions.find((v) => v.id === query.version_id);
  if (query.version_tag !== undefined) return agent.versions.find((v) => v.tag === query.version_tag);
  const { version } = query;
  if (version === undefined) return agent.versions.find((v) => v.id === agent.active_version);
  return agent.versions.find((v) => v.id === version) ?? agent.versions.find((v) => v.tag === version);
}

export class ReferenceService {
  constructor(
    private readonly agents: AgentCatalog,
    private readonly bundles: Pick<BundleTools, 'jsonSchema'>,
    private readonly work: Pick<EngineWork, 'validate'>,
  ) {}

  /** The example agents this key may use, with their versions. */
  listAgents(key: ApiKey): Answer<typeof AgentList> {
    const visible = this.agents.list().filter((a) => keyAllowsAgent(key, a.id));
    return {
      agents: visible.map((a) => ({
        id: a.id,
        name: a.name,
        description: a.description,
        active_version: a.active_version,
        versions: a.versions.map((v) => ({ id: v.id, tag: v.tag, description: v.description })),
        source: a.source ?? 'example',
      })),
    };
  }

  /** A version's bundle: the one the query names, the active one by default. */
  agentBundle(key: ApiKey, agentId: string, query: VersionQuery): Answer<typeof AgentBundleResponse> {
    if (!keyAllowsAgent(key, agentId)) throw new AccessDeniedError(agentId);
    const agent = this.agents.get(agentId);
    if (!agent) throw new NotFoundError(`Agent not found: ${agentId}`);
    const found = findVersion(agent, query);
    const asked = query.version_id ?? query.version_tag ?? query.version ?? agent.active_version;
    if (!found) throw new NotFoundError(`Version not found for agent ${agentId}: ${asked}`);
    return { agent_id: agentId, version_id: found.id, version_tag: found.tag, bundle: found.bundle };
  }

  /** A bundle's issues, without running it; `valid` is false when any issue is an error. */
  async validate(key: ApiKey, bundle: unknown): Promise<Answer<typeof ValidateResponse>> {
    const issues = await this.work.validate(bundle, shareOf(key));
    return { valid: !issues.some((i) => i.severity === 'error'), issues };
  }

  bundleSchema(): Record<string, unknown> {
    return this.bundles.jsonSchema() as Record<string, unknown>;
  }
}
