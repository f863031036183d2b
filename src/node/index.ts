// Public API of robotstxt-wasm in Node: everything of the runtime-neutral entry (src/core/index.ts), plus
// files, many hosts, worker pools, logs and audits, fetching and the store.
import './core-node.js'; // Node: the WebAssembly core is read from the package's build/ folder on first use
// the runtime-neutral entry, whole: parsing, matching, explain, lint, diff, usage, page rules
export { CONTENT_SIGNAL_KEYS, DEFAULT_MAX_BYTES, DEFAULT_POLICY_TOKENS, DEFAULT_WASM_URL, LIBRARY_OPTION_WORDS, OtherDirective, PAGE_TRAPS, PURPOSE_RULE, REPORTED_CATEGORIES, ROBOTS_TAG_PARSE_LIMIT, RobotsDiff, RobotsError, RobotsMatcher, RobotsNoindex, RobotsTxt, USAGE_ALLOWED, USAGE_CATEGORIES, USAGE_DISALLOWED, USAGE_PURPOSE_OF, USAGE_UNKNOWN, UsagePolicy, VERDICT_ALLOWED, VERDICT_DISALLOWED, agentTokenProblem, agentWarning, crawlerName, headerLine, initialize, isInitialized, isRobotsMetaName, judgePage, lintRobots, originOf, pageResponseOf, pageRuleTime, pageRules, pageStatements, pageTraps, parseContentUsageHeader, parseRobots, parseRobotsBody, productToken, readContentSignal, readContentUsage, usagePurpose } from '../core/index.js';
export type { AgentLine, AgentQuery, ChangedUrl, DecidingRule, Diagnostic, DiagnosticSeverity, DiffReport, Explanation, LintFinding, LintOptions, LintReport, OptionWords, OutputFilter, PageAiStatements, PageAnswer, PageHeaders, PageMeta, PageResponse, PageRuleSource, PageRuleStatement, PageRules, PageTrap, PageTrapKind, ParseNoticeCode, PurposeAnswer, PurposeStatement, RobotsBodyInput, RobotsErrorCode, RobotsErrorOption, RobotsGroup, RobotsMode, RobotsNoindexLine, RobotsOptions, RobotsParseHandler, RobotsRule, RuleCount, UrlOrigin, UsageAnswer, UsageDecider, UsageOptions, UsagePurpose, UsageRule, UsageVerdict, UserAgentFacts, WasmSource } from '../core/index.js';
export { MultiHostMatcher } from './hosts/index.js';
export { RobotsPack } from '../core/pack/index.js';
export { openPackFile, robotsFromPack } from './pack/index.js';
export { PackWriter } from './pack-build/index.js';
export type { PackCapture, PackStorage } from '../core/pack/index.js';
export type { OpenedPack } from './pack/index.js';
export type { CaptureInput, PackWritten } from './pack-build/index.js';
export { robotsFromDirectory, robotsFromMap } from './hosts/index.js';
export type { MultiHostOptions, MultiHostStats, HostChunkFormat, HostChunkResult } from './hosts/index.js';
export type { RobotsHost, RobotsSourceAnswer, RobotsSource, MissingPolicy } from './hosts/index.js';
export { RobotsPool, HostShardPool } from './threads/index.js';
export type { PoolOptions, LinesResult, HostsSpec, HostsReply, OutputFormat } from './threads/index.js';
export { runCheck } from './check/index.js';
export type { CheckPlan, CheckOutcome, LineChunkSource } from './check/index.js';
export { TestBatch } from './test-batch.js';
export type { TestCase, TestCaseAnswer, TestBatchOptions } from './test-batch.js';
export { parseLogLine, LogLineReader, logTimeMs, DEFAULT_JSON_FIELDS } from './logs/index.js';
export type { LogRequest, LogFormat, LogFieldNames, LoggedSignature } from './logs/index.js';
export { RobotsAudit, AUDIT_PARTIAL_FORMAT, rulesOf, rulesOfDirectory, rulesOfHistory } from './audit/index.js';
export type { AuditReport, AuditPartial, CrawlerAudit, AuditOptions, AuditRules, AuditHistory, RulesInForce, RobotsFor, DirectoryRulesOptions, StatusClasses, VerificationCounts, VerificationNote } from './audit/index.js';
export { CrawlerVerifier, CRAWLER_VENDORS, CRAWLER_RANGE_SOURCES, familyOfCrawler, vendorOfCrawler } from './verify/index.js';
export type { CrawlerVerifierOptions, CrawlerVendor, CrawlerFamily, CrawlerRangeSource, DnsResolver, FamilyCoverage, Verification } from './verify/index.js';
export { SignatureKeys, SignedRequestJudge, signedRequestOf, verifySignedRequest } from './signatures/index.js';
export type { SignatureCheck, SignatureVerdict, SignedRequestFields, SigningAgent, SigningKey } from './signatures/index.js';
export type { CrawlerCategory } from './crawlers/index.js';
export { auditHtml, verificationNotes, verificationNoteSentence } from './audit/index.js';
export { answerPage, htmlMetas, fetchPage, PageRobots, readCrawl, answerCrawledPage, PagesSummary } from './page/index.js';
export type { PageReport, PageInput, HtmlMetas, OriginRobots, CrawlRecord, CrawledPage, CrawlFormat, PagesAnswer, PagesSummaryJson } from './page/index.js';
export { ALLOW_ALL, DISALLOW_ALL } from './hosts/index.js';
export { fetchRobots, robotsOriginOf, DEFAULT_FETCH_USER_AGENT, DEFAULT_TIMEOUT_MS } from './fetch/index.js';
export type { FetchRobotsOptions, RobotsFetchResult, RobotsOrigin, TargetRefusal } from './fetch/index.js';
export { RobotsCache } from './fetch/index.js';
export type { RobotsCacheOptions, RobotsCacheEntry, RobotsCacheStats } from './fetch/index.js';
export { RobotsStore, readStoredVersions, DEFAULT_KEPT_VERSIONS } from './store/index.js';
export type { StoredVersion, StoredVersions } from './store/index.js';
export { RobotsHistory, StoreHistory, versionsAtTime, historyTime, CACHE_WINDOW_MS } from './history/index.js';
export type { RobotsVersion, VersionsAt } from './history/index.js';
export { versionChanges } from './history/index.js';
export type { VersionChange } from './history/index.js';
export { DEFAULT_MAX_AGE_MS, MAX_REDIRECT_HOPS, UNREACHABLE_ALLOW_AFTER_MS } from '../core/fetch-rules.js';
export type { FetchOutcome, RobotsEffect, OriginRecord } from '../core/fetch-rules.js';
