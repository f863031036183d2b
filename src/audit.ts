// Which crawlers fetched what robots.txt forbade them: access log requests -> crawler -> group -> verdict.
// Used by `robotstxt audit`; fed line by line, memory grows with crawlers, rules and tracked paths only.
import { isbot } from 'isbot';
import { LogLineReader, hostUnknownError, originOfRequest, type LogFieldNames, type LogRequest } from './log.js';
import type { UrlOrigin } from './url-model.js';
import { asciiLowerCase, productToken, type RobotsTxt } from './robots.js';
import { crawlerName, groupFollowed, isCrawlerWord, userAgentWords } from './crawlers.js';
import { crawlerCategory, type CrawlerCategory } from './crawler-categories.js';
import { RobotsError } from './errors.js';

/** One crawler's requests. */
export interface CrawlerAudit {
  /** The crawler: the robots.txt product token its User-Agent carries, else a name taken from its User-Agent. */
  agent: string;
  /** The group it follows: a product token of the file (its own, or Googlebot's for Googlebot-Image and kin), `*`, or null when none applies (AdsBot without its own group). */
  group: string | null;
  /** True when a group that names it (or its fallback) applies, false for `*` or none. */
  named: boolean;
  category: CrawlerCategory;
  requests: number;
  disallowed: number;
  /** Rules that disallowed its requests, most requests first. */
  rules: { line: number; pattern: string; requests: number }[];
  /**
   * Most requested disallowed paths: requests counted exactly since the path was last tracked; `upTo` is
   * the most it can be (requests + what an untracked time may have missed; equal when exact).
   */
  topDisallowedPaths: { path: string; requests: number; upTo: number }[];
}

export interface AuditReport {
  /** Log lines read (blank lines and log header lines not counted). */
  lines: number;
  /** Requests by crawlers (audited), and by anything else (browsers, not audited). */
  crawlerRequests: number;
  otherRequests: number;
  /** Requests left out by since/until (outside the range, or with no readable time). */
  outsideTime: number;
  /** Lines that are not access log lines: how many, and the first ones (log name, 1-based line). */
  malformed: { count: number; lines: { log: string; line: number }[] };
  /** The crawlers, most disallowed requests first (the first `top` of them when top is set). */
  crawlers: CrawlerAudit[];
  /** Crawlers left out by top, summed. */
  moreCrawlers: { crawlers: number; requests: number; disallowed: number };
  /** Requests of crawlers first seen after MAX_CRAWLERS others (a hostile or huge log), summed: exact counts. */
  untracked: { requests: number; disallowed: number };
  /** Requests and disallowed requests per hour (UTC, "YYYY-MM-DD HH:00"), for charts. */
  timeline: { hour: string; requests: number; disallowed: number }[];
}

/** How an audit reads and reports (all optional). */
export interface AuditOptions {
  /** JSON keys of JSON lines logs. */
  logFields?: LogFieldNames;
  /** Only requests at or after this time (ms since 1970) ... */
  sinceMs?: number;
  /** ... and before this one. */
  untilMs?: number;
  /** Report the first N crawlers only (0: all); the rest are summed in moreCrawlers. */
  top?: number;
  /** The robots.txt depends on the host: a request whose line names no host (and no default host) is an error (HOST_UNKNOWN). */
  requireHost?: boolean;
}

const TOP_PATHS = 20;
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

interface CrawlerState {
  agent: string;
  group: string | null;
  category: CrawlerCategory;
  requests: number;
  disallowed: number;
  rules: Map<string, { line: number; pattern: string; requests: number }>;
  paths: PathCounter;
}

/** What a User-Agent says, independent of any robots.txt (cached per User-Agent). */
interface UserAgentFacts {
  /** isbot knows it as a bot (browsers never are). */
  bot: boolean;
  /** Its words outside URLs as robots.txt product tokens are compared: runs of [a-z0-9_-], lower case, once each. */
  words: string[];
  /** Its name when no product token of the file names it. */
  name: string;
  /** That name's product token, as the reference reads an agent. */
  token: string;
}

/** Facts of this many User-Agents (and this many of their characters, words included) are kept; then the table starts again. */
const USER_AGENT_CACHE = 100_000;
const USER_AGENT_CACHE_CHARS = 32 << 20;
/** Crawlers tracked one by one (rules, paths); requests of crawlers first seen after them are summed in `untracked`. */
export const MAX_CRAWLERS = 10_000;

/** Accumulates an audit of access log lines against one robots.txt (or one per host). One per audit run. */
export class RobotsAudit {
  private lineCount = 0;
  private crawlerRequests = 0;
  private otherRequests = 0;
  private outsideTime = 0;
  private malformedCount = 0;
  private readonly malformedLines: { log: string; line: number }[] = [];
  private readonly crawlers = new Map<string, CrawlerState>();
  /** Requests per hour since 1970 (UTC). */
  private readonly hours = new Map<number, { requests: number; disallowed: number }>();
  private readonly userAgents = new Map<string, UserAgentFacts>();
  private readonly categories = new Map<string, CrawlerCategory>();
  private readonly readers = new Map<string, LogLineReader>();
  private readonly untracked = { requests: 0, disallowed: 0 };
  private userAgentChars = 0;

  /**
   * robotsFor: the robots.txt for a request's origin (null: none, the request is allowed). The origin is the
   * URL model's reading of the request's URL line (the line check --log answers); null when it has none.
   */
  constructor(private readonly robotsFor: (origin: UrlOrigin | null) => RobotsTxt | null, private readonly options: AuditOptions = {}) {}

  private factsOf(userAgent: string): UserAgentFacts {
    let facts = this.userAgents.get(userAgent);
    if (facts === undefined) {
      const bot = isbot(userAgent);
      const name = bot ? crawlerName(userAgent) : '';
      facts = { bot, words: bot ? [...new Set(userAgentWords(userAgent).flatMap((word) => asciiLowerCase(word.text).split('.')))].filter((word) => word !== '') : [], name, token: productToken(name) };
      if (this.userAgents.size >= USER_AGENT_CACHE || this.userAgentChars > USER_AGENT_CACHE_CHARS) {
        this.userAgents.clear();
        this.userAgentChars = 0;
      }
      this.userAgents.set(userAgent, facts);
      this.userAgentChars += 2 * userAgent.length;
    }
    return facts;
  }

  /**
   * The crawler of a request and the group it follows. Its name comes from its User-Agent (crawlerName); the
   * group is that name's product token's (as the reference reads an agent), or its Google fallback's; else
   * the longest User-Agent word the file names as a product token (browser words such as Mozilla claim
   * nothing); else `*` (null for AdsBot, which ignores `*`). Null for browsers and no User-Agent.
   */
  private crawlerOf(userAgent: string | null, robots: RobotsTxt | null): { agent: string; group: string | null } | null {
    if (userAgent === null) return null;
    const facts = this.factsOf(userAgent);
    if (!facts.bot) return null;
    const tokens = robots === null ? null : tokensOf(robots);
    const group = groupFollowed(facts.token, (token) => tokens?.has(token) === true);
    if (group !== null && group !== '*') return { agent: facts.name, group: tokens?.get(group) as string };
    if (tokens !== null) {
      let best: string | null = null;
      for (const word of facts.words) if (tokens.has(word) && (best === null || word.length > best.length)) best = word;
      if (best !== null) return { agent: tokens.get(best) as string, group: tokens.get(best) as string };
    }
    return { agent: facts.name, group };
  }

  /** Adds one log line (log and lineNumber: where it is, for the malformed-line report; defaultHost: for lines that name no host). */
  addLine(line: string, lineNumber: number, log = '-', defaultHost: string | null = null): void {
    if (line === '') return;
    let reader = this.readers.get(log);
    if (reader === undefined) {
      reader = new LogLineReader({ fields: this.options.logFields });
      this.readers.set(log, reader);
    }
    const request = reader.read(line);
    if (request === 'header') return;
    this.lineCount++;
    if (request === null) {
      this.malformedCount++;
      if (this.malformedLines.length < MAX_MALFORMED_LINES) this.malformedLines.push({ log, line: lineNumber });
      return;
    }
    this.addRequest(request, log, lineNumber, defaultHost);
  }

  private addRequest(request: LogRequest, log: string, lineNumber: number, defaultHost: string | null): void {
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
    const robots = this.robotsFor(originOfRequest(request, defaultHost));
    const crawler = this.crawlerOf(request.userAgent, robots);
    if (crawler === null) {
      this.otherRequests++;
      return;
    }
    this.crawlerRequests++;
    const key = asciiLowerCase(crawler.agent);
    let state = this.crawlers.get(key);
    if (state === undefined && this.crawlers.size >= MAX_CRAWLERS) {
      // past the crawlers tracked one by one: counted, summed (memory stays bounded on hostile logs)
      this.untracked.requests++;
      if (robots !== null && crawler.group !== null && !robots.matcher(crawler.group).isAllowed(Buffer.from(request.target, 'latin1')) && !isRobotsTxtRequest(request.target)) this.untracked.disallowed++;
      return;
    }
    if (state === undefined) {
      let category = this.categories.get(key);
      if (category === undefined) {
        category = crawlerCategory(crawler.agent, request.userAgent as string);
        this.categories.set(key, category);
      }
      state = { agent: crawler.agent, group: crawler.group, category, requests: 0, disallowed: 0, rules: new Map(), paths: new PathCounter(TRACKED_PATHS) };
      this.crawlers.set(key, state);
    }
    state.requests++;
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
    // no robots.txt, or no group for this crawler (AdsBot ignores *): allowed
    if (robots === null || crawler.group === null) return;
    const explanation = robots.matcher(crawler.group).explain(Buffer.from(request.target, 'latin1'));
    // fetching /robots.txt is how a crawler learns the rules (RFC 9309 2.3): never a violation, even where
    // the reference's verdict for that path is "disallowed" (Disallow: / in google mode)
    if (explanation.allowed || isRobotsTxtRequest(request.target)) return;
    state.disallowed++;
    if (bucket !== null) bucket.disallowed++;
    const rule = explanation.rule;
    if (rule !== null) {
      const ruleKey = `${rule.line} ${rule.pattern}`;
      const entry = state.rules.get(ruleKey) ?? { line: rule.line, pattern: rule.pattern, requests: 0 };
      entry.requests++;
      state.rules.set(ruleKey, entry);
    }
    state.paths.add(request.target);
  }

  /** The report so far (called once, at the end). */
  report(): AuditReport {
    const all = [...this.crawlers.values()].map((state): CrawlerAudit => ({
      agent: state.agent,
      group: state.group,
      named: state.group !== null && state.group !== '*',
      category: state.category,
      requests: state.requests,
      disallowed: state.disallowed,
      rules: [...state.rules.values()].sort((a, b) => b.requests - a.requests || a.line - b.line),
      topDisallowedPaths: state.paths.top(TOP_PATHS),
    })).sort((a, b) => b.disallowed - a.disallowed || b.requests - a.requests || (a.agent < b.agent ? -1 : 1));
    const top = this.options.top ?? 0;
    const shown = top > 0 ? all.slice(0, top) : all;
    const rest = all.slice(shown.length);
    return {
      lines: this.lineCount,
      crawlerRequests: this.crawlerRequests,
      otherRequests: this.otherRequests,
      outsideTime: this.outsideTime,
      malformed: { count: this.malformedCount, lines: this.malformedLines },
      crawlers: shown,
      moreCrawlers: { crawlers: rest.length, requests: rest.reduce((sum, c) => sum + c.requests, 0), disallowed: rest.reduce((sum, c) => sum + c.disallowed, 0) },
      untracked: { ...this.untracked },
      timeline: [...this.hours].sort((a, b) => a[0] - b[0]).map(([hour, counts]) => ({ hour: hourText(hour), ...counts })),
    };
  }
}

/**
 * Bounded counts of distinct paths: at 2 x capacity, the less counted half is dropped, remembering the most
 * a dropped path could have had (floor); a path tracked again starts with that as its possible miss.
 * Amortised O(log capacity) per add; counts of paths never dropped are exact.
 */
class PathCounter {
  private readonly counts = new Map<string, { count: number; missed: number }>();
  private floor = 0;

  constructor(private readonly capacity: number) {}

  add(path: string): void {
    const entry = this.counts.get(path);
    if (entry !== undefined) {
      entry.count++;
      return;
    }
    if (this.counts.size >= 2 * this.capacity) {
      const sorted = [...this.counts].sort((a, b) => b[1].count - a[1].count);
      for (const [dropped, value] of sorted.slice(this.capacity)) {
        this.floor = Math.max(this.floor, value.count + value.missed);
        this.counts.delete(dropped);
      }
    }
    this.counts.set(path, { count: 1, missed: this.floor });
  }

  /** The n most counted: exact counts, and the most each can be. */
  top(n: number): { path: string; requests: number; upTo: number }[] {
    return [...this.counts].sort((a, b) => b[1].count - a[1].count || (a[0] < b[0] ? -1 : 1)).slice(0, n)
      .map(([path, value]) => ({ path, requests: value.count, upTo: value.count + value.missed }));
  }
}

const tokenCache = new WeakMap<RobotsTxt, Map<string, string>>();

/** The product tokens a file names (not `*`, not browser words such as Mozilla): lower case -> as written. */
function tokensOf(robots: RobotsTxt): Map<string, string> {
  let tokens = tokenCache.get(robots);
  if (tokens === undefined) {
    tokens = new Map();
    for (const group of robots.groups) {
      for (const agent of group.agents) {
        if (agent.global || agent.productToken === '' || !isCrawlerWord(agent.productToken)) continue;
        const lower = asciiLowerCase(agent.productToken);
        if (!tokens.has(lower)) tokens.set(lower, agent.productToken);
      }
    }
    tokenCache.set(robots, tokens);
  }
  return tokens;
}

/** True for a request of /robots.txt itself (a path or an absolute URL, with or without a query). */
function isRobotsTxtRequest(target: string): boolean {
  const path = target.replace(/^[a-zA-Z][a-zA-Z0-9+.-]*:\/\/[^/?#]*/, '');
  const end = path.search(/[?#]/);
  return (end < 0 ? path : path.slice(0, end)) === '/robots.txt';
}
