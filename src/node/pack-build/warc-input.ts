// Common Crawl's robots.txt fetches as a pack's input: the `robotstxt/` subset of a crawl (WARC files of
// response records, plain or gzipped), read by src/node/warc/. Per Common Crawl's description of its robots.txt
// WARCs, a robots.txt request that redirects stores the redirect's response and, in the same subset, the
// target's response (even an HTML page), and one origin is fetched many times (a 2-hour cache, every segment),
// http and https apart. What the crawler saw is read by the fetch rules (src/core/fetch-rules.ts, the seeds'):
// 2xx the body (cut at the reading limit), a redirect followed to its target's record in the input (up to 5
// hops; the target's response nearest after it), 4xx allow all, 5xx (and 429 in google mode's reading)
// disallow all. Every fetch of an origin's /robots.txt is a capture with its time (audit --pack judges each
// request by the capture in force then). A record that is no origin's robots.txt is a redirect's target or
// said; a redirect whose target is not in the input is said and gives no capture. Memory: a few numbers per
// record (bodies go to the pack as they are read).
import type { RobotsReading } from '../../core/robots.js';
import { createReadStream } from 'node:fs';
import { outcomeOfStatus } from '../../core/fetch-rules.js';
import { originOf } from '../../core/url-model.js';
import { RobotsError } from '../../core/errors.js';
import { fileError } from '../robots-file.js';
import { cutBody, type InputProblem, type PackOrigin } from './inputs.js';
import type { CaptureInput, PackWriter } from './writer.js';

/** One response as the input holds it. */
interface Fetched {
  time: number;
  status: number;
  location: string | null;
  /** The body's index in the pack (2xx), else null. */
  body: number | null;
}

/** Redirect hops followed at most (Google: at least five, then a 404). */
const MAX_HOPS = 5;

/** The counts a WARC input reports besides its origins. */
export interface WarcInputCounts {
  records: number;
  responses: number;
  /** Responses of URLs other than an origin's /robots.txt that a redirect led to (not counted as an origin's file). */
  redirectTargets: number;
  /** Responses of URLs other than /robots.txt that no redirect led to (said, not packed as origins). */
  otherResponses: number;
}

/**
 * Reads WARC files of robots.txt fetches into the writer's bodies and gives each origin with its captures.
 * Problems (records unread, damaged stretches, redirects leading out of the input) go to `problems`.
 */
export async function warcOrigins(paths: readonly string[], writer: PackWriter, options: { reading: RobotsReading; problems: InputProblem[] }): Promise<{ origins: PackOrigin[]; counts: WarcInputCounts }> {
  // the WARC reader (and its package) loaded only for WARC input: a folder's build starts without it
  const { readWarc } = await import('../warc/index.js');
  const byUrl = new Map<string, Fetched[]>();
  const counts: WarcInputCounts = { records: 0, responses: 0, redirectTargets: 0, otherResponses: 0 };
  for (const path of paths) {
    const stream = createReadStream(path, { highWaterMark: 1 << 20 });
    await new Promise<void>((resolve, reject) => stream.once('open', () => resolve()).once('error', reject)).catch((error: unknown) => {
      throw fileError(path, 'WARC file', error);
    });
    try {
      for await (const item of readWarc(stream as AsyncIterable<Uint8Array>, { payloadBytes: Math.max(1, options.reading.maxBytes === 0 ? 16 << 20 : options.reading.maxBytes + 1) })) {
        if (item.kind === 'damaged') {
          options.problems.push({ where: `${path} bytes ${item.from}-${item.to ?? 'end'}`, why: `damaged (${item.reason}): any record there is not read` });
          continue;
        }
        counts.records++;
        if (item.kind === 'unread') {
          options.problems.push({ where: `${path} record ${item.number}`, why: `${item.targetUri ?? item.type ?? 'a record'} cannot be read (${item.reason})` });
          continue;
        }
        const record = item.record;
        if (record.type !== 'response' || record.http === null || record.targetUri === null) continue;
        const url = normalUrl(record.targetUri);
        if (url === null) continue;
        counts.responses++;
        const status = record.http.status ?? 0;
        const date = record.warcHeaders.find(([name]) => name.toLowerCase() === 'warc-date')?.[1];
        const time = date === undefined ? Number.NaN : Date.parse(date);
        const location = record.http.headers.find(([name]) => name.toLowerCase() === 'location')?.[1] ?? null;
        const body = status >= 200 && status <= 299 ? writer.addBody(cutBody(record.payload, options.reading.maxBytes)) : null;
        const fetches = byUrl.get(url) ?? byUrl.set(url, []).get(url) as Fetched[];
        fetches.push({ time, status, location, body });
      }
    } catch (error) {
      if (error instanceof RobotsError) throw error;
      throw new RobotsError('FILE_UNREADABLE', `cannot read WARC file '${path}': ${(error as Error).message}`);
    } finally {
      stream.destroy();
    }
  }
  for (const fetches of byUrl.values()) fetches.sort((a, b) => a.time - b.time);
  const targets = new Set<string>();
  const origins: PackOrigin[] = [];
  for (const [url, fetches] of byUrl) {
    const origin = originOf(url);
    if (origin === null || new URL(url).pathname !== '/robots.txt' || new URL(url).search !== '') continue;
    const captures: CaptureInput[] = [];
    for (const fetch of fetches) {
      const capture = resolve(url, fetch, 0, byUrl, targets, options);
      if (capture !== null) captures.push(capture);
    }
    if (captures.length > 0) origins.push({ key: origin.fileKey, captures });
  }
  for (const url of byUrl.keys()) {
    if (isRobotsUrl(url)) continue;
    if (targets.has(url)) counts.redirectTargets++;
    else {
      counts.otherResponses++;
      options.problems.push({ where: url, why: 'a response that is no origin\'s /robots.txt and no redirect of one led to: not packed' });
    }
  }
  return { origins, counts };
}

const isRobotsUrl = (url: string): boolean => {
  const parsed = new URL(url);
  return parsed.pathname === '/robots.txt' && parsed.search === '';
};

/** A URL as the index keys it (the WHATWG parser's serialisation, no fragment), or null when it is no http(s) URL. */
function normalUrl(text: string): string | null {
  try {
    const url = new URL(text);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
    url.hash = '';
    return url.href;
  } catch {
    return null;
  }
}

/** What one fetch of a robots.txt URL gave, a redirect followed through the input; null when its target is not there. */
function resolve(url: string, fetch: Fetched, hops: number, byUrl: Map<string, Fetched[]>, targets: Set<string>, options: { reading: RobotsReading; problems: InputProblem[] }): CaptureInput | null {
  const time = Number.isNaN(fetch.time) ? null : fetch.time;
  const meaning = outcomeOfStatus(fetch.status, options.reading.mode, false);
  if (meaning === 'ok') return { time, effect: fetch.body === null ? 'allow-all' : 'rules', body: fetch.body, status: fetch.status, hops };
  if (meaning === 'unreachable') return { time, effect: 'disallow-all', body: null, status: fetch.status, hops };
  if (meaning !== 'redirect' || fetch.location === null) return { time, effect: 'allow-all', body: null, status: fetch.status, hops };
  const next = normalUrl(new URL(fetch.location, url).href);
  if (next === null) return { time, effect: 'allow-all', body: null, status: fetch.status, hops };
  if (hops === MAX_HOPS) return { time, effect: 'allow-all', body: null, status: fetch.status, hops: hops + 1 }; // a 404, as Google says
  const candidates = byUrl.get(next);
  if (candidates === undefined) {
    options.problems.push({ where: url, why: `redirected (${fetch.status}) to ${next}, which the input does not hold: this fetch gives no capture` });
    return null;
  }
  targets.add(next);
  // the target's response nearest after the redirect (else the last before it)
  const after = candidates.find((candidate) => !(candidate.time < fetch.time)) ?? candidates[candidates.length - 1];
  const followed = resolve(next, after, hops + 1, byUrl, targets, options);
  return followed === null ? null : { ...followed, time };
}
