// What an audit reports (the AuditReport a RobotsAudit gives, and its partial's parts), and the wording every
// report format shares: one place for how a group, a crawler, verification and the usage list are said, so
// the table, the JSON and the HTML page agree. Per report.
import { asciiLowerCase } from '../../core/robots.js';
import { VERIFICATIONS, type CrawlerCategory, type Verification } from '../crawlers/index.js';
import type { FamilyCoverage } from '../verify/index.js';
import type { SignatureVerdict } from '../signatures/index.js';
import { LIBRARY_OPTION_WORDS, type OptionWords } from '../../core/errors.js';

/** What the server answered, by status class (`other`: no status in the line, or 1xx). */
export interface StatusClasses {
  '2xx': number;
  '3xx': number;
  '4xx': number;
  '5xx': number;
  other: number;
}

/** How many requests were verified, impostors', unknown and not checked (see Verification in src/node/verify/verify.ts). */
export type VerificationCounts = Record<Verification, number>;

/** What the signature of a signed request said, in the order every report format says them (every SignatureVerdict but unsigned). */
export const SIGNATURE_COUNTS = ['verified', 'invalid', 'expired', 'unknownKey', 'malformed', 'notChecked'] as const satisfies readonly Exclude<SignatureVerdict, 'unsigned'>[];
/** A signed verdict (SignatureVerdict without unsigned): SIGNATURE_COUNTS lists every one. */
export type SignedVerdict = (typeof SIGNATURE_COUNTS)[number];
// a verdict added to SignatureVerdict and not to SIGNATURE_COUNTS fails here
const everyVerdictCounted: Exclude<SignatureVerdict, 'unsigned'> extends SignedVerdict ? true : never = true;
void everyVerdictCounted;

/**
 * Signed requests (Web Bot Auth) by what their signature said: verified (the agent's identity proven), invalid,
 * expired, unknownKey, malformed (each an impostor of the agent it claims: the signature decided), notChecked (no
 * keys of the agent given, or no time in the line: the IP ranges decided, as for an unsigned request);
 * rangesDisagree: those the signature decided whose IP ranges said otherwise (a verified signature from an address
 * outside its vendor's ranges, a failed one from inside them).
 */
export type SignatureCounts = Record<SignedVerdict, number> & { rangesDisagree: number };

/** Signature counts at zero. */
export function noSignatures(): SignatureCounts {
  return { verified: 0, invalid: 0, expired: 0, unknownKey: 0, malformed: 0, notChecked: 0, rangesDisagree: 0 };
}

/** One crawler's requests (an impostor is a crawler of its own: a row apart from the vendor's). */
export interface CrawlerAudit {
  /** The crawler: the robots.txt product token its User-Agent carries, else a name taken from its User-Agent. */
  agent: string;
  /** True for requests that claim a crawler from an address its covering range files (all read) or DNS exclude. */
  impostor: boolean;
  /**
   * With verification: the vendor's range file (published name) that holds its addresses when that file
   * does not cover the crawler it claims (`chatgpt-user.json` for a GPTBot from ChatGPT-User's ranges); a
   * row of its own. Null otherwise.
   */
  from: string | null;
  /** True when it is listed with the user-triggered fetchers (never a violator): its name is a user-triggered fetcher's, or its addresses are in a user-directed range file (`from`). */
  userDirected: boolean;
  /** With byHost (--by host): the host (`host` or `host:port`) whose requests this row counts; else null. */
  host: string | null;
  /** The vendor its name claims (`google`, `bing`, `openai`, ...), or null. */
  vendor: string | null;
  /** The crawler family its name claims (`google-common`, `openai-gptbot`, ...: the range files that cover it; see verifiedBy.families), or null. */
  family: string | null;
  /** The group it follows: a product token of the file (its own, or Googlebot's for Googlebot-Image and kin), `*`, or null when none applies (AdsBot without its own group). The first one seen when files differ. */
  group: string | null;
  /** The group as every report format shows it (groupLabel). */
  groupLabel: string;
  /** True when a group that names it (or its fallback) applies, false for `*` or none. */
  named: boolean;
  category: CrawlerCategory;
  requests: number;
  /** Requests robots.txt disallowed (for user-triggered fetchers: would have disallowed; they are not violations). */
  disallowed: number;
  /** Requests whose rules were not known (see AuditReport.noRulesKnown). */
  noRulesKnown: number;
  /** The most disallowed requests it can have had: more than `disallowed` when it was dropped from tracking and came back (then the first requests after are not in these counts). */
  disallowedUpTo: number;
  /** Its disallowed requests by what the server answered (2xx: content served; 4xx: refused). */
  disallowedByStatus: StatusClasses;
  /** Its requests of /robots.txt itself (how often it read the rules). */
  robotsTxtFetches: number;
  /** With verification: its requests by verdict (an impostor row has only impostor ones); null without. */
  verification: VerificationCounts | null;
  /** With signature keys (audit --signature-keys): its signed requests by what their signature said; null without. */
  signatures: SignatureCounts | null;
  /** With verification: its verified requests by the services of the most specific prefix their address is in (JAFAR service labels; {} when the files have none). */
  verifiedServices: Record<string, number> | null;
  /** Rules that disallowed its requests, most requests first; `file`: the host whose robots.txt has the rule (null with one robots.txt). */
  rules: { file: string | null; line: number; pattern: string; requests: number }[];
  /**
   * Most requested disallowed paths: requests counted exactly since the path was last tracked; `upTo` is
   * the most it can be (requests + what an untracked time may have missed; equal when exact). `host`: the
   * host of the path when a row's requests can come from several hosts (files per host or a history, without
   * --by host), else null.
   */
  topDisallowedPaths: { host: string | null; path: string; requests: number; upTo: number }[];
  /**
   * AI usage, for crawlers whose kind has a purpose (USAGE_PURPOSES; null for the others): its requests that
   * robots.txt allowed but whose stated preference for that purpose is no (a Content-Usage category `n`, or
   * the Content-Signal key `no`), by the statement that said so. Never counted as robots.txt violations.
   */
  usage: { purpose: string; against: number; by: { file: string | null; source: 'content-usage' | 'content-signal'; line: number; preference: string; requests: number }[] } | null;
  /**
   * With a history (null without): its requests by the robots.txt version that judged them (host, time it took
   * effect), the requests within 24 h of a change the two versions judge differently (`either`: not counted
   * as disallowed), and the requests made before the first known version or without a time (`noRulesKnown`).
   */
  history: { versions: { host: string; from: string; requests: number; disallowed: number }[]; either: number; noRulesKnown: number } | null;
}

export interface AuditReport {
  /** Log lines read (blank lines and log header lines not counted). */
  lines: number;
  /** Requests by crawlers (audited; user-triggered fetchers included), and by anything else (browsers, not audited). */
  crawlerRequests: number;
  otherRequests: number;
  /** Disallowed requests of every crawler (user-triggered fetchers not counted), exact. */
  disallowed: number;
  /** Allowed requests of every crawler (user-triggered fetchers not counted; reads of /robots.txt are allowed), exact. */
  allowed: number;
  /**
   * Crawler requests whose rules are not known (user-triggered fetchers not counted): no file for their host, a
   * file that could not be read, an origin the store never fetched, a time before the first version of a
   * history. Never counted as allowed: not judged (missing allow, the default), or judged disallowed (missing
   * disallow: then counted in `disallowed` too). `origins`: the first of them (at most 5).
   */
  noRulesKnown: { requests: number; origins: string[]; judged: 'not judged' | 'as disallowed' };
  /** Requests left out by since/until (outside the range, or with no readable time). */
  outsideTime: number;
  /** Lines that are not access log lines: how many, and the first ones (log name, 1-based line). */
  malformed: { count: number; lines: { log: string; line: number }[] };
  /** The crawlers (user-triggered fetchers apart), most disallowed requests first (the first `top` of them when top is set). */
  crawlers: CrawlerAudit[];
  /** Crawlers left out by top, summed. */
  moreCrawlers: { crawlers: number; requests: number; disallowed: number; usageAgainst: number };
  /** User-triggered fetchers: they fetch because a person asked, ignore robots.txt by design, and are never counted as violators. Most requests first. */
  userTriggered: CrawlerAudit[];
  /** Requests of crawlers dropped from tracking (the fewest disallowed, to bound memory), summed: exact counts. */
  untracked: { crawlers: number; requests: number; disallowed: number; usageAgainst: number };
  /** With verification: every crawler request by verdict; null without. */
  verification: VerificationCounts | null;
  /**
   * With verification: what it rested on. dns: null unless --verify dns; else the resolver's check (problem:
   * null when it passed; else why DNS answers were not believed, and the requests left unknown by it).
   * families: per crawler family a request claimed, the range files that cover it read, missing, stale and
   * invalid, and the requests not checked for want of them (a family with a covering file missing cannot tell
   * an impostor). maxAgeDays: the age past which a file is stale (null: any age is taken).
   */
  verifiedBy: { dns: { problem: string | null; unknown: number } | null; families: FamilyCoverage[]; maxAgeDays: number | null } | null;
  /**
   * With signature keys (null without): every signed request by what its signature said (counts), the first of
   * those that failed or were not checked with why (failures: log, 1-based line, verdict, the agent host it
   * names, reason; at most 100), the agents named by signatures whose keys were not given (with their requests;
   * at most 20 named, the requests of the others summed), and what could not be read of the key files (keyProblems).
   */
  signatures: AuditSignatures | null;
  /** Requests and disallowed requests per hour (UTC, "YYYY-MM-DD HH:00"), for charts. */
  timeline: { hour: string; requests: number; disallowed: number }[];
  /** With a history (null without): every version that judged a request, with its counts, and the either and no-rules-known totals. */
  history: { versions: { host: string; from: string; requests: number; disallowed: number }[]; either: number; noRulesKnown: number } | null;
  /** AI usage: crawler requests robots.txt allowed against a stated preference for their purpose (every row's usage.against summed), and whether any file stated a preference for the purpose of any request judged. */
  usage: { against: number; stated: boolean };
  /** How crawlers were read against the files: as they behave (crawler, the default) or as their product tokens (token: --as-token, the reference's reading). */
  reading: 'crawler' | 'token';
}

/** A signed request whose signature failed or was not checked: where (log, 1-based line), its verdict, the agent host it names, why. */
export interface SignatureFailure {
  log: string;
  line: number;
  verdict: Exclude<SignedVerdict, 'verified'>;
  agent: string | null;
  reason: string;
}

/** The report's signatures (AuditReport.signatures); withoutKeysOthers: the requests of agents without keys not named in withoutKeys. */
export interface AuditSignatures {
  counts: SignatureCounts;
  failures: SignatureFailure[];
  withoutKeys: { agent: string; requests: number }[];
  withoutKeysOthers: number;
  keyProblems: string[];
}

/** Failures of signatures the table and the HTML page name (the JSON carries every one kept). */
export const SIGNATURE_FAILURES_SAID = 5;

/**
 * What the signatures of a report rested on and what failed, as the table and the HTML page say it (one sentence
 * each; options in `say`'s words): the agents whose keys were not given, what the key files could not give, and
 * the first failures with their lines. Per report.
 */
export function signatureNotes(signatures: AuditSignatures, say: OptionWords = LIBRARY_OPTION_WORDS): string[] {
  const notes: string[] = [];
  if (signatures.withoutKeys.length > 0) {
    const others = signatures.withoutKeysOthers > 0 ? ` and agents not named (${signatures.withoutKeysOthers})` : '';
    notes.push(`not checked, no keys given for ${signatures.withoutKeys.map(({ agent, requests }) => `${agent} (${requests})`).join(', ')}${others}: their IP ranges decided (get their keys with ${say({ name: 'fetchSignatureKeys' })}, or save each as <host>.json in the folder of ${say({ name: 'signatureKeys' })})`);
  }
  for (const problem of signatures.keyProblems) notes.push(`key file: ${problem}`);
  const failed = SIGNATURE_COUNTS.reduce((sum, verdict) => sum + (verdict === 'verified' ? 0 : signatures.counts[verdict]), 0);
  if (signatures.failures.length > 0) {
    const shown = signatures.failures.slice(0, SIGNATURE_FAILURES_SAID);
    notes.push(`${failed === shown.length ? '' : `first ${shown.length} of ${failed} `}not verified: ${shown.map((failure) => `${failure.log}:${failure.line} ${failure.verdict}${failure.agent === null ? '' : ` (${failure.agent})`}: ${failure.reason}`).join('; ')}`);
  }
  return notes;
}

/** Signature verdicts as every report format says them: "5 verified, 1 invalid, 1 expired, 1 unknown key, 0 malformed, 1 not checked". Per report and row. */
export function signatureSentence(counts: SignatureCounts, number: (value: number) => string = String): string {
  const words: Record<SignedVerdict, string> = { verified: 'verified', invalid: 'invalid', expired: 'expired', unknownKey: 'unknown key', malformed: 'malformed', notChecked: 'not checked' };
  const said = SIGNATURE_COUNTS.map((verdict) => `${number(counts[verdict])} ${words[verdict]}`).join(', ');
  return counts.rangesDisagree === 0 ? said : `${said}; ${number(counts.rangesDisagree)} the IP ranges judged otherwise (the signature decided)`;
}

/** A row's signature counts in a table cell (`verified/invalid/expired/unknownKey/malformed/notChecked`; `-` without signatures). */
export function signatureCell(counts: SignatureCounts | null, separator = '/', number: (value: number) => string = String): string {
  return counts === null ? '-' : SIGNATURE_COUNTS.map((verdict) => number(counts[verdict])).join(separator);
}

/**
 * What the AI usage list of a report leaves out, as every report format says it: requests against a stated
 * preference of crawlers beyond --top and of crawlers no longer tracked; null when the list holds them all.
 * Per report.
 */
export function usageLeftOut(report: AuditReport, number: (value: number) => string = String, say: OptionWords = LIBRARY_OPTION_WORDS): string | null {
  const parts = [
    ...(report.moreCrawlers.usageAgainst > 0 ? [`${number(report.moreCrawlers.usageAgainst)} by crawlers beyond ${say({ name: 'top' })} (${say({ name: 'top', value: '0' })} lists all)`] : []),
    ...(report.untracked.usageAgainst > 0 ? [`${number(report.untracked.usageAgainst)} by crawlers no longer tracked (fewest disallowed)`] : []),
  ];
  return parts.length === 0 ? null : `not listed: ${parts.join(', ')}`;
}

/** The verdict counts as every report format says them: "6 verified, 5 impostors, 2 unknown, 1 not checked". Per report and row. */
export function verificationSentence(counts: VerificationCounts, number: (value: number) => string = String): string {
  return `${number(counts.verified)} verified, ${number(counts.impostor)} impostor${counts.impostor === 1 ? '' : 's'}, ${number(counts.unknown)} unknown, ${number(counts['not-checked'])} not checked`;
}

/** A row's verdict counts in a table cell (`verified/impostor/unknown/not-checked`). */
export function verificationCell(counts: VerificationCounts | null, separator = '/', number: (value: number) => string = String): string {
  return VERIFICATIONS.map((verdict) => number(counts?.[verdict] ?? 0)).join(separator);
}

/**
 * What verification could not tell and why, as a record (verificationNoteSentence words it): a crawler family
 * whose covering range files are missing, stale (made more than maxAgeDays from the requests) or invalid, so that
 * its requests outside the files read are not checked (never impostors); or a resolver that failed its check.
 */
export type VerificationNote =
  | { kind: 'rangesNotChecked'; family: string; notChecked: number; requests: number; missing: string[]; stale: { file: string; days: number }[]; maxAgeDays: number | null; invalid: { file: string; reason: string }[] }
  | { kind: 'dnsNotBelieved'; problem: string; unknown: number };

/** The notes of a report's verification, in the order every report format says them. Per report. */
export function verificationNotes(verifiedBy: AuditReport['verifiedBy']): VerificationNote[] {
  if (verifiedBy === null) return [];
  const notes: VerificationNote[] = [];
  const name = (file: string): string => file.replace(/^.*[\\/]/, '');
  for (const family of verifiedBy.families) {
    if (family.notChecked === 0) continue;
    // each file once (the same name given twice, from two folders, is one file to the reader), its largest gap
    const stale = new Map<string, number>();
    for (const file of family.stale) stale.set(name(file.file), Math.max(stale.get(name(file.file)) ?? 0, file.days));
    notes.push({
      kind: 'rangesNotChecked', family: family.name, notChecked: family.notChecked, requests: family.requests, missing: family.missing,
      stale: [...stale].map(([file, days]) => ({ file, days })), maxAgeDays: verifiedBy.maxAgeDays, invalid: family.invalid.map((file) => ({ file: name(file.file), reason: file.reason })),
    });
  }
  if (verifiedBy.dns?.problem != null) notes.push({ kind: 'dnsNotBelieved', problem: verifiedBy.dns.problem, unknown: verifiedBy.dns.unknown });
  return notes;
}

/** A verification note as the text table and the HTML page say it (options in `say`'s words). Per note. */
export function verificationNoteSentence(note: VerificationNote, say: OptionWords = LIBRARY_OPTION_WORDS): string {
  if (note.kind === 'dnsNotBelieved') return `DNS answers not believed: ${note.problem}; ${note.unknown} request(s) that DNS alone would have told are unknown`;
  const why = [
    ...(note.missing.length === 0 ? [] : [`missing ${note.missing.join(', ')}`]),
    ...(note.stale.length === 0 ? [] : [`${note.stale.map(({ file, days }) => `${file} (${days} days)`).join(', ')} made more than ${note.maxAgeDays} days from the requests (${say({ name: 'rangesMaxAgeDays' })}; any takes files of any age)`]),
    ...note.invalid.map((file) => `${file.file} failed validation (${file.reason})`),
  ];
  return `${note.family}: ${note.notChecked} of ${note.requests} request(s) not checked, not told from impostors: ${why.join('; ')} (get the files with ${say({ name: 'fetchCrawlerRanges' })}, or download them from the vendor and pass ${say({ name: 'rangeFiles', value: '<dir>' })})`;
}

/** How every report format names the group a crawler follows (one place: table, JSON and HTML agree). */
export function groupLabel(agent: string, group: string | null, differs: GroupsDiffer = null): string {
  if (differs !== null) return `differs by ${differs}`;
  if (group === null) return 'no group';
  if (group === '*') return '*';
  return asciiLowerCase(group) === asciiLowerCase(agent) ? 'own group' : `follows ${group}`;
}

/**
 * Why one crawler's requests followed different groups: files of different hosts gave different groups, or
 * one host's file changed over time (versions of a history or a store), or both; null when they did not.
 */
export type GroupsDiffer = 'host' | 'version' | 'host and version' | null;

/** How a crawler is named in the table and the HTML page (JSON says `"impostor": true`). */
export function crawlerLabel(crawler: { agent: string; impostor: boolean; from: string | null }): string {
  const notes = [...(crawler.impostor ? ['impostor'] : []), ...(crawler.from === null ? [] : [`from ${crawler.from}`])];
  return notes.length === 0 ? crawler.agent : `${crawler.agent} (${notes.join(', ')})`;
}
