// One page's answer for one crawler: robots.txt's crawl verdict with the page's own rules (headers and head
// meta tags), and, when asked, the page fetched (robots.txt first: a URL robots.txt disallows is never
// requested). Used by robotstxt page, once per page.
import { request, type Dispatcher } from 'undici';
import { judgePage, pageRules, type PageAnswer, type PageMeta } from '../../core/page-rules.js';
import { asciiLowerCase, productToken } from '../../core/robots.js';
import { RobotsError } from '../../core/errors.js';
import { originOf, type UrlOrigin } from '../../core/url-model.js';
import type { OriginRobots } from './page-robots.js';
import { htmlMetas, DEFAULT_HEAD_BYTES, type HtmlMetas } from './html-head.js';
import { pageTraps, type PageTrap } from '../../core/page-traps.js';
import type { RobotsNoindexLine } from '../../core/robots-noindex.js';

/** The answer for a URL, as robotstxt page prints it. */
export interface PageReport extends PageAnswer {
  url: string;
  /** Meta tags with a name outside <head> (not read), and whether the HTML was cut at the bytes read. */
  metasOutsideHead: PageMeta[];
  htmlTruncated: boolean;
  /** With a fetch: the page's status (null: not fetched, because robots.txt disallows it or no fetch was asked). */
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
 * The meta tags of a page's HTML that can matter to the crawler, read with parse5 from only as much of the page
 * as holds them. Exact, because: a meta tag's name is written in the tag (or with a character reference: then
 * the tag counts as possibly relevant), so a page with no `<meta` naming robots, the crawler's token or
 * content-signal has no rules in its meta tags; and the HTML parser places an element by what comes before it
 * (the tree builder never looks ahead, and no later tag moves a meta between head and body but a <frameset>,
 * which takes the body away: a page with one is parsed whole), so the document cut after the last such tag
 * has them where the whole page has them (property-tested against the whole parse in test/pages.test.ts). Per page: one scan, at most one parse
 * of the page up to its last relevant meta tag (not of its whole body).
 */
export function pageMetas(html: string | Uint8Array | null, agent: string, headBytes = DEFAULT_HEAD_BYTES): HtmlMetas {
  if (html === null) return { head: [], outsideHead: [], truncated: false };
  const truncated = (typeof html === 'string' ? Buffer.byteLength(html) : html.length) > headBytes;
  const sample = typeof html === 'string' ? html : latin1.decode(html.subarray(0, headBytes));
  const token = asciiLowerCase(productToken(agent) || agent);
  let end = -1;
  // each `<meta` is looked for after the tag before it (a `<meta` inside a tag is none): linear in the sample
  META_OPEN.lastIndex = 0;
  for (let match = META_OPEN.exec(sample); match !== null; match = META_OPEN.exec(sample)) {
    const close = tagEnd(sample, match.index + 5);
    const tag = asciiLowerCase(sample.slice(match.index, close));
    if (tag.includes('robots') || tag.includes('content-signal') || tag.includes(token) || tag.includes('&')) end = close;
    META_OPEN.lastIndex = close;
  }
  if (end < 0) return { head: [], outsideHead: [], truncated };
  // a <frameset> after them takes the body away, with its tags: the page is then parsed whole
  if (FRAMESET.test(sample)) end = sample.length;
  const metas = htmlMetas(typeof html === 'string' ? html.slice(0, end) : html.subarray(0, end), headBytes);
  return { ...metas, truncated };
}

/**
 * Where a tag that starts before `from` ends: after its `>`, as the HTML tokenizer reads attributes (a value
 * after `=` in quotes may hold `>`); the text's end when it has none.
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
  const metas = pageMetas(input.html, input.agent, input.headBytes ?? DEFAULT_HEAD_BYTES);
  const rules = pageRules({ headers: input.headers, metas: metas.head, agent: input.agent, nowMs });
  const traps = pageTraps({ rules, crawlAllowed: input.crawlAllowed, metasOutsideHead: metas.outsideHead, robotsNoindex: input.robotsNoindex ?? null, nowMs });
  return { url: input.url, ...judgePage(input.crawlAllowed, rules), metasOutsideHead: metas.outsideHead, htmlTruncated: metas.truncated, status: input.status ?? null, traps, redirects: input.redirects ?? [] };
}

/** The JSON fields of robotstxt page (the contract: scripts rely on them), and of each line of robotstxt pages. Per page. */
export function pageReportJson(report: PageReport): Record<string, unknown> {
  return {
    url: report.url, agent: report.agent, crawl: report.crawl, seen: report.seen, indexable: report.indexable,
    index: report.index, follow: report.follow, snippet: report.snippet, imagePreview: report.imagePreview, videoPreview: report.videoPreview,
    translate: report.translate, imageIndex: report.imageIndex, indexIfEmbedded: report.indexIfEmbedded, unavailableAfter: report.unavailableAfter,
    ai: report.ai, status: report.status,
    rules: report.seen ? report.rules.map(({ rule, value, source, text }) => ({ rule, value, source, text })) : [],
    unknown: report.seen ? report.unknown.map(({ rule, value, source, text }) => ({ rule, value, source, text })) : [],
    note: report.note,
    traps: report.traps,
    redirects: report.redirects,
  };
}

/**
 * GETs a page (no redirect followed: a redirect is the page's answer, with its Location said) and keeps its
 * headers and the first maxBytes of its body. Only called for a URL robots.txt allows. Per page.
 */
export async function fetchPage(url: string, options: { userAgent: string; timeoutMs: number; dispatcher: Dispatcher; maxBytes?: number }): Promise<{ status: number; headers: [string, string][]; body: Uint8Array }> {
  const limit = options.maxBytes ?? DEFAULT_HEAD_BYTES;
  const signal = AbortSignal.timeout(options.timeoutMs);
  let response: Dispatcher.ResponseData;
  try {
    response = await request(url, { method: 'GET', headers: { 'user-agent': options.userAgent, accept: 'text/html,*/*;q=0.8' }, dispatcher: options.dispatcher, signal });
  } catch (error) {
    throw new RobotsError('PAGE_UNREACHABLE', `cannot fetch ${url}: ${(error as Error).message}`);
  }
  const headers: [string, string][] = [];
  for (const [name, value] of Object.entries(response.headers)) {
    if (value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [value]) headers.push([name, one]);
  }
  const chunks: Uint8Array[] = [];
  let length = 0;
  try {
    for await (const chunk of response.body) {
      const bytes = chunk as Uint8Array;
      chunks.push(bytes.subarray(0, Math.max(0, limit - length)));
      length += bytes.length;
      if (length >= limit) break;
    }
  } catch (error) {
    throw new RobotsError('PAGE_UNREACHABLE', `cannot read ${url}: ${(error as Error).message}`);
  } finally {
    response.body.destroy();
  }
  const body = new Uint8Array(Math.min(length, limit));
  let at = 0;
  for (const chunk of chunks) {
    body.set(chunk, at);
    at += chunk.length;
  }
  return { status: response.statusCode, headers, body };
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
  page: { status: number; headers: [string, string][]; body: Uint8Array } | null;
  /** Why the chain stopped early, for people (a redirect with no usable Location, too many hops), or null. */
  stopped: string | null;
}

/**
 * Fetches a page as a crawler does: robots.txt of each URL's origin first (robotsFor), a URL it disallows
 * never requested; 301, 302, 303, 307 and 308 followed to their Location, up to MAX_REDIRECTS hops. Per page.
 */
export async function fetchPageFollowing(url: string, options: { agent: string; userAgent: string; timeoutMs: number; dispatcher: Dispatcher; robotsFor: (origin: UrlOrigin) => Promise<OriginRobots>; maxBytes?: number }): Promise<FollowedPage> {
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
    redirects.push({ url: current, status: page.status });
    current = next;
  }
}
