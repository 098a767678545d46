export {
  MAX_TURNS,
  TEST_CASE_FORMAT,
  TEST_CASE_FORMAT_VERSION,
  CaseSource,
  TestCase,
  TestTurn,
  TurnExpectation,
  parseTestCase,
  serializeTestCase,
  validateTestCase,
  type ParseResult,
} from './format';
export { testCaseJsonSchema } from './json-schema';
export {
  compareTurn,
  describeMismatch,
  parameterValue,
  type Mismatch,
  type MismatchKind,
  type ObservedTrace,
  type ObservedTurn,
} from './compare';
export { bundleRulesAndTools, coverage, type Coverage } from './coverage';
export {
  runCase,
  runSuite,
  summarize,
  type CaseResult,
  type Conversation,
  type Driver,
  type RunOptions,
  type StartedConversation,
  type SuiteCase,
  type SuiteSummary,
  type TurnResult,
} from './run';
export { httpDriver, type HttpDriverOptions } from './http-driver';
export {
  REPORTERS,
  caseProblems,
  jsonReport,
  junitReport,
  textReport,
  xmlEscape,
  type ReporterName,
} from './report';
