// Crawling is not indexing: a page's own rules (robots meta tags, X-Robots-Tag, Robots-Tag) judged with the
// robots.txt verdict (src/core/page-rules.ts, src/node/page/, robotstxt page). The examples of Google's
// "Robots meta tag, data-nosnippet, and X-Robots-Tag specifications" and of draft-illyes-repext-03, each
// answered as the document says; a disallowed URL is never seen, and --fetch never requests it.
import { describe, it, expect } from 'vitest';
import { createServer } from 'node:http';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { robotstxt, robotstxtAsync, tempDir } from './cli-helpers.js';
import { pageRules, pageRuleTime, judgePage, ROBOTS_TAG_PARSE_LIMIT } from '../src/core/page-rules.js';
import { answerPage, htmlMetas } from '../src/node/page/index.js';
import { parseRobots } from '../src/node/index.js';

const dir = tempDir();
const robotsFile = join(dir, 'robots.txt');
writeFileSync(robotsFile, 'User-agent: *\nDisallow: /private\n');
const head = (metas: string): string => `<!DOCTYPE html><html><head><title>t</title>${metas}</head><body><p>text</p></body></html>`;
const htmlFile = (name: string, html: string): string => {
  const path = join(dir, name);
  writeFileSync(path, html);
  return path;
};
const robots = parseRobots('User-agent: *\nDisallow: /private\n');
/**
 * A page's answer in this process (answerPage: what robotstxt page prints), for a URL of example.com with
 * headers and an HTML head: its exit status (0 indexable, 1 not) and its fields as the command's JSON has them.
 * The command itself is run by the tests below that need it (its JSON, --fetch, exit codes, errors).
 */
function page(agent: string, options: { headers?: string[]; metas?: string; path?: string; now?: string } = {}): { status: number; json: Record<string, unknown> } {
  const url = `https://example.com${options.path ?? '/a'}`;
  const headers = (options.headers ?? []).map((line): [string, string] => [line.slice(0, line.indexOf(':')).trim(), line.slice(line.indexOf(':') + 1).trim()]);
  const report = answerPage({ url, agent, crawlAllowed: robots.isAllowed(url, agent), headers, html: options.metas === undefined ? null : head(options.metas), nowMs: options.now === undefined ? undefined : Date.parse(options.now) });
  const statements = (list: typeof report.rules): unknown[] => (report.seen ? list.map(({ rule, value, source, text }) => ({ rule, value, source, text })) : []);
  return { status: report.indexable ? 0 : 1, json: { ...report, rules: statements(report.rules), unknown: statements(report.unknown) } };
}

describe("Google's robots meta tag and X-Robots-Tag specification, example by example", () => {
  it('"<meta name="robots" content="noindex">": the page is not shown in search results (exit 1; the command and the library agree)', () => {
    const r = page('Googlebot', { metas: '<meta name="robots" content="noindex">' });
    const command = robotstxt(['page', 'https://example.com/a', '--agent', 'Googlebot', '--robots', robotsFile, '--format', 'json', '--html', htmlFile('noindex.html', head('<meta name="robots" content="noindex">'))]);
    expect([command.status, JSON.parse(command.stdout).rules, JSON.parse(command.stdout).index]).toEqual([1, r.json.rules, false]);
    expect([r.status, r.json.crawl, r.json.seen, r.json.index, r.json.follow, r.json.indexable]).toEqual([1, 'allowed', true, false, true, false]);
    expect(r.json.rules).toEqual([{ rule: 'noindex', value: null, source: 'meta', text: '<meta name="robots" content="noindex">' }]);
  });
  it('"Both the name and the content attributes are case-insensitive"', () => {
    expect(page('Googlebot', { metas: '<META NAME="ROBOTS" CONTENT="NoIndex, NOFOLLOW">' }).json).toMatchObject({ index: false, follow: false });
  });
  it('"<meta name="googlebot" content="noindex">" addresses Googlebot alone; googlebot-news addresses Googlebot-News alone', () => {
    expect(page('Googlebot', { metas: '<meta name="googlebot" content="noindex">' }).json.index).toBe(false);
    expect(page('Bingbot', { metas: '<meta name="googlebot" content="noindex">' }).json.index).toBe(true);
    expect(page('Googlebot', { metas: '<meta name="googlebot-news" content="nosnippet">' }).json.snippet).toEqual({ allowed: true, maxChars: null });
    expect(page('Googlebot-News', { metas: '<meta name="googlebot-news" content="nosnippet">' }).json.snippet).toEqual({ allowed: false, maxChars: 0 });
  });
  it('"To specify multiple crawlers individually, use multiple robots meta tags": each crawler gets its own', () => {
    const metas = '<meta name="googlebot" content="notranslate"><meta name="googlebot-news" content="nosnippet">';
    expect([page('Googlebot', { metas }).json.translate, page('Googlebot', { metas }).json.snippet]).toEqual([false, { allowed: true, maxChars: null }]);
    expect([page('Googlebot-News', { metas }).json.translate, page('Googlebot-News', { metas }).json.snippet]).toEqual([true, { allowed: false, maxChars: 0 }]);
  });
  it('"X-Robots-Tag: noindex": any rule of the meta tag can be an X-Robots-Tag', () => {
    const r = page('Googlebot', { headers: ['X-Robots-Tag: noindex'] });
    expect([r.status, r.json.index]).toEqual([1, false]);
    expect(r.json.rules).toEqual([{ rule: 'noindex', value: null, source: 'header', text: 'X-Robots-Tag: noindex' }]);
  });
  it('"X-Robots-Tag: googlebot: nofollow" and "X-Robots-Tag: otherbot: noindex, nofollow": each header line addresses its crawler', () => {
    const headers = ['X-Robots-Tag: googlebot: nofollow', 'X-Robots-Tag: otherbot: noindex, nofollow'];
    expect([page('Googlebot', { headers }).json.index, page('Googlebot', { headers }).json.follow]).toEqual([true, false]);
    expect([page('otherbot', { headers }).json.index, page('otherbot', { headers }).json.follow]).toEqual([false, false]);
    expect([page('Bingbot', { headers }).json.index, page('Bingbot', { headers }).json.follow]).toEqual([true, true]);
  });
  it('"X-Robots-Tag: unavailable_after: 25 Jun 2010 15:00:00 PST": indexable before, not after; the date keeps its colons', () => {
    const headers = ['X-Robots-Tag: unavailable_after: 25 Jun 2010 15:00:00 PST'];
    expect(page('Googlebot', { headers, now: '2010-06-25T22:59:00Z' }).json).toMatchObject({ index: true, unavailableAfter: '2010-06-25T23:00:00.000Z' });
    const after = page('Googlebot', { headers, now: '2010-06-25T23:00:00Z' });
    expect([after.status, after.json.index]).toEqual([1, false]);
  });
  it('"none" is "equivalent to noindex, nofollow"; "all" adds no restriction', () => {
    expect(page('Googlebot', { metas: '<meta name="robots" content="none">' }).json).toMatchObject({ index: false, follow: false });
    expect(page('Googlebot', { metas: '<meta name="robots" content="all">' }).json).toMatchObject({ index: true, follow: true });
  });
  it('max-snippet: "0" is nosnippet, "-1" no limit, "20" at most 20 characters; "if the page has both max-snippet:50 and nosnippet rules, the nosnippet rule will apply"', () => {
    expect(page('Googlebot', { metas: '<meta name="robots" content="max-snippet:0">' }).json.snippet).toEqual({ allowed: false, maxChars: 0 });
    expect(page('Googlebot', { metas: '<meta name="robots" content="max-snippet:-1">' }).json.snippet).toEqual({ allowed: true, maxChars: null });
    expect(page('Googlebot', { metas: '<meta name="robots" content="max-snippet:20">' }).json.snippet).toEqual({ allowed: true, maxChars: 20 });
    expect(page('Googlebot', { metas: '<meta name="robots" content="max-snippet:50, nosnippet">' }).json.snippet).toEqual({ allowed: false, maxChars: 0 });
    // "If no parseable [number] is specified, this rule is ignored": said, not an error
    const unreadable = page('Googlebot', { metas: '<meta name="robots" content="max-snippet:lots">' });
    expect([unreadable.json.snippet, unreadable.json.unknown]).toEqual([{ allowed: true, maxChars: null }, [{ rule: 'max-snippet', value: 'lots', source: 'meta', text: '<meta name="robots" content="max-snippet:lots">' }]]);
  });
  it('max-image-preview (none, standard, large) and max-video-preview (seconds; 0 a static image, -1 no limit): the more restrictive of two', () => {
    expect(page('Googlebot', { metas: '<meta name="robots" content="max-image-preview:large"><meta name="googlebot" content="max-image-preview:standard">' }).json.imagePreview).toBe('standard');
    expect(page('Googlebot', { metas: '<meta name="robots" content="max-video-preview:-1, max-video-preview:30">' }).json.videoPreview).toBe(30);
    expect(page('Googlebot', { metas: '<meta name="robots" content="max-video-preview:0">' }).json.videoPreview).toBe(0);
  });
  it('notranslate, noimageindex, indexifembedded (with noindex) are read', () => {
    expect(page('Googlebot', { metas: '<meta name="googlebot" content="noindex, indexifembedded"><meta name="robots" content="notranslate, noimageindex">' }).json).toMatchObject({ index: false, indexIfEmbedded: true, translate: false, imageIndex: false });
  });
  it('"the robots meta tag currently needs to be in the <head> section of a page": a meta tag the parser puts in <body> is not read, and said', () => {
    const r = robotstxt(['page', 'https://example.com/a', '--agent', 'Googlebot', '--robots', robotsFile, '--format', 'json', '--html', htmlFile('body-meta.html', '<html><head><title>t</title></head><body><meta name="robots" content="noindex"></body></html>')]);
    expect([r.status, JSON.parse(r.stdout).index, r.stderr]).toEqual([0, true, 'robotstxt: a meta tag outside <head> is not read: <meta name="robots" content="noindex">\n']);
    // a meta after body content is moved out of the head by the HTML parser (as in browsers)
    expect(htmlMetas('<html><head><title>t</title><div>x</div><meta name="robots" content="noindex"></head></html>')).toEqual({ head: [], outsideHead: [{ name: 'robots', content: 'noindex' }], truncated: false });
  });
  it('unknown rules are kept and reported, never an error; AI statements (noai, noimageai, content-signal) are read apart', () => {
    const r = page('GPTBot', { metas: '<meta name="robots" content="noai, noimageai, future-rule"><meta name="content-signal" content="ai-train=no, search=yes">' });
    expect([r.status, r.json.ai]).toEqual([0, { noai: true, noimageai: true, contentSignal: { 'ai-train': 'no', search: 'yes' } }]);
    expect(r.json.unknown).toEqual([{ rule: 'future-rule', value: null, source: 'meta', text: '<meta name="robots" content="noai, noimageai, future-rule">' }]);
  });
});

describe('draft-illyes-repext-03: the Robots-Tag header', () => {
  it('"Robots-Tag: *;nosnippet, ExampleBot;noindex": nosnippet for every crawler, noindex for ExampleBot too', () => {
    const headers = ['Robots-Tag: *;nosnippet, ExampleBot;noindex'];
    expect(page('ExampleBot', { headers }).json).toMatchObject({ index: false, snippet: { allowed: false, maxChars: 0 } });
    expect(page('OtherBot', { headers }).json).toMatchObject({ index: true, snippet: { allowed: false, maxChars: 0 } });
  });
  it('several Robots-Tag and X-Robots-Tag fields combine: the union of the restrictive rules', () => {
    const headers = ['Robots-Tag: *;nofollow', 'Robots-Tag: examplebot;max-snippet=20', 'X-Robots-Tag: examplebot: noimageindex'];
    expect(page('ExampleBot', { headers }).json).toMatchObject({ follow: false, snippet: { allowed: true, maxChars: 20 }, imageIndex: false });
  });
  it(`at least ${ROBOTS_TAG_PARSE_LIMIT} bytes are parsed; a member cut by the limit is dropped, the complete ones before it kept`, () => {
    const filler = Array.from({ length: 400 }, (_, i) => `bot${i};nosnippet`).join(', '); // about 6 KB
    const value = `*;nofollow, ${filler}, ${'x'.repeat(ROBOTS_TAG_PARSE_LIMIT - filler.length - 20)}bot;noindex, *;noindex`; // the x member ends 5 bytes past the limit
    const rules = pageRules({ headers: [['Robots-Tag', value]], agent: 'AnyBot' });
    expect([rules.follow, rules.index]).toEqual([false, true]);
  });
});

describe('robots.txt first: a disallowed page is never seen', () => {
  it('a URL robots.txt disallows answers crawl: disallowed, seen: false whatever its headers say (it may still be indexed from links: exit 0)', () => {
    const command = robotstxt(['page', 'https://example.com/private/x', '--agent', 'Googlebot', '--robots', robotsFile, '--format', 'json', '--header', 'X-Robots-Tag: noindex', '--header', 'Robots-Tag: *;noindex', '--html', htmlFile('private.html', head('<meta name="robots" content="noindex">'))]);
    const r = { status: command.status, json: JSON.parse(command.stdout) };
    expect(r.status).toBe(0);
    expect(r.json).toEqual({
      url: 'https://example.com/private/x', agent: 'Googlebot', crawl: 'disallowed', seen: false, indexable: true, index: true, follow: true,
      snippet: { allowed: true, maxChars: null }, imagePreview: null, videoPreview: null, translate: true, imageIndex: true, indexIfEmbedded: false,
      unavailableAfter: null, ai: { noai: false, noimageai: false, contentSignal: {} }, status: null, response: 'unknown', rules: [], unknown: [],
      note: "robots.txt disallows crawling, so the page's own rules are never seen: the URL may still be indexed from links, without its content (its noindex is not seen: allow crawling for it to be obeyed)",
      traps: [{ trap: 'noindex-unseen', text: 'X-Robots-Tag: noindex / Robots-Tag: *;noindex / <meta name="robots" content="noindex">' }],
      redirects: [],
    });
    expect(judgePage(false, pageRules({ agent: 'Googlebot', headers: [['X-Robots-Tag', 'noindex']] })).seen).toBe(false);
  });
  it('--fetch: robots.txt first; a disallowed URL is never requested, an allowed one is read from its own headers and head (a local server counts requests)', async () => {
    const requested: string[] = [];
    const server = createServer((request, response) => {
      requested.push(request.url ?? '');
      if (request.url === '/robots.txt') response.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nDisallow: /private\n');
      else response.writeHead(200, { 'content-type': 'text/html', 'x-robots-tag': 'googlebot: nofollow' }).end(head('<meta name="robots" content="max-snippet:30">'));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    try {
      const blocked = await robotstxtAsync(['page', `${base}/private/secret`, '--agent', 'Googlebot', '--fetch', '--format', 'json']);
      expect([blocked.status, JSON.parse(blocked.stdout).crawl, JSON.parse(blocked.stdout).seen]).toEqual([0, 'disallowed', false]);
      expect(requested).toEqual(['/robots.txt']);
      const open = await robotstxtAsync(['page', `${base}/open`, '--agent', 'Googlebot', '--fetch', '--format', 'json']);
      const json = JSON.parse(open.stdout);
      expect([open.status, json.crawl, json.seen, json.status, json.follow, json.snippet]).toEqual([0, 'allowed', true, 200, false, { allowed: true, maxChars: 30 }]);
      expect(requested).toEqual(['/robots.txt', '/robots.txt', '/open']);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe('--fetch follows redirects as a crawler does: each URL\'s robots.txt first', () => {
  it('a 301 to an allowed page answers that page (its rules, its URL, the hop); a 302 to a disallowed one never requests it; a loop stops after 10 hops (a local server counts requests)', { tags: ['slow'] }, async () => {
    const requested: string[] = [];
    const server = createServer((request, response) => {
      const path = request.url ?? '';
      requested.push(path);
      if (path === '/robots.txt') response.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nDisallow: /private\n');
      else if (path === '/old') response.writeHead(301, { location: '/new' }).end();
      else if (path === '/to-private') response.writeHead(302, { location: '/private/x' }).end();
      else if (path.startsWith('/loop')) response.writeHead(307, { location: `/loop${Number(path.slice(5) || 0) + 1}` }).end();
      else if (path === '/nowhere') response.writeHead(301, { location: 'mailto:a@example.com', 'x-robots-tag': 'noindex' }).end();
      else response.writeHead(200, { 'content-type': 'text/html', 'x-robots-tag': 'noindex' }).end(head(''));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    try {
      const moved = await robotstxtAsync(['page', `${base}/old`, '--agent', 'Googlebot', '--fetch', '--format', 'json']);
      expect([moved.status, moved.stderr]).toEqual([1, `robotstxt: ${base}/old answered 301: followed\n`]);
      expect(JSON.parse(moved.stdout)).toMatchObject({ url: `${base}/new`, crawl: 'allowed', seen: true, index: false, status: 200, redirects: [{ url: `${base}/old`, status: 301 }] });
      expect(requested).toEqual(['/robots.txt', '/old', '/new']);
      requested.length = 0;
      const hidden = await robotstxtAsync(['page', `${base}/to-private`, '--agent', 'Googlebot', '--fetch', '--format', 'json']);
      expect(JSON.parse(hidden.stdout)).toMatchObject({ url: `${base}/private/x`, crawl: 'disallowed', seen: false, status: null, redirects: [{ url: `${base}/to-private`, status: 302 }] });
      expect(requested).toEqual(['/robots.txt', '/to-private']);
      requested.length = 0;
      const loop = await robotstxtAsync(['page', `${base}/loop`, '--agent', 'Googlebot', '--fetch', '--format', 'json']);
      expect(JSON.parse(loop.stdout)).toMatchObject({ url: `${base}/loop10`, status: 307 });
      expect(JSON.parse(loop.stdout).redirects.length).toBe(10);
      expect(loop.stderr.split('\n').at(-2)).toBe('robotstxt: more than 10 redirects: the last one\'s own headers are read');
      expect(requested.length).toBe(12);
      const nowhere = await robotstxtAsync(['page', `${base}/nowhere`, '--agent', 'Googlebot', '--fetch', '--format', 'json']);
      expect([nowhere.status, JSON.parse(nowhere.stdout).url, JSON.parse(nowhere.stdout).index, nowhere.stderr]).toEqual([1, `${base}/nowhere`, false, `robotstxt: ${base}/nowhere answered 301 to mailto:a@example.com, which is no http(s) URL: its own headers are read\n`]);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe('unavailable_after dates and usage errors', () => {
  it('the forms Google names (RFC 822 and 1123, RFC 850, ISO 8601; no zone: UTC), parsed by hand; anything else is none', () => {
    expect(['25 Jun 2010 15:00:00 PST', 'Friday, 25-Jun-10 15:00:00 PST', 'Fri, 25 Jun 2010 23:00:00 GMT', '2010-06-25T23:00:00Z', '2010-06-25T23:00', '2010-06-25T15:00:00-08:00'].map((text) => new Date(pageRuleTime(text) as number).toISOString()))
      .toEqual(Array(6).fill('2010-06-25T23:00:00.000Z'));
    expect(['yesterday', '31 Jun 2010 10:00:00 GMT', '2010-13-01', '25 Jun 2010 15:00:00 XYZ', ''].map(pageRuleTime)).toEqual([null, null, null, null, null]);
    // an unreadable date: the rule is ignored (the specification) and reported
    expect(page('Googlebot', { headers: ['X-Robots-Tag: unavailable_after: soon'] }).json).toMatchObject({ index: true, unavailableAfter: null, unknown: [{ rule: 'unavailable_after', value: 'soon', source: 'header', text: 'X-Robots-Tag: unavailable_after: soon' }] });
  });
  it('exit 2 with one line', () => {
    const cases: [string[], string][] = [
      [['page', 'https://example.com/a', '--agent', 'Googlebot'], 'page needs exactly one of --robots <file>, --store <dir>, --pack <file> or --fetch'],
      [['page', 'example.com/a', '--agent', 'Googlebot', '--robots', robotsFile], "'example.com/a' is no http:// or https:// URL"],
      [['page', 'https://example.com/a', '--agent', 'Googlebot', '--robots', robotsFile, '--header', 'no colon here'], "--header must be 'Name: value' (an HTTP header), got 'no colon here'"],
      [['page', 'https://example.com/a', '--agent', 'Googlebot', '--agent', 'Bingbot', '--robots', robotsFile], '--agent names one crawler for page, got 2'],
      [['page', 'https://example.com/a', '--agent', 'Googlebot', '--robots', robotsFile, '--html', join(dir, 'missing.html')], `cannot read --html ${join(dir, 'missing.html')}: ENOENT`],
    ];
    for (const [args, message] of cases) {
      const r = robotstxt(args);
      expect([r.stderr, r.status, r.stdout]).toEqual([`robotstxt: ${message}\n`, 2, '']);
    }
  });
});
