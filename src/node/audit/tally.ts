// The third step of an audit: counts. Each crawler's requests, verdicts, rules, paths, statuses, usage and
// versions, the hours, the totals and what was dropped; and the report read out of them. Nothing here
// classifies or judges: the judge (judge.ts) hands verdicts in, and the audit (audit.ts) decides when crawlers
// are dropped (after judging what waits). Memory stays bounded however many crawlers and paths a log holds.
import { asciiLowerCase } from '../../core/robots.js';
import type { DecidingRule } from '../../core/matcher.js';
import { USAGE_PURPOSES, type CrawlerCategory } from '../crawlers/index.js';
import { isUserTriggeredFetcher, type CrawlerFamily, type Verification } from '../crawlers/index.js';
import type { RobotsVersion } from '../history/index.js';
import { CrawlerKinds } from './classify.js';
import { PathCounter } from './paths.js';
import { groupLabel, noSignatures, type AuditReport, type AuditSignatures, type CrawlerAudit, type GroupsDiffer, type SignatureCounts, type SignatureFailure, type SignedVerdict, type StatusClasses, type VerificationCounts } from './report.js';
import type { SignatureCheck } from '../signatures/index.js';

const TOP_PATHS = 20;
/** Origins without known rules named in the report (AuditReport.noRulesKnown). */
export const NO_RULES_ORIGINS_NAMED = 5;
/**
 * Disallowed paths tracked per crawler: when twice this many are tracked, the less requested half is
 * dropped, and a path that comes back may have missed up to the largest count dropped (its `upTo`).
 * Frequent paths stay exact; memory and time per request stay bounded.
 */
export const TRACKED_PATHS = 2000;
export const MAX_MALFORMED_LINES = 100;
/** Signatures that failed or were not checked, listed with their lines (the report and a partial keep this many). */
export const MAX_SIGNATURE_FAILURES = 100;
/** Agents whose keys were not given, counted one by one up to this many (the rest in `others`); the report names the first 20 by requests. */
export const MAX_AGENTS_WITHOUT_KEYS = 1000;
export const AGENTS_WITHOUT_KEYS_NAMED = 20;
/**
 * Crawlers tracked one by one (rules, paths, exact counts): when twice this many are tracked, the half with
 * the fewest disallowed requests is dropped (summed in `untracked`), and a crawler that comes back may have
 * missed up to the most disallowed requests a dropped one had (its `disallowedUpTo`). The leaders stay exact
 * however many crawlers a log has; memory stays bounded.
 */
export const MAX_CRAWLERS = 10_000;

const HOUR_MS = 3_600_000;
/** "2015-05-17 10:00" (UTC) of an hour counted from 1970 (formatted once per hour, in the report). */
const hourText = (hour: number): string => `${new Date(hour * HOUR_MS).toISOString().slice(0, 13).replace('T', ' ')}:00`;

/** The reasons of two GroupsDiffer together. */
export function bothDiffer(a: GroupsDiffer, b: GroupsDiffer): GroupsDiffer {
  if (a === null || a === b) return b ?? a;
  if (b === null) return a;
  return 'host and version';
}

/** A crawler's row key: a host's, an impostor's and a row of addresses from another file of its vendor apart. */
export function crawlerKey(host: string | null, agent: string, impostor: boolean, from: string | null): string {
  return `${host ?? ''} ${asciiLowerCase(agent)}${impostor ? ' impostor' : ''}${from === null ? '' : ` from ${from}`}`;
}

/** The class of a status code. */
function statusClass(status: number | null): keyof StatusClasses {
  if (status === null || status < 200 || status > 599) return 'other';
  return status < 300 ? '2xx' : status < 400 ? '3xx' : status < 500 ? '4xx' : '5xx';
}

/** Counts of one version of a file (a history's): its requests and disallowed requests. */
export interface VersionCounts { host: string; from: string; requests: number; disallowed: number }

/** One crawler's counts (a row of the report). */
export interface CrawlerState {
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
  /** Its first User-Agent (1,024 characters at most). */
  userAgent: string;
  requests: number;
  disallowed: number;
  /** Disallowed requests it may have had before it was tracked (again): the floor when it was added. */
  missed: number;
  byStatus: StatusClasses;
  robotsTxtFetches: number;
  verification: VerificationCounts | null;
  /** Signed requests by what their signature said (with signature keys). */
  signatures: SignatureCounts | null;
  /** Verified requests by JAFAR service label (with verification). */
  services: Map<string, number> | null;
  rules: Map<string, { file: string | null; line: number; pattern: string; requests: number }>;
  paths: PathCounter | null;
  /** Its kind, read when first needed (CrawlerKinds.kindOf), from its name and the first User-Agent seen with that name. */
  category: CrawlerCategory | null;
  categoryUserAgent: string;
  /** Requests against a stated usage preference for its purpose, by statement (see CrawlerAudit.usage). */
  usageAgainst: number;
  usageBy: Map<string, { file: string | null; source: 'content-usage' | 'content-signal'; line: number; preference: string; requests: number }>;
  /** With a history: its requests and disallowed requests per version (key `host from`), and its either and no-rules-known counts. */
  byVersion: Map<string, VersionCounts> | null;
  either: number;
  noRulesKnown: number;
  /** Its requests whose rules were not known (AuditReport.noRulesKnown; with a history, noRulesKnown's too). */
  noRules: number;
}

/** What names a crawler's row and its kind (the rest of CrawlerState is its counts). */
export type CrawlerRow = Pick<CrawlerState, 'agent' | 'host' | 'impostor' | 'from' | 'vendor' | 'family' | 'group' | 'mixedGroups' | 'groupHost' | 'userTriggered' | 'userAgent' | 'category' | 'categoryUserAgent'>;

/** What a crawler is when first counted (the classifier's answer and the verification's). */
export interface NewCrawler {
  agent: string;
  /** With --by host: the host of its row. */
  host: string | null;
  group: string | null;
  /** The host whose file gave the group. */
  groupHost: string | null;
  impostor: boolean;
  /** The vendor's file that holds its address when that file does not cover it, and whether that file is user-directed. */
  from: { name: string; userDirected: boolean } | null;
  family: CrawlerFamily | null;
  userAgent: string;
  /** A verified signature's card says trigger fetcher: listed with the user-triggered fetchers. */
  fetcher?: boolean;
}

/** A request as counted when judged: its crawler, hour, status, where its rule and path are counted, and its version's counts. */
export interface JudgedRequest {
  state: CrawlerState;
  bucket: { requests: number; disallowed: number } | null;
  path: string;
  status: number | null;
  /** The host whose file judged it, with --by host and files per host. */
  file: string | null;
  /** The host its path is counted under (files per host or a history, without --by host), else null. */
  pathHost: string | null;
  version: { mine: { disallowed: number }; all: { disallowed: number } } | null;
}

/** What shape a tally's report takes, and what it reports (the audit's options). */
export interface TallyShape {
  verifying: boolean;
  withHistory: boolean;
  top: number;
  missing: 'allow' | 'disallow';
  reading: 'crawler' | 'token';
  /** Signed requests are judged by their signatures (audit --signature-keys). */
  signatures: boolean;
}

/** What an audit's signed requests said, as the tally keeps it (AuditReport.signatures is read out of it). */
export interface SignatureTally {
  counts: SignatureCounts;
  failures: SignatureFailure[];
  /** Agent host -> requests whose signature named it and whose keys were not given (up to MAX_AGENTS_WITHOUT_KEYS agents), and the requests of agents past that. */
  withoutKeys: Map<string, number>;
  withoutKeysOthers: number;
  keyProblems: string[];
}

/** An audit's counts (see the file's head). One per audit; RobotsAudit feeds it, partial.ts reads and adds parts. */
export class AuditTally {
  lines = 0;
  crawlerRequests = 0;
  otherRequests = 0;
  outsideTime = 0;
  disallowed = 0;
  allowed = 0;
  malformedCount = 0;
  readonly malformedLines: { log: string; line: number }[] = [];
  readonly crawlers = new Map<string, CrawlerState>();
  /** Requests per hour since 1970 (UTC). */
  readonly hours = new Map<number, { requests: number; disallowed: number }>();
  readonly untracked = { crawlers: 0, requests: 0, disallowed: 0, usageAgainst: 0 };
  readonly verification: VerificationCounts | null;
  readonly signatures: SignatureTally | null;
  /** The most disallowed requests (counted + missed) of a crawler dropped from tracking. */
  droppedFloor = 0;
  /** Merged partials: their dropped floors summed (what a crawler absent from all of them may have had there). */
  partsFloor = 0;
  usageAgainst = 0;
  usageStated = false;
  either = 0;
  noRulesKnown = 0;
  readonly versionTotals = new Map<string, VersionCounts>();
  noRules = 0;
  readonly noRulesOrigins: string[] = [];
  /** Crawlers' kinds, read when first needed. */
  readonly kinds = new CrawlerKinds();

  constructor(readonly shape: TallyShape) {
    this.verification = shape.verifying ? { verified: 0, impostor: 0, unknown: 0, 'not-checked': 0 } : null;
    this.signatures = shape.signatures ? { counts: noSignatures(), failures: [], withoutKeys: new Map(), withoutKeysOthers: 0, keyProblems: [] } : null;
  }

  /** A line that is not a request line (listed up to MAX_MALFORMED_LINES). */
  countMalformed(log: string, line: number): void {
    this.malformedCount++;
    if (this.malformedLines.length < MAX_MALFORMED_LINES) this.malformedLines.push({ log, line });
  }

  /** Requests of origins whose rules are not known (the first few origins named). */
  countNoRules(state: CrawlerState, origin: string | null): void {
    state.noRules++;
    if (state.userTriggered) return;
    this.noRules++;
    if (origin !== null && this.noRulesOrigins.length < NO_RULES_ORIGINS_NAMED && !this.noRulesOrigins.includes(origin)) this.noRulesOrigins.push(origin);
  }

  /** A request with a history and no version in force at its time. */
  countNoVersion(state: CrawlerState): void {
    state.noRulesKnown++;
    this.noRulesKnown++;
  }

  /** True when counting a crawler of this key would first need room (it is new, and 2 x MAX_CRAWLERS are tracked): see dropLeastDisallowed. */
  needsRoomFor(key: string): boolean {
    return this.crawlers.size >= 2 * MAX_CRAWLERS && !this.crawlers.has(key);
  }

  /**
   * A tracked crawler's counts with one more request (a group from another file marks it mixed), or undefined
   * when it is not tracked (then countNewCrawler). Per crawler request.
   */
  countRequest(key: string, group: string | null, groupHost: string | null): CrawlerState | undefined {
    const state = this.crawlers.get(key);
    if (state === undefined) return undefined;
    if (group !== state.group) state.mixedGroups = bothDiffer(state.mixedGroups, groupHost === state.groupHost ? 'version' : 'host');
    state.requests++;
    return state;
  }

  /** A crawler tracked from now on (its row as first seen), with its first request. Per new crawler. */
  countNewCrawler(key: string, { agent, host, group, groupHost, impostor, from, family, userAgent, fetcher }: NewCrawler): CrawlerState {
    const state = this.track(key, {
      agent, host, impostor, from: from?.name ?? null, vendor: family?.vendor.id ?? null, family: family?.id ?? null, group, mixedGroups: null, groupHost,
      userTriggered: isUserTriggeredFetcher(agent) || from?.userDirected === true || fetcher === true, userAgent: userAgent.slice(0, 1024),
      category: null, categoryUserAgent: this.kinds.firstUserAgent(agent, userAgent),
    }, this.droppedFloor);
    state.requests++;
    return state;
  }

  /** A crawler tracked from now on, its counts at zero (missed: what it may have had before). Per new crawler, and per crawler a merged part adds. */
  track(key: string, row: CrawlerRow, missed: number): CrawlerState {
    const verifying = this.shape.verifying;
    // every field by name, not `...row`: a state made by spreading the row took 2.5x as long per new crawler
    // (12.4 s against 4.9 s for 200,000 lines each a different bot: V8's copy of the spread, then each
    // further field a slower object), and it is made once per crawler first seen
    const state: CrawlerState = {
      agent: row.agent, host: row.host, impostor: row.impostor, from: row.from, vendor: row.vendor, family: row.family, group: row.group, mixedGroups: row.mixedGroups,
      groupHost: row.groupHost, userTriggered: row.userTriggered, userAgent: row.userAgent, category: row.category, categoryUserAgent: row.categoryUserAgent,
      requests: 0, disallowed: 0, missed, byStatus: { '2xx': 0, '3xx': 0, '4xx': 0, '5xx': 0, other: 0 }, robotsTxtFetches: 0,
      verification: verifying ? { verified: 0, impostor: 0, unknown: 0, 'not-checked': 0 } : null, signatures: this.shape.signatures ? noSignatures() : null, services: verifying ? new Map() : null, rules: new Map(), paths: null,
      usageAgainst: 0, usageBy: new Map(), byVersion: null, either: 0, noRulesKnown: 0, noRules: 0,
    };
    this.crawlers.set(key, state);
    return state;
  }

  /** The hour's counts of a request at timeMs, with the request counted (null: the line has no time). Per crawler request. */
  countHour(timeMs: number | null): { requests: number; disallowed: number } | null {
    if (timeMs === null) return null;
    const hour = Math.floor(timeMs / HOUR_MS);
    let bucket = this.hours.get(hour);
    if (bucket === undefined) this.hours.set(hour, bucket = { requests: 0, disallowed: 0 });
    bucket.requests++;
    return bucket;
  }

  /** A request's verification verdict and the services its address is labelled with. */
  countVerification(state: CrawlerState, verdict: Verification, services: readonly string[] | null): void {
    (this.verification as VerificationCounts)[verdict]++;
    if (state.verification !== null) state.verification[verdict]++;
    if (services !== null && state.services !== null) for (const service of services) state.services.set(service, (state.services.get(service) ?? 0) + 1);
  }

  /**
   * A signed request's signature verdict (rangesDisagree: its IP ranges said otherwise than the signature that
   * decided it; keysMissing: not checked because its agent's keys were not given), with the line of one that
   * failed or was not checked (listed up to MAX_SIGNATURE_FAILURES). Per signed crawler request.
   */
  countSignature(state: CrawlerState, check: SignatureCheck, { rangesDisagree, keysMissing }: { rangesDisagree: boolean; keysMissing: boolean }, log: string, line: number): void {
    const signatures = this.signatures as SignatureTally;
    const verdict = check.verdict as SignedVerdict;
    signatures.counts[verdict]++;
    if (state.signatures !== null) state.signatures[verdict]++;
    if (rangesDisagree) {
      signatures.counts.rangesDisagree++;
      if (state.signatures !== null) state.signatures.rangesDisagree++;
    }
    if (verdict === 'verified') return;
    if (signatures.failures.length < MAX_SIGNATURE_FAILURES) signatures.failures.push({ log, line, verdict, agent: check.agent, reason: check.reason ?? '' });
    if (keysMissing && check.agent !== null) this.countWithoutKeys(check.agent, 1);
  }

  /** Requests of an agent whose keys were not given (up to MAX_AGENTS_WITHOUT_KEYS agents named). Per such request, and per agent a merged part adds. */
  countWithoutKeys(agent: string, requests: number): void {
    const signatures = this.signatures as SignatureTally;
    const known = signatures.withoutKeys.get(agent);
    if (known !== undefined) signatures.withoutKeys.set(agent, known + requests);
    else if (signatures.withoutKeys.size < MAX_AGENTS_WITHOUT_KEYS) signatures.withoutKeys.set(agent, requests);
    else signatures.withoutKeysOthers += requests;
  }

  /** The agents without keys a report names (most requests first, AGENTS_WITHOUT_KEYS_NAMED of them) and the requests of the others. Once per report. */
  private withoutKeysNamed(signatures: SignatureTally): Pick<AuditSignatures, 'withoutKeys' | 'withoutKeysOthers'> {
    const ranked = [...signatures.withoutKeys].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
    const named = ranked.slice(0, AGENTS_WITHOUT_KEYS_NAMED);
    return {
      withoutKeys: named.map(([agent, requests]) => ({ agent, requests })),
      withoutKeysOthers: signatures.withoutKeysOthers + ranked.slice(named.length).reduce((sum, [, requests]) => sum + requests, 0),
    };
  }

  /** The counts of a version for a crawler and for the report, each made on first use; counts the request. */
  countVersion(state: CrawlerState, version: Pick<RobotsVersion, 'host' | 'label' | 'key'>): NonNullable<JudgedRequest['version']> {
    state.byVersion ??= new Map();
    let mine = state.byVersion.get(version.key);
    if (mine === undefined) state.byVersion.set(version.key, mine = { host: version.host, from: version.label, requests: 0, disallowed: 0 });
    let all = this.versionTotals.get(version.key);
    if (all === undefined) this.versionTotals.set(version.key, all = { host: version.host, from: version.label, requests: 0, disallowed: 0 });
    mine.requests++;
    all.requests++;
    return { mine, all };
  }

  /** A request of /robots.txt itself: the crawler reading the rules, allowed. */
  countRobotsTxtFetch(state: CrawlerState): void {
    state.robotsTxtFetches++;
    this.countAllowed(state);
  }

  /** An allowed request of a crawler (user-triggered fetchers are not counted in the total). */
  countAllowed(state: CrawlerState): void {
    if (!state.userTriggered) this.allowed++;
  }

  /** A request within 24 h after a change that the two versions judge differently: counted apart, never as disallowed. */
  countEither(state: CrawlerState): void {
    state.either++;
    this.either++;
  }

  /** Counts a disallowed request of a crawler, by its deciding rule (its line and pattern). */
  countDisallowed(item: JudgedRequest, rule: Readonly<DecidingRule> | null): void {
    const { state, bucket } = item;
    state.disallowed++;
    if (item.version !== null) {
      item.version.mine.disallowed++;
      item.version.all.disallowed++;
    }
    state.byStatus[statusClass(item.status)]++;
    if (!state.userTriggered) {
      this.disallowed++;
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

  /** A request robots.txt allowed against its file's stated usage preference for the crawler's purpose (file: as countDisallowed's). */
  countUsageAgainst(state: CrawlerState, file: string | null, against: { source: 'content-usage' | 'content-signal'; line: number; preference: string }): void {
    state.usageAgainst++;
    this.usageAgainst++;
    const key = `${file ?? ''} ${against.source} ${against.line}`;
    const entry = state.usageBy.get(key) ?? { file, ...against, requests: 0 };
    entry.requests++;
    state.usageBy.set(key, entry);
  }

  /** Drops the MAX_CRAWLERS tracked crawlers with the fewest disallowed requests (then requests), summing them. O(n log n), once per MAX_CRAWLERS new crawlers. */
  dropLeastDisallowed(): void {
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

  /** The report of these counts (verifiedBy: what verification rested on). Once, at the end. */
  report(verifiedBy: AuditReport['verifiedBy']): AuditReport {
    const all = [...this.crawlers.values()].map((state): CrawlerAudit => {
      const category = this.kinds.kindOf(state);
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
        signatures: state.signatures === null ? null : { ...state.signatures },
        verifiedServices: state.services === null ? null : Object.fromEntries([...state.services].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))),
        rules: [...state.rules.values()].sort((a, b) => b.requests - a.requests || a.line - b.line || ((a.file ?? '') < (b.file ?? '') ? -1 : 1)),
        topDisallowedPaths: state.paths?.top(TOP_PATHS) ?? [],
        usage: purpose === undefined ? null : {
          purpose,
          against: state.usageAgainst,
          by: [...state.usageBy.values()].sort((a, b) => b.requests - a.requests || a.line - b.line).map((entry) => ({ ...entry })),
        },
        history: this.shape.withHistory ? { versions: versionList(state.byVersion?.values() ?? []), either: state.either, noRulesKnown: state.noRulesKnown } : null,
      };
    });
    const byDisallowed = (a: CrawlerAudit, b: CrawlerAudit): number => b.disallowed - a.disallowed || b.requests - a.requests || (a.agent < b.agent ? -1 : a.agent > b.agent ? 1 : Number(a.impostor) - Number(b.impostor) || ((a.from ?? '') < (b.from ?? '') ? -1 : (a.from ?? '') > (b.from ?? '') ? 1 : (a.host ?? '') < (b.host ?? '') ? -1 : 1));
    const userTriggered = all.filter((c) => c.userDirected).sort((a, b) => b.requests - a.requests || byDisallowed(a, b));
    const crawlers = all.filter((c) => !c.userDirected).sort(byDisallowed);
    const top = this.shape.top;
    const shown = top > 0 ? crawlers.slice(0, top) : crawlers;
    const rest = crawlers.slice(shown.length);
    return {
      lines: this.lines,
      crawlerRequests: this.crawlerRequests,
      otherRequests: this.otherRequests,
      disallowed: this.disallowed,
      allowed: this.allowed,
      noRulesKnown: { requests: this.noRules, origins: [...this.noRulesOrigins], judged: this.shape.missing === 'disallow' ? 'as disallowed' : 'not judged' },
      outsideTime: this.outsideTime,
      malformed: { count: this.malformedCount, lines: this.malformedLines },
      crawlers: shown,
      moreCrawlers: { crawlers: rest.length, requests: rest.reduce((sum, c) => sum + c.requests, 0), disallowed: rest.reduce((sum, c) => sum + c.disallowed, 0), usageAgainst: rest.reduce((sum, c) => sum + (c.usage?.against ?? 0), 0) },
      userTriggered,
      untracked: { ...this.untracked },
      verification: this.verification === null ? null : { ...this.verification },
      verifiedBy,
      signatures: this.signatures === null ? null : {
        counts: { ...this.signatures.counts },
        failures: this.signatures.failures.map((failure) => ({ ...failure })),
        ...this.withoutKeysNamed(this.signatures),
        keyProblems: [...this.signatures.keyProblems],
      },
      timeline: [...this.hours].sort((a, b) => a[0] - b[0]).map(([hour, counts]) => ({ hour: hourText(hour), ...counts })),
      usage: { against: this.usageAgainst, stated: this.usageStated },
      reading: this.shape.reading,
      history: this.shape.withHistory ? { versions: versionList(this.versionTotals.values()), either: this.either, noRulesKnown: this.noRulesKnown } : null,
    };
  }
}

/** Per-version counts in report order: by host, then time. */
function versionList(counts: Iterable<VersionCounts>): VersionCounts[] {
  return [...counts].map((entry) => ({ ...entry })).sort((a, b) => (a.host < b.host ? -1 : a.host > b.host ? 1 : a.from < b.from ? -1 : a.from > b.from ? 1 : 0));
}
