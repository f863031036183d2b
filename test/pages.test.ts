// robotstxt pages: robotstxt page over a crawl (JSON lines and WARC files), one answer line per page and a
// summary that counts each trap (src/core/page-traps.ts) exactly; records that cannot be read are said and
// counted, never dropped; Noindex: lines of robots.txt matched as paths (src/core/robots-noindex.ts).
import { describe, it, expect } from 'vitest';
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { join } from 'node:path';
import { robotstxt, tempDir } from './cli-helpers.js';
import { parseRobots } from '../src/node/index.js';
import { RobotsNoindex } from '../src/core/robots-noindex.js';
import { pageTraps } from '../src/core/page-traps.js';
import { pageRules } from '../src/core/page-rules.js';
import { readCrawl } from '../src/node/page/index.js';

const dir = tempDir();
const robotsFile = join(dir, 'robots.txt');
writeFileSync(robotsFile, 'User-agent: *\nDisallow: /private/\nNoindex: /drafts/\nNoindex: /drafts/keep/page\n\nUser-agent: Otherbot\nNoindex: /\n');
const NOW = '2026-06-01T00:00:00Z';
const head = (metas: string, body = ''): string => `<!DOCTYPE html><html><head><title>t</title>${metas}</head><body><p>text</p>${body}</body></html>`;

/** The test crawl: each page and the traps it holds for Googlebot (noted beside it). */
const PAGES: { url: string; headers?: [string, string][]; html?: string; status?: number }[] = [
  { url: 'https://example.com/', headers: [['Content-Type', 'text/html']], html: head('<meta name="robots" content="index, follow">'), status: 200 }, // none
  { url: 'https://example.com/private/a', headers: [['X-Robots-Tag', 'noindex']] }, // noindex-unseen
  { url: 'https://example.com/private/b', html: head('<meta name="googlebot" content="none">') }, // noindex-unseen
  { url: 'https://example.com/private/c', html: head('<meta name="otherbot" content="noindex">') }, // none: not for Googlebot
  { url: 'https://example.com/b', headers: [['X-Robots-Tag', 'noindex'], ['X-Robots-Tag', 'index']] }, // conflict
  { url: 'https://example.com/snip', headers: [['X-Robots-Tag', 'max-snippet:50']], html: head('<meta name="robots" content="max-snippet:100">') }, // conflict
  { url: 'https://example.com/old', headers: [['X-Robots-Tag', 'unavailable_after: 2026-01-01']] }, // unavailable-after-past
  { url: 'https://example.com/later', headers: [['X-Robots-Tag', 'unavailable_after: 2027-01-01']] }, // none
  { url: 'https://example.com/c', html: head('', '<meta name="robots" content="noindex">') }, // meta-outside-head
  { url: 'https://example.com/drafts/d' }, // noindex-in-robots-txt
  { url: 'https://example.com/drafts/keep/page', html: head('<meta name="robots" content="noindex">') }, // noindex-in-robots-txt (the longer line)
  { url: 'https://example.com/pdf', headers: [['Content-Type', 'application/pdf'], ['X-Robots-Tag', 'googlebot: noindex, nofollow']] }, // none
];
const EXPECTED_LINES = [
  'allowed\tseen\tindexable\t-\thttps://example.com/',
  'disallowed\tunseen\tindexable\tnoindex-unseen\thttps://example.com/private/a',
  'disallowed\tunseen\tindexable\tnoindex-unseen\thttps://example.com/private/b',
  'disallowed\tunseen\tindexable\t-\thttps://example.com/private/c',
  'allowed\tseen\tnot-indexable\tconflict\thttps://example.com/b',
  'allowed\tseen\tindexable\tconflict\thttps://example.com/snip',
  'allowed\tseen\tnot-indexable\tunavailable-after-past\thttps://example.com/old',
  'allowed\tseen\tindexable\t-\thttps://example.com/later',
  'allowed\tseen\tindexable\tmeta-outside-head\thttps://example.com/c',
  'allowed\tseen\tindexable\tnoindex-in-robots-txt\thttps://example.com/drafts/d',
  'allowed\tseen\tnot-indexable\tnoindex-in-robots-txt\thttps://example.com/drafts/keep/page',
  'allowed\tseen\tnot-indexable\t-\thttps://example.com/pdf',
];
/** The text lines of the crawl (crawl, seen, indexable, status, traps, url): JSON lines give the first page's status alone; WARC responses give 200 to every page. */
const expectedText = (form: 'jsonl' | 'warc'): string[] => EXPECTED_LINES.map((line, i) => {
  const fields = line.split('\t');
  return [...fields.slice(0, 3), form === 'warc' || i === 0 ? '200' : '-', ...fields.slice(3)].join('\t');
});
const EXPECTED_TEXT = expectedText('warc');
const JSONL_TEXT = expectedText('jsonl');
const EXPECTED_TRAPS = {
  'noindex-unseen': { pages: 2, examples: [{ url: 'https://example.com/private/a', text: 'X-Robots-Tag: noindex' }, { url: 'https://example.com/private/b', text: '<meta name="googlebot" content="none">' }] },
  conflict: { pages: 2, examples: [{ url: 'https://example.com/b', text: 'X-Robots-Tag: noindex / X-Robots-Tag: index' }, { url: 'https://example.com/snip', text: 'X-Robots-Tag: max-snippet:50 / <meta name="robots" content="max-snippet:100">' }] },
  'unavailable-after-past': { pages: 1, examples: [{ url: 'https://example.com/old', text: 'X-Robots-Tag: unavailable_after: 2026-01-01' }] },
  'meta-outside-head': { pages: 1, examples: [{ url: 'https://example.com/c', text: '<meta name="robots" content="noindex">' }] },
  'noindex-in-robots-txt': { pages: 2, examples: [{ url: 'https://example.com/drafts/d', text: 'robots.txt line 3: Noindex: /drafts/' }, { url: 'https://example.com/drafts/keep/page', text: 'robots.txt line 4: Noindex: /drafts/keep/page' }] },
};

/** The crawl as JSON lines (headers as pairs, as an object, as {name, value}: every form the reader takes), with three bad lines. */
function jsonLines(): string {
  const lines = PAGES.map((page, i) => {
    const headers = page.headers === undefined ? undefined : i % 3 === 0 ? page.headers : i % 3 === 1 ? Object.fromEntries(page.headers.map(([name]) => [name, page.headers?.filter(([other]) => other === name).map(([, value]) => value)])) : page.headers.map(([name, value]) => ({ name, value }));
    return JSON.stringify({ url: page.url, headers, html: page.html, status: page.status });
  });
  return [...lines.slice(0, 4), 'not json', ...lines.slice(4, 8), '', '{"url":"ftp://example.com/x"}', ...lines.slice(8), '{"headers":{}}'].join('\n') + '\n';
}

/** One WARC record, written by hand (the reader is warcio: the file is made without it). */
function warcRecord(type: string, uri: string | null, block: string, contentType: string): Buffer {
  const body = Buffer.from(block, 'latin1');
  const headers = [`WARC/1.1`, `WARC-Type: ${type}`, ...(uri === null ? [] : [`WARC-Target-URI: ${uri}`]), 'WARC-Date: 2026-05-01T00:00:00Z', `WARC-Record-ID: <urn:uuid:00000000-0000-0000-0000-${String(body.length).padStart(12, '0')}>`, `Content-Type: ${contentType}`, `Content-Length: ${body.length}`];
  return Buffer.concat([Buffer.from(`${headers.join('\r\n')}\r\n\r\n`, 'latin1'), body, Buffer.from('\r\n\r\n')]);
}

/** The crawl as WARC records: a warcinfo, then per page a request and its response (a revisit for the fourth). */
function warcRecords(): Buffer[] {
  const records = [warcRecord('warcinfo', null, 'software: test\r\n', 'application/warc-fields')];
  PAGES.forEach((page, i) => {
    records.push(warcRecord('request', page.url, `GET ${new URL(page.url).pathname} HTTP/1.1\r\nHost: example.com\r\n\r\n`, 'application/http; msgtype=request'));
    // every response has a Date (warcio 2.4 reads no body after a header block without any header)
    const headerLines = [['Date', 'Fri, 01 May 2026 00:00:00 GMT'], ...(page.headers ?? [])].map(([name, value]) => `${name}: ${value}\r\n`).join('');
    const utf8Html = page.html === undefined ? '' : Buffer.from(page.html).toString('latin1');
    const type = i === 3 ? 'revisit' : 'response';
    records.push(warcRecord(type, page.url, `HTTP/1.1 ${page.status ?? 200} OK\r\n${headerLines}\r\n${type === 'revisit' ? '' : utf8Html}`, 'application/http; msgtype=response'));
  });
  return records;
}

const crawlJsonl = join(dir, 'crawl.jsonl');
writeFileSync(crawlJsonl, jsonLines());
const crawlWarc = join(dir, 'crawl.warc');
writeFileSync(crawlWarc, Buffer.concat(warcRecords()));
const crawlWarcGz = join(dir, 'crawl.warc.gz');
writeFileSync(crawlWarcGz, Buffer.concat(warcRecords().map((record) => gzipSync(record))));

function pages(args: string[], input?: string | Uint8Array): { status: number | null; lines: string[]; stderr: string; summary: Record<string, unknown> } {
  const summaryFile = join(dir, `summary-${Math.random().toString(36).slice(2)}.json`);
  const r = robotstxt(['pages', '--agent', 'Googlebot', '--now', NOW, '--summary-json', summaryFile, ...args], input);
  let summary: Record<string, unknown> = {};
  try {
    summary = JSON.parse(readFileSync(summaryFile, 'utf8')) as Record<string, unknown>;
  } catch {
    summary = {};
  }
  return { status: r.status, lines: r.stdout.split('\n').filter((line) => line !== ''), stderr: r.stderr, summary };
}

describe('robotstxt pages over a test crawl: every trap counted exactly', () => {
  it('JSON lines: one line per page in order, the three bad lines said with their numbers, the summary exact, exit 1', () => {
    const r = pages(['--robots', robotsFile, '--format', 'text', crawlJsonl]);
    expect(r.lines).toEqual([
      ...JSONL_TEXT.slice(0, 4),
      `unread\t${crawlJsonl}\t5\t"line 5 is no JSON (Unexpected token 'o', \\"not json\\" is not valid JSON)"`,
      ...JSONL_TEXT.slice(4, 8),
      `unread\t${crawlJsonl}\t11\t"line 11: \\"url\\" is no http:// or https:// URL"`,
      ...JSONL_TEXT.slice(8),
      `unread\t${crawlJsonl}\t16\t"line 16 has no \\"url\\" string"`,
    ]);
    expect(r.status).toBe(1);
    expect(r.summary).toEqual({
      agent: 'Googlebot', now: '2026-06-01T00:00:00.000Z', records: 15, pages: 12,
      unread: { count: 3, examples: [
        { file: crawlJsonl, input: 5, error: `line 5 is no JSON (Unexpected token 'o', "not json" is not valid JSON)` },
        { file: crawlJsonl, input: 11, error: 'line 11: "url" is no http:// or https:// URL' },
        { file: crawlJsonl, input: 16, error: 'line 16 has no "url" string' },
      ] },
      skipped: {}, crawl: { allowed: 9, disallowed: 3 }, indexable: 8, notIndexable: 4, responses: { content: 1, unknown: 8 },
      traps: EXPECTED_TRAPS, origins: { count: 1, withoutRobots: 0 },
    });
    expect(r.stderr.split('\n').slice(0, 5)).toEqual([
      'pages: 12 judged for Googlebot from 15 records, 3 unread',
      'crawl: 9 allowed, 3 disallowed; 8 indexable, 4 not; 1 origin',
      'traps:',
      '  noindex-unseen                 2 pages  robots.txt disallows them, so their noindex is never seen (they may be indexed from links)',
      '    https://example.com/private/a  X-Robots-Tag: noindex',
    ]);
  });

  it('a WARC file and the same as .warc.gz (a gzip member per record): the same answers and counts; requests and warcinfo counted as no pages', () => {
    for (const file of [crawlWarc, crawlWarcGz]) {
      const r = pages(['--robots', robotsFile, '--format', 'text', file]);
      expect([r.status, r.lines]).toEqual([0, EXPECTED_TEXT]);
      expect(r.summary).toMatchObject({ records: 25, pages: 12, unread: { count: 0, examples: [] }, skipped: { warcinfo: 1, request: 12 }, crawl: { allowed: 9, disallowed: 3 }, indexable: 8, notIndexable: 4, traps: EXPECTED_TRAPS });
    }
  });

  it('jsonl output: robotstxt page\'s fields with file, input (the WARC record number), robots and traps', () => {
    const r = pages(['--robots', robotsFile, '--traps-only', crawlWarc]);
    const first = JSON.parse(r.lines[0]) as Record<string, unknown>;
    expect(r.lines.length).toBe(8);
    expect(first).toMatchObject({ file: crawlWarc, input: 5, url: 'https://example.com/private/a', agent: 'Googlebot', crawl: 'disallowed', seen: false, indexable: true, index: true, rules: [], robots: 'file', traps: [{ trap: 'noindex-unseen', text: 'X-Robots-Tag: noindex' }] });
    expect(JSON.parse(r.lines[7])).toMatchObject({ input: 23, url: 'https://example.com/drafts/keep/page', index: false, rules: [{ rule: 'noindex', value: null, source: 'meta', text: '<meta name="robots" content="noindex">' }], traps: [{ trap: 'noindex-in-robots-txt', text: 'robots.txt line 4: Noindex: /drafts/keep/page' }] });
  });

  it('a WARC file cut inside a record: the records before are answered, the cut one is said with its number and never judged, exit 1 (warcio alone waits forever)', () => {
    const records = warcRecords();
    const cut = join(dir, 'cut.warc');
    writeFileSync(cut, Buffer.concat([...records.slice(0, 5), records[5], records[6].subarray(0, records[6].length - 40)]));
    const r = pages(['--robots', robotsFile, '--format', 'text', cut]);
    expect(r.lines).toEqual([EXPECTED_TEXT[0], EXPECTED_TEXT[1], `unread\t${cut}\t7\t"WARC record 7 of '${cut}' (https://example.com/private/b) cannot be read (the file ends inside it: cut short?)"`]);
    expect([r.status, r.summary.records, r.summary.pages]).toEqual([1, 7, 2]);
    const headersCut = join(dir, 'headers-cut.warc');
    writeFileSync(headersCut, Buffer.concat([...records.slice(0, 3), records[3].subarray(0, 30)]));
    expect(pages(['--robots', robotsFile, '--format', 'text', headersCut]).lines).toEqual([EXPECTED_TEXT[0], `unread\t${headersCut}\t4\t"WARC record 4 of '${headersCut}' (request) cannot be read (the file ends inside it: cut short?)"`]);
  });

  it('--robots-dir: each origin its own file; an origin without one is allowed and counted', () => {
    const robotsDir = join(dir, 'robots-dir');
    mkdirSync(robotsDir, { recursive: true });
    writeFileSync(join(robotsDir, 'example.com.txt'), 'User-agent: *\nDisallow: /\n');
    const input = ['https://example.com/x', 'https://other.example/x', 'https://other.example/y'].map((url) => JSON.stringify({ url, headers: { 'X-Robots-Tag': 'noindex' } })).join('\n');
    const r = pages(['--robots-dir', robotsDir, '--format', 'text', '-'], input);
    expect(r.lines).toEqual([
      'disallowed\tunseen\tindexable\t-\tnoindex-unseen\thttps://example.com/x',
      'allowed\tseen\tnot-indexable\t-\t-\thttps://other.example/x',
      'allowed\tseen\tnot-indexable\t-\t-\thttps://other.example/y',
    ]);
    expect(r.summary.origins).toEqual({ count: 2, withoutRobots: 1 });
    expect(r.stderr).toContain('; 2 origins, 1 without robots.txt known (allowed)\n');
  });

  it('an input that cannot be opened is named (exit 2); one crawler only; --input says how to read', () => {
    const missing = pages(['--robots', robotsFile, join(dir, 'nope.jsonl')]);
    expect([missing.status, missing.stderr]).toEqual([2, `robotstxt: cannot read crawl export '${join(dir, 'nope.jsonl')}': no such file\n`]);
    expect(pages(['--robots', robotsFile, '--agent', 'Bingbot', crawlJsonl]).stderr).toBe('robotstxt: --agent names one crawler for pages, got 2\n');
    const asWarc = pages(['--robots', robotsFile, '--input', 'warc', '--format', 'text', '-'], readFileSync(crawlWarc));
    expect(asWarc.lines).toEqual(EXPECTED_TEXT);
  });
});

describe('RobotsNoindex: Noindex: lines matched as paths, for the crawler they address', () => {
  const robots = parseRobots('Noindex: /everyone/\nUser-agent: *\nDisallow: /x\nNoindex: /drafts/\nNoindex: /drafts/*.pdf$\n\nUser-agent: Otherbot\nNoindex: /other/\n');
  it('the longest matching line decides; lines before the first group apply to every crawler; another group\'s lines do not', () => {
    const noindex = new RobotsNoindex(robots, 'Googlebot');
    expect(noindex.lines).toEqual([{ line: 1, value: '/everyone/' }, { line: 4, value: '/drafts/' }, { line: 5, value: '/drafts/*.pdf$' }]);
    expect(noindex.lineFor('https://example.com/drafts/a.pdf')).toEqual({ line: 5, value: '/drafts/*.pdf$' });
    expect(noindex.lineFor('https://example.com/drafts/a.pdf?x')).toEqual({ line: 4, value: '/drafts/' });
    expect(noindex.lineFor('https://example.com/everyone/a')).toEqual({ line: 1, value: '/everyone/' });
    expect(noindex.lineFor('https://example.com/other/a')).toBeNull();
    expect(new RobotsNoindex(robots, 'Otherbot').lineFor('https://example.com/other/a')).toEqual({ line: 8, value: '/other/' });
    noindex.close();
  });
});

describe('pageTraps, trap by trap', () => {
  const traps = (headers: [string, string][], crawlAllowed = true) => pageTraps({ rules: pageRules({ headers, agent: 'Googlebot', nowMs: Date.parse(NOW) }), crawlAllowed, metasOutsideHead: [], robotsNoindex: null, nowMs: Date.parse(NOW) });
  it('contradictions: follow and nofollow, all and none, two max-image-preview values, nosnippet and a max-snippet above 0; not: the same rule twice, max-snippet:0 with nosnippet', () => {
    expect(traps([['X-Robots-Tag', 'follow'], ['X-Robots-Tag', 'nofollow']])).toEqual([{ trap: 'conflict', text: 'X-Robots-Tag: follow / X-Robots-Tag: nofollow' }]);
    expect(traps([['X-Robots-Tag', 'all, none']]).map((trap) => trap.trap)).toEqual(['conflict', 'conflict']);
    expect(traps([['X-Robots-Tag', 'max-image-preview:large'], ['X-Robots-Tag', 'googlebot: max-image-preview:none']])).toEqual([{ trap: 'conflict', text: 'X-Robots-Tag: max-image-preview:large / X-Robots-Tag: googlebot: max-image-preview:none' }]);
    expect(traps([['X-Robots-Tag', 'nosnippet, max-snippet:20']])).toEqual([{ trap: 'conflict', text: 'X-Robots-Tag: nosnippet, max-snippet:20' }]);
    expect(traps([['X-Robots-Tag', 'noindex'], ['X-Robots-Tag', 'noindex']])).toEqual([]);
    expect(traps([['X-Robots-Tag', 'nosnippet, max-snippet:0']])).toEqual([]);
    expect(traps([['X-Robots-Tag', 'otherbot: noindex'], ['X-Robots-Tag', 'index']])).toEqual([]);
  });
  it('a disallowed page: only noindex-unseen (what it says is never read), and only when the noindex addresses the crawler', () => {
    expect(traps([['X-Robots-Tag', 'index'], ['X-Robots-Tag', 'noindex']], false)).toEqual([{ trap: 'noindex-unseen', text: 'X-Robots-Tag: noindex' }]);
    expect(traps([['X-Robots-Tag', 'otherbot: noindex']], false)).toEqual([]);
  });
});

describe('hostile pages stay answered', () => {
  it('100,000 nested tags before a meta tag (the tree is walked without recursion), 200,000 `<meta` without a `>`, a meta tag inside another\'s value', async () => {
    const { htmlMetas, pageMetas } = await import('../src/node/page/index.js');
    const deep = `${'<b><i><u>'.repeat(33_000)}<meta name="robots" content="noindex">`;
    expect(htmlMetas(deep)).toEqual({ head: [], outsideHead: [{ name: 'robots', content: 'noindex' }], truncated: false });
    expect(pageMetas(deep, 'Googlebot').outsideHead).toEqual([{ name: 'robots', content: 'noindex' }]);
    expect(pageMetas('<meta'.repeat(200_000), 'Googlebot')).toEqual({ head: [], outsideHead: [], truncated: false });
    expect(pageMetas(`<head><meta name="description" content="${'<meta name=robots content=noindex>'.repeat(1000)}"></head>`, 'Googlebot').head.map((meta) => meta.name)).toEqual(['description']);
  });
  it('20 X-Robots-Tag lines of 64 KiB (9,000 rules each): each rule once in the report, its line cut at 256 characters with its length; a nosnippet against a max-snippet found in linear time', () => {
    const value = 'noindex, '.repeat(7282).slice(0, 64 << 10);
    const line = JSON.stringify({ url: 'https://example.com/x', headers: Array.from({ length: 20 }, () => ['X-Robots-Tag', value]) });
    const r = pages(['--robots', robotsFile, '-'], line + '\n');
    expect(r.status).toBe(0);
    expect(r.lines.length).toBe(1);
    expect(r.lines[0].length).toBeLessThan(2000);
    const report = JSON.parse(r.lines[0]);
    const text = `X-Robots-Tag: ${value.trim().slice(0, 256 - 'X-Robots-Tag: '.length)}... (${'X-Robots-Tag: '.length + value.trim().length} characters)`;
    expect([report.indexable, report.rules]).toEqual([false, [{ rule: 'noindex', value: null, source: 'header', text }]]);
    const both = 'nosnippet, max-snippet:20, '.repeat(2428).slice(0, 64 << 10);
    const conflict = JSON.parse(pages(['--robots', robotsFile, '-'], JSON.stringify({ url: 'https://example.com/y', headers: Array.from({ length: 20 }, () => ['X-Robots-Tag', both]) }) + '\n').lines[0]);
    expect(conflict.rules.map((rule: { rule: string; value: string | null }) => [rule.rule, rule.value])).toEqual([['nosnippet', null], ['max-snippet', '20']]);
    expect(conflict.traps.map((trap: { trap: string }) => trap.trap)).toEqual(['conflict']);
  });
  it('a URL whose host no URL parser takes (2,000 bytes) is said as such', async () => {
    const file = join(dir, 'long-host.jsonl');
    writeFileSync(file, `${JSON.stringify({ url: `https://${'a'.repeat(2000)}.com/x` })}\n`);
    const records = [];
    for await (const record of readCrawl(file, 'jsonl')) records.push(record);
    expect(records).toEqual([{ kind: 'unread', input: 1, url: `https://${'a'.repeat(2000)}.com/x`, error: 'line 1: "url" has a host no URL parser takes' }]);
  });
});

describe('readCrawl', () => {
  it('JSON lines with CRLF ends and a UTF-8 URL: read as written', async () => {
    const file = join(dir, 'crlf.jsonl');
    writeFileSync(file, '{"url":"https://example.com/ä"}\r\n\r\n{"url":"https://example.com/b","status":404}\r\n');
    const records = [];
    for await (const record of readCrawl(file, 'jsonl')) records.push(record);
    expect(records).toEqual([
      { kind: 'page', input: 1, url: 'https://example.com/ä', headers: [], html: null, status: null },
      { kind: 'page', input: 3, url: 'https://example.com/b', headers: [], html: null, status: 404 },
    ]);
  });
});

describe('pageMetas (the fast path: only the page up to its last meta tag that can matter is parsed) against the model (parse5 over the whole page)', () => {
  const PIECES = [
    '<meta name="robots" content="noindex">', '<meta content="x>y" name=robots>', '<META NAME=googlebot CONTENT=nofollow>', "<meta name='robots' content='max-snippet:5'>",
    '<meta name="description" content="robots are here">', '<meta name="&#114;obots" content="noindex">', '<meta name="content-signal" content="ai-train=no">', '<meta name="otherbot" content="none">',
    '<meta charset="utf-8">', '<meta name = "robots" content = "nofollow" >', '<meta name="robots" content="a\'b>c">',
    '<head>', '</head>', '<body>', '</body>', '<html>', '<p>', '</p>', 'text', '<!--', '-->', '<script>', '</script>', '<title>', '</title>',
    '<template>', '</template>', '<noscript>', '</noscript>', '<svg>', '</svg>', '<table>', '<frameset>', '<div>', '<b>', '</b>', '<textarea>', '</textarea>', '<',
    // what makes a quick scan misread where a tag ends: quotes in comments and text, a stray `="`, a tag in a value
    '"', "'", '="', "='", '<!-- " -->', "<!-- ' -->", '<!-- <meta name=x content=" -->', '<meta ="x>', '<meta name=x content="', "<meta a='<meta'>", ' ', '>', '=', '<meta',
    '<meta content="noindex" name="robots">', '<p title="a=\'b">',
  ];
  it('the same rules and the same robots meta tags outside <head>, for Googlebot and Otherbot, on 3,000 random pages', async () => {
    const fc = await import('fast-check');
    const { pageMetas, htmlMetas } = await import('../src/node/page/index.js');
    const { isRobotsMetaName } = await import('../src/core/page-traps.js');
    // the page as text, as UTF-8 bytes, or as UTF-16 with a byte order mark (little- or big-endian)
    const encoded = (html: string, form: number): string | Uint8Array => {
      if (form === 0) return html;
      if (form === 1) return new TextEncoder().encode(html);
      const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(html, 'utf16le')]);
      return form === 2 ? le : Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(html, 'utf16le').swap16()]);
    };
    fc.assert(fc.property(fc.array(fc.constantFrom(...PIECES), { maxLength: 24 }), fc.constantFrom('Googlebot', 'Otherbot'), fc.integer({ min: 0, max: 3 }), (pieces, agent, form) => {
      const html = pieces.join('');
      const fast = pageMetas(encoded(html, form), agent);
      const model = htmlMetas(html);
      expect(pageRules({ metas: fast.head, agent, nowMs: 0 })).toEqual(pageRules({ metas: model.head, agent, nowMs: 0 }));
      expect(fast.outsideHead.filter((meta) => isRobotsMetaName(meta.name, agent))).toEqual(model.outsideHead.filter((meta) => isRobotsMetaName(meta.name, agent)));
    }), { numRuns: 5000, seed: 46 });
  });
});
