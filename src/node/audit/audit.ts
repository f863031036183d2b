// Which crawlers fetched what robots.txt forbade them: access log requests -> crawler -> group -> verdict,
// with each request's claim to be a vendor's crawler verified (src/node/verify/verify.ts) when asked, and what the
// server answered. Used by `robotstxt audit`; fed line by line, memory stays bounded however many crawlers,
// rules and paths a log holds.
import { LogLineReader, clientAddress, hostUnknownError, type LogEntry, type LogFieldNames, type LogLine } from '../logs/index.js';
import type { UrlOrigin } from '../../core/url-model.js';
import { asciiLowerCase, parseRobots, type RobotsTxt } from '../../core/robots.js';
import { FULL_VERDICT_BODY, NO_RULES_KNOWN } from '../hosts/index.js';

export { NO_RULES_KNOWN };
import type { RobotsMatcher, DecidingRule } from '../../core/matcher.js';
import { VERDICT_ALLOWED } from '../../core/constants.js';
import { crawlerName } from '../../core/crawlers.js';
import { CrawlerClassifier, NAME_CACHE } from './classify.js';
import { PathCounter } from './paths.js';
import { AUDIT_PARTIAL_FORMAT, describeShape, mergeVerifiedBy, type AuditPartial } from './partial.js';
import { groupLabel, type AuditReport, type CrawlerAudit, type GroupsDiffer, type StatusClasses, type VerificationCounts } from './report.js';
import { crawlerCategory, USAGE_PURPOSES, type CrawlerCategory } from '../crawlers/index.js';
import { PURPOSE_SOURCES, USAGE_DISALLOWED, usagePurpose, type UsagePolicy } from '../../core/usage.js';
import type { VersionsAt } from '../history/index.js';
import type { CrawlerVerifier } from '../verify/index.js';
import { isUserTriggeredFetcher, publishedName, type CrawlerFamily, type Verification } from '../crawlers/index.js';
import { RobotsError } from '../../core/errors.js';

/** How an audit reads and reports (all optional). */
export interface AuditOptions {
  /** JSON keys of JSON lines logs. */
  logFields?: LogFieldNames;
  /** Only requests at or after this time (ms since 1970) ... */
  sinceMs?: number;
  /** ... and before this one. */
  untilMs?: number;
  /** Report the first N crawlers only (0: all, the default); the rest are summed in moreCrawlers. */
  top?: number;
  /** The robots.txt depends on the host: a request whose line names no host (and no default host) is an error (HOST_UNKNOWN). */
  requireHost?: boolean;
  /** One robots.txt per host (--robots-dir, --store): each rule names its host's file. */
  filePerHost?: boolean;
  /** A row per host and crawler (--by host) instead of one per crawler. */
  byHost?: boolean;
  /**
   * How a request's crawler is read against a file: 'crawler' (default) as the crawler behaves (Googlebot-Image
   * follows the Googlebot group when it has none of its own, AdsBot ignores `*`, a User-Agent word that a group
   * names is that group's crawler), or 'token' as the product token of its name alone, as the reference
   * answers (what check gives without --as-crawler).
   */
  reading?: 'crawler' | 'token';
  /** Requests whose host's rules are not known (robotsFor gives NO_RULES_KNOWN): not judged (allow, the default: never counted as allowed) or judged disallowed. Counted either way. */
  missing?: 'allow' | 'disallow';
  /** Verify each request's claim to be a vendor's crawler. */
  verifier?: CrawlerVerifier;
  /** Which address verification reads: the client field (default) or the last X-Forwarded-For address. */
  clientIp?: 'remote' | 'forwarded';
  /**
   * The versions of each host's robots.txt over time (audit --robots-history: RobotsHistory): each request is
   * judged by the version in force at its log time (robotsFor is not asked); within 24 hours after a change
   * by both versions (`either` when they disagree, never a violation); before the first version, or without a
   * time, its rules are not known.
   */
  history?: AuditHistory;
}

/**
 * What an audit asks of a history (RobotsHistory and StoreHistory are ones): the versions that judge a request,
 * and the hand-off of versions its cache drops while requests wait to be judged by them (held from the audit's
 * start, closed after each judged batch, judged at once past their bound).
 */
export interface AuditHistory {
  versionsAt(origin: UrlOrigin, timeMs: number): VersionsAt;
  holdDropped(): void;
  closeDropped(): void;
  readonly mustCloseDropped: boolean;
}

const TOP_PATHS = 20;
/** Origins without known rules named in the report (AuditReport.noRulesKnown). */
const NO_RULES_ORIGINS_NAMED = 5;
/**
 * Disallowed paths tracked per crawler: when twice this many are tracked, the less requested half is
 * dropped, and a path that comes back may have missed up to the largest count dropped (its `upTo`).
 * Frequent paths stay exact; memory and time per request stay bounded.
 */
const TRACKED_PATHS = 2000;
const MAX_MALFORMED_LINES = 100;

const HOUR_MS = 3_600_000;
/** "2015-05-17 10:00" (UTC) of an hour counted from 1970 (formatted once per hour, in the report). */
const hourText = (hour: number): string => `${new Date(hour * HOUR_MS).toISOString().slice(0, 13).replace('T', ' ')}:00`;

export { crawlerName };

/** The reasons of two GroupsDiffer together. */
function bothDiffer(a: GroupsDiffer, b: GroupsDiffer): GroupsDiffer {
  if (a === null || a === b) return b ?? a;
  if (b === null) return a;
  return 'host and version';
}

/** A crawler's row key: a host's, an impostor's and a row of addresses from another file of its vendor apart. */
function crawlerKey(host: string | null, agent: string, impostor: boolean, from: string | null): string {
  return `${host ?? ''} ${asciiLowerCase(agent)}${impostor ? ' impostor' : ''}${from === null ? '' : ` from ${from}`}`;
}

/** The class of a status code. */
function statusClass(status: number | null): keyof StatusClasses {
  if (status === null || status < 200 || status > 599) return 'other';
  return status < 300 ? '2xx' : status < 400 ? '3xx' : status < 500 ? '4xx' : '5xx';
}

interface CrawlerState {
  agent: string;
  host: string | null;
  impostor: boolean;
  from: string | null;
  vendor: string | null;
  family: string | null;
  group: string | null;
  /** Files of different hosts gave it different groups. */
  mixedGroups: GroupsDiffer;
  /** The host (hostKey) whose file gave `group` (a different group from the same host is a version's). */
  groupHost: string | null;
  userTriggered: boolean;
  /** Its first User-Agent (1,024 characters at most): its category is read from it when reported. */
  userAgent: string;
  requests: number;
  disallowed: number;
  /** Disallowed requests it may have had before it was tracked (again): the floor when it was added. */
  missed: number;
  byStatus: StatusClasses;
  robotsTxtFetches: number;
  verification: VerificationCounts | null;
  /** Verified requests by JAFAR service label (with verification). */
  services: Map<string, number> | null;
  rules: Map<string, { file: string | null; line: number; pattern: string; requests: number }>;
  paths: PathCounter | null;
  /**
   * Its kind, read from its name and the first User-Agent seen with that name (categoryUserAgent) when it is
   * first needed (a usage judgement, a report, a partial): a crawler dropped before then never pays for the
   * some 1,500 patterns (1 M lines of distinct bots paid 40 us a line for them).
   */
  category: CrawlerCategory | null;
  categoryUserAgent: string;
  /** Requests against a stated usage preference for its purpose, by statement (see CrawlerAudit.usage). */
  usageAgainst: number;
  usageBy: Map<string, { file: string | null; source: 'content-usage' | 'content-signal'; line: number; preference: string; requests: number }>;
  /** With a history: its requests and disallowed requests per version (key `host from`), and its either and no-rules-known counts. */
  byVersion: Map<string, { host: string; from: string; requests: number; disallowed: number }> | null;
  either: number;
  noRulesKnown: number;
  /** Its requests whose rules were not known (AuditReport.noRulesKnown; with a history, noRulesKnown's too). */
  noRules: number;
}

/** A crawler's request counted but not judged yet (see RobotsAudit.judgePending). */
interface PendingRequest {
  /** Its target has a line break (judged on its own, see isAlone). */
  alone: boolean;
  state: CrawlerState;
  /** Its hour's counts (null: the line has no time). */
  bucket: { requests: number; disallowed: number } | null;
  /** The request (its target is what its verdict is asked of), and its target as the report shows it. */
  entry: LogEntry;
  path: string;
  status: number | null;
  /** The host whose file judged it, with --by host and files per host. */
  file: string | null;
  /** The host its path is counted under (files per host or a history, without --by host: a row's paths come from several hosts), else null. */
  pathHost: string | null;
  /** The file and group that judged it (its AI usage preferences are theirs). */
  robots: RobotsTxt;
  group: string;
  /** With a history: the counts of the version that judged it (its own and the report's), else null. */
  version: { mine: { disallowed: number }; all: { disallowed: number } } | null;
  /** Within 24 h after a change: the older version's matcher (null: it gives the crawler no group), and its verdict once judged. */
  previousMatcher: RobotsMatcher | null;
  previousAllowed: boolean | undefined;
}

/** The targets of requests as LF-ended lines, for one bulk call. */
function linesOf(items: readonly PendingRequest[]): Uint8Array {
  let length = 0;
  for (const item of items) length += item.entry.targetLength + 1;
  const lines = new Uint8Array(length);
  let at = 0;
  for (const item of items) {
    at = item.entry.copyTarget(lines, at);
    lines[at++] = 0x0a;
  }
  return lines;
}

/**
 * Crawlers tracked one by one (rules, paths, exact counts): when twice this many are tracked, the half with
 * the fewest disallowed requests is dropped (summed in `untracked`), and a crawler that comes back may have
 * missed up to the most disallowed requests a dropped one had (its `disallowedUpTo`). The leaders stay exact
 * however many crawlers a log has; memory stays bounded.
 */
export const MAX_CRAWLERS = 10_000;
/** The most User-Agent characters the names' first User-Agents keep (a crawler's kind is read from them when needed): 8 M, 16 MiB at most. */
const NAME_CACHE_CHARS = 8 << 20;

/** Accumulates an audit of access log lines against one robots.txt (or one per host). One per audit run. */
export class RobotsAudit {
  private lineCount = 0;
  private crawlerRequests = 0;
  private otherRequests = 0;
  private outsideTime = 0;
  private disallowedTotal = 0;
  private malformedCount = 0;
  private readonly malformedLines: { log: string; line: number }[] = [];
  private readonly crawlers = new Map<string, CrawlerState>();
  /** Requests per hour since 1970 (UTC). */
  private readonly hours = new Map<number, { requests: number; disallowed: number }>();
  /** Request -> crawler, group, family (the audit's first step). */
  private readonly classifier: CrawlerClassifier;
  private readonly readers = new Map<string, LogLineReader>();
  private readonly untracked = { crawlers: 0, requests: 0, disallowed: 0, usageAgainst: 0 };
  private readonly verificationTotals: VerificationCounts | null;
  /** The most disallowed requests (counted + missed) of a crawler dropped from tracking. */
  private droppedFloor = 0;
  /** Requests of crawlers waiting for their verdicts, per matcher (see judgePending). */
  private readonly pending = new Map<RobotsMatcher, PendingRequest[]>();
  /** Matchers by file and group (see matcherOf); files dropped from their caches are dropped here with them. */
  private readonly matchers = new WeakMap<RobotsTxt, Map<string, RobotsMatcher>>();
  /** Requests within 24 h after a change, by the older version's matcher (judged first in judgePending). */
  private readonly olderPending = new Map<RobotsMatcher, PendingRequest[]>();
  private usageAgainstTotal = 0;
  private eitherTotal = 0;
  private noRulesKnownTotal = 0;
  private readonly versionTotals = new Map<string, { host: string; from: string; requests: number; disallowed: number }>();
  private usageStated = false;
  /** Crawler name -> the first User-Agent seen with it (its category is read from that one), and the category read. */
  private readonly categories = new Map<string, { userAgent: string; category: CrawlerCategory | null }>();
  /** The characters of the User-Agents kept in categories (at most NAME_CACHE_CHARS). */
  private categoryTextChars = 0;
  private allowedTotal = 0;
  private noRulesTotal = 0;
  private readonly noRulesOrigins: string[] = [];
  /** The rules missing disallow judges by (made on first use). */
  private disallowAll: RobotsTxt | null = null;
  /** The report's shape: with verification counts, and with a history (from the options, or from merged partials). */
  private readonly verifying: boolean;
  private readonly withHistory: boolean;
  /** Merged partials: what verification rested on in them (an audit that verifies asks its verifier instead). */
  private mergedVerifiedBy: AuditReport['verifiedBy'] = null;
  /** Merged partials: their dropped floors summed (what a crawler absent from all of them may have had there). */
  private partsFloor = 0;

  /**
   * robotsFor: the robots.txt for a request's origin (null: none, the request is allowed). The origin is the
   * URL model's reading of the request's URL line (the line check --log answers); null when it has none.
   */
  constructor(private readonly robotsFor: (origin: UrlOrigin | null) => RobotsTxt | null | typeof NO_RULES_KNOWN, private readonly options: AuditOptions = {}, shape: { verifying: boolean; withHistory: boolean } | null = null) {
    this.classifier = new CrawlerClassifier(options.reading ?? 'crawler');
    this.verifying = shape?.verifying ?? options.verifier !== undefined;
    this.withHistory = shape?.withHistory ?? options.history !== undefined;
    // requests are judged in batches: the versions the history drops wait, open, until the batch is judged
    options.history?.holdDropped();
    this.verificationTotals = this.verifying ? { verified: 0, impostor: 0, unknown: 0, 'not-checked': 0 } : null;
  }

  /** A file's matcher for a group, kept per file (a request asks for it; RobotsTxt.matcher builds its key each time). */
  private matcherOf(robots: RobotsTxt, group: string): RobotsMatcher {
    let byGroup = this.matchers.get(robots);
    if (byGroup === undefined) this.matchers.set(robots, byGroup = new Map());
    let matcher = byGroup.get(group);
    if (matcher === undefined || matcher.closed) byGroup.set(group, matcher = robots.matcher(group));
    return matcher;
  }

  /** The reader of a log (each log file has its own: a W3C header applies to the lines after it in that file). */
  private readerOf(log: string): LogLineReader {
    let reader = this.readers.get(log);
    if (reader === undefined) {
      reader = new LogLineReader({ fields: this.options.logFields });
      this.readers.set(log, reader);
    }
    return reader;
  }

  /** What a line was read as, counted: the request, or null (nothing to audit: blank, a header line, or malformed, which is listed). */
  private counted(read: LogLine, lineNumber: number, log: string): LogEntry | null {
    if (read === 'blank' || read === 'header') return null;
    this.lineCount++;
    if (read === null) {
      this.malformedCount++;
      if (this.malformedLines.length < MAX_MALFORMED_LINES) this.malformedLines.push({ log, line: lineNumber });
    }
    return read;
  }

  /**
   * Adds one log line (log and lineNumber: where it is, for the malformed-line report; defaultHost: for lines
   * that name no host). With DNS verification, use addLines or addChunk (they look up a chunk's addresses first).
   */
  addLine(line: string, lineNumber: number, log = '-', defaultHost: string | null = null): void {
    const entry = this.counted(line === '' ? 'blank' : this.readerOf(log).readLine(line, { withHost: true, defaultHost }), lineNumber, log);
    if (entry !== null) this.addRequest(entry, log, lineNumber, defaultHost);
    this.judgePending();
  }

  /** Adds the lines of a chunk (the first is line firstLineNumber); with DNS verification, looks up their addresses first. Per chunk. */
  async addLines(lines: readonly string[], firstLineNumber: number, log = '-', defaultHost: string | null = null): Promise<void> {
    const reader = this.readerOf(log);
    await this.addRead(lines.map((line) => (line === '' ? 'blank' : reader.readLine(line, { withHost: true, defaultHost }))), firstLineNumber, log, defaultHost);
  }

  /**
   * Adds a chunk of log bytes (whole lines, LF-separated; the first is line firstLineNumber), read in bulk
   * (LogLineReader.readChunk: Apache/nginx lines by the core, no string per line); returns its line count.
   * With DNS verification, looks up the chunk's addresses first. Called once per chunk by robotstxt audit.
   */
  async addChunk(chunk: Uint8Array, firstLineNumber: number, log = '-', defaultHost: string | null = null): Promise<number> {
    const read = this.readerOf(log).readChunk(chunk, { withHost: true, defaultHost });
    await this.addRead(read, firstLineNumber, log, defaultHost);
    return read.length;
  }

  private async addRead(read: readonly LogLine[], firstLineNumber: number, log: string, defaultHost: string | null): Promise<void> {
    const entries = read.map((item, i) => this.counted(item, firstLineNumber + i, log));
    const verifier = this.options.verifier;
    if (verifier !== undefined && verifier.dns) {
      const claims: { family: CrawlerFamily; client: string }[] = [];
      for (const entry of entries) {
        if (entry === null || entry.request.userAgent === null) continue;
        const request = entry.request;
        const robots = this.robotsFor(entry.origin());
        const crawler = this.classifier.crawlerOf(request.userAgent, robots === NO_RULES_KNOWN ? null : robots);
        const family = crawler === null ? null : this.classifier.familyOf(crawler.agent);
        const client = clientAddress(request, this.options.clientIp ?? 'remote');
        if (family !== null && client !== null) claims.push({ family, client });
      }
      await verifier.prepare(claims);
    }
    const history = this.options.history;
    entries.forEach((entry, i) => {
      if (entry === null) return;
      this.addRequest(entry, log, firstLineNumber + i, defaultHost);
      // versions the history dropped wait, open, for the requests they judge: past its bound, judged now
      if (history?.mustCloseDropped === true) this.judgePending();
    });
    this.judgePending();
  }

  private addRequest(entry: LogEntry, log: string, lineNumber: number, defaultHost: string | null): void {
    const request = entry.request;
    const { sinceMs, untilMs } = this.options;
    if (sinceMs !== undefined || untilMs !== undefined) {
      const ms = request.timeMs;
      if (ms === null || (sinceMs !== undefined && ms < sinceMs) || (untilMs !== undefined && ms >= untilMs)) {
        this.outsideTime++;
        return;
      }
    }
    const host = request.host ?? defaultHost;
    if (host === null && this.options.requireHost === true) {
      throw hostUnknownError(`${log}:${lineNumber}`, request.format);
    }
    const origin = entry.origin();
    // with a history, the version in force when the request was made (and the one before, within 24 h of a change)
    const history = this.options.history;
    const versions = history === undefined ? null : origin === null || request.timeMs === null ? { current: null, previous: null } : history.versionsAt(origin, request.timeMs);
    let robots = versions === null ? this.robotsFor(origin) : versions.current?.robots ?? null;
    const rulesKnown = robots !== NO_RULES_KNOWN && (versions === null || versions.current !== null);
    if (robots === NO_RULES_KNOWN) robots = this.options.missing === 'disallow' ? (this.disallowAll ??= parseRobots(FULL_VERDICT_BODY.disallow)) : null;
    const crawler = this.classifier.crawlerOf(request.userAgent, robots);
    if (crawler === null) {
      this.otherRequests++;
      return;
    }
    this.crawlerRequests++;
    const family = this.classifier.familyOf(crawler.agent);
    let verdict: Verification | null = null;
    let services: readonly string[] | null = null;
    // the vendor's file that holds the address when it does not cover the claimed crawler: a row of its own, user-directed when that file is
    let from: { name: string; userDirected: boolean } | null = null;
    if (this.options.verifier !== undefined) {
      const claim = this.options.verifier.classifyClaim(family, clientAddress(request, this.options.clientIp ?? 'remote'), request.timeMs);
      ({ verdict, services } = claim);
      // said when the file does not cover the crawler, or is a user-directed file covering a crawler that is not a user-triggered fetcher (Google's other crawlers)
      const held = claim.heldBy;
      if (held !== null && family !== null && (!family.covering.includes(held) || (held.userDirected === true && !family.userTriggered))) from = { name: publishedName(held), userDirected: held.userDirected === true };
      (this.verificationTotals as VerificationCounts)[verdict]++;
    }
    const impostor = verdict === 'impostor';
    const rowHost = this.options.byHost === true ? origin?.hostKey ?? null : null;
    const state = this.stateOf(crawler.agent, rowHost, crawler.group, origin?.hostKey ?? null, impostor, from, family, request.userAgent as string);
    state.requests++;
    if (state.verification !== null && verdict !== null) state.verification[verdict]++;
    if (services !== null && state.services !== null) for (const service of services) state.services.set(service, (state.services.get(service) ?? 0) + 1);
    let bucket: { requests: number; disallowed: number } | null = null;
    if (request.timeMs !== null) {
      const hour = Math.floor(request.timeMs / HOUR_MS);
      bucket = this.hours.get(hour) ?? null;
      if (bucket === null) {
        bucket = { requests: 0, disallowed: 0 };
        this.hours.set(hour, bucket);
      }
      bucket.requests++;
    }
    if (!rulesKnown) {
      state.noRules++;
      if (!state.userTriggered) {
        this.noRulesTotal++;
        if (origin !== null && this.noRulesOrigins.length < NO_RULES_ORIGINS_NAMED && !this.noRulesOrigins.includes(origin.origin)) this.noRulesOrigins.push(origin.origin);
      }
    }
    let version: PendingRequest['version'] = null;
    if (versions !== null) {
      if (versions.current === null) {
        state.noRulesKnown++;
        this.noRulesKnownTotal++;
        return;
      }
      version = this.versionCounts(state, versions.current);
    }
    // unknown rules are never taken for allowed: not judged, unless missing disallow judges them
    if (!rulesKnown && this.options.missing !== 'disallow') return;
    // fetching /robots.txt is how a crawler learns the rules (RFC 9309 2.3): counted, never a violation, even
    // where the reference's verdict for that path is "disallowed" (Disallow: / in google mode)
    if (isRobotsTxtRequest(request.target)) {
      state.robotsTxtFetches++;
      this.countAllowed(state);
      return;
    }
    // within 24 h after a change: the older version's verdict too (its own group for the crawler)
    let previousMatcher: RobotsMatcher | null = null;
    let previousAllowed: boolean | undefined;
    if (versions?.previous != null) {
      const previousGroup = this.classifier.previousGroupOf(request.userAgent, versions.previous.robots);
      if (previousGroup === null) previousAllowed = true;
      else previousMatcher = this.matcherOf(versions.previous.robots, previousGroup);
    }
    // no robots.txt, or no group for this crawler (AdsBot ignores *): allowed (unless the older version disagrees)
    if (robots === null || crawler.group === null) {
      if (previousMatcher !== null && !previousMatcher.isAllowed(entry.target)) this.countEither(state);
      else this.countAllowed(state);
      return;
    }
    // judged with the rest of the chunk's requests (judgePending): one bulk call per matcher, not one per request
    const matcher = this.matcherOf(robots, crawler.group);
    let batch = this.pending.get(matcher);
    if (batch === undefined) {
      batch = [];
      this.pending.set(matcher, batch);
    }
    const item: PendingRequest = { alone: request.target.includes('\n') || request.target.includes('\r'), state, bucket, entry, path: request.target, status: request.status, file: versions?.current != null ? versions.current.name : this.options.filePerHost === true && origin !== null ? origin.hostKey : null,
      pathHost: this.options.byHost !== true && (this.options.filePerHost === true || versions !== null) ? origin?.hostKey ?? null : null, robots, group: crawler.group, version, previousMatcher, previousAllowed };
    batch.push(item);
    if (previousMatcher !== null) {
      let older = this.olderPending.get(previousMatcher);
      if (older === undefined) this.olderPending.set(previousMatcher, older = []);
      older.push(item);
    }
  }

  /**
   * Judges the requests added since the last call: per matcher, their verdicts and deciding rules in one bulk
   * call (decidingRules), then counts the disallowed ones, in the order they came. A target with a line break
   * (never one of a log line; as a line of the bulk call it would be cut) is judged on its own. Called after
   * each line or chunk, and before crawlers are dropped or reported.
   */
  private judgePending(): void {
    this.judgeAll();
    // versions a history dropped while their requests waited are closed now that they are judged
    this.options.history?.closeDropped();
  }

  private judgeAll(): void {
    // the older versions' verdicts of requests within 24 h after a change: one bulk call per matcher
    for (const [matcher, items] of this.olderPending) {
      const inBulk = items.filter((item) => !isAlone(item));
      const verdicts = inBulk.length === 0 ? new Uint8Array(0) : matcher.checkLines(linesOf(inBulk));
      inBulk.forEach((item, i) => { item.previousAllowed = verdicts[i] === VERDICT_ALLOWED; });
      for (const item of items) if (isAlone(item)) item.previousAllowed = matcher.isAllowed(item.entry.target);
    }
    this.olderPending.clear();
    for (const [matcher, batch] of this.pending) {
      const inBulk = batch.filter((item) => !isAlone(item));
      const lines = inBulk.length === 0 ? null : linesOf(inBulk);
      const judged = lines === null ? { verdicts: new Uint8Array(0), rules: [] } : matcher.decidingRules(lines);
      let next = 0;
      for (const item of batch) {
        let allowed: boolean;
        let rule: Readonly<DecidingRule> | null;
        if (isAlone(item)) {
          const explanation = matcher.explain(item.entry.target);
          allowed = explanation.allowed;
          rule = explanation.rule;
        } else {
          const i = next++;
          allowed = judged.verdicts[i] === VERDICT_ALLOWED;
          rule = judged.rules[i];
        }
        // the two versions of a change less than 24 h old disagree: either, never a violation
        if (item.previousAllowed !== undefined && item.previousAllowed !== allowed) this.countEither(item.state);
        else if (!allowed) this.countDisallowed(item, rule);
        else this.countAllowed(item.state);
      }
      if (lines !== null) this.judgeUsage(inBulk, lines, judged.verdicts);
    }
    this.pending.clear();
  }

  /**
   * AI usage of a batch judged by one matcher (one file, one group): each request robots.txt allowed whose
   * crawler's purpose (USAGE_PURPOSES) the file states no for: by a Content-Usage rule (one bulk call of the
   * usage paths' matcher per category in the batch) or by a Content-Signal. Counted apart from violations.
   */
  private judgeUsage(items: readonly PendingRequest[], lines: Uint8Array, verdicts: Uint8Array): void {
    const policy = items[0].robots.usagePolicy(items[0].group);
    // a group that states no preference judges nothing (and asks no crawler its kind)
    if (policy.statedCategories.length === 0 && policy.signals.size === 0) return;
    const stated = new Set(policy.statedCategories);
    // one purpose verdict per line (UsagePolicy.purposeOfCrawled: what check --usage answers), per purpose met
    const byPurpose = new Map<string, ReturnType<UsagePolicy['purposeOfCrawled']>>();
    items.forEach((item, i) => {
      const name = USAGE_PURPOSES[this.categoryOf(item.state)];
      if (name === undefined) return;
      const purpose = usagePurpose(name);
      const signal = purpose.signal === null ? undefined : policy.signals.get(purpose.signal);
      if ((purpose.usage !== null && stated.has(purpose.usage)) || signal !== undefined) this.usageStated = true;
      if (verdicts[i] !== VERDICT_ALLOWED) return;
      let judged = byPurpose.get(name);
      if (judged === undefined) {
        judged = policy.purposeOfCrawled(lines, purpose, verdicts);
        byPurpose.set(name, judged);
      }
      if (judged.usage[i] !== USAGE_DISALLOWED) return;
      const source = PURPOSE_SOURCES[judged.sources[i]] as 'content-usage' | 'content-signal';
      const against = { source, line: judged.lines[i], preference: source === 'content-usage' ? `${purpose.usage}=n` : `${purpose.signal}=no` };
      const state = item.state;
      state.usageAgainst++;
      this.usageAgainstTotal++;
      const key = `${item.file ?? ''} ${against.source} ${against.line}`;
      const entry = state.usageBy.get(key) ?? { file: item.file, ...against, requests: 0 };
      entry.requests++;
      state.usageBy.set(key, entry);
    });
  }

  /** The counts of a version for a crawler and for the report, each made on first use; counts the request. */
  private versionCounts(state: CrawlerState, version: RobotsVersionKey): NonNullable<PendingRequest['version']> {
    state.byVersion ??= new Map();
    let mine = state.byVersion.get(version.key);
    if (mine === undefined) state.byVersion.set(version.key, mine = { host: version.host, from: version.label, requests: 0, disallowed: 0 });
    let all = this.versionTotals.get(version.key);
    if (all === undefined) this.versionTotals.set(version.key, all = { host: version.host, from: version.label, requests: 0, disallowed: 0 });
    mine.requests++;
    all.requests++;
    return { mine, all };
  }

  /** An allowed request of a crawler (user-triggered fetchers are not counted in the total). */
  private countAllowed(state: CrawlerState): void {
    if (!state.userTriggered) this.allowedTotal++;
  }

  /** A request within 24 h after a change that the two versions judge differently: counted apart, never as disallowed. */
  private countEither(state: CrawlerState): void {
    state.either++;
    this.eitherTotal++;
  }

  /** Counts a disallowed request of a crawler, by its deciding rule (its line and pattern). */
  private countDisallowed(item: PendingRequest, rule: Readonly<DecidingRule> | null): void {
    const { state, bucket } = item;
    state.disallowed++;
    if (item.version !== null) {
      item.version.mine.disallowed++;
      item.version.all.disallowed++;
    }
    state.byStatus[statusClass(item.status)]++;
    if (!state.userTriggered) {
      this.disallowedTotal++;
      if (bucket !== null) bucket.disallowed++;
    }
    if (rule !== null) {
      const { line, pattern } = rule;
      const ruleKey = `${item.file ?? ''} ${line} ${pattern}`;
      const entry = state.rules.get(ruleKey) ?? { file: item.file, line, pattern, requests: 0 };
      entry.requests++;
      state.rules.set(ruleKey, entry);
    }
    state.paths ??= new PathCounter(TRACKED_PATHS);
    state.paths.add(`${item.pathHost ?? ''} ${item.path}`);
  }

  /** The state of a crawler (an impostor apart), made when new; at 2 x MAX_CRAWLERS, the least disallowed half is dropped first. */
  private stateOf(agent: string, host: string | null, group: string | null, groupHost: string | null, impostor: boolean, from: { name: string; userDirected: boolean } | null, family: CrawlerFamily | null, userAgent: string): CrawlerState {
    const key = crawlerKey(host, agent, impostor, from?.name ?? null);
    let state = this.crawlers.get(key);
    if (state !== undefined) {
      if (group !== state.group) state.mixedGroups = bothDiffer(state.mixedGroups, groupHost === state.groupHost ? 'version' : 'host');
      return state;
    }
    if (this.crawlers.size >= 2 * MAX_CRAWLERS) {
      this.judgePending(); // (the disallowed counts decide who is dropped)
      this.dropLeastDisallowed();
    }
    state = {
      agent, host, impostor, from: from?.name ?? null, vendor: family?.vendor.id ?? null, family: family?.id ?? null, group, mixedGroups: null, groupHost,
      userTriggered: isUserTriggeredFetcher(agent) || from?.userDirected === true,
      userAgent: userAgent.slice(0, 1024), requests: 0, disallowed: 0, missed: this.droppedFloor,
      byStatus: { '2xx': 0, '3xx': 0, '4xx': 0, '5xx': 0, other: 0 }, robotsTxtFetches: 0,
      verification: this.verifying ? { verified: 0, impostor: 0, unknown: 0, 'not-checked': 0 } : null, services: this.verifying ? new Map() : null, rules: new Map(), paths: null,
      category: null, categoryUserAgent: this.categoryUserAgent(agent, userAgent), usageAgainst: 0, usageBy: new Map(), byVersion: null, either: 0, noRulesKnown: 0, noRules: 0,
    };
    this.crawlers.set(key, state);
    return state;
  }

  /** The User-Agent a new crawler's kind is read from: the first seen with its name (kept up to NAME_CACHE names and NAME_CACHE_CHARS characters). */
  private categoryUserAgent(agent: string, userAgent: string): string {
    const nameKey = asciiLowerCase(agent);
    let entry = this.categories.get(nameKey);
    if (entry === undefined) {
      const text = userAgent.slice(0, 1024);
      if (this.categories.size >= NAME_CACHE || this.categoryTextChars + text.length > NAME_CACHE_CHARS) {
        this.categories.clear();
        this.categoryTextChars = 0;
      }
      entry = { userAgent: text, category: null };
      this.categories.set(nameKey, entry);
      this.categoryTextChars += text.length;
    }
    return entry.userAgent;
  }

  /** A crawler's kind, read once per name and first User-Agent when first needed. */
  private categoryOf(state: CrawlerState): CrawlerCategory {
    if (state.category !== null) return state.category;
    const entry = this.categories.get(asciiLowerCase(state.agent));
    if (entry !== undefined && entry.userAgent === state.categoryUserAgent && entry.category !== null) state.category = entry.category;
    else {
      state.category = crawlerCategory(state.agent, state.categoryUserAgent);
      if (entry !== undefined && entry.userAgent === state.categoryUserAgent) entry.category = state.category;
    }
    return state.category;
  }

  /** Drops the MAX_CRAWLERS tracked crawlers with the fewest disallowed requests (then requests), summing them. O(n log n), once per MAX_CRAWLERS new crawlers. */
  private dropLeastDisallowed(): void {
    const ranked = [...this.crawlers].sort((a, b) => b[1].disallowed - a[1].disallowed || b[1].requests - a[1].requests);
    for (const [key, state] of ranked.slice(MAX_CRAWLERS)) {
      this.untracked.crawlers++;
      this.untracked.requests += state.requests;
      if (!state.userTriggered) this.untracked.disallowed += state.disallowed;
      this.untracked.usageAgainst += state.usageAgainst;
      this.droppedFloor = Math.max(this.droppedFloor, state.disallowed + state.missed);
      this.crawlers.delete(key);
    }
  }

  /** The report so far (called once, at the end). */
  report(): AuditReport {
    this.judgePending();
    const all = [...this.crawlers.values()].map((state): CrawlerAudit => {
      const category = this.categoryOf(state);
      const purpose = USAGE_PURPOSES[category];
      return {
        agent: state.agent,
        impostor: state.impostor,
        from: state.from,
        userDirected: state.userTriggered,
        host: state.host,
        vendor: state.vendor,
        family: state.family,
        group: state.group,
        groupLabel: groupLabel(state.agent, state.group, state.mixedGroups),
        named: state.group !== null && state.group !== '*',
        category,
        requests: state.requests,
        disallowed: state.disallowed,
        noRulesKnown: state.noRules,
        disallowedUpTo: state.disallowed + state.missed,
        disallowedByStatus: { ...state.byStatus },
        robotsTxtFetches: state.robotsTxtFetches,
        verification: state.verification === null ? null : { ...state.verification },
        verifiedServices: state.services === null ? null : Object.fromEntries([...state.services].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))),
        rules: [...state.rules.values()].sort((a, b) => b.requests - a.requests || a.line - b.line || ((a.file ?? '') < (b.file ?? '') ? -1 : 1)),
        topDisallowedPaths: state.paths?.top(TOP_PATHS) ?? [],
        usage: purpose === undefined ? null : {
          purpose,
          against: state.usageAgainst,
          by: [...state.usageBy.values()].sort((a, b) => b.requests - a.requests || a.line - b.line).map((entry) => ({ ...entry })),
        },
        history: this.withHistory ? { versions: versionList(state.byVersion?.values() ?? []), either: state.either, noRulesKnown: state.noRulesKnown } : null,
      };
    });
    const byDisallowed = (a: CrawlerAudit, b: CrawlerAudit): number => b.disallowed - a.disallowed || b.requests - a.requests || (a.agent < b.agent ? -1 : a.agent > b.agent ? 1 : Number(a.impostor) - Number(b.impostor) || ((a.from ?? '') < (b.from ?? '') ? -1 : (a.from ?? '') > (b.from ?? '') ? 1 : (a.host ?? '') < (b.host ?? '') ? -1 : 1));
    const userTriggered = all.filter((c) => c.userDirected).sort((a, b) => b.requests - a.requests || byDisallowed(a, b));
    const crawlers = all.filter((c) => !c.userDirected).sort(byDisallowed);
    const top = this.options.top ?? 0;
    const shown = top > 0 ? crawlers.slice(0, top) : crawlers;
    const rest = crawlers.slice(shown.length);
    return {
      lines: this.lineCount,
      crawlerRequests: this.crawlerRequests,
      otherRequests: this.otherRequests,
      disallowed: this.disallowedTotal,
      allowed: this.allowedTotal,
      noRulesKnown: { requests: this.noRulesTotal, origins: [...this.noRulesOrigins], judged: this.options.missing === 'disallow' ? 'as disallowed' : 'not judged' },
      outsideTime: this.outsideTime,
      malformed: { count: this.malformedCount, lines: this.malformedLines },
      crawlers: shown,
      moreCrawlers: { crawlers: rest.length, requests: rest.reduce((sum, c) => sum + c.requests, 0), disallowed: rest.reduce((sum, c) => sum + c.disallowed, 0), usageAgainst: rest.reduce((sum, c) => sum + (c.usage?.against ?? 0), 0) },
      userTriggered,
      untracked: { ...this.untracked },
      verification: this.verificationTotals === null ? null : { ...this.verificationTotals },
      verifiedBy: this.verifiedBy(),
      timeline: [...this.hours].sort((a, b) => a[0] - b[0]).map(([hour, counts]) => ({ hour: hourText(hour), ...counts })),
      usage: { against: this.usageAgainstTotal, stated: this.usageStated },
      reading: this.options.reading ?? 'crawler',
      history: this.withHistory ? { versions: versionList(this.versionTotals.values()), either: this.eitherTotal, noRulesKnown: this.noRulesKnownTotal } : null,
    };
  }

  /** What verification rested on: the verifier's, or the merged partials'. */
  private verifiedBy(): AuditReport['verifiedBy'] {
    const verifier = this.options.verifier;
    if (verifier === undefined) return this.mergedVerifiedBy;
    return {
      dns: verifier.dns ? { problem: verifier.dnsProblem?.reason ?? null, unknown: verifier.dnsProblem?.unknown ?? 0 } : null,
      families: verifier.coverage(),
      maxAgeDays: verifier.rangesMaxAgeDays,
    };
  }

  /**
   * What this audit has counted, whole (no top-N cut, every tracked path), for a merge with other parts of the
   * same logs (AuditPartial); logs: the logs read and their line counts, in order. Called once, at the end,
   * by audit --format partial.
   */
  partial(logs: { log: string; lines: number }[]): AuditPartial {
    this.judgePending();
    return {
      format: AUDIT_PARTIAL_FORMAT,
      shape: { verifying: this.verifying, withHistory: this.withHistory, byHost: this.options.byHost === true, missing: this.options.missing ?? 'allow', reading: this.options.reading ?? 'crawler' },
      logs: logs.map((entry) => ({ ...entry })),
      lines: this.lineCount,
      crawlerRequests: this.crawlerRequests,
      otherRequests: this.otherRequests,
      outsideTime: this.outsideTime,
      disallowed: this.disallowedTotal,
      allowed: this.allowedTotal,
      noRulesKnown: { requests: this.noRulesTotal, origins: [...this.noRulesOrigins] },
      malformed: { count: this.malformedCount, lines: this.malformedLines.map((entry) => ({ ...entry })) },
      crawlers: [...this.crawlers.values()].map((state) => ({
        agent: state.agent, host: state.host, impostor: state.impostor, from: state.from, vendor: state.vendor, family: state.family, group: state.group, mixedGroups: state.mixedGroups, groupHost: state.groupHost,
        userTriggered: state.userTriggered, userAgent: state.userAgent, category: this.categoryOf(state), requests: state.requests, disallowed: state.disallowed,
        missed: state.missed, byStatus: { ...state.byStatus }, robotsTxtFetches: state.robotsTxtFetches,
        verification: state.verification === null ? null : { ...state.verification },
        services: state.services === null ? null : [...state.services],
        rules: [...state.rules.values()].map((rule) => ({ ...rule })),
        paths: state.paths === null ? null : state.paths.entries(),
        usageAgainst: state.usageAgainst, usageBy: [...state.usageBy.values()].map((entry) => ({ ...entry })),
        byVersion: state.byVersion === null ? null : [...state.byVersion.values()].map((entry) => ({ ...entry })),
        either: state.either, noRulesKnown: state.noRulesKnown, noRules: state.noRules,
      })),
      droppedFloor: this.droppedFloor + this.partsFloor,
      untracked: { ...this.untracked },
      hours: [...this.hours].map(([hour, counts]) => [hour, counts.requests, counts.disallowed] as [number, number, number]),
      verification: this.verificationTotals === null ? null : { ...this.verificationTotals },
      verifiedBy: this.verifiedBy(),
      usage: { against: this.usageAgainstTotal, stated: this.usageStated },
      history: { either: this.eitherTotal, noRulesKnown: this.noRulesKnownTotal, versions: [...this.versionTotals.values()].map((entry) => ({ ...entry })) },
    };
  }

  /**
   * The audit of logs audited in parts (audit --format partial, each part's logs in order), as one audit of them
   * all would be: every count added, crawlers, rules, paths and hours in the order one audit meets them, and
   * lines of a log read in several parts (the same name: `-` for standard input) numbered as in that log
   * whole. Exact while no part and no sum passes the audit's bounds (MAX_CRAWLERS crawlers, 2,000 paths a
   * crawler); past them, bounded the same way, with the same up-to counts. Parts must share their shape
   * (verification, history, --by host): else INVALID_ARGUMENT. top: as AuditOptions.top. Once per merge.
   */
  static merged(partials: readonly AuditPartial[], top = 0): RobotsAudit {
    if (partials.length === 0) throw new RobotsError('INVALID_ARGUMENT', 'no partial audit to merge');
    const shape = partials[0].shape;
    for (const part of partials) {
      if (part.format !== AUDIT_PARTIAL_FORMAT) throw new RobotsError('INVALID_ARGUMENT', `not a partial audit of this version (format ${JSON.stringify(part.format)}, expected ${AUDIT_PARTIAL_FORMAT})`);
      if (part.shape.verifying !== shape.verifying || part.shape.withHistory !== shape.withHistory || part.shape.byHost !== shape.byHost || part.shape.missing !== shape.missing || part.shape.reading !== shape.reading) {
        throw new RobotsError('INVALID_ARGUMENT', `partial audits made with different options cannot be merged: one ${describeShape(shape)}, another ${describeShape(part.shape)}`);
      }
    }
    const audit = new RobotsAudit(() => null, { top, byHost: shape.byHost, missing: shape.missing, reading: shape.reading }, shape);
    const linesBefore = new Map<string, number>();
    for (const part of partials) {
      audit.add(part, linesBefore);
      for (const { log, lines } of part.logs) linesBefore.set(log, (linesBefore.get(log) ?? 0) + lines);
    }
    return audit;
  }

  /** Adds one partial audit's counts (see merged); linesBefore: lines of each log read in the parts before it. */
  private add(part: AuditPartial, linesBefore: ReadonlyMap<string, number>): void {
    this.lineCount += part.lines;
    this.crawlerRequests += part.crawlerRequests;
    this.otherRequests += part.otherRequests;
    this.outsideTime += part.outsideTime;
    this.disallowedTotal += part.disallowed;
    this.allowedTotal += part.allowed;
    this.noRulesTotal += part.noRulesKnown.requests;
    for (const origin of part.noRulesKnown.origins) if (this.noRulesOrigins.length < NO_RULES_ORIGINS_NAMED && !this.noRulesOrigins.includes(origin)) this.noRulesOrigins.push(origin);
    this.malformedCount += part.malformed.count;
    for (const entry of part.malformed.lines) {
      if (this.malformedLines.length < MAX_MALFORMED_LINES) this.malformedLines.push({ log: entry.log, line: entry.line + (linesBefore.get(entry.log) ?? 0) });
    }
    // a crawler this part does not track may have had up to its dropped floor there (and one it tracks, its own miss)
    const seen = new Set<string>();
    for (const crawler of part.crawlers) {
      const key = crawlerKey(crawler.host, crawler.agent, crawler.impostor, crawler.from);
      seen.add(key);
      let state = this.crawlers.get(key);
      if (state === undefined) {
        if (this.crawlers.size >= 2 * MAX_CRAWLERS) this.dropLeastDisallowed();
        state = {
          agent: crawler.agent, host: crawler.host, impostor: crawler.impostor, from: crawler.from, vendor: crawler.vendor, family: crawler.family, group: crawler.group, mixedGroups: crawler.mixedGroups, groupHost: crawler.groupHost,
          userTriggered: crawler.userTriggered, userAgent: crawler.userAgent, requests: 0, disallowed: 0, missed: this.droppedFloor + this.partsFloor,
          byStatus: { '2xx': 0, '3xx': 0, '4xx': 0, '5xx': 0, other: 0 }, robotsTxtFetches: 0,
          verification: this.verifying ? { verified: 0, impostor: 0, unknown: 0, 'not-checked': 0 } : null, services: this.verifying ? new Map() : null, rules: new Map(), paths: null,
          category: crawler.category, categoryUserAgent: crawler.userAgent, usageAgainst: 0, usageBy: new Map(), byVersion: null, either: 0, noRulesKnown: 0, noRules: 0,
        };
        this.crawlers.set(key, state);
      } else {
        state.mixedGroups = bothDiffer(state.mixedGroups, crawler.mixedGroups);
        if (crawler.group !== state.group) state.mixedGroups = bothDiffer(state.mixedGroups, crawler.groupHost === state.groupHost ? 'version' : 'host');
      }
      state.requests += crawler.requests;
      state.disallowed += crawler.disallowed;
      state.missed += crawler.missed;
      for (const status of Object.keys(state.byStatus) as (keyof StatusClasses)[]) state.byStatus[status] += crawler.byStatus[status];
      state.robotsTxtFetches += crawler.robotsTxtFetches;
      if (state.verification !== null && crawler.verification !== null) for (const verdict of Object.keys(state.verification) as Verification[]) state.verification[verdict] += crawler.verification[verdict];
      if (state.services !== null && crawler.services !== null) for (const [service, count] of crawler.services) state.services.set(service, (state.services.get(service) ?? 0) + count);
      for (const rule of crawler.rules) {
        const ruleKey = `${rule.file ?? ''} ${rule.line} ${rule.pattern}`;
        const entry = state.rules.get(ruleKey) ?? { file: rule.file, line: rule.line, pattern: rule.pattern, requests: 0 };
        entry.requests += rule.requests;
        state.rules.set(ruleKey, entry);
      }
      if (crawler.paths !== null) (state.paths ??= new PathCounter(TRACKED_PATHS)).merge(crawler.paths);
      state.usageAgainst += crawler.usageAgainst;
      for (const by of crawler.usageBy) {
        const usageKey = `${by.file ?? ''} ${by.source} ${by.line}`;
        const entry = state.usageBy.get(usageKey) ?? { ...by, requests: 0 };
        entry.requests += by.requests;
        state.usageBy.set(usageKey, entry);
      }
      if (crawler.byVersion !== null) {
        state.byVersion ??= new Map();
        for (const version of crawler.byVersion) {
          const versionKey = `${version.host} ${version.from}`;
          const entry = state.byVersion.get(versionKey) ?? { host: version.host, from: version.from, requests: 0, disallowed: 0 };
          entry.requests += version.requests;
          entry.disallowed += version.disallowed;
          state.byVersion.set(versionKey, entry);
        }
      }
      state.either += crawler.either;
      state.noRulesKnown += crawler.noRulesKnown;
      state.noRules += crawler.noRules;
    }
    if (part.droppedFloor > 0) for (const [key, state] of this.crawlers) if (!seen.has(key)) state.missed += part.droppedFloor;
    this.partsFloor += part.droppedFloor;
    this.untracked.crawlers += part.untracked.crawlers;
    this.untracked.requests += part.untracked.requests;
    this.untracked.disallowed += part.untracked.disallowed;
    this.untracked.usageAgainst += part.untracked.usageAgainst;
    for (const [hour, requests, disallowed] of part.hours) {
      const bucket = this.hours.get(hour) ?? { requests: 0, disallowed: 0 };
      bucket.requests += requests;
      bucket.disallowed += disallowed;
      this.hours.set(hour, bucket);
    }
    if (this.verificationTotals !== null && part.verification !== null) for (const verdict of Object.keys(this.verificationTotals) as Verification[]) this.verificationTotals[verdict] += part.verification[verdict];
    this.mergedVerifiedBy = mergeVerifiedBy(this.mergedVerifiedBy, part.verifiedBy);
    this.usageAgainstTotal += part.usage.against;
    this.usageStated ||= part.usage.stated;
    this.eitherTotal += part.history.either;
    this.noRulesKnownTotal += part.history.noRulesKnown;
    for (const version of part.history.versions) {
      const versionKey = `${version.host} ${version.from}`;
      const entry = this.versionTotals.get(versionKey) ?? { host: version.host, from: version.from, requests: 0, disallowed: 0 };
      entry.requests += version.requests;
      entry.disallowed += version.disallowed;
      this.versionTotals.set(versionKey, entry);
    }
  }
}

/** A version as the audit counts by it: the object a history gives (the same one while the history keeps it). */
interface RobotsVersionKey { readonly host: string; readonly label: string; readonly key: string }

/** A target with a line break (never one of a log line) is judged on its own: as a line of a bulk call it would be cut. */
const isAlone = (item: PendingRequest): boolean => item.alone;

/** Per-version counts in report order: by host, then time. */
function versionList(counts: Iterable<{ host: string; from: string; requests: number; disallowed: number }>): { host: string; from: string; requests: number; disallowed: number }[] {
  return [...counts].map((entry) => ({ ...entry })).sort((a, b) => (a.host < b.host ? -1 : a.host > b.host ? 1 : a.from < b.from ? -1 : a.from > b.from ? 1 : 0));
}

/** True for a request of /robots.txt itself (a path or an absolute URL, with or without a query). */
function isRobotsTxtRequest(target: string): boolean {
  const path = target.replace(/^[a-zA-Z][a-zA-Z0-9+.-]*:\/\/[^/?#]*/, '');
  const end = path.search(/[?#]/);
  return (end < 0 ? path : path.slice(0, end)) === '/robots.txt';
}
