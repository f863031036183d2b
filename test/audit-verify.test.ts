// audit --verify: crawler claims checked against range files in the vendors' formats and a fake DNS
// resolver (no network); impostors as rows of their own in text, JSON and HTML; fetch --crawler-ranges from
// local servers; the ranking past 10,000 crawlers; status classes, robots.txt fetches and user-triggered
// fetchers on a fixture log.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { createServer, type Server } from 'node:http';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { robotstxt, robotstxtAsync, tempDir, CLI, AUDIT_GROUP_NOTE as GROUP_NOTE } from './cli-helpers.js';
import { CHROMIUM, canRun, chromiumFlags } from './browser.js';
import { parseRobots, RobotsAudit } from '../src/node/index.js';
import { verificationNotes } from '../src/node/audit.js';
import { CrawlerVerifier, CRAWLER_RANGE_SOURCES, CRAWLER_VENDORS, prefixesOfRangeFile, type DnsResolver } from '../src/node/crawler-verify.js';

const dir = tempDir();
const ranges = join(dir, 'ranges');
mkdirSync(ranges);
const googleFile = (prefixes: string[]): string => JSON.stringify({ creationTime: '2026-11-20T00:00:00.000000', prefixes: prefixes.map((p) => (p.includes(':') ? { ipv6Prefix: p } : { ipv4Prefix: p })) });
// Google's five files, Bing's and OpenAI's three, each in the vendors' layout; Anthropic's as a bare list
writeFileSync(join(ranges, 'common-crawlers.json'), googleFile(['66.249.64.0/27', '2001:4860:4801:10::/64']));
writeFileSync(join(ranges, 'special-crawlers.json'), googleFile(['66.249.90.64/27']));
writeFileSync(join(ranges, 'user-triggered-fetchers.json'), googleFile(['107.178.192.0/27']));
writeFileSync(join(ranges, 'user-triggered-fetchers-google.json'), googleFile(['74.125.208.0/27']));
writeFileSync(join(ranges, 'user-triggered-agents.json'), googleFile(['34.0.0.0/27'])); // published since 2026-03-31
writeFileSync(join(ranges, 'bingbot.json'), googleFile(['157.55.39.0/24']));
writeFileSync(join(ranges, 'gptbot.json'), googleFile(['20.171.206.0/24']));
writeFileSync(join(ranges, 'searchbot.json'), googleFile(['20.42.10.176/28']));
writeFileSync(join(ranges, 'chatgpt-user.json'), googleFile(['23.98.142.176/28']));
writeFileSync(join(ranges, 'bots.json'), JSON.stringify({ crawlers: [{ name: 'ClaudeBot', ip_ranges: ['160.79.104.0/23'] }] }));
writeFileSync(join(ranges, 'notes.json'), '{}'); // names no vendor's file: skipped with a note

const robotsFile = join(dir, 'robots.txt');
writeFileSync(robotsFile, 'User-agent: *\nDisallow: /private\n');
const GOOGLEBOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';
const BINGBOT = 'Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)';
const GPTBOT = 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)';
const CLAUDEBOT = 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ClaudeBot/1.0; +claudebot@anthropic.com)';
const YANDEX = 'Mozilla/5.0 (compatible; YandexBot/3.0; +http://yandex.com/bots)';
const entry = (ip: string, path: string, agent: string, status = 200, forwarded?: string): string =>
  `${ip} - - [21/Nov/2026:08:00:00 +0000] "GET ${path} HTTP/1.1" ${status} 10 "-" "${agent}"${forwarded === undefined ? '' : ` "${forwarded}"`}`;
const log = [
  entry('66.249.64.5', '/private/a', GOOGLEBOT), // verified
  entry('2001:4860:4801:10::1', '/private/b', GOOGLEBOT), // verified (IPv6)
  entry('66.249.90.70', '/ok', GOOGLEBOT), // verified (special crawlers' file)
  entry('203.0.113.5', '/private/c', GOOGLEBOT, 403), // impostor, refused
  entry('203.0.113.5', '/private/d', GOOGLEBOT), // impostor, served
  entry('157.55.39.9', '/private/e', BINGBOT), // verified
  entry('198.51.100.1', '/private/f', BINGBOT, 404), // impostor
  entry('20.171.206.1', '/ok', GPTBOT), // verified
  entry('192.0.2.1', '/private/g', GPTBOT), // impostor
  entry('160.79.104.9', '/ok', CLAUDEBOT), // verified by Anthropic's list
  entry('192.0.2.2', '/ok', CLAUDEBOT), // impostor
  entry('192.0.2.3', '/private/h', YANDEX, 301), // no ranges published: unknown (DNS only)
  entry('-', '/ok', GOOGLEBOT), // no address: unknown
].join('\n') + '\n';
const logFile = join(dir, 'verify.log');
writeFileSync(logFile, log);

// the HTML assertions read the page as Chromium renders it; without Chromium, as written (and under CI=true, a test fails)
canRun(CHROMIUM !== null, 'rendering the audit pages in Chromium', 'apt-get install chromium (.ci/run installs it)');
let profiles = 0;
/** An HTML report as headless Chromium renders it (its DOM), or as written when Chromium is absent. */
function renderedPage(html: string): string {
  // without Chromium: the file's text as a DOM serialises it (text escapes only &, < and >; a numeric reference is its character)
  if (CHROMIUM === null) return readFileSync(html, 'utf8').replace(/&#(\d+);|&quot;/g, (reference, code?: string) => {
    const char = code === undefined ? '"' : String.fromCodePoint(Number(code));
    return char === '&' ? '&amp;' : char === '<' ? '&lt;' : char === '>' ? '&gt;' : char;
  });
  const flags = chromiumFlags(join(dir, `chromium-profile-${profiles++}`));
  return spawnSync(CHROMIUM, [...flags, '--dump-dom', `file://${html}`], { encoding: 'utf8', timeout: 60_000 }).stdout;
}

interface Row { agent: string; impostor: boolean; requests: number; disallowed: number; verification: { verified: number; failed: number; unknown: number } | null; disallowedByStatus: Record<string, number> }
const rowsOf = (report: { crawlers: Row[] }): [string, boolean, number, number, string][] =>
  report.crawlers.map((c) => [c.agent, c.impostor, c.requests, c.disallowed, c.verification === null ? '-' : `${c.verification.verified}/${c.verification.failed}/${c.verification.unknown}`]);

describe('audit --verify by the vendors\' IP ranges', () => {
  it('gives exact verified, failed and unknown counts per crawler; impostors are rows of their own (JSON)', () => {
    const r = robotstxt(['audit', '--robots', robotsFile, '--verify', '--crawler-ranges', ranges, '--format', 'json', logFile]);
    expect(r.stderr).toBe(`robotstxt: ${join(ranges, 'notes.json')}: names no vendor's range file: skipped (name it <vendor or file>=<path> to read it)\n`);
    const report = JSON.parse(r.stdout);
    expect(report.verification).toEqual({ verified: 6, failed: 5, unknown: 2 });
    expect(rowsOf(report)).toEqual([
      ['Googlebot', false, 4, 2, '3/0/1'],
      ['Googlebot', true, 2, 2, '0/2/0'],
      ['GPTBot', true, 1, 1, '0/1/0'],
      ['YandexBot', false, 1, 1, '0/0/1'],
      ['bingbot', false, 1, 1, '1/0/0'],
      ['bingbot', true, 1, 1, '0/1/0'],
      ['ClaudeBot', false, 1, 0, '1/0/0'],
      ['ClaudeBot', true, 1, 0, '0/1/0'],
      ['GPTBot', false, 1, 0, '1/0/0'],
    ]);
    const impostor = report.crawlers.find((c: Row) => c.agent === 'Googlebot' && c.impostor);
    expect(impostor.disallowedByStatus).toEqual({ '2xx': 1, '3xx': 0, '4xx': 1, '5xx': 0, other: 0 });
    expect(impostor.vendor).toBe('google');
  });
  it('the table: a verification line, a verified/failed/unknown column, (impostor) rows', () => {
    const r = robotstxt(['audit', '--robots', robotsFile, '--verify', '--crawler-ranges', ranges, '--top', '4', logFile]);
    expect(r.stdout).toBe([
      '13 log lines: 13 crawler requests (8 disallowed, 5 allowed, 0 no rules known), 0 other requests, 0 malformed',
      'verification: 6 verified, 5 failed (impostors), 2 unknown; impostors are rows of their own',
      'crawler                                group  category     requests  disallowed   share  2xx/3xx/4xx/5xx  robots.txt  verified/failed/unknown  top rule             top disallowed path',
      'Googlebot                              *      search              4           2   50.0%  2/0/0/0                   0  3/0/1                    line 2 /private (2)  /private/a (1)',
      'Googlebot (impostor)                   *      search              2           2  100.0%  1/0/1/0                   0  0/2/0                    line 2 /private (2)  /private/c (1)',
      'GPTBot (impostor)                      *      ai-training         1           1  100.0%  1/0/0/0                   0  0/1/0                    line 2 /private (1)  /private/g (1)',
      'YandexBot                              *      search              1           1  100.0%  0/1/0/0                   0  0/0/1                    line 2 /private (1)  /private/h (1)',
      '5 more crawler(s) (--top 0 lists all)                             5           2   40.0%',
      GROUP_NOTE,
    ].join('\n') + '\n');
  });
  it('the HTML page shows the counts and marks impostors (in headless Chromium when present)', () => {
    const html = join(dir, 'verify.html');
    const r = robotstxt(['audit', '--robots', robotsFile, '--verify', '--crawler-ranges', ranges, '--format', 'html', '--output', html, logFile]);
    expect(r.status).toBe(0);
    const page = renderedPage(html);
    expect(page).toContain('<span class="verification">6 verified, 5 failed (impostors), 2 unknown</span>');
    expect(page).toContain('<tr class="impostor"><td>Googlebot (impostor)</td><td>*</td><td>search</td><td>2</td><td>2</td><td>1 / 0 / 1 / 0</td><td>0</td><td>0 / 2 / 0</td>');
    expect(page).toContain('<tr><td>Googlebot</td><td>*</td><td>search</td><td>4</td><td>2</td><td>2 / 0 / 0 / 0</td><td>0</td><td>3 / 0 / 1</td>');
  });
  it('a vendor with some of its files missing: addresses outside them are unknown, not impostors', () => {
    const only = join(dir, 'only-gptbot');
    mkdirSync(only);
    writeFileSync(join(only, 'gptbot.json'), googleFile(['20.171.206.0/24']));
    const report = JSON.parse(robotstxt(['audit', '--robots', robotsFile, '--verify', '--crawler-ranges', only, '--format', 'json', '--top', '0', logFile]).stdout);
    expect(report.verification).toEqual({ verified: 1, failed: 0, unknown: 12 });
  });
  it('range files as published: Google\'s former googlebot.json counts as its common crawlers\' file; <name>=<file> names a file saved otherwise', () => {
    const published = join(dir, 'as-published');
    mkdirSync(published);
    writeFileSync(join(published, 'googlebot.json'), googleFile(['66.249.64.0/27', '2001:4860:4801:10::/64'])); // the name on "Verifying Googlebot" for years
    for (const name of ['special-crawlers.json', 'user-triggered-fetchers.json', 'user-triggered-fetchers-google.json', 'user-triggered-agents.json']) writeFileSync(join(published, name), googleFile(['192.0.2.128/28']));
    const googleOnly = join(dir, 'google-only.log');
    writeFileSync(googleOnly, [entry('66.249.64.5', '/private/a', GOOGLEBOT), entry('2001:4860:4801:10::1', '/ok', GOOGLEBOT), entry('203.0.113.5', '/private/c', GOOGLEBOT), entry('203.0.113.6', '/ok', GOOGLEBOT)].join('\n') + '\n');
    const report = JSON.parse(robotstxt(['audit', '--robots', robotsFile, '--verify', '--crawler-ranges', published, '--format', 'json', googleOnly]).stdout);
    expect(report.verification).toEqual({ verified: 2, failed: 2, unknown: 0 });
    expect(rowsOf(report)).toEqual([['Googlebot', false, 2, 1, '2/0/0'], ['Googlebot', true, 2, 1, '0/2/0']]);
    expect(report.verifiedBy.vendors).toEqual([{ vendor: 'google', name: 'Google', files: ['googlebot.json', 'special-crawlers.json', 'user-triggered-agents.json', 'user-triggered-fetchers-google.json', 'user-triggered-fetchers.json'].map((name) => join(published, name)), missing: [], requests: 4, unknownMissingFiles: 0 }]);
    // the same files under names of the user's: each named by what it is
    const saved = join(dir, 'saved-otherwise');
    mkdirSync(saved);
    const args = ['googlebot.json', 'special-crawlers.json', 'user-triggered-fetchers.json', 'user-triggered-fetchers-google.json', 'user-triggered-agents.json'].flatMap((name, i) => {
      writeFileSync(join(saved, `download-${i}.txt`), readFileSync(join(published, name)));
      return ['--crawler-ranges', `${i === 1 ? 'google-special-crawlers' : name}=${join(saved, `download-${i}.txt`)}`];
    });
    expect(JSON.parse(robotstxt(['audit', '--robots', robotsFile, '--verify', ...args, '--format', 'json', googleOnly]).stdout).verification).toEqual({ verified: 2, failed: 2, unknown: 0 });
    expect(robotstxt(['audit', '--robots', robotsFile, '--verify', '--crawler-ranges', `nobody=${join(saved, 'download-0.txt')}`, googleOnly]).stderr).toBe(`robotstxt: nobody=${join(saved, 'download-0.txt')}: 'nobody' names no vendor or range file (vendors: google, bing, openai, anthropic, perplexity, apple, commoncrawl; files: ${CRAWLER_RANGE_SOURCES.map((source) => new URL(source.url).pathname.split('/').pop()).join(', ')})\n`);
  });
  it('a vendor with one of several files is named as incomplete, with what is unknown because of it, in text, JSON and HTML', () => {
    const one = join(dir, 'google-one');
    mkdirSync(one);
    writeFileSync(join(one, 'common-crawlers.json'), googleFile(['66.249.64.0/27']));
    const args = ['audit', '--robots', robotsFile, '--verify', '--crawler-ranges', one];
    const note = `Google's range files are incomplete (read common-crawlers.json); missing special-crawlers.json, user-triggered-fetchers.json, user-triggered-fetchers-google.json, user-triggered-agents.json: 4 of its 6 request(s) unknown, not told from impostors (get the files with robotstxt fetch --crawler-ranges --store <dir>, or offline download them from the vendor and pass --crawler-ranges <dir>)`;
    const text = robotstxt([...args, logFile]).stdout;
    expect(text.split('\n'), text).toContain(`verification: ${note}`);
    const report = JSON.parse(robotstxt([...args, '--format', 'json', logFile]).stdout);
    expect(report.verifiedBy.vendors.find((v: { vendor: string }) => v.vendor === 'google')).toEqual({ vendor: 'google', name: 'Google', files: [join(one, 'common-crawlers.json')], missing: ['special-crawlers.json', 'user-triggered-fetchers.json', 'user-triggered-fetchers-google.json', 'user-triggered-agents.json'], requests: 6, unknownMissingFiles: 4 });
    const html = join(dir, 'google-one.html');
    robotstxt([...args, '--format', 'html', '--output', html, logFile]);
    expect(renderedPage(html)).toContain(note.replaceAll('<', '&lt;').replaceAll('>', '&gt;'));
  });
  it('JAFAR files: a later major formatVersion is refused; per-prefix services, the most specific prefix\'s counted', () => {
    const jafar = join(dir, 'jafar');
    mkdirSync(jafar);
    writeFileSync(join(jafar, 'gptbot.json'), JSON.stringify({ formatVersion: '2.0', creationTime: '2026-11-20T00:00:00Z', prefixes: [{ ipv4Prefix: '20.171.206.0/24' }] }));
    expect(robotstxt(['audit', '--robots', robotsFile, '--verify', '--crawler-ranges', join(jafar, 'gptbot.json'), logFile]).stderr).toBe(`robotstxt: ${join(jafar, 'gptbot.json')}: format version "2.0" is not one this reader knows (JAFAR 1.x): not read\n`);
    writeFileSync(join(jafar, 'gptbot.json'), JSON.stringify({ formatVersion: '1.1', creationTime: '2026-11-20T00:00:00Z', prefixes: [
      { ipv4Prefix: '20.171.0.0/16', services: ['OpenAI-Generic'] },
      { ipv4Prefix: '20.171.206.0/24', services: ['GPTBot'] },
      { ipv4Prefix: '20.171.206.0/28', ipv6Prefix: '2001:db8::/32' }, // both: ignored
    ] }));
    const log = join(dir, 'jafar.log');
    writeFileSync(log, [entry('20.171.206.1', '/ok', GPTBOT), entry('20.171.206.2', '/ok', GPTBOT), entry('20.171.9.9', '/ok', GPTBOT)].join('\n') + '\n');
    const report = JSON.parse(robotstxt(['audit', '--robots', robotsFile, '--verify', '--crawler-ranges', `openai=${join(jafar, 'gptbot.json')}`, '--format', 'json', log]).stdout);
    expect(report.crawlers.map((c: Row & { verifiedServices: unknown }) => [c.agent, c.verification, c.verifiedServices])).toEqual([['GPTBot', { verified: 3, failed: 0, unknown: 0 }, { GPTBot: 2, 'OpenAI-Generic': 1 }]]);
  });
  it('--client-ip forwarded verifies the last X-Forwarded-For address', () => {
    const proxied = join(dir, 'proxied.log');
    writeFileSync(proxied, [
      entry('10.0.0.1', '/private/x', GOOGLEBOT, 200, '203.0.113.77, 66.249.64.9'), // the proxy saw Google's address
      entry('10.0.0.1', '/private/y', GOOGLEBOT, 200, '66.249.64.9, 203.0.113.77'), // a forged first address
    ].join('\n') + '\n');
    const rows = (clientIp: string): unknown => rowsOf(JSON.parse(robotstxt(['audit', '--robots', robotsFile, '--verify', '--crawler-ranges', ranges, '--client-ip', clientIp, '--format', 'json', proxied]).stdout));
    expect(rows('forwarded')).toEqual([['Googlebot', false, 1, 1, '1/0/0'], ['Googlebot', true, 1, 1, '0/1/0']]);
    expect(rows('remote')).toEqual([['Googlebot', true, 2, 2, '0/2/0']]);
  });
  it('usage errors: exit 2 with the reason', () => {
    const cases: [string[], string][] = [
      [['--verify=maybe'], "--verify must be ranges or dns, got 'maybe'"],
      [['--verify'], "--verify needs the vendors' IP ranges: --crawler-ranges <file|dir>, or --store <dir> filled by robotstxt fetch --crawler-ranges --store <dir>; or --verify dns"],
      [['--crawler-ranges', ranges], '--crawler-ranges applies only with --verify'],
      [['--verify', '--crawler-ranges', ranges, '--client-ip', 'x'], "--client-ip must be remote or forwarded, got 'x'"],
      [['--verify', '--crawler-ranges', join(dir, 'nope.json')], `cannot read crawler ranges ${join(dir, 'nope.json')}: ENOENT`],
      [['--verify', '--crawler-ranges', robotsFile], `${robotsFile}: the file name names no vendor's range file (expected a published name such as common-crawlers.json, special-crawlers.json, user-triggered-fetchers.json, user-triggered-fetchers-google.json, ..., an id such as google-common-crawlers.json, or <vendor or file>=<path>)`],
    ];
    for (const [args, message] of cases) {
      const r = robotstxt(['audit', '--robots', robotsFile, ...args, logFile]);
      expect([r.stderr, r.status, r.stdout]).toEqual([`robotstxt: ${message}\n`, 2, '']);
    }
    const broken = join(dir, 'broken');
    mkdirSync(broken);
    writeFileSync(join(broken, 'bingbot.json'), '{"prefixes": [');
    const r = robotstxt(['audit', '--robots', robotsFile, '--verify', '--crawler-ranges', broken, logFile]);
    expect(r.stderr).toMatch(new RegExp(`^robotstxt: ${join(broken, 'bingbot.json').replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}: not JSON \\(`));
    expect(r.status).toBe(2);
  });
  it('range files: the vendors\' layout, other layouts by their CIDR strings, nothing else', () => {
    expect(prefixesOfRangeFile(googleFile(['1.2.3.0/24', '2001:db8::/32']), 'x')).toEqual(['1.2.3.0/24', '2001:db8::/32']);
    expect(prefixesOfRangeFile('{"a": {"b": ["10.0.0.0/8", "not a prefix", "10.0.0.1"]}}', 'x')).toEqual(['10.0.0.0/8']);
    expect(() => prefixesOfRangeFile('{"prefixes": []}', 'f.json')).toThrow('f.json: no IP prefix in it');
    // prefixes that do not start on their boundary, /0, /32, and an IPv4-mapped IPv6 prefix
    const folder = join(dir, 'edge-ranges');
    mkdirSync(folder);
    writeFileSync(join(folder, 'bingbot.json'), googleFile(['10.1.2.3/24', '198.51.100.7/32', '::ffff:192.0.2.0/120']));
    const verifier = new CrawlerVerifier({ rangeFiles: [folder] });
    const bing = CRAWLER_VENDORS.find((vendor) => vendor.id === 'bing') ?? null;
    expect(['10.1.2.0', '10.1.2.255', '10.1.3.0', '198.51.100.7', '198.51.100.8', '192.0.2.200', '::ffff:192.0.2.9', '[::ffff:10.1.2.9]', 'nonsense'].map((ip) => verifier.classify(bing, ip)))
      .toEqual(['verified', 'verified', 'failed', 'verified', 'failed', 'verified', 'verified', 'verified', 'unknown']);
    const everything = new CrawlerVerifier({ rangeFiles: [join(folder, 'bingbot.json')] });
    writeFileSync(join(folder, 'bingbot.json'), googleFile(['0.0.0.0/0']));
    expect(new CrawlerVerifier({ rangeFiles: [folder] }).classify(bing, '255.255.255.255')).toBe('verified');
    expect(everything.classify(bing, '255.255.255.255')).toBe('failed');
  });
});

describe('range files are read bounded', () => {
  it('/dev/zero, a FIFO and a 2 GB file as a range file are refused within a second, naming the file, with small memory; a signal is never needed', () => {
    const fifo = join(dir, 'fifo-ranges');
    mkdirSync(fifo, { recursive: true });
    spawnSync('mkfifo', [join(fifo, 'gptbot.json')]);
    const links = join(dir, 'zero-ranges');
    mkdirSync(links, { recursive: true });
    spawnSync('ln', ['-sf', '/dev/zero', join(links, 'gptbot.json')]);
    const huge = join(dir, 'huge-ranges');
    mkdirSync(huge, { recursive: true });
    writeFileSync(join(huge, 'gptbot.json'), '');
    spawnSync('truncate', ['-s', '2G', join(huge, 'gptbot.json')]);
    const cases: [string, string][] = [
      [join(fifo, 'gptbot.json'), 'not a regular file (a pipe, a device or a socket)'],
      [fifo, 'not a regular file (a pipe, a device or a socket)'],
      [join(links, 'gptbot.json'), 'not a regular file (a pipe, a device or a socket)'],
      [join(huge, 'gptbot.json'), '2147483648 bytes, more than the 8388608 a crawler range file may have'],
    ];
    for (const [path, reason] of cases) {
      // a pipe read would wait for a writer forever (killed at the timeout: no status); a 2 GB file read, past the peak below
      const run = spawnSync('/usr/bin/time', ['-f', 'peak-kib %M', process.execPath, CLI, 'audit', '--robots', robotsFile, '--verify', '--crawler-ranges', path, logFile], { encoding: 'utf8', timeout: 60_000 });
      expect(run.status).toBe(2);
      const file = path.endsWith('.json') ? path : join(path, 'gptbot.json');
      expect(run.stderr.split('\n')[0]).toBe(`robotstxt: cannot read crawler range file '${file}': ${reason}`);
      expect(Number(/peak-kib (\d+)/.exec(run.stderr)?.[1])).toBeLessThan(150 * 1024);
    }
  });
});

describe('audit --verify dns (a fake resolver: no network)', () => {
  // a working resolver knows the probe address (a Googlebot address: its PTR resolves back to it), as real ones do
  const resolver = (ptr: Record<string, string[] | Error>, forward: Record<string, string[]>): DnsResolver => {
    const names: Record<string, string[] | Error> = { '66.249.66.1': ['crawl-66-249-66-1.googlebot.com.'], ...ptr };
    const addresses: Record<string, string[]> = { 'crawl-66-249-66-1.googlebot.com': ['66.249.66.1'], ...forward };
    return {
      reverse: async (address) => { const found = names[address]; if (found instanceof Error) throw found; if (found === undefined) throw Object.assign(new Error('none'), { code: 'ENOTFOUND' }); return found; },
      lookup: async (name) => addresses[name] ?? [],
    };
  };
  it('forward-confirmed reverse DNS: verified, failed (another owner, a name that does not resolve back, no PTR), unknown (DNS error)', async () => {
    const verifier = new CrawlerVerifier({
      dns: true,
      rangeFiles: [join(ranges, 'common-crawlers.json')],
      resolver: resolver({
        '5.255.253.1': ['spider-5-255-253-1.yandex.com.'],
        '5.255.253.2': ['spider.evil.example'],
        '5.255.253.3': ['spider-5-255-253-3.yandex.com'],
        '5.255.253.5': Object.assign(new Error('timeout'), { code: 'ETIMEOUT' }),
        '66.249.77.1': ['crawl-66-249-77-1.googlebot.com'],
      }, { 'spider-5-255-253-1.yandex.com': ['5.255.253.1'], 'spider-5-255-253-3.yandex.com': ['9.9.9.9'], 'crawl-66-249-77-1.googlebot.com': ['66.249.77.1'] }),
    });
    const audit = new RobotsAudit(() => parseRobots('User-agent: *\nDisallow: /p\n'), { verifier });
    await audit.addLines([
      entry('5.255.253.1', '/p', YANDEX), entry('5.255.253.2', '/p', YANDEX), entry('5.255.253.3', '/p', YANDEX),
      entry('5.255.253.4', '/p', YANDEX), entry('5.255.253.5', '/p', YANDEX),
      entry('66.249.64.1', '/p', GOOGLEBOT), // in the ranges: no lookup needed
      entry('66.249.77.1', '/p', GOOGLEBOT), // outside the (partial) ranges, confirmed by DNS
      entry('192.0.2.9', '/p', GPTBOT), // OpenAI documents no DNS names, and no OpenAI file was given: unknown
    ], 1);
    const report = audit.report();
    expect(report.verification).toEqual({ verified: 3, failed: 3, unknown: 2 });
    expect(report.crawlers.map((c) => [c.agent, c.impostor, c.verification])).toEqual([
      ['YandexBot', true, { verified: 0, failed: 3, unknown: 0 }],
      ['Googlebot', false, { verified: 2, failed: 0, unknown: 0 }],
      ['YandexBot', false, { verified: 1, failed: 0, unknown: 1 }],
      ['GPTBot', false, { verified: 0, failed: 0, unknown: 1 }],
    ]);
    expect(report.verifiedBy?.dns).toEqual({ problem: null, unknown: 0 });
  });
  const claims = [
    entry('5.255.253.1', '/p', YANDEX), entry('5.255.253.4', '/p', YANDEX), // DNS only (Yandex publishes no ranges)
    entry('66.249.64.1', '/p', GOOGLEBOT), // in Google's ranges
    entry('66.249.77.1', '/p', GOOGLEBOT), // outside the one Google file read: DNS would have told
    entry('157.55.39.9', '/p', BINGBOT), entry('198.51.100.1', '/p', BINGBOT), // Bing: its one file read, so an address outside is failed
  ];
  it('a resolver that fails everything (NXDOMAIN for all, offline, a sandbox): its check fails, every DNS-only answer is unknown, and the report says why', async () => {
    const nxdomain: DnsResolver = { reverse: async () => { throw Object.assign(new Error('queryPtr ENOTFOUND'), { code: 'ENOTFOUND' }); }, lookup: async () => { throw Object.assign(new Error('ENOTFOUND'), { code: 'ENOTFOUND' }); } };
    const verifier = new CrawlerVerifier({ dns: true, rangeFiles: [join(ranges, 'common-crawlers.json'), join(ranges, 'bingbot.json')], resolver: nxdomain });
    const audit = new RobotsAudit(() => parseRobots('User-agent: *\nDisallow: /p\n'), { verifier });
    await audit.addLines(claims, 1);
    const report = audit.report();
    // before the check: 5.255.253.* failed (no PTR) and 66.249.77.1 failed; now unknown, not impostors
    expect(report.verification).toEqual({ verified: 2, failed: 1, unknown: 3 });
    expect(report.crawlers.filter((c) => c.impostor).map((c) => c.agent)).toEqual(['bingbot']);
    const problem = 'the resolver could not give the name of 66.249.66.1, a known crawler address (ENOTFOUND)';
    expect(report.verifiedBy?.dns).toEqual({ problem, unknown: 3 });
    expect(verificationNotes(report.verifiedBy)).toContain(`DNS answers not believed: ${problem}; 3 request(s) that DNS alone would have told are unknown`);
  });
  it('a working fake resolver: the verified and failed counts are exact; another probe address can be named', async () => {
    const working = resolver({ '5.255.253.1': ['spider-5-255-253-1.yandex.com'], '66.249.77.1': ['crawl-66-249-77-1.googlebot.com'], '203.0.113.9': ['probe.example'] }, { 'spider-5-255-253-1.yandex.com': ['5.255.253.1'], 'crawl-66-249-77-1.googlebot.com': ['66.249.77.1'], 'probe.example': ['203.0.113.9'] });
    for (const dnsProbe of [undefined, '203.0.113.9']) {
      const verifier = new CrawlerVerifier({ dns: true, rangeFiles: [join(ranges, 'common-crawlers.json'), join(ranges, 'bingbot.json')], resolver: working, dnsProbe });
      const audit = new RobotsAudit(() => parseRobots('User-agent: *\nDisallow: /p\n'), { verifier });
      await audit.addLines(claims, 1);
      const report = audit.report();
      expect(report.verification).toEqual({ verified: 4, failed: 2, unknown: 0 });
      expect(report.verifiedBy?.dns).toEqual({ problem: null, unknown: 0 });
    }
    expect(() => new CrawlerVerifier({ dns: true, dnsProbe: 'not-an-address' })).toThrow('dnsProbe must be an IP address, got "not-an-address"');
  });
});

describe('robotstxt fetch --crawler-ranges (local servers)', () => {
  let server: Server;
  let base = '';
  const served = new Map<string, { status: number; body: string }>();
  let requests = 0;
  beforeAll(async () => {
    server = createServer((request, response) => {
      requests++;
      const file = served.get(request.url ?? '') ?? { status: 404, body: 'not found' };
      response.writeHead(file.status, { 'content-type': 'application/json' }).end(file.body);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address() as { port: number };
    base = `http://127.0.0.1:${address.port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('fills the store (every file of the table), keeps fresh files, reports a failure and exits 1 when nothing is kept', async () => {
    for (const source of CRAWLER_RANGE_SOURCES) served.set(`/${source.id}.json`, { status: 200, body: googleFile(['192.0.2.0/24', '2001:db8::/32']) });
    served.set('/anthropic-bots.json', { status: 503, body: 'busy' });
    const store = join(tempDir(), 'store');
    const args = ['fetch', '--crawler-ranges', '--store', store, ...CRAWLER_RANGE_SOURCES.flatMap((source) => ['--ranges-url', `${source.id}=${base}/${source.id}.json`])];
    const first = await robotstxtAsync(args);
    expect(first.stdout.split('\n').filter((line) => line !== '')).toEqual(CRAWLER_RANGE_SOURCES.map((source) => (source.id === 'anthropic-bots'
      ? 'failed\tanthropic-bots\tfetched\t503 0 prefixes (HTTP 503)'
      : `ok\t${source.id}\tfetched\t200 2 prefixes`)));
    expect(first.stderr).toBe(`robotstxt fetch: ${CRAWLER_RANGE_SOURCES.length} crawler range files: ${CRAWLER_RANGE_SOURCES.length - 1} fetched, 0 fresh in the store, 1 failed\n`);
    expect(first.status).toBe(1);
    expect(JSON.parse(readFileSync(join(store, 'crawler-ranges', 'bingbot.json'), 'utf8')).prefixes).toHaveLength(2);
    // the second run: fresh files are not fetched again; the one that failed is, and now works
    served.set('/anthropic-bots.json', { status: 200, body: JSON.stringify(['160.79.104.0/23']) });
    const before = requests;
    const second = await robotstxtAsync(args);
    expect(requests - before).toBe(1);
    expect(second.stdout).toContain('ok\tanthropic-bots\tfetched\t200 1 prefixes\n');
    expect(second.stdout).toContain('ok\tbingbot\tfresh\t200 2 prefixes\n');
    expect(second.status).toBe(0);
    // audit --store <dir> --verify reads them from there
    const report = JSON.parse(robotstxt(['audit', '--store', store, '--host', 'shop.example', '--verify', '--format', 'json', '--top', '0', logFile]).stdout);
    // the served files hold 192.0.2.0/24 (GPTBot's 192.0.2.1) and Anthropic's now 160.79.104.0/23 (ClaudeBot's 160.79.104.9)
    expect(report.verification).toEqual({ verified: 2, failed: 9, unknown: 2 });
    const bad = robotstxt(['fetch', '--crawler-ranges', '--store', store, '--ranges-url', `nope=${base}/x.json`]);
    expect([bad.stderr, bad.status]).toEqual([`robotstxt: --ranges-url: no crawler range file is named 'nope' (expected one of ${CRAWLER_RANGE_SOURCES.map((s) => s.id).join(', ')})\n`, 2]);
  });
});

describe('the ranking past 10,000 crawlers, status classes, robots.txt fetches, user-triggered fetchers', () => {
  it('10,001 one-request bots, then a crawler with 5,000 disallowed requests: first in the default table and in --top 5', { tags: ['slow'] }, () => {
    const lines: string[] = [];
    for (let i = 0; i < 10_001; i++) lines.push(entry('192.0.2.1', '/ok', `Mozilla/5.0 (compatible; Bot${i}x/1.0; +http://bots.example/${i})`));
    for (let i = 0; i < 5_000; i++) lines.push(entry('192.0.2.2', `/private/${i % 50}`, GOOGLEBOT));
    const many = join(dir, 'many.log');
    writeFileSync(many, lines.join('\n') + '\n');
    for (const top of [[], ['--top', '5']]) {
      const report = JSON.parse(robotstxt(['audit', '--robots', robotsFile, '--format', 'json', ...top, many]).stdout);
      expect(report.crawlers[0]).toMatchObject({ agent: 'Googlebot', requests: 5000, disallowed: 5000, disallowedUpTo: 5000 });
      expect(report.crawlers).toHaveLength(top.length === 0 ? 20 : 5);
      expect(report.disallowed).toBe(5000);
      // every request accounted for: shown + more + dropped from tracking
      expect(report.crawlers.reduce((sum: number, c: Row) => sum + c.requests, 0) + report.moreCrawlers.requests + report.untracked.requests).toBe(15_001);
    }
  });
  it('tracked crawlers stay bounded; a dropped crawler that comes back says how many it may have missed', { tags: ['slow'] }, () => {
    const audit = new RobotsAudit(() => parseRobots('User-agent: *\nDisallow: /x\n'));
    const add = (agent: string, path: string): void => audit.addLine(entry('192.0.2.1', path, agent), 1);
    add('Mozilla/5.0 (compatible; EarlyBot/1.0)', '/ok'); // no disallowed request: dropped first
    for (let i = 0; i < 40_000; i++) add(`Mozilla/5.0 (compatible; B${i}bot/1.0)`, '/x');
    add('Mozilla/5.0 (compatible; EarlyBot/1.0)', '/x');
    const report = audit.report();
    expect(report.crawlers.length).toBeLessThanOrEqual(20_000);
    expect(report.untracked.crawlers).toBeGreaterThanOrEqual(20_000);
    expect(report.disallowed).toBe(40_001);
    expect(report.crawlers.reduce((sum, c) => sum + c.requests, 0) + report.untracked.requests).toBe(40_002);
    const early = report.crawlers.find((c) => c.agent === 'EarlyBot');
    expect(early).toMatchObject({ requests: 1, disallowed: 1 });
    expect(early?.disallowedUpTo).toBeGreaterThan(1); // it may have had more while it was not tracked
  });
  it('the examples log: status classes, robots.txt fetches and a user-triggered fetcher apart', () => {
    const report = JSON.parse(robotstxt(['audit', '--robots', 'examples/shop-robots.txt', '--verify', '--crawler-ranges', 'examples/crawler-ranges', '--format', 'json', 'examples/logs/bots.log']).stdout);
    const byName = (c: Row & { robotsTxtFetches: number }): string => `${c.agent}${c.impostor ? ' (impostor)' : ''}`;
    expect(Object.fromEntries(report.crawlers.map((c: Row & { robotsTxtFetches: number }) => [byName(c), [c.disallowedByStatus['2xx'], c.disallowedByStatus['3xx'], c.disallowedByStatus['4xx'], c.disallowedByStatus['5xx'], c.robotsTxtFetches]]))).toEqual({
      'Googlebot (impostor)': [2, 0, 1, 0, 0],
      'Googlebot': [1, 0, 0, 0, 1],
      'bingbot': [1, 0, 0, 0, 1],
      'GPTBot (impostor)': [1, 0, 0, 0, 0],
      'YandexBot': [0, 1, 0, 0, 0],
      'bingbot (impostor)': [0, 0, 1, 0, 0],
      'GPTBot': [0, 0, 0, 0, 0],
    });
    expect(report.userTriggered.map((c: Row & { category: string }) => [c.agent, c.category, c.requests, c.disallowed, c.verification])).toEqual([['ChatGPT-User', 'user-triggered', 1, 1, { verified: 1, failed: 0, unknown: 0 }]]);
    expect(report.disallowed).toBe(8); // ChatGPT-User's request of /cart is not a violation
  });
});

describe('audit with one robots.txt per host: rules name their file, group labels agree in text, JSON and HTML', () => {
  const sites = join(dir, 'sites');
  mkdirSync(sites);
  writeFileSync(join(sites, 'a.example.txt'), 'User-agent: Googlebot\nDisallow: /g\n\nUser-agent: *\nDisallow: /\n');
  writeFileSync(join(sites, 'b.example.txt'), 'User-agent: *\nDisallow: /b\n');
  const IMAGE = 'Googlebot-Image/1.0';
  const vhost = (host: string, path: string, agent: string): string => `${host}:80 192.0.2.1 - - [21/Nov/2026:08:00:00 +0000] "GET ${path} HTTP/1.1" 200 10 "-" "${agent}"`;
  const hostsLog = join(dir, 'vhosts.log');
  writeFileSync(hostsLog, [vhost('a.example', '/g/1', IMAGE), vhost('a.example', '/g/2', IMAGE), vhost('b.example', '/b/1', IMAGE), vhost('b.example', '/b/2', GOOGLEBOT)].join('\n') + '\n');

  it('one row per crawler: a group that differs by host says so; each rule names its host', () => {
    const report = JSON.parse(robotstxt(['audit', '--robots-dir', sites, '--format', 'json', hostsLog]).stdout);
    expect(report.crawlers.map((c: { agent: string; groupLabel: string; rules: unknown[] }) => [c.agent, c.groupLabel, c.rules])).toEqual([
      ['Googlebot-Image', 'differs by host', [{ file: 'a.example', line: 2, pattern: '/g', requests: 2 }, { file: 'b.example', line: 2, pattern: '/b', requests: 1 }]],
      ['Googlebot', '*', [{ file: 'b.example', line: 2, pattern: '/b', requests: 1 }]],
    ]);
  });
  it('--by host: a row per host and crawler, the same labels in the table, JSON and the HTML page (Chromium)', () => {
    const table = robotstxt(['audit', '--robots-dir', sites, '--by', 'host', hostsLog]);
    expect(table.stdout.split('\n').slice(1, 5)).toEqual([
      'host       crawler          group              category  requests  disallowed   share  2xx/3xx/4xx/5xx  robots.txt  top rule                 top disallowed path',
      'a.example  Googlebot-Image  follows Googlebot  search           2           2  100.0%  2/0/0/0                   0  a.example line 2 /g (2)  /g/1 (1)',
      'b.example  Googlebot        *                  search           1           1  100.0%  1/0/0/0                   0  b.example line 2 /b (1)  /b/2 (1)',
      'b.example  Googlebot-Image  *                  search           1           1  100.0%  1/0/0/0                   0  b.example line 2 /b (1)  /b/1 (1)',
    ]);
    const report = JSON.parse(robotstxt(['audit', '--robots-dir', sites, '--by', 'host', '--format', 'json', hostsLog]).stdout);
    expect(report.crawlers.map((c: { host: string; agent: string; group: string; groupLabel: string }) => [c.host, c.agent, c.group, c.groupLabel])).toEqual([
      ['a.example', 'Googlebot-Image', 'Googlebot', 'follows Googlebot'], ['b.example', 'Googlebot', '*', '*'], ['b.example', 'Googlebot-Image', '*', '*'],
    ]);
    const html = join(dir, 'hosts.html');
    expect(robotstxt(['audit', '--robots-dir', sites, '--by', 'host', '--format', 'html', '--output', html, hostsLog]).status).toBe(0);
    const page = renderedPage(html);
    expect(page).toContain('<tr><td>a.example</td><td>Googlebot-Image</td><td>follows Googlebot</td><td>search</td><td>2</td><td>2</td>');
    expect(page).toContain('<td>a.example line 2 <code>/g</code> (2)</td>');
    expect(page).toContain('<tr><td>b.example</td><td>Googlebot-Image</td><td>*</td>');
    const bad = robotstxt(['audit', '--robots', robotsFile, '--by', 'host', hostsLog]);
    expect([bad.stderr, bad.status]).toEqual(['robotstxt: --by applies only with --robots-dir, --store or --robots-history\n', 2]);
  });
});
