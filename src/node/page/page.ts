// One page's answer for one crawler: robots.txt's crawl verdict with the page's own rules (headers and head
// meta tags), and, when asked, the page fetched (robots.txt first: a URL robots.txt disallows is never
// requested). Used by robotstxt page, once per page.
import { request, type Dispatcher } from 'undici';
import { judgePage, pageRules, type PageAnswer, type PageMeta } from '../../core/page-rules.js';
import type { RobotsTxt } from '../../core/robots.js';
import { RobotsError } from '../../core/errors.js';
import { htmlMetas, DEFAULT_HEAD_BYTES } from './html-head.js';

/** The answer for a URL, as robotstxt page prints it. */
export interface PageReport extends PageAnswer {
  url: string;
  /** Meta tags with a name outside <head> (not read), and whether the HTML was cut at the bytes read. */
  metasOutsideHead: PageMeta[];
  htmlTruncated: boolean;
  /** With a fetch: the page's status (null: not fetched, because robots.txt disallows it or no fetch was asked). */
  status: number | null;
}

/** What is known of a page: its headers (pairs, repeats kept) and its HTML, if any. */
export interface PageInput {
  url: string;
  agent: string;
  /** robots.txt's verdict for the URL and agent. */
  crawlAllowed: boolean;
  headers: readonly (readonly [string, string])[];
  html: string | Uint8Array | null;
  nowMs?: number;
  headBytes?: number;
  status?: number | null;
}

/** A page's answer (see PageReport). Per page. */
export function answerPage(input: PageInput): PageReport {
  const metas = input.html === null ? { head: [], outsideHead: [], truncated: false } : htmlMetas(input.html, input.headBytes ?? DEFAULT_HEAD_BYTES);
  const rules = pageRules({ headers: input.headers, metas: metas.head, agent: input.agent, nowMs: input.nowMs });
  return { url: input.url, ...judgePage(input.crawlAllowed, rules), metasOutsideHead: metas.outsideHead, htmlTruncated: metas.truncated, status: input.status ?? null };
}

/** The crawl verdict of a URL for an agent by a robots.txt (null: none known, every URL allowed). */
export function crawlVerdict(robots: RobotsTxt | null, url: string, agent: string): boolean {
  return robots === null ? true : robots.matcher(agent).isAllowed(url);
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
