// Public API of robotstxt-wasm.
export { parseRobots, RobotsTxt, OtherDirective, productToken } from './robots.js';
export type { RobotsOptions, RobotsMode, RobotsRule, RobotsGroup, AgentLine, Diagnostic, DiagnosticSeverity, AgentQuery } from './robots.js';
export { RobotsMatcher } from './matcher.js';
export type { Explanation, DecidingRule } from './matcher.js';
export { RobotsError } from './errors.js';
export type { RobotsErrorCode } from './errors.js';
export { parseRobotsBody } from './parse/parser.js';
export type { RobotsParseHandler, ParseNoticeCode } from './parse/parser.js';
export { VERDICT_ALLOWED, VERDICT_DISALLOWED, DEFAULT_MAX_BYTES } from './constants.js';
export { RobotsPool, checkChunksInOrder } from './pool.js';
export type { PoolOptions, LinesResult, OrderedRunStats, LineChunkSource, OrderedOutput } from './pool.js';
export { lintRobots } from './lint.js';
export type { LintReport, LintFinding } from './lint.js';
export { RobotsDiff } from './diff.js';
export type { DiffReport, ChangedUrl, RuleCount } from './diff.js';
export { parseLogLine } from './log.js';
export type { LogRequest } from './log.js';
