/**
 * What the messaging service needs from the rest of the system, as narrow interfaces: the
 * example agents, the bundle validator and hash, and the engine. `server/app.ts` wires the real
 * implementations in.
 */
import type { Bundle } from '../../src/contract/bundle';
import type { BundleIssue } from '../../src/contract/api';
import type { AgentRecord, AgentVersionRecord } from '../agents/registry';
import type { Engine } from '../engine/contract';

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

export interface MessagingPorts {
  engine: Engine;
  agents: AgentCatalog;
  bundles: BundleTools;
  clock: Clock;
  newId(kind: 'task' | 'message'): string;
}
