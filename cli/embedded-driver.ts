/**
 * Runs cases on the embedded reference engine, in process: the bundle under test, or the case's
 * agent version from the example agents. The task clock is the case's, exactly.
 */
import type { Bundle } from '../src/contract/bundle';
import { bundleHash } from '../src/lib/bundle/hash';
import type { Driver, TestCase } from '../src/lib/test-cases';
import { loadAgents, resolveVersion, type AgentRecord } from '../server/agents/registry';
import { engine } from '../engine';

export interface EmbeddedDriver extends Driver {
  /** The bundles the cases ran with (one entry per distinct bundle). */
  readonly bundles: ReadonlySet<Bundle>;
}

export function embeddedDriver(bundle?: Bundle, agents: () => AgentRecord[] = loadAgents): EmbeddedDriver {
  const used = new Set<Bundle>();
  const hashes = new WeakMap<Bundle, string>();
  let catalog: AgentRecord[] | undefined;
  const versionBundle = (c: TestCase): Bundle => {
    catalog ??= agents();
    const agent = catalog.find((a) => a.id === c.agent_id);
    if (!agent)
      throw new Error(
        `no agent ${c.agent_id} (known: ${catalog.map((a) => a.id).join(', ')}); give --bundle`,
      );
    const pin = { version_id: c.version_id, version_tag: c.version_tag };
    const version = resolveVersion(agent, pin);
    if (!version) throw new Error(`agent ${c.agent_id} has no version ${c.version_id ?? c.version_tag}`);
    return version.bundle;
  };
  return {
    bundles: used,
    async start(testCase) {
      const b = bundle ?? versionBundle(testCase);
      used.add(b);
      let hash = hashes.get(b);
      if (hash === undefined) hashes.set(b, (hash = bundleHash(b)));
      const clock = new Date(testCase.clock).toISOString();
      const userId = testCase.user_id ?? 'test-user';
      let state = engine.initialState(b, clock, userId);
      let n = 0;
      const greeting = engine.welcome(b, clock);
      return {
        bundleHash: hash,
        notes: [],
        welcome: { message: greeting.welcome_message, suggestions: greeting.suggestions },
        conversation: {
          async say(text) {
            n += 1;
            const out = engine.runTurn({ bundle: b, state, text, clock, interactionId: `msg-${n}`, userId });
            state = out.state;
            return { reply: out.reply, trace: out.trace, suggestions: out.suggestions };
          },
        },
      };
    },
  };
}
