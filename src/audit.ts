// Which crawlers fetched what robots.txt forbade them: access log requests -> crawler -> verdict.
// Used by `robotstxt audit`; fed line by line, memory grows with crawlers, rules and distinct paths only.
import { isbot } from 'isbot';
import { parseLogLine } from './log.js';
import { asciiLowerCase, type RobotsTxt } from './robots.js';
import type { RobotsMatcher } from './matcher.js';

/** One crawler's requests. */
export interface CrawlerAudit {
  /** The robots.txt product token that named it, or a name taken from its User-Agent (then the `*` group applies). */
  agent: string;
  /** True when its own group applies (its token is named in the robots.txt), false when the `*` group does. */
  named: boolean;
  requests: number;
  disallowed: number;
  /** Rules that disallowed its requests, most requests first. */
  rules: { line: number; pattern: string; requests: number }[];
  /** Most requested disallowed paths. */
  topDisallowedPaths: { path: string; requests: number }[];
}

export interface AuditReport {
  /** Log lines read (blank lines not counted). */
  lines: number;
  /** Requests by crawlers (audited), and by anything else (browsers, not audited). */
  crawlerRequests: number;
  otherRequests: number;
  /** Lines that are not access log lines: how many, and the first ones (log name, 1-based line). */
  malformed: { count: number; lines: { log: string; line: number }[] };
  crawlers: CrawlerAudit[];
  /** Requests and disallowed requests per hour (log time, "YYYY-MM-DD HH:00"), for charts. */
  timeline: { hour: string; requests: number; disallowed: number }[];
}

const TOP_PATHS = 20;
/** Disallowed paths counted per crawler; beyond it the rarest is replaced (space-saving top-k: counts of
 * the top paths stay exact unless the log has more frequent distinct paths than this). */
const TRACKED_PATHS = 2000;
const MAX_MALFORMED_LINES = 100;
const MONTHS: Record<string, string> = { Jan: '01', Feb: '02', Mar: '03', Apr: '04', May: '05', Jun: '06', Jul: '07', Aug: '08', Sep: '09', Oct: '10', Nov: '11', Dec: '12' };

/** "17/May/2015:10:05:03 +0000" -> "2015-05-17 10:00" (the log's own time zone). */
function hourOf(time: string): string | null {
  const match = /^(\d{2})\/(\w{3})\/(\d{4}):(\d{2})/.exec(time);
  if (match === null || MONTHS[match[2]] === undefined) return null;
  return `${match[3]}-${MONTHS[match[2]]}-${match[1]} ${match[4]}:00`;
}

const BROWSER_PRODUCTS = new Set(['mozilla', 'applewebkit', 'khtml', 'gecko', 'chrome', 'safari', 'firefox', 'version', 'mobile', 'opera', 'presto', 'trident', 'edge', 'mobile-safari']);

/**
 * A readable name for a crawler the robots.txt does not name: the "compatible; Name" product, else a word
 * with bot/spider/crawler/preview/proxy/fetcher in it, else its first word unless that is a browser's
 * (Mozilla/...), else the last Name/version product that is not a browser's, else the User-Agent itself
 * (cut to 40 characters).
 */
export function crawlerName(userAgent: string): string {
  const compatible = /compatible;\s*([A-Za-z][\w.-]*)/.exec(userAgent);
  if (compatible !== null) return compatible[1];
  const botWord = /([A-Za-z][\w.-]*(?:bot|spider|crawler|preview|proxy|fetcher|slurp)[\w.-]*)/i.exec(userAgent);
  if (botWord !== null) return botWord[1];
  const leading = /^\s*([A-Za-z][\w.-]*)/.exec(userAgent);
  if (leading !== null && !BROWSER_PRODUCTS.has(leading[1].toLowerCase())) return leading[1];
  const products = [...userAgent.matchAll(/([A-Za-z][\w.-]*)\/[\w.+-]+/g)].map((m) => m[1]).filter((name) => !BROWSER_PRODUCTS.has(name.toLowerCase()));
  if (products.length > 0) return products[products.length - 1];
  return userAgent.trim().slice(0, 40);
}

interface CrawlerState {
  agent: string;
  named: boolean;
  requests: number;
  disallowed: number;
  rules: Map<string, { line: number; pattern: string; requests: number }>;
  paths: Map<string, number>;
}

/** Accumulates an audit of access log lines against one robots.txt (or one per host). One per audit run. */
export class RobotsAudit {
  private lineCount = 0;
  private crawlerRequests = 0;
  private otherRequests = 0;
  private malformedCount = 0;
  private readonly malformedLines: { log: string; line: number }[] = [];
  private readonly crawlers = new Map<string, CrawlerState>();
  private readonly hours = new Map<string, { requests: number; disallowed: number }>();
  private readonly agentOfUserAgent = new Map<string, { agent: string; named: boolean } | null>();

  /** robotsFor: the robots.txt for a request's host (null: none, the request is allowed). */
  constructor(private readonly robotsFor: (host: string | null) => RobotsTxt | null) {}

  /** Which crawler sent this User-Agent: a product token of the file as a whole word (longest first), else isbot. */
  private crawlerOf(userAgent: string | null, robots: RobotsTxt): { agent: string; named: boolean } | null {
    if (userAgent === null) return null;
    const key = userAgent;
    if (this.agentOfUserAgent.has(key)) return this.agentOfUserAgent.get(key) as { agent: string; named: boolean } | null;
    let found: { agent: string; named: boolean } | null = null;
    const lower = asciiLowerCase(userAgent);
    for (const token of tokensOf(robots)) {
      let at = lower.indexOf(token.lower);
      while (at >= 0) {
        const before = at === 0 ? '' : lower[at - 1];
        const after = lower[at + token.lower.length] ?? '';
        if (!/[a-z0-9_-]/.test(before) && !/[a-z0-9_-]/.test(after)) {
          found = { agent: token.token, named: true };
          break;
        }
        at = lower.indexOf(token.lower, at + 1);
      }
      if (found !== null) break;
    }
    if (found === null && isbot(userAgent)) found = { agent: crawlerName(userAgent), named: false };
    if (this.agentOfUserAgent.size > 100_000) this.agentOfUserAgent.clear();
    this.agentOfUserAgent.set(key, found);
    return found;
  }

  /** Adds one log line (log and lineNumber: where it is, for the malformed-line report). */
  addLine(line: string, lineNumber: number, log = '-', defaultHost: string | null = null): void {
    if (line === '') return;
    this.lineCount++;
    const request = parseLogLine(line);
    if (request === null) {
      this.malformedCount++;
      if (this.malformedLines.length < MAX_MALFORMED_LINES) this.malformedLines.push({ log, line: lineNumber });
      return;
    }
    const robots = this.robotsFor(request.vhost ?? defaultHost);
    const crawler = robots === null ? (request.userAgent !== null && isbot(request.userAgent) ? { agent: crawlerName(request.userAgent), named: false } : null) : this.crawlerOf(request.userAgent, robots);
    if (crawler === null) {
      this.otherRequests++;
      return;
    }
    this.crawlerRequests++;
    let state = this.crawlers.get(crawler.agent);
    if (state === undefined) {
      state = { agent: crawler.agent, named: crawler.named, requests: 0, disallowed: 0, rules: new Map(), paths: new Map() };
      this.crawlers.set(crawler.agent, state);
    }
    state.requests++;
    const hour = hourOf(request.time);
    const bucket = hour === null ? null : this.hours.get(hour) ?? { requests: 0, disallowed: 0 };
    if (hour !== null && bucket !== null) {
      bucket.requests++;
      this.hours.set(hour, bucket);
    }
    if (robots === null) return;
    const matcher: RobotsMatcher = robots.matcher(crawler.named ? crawler.agent : '*');
    const explanation = matcher.explain(Buffer.from(request.target, 'latin1'));
    // fetching /robots.txt is how a crawler learns the rules (RFC 9309 2.3): never a violation, even where
    // the reference's verdict for that path is "disallowed" (Disallow: / in google mode)
    if (explanation.allowed || isRobotsTxtRequest(request.target)) return;
    state.disallowed++;
    if (bucket !== null) bucket.disallowed++;
    const rule = explanation.rule;
    if (rule !== null) {
      const key = `${rule.line} ${rule.pattern}`;
      const entry = state.rules.get(key) ?? { line: rule.line, pattern: rule.pattern, requests: 0 };
      entry.requests++;
      state.rules.set(key, entry);
    }
    countPath(state.paths, request.target);
  }

  report(): AuditReport {
    const crawlers = [...this.crawlers.values()].map((state): CrawlerAudit => ({
      agent: state.agent,
      named: state.named,
      requests: state.requests,
      disallowed: state.disallowed,
      rules: [...state.rules.values()].sort((a, b) => b.requests - a.requests || a.line - b.line),
      topDisallowedPaths: [...state.paths].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, TOP_PATHS).map(([path, requests]) => ({ path, requests })),
    })).sort((a, b) => b.disallowed - a.disallowed || b.requests - a.requests || (a.agent < b.agent ? -1 : 1));
    return {
      lines: this.lineCount,
      crawlerRequests: this.crawlerRequests,
      otherRequests: this.otherRequests,
      malformed: { count: this.malformedCount, lines: this.malformedLines },
      crawlers,
      timeline: [...this.hours].sort((a, b) => (a[0] < b[0] ? -1 : 1)).map(([hour, counts]) => ({ hour, ...counts })),
    };
  }
}

/** Bounded counting: a new path when the table is full takes the place (and count + 1) of the rarest one. */
function countPath(paths: Map<string, number>, path: string): void {
  const count = paths.get(path);
  if (count !== undefined) {
    paths.set(path, count + 1);
    return;
  }
  if (paths.size < TRACKED_PATHS) {
    paths.set(path, 1);
    return;
  }
  let rarest = '';
  let least = Infinity;
  for (const [candidate, value] of paths) if (value < least) { least = value; rarest = candidate; }
  paths.delete(rarest);
  paths.set(path, least + 1);
}

const tokenCache = new WeakMap<RobotsTxt, { token: string; lower: string }[]>();

/** The product tokens a file names (not `*`), longest first. */
function tokensOf(robots: RobotsTxt): { token: string; lower: string }[] {
  let tokens = tokenCache.get(robots);
  if (tokens === undefined) {
    const seen = new Map<string, string>();
    for (const group of robots.groups) for (const agent of group.agents) if (!agent.global && agent.productToken !== '') seen.set(asciiLowerCase(agent.productToken), agent.productToken);
    tokens = [...seen].map(([lower, token]) => ({ token, lower })).sort((a, b) => b.lower.length - a.lower.length);
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
