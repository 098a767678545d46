/** Which agent version a request runs with; an unknown agent or version is invalid input naming it. */
import { InvalidInputError, type InputPath } from './errors';
import type { AgentCatalog, AgentRecord, AgentVersionRecord, VersionPin } from './dependencies';

export function requireAgent(agents: AgentCatalog, agentId: string, path: InputPath): AgentRecord {
  const agent = agents.get(agentId);
  if (!agent) throw InvalidInputError.at(path, `Unknown agent: ${agentId}`, 'unknown_agent');
  return agent;
}

/** Resolves a pin (empty = the agent's active version); `path` points at the pin in the request. */
export function requireVersion(
  agents: AgentCatalog,
  agent: AgentRecord,
  pin: VersionPin,
  path: InputPath,
): AgentVersionRecord {
  const version = agents.resolve(agent, pin);
  if (
    version &&
    pin.version_id !== undefined &&
    pin.version_tag !== undefined &&
    version.tag !== pin.version_tag
  ) {
    throw InvalidInputError.at(
      [...path, 'version_tag'],
      `Version ${version.id} of agent ${agent.id} has tag ${version.tag ?? '(none)'}, not ${pin.version_tag}`,
      'version_mismatch',
    );
  }
  if (version) return version;
  const named = [
    pin.version_id !== undefined ? `version_id ${pin.version_id}` : undefined,
    pin.version_tag !== undefined ? `version_tag ${pin.version_tag}` : undefined,
  ]
    .filter(Boolean)
    .join(' and ');
  const field = pin.version_id !== undefined ? 'version_id' : 'version_tag';
  throw InvalidInputError.at(
    [...path, field],
    `Unknown version for agent ${agent.id}: ${named || 'no active version'}`,
    'unknown_version',
  );
}

export function hasPin(pin: VersionPin | undefined): pin is VersionPin {
  return Boolean(pin && (pin.version_id !== undefined || pin.version_tag !== undefined));
}
