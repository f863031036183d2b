// Fetching robots.txt over HTTP against real servers on 127.0.0.1: every row of the documented status-code and
// caching text has a test named after it (Google: "Handling HTTP result codes", "Caching"; RFC 9309
// 2.3.1.2-2.3.1.4 and 2.4). Verdicts are asserted URL by URL.
import { afterEach, describe, expect, it } from 'vitest';
import { gzipSync, deflateSync, deflateRawSync, brotliCompressSync } from 'node:zlib';
import type { ServerResponse } from 'node:http';
import { RobotsCache, fetchRobots, RobotsError, parseRobots, type RobotsCacheOptions } from '../src/node/index.js';
import { LocalOrigins, refusedPort, serve, type OriginHandler } from './http-origins.js';

const RULES = 'User-agent: *\nDisallow: /private\n';
const PATHS = ['/public', '/private/x'];
const BY_RULES = ['allowed', 'disallowed'];
const ALL_ALLOWED = ['allowed', 'allowed'];
const ALL_DISALLOWED = ['disallowed', 'disallowed'];

let running: LocalOrigins[] = [];
let caches: RobotsCache[] = [];
afterEach(async () => {
  await Promise.all(caches.map((cache) => cache.close()));
  await Promise.all(running.map((origins) => origins.close()));
  running = [];
  caches = [];
});

async function start(handlers: OriginHandler[]): Promise<LocalOrigins> {
  const origins = await LocalOrigins.start(handlers);
  running.push(origins);
  return origins;
}

function newCache(options: RobotsCacheOptions = {}): RobotsCache {
  const cache = new RobotsCache({ timeoutMs: 2000, ...options });
  caches.push(cache);
  return cache;
}

/** The verdicts of origin + each path for Googlebot, as words. */
async function verdicts(cache: RobotsCache, origin: string, paths = PATHS): Promise<string[]> {
  const bytes = await cache.checkUrls(paths.map((path) => origin + path), 'Googlebot');
  return [...bytes].map((verdict) => (verdict === 1 ? 'allowed' : 'disallowed'));
}

describe('HTTP result codes (Google "Handling HTTP result codes"; RFC 9309 2.3.1)', () => {
  it('2xx_Successful_ConditionalAllow: the rules of the body apply', async () => {
    const origins = await start([serve.body(RULES), (_q, r) => { r.writeHead(203); r.end(RULES); }]);
    const cache = newCache();
    expect(await verdicts(cache, origins.origin(0))).toEqual(BY_RULES);
    expect(await verdicts(cache, origins.origin(1))).toEqual(BY_RULES);
    const entry = await cache.entry(origins.origin(0));
    expect([entry.record.outcome, entry.record.status, entry.effect, entry.source]).toEqual(['ok', 200, 'rules', 'memory']);
  });

  // origin i (i = 1..7) redirects to a chain of i hops that alternates between two other origins (X, Y)
  it('3xx_RedirectsFollowedForFiveHops_ThenTreatedAs404: chains of 1 to 7 hops, across hosts', async () => {
    const hop = (self: number): OriginHandler => (request, response, origins) => {
      const [, , k, n] = (request.url ?? '').split('/').map(Number);
      if (k === n) return serve.body('User-agent: *\nDisallow: /private\nDisallow: /public/final\n')(request, response, origins);
      response.writeHead(k % 2 === 0 ? 302 : 301, { location: `${origins.origin(self === 0 ? 1 : 0)}/hop/${k + 1}/${n}` });
      response.end();
    };
    const starts: OriginHandler[] = [1, 2, 3, 4, 5, 6, 7].map((n) => serve.redirect(308, (origins) => `${origins.origin(0)}/hop/1/${n}`));
    const origins = await start([hop(0), hop(1), ...starts]);
    const cache = newCache();
    for (let n = 1; n <= 7; n++) {
      const origin = origins.origin(n + 1);
      const entry = await cache.entry(origin);
      // the target's rules answer the original origin's URLs
      expect(await verdicts(cache, origin, ['/public', '/private/x', '/public/final']), `${n} hops`).toEqual(n <= 5 ? ['allowed', 'disallowed', 'disallowed'] : ['allowed', 'allowed', 'allowed']);
      expect([entry.record.outcome, entry.record.hops, entry.origin], `${n} hops`).toEqual(n <= 5 ? ['ok', n, origin] : ['not-found', 5, origin]);
      if (n > 5) expect(entry.record.error).toBe('more than 5 redirects');
    }
  });

  it('3xx_RedirectLoop_TreatedAs404: allow all', async () => {
    const origins = await start([serve.redirect(301, (o) => `${o.origin(1)}/robots.txt`), serve.redirect(302, (o) => `${o.origin(0)}/robots.txt`)]);
    const cache = newCache();
    expect(await verdicts(cache, origins.origin(0))).toEqual(ALL_ALLOWED);
    const entry = await cache.entry(origins.origin(0));
    expect([entry.record.outcome, entry.record.error, entry.record.hops]).toEqual(['not-found', 'redirect loop', 1]);
  });

  it('3xx_RedirectEndingIn404_AllowAll and _EndingIn503_DisallowAll; a 3xx without Location is a 404', async () => {
    const origins = await start([
      serve.redirect(301, (o) => `${o.origin(2)}/missing`), serve.redirect(301, (o) => `${o.origin(2)}/down`),
      (request, response) => { response.writeHead(request.url === '/down' ? 503 : 404); response.end(); },
      serve.status(302),
    ]);
    const cache = newCache();
    expect(await verdicts(cache, origins.origin(0))).toEqual(ALL_ALLOWED);
    expect(await verdicts(cache, origins.origin(1))).toEqual(ALL_DISALLOWED);
    expect(await verdicts(cache, origins.origin(3))).toEqual(ALL_ALLOWED);
    expect((await cache.entry(origins.origin(3))).record.error).toBe('302 without a Location to follow');
  });

  it('4xx_ClientErrors_FullAllow, including 401 Unauthorized and 403 Forbidden (the summary seed says 401/403 disallow: the Google specification says allow)', async () => {
    const statuses = [400, 401, 403, 404, 410, 451];
    const origins = await start(statuses.map((status) => serve.status(status, RULES)));
    const cache = newCache();
    for (let i = 0; i < statuses.length; i++) {
      expect(await verdicts(cache, origins.origin(i)), String(statuses[i])).toEqual(ALL_ALLOWED);
      expect((await cache.entry(origins.origin(i))).record.outcome).toBe('not-found');
    }
  });

  it('GoogleOnly_429TooManyRequests_IsAServerError: disallow all (RFC 9309 mode: a 4xx, allow all)', async () => {
    const origins = await start([serve.status(429)]);
    expect(await verdicts(newCache(), origins.origin(0))).toEqual(ALL_DISALLOWED);
    expect(await verdicts(newCache({ mode: 'rfc' }), origins.origin(0))).toEqual(ALL_ALLOWED);
  });

  it('5xx_ServerErrors_FullDisallow', async () => {
    const statuses = [500, 502, 503, 504, 599];
    const origins = await start(statuses.map((status) => serve.status(status, RULES)));
    const cache = newCache();
    for (let i = 0; i < statuses.length; i++) {
      expect(await verdicts(cache, origins.origin(i)), String(statuses[i])).toEqual(ALL_DISALLOWED);
      const record = (await cache.entry(origins.origin(i))).record;
      expect([record.outcome, record.status, record.error]).toEqual(['unreachable', statuses[i], `HTTP ${statuses[i]}`]);
    }
  });

  it('UnsuccessfulRequests_AreServerErrors: refused, never answered, trickling body, reset, short body; each ends within its timeout', async () => {
    const cut = (response: ServerResponse): void => {
      response.writeHead(200, { 'content-length': '1000' });
      response.write('User-agent: *\n');
      setTimeout(() => response.socket?.destroy(), 20);
    };
    const origins = await start([serve.silent(), serve.trickle(50), (_q, response) => cut(response)]);
    const refused = `http://127.0.0.1:${await refusedPort()}`;
    const cache = newCache({ timeoutMs: 600 });
    // a socket cut mid-body is reported by undici as a short body or as a closed connection, by timing
    const cases: [string, string[]][] = [
      [refused, ['connection refused']],
      [origins.origin(0), ['timeout after 600 ms']],
      [origins.origin(1), ['timeout after 600 ms']],
      [origins.origin(2), ['body shorter than its Content-Length', 'connection closed early']],
    ];
    for (const [origin, errors] of cases) {
      expect(await verdicts(cache, origin), origin).toEqual(ALL_DISALLOWED);
      const record = (await cache.entry(origin)).record;
      expect([record.outcome, record.status]).toEqual(['unreachable', 0]);
      expect(errors).toContain(record.error);
    }
  });

  it('MaxBytes_500KiB: content after the limit is ignored (the limit counts decoded bytes)', async () => {
    const head = 'User-agent: *\nDisallow: /private\n';
    const body = head + '#'.repeat(512_000 - head.length) + '\nDisallow: /public\n';
    const origins = await start([serve.body(body), serve.body(gzipSync(body), { 'content-encoding': 'gzip' })]);
    for (let i = 0; i < 2; i++) {
      const result = await fetchRobots(origins.origin(i));
      expect([result.outcome, result.body.length, result.truncated]).toEqual(['ok', 512_000, true]);
      expect(Buffer.from(result.body).equals(Buffer.from(body).subarray(0, 512_000))).toBe(true);
      expect(await verdicts(newCache(), origins.origin(i))).toEqual(BY_RULES);
    }
  });

  it('ContentEncoding: gzip, deflate (zlib and raw) and br bodies are decoded', async () => {
    const origins = await start([
      serve.body(gzipSync(RULES), { 'content-encoding': 'gzip' }),
      serve.body(deflateSync(RULES), { 'content-encoding': 'deflate' }),
      serve.body(deflateRawSync(RULES), { 'content-encoding': 'deflate' }),
      serve.body(brotliCompressSync(RULES), { 'content-encoding': 'br' }),
    ]);
    const cache = newCache();
    for (let i = 0; i < 4; i++) {
      expect(await verdicts(cache, origins.origin(i)), String(i)).toEqual(BY_RULES);
      expect(Buffer.from((await fetchRobots(origins.origin(i))).body).toString()).toBe(RULES);
    }
  });

  it('ContentEncoding: a broken gzip body is an invalid response, a server error (disallow all); an unknown encoding too', async () => {
    const broken = Buffer.from(gzipSync(RULES));
    broken[12] ^= 0xff;
    const origins = await start([serve.body(broken, { 'content-encoding': 'gzip' }), serve.body(RULES, { 'content-encoding': 'zstd' })]);
    const cache = newCache();
    expect(await verdicts(cache, origins.origin(0))).toEqual(ALL_DISALLOWED);
    expect((await cache.entry(origins.origin(0))).record.error).toMatch(/^broken gzip body \(/);
    expect(await verdicts(cache, origins.origin(1))).toEqual(ALL_DISALLOWED);
    expect((await cache.entry(origins.origin(1))).record.error).toBe("unsupported Content-Encoding 'zstd'");
  });

  it('ContentEncoding: a decompression bomb (100 MB of rules in 100 KB of gzip) is read up to the limit only', async () => {
    const bomb = gzipSync(Buffer.alloc(100 << 20, 'Disallow: /x\n'), { level: 9 });
    expect(bomb.length).toBeLessThan(1 << 20);
    const origins = await start([serve.body(bomb, { 'content-encoding': 'gzip' })]);
    const before = process.memoryUsage().rss;
    const result = await fetchRobots(origins.origin(0), { maxBytes: 100_000 });
    expect([result.outcome, result.body.length, result.truncated]).toEqual(['ok', 100_000, true]);
    expect(process.memoryUsage().rss - before).toBeLessThan(64 << 20);
  });

  it('FileFormat_HtmlServedAsRobotsTxt: only valid lines count (an error page: every URL allowed)', async () => {
    const html = '<!DOCTYPE html>\n<html><head><title>Oops</title></head>\n<body>Disallow: /private</body></html>\n';
    const origins = await start([serve.body(html, { 'content-type': 'text/html' })]);
    const result = await fetchRobots(origins.origin(0));
    expect(result.outcome).toBe('ok');
    // the same verdicts as the body parsed from a file
    const robots = parseRobots(html);
    expect(await verdicts(newCache(), origins.origin(0))).toEqual(PATHS.map((p) => (robots.isAllowed(origins.origin(0) + p, 'Googlebot') ? 'allowed' : 'disallowed')));
    expect(await verdicts(newCache(), origins.origin(0))).toEqual(ALL_ALLOWED);
  });

  it('the body is kept as bytes, never decoded as text (Latin-1, a BOM and invalid UTF-8 survive)', async () => {
    const bytes = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('User-agent: *\nDisallow: /caf'), Buffer.from([0xe9, 0xff, 0x0a])]);
    const origins = await start([serve.body(bytes)]);
    const result = await fetchRobots(origins.origin(0));
    expect(Buffer.from(result.body).equals(bytes)).toBe(true);
  });

  it('the rules apply to their own origin only: a mixed batch is answered origin by origin (ports and schemes are origins)', async () => {
    const origins = await start([serve.body('User-agent: *\nDisallow: /a\n'), serve.body('User-agent: *\nDisallow: /b\n'), serve.status(503)]);
    const cache = newCache();
    const urls = [`${origins.origin(0)}/a`, `${origins.origin(1)}/a`, `${origins.origin(0)}/b`, `${origins.origin(1)}/b`, `${origins.origin(2)}/a`, 'not a url', '/relative'];
    expect([...await cache.checkUrls(urls, 'Googlebot')]).toEqual([2, 1, 1, 2, 2, 1, 1]);
    expect([...await newCache({ missing: 'disallow' }).checkUrls(['not a url'], 'Googlebot')]).toEqual([2]);
  });
});

describe('caching (Google "Caching"; RFC 9309 2.4 and 2.3.1.4)', () => {
  const HOUR = 3600_000;
  const DAY = 24 * HOUR;

  function clock(start = Date.parse('2026-01-01T00:00:00Z')): { now: () => number; advance: (ms: number) => void } {
    let time = start;
    return { now: () => time, advance: (ms) => { time += ms; } };
  }

  it('Caching_24Hours: a fetched robots.txt is used for 24 hours, then fetched again', async () => {
    const origins = await start([serve.body(RULES)]);
    const time = clock();
    const cache = newCache({ now: time.now });
    await verdicts(cache, origins.origin(0));
    time.advance(24 * HOUR - 1);
    await verdicts(cache, origins.origin(0));
    expect(origins.requestsTo(0)).toBe(1);
    time.advance(1);
    expect(await verdicts(cache, origins.origin(0))).toEqual(BY_RULES);
    expect(origins.requestsTo(0)).toBe(2);
  });

  it('Caching_CacheControlMaxAge: a shorter max-age shortens it (no-cache: every time)', async () => {
    const origins = await start([serve.body(RULES, { 'cache-control': 'public, max-age=60' }), serve.body(RULES, { 'cache-control': 'no-cache' })]);
    const time = clock();
    const cache = newCache({ now: time.now });
    await verdicts(cache, origins.origin(0));
    time.advance(59_000);
    await verdicts(cache, origins.origin(0));
    expect(origins.requestsTo(0)).toBe(1);
    time.advance(1000);
    await verdicts(cache, origins.origin(0));
    expect(origins.requestsTo(0)).toBe(2);
    await verdicts(cache, origins.origin(1));
    await verdicts(cache, origins.origin(1));
    expect(origins.requestsTo(1)).toBe(2);
  });

  it('Caching_ConditionalRequest: ETag and Last-Modified are sent again; 304 keeps the body', async () => {
    const origins = await start([(request, response) => {
      if (request.headers['if-none-match'] === '"v1"') { response.writeHead(304, { etag: '"v1"' }); response.end(); return; }
      serve.body(RULES, { etag: '"v1"', 'last-modified': 'Wed, 01 Jan 2025 00:00:00 GMT' })(request, response, origins);
    }]);
    const time = clock();
    const cache = newCache({ now: time.now });
    await verdicts(cache, origins.origin(0));
    time.advance(25 * HOUR);
    expect(await verdicts(cache, origins.origin(0))).toEqual(BY_RULES);
    const second = origins.requests[1].headers;
    expect([second['if-none-match'], second['if-modified-since']]).toEqual(['"v1"', 'Wed, 01 Jan 2025 00:00:00 GMT']);
    const entry = await cache.entry(origins.origin(0));
    expect([entry.record.outcome, entry.record.status, entry.effect]).toEqual(['not-modified', 304, 'rules']);
  });

  it('Caching_LongerWhenRefreshFails: the kept copy is used while refreshes get 5xx or time out', async () => {
    let down = false;
    const origins = await start([(request, response, all) => (down ? serve.status(503) : serve.body(RULES))(request, response, all)]);
    const time = clock();
    const cache = newCache({ now: time.now });
    await verdicts(cache, origins.origin(0));
    down = true;
    for (let day = 1; day <= 40; day += 13) {
      time.advance(13 * DAY);
      expect(await verdicts(cache, origins.origin(0)), `day ${day}`).toEqual(BY_RULES);
    }
    const record = (await cache.entry(origins.origin(0))).record;
    expect([record.outcome, record.kept, record.failures]).toEqual(['unreachable', 'body', 4]);
  });

  it('Caching_404Kept: a kept 4xx (allow all) is used while refreshes fail', async () => {
    let down = false;
    const origins = await start([(request, response, all) => (down ? serve.status(500) : serve.status(404))(request, response, all)]);
    const time = clock();
    const cache = newCache({ now: time.now });
    await verdicts(cache, origins.origin(0));
    down = true;
    time.advance(25 * HOUR);
    expect(await verdicts(cache, origins.origin(0))).toEqual(ALL_ALLOWED);
  });

  it('ID_UnreachableFor30Days_NothingKept: disallow all for 30 days of failures, then allow all', async () => {
    const origins = await start([serve.status(503)]);
    const time = clock();
    const cache = newCache({ now: time.now });
    expect(await verdicts(cache, origins.origin(0))).toEqual(ALL_DISALLOWED);
    time.advance(30 * DAY - HOUR);
    expect(await verdicts(cache, origins.origin(0))).toEqual(ALL_DISALLOWED);
    time.advance(HOUR);
    expect(await verdicts(cache, origins.origin(0))).toEqual(ALL_ALLOWED);
  });

  it('Caching_FailuresRetriedAfterAnHour, not 24 hours (Google retries 5xx "fairly frequently")', async () => {
    const origins = await start([serve.status(503)]);
    const time = clock();
    const cache = newCache({ now: time.now });
    await verdicts(cache, origins.origin(0));
    time.advance(HOUR - 1);
    await verdicts(cache, origins.origin(0));
    expect(origins.requestsTo(0)).toBe(1);
    time.advance(1);
    await verdicts(cache, origins.origin(0));
    expect(origins.requestsTo(0)).toBe(2);
  });

  it('single flight: 200 concurrent asks for one origin make one request', async () => {
    const origins = await start([(request, response, all) => setTimeout(() => serve.body(RULES)(request, response, all), 50)]);
    const cache = newCache();
    const answers = await Promise.all(Array.from({ length: 200 }, (_, i) => cache.isAllowed(`${origins.origin(0)}/private/${i}`, 'Googlebot')));
    expect(answers.every((answer) => answer === false)).toBe(true);
    expect(origins.requestsTo(0)).toBe(1);
  });

  it('concurrency is bounded overall and per host', async () => {
    let inFlight = 0;
    let most = 0;
    const slow: OriginHandler = (request, response, all) => {
      inFlight++;
      most = Math.max(most, inFlight);
      setTimeout(() => { inFlight--; serve.body(RULES)(request, response, all); }, 40);
    };
    const origins = await start(Array.from({ length: 12 }, () => slow));
    const cache = newCache({ concurrency: 3, perHostConcurrency: 12 });
    await cache.checkUrls(Array.from({ length: 12 }, (_, i) => `${origins.origin(i)}/x`), 'Googlebot');
    expect(most).toBeLessThanOrEqual(3);
    expect(most).toBeGreaterThanOrEqual(2); // and not one at a time
    // every origin redirects to one host (host:port, the host each hop contacts): perHostConcurrency 1 makes its requests one at a time
    most = 0;
    const shared = await start([slow, ...Array.from({ length: 12 }, (): OriginHandler => serve.redirect(301, (all) => `${all.origin(0)}/robots.txt`))]);
    const perHost = newCache({ concurrency: 12, perHostConcurrency: 1 });
    await perHost.checkUrls(Array.from({ length: 12 }, (_, i) => `${shared.origin(i + 1)}/y`), 'Googlebot');
    expect(most).toBe(1);
    expect(shared.requests.filter((request) => request.origin === 0)).toHaveLength(12);
  });

  it('options are range-checked with the option named', () => {
    expect(() => new RobotsCache({ timeoutMs: 0 })).toThrow(new RobotsError('INVALID_ARGUMENT', 'timeoutMs must be a whole number from 1 to 600000, got 0'));
    expect(() => new RobotsCache({ concurrency: 5000 })).toThrow('concurrency must be a whole number from 1 to 4096, got 5000');
    expect(() => new RobotsCache({ maxBytes: 0 })).toThrow('maxBytes must be a whole number from 1 to 16777216, got 0');
    expect(() => new RobotsCache({ userAgent: 'a\nb' })).toThrow('userAgent must be a non-empty string of at most 1024 characters: tab, printable ASCII and Latin-1 only (no line breaks or control characters)');
    expect(() => new RobotsCache({ maxAgeMs: -1 })).toThrow('maxAgeMs must be a whole number from 0 to 31536000000, got -1');
  });

  it('the User-Agent header is the one configured', async () => {
    const origins = await start([serve.body(RULES)]);
    await fetchRobots(origins.origin(0), { userAgent: 'ExampleBot/2.0 (+https://example.com/bot)' });
    expect(origins.requests[0].headers['user-agent']).toBe('ExampleBot/2.0 (+https://example.com/bot)');
    expect(origins.requests[0].url).toBe('/robots.txt');
  });
});
