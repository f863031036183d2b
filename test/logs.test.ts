// The one log reader (src/node/logs/log.ts): Apache/nginx with trailing fields, JSON lines (default and configured
// keys), CloudFront and AWS ALB, each from a real-looking fixture; the same ten requests in each format give
// the same answers in check --log, diff --log, audit and fetch --log.
import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { readFileSync, writeFileSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { robotstxt, tempDir } from './cli-helpers.js';
import { LogLineReader, logTimeMs, parseLogLine, type LogRequest, type LogLine, type LogEntry } from '../src/node/logs/index.js';

const FIXTURES = new URL('../examples/logs/', import.meta.url).pathname;
const fixture = (name: string): string => join(FIXTURES, name);
const SHOP = new URL('../examples/shop-robots.txt', import.meta.url).pathname;
const CUSTOM_FIELDS = ['--log-field', 'target=req.line', '--log-field', 'userAgent=req.ua', '--log-field', 'host=site', '--log-field', 'time=at'];
/** Each fixture holds the same ten requests (see the generator notes in each test), nine by crawlers. */
const FORMATS: [string, string, string[]][] = [
  ['nginx-combined-extra.log', 'combined', []],
  ['cloudfront.log', 'cloudfront', []],
  ['alb.log', 'alb', []],
  ['nginx.jsonl', 'json', []],
  ['gcp-load-balancer.jsonl', 'json', []],
  ['app-custom.jsonl', 'json', CUSTOM_FIELDS],
];
const PATHS = ['/brands/kitchen', '/cart?id=1', '/checkout/summer', '/media/a.jpg', '/img/b.jpg', '/search?q=lamp', '/cart', '/help/index.html', '/robots.txt', '/account/orders'];

/** The requests of a fixture, read line by line (header lines left out). */
function requestsOf(name: string, fields: Record<string, string> = {}): LogRequest[] {
  const reader = new LogLineReader({ fields });
  return readFileSync(fixture(name), 'latin1').split('\n').filter((line) => line !== '').map((line) => reader.read(line)).filter((r): r is LogRequest => r !== 'header');
}

describe('LogLineReader: each format', () => {
  it('nginx combined with $request_time and $http_x_forwarded_for after the User-Agent', () => {
    const [first] = requestsOf('nginx-combined-extra.log');
    expect(first).toEqual({
      format: 'combined', host: null, vhost: null, client: '203.0.113.10', time: '21/Nov/2026:09:00:07 +0000', timeMs: Date.UTC(2026, 10, 21, 9, 0, 7),
      method: 'GET', target: '/brands/kitchen', status: 200, referer: null, userAgent: 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
      forwardedFor: '10.1.2.0',
    });
  });
  it('CloudFront: header lines are headers; the User-Agent is URL-decoded (once or twice); x-host-header is the host', () => {
    const reader = new LogLineReader();
    const lines = readFileSync(fixture('cloudfront.log'), 'latin1').split('\n');
    expect(reader.read(lines[0])).toBe('header');
    expect(reader.read(lines[1])).toBe('header');
    expect(reader.read(lines[3])).toEqual({
      format: 'cloudfront', host: 'shop.example', vhost: 'shop.example', client: '203.0.113.11', time: '2026-11-21 10:01:07', timeMs: Date.UTC(2026, 10, 21, 10, 1, 7),
      method: 'GET', target: '/cart?id=1', status: 200, referer: null, userAgent: 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
      forwardedFor: null,
    });
    expect((reader.read(lines[4]) as LogRequest).userAgent).toBe('Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)'); // written as %2520
  });
  it('CloudFront without a #Fields line uses the documented 33-field order; a #Fields line with fewer fields is followed', () => {
    const line = readFileSync(fixture('cloudfront.log'), 'latin1').split('\n')[2];
    expect(parseLogLine(line)?.target).toBe('/brands/kitchen');
    const reader = new LogLineReader();
    expect(reader.read('#Fields: date time cs-uri-stem cs(User-Agent) cs-uri-query x-host-header')).toBe('header');
    expect(reader.read('2026-11-21\t10:00:00\t/a\tcurl/8.0\tx=1\tb.example')).toMatchObject({ target: '/a?x=1', userAgent: 'curl/8.0', host: 'b.example' });
  });
  it('ALB: the absolute request URL loses its default port; the host comes from it', () => {
    const [, second] = requestsOf('alb.log');
    expect(second).toEqual({
      format: 'alb', host: 'shop.example', vhost: 'shop.example', client: '203.0.113.11', time: '2026-11-21T11:01:07.186641Z', timeMs: Date.UTC(2026, 10, 21, 11, 1, 7, 186),
      method: 'GET', target: 'https://shop.example/cart?id=1', status: 200, referer: null, userAgent: 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
      forwardedFor: null,
    });
    expect(parseLogLine('http 2026-11-21T11:00:00Z app/x/1 1.2.3.4:5 - 0 0 0 200 200 1 1 "GET http://a.example:8080/p HTTP/1.1" "bot" - -')).toMatchObject({ target: 'http://a.example:8080/p', host: 'a.example' });
    // a quoted field's escapes are undone by the core's rule (a backslash quotes the next byte), as in Apache/nginx fields
    expect(parseLogLine('https 2026-11-21T11:00:00Z app/x/1 1.2.3.4:5 - 0 0 0 200 200 1 1 "GET HTTPS://a.example:443/p\\\\q?x=\\"1\\" HTTP/1.1" "bot \\"quoted\\" \\\\ end\\\\" - -')).toMatchObject({ target: 'HTTPS://a.example/p\\q?x="1"', host: 'a.example', userAgent: 'bot "quoted" \\ end\\' });
    expect(parseLogLine('https 2026-11-21T11:00:00Z app/x/1 1.2.3.4:5 - 0 0 0 200 200 1 1 "GET /p HTTP/1.1" "bot \\" - -')).toBeNull();
  });
  it('JSON: nginx escape=json keys, a request line split; GCP httpRequest.* keys; configured keys with a dotted path and epoch seconds', () => {
    expect(requestsOf('nginx.jsonl')[1]).toMatchObject({ format: 'json', host: 'shop.example', method: 'GET', target: '/cart?id=1', status: 200, timeMs: Date.UTC(2026, 10, 21, 12, 1, 7) });
    expect(requestsOf('gcp-load-balancer.jsonl')[1]).toMatchObject({ host: 'shop.example', target: 'https://shop.example/cart?id=1', client: '203.0.113.11', timeMs: Date.UTC(2026, 10, 21, 13, 1, 7) });
    const custom = requestsOf('app-custom.jsonl', { target: 'req.line', userAgent: 'req.ua', host: 'site', time: 'at' });
    expect(custom[1]).toMatchObject({ host: 'shop.example', method: 'GET', target: '/cart?id=1', timeMs: 1795266487000 });
    expect(custom.map((r) => r.target)).toEqual(PATHS);
  });
  it('JSON strings are UTF-8: an escaped é becomes its two bytes, as in every other format', () => {
    expect(parseLogLine('{"uri":"/caf\\u00e9","http_user_agent":"x"}')?.target).toBe('/caf\u00c3\u00a9');
  });
  it('what is not a request is null: other JSON, unknown # lines, a bare date line, an unclosed ALB quote', () => {
    for (const line of ['{"message":"hello"}', '[1,2]', '{"uri": ', '# a comment', '2026-11-21 10:00:00 GET /', 'https 2026-11-21T11:00:00Z app/x 1.2.3.4:5 "GET /a HTTP/1.1']) expect(parseLogLine(line)).toBeNull();
  });
  it('logTimeMs reads Apache, ISO 8601 (zone-less is UTC) and epoch times', () => {
    expect(logTimeMs('21/Nov/2026:09:00:07 +0100')).toBe(Date.UTC(2026, 10, 21, 8, 0, 7));
    expect(logTimeMs('2026-11-21T09:00:07-02:00')).toBe(Date.UTC(2026, 10, 21, 11, 0, 7));
    expect(logTimeMs('2026-11-21 09:00')).toBe(Date.UTC(2026, 10, 21, 9, 0));
    expect(logTimeMs('2026-11-21')).toBe(Date.UTC(2026, 10, 21));
    expect(logTimeMs('1795266427')).toBe(1795266427000);
    expect(logTimeMs('yesterday')).toBeNull();
  });
  it('an unknown configured field is an INVALID_ARGUMENT', () => {
    expect(() => new LogLineReader({ fields: { colour: 'x' } as never })).toThrow("unknown log field 'colour'");
  });
});

/** The request of each entry (headers, blank lines and nulls as they are). */
const requestOfEach = (lines: LogLine[]): unknown[] => lines.map((line) => (line !== null && typeof line === 'object' ? fieldsOf(line.request) : line));
/** A request's fields as a plain record (an Apache/nginx entry reads them when asked). */
const fieldsOf = (request: LogRequest): LogRequest => ({ format: request.format, host: request.host, vhost: request.vhost, client: request.client, time: request.time, timeMs: request.timeMs, method: request.method, target: request.target, status: request.status, referer: request.referer, userAgent: request.userAgent, forwardedFor: request.forwardedFor });

describe('LogLineReader.readChunk: a chunk read in bulk gives what reading it line by line gives', () => {
  /** The chunk line by line, as read() reads one line: blank lines apart, a CR ending a line dropped. */
  const byLine = (text: string): unknown[] => {
    const reader = new LogLineReader();
    const lines = text.split('\n');
    if (lines.at(-1) === '') lines.pop();
    return lines.map((line) => line.replace(/\r$/, '')).map((line) => (line === '' ? 'blank' : reader.read(line)));
  };
  it('every fixture format, mixed in one chunk with blank lines, CR LF, header lines and junk, without a final LF', () => {
    const parts = FORMATS.map(([name]) => readFileSync(fixture(name), 'latin1'));
    const text = [parts.join('\n'), '', '   ', 'not a log line', '\r', parts[0].split('\n').slice(0, 3).join('\r\n')].join('\n');
    const expected = byLine(text);
    const got = requestOfEach(new LogLineReader().readChunk(Buffer.from(text, 'latin1')));
    expect(got).toEqual(expected);
    expect(got.filter((item) => item === 'blank').length).toBeGreaterThan(1);
    expect(got.filter((item) => item === 'header').length).toBeGreaterThan(0);
    expect(got.filter((item) => item === null).length).toBeGreaterThan(1);
    expect(got.filter((item) => item !== null && typeof item === 'object').length).toBeGreaterThan(40);
  });
  it('a chunk of more than 64 KiB is read in pieces at line ends: a 100 KiB line, 5,000 Apache lines and empty lines', () => {
    const apache = '1.2.3.4 - - [10/Oct/2000:13:55:36 -0700] "GET /a?q=%22x%22 HTTP/1.1" 200 2326 "-" "Googlebot/2.1" 0.003 "5.6.7.8"';
    const lines = [...Array.from({ length: 5000 }, (_, i) => apache.replace('/a', `/a${i}`)), `1.2.3.4 - - [10/Oct/2000:13:55:36 -0700] "GET /${'x'.repeat(100_000)} HTTP/1.1" 200 1`, '', '', ...Array.from({ length: 20_000 }, () => '')];
    const text = lines.join('\n') + '\n';
    const got = requestOfEach(new LogLineReader().readChunk(Buffer.from(text, 'latin1')));
    expect(got.length).toBe(lines.length);
    expect(got).toEqual(byLine(text));
    expect((got[4999] as LogRequest).target).toBe('/a4999?q=%22x%22');
    expect((got[4999] as LogRequest).forwardedFor).toBe('5.6.7.8');
    expect((got[5000] as LogRequest).target.length).toBe(100_001);
  });
});

describe('the same requests in every format give the same answers', () => {
  for (const [name, , extra] of FORMATS) {
    it(`audit ${name}`, () => {
      const r = robotstxt(['audit', '--robots', SHOP, '--format', 'json', ...extra, fixture(name)]);
      expect(r.stderr).toBe('');
      const report = JSON.parse(r.stdout);
      expect([report.lines, report.crawlerRequests, report.otherRequests, report.malformed.count]).toEqual([10, 9, 1, 0]);
      expect(report.crawlers.map((c: { agent: string; group: string | null; category: string; requests: number; disallowed: number }) => [c.agent, c.group, c.category, c.requests, c.disallowed])).toEqual([
        ['Googlebot', '*', 'search', 3, 1],
        ['Googlebot-Image', 'Googlebot-Image', 'search', 2, 1],
        ['GPTBot', '*', 'ai-training', 1, 1],
        ['bingbot', '*', 'search', 1, 1],
        ['AdsBot-Google', null, 'other', 1, 0],
      ]);
      // a user-triggered fetcher: listed apart, never a violator
      expect(report.userTriggered.map((c: { agent: string; category: string; requests: number }) => [c.agent, c.category, c.requests])).toEqual([['ChatGPT-User', 'user-triggered', 1]]);
    });
  }
  it('check --log on all the formats in one file: input order, line numbers, the malformed line named', () => {
    const dir = tempDir();
    const mixed = join(dir, 'mixed.log');
    writeFileSync(mixed, [...FORMATS.slice(0, 5).map(([name]) => readFileSync(fixture(name), 'latin1')), 'garbage\n'].join(''));
    const r = robotstxt(['check', '--robots', SHOP, '--agent', 'Googlebot', '--log', '--format', 'jsonl', mixed]);
    const rows = r.stdout.trim().split('\n').map((line) => JSON.parse(line) as { input: number; url: string; verdict: string });
    expect(rows.length).toBe(50);
    // 10 nginx lines, 2 CloudFront header lines, 10 CloudFront, 10 ALB, 10 JSON, 10 GCP, garbage last
    expect(rows.map((row) => row.input)).toEqual([...Array.from({ length: 10 }, (_, i) => i + 1), ...Array.from({ length: 40 }, (_, i) => i + 13)]);
    const paths = rows.map((row) => row.url.replace('https://shop.example', ''));
    expect(paths).toEqual([...PATHS, ...PATHS, ...PATHS, ...PATHS, ...PATHS]);
    const verdicts = rows.slice(0, 10).map((row) => row.verdict);
    for (let i = 10; i < 50; i += 10) expect(rows.slice(i, i + 10).map((row) => row.verdict)).toEqual(verdicts);
    expect(verdicts).toEqual(['allowed', 'disallowed', 'disallowed', 'allowed', 'allowed', 'disallowed', 'disallowed', 'allowed', 'allowed', 'disallowed']);
    expect(r.stderr).toBe('robotstxt: line 53: not an access log line with a request target: skipped\nrobotstxt: 1 of 53 input lines were not access log lines\n');
  });
  it('an empty line is nothing, in every format: check --log and audit neither answer nor report it (a JSON log with empty lines, CR LF included)', () => {
    const dir = tempDir();
    const log = join(dir, 'blank.jsonl');
    writeFileSync(log, '{"uri":"/cart"}\n\n\r\n{"uri":"/brands/kitchen"}\nnot json\n\n');
    const check = robotstxt(['check', '--robots', SHOP, '--agent', 'Googlebot', '--log', log]);
    expect([check.stdout, check.stderr, check.status]).toEqual(['disallowed\t/cart\nallowed\t/brands/kitchen\n', 'robotstxt: line 5: not an access log line with a request target: skipped\nrobotstxt: 1 of 6 input lines were not access log lines\n', 0]);
    const audit = JSON.parse(robotstxt(['audit', '--robots', SHOP, '--format', 'json', log]).stdout) as { lines: number; malformed: { count: number; lines: { line: number }[] } };
    expect([audit.lines, audit.malformed.count, audit.malformed.lines.map((entry) => entry.line)]).toEqual([3, 1, [5]]);
  });
  it('check --robots-dir --log takes the host from CloudFront, ALB and JSON lines', () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'sites'));
    writeFileSync(join(dir, 'sites', 'shop.example.txt'), 'User-agent: *\nDisallow: /cart\n');
    for (const name of ['cloudfront.log', 'alb.log', 'nginx.jsonl', 'gcp-load-balancer.jsonl']) {
      const r = robotstxt(['check', '--robots-dir', join(dir, 'sites'), '--agent', 'Googlebot', '--log', '--only', 'disallowed', fixture(name)]);
      expect(r.stdout.split('\n').filter((line) => line !== '').map((url) => url.replace(/^https?:\/\/shop\.example/, ''))).toEqual(['/cart?id=1', '/cart']);
      expect(r.status).toBe(0);
    }
  });
  it('diff --log reads the formats too (with --log-field for the custom keys)', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'new.txt'), 'User-agent: *\nDisallow: /brands/\n');
    for (const [name, , extra] of FORMATS) {
      const r = robotstxt(['diff', SHOP, join(dir, 'new.txt'), '--agent', 'Googlebot', '--log', fixture(name), ...extra, '--format', 'json']);
      const report = JSON.parse(r.stdout);
      expect(report.newlyDisallowed.map((c: { url: string }) => c.url.replace('https://shop.example', ''))).toEqual(['/brands/kitchen']);
    }
  });
  it('--log-field must be name=key with a known name', () => {
    const bad: [string, string][] = [['nokey', "--log-field must be <name>=<key>, got 'nokey'"], ['colour=x', "--log-field: unknown field 'colour' (one of target, query, host, userAgent, time, method, status, client, referer, forwardedFor, signature, signatureInput, signatureAgent)"]];
    for (const [value, message] of bad) {
      const r = robotstxt(['audit', '--robots', SHOP, '--log-field', value, fixture('nginx.jsonl')]);
      expect(r.stderr).toBe(`robotstxt: ${message}\n`);
      expect(r.status).toBe(2);
    }
    const r = robotstxt(['check', '--robots', SHOP, '--agent', 'x', '--log-field', 'host=h', fixture('nginx.jsonl')]);
    expect([r.stderr, r.status]).toEqual(['robotstxt: --log-field applies only with --log\n', 2]);
  });
});

describe('URL lines: made by the core for every format, the same for audit, fetch --log and check --log', () => {
  const text = [
    'shop.example:443 1.2.3.4 - - [10/Oct/2026:13:55:36 +0000] "GET /cart\\x22?q=1 HTTP/1.1" 200 5 "-" "Googlebot/2.1"',
    '1.2.3.4 - - [10/Oct/2026:13:55:36 +0000] "GET relative HTTP/1.1" 200 5 "-" "bingbot/2.0"',
    '1.2.3.4 - - [10/Oct/2026:13:55:36 +0000] "GET https://other.example/x HTTP/1.1" 200 5 "-" "bingbot/2.0"',
    '{"uri":"/json/a","host":"json.example:8080","http_user_agent":"Googlebot"}',
    '{"uri":"/json/b","http_user_agent":"Googlebot"}',
    'http 2026-11-21T11:00:00Z app/x/1 1.2.3.4:5 - 0 0 0 200 200 1 1 "GET http://alb.example:80/p HTTP/1.1" "bot" - -',
    'not a log line',
  ].join('\n') + '\n';
  const chunk = Buffer.from(text, 'latin1');
  const urlsOf = (lines: LogLine[]): (string | null)[] => lines.map((line) => (line !== null && typeof line === 'object' ? `${line.urlHost} ${Buffer.from(line.url).toString('latin1')}` : null));
  it("with a default host: a line's own host first, then the default, an absolute target as it is; escapes undone; whose host each names", () => {
    expect(urlsOf(new LogLineReader().readChunk(chunk, { withHost: true, defaultHost: 'fallback.example' }))).toEqual([
      'line http://shop.example/cartx22?q=1',
      'default http://fallback.example/relative',
      'scheme https://other.example/x',
      'line http://json.example/json/a',
      'default http://fallback.example/json/b',
      'scheme http://alb.example/p',
      null,
    ]);
  });
  it('without a default host a relative target of a line without a host names none; without hosts every URL line is the target alone', () => {
    expect(urlsOf(new LogLineReader().readChunk(chunk)).map((line) => line?.split(' ')[0] ?? null)).toEqual(['line', 'none', 'scheme', 'line', 'none', 'scheme', null]);
    expect(urlsOf(new LogLineReader().readChunk(chunk, { withHost: false, defaultHost: null }))).toEqual(['none /cartx22?q=1', 'none relative', 'none https://other.example/x', 'none /json/a', 'none /json/b', 'none http://alb.example/p', null]);
  });
  it("check --log's bulk path (readUrlLines) makes the very same lines, in input order, and names the first without a host", () => {
    const entries = new LogLineReader().readChunk(chunk, { withHost: true, defaultHost: null });
    const bulk = new LogLineReader().readUrlLines(chunk, { firstLineNumber: 1, withHost: true, defaultHost: null, maxMalformed: 10 });
    const expected = entries.filter((line): line is LogEntry => line !== null && typeof line === 'object').map((entry) => Buffer.from(entry.url).toString('latin1') + '\n').join('');
    expect(Buffer.from(bulk.urls).toString('latin1')).toBe(expected);
    expect([...bulk.numbers]).toEqual([1, 2, 3, 4, 5, 6]);
    expect([bulk.lines, bulk.malformed, bulk.malformedLines, bulk.firstRelative]).toEqual([7, 1, [7], 1]);
    expect(new LogLineReader().readUrlLines(chunk, { firstLineNumber: 1, withHost: true, defaultHost: 'h.example', maxMalformed: 10 }).firstRelative).toBe(-1);
  });
  it('a chunk of more other-format lines than the first pass lists (5,000 JSON lines among Apache lines and junk): the same lines and numbers by both reads', () => {
    const lines: string[] = [];
    for (let i = 0; i < 6000; i++) {
      if (i % 6 === 0) lines.push(`shop.example 1.2.3.4 - - [10/Oct/2026:13:55:36 +0000] "GET /apache/${i} HTTP/1.1" 200 5 "-" "Googlebot/2.1"`);
      else if (i % 600 === 1) lines.push(`junk ${i}`);
      else lines.push(`{"uri":"/json/${i}","host":"json.example","http_user_agent":"Googlebot"}`);
    }
    const many = Buffer.from(lines.join('\n') + '\n', 'latin1');
    const entries = new LogLineReader().readChunk(many, { withHost: true, defaultHost: null });
    const bulk = new LogLineReader().readUrlLines(many, { firstLineNumber: 11, withHost: true, defaultHost: null, maxMalformed: 3 });
    const requests = entries.flatMap((line, i) => (line !== null && typeof line === 'object' ? [{ number: i + 11, url: Buffer.from(line.url).toString('latin1') }] : []));
    expect(requests.length).toBe(5990);
    expect(Buffer.from(bulk.urls).toString('latin1')).toBe(requests.map(({ url }) => `${url}\n`).join(''));
    expect([...bulk.numbers]).toEqual(requests.map(({ number }) => number));
    expect([bulk.lines, bulk.malformed, bulk.malformedLines, bulk.firstRelative]).toEqual([6000, 10, [12, 612, 1212], -1]);
    expect(Buffer.from(bulk.urls).toString('latin1').split('\n').slice(0, 3)).toEqual(['http://shop.example/apache/0', 'http://json.example/json/2', 'http://json.example/json/3']);
  });
});

describe('the two views of one chunk agree, and the chunk agrees with its lines read one by one (generated chunks)', () => {
  /** Lines of every format with hostile pieces: escapes, CR, a host or none, absolute targets with default ports, bytes >= 0x80, junk. */
  const lineOf = fc.oneof(
    fc.tuple(fc.constantFrom('', 'shop.example ', 'Shop.Example:443 ', 'b\xe9.example '), fc.constantFrom('/a', '/caf\xc3\xa9?q=\\x22', 'https://o.example:443/p', 'relative', '/x\r'), fc.constantFrom('"-" "Googlebot/2.1"', '"r" "ua \\"q\\""', '', '"-" "GPTBot" 0.1 "1.2.3.4, 5.6.7.8"'))
      .map(([vhost, target, tail]) => `${vhost}1.2.3.4 - - [10/Oct/2026:13:55:36 +0000] "GET ${target} HTTP/1.1" 200 5 ${tail}`.trimEnd()),
    fc.constantFrom('{"uri":"/json/a","host":"j.example:8080","http_user_agent":"Googlebot"}', '{"request":"GET /json/b HTTP/1.1","ua":"bingbot"}', '{"uri":"https://k.example:443/c"}', '{"message":"no target"}'),
    fc.constantFrom('#Fields: date time cs-uri-stem cs(User-Agent) cs-uri-query x-host-header', '#Version: 1.0', '2026-11-21\t10:00:00\t/w\tcurl/8.0\tx=1\tw.example', '2026-11-21\t10:00:01\t/v\tbot\t-\t-'),
    fc.constantFrom('http 2026-11-21T11:00:00Z app/x/1 1.2.3.4:5 - 0 0 0 200 200 1 1 "GET http://alb.example:80/p HTTP/1.1" "b \\"x\\"" - -', 'https 2026-11-21T11:00:00Z app/x 1.2.3.4:5 "GET /open HTTP/1.1'),
    fc.constantFrom('', '\r', '   ', 'junk', '\xff\xfe'),
  );
  it('readUrlLines gives the URL lines and numbers of readChunk\'s requests, and readChunk gives what read() gives line by line', () => {
    fc.assert(fc.property(fc.array(lineOf, { minLength: 1, maxLength: 40 }), fc.boolean(), fc.constantFrom(null, 'd.example'), (lines, withHost, defaultHost) => {
      const chunk = Buffer.from(lines.join('\n') + '\n', 'latin1');
      const entries = new LogLineReader().readChunk(chunk, { withHost, defaultHost });
      expect(entries.length).toBe(lines.length);
      const bulk = new LogLineReader().readUrlLines(chunk, { firstLineNumber: 1, withHost, defaultHost, maxMalformed: 1000 });
      const requests = entries.flatMap((line, i) => (line !== null && typeof line === 'object' ? [{ number: i + 1, line }] : []));
      expect(Buffer.from(bulk.urls).toString('latin1')).toBe(requests.map(({ line }) => `${Buffer.from(line.url).toString('latin1')}\n`).join(''));
      expect([...bulk.numbers]).toEqual(requests.map(({ number }) => number));
      expect(bulk.lines).toBe(lines.length);
      const firstRelative = requests.findIndex(({ line }) => line.urlHost === 'none');
      expect(bulk.firstRelative).toBe(firstRelative);
      // every line that is no request, header or blank is malformed, and named
      expect(bulk.malformedLines).toEqual(entries.flatMap((line, i) => (line === null ? [i + 1] : [])));
      const oneByOne = new LogLineReader();
      const expected = lines.map((text) => text.replace(/\r$/, '')).map((text) => (text === '' ? 'blank' : oneByOne.read(text)));
      expect(entries.map((line) => (line !== null && typeof line === 'object' ? fieldsOf(line.request) : line))).toEqual(expected);
    }), { numRuns: 150 });
  });
});


describe('LineReader on a regular file: read ahead while a chunk is answered, every line whole', () => {
  it('windows of any size, smaller and larger than the read ahead, give the file byte for byte in whole lines; atEnd only at the last; closing early leaves no file open', async () => {
    const { LineReader } = await import('../src/node/logs/index.js');
    const dir = tempDir();
    const file = join(dir, 'urls.txt');
    // lines of 1 to 3,000 bytes, ~3 MB: several reads ahead, a line across every kind of boundary
    const lines = Array.from({ length: 4_000 }, (_, i) => `https://h${i % 97}.test/${'p'.repeat((i * 7919) % 3_000)}`);
    const bytes = Buffer.from(lines.join('\n') + '\nlast line without LF');
    writeFileSync(file, bytes);
    const windows = [1 << 20, 4096, 70_000, 300, 2 << 20, 65_536];
    const reader = await LineReader.open(file, 'URL file');
    expect(reader.knownSize).toBe(bytes.length);
    const chunks: Buffer[] = [];
    const ends: boolean[] = [];
    for (let chunk = await reader.next(new Uint8Array(windows[0])); chunk !== null; chunk = await reader.next(new Uint8Array(windows[chunks.length % windows.length]))) {
      chunks.push(Buffer.from(chunk));
      ends.push(reader.atEnd);
    }
    expect(Buffer.concat(chunks).equals(bytes)).toBe(true);
    expect(chunks.slice(0, -1).every((chunk) => chunk[chunk.length - 1] === 0x0a)).toBe(true);
    expect(ends.indexOf(true)).toBe(ends.length - 1);
    expect(chunks.length).toBeGreaterThan(6);
    // a reader closed with a read ahead in flight: no error, and its file is closed
    const openFiles = (): number => readdirSync('/proc/self/fd').length;
    const before = openFiles();
    const early = await LineReader.open(file, 'URL file');
    expect((await early.next(new Uint8Array(4096)))?.length).toBeGreaterThan(0);
    await early.close();
    expect(openFiles()).toBe(before);
  });
});
