/**
 * The bundle's JSON Schema (draft-07, which Monaco's JSON mode handles well), generated from the
 * zod schema so the two never drift. The editor uses it for hover documentation (every field has
 * a description) and completions (actions, types, condition methods and operations are enums).
 *
 * The zod schema keeps condition methods and operations as free strings, so that an unknown one is
 * reported by the validator with a "Did you mean ...?"; here they become enums, for completions.
 */
import { z } from 'zod';
import {
  Bundle,
  CONDITION_METHODS,
  CONDITION_OPERATIONS,
  ConditionLeaf,
  LEGACY_CONDITION_METHODS,
} from '../../contract/bundle';

let cached: Record<string, unknown> | undefined;

function generate(): Record<string, unknown> {
  const method = ConditionLeaf.shape.method;
  const operation = ConditionLeaf.shape.operation;
  return z.toJSONSchema(Bundle, {
    target: 'draft-7',
    io: 'input',
    unrepresentable: 'any',
    override: ({ zodSchema, jsonSchema }) => {
      if (zodSchema === method) jsonSchema.enum = [...CONDITION_METHODS, ...LEGACY_CONDITION_METHODS];
      // operation is optional: the override sees the inner string schema
      if (zodSchema === operation || zodSchema === operation.unwrap())
        jsonSchema.enum = [...CONDITION_OPERATIONS];
    },
  });
}

/** A fresh copy of the bundle's JSON Schema (draft-07); callers may change it. */
export function bundleJsonSchema(): Record<string, unknown> {
  cached ??= generate();
  return structuredClone(cached);
}
