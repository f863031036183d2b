// One page's answer for one crawler: robots.txt's crawl verdict with the page's own rules (headers and head
// meta tags), and, when asked, the page fetched (robots.txt first: a URL robots.txt disallows is never
// requested). Used by robotstxt page, once per page.
import { request, type Dispatcher } from 'undici';
import { judgePage, pageRules, type PageAnswer, type PageMeta, type PageRuleStatement } from '../../core/page-rules.js';
import { asciiLowerCase, productToken } from '../../core/robots.js';
import { RobotsError, type OptionWords } from '../../core/errors.js';
import { originOf, type UrlOrigin } from '../../core/url-model.js';
import type { OriginRobots } from './page-robots.js';
import { htmlMetas, DEFAULT_HEAD_BYTES, type HtmlMetas } from './html-head.js';
import { pageTraps, type PageTrap } from '../../core/page-traps.js';
import type { RobotsNoindexLine } from '../../core/robots-noindex.js';
import { refusedTarget, refusalSentence, resolveWithDns, type FetchTargets } from '../fetch/index.js';
import { decodeContent } from '../content-encoding.js';

/** The answer for a URL, as robotstxt page prints it. */
export interface PageReport extends PageAnswer {
  url: string;
  /** Meta tags with a name outside <head> (not read), and whether the HTML was cut at the bytes read. */
  metasOutsideHead: PageMeta[];
  htmlTruncated: boolean;
  /** The page's HTTP status: fetched, or as a crawl recorded it (null: not known, or never fetched because robots.txt disallows it). */
  status: number | null;
  /** What the site meant and the crawler will not do (src/core/page-traps.ts). */
  traps: PageTrap[];
  /** With a fetch: the redirects followed to reach this URL, in order (each the URL asked and its status). */
  redirects: { url: string; status: number }[];
}

/** What is known of a page: its headers (pairs, repeats kept) and its HTML, if any. */
export interface PageInput {
  url: string;
  agent: string;
  /** robots.txt's verdict for the URL and agent. */
  crawlAllowed: boolean;
  /** The Noindex: line of robots.txt that matches the URL (RobotsNoindex), if any. */
  robotsNoindex?: RobotsNoindexLine | null;
  headers: readonly (readonly [string, string])[];
  html: string | Uint8Array | null;
  nowMs?: number;
  headBytes?: number;
  status?: number | null;
  redirects?: { url: string; status: number }[];
}

/** The start of a meta tag, any case. */
const META_OPEN = /<meta/gi;
const FRAMESET = /<frameset/i;
const latin1 = new TextDecoder('latin1');

/**
 * The text encoding a page's bytes are read in, as a browser reads them first: a byte order mark (UTF-8,
 * UTF-16LE, UTF-16BE), else a UTF-16 charset of the Content-Type header (`utf-16` alone is little-endian),
 * else null (ASCII-compatible: UTF-8 or a legacy encoding, whose meta tags are ASCII). Per page.
 */
export function pageEncodingOf(bytes: Uint8Array, contentType: string | null = null): 'utf-8' | 'utf-16le' | 'utf-16be' | null {
  if (bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return 'utf-8';
  if (bytes.length >= 2 && bytes[0] === 0xff && bytes[1] === 0xfe) return 'utf-16le';
  if (bytes.length >= 2 && bytes[0] === 0xfe && bytes[1] === 0xff) return 'utf-16be';
  const charset = contentType === null ? null : /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(contentType)?.[1]?.toLowerCase() ?? null;
  if (charset === 'utf-16' || charset === 'utf-16le') return 'utf-16le';
  if (charset === 'utf-16be') return 'utf-16be';
  return null;
}

/**
 * The meta tags of a page's HTML that can matter to the crawler, read with parse5 from only as much of the page
 * as holds them. Exact, because: a meta tag's name is written in the tag (or with a character reference: then
 * the tag counts as possibly relevant), so a page with no `<meta` naming robots, the crawler's token or
 * content-signal has no rules in its meta tags; a tag's end is found as the HTML tokenizer finds it or later
 * (tagEnd), never earlier, so the cut is never inside a tag that matters; every `<meta` is looked at, and one
 * that lies inside what the scan took for another tag (a quote in a comment, a stray `="`, a tag in an
 * attribute's value) makes the page parsed whole; and the HTML parser places an element by what comes before
 * it (the tree builder never looks ahead, and no later tag moves a meta between head and body but a
 * <frameset>, which takes the body away: a page with one is parsed whole), so the document cut after the last
 * such tag has them where the whole page has them (property-tested against the whole parse in
 * test/pages.test.ts). UTF-16 pages (a byte order mark, or a UTF-16 charset in contentType) are decoded first.
 * Per page: one scan, linear in the bytes read (no character is scanned by two tags), at most one parse of the
 * page up to its last relevant meta tag (not of its whole body).
 */
export function pageMetas(html: string | Uint8Array | null, agent: string, headBytes = DEFAULT_HEAD_BYTES, contentType: string | null = null): HtmlMetas {
  if (html === null) return { head: [], outsideHead: [], truncated: false };
  const truncated = (typeof html === 'string' ? Buffer.byteLength(html) : html.length) > headBytes;
  if (typeof html !== 'string') {
    const encoding = pageEncodingOf(html, contentType);
    if (encoding === 'utf-16le' || encoding === 'utf-16be') {
      // decoded here (the byte order mark dropped); the text is then read as any page given as text
      const text = new TextDecoder(encoding).decode(html.subarray(0, headBytes));
      return { ...pageMetas(text, agent, Number.MAX_SAFE_INTEGER), truncated };
    }
  }
  const sample = typeof html === 'string' ? html : latin1.decode(html.subarray(0, headBytes));
  const token = asciiLowerCase(productToken(agent) || agent);
  let end = -1;
  let scannedTo = 0;
  META_OPEN.lastIndex = 0;
  for (let match = META_OPEN.exec(sample); match !== null; match = META_OPEN.exec(sample)) {
    if (match.index < scannedTo) {
      // a `<meta` inside what the scan read as a tag: the scan cannot tell which is the real tag; parsed whole
      end = sample.length;
      break;
    }
    const close = tagEnd(sample, match.index + 5);
    const tag = asciiLowerCase(sample.slice(match.index, close));
    if (tag.includes('robots') || tag.includes('content-signal') || tag.includes(token) || tag.includes('&')) end = close;
    scannedTo = close;
    META_OPEN.lastIndex = match.index + 5;
  }
  if (end < 0) return { head: [], outsideHead: [], truncated };
  // a <frameset> after them takes the body away, with its tags: the page is then parsed whole
  if (FRAMESET.test(sample)) end = sample.length;
  const metas = htmlMetas(typeof html === 'string' ? html.slice(0, end) : html.subarray(0, end), headBytes);
  return { ...metas, truncated };
}

/**
 * Where a tag that starts before `from` ends: after its `>`, as the HTML tokenizer reads attributes (a value
 * after `=` in quotes may hold `>`), or later, never earlier: every `=` is taken to open a value, where the
 * tokenizer opens one only after an attribute's name (a stray `="` makes the scan run on to the next quote);
 * the text's end when it has none. Worst case: linear in the text from `from`.
 */
function tagEnd(text: string, from: number): number {
  let afterEquals = false;
  for (let i = from; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x3e) return i + 1; // >
    if (c === 0x3d) { afterEquals = true; continue; } // =
    if (c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0c || c === 0x0d) continue; // whitespace keeps afterEquals
    if (afterEquals && (c === 0x22 || c === 0x27)) { // a quoted value: to its closing quote
      const closing = text.indexOf(text[i], i + 1);
      if (closing < 0) return text.length;
      i = closing;
    }
    afterEquals = false;
  }
  return text.length;
}

/** A page's answer (see PageReport). Per page. */
export function answerPage(input: PageInput): PageReport {
  const nowMs = input.nowMs ?? Date.now();
  const contentType = input.headers.find(([name]) => asciiLowerCase(name.trim()) === 'content-type')?.[1] ?? null;
  const metas = pageMetas(input.html, input.agent, input.headBytes ?? DEFAULT_HEAD_BYTES, contentType);
  const rules = pageRules({ headers: input.headers, metas: metas.head, agent: input.agent, nowMs });
  const traps = pageTraps({ rules, crawlAllowed: input.crawlAllowed, metasOutsideHead: metas.outsideHead, robotsNoindex: input.robotsNoindex ?? null, nowMs });
  const status = input.status ?? null;
  return { url: input.url, ...judgePage(input.crawlAllowed, rules, status), metasOutsideHead: metas.outsideHead, htmlTruncated: metas.truncated, status, traps, redirects: input.redirects ?? [] };
}

/** The JSON fields of robotstxt page (the contract: scripts rely on them), and of each line of robotstxt pages. Per page. */
export function pageReportJson(report: PageReport): Record<string, unknown> {
  return {
    url: report.url, agent: report.agent, crawl: report.crawl, seen: report.seen, indexable: report.indexable,
    index: report.index, follow: report.follow, snippet: report.snippet, imagePreview: report.imagePreview, videoPreview: report.videoPreview,
    translate: report.translate, imageIndex: report.imageIndex, indexIfEmbedded: report.indexIfEmbedded, unavailableAfter: report.unavailableAfter,
    ai: report.ai, status: report.status, response: report.response,
    rules: report.seen ? distinctStatements(report.rules) : [],
    unknown: report.seen ? distinctStatements(report.unknown) : [],
    note: report.note,
    traps: report.traps,
    redirects: report.redirects,
  };
}

/**
 * Statements as reports list them: each once, in the order first read (a rule a line repeats is the same rule:
 * a 64 KiB header of 9,000 noindex is one noindex, not a report of 9,000). Per page.
 */
function distinctStatements(statements: readonly PageRuleStatement[]): { rule: string; value: string | null; source: string; text: string }[] {
  const seen = new Set<string>();
  const out: { rule: string; value: string | null; source: string; text: string }[] = [];
  for (const { rule, value, source, text } of statements) {
    const key = `${rule}\0${value ?? '\u0001'}\0${source}\0${text}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ rule, value, source, text });
  }
  return out;
}

/** How robotstxt page fetches: the request's User-Agent and deadline, the dispatcher, what the fetch may reach. */
export interface PageFetchOptions {
  userAgent: string;
  timeoutMs: number;
  dispatcher: Dispatcher;
  /** Decoded body bytes kept (default DEFAULT_HEAD_BYTES). */
  maxBytes?: number;
  /** Which addresses the fetch and its redirects may reach (refusedTarget; default `default`: a redirect may not lead from a public address to an internal one). */
  targets?: FetchTargets;
  /** How host names are resolved for that check (default node:dns; tests inject one). */
  resolveHost?: (hostname: string) => Promise<string[]>;
  /** How a refused redirect names the option that refused it (default: its name, `targets 'any'`; the command line gives its flags). */
  optionWords?: OptionWords;
}

/** A page's response: its status, headers (repeats kept), and its body decoded (bodyError: why it could not be). */
export interface FetchedPage {
  status: number;
  headers: [string, string][];
  body: Uint8Array;
  /** Why the body cannot be read (an encoding not known, a broken stream), or null. */
  bodyError: string | null;
}

/**
 * GETs a page (no redirect followed: a redirect is the page's answer, with its Location said) and keeps its
 * headers and the first maxBytes of its body, its Content-Encoding decoded (decodeContent: identity, gzip,
 * deflate, br; any other is said in bodyError, never read as the page). Only called for a URL robots.txt
 * allows. Per page.
 */
export async function fetchPage(url: string, options: PageFetchOptions): Promise<FetchedPage> {
  const limit = options.maxBytes ?? DEFAULT_HEAD_BYTES;
  const signal = AbortSignal.timeout(options.timeoutMs);
  let response: Dispatcher.ResponseData;
  try {
    response = await request(url, { method: 'GET', headers: { 'user-agent': options.userAgent, accept: 'text/html,*/*;q=0.8', 'accept-encoding': 'gzip, deflate, br' }, dispatcher: options.dispatcher, signal });
  } catch (error) {
    throw new RobotsError('PAGE_UNREACHABLE', `cannot fetch ${url}: ${(error as Error).message}`);
  }
  const headers: [string, string][] = [];
  for (const [name, value] of Object.entries(response.headers)) {
    if (value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [value]) headers.push([name, one]);
  }
  response.body.on('error', () => undefined); // a body left unread is destroyed, which undici reports as an error
  const encoding = headers.filter(([name]) => name.toLowerCase() === 'content-encoding').map(([, value]) => value).join(', ');
  let decoded;
  try {
    decoded = await decodeContent(response.body, encoding, limit, { release: () => response.body.destroy(), signal });
  } catch (error) {
    throw new RobotsError('PAGE_UNREACHABLE', `cannot read ${url}: ${(error as Error).message}`);
  } finally {
    response.body.destroy();
  }
  return { status: response.statusCode, headers, body: decoded.bytes, bodyError: decoded.error };
}

/** Redirects a fetch follows at most (Google's crawlers follow up to 10 hops). */
export const MAX_REDIRECTS = 10;

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

/** A page fetched as a crawler fetches it: each hop's robots.txt first, redirects followed. */
export interface FollowedPage {
  /** The URL answered: the last one asked (a redirect's target, or where robots.txt stopped the chain). */
  url: string;
  /** robots.txt's verdict for that URL, and the robots.txt it came from. */
  allowed: boolean;
  robots: OriginRobots;
  /** The redirects followed before it. */
  redirects: { url: string; status: number }[];
  /** The response of that URL (null when robots.txt disallows it: never requested). */
  page: FetchedPage | null;
  /** Why the chain stopped early, for people (a redirect with no usable Location, too many hops, a target refused), or null. */
  stopped: string | null;
}

/**
 * Fetches a page as a crawler does: robots.txt of each URL's origin first (robotsFor), a URL it disallows
 * never requested; 301, 302, 303, 307 and 308 followed to their Location, up to MAX_REDIRECTS hops, each hop
 * checked against the targets policy as robots.txt fetches are (refusedTarget: by default no redirect from a
 * public address to a loopback, private or link-local one; a refused hop is never requested, nor its
 * robots.txt, and the redirect is the answer). Per page.
 */
export async function fetchPageFollowing(url: string, options: PageFetchOptions & { agent: string; robotsFor: (origin: UrlOrigin) => Promise<OriginRobots> }): Promise<FollowedPage> {
  const targets = { targets: options.targets ?? 'default', resolveHost: options.resolveHost ?? resolveWithDns };
  const refusedFirst = await refusedTarget(new URL(url), null, targets, false);
  if (refusedFirst !== null) throw RobotsError.about('PAGE_UNREACHABLE', { name: 'targets', value: targets.targets }, (_said, say) => `cannot fetch ${url}: ${refusalSentence(refusedFirst, say)}`);
  const redirects: { url: string; status: number }[] = [];
  let current = url;
  for (;;) {
    const origin = originOf(current) as UrlOrigin; // the caller's URL and every Location followed are http(s) URLs
    const robots = await options.robotsFor(origin);
    const allowed = robots.robots.matcher(options.agent).isAllowed(current);
    if (!allowed) return { url: current, allowed, robots, redirects, page: null, stopped: null };
    const page = await fetchPage(current, options);
    const location = page.headers.find(([name]) => name.toLowerCase() === 'location')?.[1];
    if (!REDIRECT_STATUSES.has(page.status) || location === undefined) return { url: current, allowed, robots, redirects, page, stopped: REDIRECT_STATUSES.has(page.status) ? `${current} answered ${page.status} without a Location` : null };
    let next: string;
    try {
      next = new URL(location, current).href;
    } catch {
      next = '';
    }
    if (originOf(next) === null) return { url: current, allowed, robots, redirects, page, stopped: `${current} answered ${page.status} to ${location}, which is no http(s) URL: its own headers are read` };
    if (redirects.length >= MAX_REDIRECTS) return { url: current, allowed, robots, redirects, page, stopped: `more than ${MAX_REDIRECTS} redirects: the last one's own headers are read` };
    const refused = await refusedTarget(new URL(next), new URL(current), targets, false);
    if (refused !== null) return { url: current, allowed, robots, redirects, page, stopped: `${current} answered ${page.status} to ${next}: not followed, ${refusalSentence(refused, options.optionWords)}` };
    redirects.push({ url: current, status: page.status });
    current = next;
  }
}
