/**
 * Lint and the semantic diff (`POST /reference/v1/lint`, `POST /reference/v1/diff`): the sides
 * resolved (a bundle sent, validated; or an agent version, by id), the key checked against the
 * agent, the analysis run in the worker pool at the request's clock (now by default), and for a
 * diff asked `recorded_since`, each difference's stored turns counted (`recorded-turns.ts`).
 *
 * Which agent a side belongs to: with `agent_id`, both sides are that agent's (a version is looked
 * up in it, a bundle is taken as its). Without it both sides must be bundles, and two bundles that
 * each name their agent (`general_settings.id`, else `general_settings.name`) must name the same
 * one: a bundle that names none is taken as the other's.
 */
import type { DiffRequest, DiffResponse, LintRequest, LintResponse } from '../../src/contract/analysis';
import type { Bundle } from '../../src/contract/bundle';
import type { ApiKey } from '../auth/api-keys';
import { keyAllowsAgent } from '../auth/api-keys';
import type { Store } from '../store/store';
import { overWorkBudget, shareOf, type EngineWork, type WorkShare } from '../work/engine-work';
import { createBundleCache } from './bundle-cache';
import type { AgentCatalog, BundleTools, Clock } from './dependencies';
import { AccessDeniedError, InvalidInputError, NotFoundError, type InputPath } from './errors';
import { countRecordedTurns } from './recorded-turns';

/** A bundle as a client sent it: validated here before anything reads it. */
type SentBundle = Record<string, unknown>;
type Side = { agent_settings_bundle: SentBundle } | { version_id: string };

/** The requests as the routes read them (`DiffRequest`, `LintRequest`, with bundles not yet validated). */
export type LintInput = Omit<LintRequest, 'agent_settings_bundle'> & { agent_settings_bundle: SentBundle };
export type DiffInput = Omit<DiffRequest, 'base' | 'head'> & { base: Side; head: Side };

interface ResolvedSide {
  bundle: Bundle;
  version_id?: string;
  bundle_hash: string;
}

export interface AnalysisDependencies {
  agents: AgentCatalog;
  bundles: Pick<BundleTools, 'hash'>;
  clock: Clock;
  work: Pick<EngineWork, 'validate' | 'lint' | 'diff'>;
}

/** The agent a bundle says it is: `general_settings.id`, else its name; undefined when it says neither. */
function namedAgent(bundle: Bundle): string | undefined {
  const settings = bundle.general_settings as { id?: unknown; name?: unknown } | undefined;
  // Cut: the name is said back in a refusal.
  if (typeof settings?.id === 'string' && settings.id) return settings.id.slice(0, 200);
  if (typeof settings?.name === 'string' && settings.name) return settings.name.slice(0, 200);
  return undefined;
}

export class AnalysisService {
  /** Bundles sent, by hash with their issues: an editor linting as its user types sends the same ones again. */
  private readonly checked = createBundleCache(8);

  constructor(
    private readonly store: Pick<Store, 'countMatchingTurns'>,
    private readonly deps: AnalysisDependencies,
  ) {}

  /** Any key may lint a bundle it sends: no agent's data is read. */
  async lint(key: ApiKey, request: LintInput): Promise<LintResponse> {
    const share = shareOf(key);
    const bundle = await this.valid(
      request.agent_settings_bundle,
      ['agent_settings_bundle'],
      'agent_settings_bundle',
      share,
    );
    return this.analysed(['agent_settings_bundle'], () =>
      this.deps.work.lint(bundle, this.clockOf(request.clock), share),
    );
  }

  async diff(key: ApiKey, request: DiffInput): Promise<DiffResponse> {
    const agentId = request.agent_id;
    if (agentId !== undefined) {
      if (!keyAllowsAgent(key, agentId)) throw new AccessDeniedError(agentId);
      if (!this.deps.agents.get(agentId)) throw new NotFoundError(`Agent not found: ${agentId}`);
    } else {
      for (const side of ['base', 'head'] as const)
        if ('version_id' in request[side])
          throw InvalidInputError.at(
            ['agent_id'],
            `agent_id is needed: ${side} names a version (${request[side].version_id}), which is looked up in that agent`,
            'missing',
          );
      if (request.recorded_since !== undefined)
        throw InvalidInputError.at(
          ['agent_id'],
          'agent_id is needed: recorded_since counts the turns of that agent',
          'missing',
        );
    }
    const share = shareOf(key, agentId);
    const base = await this.side(request.base, 'base', agentId, share);
    const head = await this.side(request.head, 'head', agentId, share);
    if (agentId === undefined) {
      const [a, b] = [namedAgent(base.bundle), namedAgent(head.bundle)];
      if (a !== undefined && b !== undefined && a !== b)
        throw new InvalidInputError(
          `base and head are bundles of different agents ("${a}" and "${b}"): a diff compares two bundles of one agent (give agent_id to compare them as that agent's)`,
          [
            {
              path: ['head', 'agent_settings_bundle', 'general_settings'],
              message: `names agent "${b}", base names "${a}"`,
              type: 'different_agents',
            },
          ],
        );
    }
    const result = await this.analysed([], () =>
      this.deps.work.diff(base.bundle, head.bundle, this.clockOf(request.clock), share),
    );
    if (agentId !== undefined && request.recorded_since !== undefined)
      await countRecordedTurns(this.store, agentId, request.recorded_since, result);
    const { bundle: _b, ...baseOut } = base;
    const { bundle: _h, ...headOut } = head;
    return { ...result, base: baseOut, head: headOut };
  }

  private clockOf(clock: string | undefined): string {
    return clock ?? this.deps.clock.now().toISOString();
  }

  /** The side's bundle: the one sent (validated), or the agent's version it names. */
  private async side(
    side: Side,
    name: 'base' | 'head',
    agentId: string | undefined,
    share: WorkShare,
  ): Promise<ResolvedSide> {
    if ('agent_settings_bundle' in side) {
      const bundle = await this.valid(
        side.agent_settings_bundle,
        [name, 'agent_settings_bundle'],
        name,
        share,
      );
      return { bundle, bundle_hash: this.deps.bundles.hash(bundle) };
    }
    const agent = agentId === undefined ? undefined : this.deps.agents.get(agentId);
    const version = agent && this.deps.agents.resolve(agent, { version_id: side.version_id });
    if (!version)
      throw new NotFoundError(`Version not found for agent ${agentId}: ${side.version_id} (${name})`);
    return {
      bundle: version.bundle,
      version_id: version.id,
      bundle_hash: this.deps.bundles.hash(version.bundle),
    };
  }

  /** The bundle, once the validator finds no error in it (else a 422 naming the side). */
  private async valid(sent: SentBundle, path: InputPath, name: string, share: WorkShare): Promise<Bundle> {
    const bundle = sent as Bundle; // a key of the cache only, until the validator finds no error
    const checked = await this.checked.lookup(this.deps.bundles.hash(bundle), async () => ({
      bundle,
      issues: await this.deps.work.validate(sent, share),
    }));
    if (checked.issues.some((i) => i.severity === 'error')) {
      const refused = InvalidInputError.bundle(checked.issues, path);
      throw new InvalidInputError(`${name}: ${refused.message}`, refused.problems, refused.issues);
    }
    return checked.bundle;
  }

  /** The analysis, a bundle over its work budget refused as too complex to analyse (422). */
  private async analysed<T>(path: InputPath, run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (e) {
      if (overWorkBudget(e)) throw InvalidInputError.at(path, e.message, 'bundle_too_complex');
      throw e;
    }
  }
}
