/**
 * The refusals of the service layer, in its own terms: something asked for does not exist, the
 * key may not use an agent, or the request's input is wrong (with the path of the field inside
 * the request the service was given). The service knows nothing of HTTP: `server/http/error-answers.ts`
 * turns each into its status and body, in one place.
 */
import type { BundleIssue } from '../../src/contract/api';

/** A path into the request the service was given, e.g. `['agent', 'version_id']`. */
export type InputPath = readonly (string | number)[];

export interface InputProblem {
  path: InputPath;
  message: string;
  /** A stable code for the kind of problem, e.g. `unknown_agent`. */
  type: string;
}

abstract class ServiceError extends Error {}

/** A task, interaction, agent, version or bundle that does not exist (or not here). */
export class NotFoundError extends ServiceError {}

/** The request conflicts with what is stored (an id already taken, an agent that still has threads). */
export class ConflictError extends ServiceError {}

/** The caller's key may not use this agent (or what belongs to it). */
export class AccessDeniedError extends ServiceError {
  constructor(readonly agentId: string) {
    super(`This API key may not use agent: ${agentId}`);
  }
}

/** Input the service cannot act on; `problems` names each field, `issues` a bundle's findings. */
export class InvalidInputError extends ServiceError {
  constructor(
    message: string,
    readonly problems: readonly InputProblem[],
    readonly issues?: BundleIssue[],
  ) {
    super(message);
  }

  /** One field's problem, said once: the message is also the field's. */
  static at(path: InputPath, message: string, type = 'value_error'): InvalidInputError {
    return new InvalidInputError(message, [{ path, message, type }]);
  }

  /** A bundle with errors: each error at its place under `path`, every issue kept in `issues`. */
  static bundle(issues: BundleIssue[], path: InputPath): InvalidInputError {
    const errors = issues.filter((i) => i.severity === 'error');
    const first = errors[0];
    const message = `Invalid agent settings bundle: ${errors.length} error${errors.length === 1 ? '' : 's'}${first ? ` (first: ${first.message})` : ''}`;
    return new InvalidInputError(
      message,
      errors.map((i) => ({ path: [...path, ...i.loc], message: i.message, type: i.code })),
      issues,
    );
  }
}
