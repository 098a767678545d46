/**
 * The test case's JSON Schema (draft-07), generated from the zod schema so the two never drift:
 * editors use it for completions and hover documentation (`"$schema"` is not part of a case, so
 * point the editor at it by file pattern, e.g. `*.case.json`).
 */
import { z } from 'zod';
import { KNOWN_DECISIONS, KNOWN_RULE_RESULTS } from '../../contract/trace';
import { NOT_EVALUATED, TestCase, TurnExpectation } from './format';

let cached: Record<string, unknown> | undefined;

function generate(): Record<string, unknown> {
  const decision = TurnExpectation.shape.decision;
  const ruleResult = TurnExpectation.shape.rules.unwrap().valueType;
  return z.toJSONSchema(TestCase, {
    target: 'draft-7',
    io: 'input',
    unrepresentable: 'any',
    // The zod schema keeps decisions and results open (a deployed service may add values);
    // here they become enums, for completions.
    override: ({ zodSchema, jsonSchema }) => {
      if (zodSchema === decision) jsonSchema.enum = [...KNOWN_DECISIONS];
      if (zodSchema === ruleResult) jsonSchema.enum = [...KNOWN_RULE_RESULTS, NOT_EVALUATED];
    },
  });
}

/** A fresh copy of the test case's JSON Schema (draft-07); callers may change it. */
export function testCaseJsonSchema(): Record<string, unknown> {
  cached ??= generate();
  return structuredClone(cached);
}
