// An audit in parts (audit --format partial, then --merge): the format of a part, a tally written as one
// (partialOf), a part's counts added into a tally (addPartial), what parts must share to merge, and how what
// verification rested on adds up. RobotsAudit.partial() writes a part, RobotsAudit.merged() adds parts. Per part.
import type { CrawlerCategory, Verification } from '../crawlers/index.js';
import type { FamilyCoverage } from '../verify/index.js';
import { SIGNATURE_COUNTS, type AuditReport, type GroupsDiffer, type SignatureCounts, type SignatureFailure, type StatusClasses, type VerificationCounts } from './report.js';
import { PathCounter } from './paths.js';
import { bothDiffer, crawlerKey, MAX_CRAWLERS, MAX_MALFORMED_LINES, MAX_SIGNATURE_FAILURES, NO_RULES_ORIGINS_NAMED, TRACKED_PATHS, type AuditTally, type VersionCounts } from './tally.js';
import type { OptionWords } from '../../core/errors.js';

/** The format tag of a partial audit (audit --format partial). */
export const AUDIT_PARTIAL_FORMAT = 'robotstxt-wasm/audit-partial/3';

/**
 * What one audit counted, whole, for a merge (RobotsAudit.partial, RobotsAudit.merged; audit --format partial
 * and --merge): its totals, every tracked crawler in the order it met them with every count (rules, every
 * tracked path, hours), and the logs it read with their line counts. JSON.
 */
export interface AuditPartial {
  format: typeof AUDIT_PARTIAL_FORMAT;
  shape: { verifying: boolean; withHistory: boolean; byHost: boolean; missing: 'allow' | 'disallow'; reading: 'crawler' | 'token'; signatures: boolean };
  logs: { log: string; lines: number }[];
  lines: number;
  crawlerRequests: number;
  otherRequests: number;
  outsideTime: number;
  disallowed: number;
  allowed: number;
  noRulesKnown: { requests: number; origins: string[] };
  malformed: { count: number; lines: { log: string; line: number }[] };
  crawlers: {
    agent: string; host: string | null; impostor: boolean; from: string | null; vendor: string | null; family: string | null; group: string | null; mixedGroups: GroupsDiffer; groupHost: string | null;
    userTriggered: boolean; userAgent: string; category: CrawlerCategory; requests: number; disallowed: number; missed: number;
    byStatus: StatusClasses; robotsTxtFetches: number; verification: VerificationCounts | null; signatures: SignatureCounts | null; services: [string, number][] | null;
    rules: { file: string | null; line: number; pattern: string; requests: number }[];
    paths: { floor: number; counts: [string, number, number][] } | null;
    usageAgainst: number; usageBy: { file: string | null; source: 'content-usage' | 'content-signal'; line: number; preference: string; requests: number }[];
    byVersion: { host: string; from: string; requests: number; disallowed: number }[] | null;
    either: number; noRulesKnown: number; noRules: number;
  }[];
  droppedFloor: number;
  untracked: { crawlers: number; requests: number; disallowed: number; usageAgainst: number };
  /** [hour since 1970 (UTC), requests, disallowed] */
  hours: [number, number, number][];
  verification: VerificationCounts | null;
  verifiedBy: AuditReport['verifiedBy'];
  /** With signature keys: the counts, the first failures (lines as in this part), every agent without keys counted (and the requests of those past the bound), the key files' problems. */
  signatures: { counts: SignatureCounts; failures: SignatureFailure[]; withoutKeys: [string, number][]; withoutKeysOthers: number; keyProblems: string[] } | null;
  usage: { against: number; stated: boolean };
  history: { either: number; noRulesKnown: number; versions: { host: string; from: string; requests: number; disallowed: number }[] };
}

/** The options a partial audit was made with, as a merge error names them (options in `say`'s words). */
export function describeShape(shape: AuditPartial['shape'], say: OptionWords): string {
  return `${shape.verifying ? 'with' : 'without'} ${say({ name: 'verifier' })}, ${shape.signatures ? `with ${say({ name: 'signatures' })}, ` : ''}${shape.withHistory ? 'with' : 'without'} versions over time, ${shape.byHost ? 'with' : 'without'} ${say({ name: 'byHost' })}, ${say({ name: 'missing', value: shape.missing })}, ${shape.reading === 'token' ? 'with' : 'without'} ${say({ name: 'reading', value: 'token' })}`;
}

/** What verification rested on in two parts of an audit: the first part's files and resolver problem, the requests added. */
export function mergeVerifiedBy(before: AuditReport['verifiedBy'], part: AuditReport['verifiedBy']): AuditReport['verifiedBy'] {
  const copy = (family: FamilyCoverage): FamilyCoverage => ({ ...family, files: [...family.files], missing: [...family.missing], stale: family.stale.map((file) => ({ ...file })), invalid: family.invalid.map((file) => ({ ...file })) });
  if (part === null) return before;
  if (before === null) return { dns: part.dns === null ? null : { ...part.dns }, families: part.families.map(copy), maxAgeDays: part.maxAgeDays };
  const dns = before.dns === null || part.dns === null ? before.dns ?? part.dns : { problem: before.dns.problem ?? part.dns.problem, unknown: before.dns.unknown + part.dns.unknown };
  const families = before.families.map(copy);
  for (const family of part.families) {
    const same = families.find((other) => other.family === family.family);
    if (same === undefined) families.push(copy(family));
    else {
      same.requests += family.requests;
      same.notChecked += family.notChecked;
    }
  }
  return { dns, families, maxAgeDays: before.maxAgeDays };
}

/**
 * What a tally has counted, whole (no top-N cut, every tracked path), as a part (logs: the logs read and their
 * line counts, in order; byHost: the audit's --by host). Once, at the end, by audit --format partial.
 */
export function partialOf(tally: AuditTally, logs: { log: string; lines: number }[], byHost: boolean, verifiedBy: AuditReport['verifiedBy']): AuditPartial {
  const { shape } = tally;
  return {
    format: AUDIT_PARTIAL_FORMAT,
    shape: { verifying: shape.verifying, withHistory: shape.withHistory, byHost, missing: shape.missing, reading: shape.reading, signatures: shape.signatures },
    logs: logs.map((entry) => ({ ...entry })),
    lines: tally.lines,
    crawlerRequests: tally.crawlerRequests,
    otherRequests: tally.otherRequests,
    outsideTime: tally.outsideTime,
    disallowed: tally.disallowed,
    allowed: tally.allowed,
    noRulesKnown: { requests: tally.noRules, origins: [...tally.noRulesOrigins] },
    malformed: { count: tally.malformedCount, lines: tally.malformedLines.map((entry) => ({ ...entry })) },
    crawlers: [...tally.crawlers.values()].map((state) => ({
      agent: state.agent, host: state.host, impostor: state.impostor, from: state.from, vendor: state.vendor, family: state.family, group: state.group, mixedGroups: state.mixedGroups, groupHost: state.groupHost,
      userTriggered: state.userTriggered, userAgent: state.userAgent, category: tally.kinds.kindOf(state), requests: state.requests, disallowed: state.disallowed,
      missed: state.missed, byStatus: { ...state.byStatus }, robotsTxtFetches: state.robotsTxtFetches,
      verification: state.verification === null ? null : { ...state.verification },
      signatures: state.signatures === null ? null : { ...state.signatures },
      services: state.services === null ? null : [...state.services],
      rules: [...state.rules.values()].map((rule) => ({ ...rule })),
      paths: state.paths === null ? null : state.paths.entries(),
      usageAgainst: state.usageAgainst, usageBy: [...state.usageBy.values()].map((entry) => ({ ...entry })),
      byVersion: state.byVersion === null ? null : [...state.byVersion.values()].map((entry) => ({ ...entry })),
      either: state.either, noRulesKnown: state.noRulesKnown, noRules: state.noRules,
    })),
    droppedFloor: tally.droppedFloor + tally.partsFloor,
    untracked: { ...tally.untracked },
    hours: [...tally.hours].map(([hour, counts]) => [hour, counts.requests, counts.disallowed] as [number, number, number]),
    verification: tally.verification === null ? null : { ...tally.verification },
    verifiedBy,
    signatures: tally.signatures === null ? null : {
      counts: { ...tally.signatures.counts }, failures: tally.signatures.failures.map((failure) => ({ ...failure })),
      withoutKeys: [...tally.signatures.withoutKeys], withoutKeysOthers: tally.signatures.withoutKeysOthers, keyProblems: [...tally.signatures.keyProblems],
    },
    usage: { against: tally.usageAgainst, stated: tally.usageStated },
    history: { either: tally.either, noRulesKnown: tally.noRulesKnown, versions: [...tally.versionTotals.values()].map((entry) => ({ ...entry })) },
  };
}

/** Adds one part's signature counts to another's. */
function addSignatureCounts(into: SignatureCounts, part: SignatureCounts): void {
  for (const verdict of SIGNATURE_COUNTS) into[verdict] += part[verdict];
  into.rangesDisagree += part.rangesDisagree;
}

/** Adds counts of one version to a table of them (key `host from`). */
function addVersion(table: Map<string, VersionCounts>, version: VersionCounts): void {
  const versionKey = `${version.host} ${version.from}`;
  const entry = table.get(versionKey) ?? { host: version.host, from: version.from, requests: 0, disallowed: 0 };
  entry.requests += version.requests;
  entry.disallowed += version.disallowed;
  table.set(versionKey, entry);
}

/**
 * Adds one part's counts into a tally (RobotsAudit.merged, once per part, in the parts' order); linesBefore:
 * lines of each log read in the parts before it (a malformed line is numbered as in the log whole).
 */
export function addPartial(tally: AuditTally, part: AuditPartial, linesBefore: ReadonlyMap<string, number>): void {
  tally.lines += part.lines;
  tally.crawlerRequests += part.crawlerRequests;
  tally.otherRequests += part.otherRequests;
  tally.outsideTime += part.outsideTime;
  tally.disallowed += part.disallowed;
  tally.allowed += part.allowed;
  tally.noRules += part.noRulesKnown.requests;
  for (const origin of part.noRulesKnown.origins) if (tally.noRulesOrigins.length < NO_RULES_ORIGINS_NAMED && !tally.noRulesOrigins.includes(origin)) tally.noRulesOrigins.push(origin);
  tally.malformedCount += part.malformed.count;
  for (const entry of part.malformed.lines) {
    if (tally.malformedLines.length < MAX_MALFORMED_LINES) tally.malformedLines.push({ log: entry.log, line: entry.line + (linesBefore.get(entry.log) ?? 0) });
  }
  // a crawler this part does not track may have had up to its dropped floor there (and one it tracks, its own miss)
  const seen = new Set<string>();
  for (const crawler of part.crawlers) {
    const key = crawlerKey(crawler.host, crawler.agent, crawler.impostor, crawler.from);
    seen.add(key);
    let state = tally.crawlers.get(key);
    if (state === undefined) {
      if (tally.crawlers.size >= 2 * MAX_CRAWLERS) tally.dropLeastDisallowed();
      state = tally.track(key, {
        agent: crawler.agent, host: crawler.host, impostor: crawler.impostor, from: crawler.from, vendor: crawler.vendor, family: crawler.family, group: crawler.group, mixedGroups: crawler.mixedGroups, groupHost: crawler.groupHost,
        userTriggered: crawler.userTriggered, userAgent: crawler.userAgent, category: crawler.category, categoryUserAgent: crawler.userAgent,
      }, tally.droppedFloor + tally.partsFloor);
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
    if (state.signatures !== null && crawler.signatures !== null) addSignatureCounts(state.signatures, crawler.signatures);
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
      for (const version of crawler.byVersion) addVersion(state.byVersion, version);
    }
    state.either += crawler.either;
    state.noRulesKnown += crawler.noRulesKnown;
    state.noRules += crawler.noRules;
  }
  if (part.droppedFloor > 0) for (const [key, state] of tally.crawlers) if (!seen.has(key)) state.missed += part.droppedFloor;
  tally.partsFloor += part.droppedFloor;
  tally.untracked.crawlers += part.untracked.crawlers;
  tally.untracked.requests += part.untracked.requests;
  tally.untracked.disallowed += part.untracked.disallowed;
  tally.untracked.usageAgainst += part.untracked.usageAgainst;
  for (const [hour, requests, disallowed] of part.hours) {
    const bucket = tally.hours.get(hour) ?? { requests: 0, disallowed: 0 };
    bucket.requests += requests;
    bucket.disallowed += disallowed;
    tally.hours.set(hour, bucket);
  }
  if (tally.verification !== null && part.verification !== null) for (const verdict of Object.keys(tally.verification) as Verification[]) tally.verification[verdict] += part.verification[verdict];
  const signatures = tally.signatures;
  if (signatures !== null && part.signatures !== null) {
    addSignatureCounts(signatures.counts, part.signatures.counts);
    for (const failure of part.signatures.failures) if (signatures.failures.length < MAX_SIGNATURE_FAILURES) signatures.failures.push({ ...failure, line: failure.line + (linesBefore.get(failure.log) ?? 0) });
    for (const [agent, requests] of part.signatures.withoutKeys) tally.countWithoutKeys(agent, requests);
    signatures.withoutKeysOthers += part.signatures.withoutKeysOthers;
    // every part read the same key folder, or said what its own could not give: each problem once
    for (const problem of part.signatures.keyProblems) if (!signatures.keyProblems.includes(problem)) signatures.keyProblems.push(problem);
  }
  tally.usageAgainst += part.usage.against;
  tally.usageStated ||= part.usage.stated;
  tally.either += part.history.either;
  tally.noRulesKnown += part.history.noRulesKnown;
  for (const version of part.history.versions) addVersion(tally.versionTotals, version);
}
