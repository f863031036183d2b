// What a page lets a crawler index, beyond its rules: its HTTP status (Google's documented meaning of 2xx,
// 3xx, 4xx, 429 and 5xx: pageResponseOf, one rule for page, pages, judgePage and the Tester), the bytes it is
// served in (Content-Encoding decoded: gzip, deflate, br; UTF-16 with a byte order mark), and where its fetch
// may go (every redirect hop checked as robots.txt fetches are). Also the fifth sweep's page rules: a date
// followed by an unknown rule, several content-signal tags.
import { describe, it, expect } from 'vitest';
import { createServer } from 'node:http';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync, deflateSync, deflateRawSync, brotliCompressSync } from 'node:zlib';
import { MockAgent } from 'undici';
import { robotstxt, robotstxtAsync, tempDir } from './cli-helpers.js';
import { pageRules, judgePage, pageResponseOf, type PageResponse } from '../src/core/page-rules.js';
import { fetchPageFollowing, PageRobots } from '../src/node/page/index.js';
import { parseRobots } from '../src/node/index.js';
import type { UrlOrigin } from '../src/core/url-model.js';

const dir = tempDir();
const robotsFile = join(dir, 'robots.txt');
writeFileSync(robotsFile, 'User-agent: *\nDisallow: /private\n');
const NOINDEX_HTML = '<!DOCTYPE html><html><head><title>t</title><meta name="robots" content="noindex"></head><body>x</body></html>';

describe('the status of a crawled page (pageResponseOf): only content is indexed', () => {
  it('each class: 2xx content, 204 no content, 304 the copy before, 3xx redirect, 4xx but 429 client error, 429 and 5xx server error, others invalid', () => {
    const cases: [number | null, PageResponse, boolean][] = [
      [null, 'unknown', true], [200, 'content', true], [203, 'content', true], [204, 'no-content', false], [304, 'not-modified', true],
      [301, 'redirect', false], [302, 'redirect', false], [308, 'redirect', false], [404, 'client-error', false], [410, 'client-error', false],
      [403, 'client-error', false], [429, 'server-error', false], [500, 'server-error', false], [503, 'server-error', false], [102, 'invalid', false], [700, 'invalid', false],
    ];
    for (const [status, response, indexable] of cases) {
      expect(pageResponseOf(status), String(status)).toBe(response);
      const answer = judgePage(true, pageRules({ agent: 'Googlebot' }), status);
      expect([answer.response, answer.indexable], String(status)).toEqual([response, indexable]);
    }
    // a disallowed URL is never fetched: its status is not seen, and the URL may be indexed from links
    expect(judgePage(false, pageRules({ agent: 'Googlebot' }), 404)).toMatchObject({ seen: false, response: 'unknown', indexable: true });
    expect(judgePage(true, pageRules({ agent: 'Googlebot' }), 404).note).toBe('crawling is allowed; the page answered with a client error (4xx): the URL is not indexed, and dropped from the index if it was');
  });
  it('robotstxt page --status: 404 and 410 exit 1 and say why; a 301 is not the page; 503 is retried; the text shows the status', { tags: ['slow'] }, () => {
    for (const [status, response] of [['404', 'client-error'], ['410', 'client-error'], ['301', 'redirect'], ['503', 'server-error'], ['429', 'server-error']]) {
      const r = robotstxt(['page', 'https://example.com/a', '--agent', 'Googlebot', '--robots', robotsFile, '--status', status, '--format', 'json']);
      expect([r.status, JSON.parse(r.stdout).response, JSON.parse(r.stdout).indexable, JSON.parse(r.stdout).status], status).toEqual([1, response, false, Number(status)]);
    }
    const text = robotstxt(['page', 'https://example.com/a', '--agent', 'Googlebot', '--robots', robotsFile, '--status', '404']);
    expect(text.stdout.split('\n').slice(0, 4)).toEqual([
      'https://example.com/a for Googlebot: crawling is allowed; the page answered with a client error (4xx): the URL is not indexed, and dropped from the index if it was',
      'crawl           allowed',
      'seen            yes',
      'status          404 (client-error)',
    ]);
    const ok = robotstxt(['page', 'https://example.com/a', '--agent', 'Googlebot', '--robots', robotsFile, '--status', '200']);
    expect([ok.status, ok.stdout.split('\n')[3]]).toEqual([0, 'status          200 (content)']);
    const bad = robotstxt(['page', 'https://example.com/a', '--agent', 'Googlebot', '--robots', robotsFile, '--status', '99']);
    expect([bad.status, bad.stderr]).toEqual([2, "robotstxt: --status must be a whole number from 100 to 999, got '99'\n"]);
  });
  it('robotstxt pages: a 404, a 410, a 302 and a 503 are not indexable; the text line shows each status; the summary counts them', () => {
    const crawl = join(dir, 'statuses.jsonl');
    writeFileSync(crawl, [200, 404, 410, 302, 503, null].map((status, i) => JSON.stringify({ url: `https://example.com/p${i}`, status, html: '<html><head></head></html>' })).join('\n'));
    const summary = join(dir, 'statuses-summary.json');
    const r = robotstxt(['pages', '--robots', robotsFile, '--agent', 'Googlebot', '--format', 'text', '--summary-json', summary, crawl]);
    expect(r.stdout.split('\n').filter((line) => line !== '')).toEqual([
      'allowed\tseen\tindexable\t200\t-\thttps://example.com/p0',
      'allowed\tseen\tnot-indexable\t404\t-\thttps://example.com/p1',
      'allowed\tseen\tnot-indexable\t410\t-\thttps://example.com/p2',
      'allowed\tseen\tnot-indexable\t302\t-\thttps://example.com/p3',
      'allowed\tseen\tnot-indexable\t503\t-\thttps://example.com/p4',
      'allowed\tseen\tindexable\t-\t-\thttps://example.com/p5',
    ]);
    expect(r.status).toBe(0);
    expect(r.stderr.split('\n')[2]).toBe('responses of the crawled pages: 1 content, 2 client-error, 1 redirect, 1 server-error, 1 unknown (only content is indexed: a redirect is not the page, 4xx and 5xx are not indexed)');
  });
});

describe('the bytes a page is served in', () => {
  it('a UTF-16 page with a byte order mark (little- and big-endian): its noindex is read', () => {
    const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(NOINDEX_HTML, 'utf16le')]);
    const be = Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(NOINDEX_HTML, 'utf16le').swap16()]);
    for (const [name, bytes] of [['le.html', le], ['be.html', be]] as const) {
      writeFileSync(join(dir, name), bytes);
      const r = robotstxt(['page', 'https://example.com/a', '--agent', 'Googlebot', '--robots', robotsFile, '--html', join(dir, name), '--format', 'json']);
      expect([r.status, JSON.parse(r.stdout).index], name).toEqual([1, false]);
    }
  });
  it('--fetch decodes gzip, deflate (zlib and raw) and br; a page in another encoding is said and never judged (exit 2)', { tags: ['slow'] }, async () => {
    const bodies: Record<string, [string, Buffer]> = {
      '/gzip': ['gzip', gzipSync(NOINDEX_HTML)], '/deflate': ['deflate', deflateSync(NOINDEX_HTML)], '/raw-deflate': ['deflate', deflateRawSync(NOINDEX_HTML)],
      '/br': ['br', brotliCompressSync(NOINDEX_HTML)], '/compress': ['compress', Buffer.from('\x1f\x9d compressed')],
    };
    const server = createServer((request, response) => {
      if (request.url === '/robots.txt') return void response.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nAllow: /\n');
      const [encoding, body] = bodies[request.url ?? ''];
      response.writeHead(200, { 'content-type': 'text/html', 'content-encoding': encoding }).end(body);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    try {
      for (const path of ['/gzip', '/deflate', '/raw-deflate', '/br']) {
        const r = await robotstxtAsync(['page', `${base}${path}`, '--agent', 'Googlebot', '--fetch', '--format', 'json']);
        expect([r.status, JSON.parse(r.stdout).index, JSON.parse(r.stdout).rules.map((rule: { rule: string }) => rule.rule)], path).toEqual([1, false, ['noindex']]);
      }
      const compress = await robotstxtAsync(['page', `${base}/compress`, '--agent', 'Googlebot', '--fetch']);
      expect([compress.status, compress.stdout, compress.stderr]).toEqual([2, '', `robotstxt: cannot read ${base}/compress: unsupported Content-Encoding 'compress': the page is not judged\n`]);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
  it('--fetch of a 404 page: not indexable, exit 1', async () => {
    const server = createServer((request, response) => {
      if (request.url === '/robots.txt') return void response.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nAllow: /\n');
      response.writeHead(404, { 'content-type': 'text/html' }).end('<html><head></head><body>gone</body></html>');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    try {
      const r = await robotstxtAsync(['page', `${base}/gone`, '--agent', 'Googlebot', '--fetch', '--format', 'json']);
      expect([r.status, JSON.parse(r.stdout).status, JSON.parse(r.stdout).response, JSON.parse(r.stdout).indexable]).toEqual([1, 404, 'client-error', false]);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe('every hop of a page fetch under the targets rule of robots.txt fetches', () => {
  const ADDRESSES: Record<string, string> = { 'public.example': '93.184.216.34', 'internal.example': '10.0.0.5', 'metadata.example': '169.254.169.254' };
  const resolveHost = async (hostname: string): Promise<string[]> => (ADDRESSES[hostname] === undefined ? [] : [ADDRESSES[hostname]]);
  const allowAll = (): PageRobots => new PageRobots({ agent: 'Googlebot', reading: { mode: 'google', maxBytes: 512_000 }, nowMs: 0, robots: parseRobots('User-agent: *\nAllow: /\n') });
  it('a public page that redirects to a private or link-local address: the redirect is not followed, neither the target nor its robots.txt is requested', async () => {
    for (const target of ['http://internal.example/admin', 'http://metadata.example/latest/meta-data/', 'http://127.0.0.1:9/x']) {
      const agent = new MockAgent();
      agent.disableNetConnect();
      agent.get('http://public.example').intercept({ path: '/page', method: 'GET' }).reply(302, '', { headers: { location: target } });
      const asked: string[] = [];
      const robots = allowAll();
      try {
        const followed = await fetchPageFollowing('http://public.example/page', { agent: 'Googlebot', userAgent: 'test', timeoutMs: 5000, dispatcher: agent, resolveHost, robotsFor: async (origin: UrlOrigin) => { asked.push(origin.origin); return robots.forOrigin(origin); } });
        expect(followed.url).toBe('http://public.example/page');
        expect(followed.page?.status).toBe(302);
        expect(followed.redirects).toEqual([]);
        expect(followed.stopped).toMatch(new RegExp(`^http://public\\.example/page answered 302 to ${target.replace(/[./?]/g, '\\$&')}: not followed, redirect from a public address to an internal one refused \\(`));
        expect(asked).toEqual(['http://public.example']);
        agent.assertNoPendingInterceptors();
      } finally {
        robots.close();
        await agent.close();
      }
    }
  });
  it('--targets public: a page at a loopback address is refused before any request (robots.txt included)', async () => {
    let requests = 0;
    const server = createServer((_request, response) => {
      requests++;
      response.writeHead(200).end('User-agent: *\nAllow: /\n');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    try {
      const r = await robotstxtAsync(['page', `${base}/x`, '--agent', 'Googlebot', '--fetch', '--targets', 'public']);
      expect(r.status).toBe(2);
      expect(r.stderr).toBe(`robotstxt: robots.txt of ${base}: unreachable (fetch to an internal address refused (127.0.0.1 is a loopback address; --targets public)): every URL disallowed\nrobotstxt: cannot fetch ${base}/x: fetch to an internal address refused (127.0.0.1 is a loopback address; --targets public)\n`);
      expect(requests).toBe(0);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe('the fifth sweep\'s page rules', () => {
  it('unavailable_after: 2020-01-01, noodp: the date is a date (the unknown rule after it is its own), the page long expired is not indexable', () => {
    const rules = pageRules({ agent: 'Googlebot', headers: [['X-Robots-Tag', 'unavailable_after: 2020-01-01, noodp']], nowMs: Date.parse('2026-12-01T00:00:00Z') });
    expect([rules.index, rules.unavailableAfter, rules.unknown.map((rule) => rule.rule)]).toEqual([false, '2020-01-01T00:00:00.000Z', ['noodp']]);
    // a weekday's comma still belongs to the date; one part at most is joined to it
    expect(pageRules({ agent: 'Googlebot', headers: [['X-Robots-Tag', 'unavailable_after: Friday, 25-Jun-10 15:00:00 PST, nosnippet']], nowMs: 0 })).toMatchObject({ unavailableAfter: '2010-06-25T23:00:00.000Z', snippet: { allowed: false } });
    const soon = pageRules({ agent: 'Googlebot', headers: [['X-Robots-Tag', 'unavailable_after: soon, a, b']], nowMs: 0 });
    expect(soon.unknown.map((rule) => [rule.rule, rule.value])).toEqual([['unavailable_after', 'soon'], ['a', null], ['b', null]]);
  });
  it('two content-signal tags, ai-train=no then ai-train=yes: no wins, as in robots.txt; other keys keep the first', () => {
    const metas = [{ name: 'content-signal', content: 'ai-train=no, search=yes, custom=First' }, { name: 'content-signal', content: 'ai-train=yes, search=no, custom=second, ai-input=maybe' }];
    expect(pageRules({ agent: 'Googlebot', metas }).ai.contentSignal).toEqual({ 'ai-train': 'no', search: 'no', custom: 'First' });
  });
});
