/**
 * What the services depend on from the rest of the system, as narrow interfaces: the engine, the
 * example agents, the bundle tools (validator, hash, schema), a clock and ids. The real ones are
 * in `server/default-dependencies.ts`; tests pass their own.
 */
import type { Bundle } from '../../src/contract/bundle';
import type { BundleIssue } from '../../src/contract/api';
import type { AgentRecord, AgentVersionRecord } from '../agents/registry';
import type { Engine } from '../../engine/contract';
import type { EngineWork } from '../work/engine-work';

export type { AgentRecord, AgentVersionRecord };

export interface VersionPin {
  version_id?: string | undefined;
  version_tag?: string | undefined;
}

export interface AgentCatalog {
  list(): readonly AgentRecord[];
  get(agentId: string): AgentRecord | undefined;
  /** The version a pin names, the active version when the pin is empty, undefined when unknown. */
  resolve(agent: AgentRecord, pin: VersionPin): AgentVersionRecord | undefined;
}

export interface BundleTools {
  validate(doc: unknown): BundleIssue[];
  hash(bundle: Bundle): string;
  jsonSchema(): object;
}

export interface Clock {
  now(): Date;
}

export interface MessagingDependencies {
  engine: Engine;
  agents: AgentCatalog;
  bundles: BundleTools;
  clock: Clock;
  newId(kind: 'task' | 'message'): string;
  /**
   * Where validation and turns run: the worker pool in the service; when absent, the calling
   * thread with `engine` and `bundles.validate` (tests with an engine of their own).
   */
  work?: EngineWork;
}
