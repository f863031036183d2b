// What a robots.txt change does to real URLs: which change verdict, in each direction, and which rules decide.
// Used by `robotstxt diff`; fed chunk by chunk, memory grows only with the distinct URLs that change.
import type { RobotsMatcher, DecidingRule } from './matcher.js';
import { VERDICT_ALLOWED } from './constants.js';

/** One URL whose verdict changes. */
export interface ChangedUrl {
  url: string;
  /** Requests (log) or lines (URL list) with this URL. */
  requests: number;
  oldRule: DecidingRule | null;
  newRule: DecidingRule | null;
}

/** A deciding rule and how many requests it newly decides. */
export interface RuleCount {
  rule: DecidingRule;
  requests: number;
}

export interface DiffReport {
  /** URLs checked (requests or lines). */
  checked: number;
  /** True when more distinct URLs changed than are listed (MAX_LISTED_URLS, MAX_LISTED_BYTES); the counts stay exact. */
  truncated: boolean;
  /** Requests whose verdict changes, per direction: exact, listed or not. */
  newlyDisallowedRequests: number;
  newlyAllowedRequests: number;
  unchanged: number;
  /** Allowed before, disallowed after: sorted by requests. */
  newlyDisallowed: ChangedUrl[];
  /** Disallowed before, allowed after: sorted by requests. */
  newlyAllowed: ChangedUrl[];
  /** New rules behind newly disallowed requests, and behind newly allowed ones. */
  disallowingRules: RuleCount[];
  allowingRules: RuleCount[];
}

const latin1 = new TextDecoder('latin1');
const utf8 = new TextDecoder();

/**
 * Rules are read for the whole batch in bulk (two explain passes) when at least one line in this many changes
 * verdict; fewer changes are explained one URL at a time (an explain pass costs about what 64 explains do).
 */
const BULK_RULES_SHARE = 64;

/** Distinct changed URLs kept for the lists; requests beyond them are still counted, per direction and rule. */
export const MAX_LISTED_URLS = 100_000;
/** ... and at most this many bytes of them (URLs may be long): memory stays bounded. */
export const MAX_LISTED_BYTES = 64 << 20;

/** Accumulates the verdict changes between two matchers over batches of URL lines. One per diff. */
export class RobotsDiff {
  private checked = 0;
  private truncated = false;
  /** Requests of URLs not listed (past MAX_LISTED_URLS), per direction, and their rules. */
  private readonly unlisted = { disallowed: new Map<string, RuleCount>(), allowed: new Map<string, RuleCount>(), disallowedRequests: 0, allowedRequests: 0 };
  private readonly changed = new Map<string, ChangedUrl & { disallowedNow: boolean }>();
  private listedBytes = 0;

  constructor(private readonly before: RobotsMatcher, private readonly after: RobotsMatcher) {}

  /**
   * Adds a batch of LF-separated URL lines: both matchers' verdicts in bulk; where verdicts differ, the rules
   * that decide, in bulk too (decidingRules) once at least 1 line in BULK_RULES_SHARE changes, else per URL.
   */
  addLines(lines: Uint8Array): void {
    const old = this.before.checkLines(lines);
    const now = this.after.checkLines(lines);
    this.checked += old.length;
    let changes = 0;
    for (let i = 0; i < old.length; i++) if (old[i] !== now[i]) changes++;
    if (changes === 0) return;
    const bulk = changes * BULK_RULES_SHARE >= old.length;
    const oldRules = bulk ? this.before.decidingRules(lines).rules : null;
    const newRules = bulk ? this.after.decidingRules(lines).rules : null;
    let start = 0;
    for (let i = 0; i < old.length; i++) {
      let end = lines.indexOf(0x0a, start);
      if (end < 0) end = lines.length;
      if (old[i] !== now[i]) {
        const urlEnd = end > start && lines[end - 1] === 0x0d ? end - 1 : end;
        const bytes = lines.subarray(start, urlEnd);
        const disallowedNow = now[i] !== VERDICT_ALLOWED;
        const key = latin1.decode(bytes);
        const entry = this.changed.get(key);
        if (entry !== undefined) {
          entry.requests++;
        } else {
          const newRule = newRules !== null ? newRules[i] : this.after.explain(bytes).rule;
          if (this.changed.size < MAX_LISTED_URLS && this.listedBytes + bytes.length <= MAX_LISTED_BYTES) {
            this.listedBytes += bytes.length;
            this.changed.set(key, { url: utf8.decode(bytes), requests: 1, oldRule: oldRules !== null ? oldRules[i] : this.before.explain(bytes).rule, newRule, disallowedNow });
          } else {
            this.countUnlisted(newRule, disallowedNow);
          }
        }
      }
      start = end + 1;
    }
  }

  private countUnlisted(rule: DecidingRule | null, disallowedNow: boolean): void {
    this.truncated = true;
    if (disallowedNow) this.unlisted.disallowedRequests++;
    else this.unlisted.allowedRequests++;
    if (rule === null) return;
    const counts = disallowedNow ? this.unlisted.disallowed : this.unlisted.allowed;
    const key = ruleKey(rule);
    const entry = counts.get(key);
    if (entry !== undefined) entry.requests++;
    else counts.set(key, { rule, requests: 1 });
  }

  /** The report so far. */
  report(): DiffReport {
    const all = [...this.changed.values()].sort((a, b) => b.requests - a.requests || (a.url < b.url ? -1 : 1));
    const strip = ({ disallowedNow: _, ...rest }: ChangedUrl & { disallowedNow: boolean }): ChangedUrl => rest;
    const newlyDisallowed = all.filter((c) => c.disallowedNow).map(strip);
    const newlyAllowed = all.filter((c) => !c.disallowedNow).map(strip);
    const requestsOf = (changes: ChangedUrl[]): number => changes.reduce((sum, c) => sum + c.requests, 0);
    const newlyDisallowedRequests = requestsOf(newlyDisallowed) + this.unlisted.disallowedRequests;
    const newlyAllowedRequests = requestsOf(newlyAllowed) + this.unlisted.allowedRequests;
    const changedRequests = newlyDisallowedRequests + newlyAllowedRequests;
    return {
      checked: this.checked,
      truncated: this.truncated,
      newlyDisallowedRequests,
      newlyAllowedRequests,
      unchanged: this.checked - changedRequests,
      newlyDisallowed,
      newlyAllowed,
      disallowingRules: countRules(newlyDisallowed, (c) => c.newRule, this.unlisted.disallowed),
      allowingRules: countRules(newlyAllowed, (c) => c.newRule, this.unlisted.allowed),
    };
  }
}

/** The key a rule is counted under; made once per rule object (decidingRules shares one object per rule). */
const ruleKeys = new WeakMap<DecidingRule, string>();
function ruleKey(rule: DecidingRule): string {
  let key = ruleKeys.get(rule);
  if (key === undefined) {
    key = `${rule.kind} ${rule.line} ${rule.pattern}`;
    ruleKeys.set(rule, key);
  }
  return key;
}

function countRules(changes: ChangedUrl[], ruleOf: (change: ChangedUrl) => DecidingRule | null, unlisted: Map<string, RuleCount>): RuleCount[] {
  const counts = new Map<string, RuleCount>([...unlisted].map(([key, value]) => [key, { ...value }]));
  for (const change of changes) {
    const rule = ruleOf(change);
    if (rule === null) continue;
    const key = ruleKey(rule);
    const entry = counts.get(key);
    if (entry !== undefined) entry.requests += change.requests;
    else counts.set(key, { rule, requests: change.requests });
  }
  return [...counts.values()].sort((a, b) => b.requests - a.requests || a.rule.line - b.rule.line);
}
