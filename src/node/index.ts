// Public API of robotstxt-wasm in Node: everything of the runtime-neutral entry (src/core/index.ts), plus
// files, many hosts, worker pools, logs and audits, fetching and the store.
import './core-node.js'; // Node: the WebAssembly core is read from the package's build/ folder on first use
export * from '../core/index.js';
export { MultiHostMatcher } from './hosts.js';
export { robotsFromDirectory, robotsFromMap } from './sources.js';
export type { MultiHostOptions, MultiHostStats, HostChunkFormat, HostChunkResult } from './hosts.js';
export type { RobotsHost, RobotsSourceAnswer, RobotsSource, MissingPolicy } from './sources.js';
export { RobotsPool, HostShardPool } from './threads/pool.js';
export type { PoolOptions, LinesResult, HostsSpec, HostsReply, OutputFormat } from './threads/pool.js';
export { runCheck } from './check/pipeline.js';
export type { CheckPlan, CheckOutcome, LineChunkSource } from './check/pipeline.js';
export { TestBatch } from './test-batch.js';
export { parseContentUsageHeader } from './usage-header.js';
export type { TestCase, TestCaseAnswer, TestBatchOptions } from './test-batch.js';
export { parseLogLine, LogLineReader, logTimeMs, DEFAULT_JSON_FIELDS } from './log.js';
export type { LogRequest, LogFormat, LogFieldNames } from './log.js';
export { RobotsAudit, AUDIT_PARTIAL_FORMAT } from './audit.js';
export type { AuditReport, AuditPartial, CrawlerAudit, AuditOptions, AuditHistory, StatusClasses, VerificationCounts } from './audit.js';
export { CrawlerVerifier, CRAWLER_VENDORS, CRAWLER_RANGE_SOURCES, familyOfCrawler, vendorOfCrawler } from './crawler-verify.js';
export type { CrawlerVerifierOptions, CrawlerVendor, CrawlerFamily, CrawlerRangeSource, DnsResolver, FamilyCoverage, Verification } from './crawler-verify.js';
export type { CrawlerCategory } from './crawler-categories.js';
export { auditHtml } from './audit-html.js';
export { ALLOW_ALL, DISALLOW_ALL } from './sources.js';
export { fetchRobots, robotsOriginOf, DEFAULT_FETCH_USER_AGENT, DEFAULT_TIMEOUT_MS } from './fetch/robots-fetch.js';
export type { FetchRobotsOptions, RobotsFetchResult, RobotsOrigin } from './fetch/robots-fetch.js';
export { RobotsCache } from './fetch/robots-cache.js';
export type { RobotsCacheOptions, RobotsCacheEntry, RobotsCacheStats } from './fetch/robots-cache.js';
export { RobotsStore, readStoredVersions, DEFAULT_KEPT_VERSIONS } from './robots-store.js';
export type { StoredVersion, StoredVersions } from './robots-store.js';
export { RobotsHistory, StoreHistory, versionsAtTime, historyTime, CACHE_WINDOW_MS } from './robots-history.js';
export type { RobotsVersion, VersionsAt } from './robots-history.js';
export { versionChanges } from './version-changes.js';
export type { VersionChange } from './version-changes.js';
export { DEFAULT_MAX_AGE_MS, MAX_REDIRECT_HOPS, UNREACHABLE_ALLOW_AFTER_MS } from '../core/fetch-rules.js';
export type { FetchOutcome, RobotsEffect, OriginRecord } from '../core/fetch-rules.js';
