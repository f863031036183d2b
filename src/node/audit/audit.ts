// Which crawlers fetched what robots.txt forbade them: access log requests -> crawler -> group -> verdict,
// with each request's claim to be a vendor's crawler verified (src/node/verify/verify.ts) when asked, and what the
// server answered. Used by `robotstxt audit`; fed line by line, memory stays bounded however many crawlers,
// rules and paths a log holds. The audit flows one way: a request is classified (classify.ts), its rules in
// force found (rules-in-force.ts), counted (tally.ts) and queued to be judged (judge.ts), which hands its
// verdict to the tally; this file reads the lines and says when a batch is judged.
import { checkedPartial } from './partial-check.js';
import { statSync } from 'node:fs';
import { LogLineReader, clientAddress, forEachChunk, hostUnknownError, type LogEntry, type LogFieldNames, type LogLine } from '../logs/index.js';
import { parseRobots, type RobotsTxt } from '../../core/robots.js';
import { isRobotsTxtTarget } from '../../core/url-model.js';
import { FULL_VERDICT_BODY, NO_RULES_KNOWN } from '../hosts/index.js';
import type { RobotsMatcher } from '../../core/matcher.js';
import { crawlerName } from '../../core/crawlers.js';
import { CrawlerClassifier } from './classify.js';
import { addPartial, describeShape, mergeVerifiedBy, partialOf, type AuditPartial } from './partial.js';
import type { AuditReport } from './report.js';
import type { RobotsVersion } from '../history/index.js';
import type { CrawlerVerifier } from '../verify/index.js';
import type { SignatureCheck, SignedRequestJudge } from '../signatures/index.js';
import { publishedName, type CrawlerFamily, type Verification } from '../crawlers/index.js';
import { RobotsError } from '../../core/errors.js';
import { AuditJudge, type PendingRequest } from './judge.js';
import { AuditTally, crawlerKey } from './tally.js';
import { rulesOf, type AuditRules, type RobotsFor } from './rules-in-force.js';

export { NO_RULES_KNOWN, crawlerName };
export { MAX_CRAWLERS } from './tally.js';

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
  /** Requests whose host's rules are not known (no rules in force: robotsFor gives NO_RULES_KNOWN): not judged (allow, the default: never counted as allowed) or judged disallowed. Counted either way. */
  missing?: 'allow' | 'disallow';
  /** Verify each request's claim to be a vendor's crawler. */
  verifier?: CrawlerVerifier;
  /** Which address verification reads: the client field (default) or the last X-Forwarded-For address. */
  clientIp?: 'remote' | 'forwarded';
  /**
   * Judge signed requests (Web Bot Auth) by their signatures: a request whose signature holds is its agent's (the
   * product token its card states, judged by that token's group; with the user-triggered fetchers when the card
   * says trigger fetcher), one whose signature fails an impostor of the agent it claims; beside verifier, which
   * decides the requests it could not check. Signatures are read by addLines, addChunk and readLogs (not addLine).
   */
  signatures?: SignedRequestJudge;
}

/** Accumulates an audit of access log lines against the rules in force. One per audit run. */
export class RobotsAudit {
  /** Request -> crawler, group, family (the audit's first step). */
  private readonly classifier: CrawlerClassifier;
  /** Verdicts, in batches (the second). */
  private readonly judge: AuditJudge;
  /** Counts (the third), and the report read out of them. */
  private readonly tally: AuditTally;
  private readonly rules: AuditRules;
  private readonly readers = new Map<string, LogLineReader>();
  /** The rules missing disallow judges by (made on first use). */
  private disallowAll: RobotsTxt | null = null;
  /** Merged partials: what verification rested on in them (an audit that verifies asks its verifier instead). */
  private mergedVerifiedBy: AuditReport['verifiedBy'] = null;

  /**
   * rules: the rules in force for each request (AuditRules: rulesOf(robotsFor), rulesOfDirectory,
   * rulesOfHistory), or robotsFor itself: the robots.txt for a request's origin (null: none, the request is
   * allowed). The origin is the URL model's reading of the request's URL line (the line check --log answers);
   * null when it has none.
   */
  constructor(rules: AuditRules | RobotsFor, private readonly options: AuditOptions = {}, shape: { verifying: boolean; withHistory: boolean; signatures: boolean } | null = null) {
    this.rules = typeof rules === 'function' ? rulesOf(rules) : rules;
    this.classifier = new CrawlerClassifier(options.reading ?? 'crawler');
    const signatures = shape?.signatures ?? options.signatures !== undefined;
    this.tally = new AuditTally({ verifying: shape?.verifying ?? (options.verifier !== undefined || signatures), withHistory: shape?.withHistory ?? this.rules.versioned, top: options.top ?? 0, missing: options.missing ?? 'allow', reading: options.reading ?? 'crawler', signatures });
    if (options.signatures !== undefined) this.tally.signatures?.keyProblems.push(...options.signatures.keys.problems);
    this.judge = new AuditJudge(this.tally);
    // requests are judged in batches: the versions a history drops wait, open, until the batch is judged
    this.rules.holdDropped();
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
    this.tally.lines++;
    if (read === null) this.tally.countMalformed(log, lineNumber);
    return read;
  }

  /**
   * Adds one log line (log and lineNumber: where it is, for the malformed-line report; defaultHost: for lines
   * that name no host). With DNS verification, use addLines or addChunk (they look up a chunk's addresses first).
   */
  addLine(line: string, lineNumber: number, log = '-', defaultHost: string | null = null): void {
    if (this.options.signatures !== undefined) throw RobotsError.about('INVALID_ARGUMENT', { name: 'signatures' }, (said) => `an audit with ${said} reads signatures with addLines, addChunk or readLogs (a signature is checked asynchronously), not addLine`);
    const entry = this.counted(line === '' ? 'blank' : this.readerOf(log).readLine(line, { withHost: true, defaultHost }), lineNumber, log);
    if (entry !== null) this.addRequest(entry, log, lineNumber, defaultHost);
    this.judgeBatch();
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

  /**
   * Reads whole log files (or `-`, standard input; plain or gzip) chunk by chunk into the audit, in order;
   * returns each log's line count. onProgress, after each chunk: the bytes read of all the logs (compressed
   * bytes for gzip) against their total size (standard input counts 0), the lines of the log being read. Once per run.
   */
  async readLogs(logs: readonly string[], defaultHost: string | null = null, onProgress?: (progress: { doneBytes: number; totalBytes: number; lines: number; log: string }) => void): Promise<{ log: string; lines: number }[]> {
    let totalBytes = 0;
    for (const log of logs) if (log !== '-') try { totalBytes += statSync(log).size; } catch { /* reported when opened */ }
    let doneBytes = 0;
    const read: { log: string; lines: number }[] = [];
    for (const log of logs) {
      let lines = 0;
      let rawBytes = 0;
      await forEachChunk(log, 'log file', async (chunk, reader) => {
        lines += await this.addChunk(chunk, lines + 1, log, defaultHost);
        rawBytes = reader.rawBytesRead;
        onProgress?.({ doneBytes: doneBytes + rawBytes, totalBytes, lines, log });
      });
      doneBytes += rawBytes;
      read.push({ log, lines });
    }
    return read;
  }

  private async addRead(read: readonly LogLine[], firstLineNumber: number, log: string, defaultHost: string | null): Promise<void> {
    const entries = read.map((item, i) => this.counted(item, firstLineNumber + i, log));
    const judge = this.options.signatures;
    // the chunk's signatures, checked before its requests are counted (null: unsigned, or no signature keys)
    const signed = judge === undefined ? null : await Promise.all(entries.map((entry) => (entry === null || entry.request.signed == null ? null : judge.check(entry.request))));
    const verifier = this.options.verifier;
    if (verifier !== undefined && verifier.dns) await verifier.prepare(this.claimsOf(entries, signed));
    const rules = this.rules;
    entries.forEach((entry, i) => {
      if (entry === null) return;
      this.addRequest(entry, log, firstLineNumber + i, defaultHost, signed?.[i] ?? null);
      // versions the history dropped wait, open, for the requests they judge: past its bound, judged now
      if (rules.mustCloseDropped) this.judgeBatch();
    });
    this.judgeBatch();
  }

  /** The crawler families a chunk's requests claim, with their client addresses (looked up by DNS before the chunk is audited). */
  private claimsOf(entries: readonly (LogEntry | null)[], signed: readonly (SignatureCheck | null)[] | null): { family: CrawlerFamily; client: string }[] {
    const claims: { family: CrawlerFamily; client: string }[] = [];
    entries.forEach((entry, i) => {
      const signature = signed?.[i] ?? null;
      // a signature that decides needs no DNS answer
      if (entry === null || (entry.request.userAgent === null && signature === null) || (signature !== null && signature.verdict !== 'notChecked')) return;
      const request = entry.request;
      const current = this.rules.at(entry.origin(), request.timeMs).current;
      const family = (signature === null ? this.classifier.crawlerOf(request.userAgent, current?.robots ?? null) : this.classifier.signerOf(signature, current?.robots ?? null))?.family ?? null;
      const client = clientAddress(request, this.options.clientIp ?? 'remote');
      if (family !== null && client !== null) claims.push({ family, client });
    });
    return claims;
  }

  /** Judges the requests waiting (one bulk call per matcher), then lets the rules close the versions they dropped meanwhile. Per chunk. */
  private judgeBatch(): void {
    this.judge.judgePending();
    this.rules.closeDropped();
  }

  /**
   * One request: outside the time range, not a crawler's, or classified, counted and queued to be judged. signature:
   * what its signature said (null: unsigned, or no signature keys); a signed request is its agent's whatever its
   * User-Agent says.
   */
  private addRequest(entry: LogEntry, log: string, lineNumber: number, defaultHost: string | null, signature: SignatureCheck | null = null): void {
    const request = entry.request;
    const { options, tally } = this;
    if (options.sinceMs !== undefined || options.untilMs !== undefined) {
      const ms = request.timeMs;
      if (ms === null || (options.sinceMs !== undefined && ms < options.sinceMs) || (options.untilMs !== undefined && ms >= options.untilMs)) {
        tally.outsideTime++;
        return;
      }
    }
    if (request.host === null && defaultHost === null && options.requireHost === true) throw hostUnknownError(`${log}:${lineNumber}`, request.format);
    const origin = entry.origin();
    // the rules in force when the request was made (and, within 24 h of a change, the version before)
    const inForce = this.rules.at(origin, request.timeMs);
    const versioned = this.rules.versioned;
    const rulesKnown = inForce.current !== null;
    let robots = inForce.current?.robots ?? null;
    if (!rulesKnown && !versioned && options.missing === 'disallow') robots = (this.disallowAll ??= parseRobots(FULL_VERDICT_BODY.disallow));
    const crawler = signature === null ? this.classifier.crawlerOf(request.userAgent, robots) : this.classifier.signerOf(signature, robots);
    if (crawler === null) {
      tally.otherRequests++;
      return;
    }
    tally.crawlerRequests++;
    const family = crawler.family;
    let verdict: Verification | null = null;
    let services: readonly string[] | null = null;
    // the vendor's file that holds the address when it does not cover the claimed crawler: a row of its own, user-directed when that file is
    let from: { name: string; userDirected: boolean } | null = null;
    // a signature that decided, and IP ranges that said otherwise
    let rangesDisagree = false;
    if (options.verifier !== undefined || signature !== null) {
      const client = clientAddress(request, options.clientIp ?? 'remote');
      const claim = options.verifier?.classifyClaim(family, client, request.timeMs) ?? null;
      if (signature === null || signature.verdict === 'notChecked') {
        // the IP ranges decide (a request not signed, or a signature that could not be checked)
        verdict = claim?.verdict ?? 'not-checked';
        services = claim?.services ?? null;
        // said when the file does not cover the crawler, or is a user-directed file covering a crawler that is not a user-triggered fetcher (Google's other crawlers)
        const held = claim?.heldBy ?? null;
        if (held !== null && family !== null && (!family.covering.includes(held) || (held.userDirected === true && !family.userTriggered))) from = { name: publishedName(held), userDirected: held.userDirected === true };
      } else if (signature.verdict === 'verified') {
        // the signature decides: the agent's own request, wherever it came from
        verdict = 'verified';
        services = claim?.verdict === 'verified' ? claim.services : null;
        rangesDisagree = claim?.verdict === 'impostor';
        // an address in another vendor's ranges: a row of its own, said
        const holding = claim?.verdict === 'verified' ? null : options.verifier?.fileHolding(client) ?? null;
        if (holding !== null && holding.vendor !== family?.vendor.id) from = { name: holding.name, userDirected: false };
      } else {
        // a signature that fails: an impostor of the agent it claims, whatever its address
        verdict = 'impostor';
        rangesDisagree = claim?.verdict === 'verified';
      }
    }
    const hostKey = origin?.hostKey ?? null;
    const rowHost = options.byHost === true ? hostKey : null;
    const key = crawlerKey(rowHost, crawler.agent, verdict === 'impostor', from?.name ?? null);
    // a new crawler past the bound: what waits is judged first (the disallowed counts decide who is dropped)
    if (tally.needsRoomFor(key)) {
      this.judgeBatch();
      tally.dropLeastDisallowed();
    }
    const bucket = tally.countHour(request.timeMs);
    // a verified signature's card says whether a person asked for the fetch (a failed one's claim is not believed)
    const fetcher = signature?.verdict === 'verified' && signature.trigger === 'fetcher';
    const state = tally.countRequest(key, crawler.group, hostKey) ?? tally.countNewCrawler(key, { agent: crawler.agent, host: rowHost, group: crawler.group, groupHost: hostKey, impostor: verdict === 'impostor', from, family, userAgent: request.userAgent ?? '', fetcher });
    if (verdict !== null) tally.countVerification(state, verdict, services);
    if (signature !== null) {
      const keysMissing = signature.verdict === 'notChecked' && signature.agent !== null && options.signatures?.keys.agent(signature.agent) === undefined;
      tally.countSignature(state, signature, { rangesDisagree, keysMissing }, log, lineNumber);
    }
    if (!rulesKnown) tally.countNoRules(state, origin?.origin ?? null);
    let version: PendingRequest['version'] = null;
    if (versioned) {
      if (!rulesKnown) {
        tally.countNoVersion(state);
        return;
      }
      version = tally.countVersion(state, inForce.current as RobotsVersion);
    }
    // unknown rules are never taken for allowed: not judged, unless missing disallow judges them
    if (!rulesKnown && options.missing !== 'disallow') return;
    // fetching /robots.txt is how a crawler learns the rules (RFC 9309 2.3): counted, never a violation, even
    // where the reference's verdict for that path is "disallowed" (Disallow: / in google mode)
    if (isRobotsTxtTarget(request.target)) {
      tally.countRobotsTxtFetch(state);
      return;
    }
    // within 24 h after a change: the older version's verdict too (its own group for the crawler)
    let previousMatcher: RobotsMatcher | null = null;
    let previousAllowed: boolean | undefined;
    if (inForce.previous !== null) {
      const previousGroup = this.classifier.previousGroupOf(request.userAgent, inForce.previous.robots);
      if (previousGroup === null) previousAllowed = true;
      else previousMatcher = this.judge.matcherOf(inForce.previous.robots, previousGroup);
    }
    // no robots.txt, or no group for this crawler (AdsBot ignores *): allowed (unless the older version disagrees)
    if (robots === null || crawler.group === null) {
      if (previousMatcher !== null && !previousMatcher.isAllowed(entry.target)) tally.countEither(state);
      else tally.countAllowed(state);
      return;
    }
    // judged with the rest of the chunk's requests: one bulk call per matcher, not one per request
    const file = versioned ? (inForce.current as RobotsVersion).name : options.filePerHost === true ? hostKey : null;
    const pathHost = options.byHost !== true && (options.filePerHost === true || versioned) ? hostKey : null;
    this.judge.add({ alone: request.target.includes('\n') || request.target.includes('\r'), state, bucket, entry, path: request.target, status: request.status, file, pathHost, robots, group: crawler.group, version, previousMatcher, previousAllowed });
  }

  /** The report so far (called once, at the end). */
  report(): AuditReport {
    this.judgeBatch();
    return this.tally.report(this.verifiedBy());
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
    this.judgeBatch();
    return partialOf(this.tally, logs, this.options.byHost === true, this.verifiedBy());
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
    // every field checked first: a damaged part is refused naming its field, never added into an invented report
    const parts = partials.map((partial, i) => {
      try {
        return checkedPartial(partial);
      } catch (error) {
        if (error instanceof RobotsError) throw new RobotsError('INVALID_ARGUMENT', `part ${i + 1} is not a partial audit: ${error.message}`);
        throw error;
      }
    });
    const shape = parts[0].shape;
    for (const part of parts) {
      if (part.shape.verifying !== shape.verifying || part.shape.withHistory !== shape.withHistory || part.shape.byHost !== shape.byHost || part.shape.missing !== shape.missing || part.shape.reading !== shape.reading || part.shape.signatures !== shape.signatures) {
        throw RobotsError.about('INVALID_ARGUMENT', { name: 'partials' }, (_said, say) => `partial audits made with different options cannot be merged: one ${describeShape(shape, say)}, another ${describeShape(part.shape, say)}`);
      }
    }
    const audit = new RobotsAudit(() => null, { top, byHost: shape.byHost, missing: shape.missing, reading: shape.reading }, shape);
    const linesBefore = new Map<string, number>();
    for (const part of parts) {
      addPartial(audit.tally, part, linesBefore);
      audit.mergedVerifiedBy = mergeVerifiedBy(audit.mergedVerifiedBy, part.verifiedBy);
      for (const { log, lines } of part.logs) linesBefore.set(log, (linesBefore.get(log) ?? 0) + lines);
    }
    return audit;
  }
}
