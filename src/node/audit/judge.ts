// The second step of an audit: verdicts. Requests wait per matcher (one file, one group) and are judged in one
// bulk call each (verdicts and deciding rules), the older version's verdicts first within 24 h after a change,
// then the AI usage of what robots.txt allowed; each verdict is handed to the tally in the order the requests
// came. Nothing here reads logs or counts by itself. One per audit (RobotsAudit holds it).
import type { RobotsTxt } from '../../core/robots.js';
import type { RobotsMatcher, DecidingRule } from '../../core/matcher.js';
import { VERDICT_ALLOWED } from '../../core/constants.js';
import { PURPOSE_SOURCES, USAGE_DISALLOWED, usagePurpose, type UsagePolicy } from '../../core/usage.js';
import { USAGE_PURPOSES } from '../crawlers/index.js';
import type { LogEntry } from '../logs/index.js';
import type { AuditTally, JudgedRequest } from './tally.js';

/** A crawler's request counted but not judged yet (see AuditJudge.judgePending). */
export interface PendingRequest extends JudgedRequest {
  /** Its target has a line break (judged on its own: as a line of a bulk call it would be cut). */
  alone: boolean;
  /** The request (its target is what its verdict is asked of). */
  entry: LogEntry;
  /** The file and group that judge it (its AI usage preferences are theirs). */
  robots: RobotsTxt;
  group: string;
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

const inBulk = (item: PendingRequest): boolean => !item.alone;

/** Judges an audit's requests in batches and hands the verdicts to its tally (see the file's head). */
export class AuditJudge {
  /** Requests waiting for their verdicts, per matcher. */
  private readonly pending = new Map<RobotsMatcher, PendingRequest[]>();
  /** Requests within 24 h after a change, by the older version's matcher (judged first). */
  private readonly olderPending = new Map<RobotsMatcher, PendingRequest[]>();
  /** Matchers by file and group; files dropped from their caches are dropped here with them. */
  private readonly matchers = new WeakMap<RobotsTxt, Map<string, RobotsMatcher>>();

  constructor(private readonly tally: AuditTally) {}

  /** A file's matcher for a group, kept per file (RobotsTxt.matcher builds its key each time). Per request. */
  matcherOf(robots: RobotsTxt, group: string): RobotsMatcher {
    let byGroup = this.matchers.get(robots);
    if (byGroup === undefined) this.matchers.set(robots, byGroup = new Map());
    let matcher = byGroup.get(group);
    if (matcher === undefined || matcher.closed) byGroup.set(group, matcher = robots.matcher(group));
    return matcher;
  }

  /** A request to judge with the next batch (by the older version's matcher too, when it has one). Per request. */
  add(item: PendingRequest): void {
    const matcher = this.matcherOf(item.robots, item.group);
    let batch = this.pending.get(matcher);
    if (batch === undefined) this.pending.set(matcher, batch = []);
    batch.push(item);
    if (item.previousMatcher !== null) {
      let older = this.olderPending.get(item.previousMatcher);
      if (older === undefined) this.olderPending.set(item.previousMatcher, older = []);
      older.push(item);
    }
  }

  /**
   * Judges the requests added since the last call: per matcher, their verdicts and deciding rules in one bulk
   * call (decidingRules), then hands each to the tally, in the order they came. A target with a line break
   * (never one of a log line) is judged on its own. Per chunk, and before crawlers are dropped or reported.
   */
  judgePending(): void {
    // the older versions' verdicts of requests within 24 h after a change: one bulk call per matcher
    for (const [matcher, items] of this.olderPending) {
      const bulk = items.filter(inBulk);
      const verdicts = bulk.length === 0 ? new Uint8Array(0) : matcher.checkLines(linesOf(bulk));
      bulk.forEach((item, i) => { item.previousAllowed = verdicts[i] === VERDICT_ALLOWED; });
      for (const item of items) if (item.alone) item.previousAllowed = matcher.isAllowed(item.entry.target);
    }
    this.olderPending.clear();
    const tally = this.tally;
    for (const [matcher, batch] of this.pending) {
      const bulk = batch.filter(inBulk);
      const lines = bulk.length === 0 ? null : linesOf(bulk);
      const judged = lines === null ? { verdicts: new Uint8Array(0), rules: [] } : matcher.decidingRules(lines);
      let next = 0;
      for (const item of batch) {
        let allowed: boolean;
        let rule: Readonly<DecidingRule> | null;
        if (item.alone) {
          const explanation = matcher.explain(item.entry.target);
          allowed = explanation.allowed;
          rule = explanation.rule;
        } else {
          const i = next++;
          allowed = judged.verdicts[i] === VERDICT_ALLOWED;
          rule = judged.rules[i];
        }
        // the two versions of a change less than 24 h old disagree: either, never a violation
        if (item.previousAllowed !== undefined && item.previousAllowed !== allowed) tally.countEither(item.state);
        else if (!allowed) tally.countDisallowed(item, rule);
        else tally.countAllowed(item.state);
      }
      if (lines !== null) this.judgeUsage(bulk, lines, judged.verdicts);
    }
    this.pending.clear();
  }

  /**
   * AI usage of a batch judged by one matcher (one file, one group): each request robots.txt allowed whose
   * crawler's purpose (USAGE_PURPOSES) the file states no for: by a Content-Usage rule (one bulk call of the
   * usage paths' matcher per purpose in the batch) or by a Content-Signal. Counted apart from violations.
   */
  private judgeUsage(items: readonly PendingRequest[], lines: Uint8Array, verdicts: Uint8Array): void {
    const policy = items[0].robots.usagePolicy(items[0].group);
    // a group that states no preference judges nothing (and asks no crawler its kind)
    if (policy.statedCategories.length === 0 && policy.signals.size === 0) return;
    const tally = this.tally;
    const stated = new Set(policy.statedCategories);
    // one purpose verdict per line (UsagePolicy.purposeOfCrawled: what check --usage answers), per purpose met
    const byPurpose = new Map<string, ReturnType<UsagePolicy['purposeOfCrawled']>>();
    items.forEach((item, i) => {
      const name = USAGE_PURPOSES[tally.kinds.kindOf(item.state)];
      if (name === undefined) return;
      const purpose = usagePurpose(name);
      const signal = purpose.signal === null ? undefined : policy.signals.get(purpose.signal);
      if ((purpose.usage !== null && stated.has(purpose.usage)) || signal !== undefined) tally.usageStated = true;
      if (verdicts[i] !== VERDICT_ALLOWED) return;
      let judged = byPurpose.get(name);
      if (judged === undefined) {
        judged = policy.purposeOfCrawled(lines, purpose, verdicts);
        byPurpose.set(name, judged);
      }
      if (judged.usage[i] !== USAGE_DISALLOWED) return;
      const source = PURPOSE_SOURCES[judged.sources[i]] as 'content-usage' | 'content-signal';
      tally.countUsageAgainst(item.state, item.file, { source, line: judged.lines[i], preference: source === 'content-usage' ? `${purpose.usage}=n` : `${purpose.signal}=no` });
    });
  }
}
