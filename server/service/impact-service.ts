/**
 * The impact preview (`POST /reference/v1/agents/{agent_id}/impact`): replays saved conversations
 * with the agent's version (the active one unless `version_id` names another) and with a draft
 * bundle, on the engine in the worker pool with each case's clock, and answers the turns whose
 * outcome differs. The draft is validated once per hash; the baseline's runs are remembered
 * (`impact-replay.ts`), so while a user types only the draft runs.
 */
import type { ImpactRequest, ImpactResponse } from '../../src/contract/impact';
import type { ApiKey } from '../auth/api-keys';
import { keyAllowsAgent } from '../auth/api-keys';
import { interactiveWorkers } from '../work/engine-pool';
import { shareOf, workOf, type EngineWork } from '../work/engine-work';
import { createBundleCache } from './bundle-cache';
import type { MessagingDependencies } from './dependencies';
import { AccessDeniedError, InvalidInputError, NotFoundError } from './errors';
import { createRunCache, replayImpact } from './impact-replay';

export class ImpactService {
  private readonly work: EngineWork;
  private readonly drafts = createBundleCache(8);
  private readonly baselineRuns = createRunCache();
  private readonly versionHashes = new WeakMap<object, string>();

  constructor(
    private readonly dependencies: Pick<MessagingDependencies, 'agents' | 'bundles' | 'engine' | 'work'>,
  ) {
    this.work = workOf(dependencies);
  }

  /** The cases replayed with both bundles; the replay stops before its next batch once `signal` aborts. */
  async impact(
    key: ApiKey,
    agentId: string,
    body: ImpactRequest,
    signal: AbortSignal,
  ): Promise<ImpactResponse> {
    const { agents, bundles } = this.dependencies;
    if (!keyAllowsAgent(key, agentId)) throw new AccessDeniedError(agentId);
    const agent = agents.get(agentId);
    if (!agent) throw new NotFoundError(`Agent not found: ${agentId}`);
    const version = agents.resolve(agent, { version_id: body.version_id });
    if (!version)
      throw new NotFoundError(
        `Version not found for agent ${agentId}: ${body.version_id ?? agent.active_version}`,
      );

    const share = shareOf(key, agentId);
    const draftHash = bundles.hash(body.agent_settings_bundle);
    const draft = await this.drafts.lookup(draftHash, async () => ({
      bundle: body.agent_settings_bundle,
      issues: await this.work.validate(body.agent_settings_bundle, share),
    }));
    if (draft.issues.some((i) => i.severity === 'error'))
      throw InvalidInputError.bundle(draft.issues, ['agent_settings_bundle']);
    let baselineHash = this.versionHashes.get(version.bundle);
    if (baselineHash === undefined)
      this.versionHashes.set(version.bundle, (baselineHash = bundles.hash(version.bundle)));

    const cases = await replayImpact({
      work: this.work,
      share,
      baseline: { bundle: version.bundle, key: `${agentId}\u0000${version.id}\u0000${baselineHash}` },
      draft: draft.bundle,
      cases: body.cases,
      signal,
      cache: this.baselineRuns,
      batchesAtOnce: interactiveWorkers(),
    });
    return {
      agent_id: agentId,
      baseline: { version_id: version.id, version_tag: version.tag, bundle_hash: baselineHash },
      draft: { bundle_hash: draftHash },
      total: cases.length,
      changed: cases.filter((r) => r.status === 'changed').length,
      errors: cases.filter((r) => r.status === 'error').length,
      cases,
    };
  }
}
