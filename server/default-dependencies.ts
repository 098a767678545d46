/** The real implementations of what the messaging service depends on: engine, example agents, bundle tools, clock, ids. */
import { canonicalJson } from '../src/lib/bundle/hash';
import { createHash } from 'node:crypto';
import { bundleJsonSchema } from '../src/lib/bundle/json-schema';
import { validateBundle } from '../src/lib/bundle/validate';
import { loadAgents, resolveVersion } from './agents/registry';
import { engine } from '../engine';
import { newId } from './service/ids';
import type { AgentCatalog, MessagingDependencies } from './service/dependencies';
import { interactiveWorkers, sharedEnginePool } from './work/engine-pool';
import { SERVICE_SHARE, workOf, type EngineWork } from './work/engine-work';

function agentCatalog(agentsDir?: string): AgentCatalog {
  const agents = loadAgents(agentsDir);
  const byId = new Map(agents.map((a) => [a.id, a]));
  return {
    list: () => agents,
    get: (id) => byId.get(id),
    resolve: (agent, pin) => resolveVersion(agent, pin),
  };
}

/**
 * `bundleHash` (SHA-256 of the bundle's canonical JSON), with the SHA-256 of Node's crypto: the
 * same digest, made natively, since the request loop hashes the bundle of every send.
 */
export function serverBundleHash(bundle: unknown): string {
  return createHash('sha256').update(canonicalJson(bundle)).digest('hex');
}

/** The real dependencies; heavy work goes to `options.work`, the process's default pool otherwise. */
export function defaultDependencies(
  options: { agentsDir?: string; work?: EngineWork } = {},
): MessagingDependencies {
  return {
    work: options.work ?? sharedEnginePool(),
    engine,
    agents: agentCatalog(options.agentsDir),
    bundles: { validate: validateBundle, hash: serverBundleHash, jsonSchema: bundleJsonSchema },
    clock: { now: () => new Date() },
    newId,
  };
}

/**
 * Runs one throwaway turn per agent, at once (so that the pool starts its workers), so that the
 * engine's lazily built parts (date parsing above all) are ready before the first user's message,
 * instead of making that message slow.
 */
export async function warmUp(dependencies: MessagingDependencies): Promise<void> {
  const clock = dependencies.clock.now().toISOString();
  const work = workOf(dependencies);
  await Promise.all(
    dependencies.agents.list().map(async (agent) => {
      const version = dependencies.agents.resolve(agent, {});
      if (!version) return;
      const cases = [{ id: 'warm-up', clock, messages: ['hello, 3 days ago'] }];
      await Promise.all([
        work.conversations(version.bundle, cases, SERVICE_SHARE, 'background'),
        // One for each interactive thread, at once, so that each of them starts.
        ...Array.from({ length: interactiveWorkers() }, () =>
          work.conversations(version.bundle, cases, SERVICE_SHARE, 'interactive'),
        ),
      ]);
    }),
  );
}
