export {
  MAX_TURNS,
  TEST_CASE_FORMAT,
  TEST_CASE_FORMAT_VERSION,
  TestCase,
  TurnExpectation,
  parseTestCase,
  serializeTestCase,
  validateTestCase,
  type ParseResult,
  type WelcomeExpectation,
} from './format';
export {
  compareTurn,
  compareWelcome,
  describeMismatch,
  type Mismatch,
  type MismatchKind,
  type ObservedTrace,
  type ObservedTurn,
} from './compare';
export { coverage, type Coverage } from './coverage';
export {
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
export { REPORTERS, type ReporterName } from './report';
