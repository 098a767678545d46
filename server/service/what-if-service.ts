/**
 * What if (`POST /reference/v1/what-if`): a stored turn decided again by the engine, in the worker
 * pool, from the state it started from, with the bundle and clock it ran with and some values
 * changed (the understanding held fixed); on request, the smallest single changes that give the
 * turn another decision (why not). Nothing is stored: the answer is not a turn of the
 * conversation. The answer is made in the worker as JSON text.
 */
import type { Bundle } from '../../src/contract/bundle';
import type { WhatIfRequest } from '../../src/contract/what-if';
import type { ApiKey } from '../auth/api-keys';
import { keyAllowsAgent } from '../auth/api-keys';
import type { Store } from '../store/store';
import { overWorkBudget, shareOf, workOf, type EngineWork } from '../work/engine-work';
import { createBundleCache } from './bundle-cache';
import type { MessagingDependencies } from './dependencies';
import { AccessDeniedError, InvalidInputError, NotFoundError } from './errors';

export class WhatIfService {
  private readonly work: EngineWork;
  /** Bundles sent with turns, parsed once by hash, so the engine reuses what it compiled for them. */
  private readonly kept = createBundleCache(8);

  constructor(
    private readonly store: Store,
    private readonly dependencies: Pick<MessagingDependencies, 'agents' | 'work' | 'engine' | 'bundles'>,
  ) {
    this.work = workOf(dependencies);
  }

  /** The answer's JSON text (`WhatIfResponse`). */
  async answer(key: ApiKey, body: WhatIfRequest): Promise<string> {
    const task = await this.store.getTask(body.task_id);
    if (!task) throw new NotFoundError(`Task not found: ${body.task_id}`);
    if (!keyAllowsAgent(key, task.agentId)) throw new AccessDeniedError(task.agentId);
    // A busy pool is said before the turn (its trace, up to 8 MB) is read.
    const share = shareOf(key, task.agentId);
    await this.work.checkRoom(share);
    const [turn, fork] = await Promise.all([
      this.store.getTurn(body.task_id, body.interaction_id),
      this.store.forkPoint(body.task_id, body.interaction_id),
    ]);
    if (!turn || !fork)
      throw new NotFoundError(`Interaction not found in task ${body.task_id}: ${body.interaction_id}`);
    const bundle = await this.turnBundle(task.agentId, turn);
    let answer;
    try {
      // In the worker pool, as a send's turn: busy, too slow or crashed is a 503 with Retry-After.
      answer = await this.work.whatIf(
        bundle,
        {
          taskId: body.task_id,
          interactionId: body.interaction_id,
          bundleSource: { agent_id: task.agentId, version_id: turn.versionId, bundle_hash: turn.bundleHash },
          stateBefore: fork.stateBefore,
          clock: task.clock,
          userId: task.userId,
          recorded: { trace: turn.trace, reply: turn.reply.text },
          edits: body.edits,
          whyNot: body.why_not ?? false,
          includeEngineInput: body.include_engine_input ?? false,
        },
        share,
      );
    } catch (e) {
      if (overWorkBudget(e)) throw InvalidInputError.at(['task_id'], e.message, 'bundle_too_complex');
      throw e;
    }
    if ('refused' in answer) throw InvalidInputError.at(answer.refused.path, answer.refused.message);
    return answer.json;
  }

  /** The bundle the turn ran with: the one sent with it (kept by hash), else its agent version's. */
  private async turnBundle(
    agentId: string,
    turn: { bundleHash: string | null; versionId: string },
  ): Promise<Bundle> {
    const hash = turn.bundleHash;
    if (hash) {
      const kept = (await this.store.getBundles(hash)).find((b) => b.agentId === agentId);
      if (!kept)
        throw InvalidInputError.at(
          ['interaction_id'],
          `The bundle this turn ran with is no longer kept: ${hash}`,
        );
      const checked = await this.kept.lookup(`${agentId}\u0000${hash}`, () =>
        Promise.resolve({ bundle: JSON.parse(kept.content) as Bundle, issues: [] }),
      );
      return checked.bundle;
    }
    const { agents } = this.dependencies;
    const agent = agents.get(agentId);
    const version = agent && agents.resolve(agent, { version_id: turn.versionId });
    if (!version)
      throw InvalidInputError.at(
        ['interaction_id'],
        `The agent version this turn ran with is no longer available: ${turn.versionId}`,
      );
    return version.bundle;
  }
}
