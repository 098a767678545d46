/** The real implementations of what the messaging service depends on: engine, example agents, bundle tools, clock, ids. */
import { bundleHash } from '../src/lib/bundle/hash';
import { bundleJsonSchema } from '../src/lib/bundle/json-schema';
import { validateBundle } from '../src/lib/bundle/validate';
import { loadAgents, resolveVersion } from './agents/registry';
import { engine } from './engine';
import { newId } from './service/ids';
import type { AgentCatalog, MessagingDependencies } from './service/dependencies';

export function agentCatalog(agentsDir?: string): AgentCatalog {
  const agents = loadAgents(agentsDir);
  const byId = new Map(agents.map((a) => [a.id, a]));
  return {
    list: () => agents,
    get: (id) => byId.get(id),
    resolve: (agent, pin) => resolveVersion(agent, pin),
  };
}

export function defaultDependencies(options: { agentsDir?: string } = {}): MessagingDependencies {
  return {
    engine,
    agents: agentCatalog(options.agentsDir),
    bundles: { validate: validateBundle, hash: bundleHash, jsonSchema: bundleJsonSchema },
    clock: { now: () => new Date() },
    newId,
  };
}

/**
 * Runs one throwaway turn per agent so that the engine's lazily built parts (date parsing above
 * all) are ready before the first user's message, instead of making that message slow.
 */
export function warmUp(dependencies: MessagingDependencies): void {
  const clock = dependencies.clock.now().toISOString();
  for (const agent of dependencies.agents.list()) {
    const version = dependencies.agents.resolve(agent, {});
    if (!version) continue;
    const state = dependencies.engine.initialState(version.bundle, clock, 'warm-up');
    dependencies.engine.runTurn({
      bundle: version.bundle,
      state,
      text: 'hello, 3 days ago',
      clock,
      interactionId: 'warm-up',
      userId: 'warm-up',
    });
  }
}
