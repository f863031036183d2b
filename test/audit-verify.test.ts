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
import { verificationNotes, verificationNoteSentence } from '../src/node/audit/index.js';

/** A report's verification notes as the command line words them. */
const sentences = (verifiedBy: Parameters<typeof verificationNotes>[0]): string[] => verificationNotes(verifiedBy).map((note) => verificationNoteSentence(note, flagWords));
import { isUserTriggeredFetcher } from '../src/node/crawlers/index.js';
import { CrawlerVerifier, CRAWLER_RANGE_SOURCES, CRAWLER_VENDORS, familyOfCrawler, prefixesOfRangeFile, type DnsResolver } from '../src/node/verify/index.js';
import { flagWords } from '../src/cli/option-words.js';

const dir = tempDir();
const ranges = join(dir, 'ranges');
mkdirSync(ranges);
const googleFile = (prefixes: string[], creationTime = '2026-11-20T00:00:00.000000'): string => JSON.stringify({ creationTime, prefixes: prefixes.map((p) => (p.includes(':') ? { ipv6Prefix: p } : { ipv4Prefix: p })) });
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
writeFileSync(join(ranges, 'bots.json'), JSON.stringify({ creationTime: '2026-11-20T00:00:00Z', crawlers: [{ name: 'ClaudeBot', ip_ranges: ['160.79.104.0/23'] }] }));
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
  entry('66.249.90.70', '/ok', GOOGLEBOT), // impostor: Google's, but from the special crawlers' file, which does not cover Googlebot
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

interface Row { agent: string; impostor: boolean; from: string | null; requests: number; disallowed: number; verification: Record<'verified' | 'impostor' | 'unknown' | 'not-checked', number> | null; disallowedByStatus: Record<string, number> }
/** A row as the table labels it, its requests, disallowed requests and verified/impostor/unknown/not-checked. */
const rowsOf = (report: { crawlers: Row[] }): [string, number, number, string][] =>
  report.crawlers.map((c) => [`${c.agent}${c.impostor || c.from !== null ? ` (${[...(c.impostor ? ['impostor'] : []), ...(c.from === null ? [] : [`from ${c.from}`])].join(', ')})` : ''}`, c.requests, c.disallowed, c.verification === null ? '-' : `${c.verification.verified}/${c.verification.impostor}/${c.verification.unknown}/${c.verification['not-checked']}`]);

describe('audit --verify by the vendors\' IP ranges', () => {
  it('gives exact verified, impostor, unknown and not-checked counts per crawler; impostors are rows of their own (JSON)', () => {
    const r = robotstxt(['audit', '--robots', robotsFile, '--verify', '--crawler-ranges', ranges, '--format', 'json', logFile]);
    expect(r.stderr).toBe(`robotstxt: ${join(ranges, 'notes.json')}: names no vendor's range file: skipped (name it <vendor or file>=<path> to read it)\n`);
    const report = JSON.parse(r.stdout);
    expect(report.verification).toEqual({ verified: 5, impostor: 6, unknown: 2, 'not-checked': 0 });
    expect(rowsOf(report)).toEqual([
      ['Googlebot', 3, 2, '2/0/1/0'],
      ['Googlebot (impostor)', 2, 2, '0/2/0/0'],
      ['GPTBot (impostor)', 1, 1, '0/1/0/0'],
      ['YandexBot', 1, 1, '0/0/1/0'],
      ['bingbot', 1, 1, '1/0/0/0'],
      ['bingbot (impostor)', 1, 1, '0/1/0/0'],
      ['ClaudeBot', 1, 0, '1/0/0/0'],
      ['ClaudeBot (impostor)', 1, 0, '0/1/0/0'],
      ['GPTBot', 1, 0, '1/0/0/0'],
      ['Googlebot (impostor, from special-crawlers.json)', 1, 0, '0/1/0/0'],
    ]);
    expect(report.crawlers.at(-1)).toMatchObject({ vendor: 'google', family: 'google-common', from: 'special-crawlers.json' });
    const impostor = report.crawlers.find((c: Row) => c.agent === 'Googlebot' && c.impostor);
    expect(impostor.disallowedByStatus).toEqual({ '2xx': 1, '3xx': 0, '4xx': 1, '5xx': 0, other: 0 });
    expect(impostor.vendor).toBe('google');
  });
  it('the table: a verification line, a verified/impostor/unknown/not-checked column, (impostor) rows', () => {
    const r = robotstxt(['audit', '--robots', robotsFile, '--verify', '--crawler-ranges', ranges, '--top', '4', logFile]);
    expect(r.stdout).toBe([
      '13 log lines: 13 crawler requests (8 disallowed, 5 allowed, 0 no rules known), 0 other requests, 0 malformed',
      'verification: 5 verified, 6 impostors, 2 unknown, 0 not checked; impostors are rows of their own',
      'crawler                                group  category     requests  disallowed   share  2xx/3xx/4xx/5xx  robots.txt  verified/impostor/unknown/not-checked  top rule             top disallowed path',
      'Googlebot                              *      search              3           2   66.7%  2/0/0/0                   0  2/0/1/0                                line 2 /private (2)  /private/a (1)',
      'Googlebot (impostor)                   *      search              2           2  100.0%  1/0/1/0                   0  0/2/0/0                                line 2 /private (2)  /private/c (1)',
      'GPTBot (impostor)                      *      ai-training         1           1  100.0%  1/0/0/0                   0  0/1/0/0                                line 2 /private (1)  /private/g (1)',
      'YandexBot                              *      search              1           1  100.0%  0/1/0/0                   0  0/0/1/0                                line 2 /private (1)  /private/h (1)',
      '6 more crawler(s) (--top 0 lists all)                             6           2   33.3%',
      GROUP_NOTE,
    ].join('\n') + '\n');
  });
  it('the HTML page shows the counts and marks impostors (in headless Chromium when present)', { tags: ['slow'] }, () => {
    const html = join(dir, 'verify.html');
    const r = robotstxt(['audit', '--robots', robotsFile, '--verify', '--crawler-ranges', ranges, '--format', 'html', '--output', html, logFile]);
    expect(r.status).toBe(0);
    const page = renderedPage(html);
    expect(page).toContain('<span class="verification">5 verified, 6 impostors, 2 unknown, 0 not checked</span>');
    expect(page).toContain('<th>verified / impostor / unknown / not checked</th>');
    expect(page).toContain('<tr class="impostor"><td>Googlebot (impostor)</td><td>*</td><td>search</td><td>2</td><td>2</td><td>1 / 0 / 1 / 0</td><td>0</td><td>0 / 2 / 0 / 0</td>');
    expect(page).toContain('<tr><td>Googlebot</td><td>*</td><td>search</td><td>3</td><td>2</td><td>2 / 0 / 0 / 0</td><td>0</td><td>2 / 0 / 1 / 0</td>');
    expect(page).toContain('<tr class="impostor"><td>Googlebot (impostor, from special-crawlers.json)</td><td>*</td><td>search</td><td>1</td><td>0</td><td>0 / 0 / 0 / 0</td><td>0</td><td>0 / 1 / 0 / 0</td>');
  });
  it('range files as published: Google\'s former googlebot.json counts as its common crawlers\' file; <name>=<file> names a file saved otherwise', () => {
    const published = join(dir, 'as-published');
    mkdirSync(published);
    writeFileSync(join(published, 'googlebot.json'), googleFile(['66.249.64.0/27', '2001:4860:4801:10::/64'])); // the name on "Verifying Googlebot" for years
    for (const name of ['special-crawlers.json', 'user-triggered-fetchers.json', 'user-triggered-fetchers-google.json', 'user-triggered-agents.json']) writeFileSync(join(published, name), googleFile(['192.0.2.128/28']));
    const googleOnly = join(dir, 'google-only.log');
    writeFileSync(googleOnly, [entry('66.249.64.5', '/private/a', GOOGLEBOT), entry('2001:4860:4801:10::1', '/ok', GOOGLEBOT), entry('203.0.113.5', '/private/c', GOOGLEBOT), entry('203.0.113.6', '/ok', GOOGLEBOT)].join('\n') + '\n');
    const report = JSON.parse(robotstxt(['audit', '--robots', robotsFile, '--verify', '--crawler-ranges', published, '--format', 'json', googleOnly]).stdout);
    expect(report.verification).toEqual({ verified: 2, impostor: 2, unknown: 0, 'not-checked': 0 });
    expect(rowsOf(report)).toEqual([['Googlebot', 2, 1, '2/0/0/0'], ['Googlebot (impostor)', 2, 1, '0/2/0/0']]);
    expect(report.verifiedBy.families).toEqual([{ family: 'google-common', name: "Googlebot and Google's common crawlers", vendor: 'google', files: [join(published, 'googlebot.json')], missing: [], stale: [], invalid: [], requests: 4, notChecked: 0 }]);
    // the same files under names of the user's: each named by what it is
    const saved = join(dir, 'saved-otherwise');
    mkdirSync(saved);
    const args = ['googlebot.json', 'special-crawlers.json', 'user-triggered-fetchers.json', 'user-triggered-fetchers-google.json', 'user-triggered-agents.json'].flatMap((name, i) => {
      writeFileSync(join(saved, `download-${i}.txt`), readFileSync(join(published, name)));
      return ['--crawler-ranges', `${i === 1 ? 'google-special-crawlers' : name}=${join(saved, `download-${i}.txt`)}`];
    });
    expect(JSON.parse(robotstxt(['audit', '--robots', robotsFile, '--verify', ...args, '--format', 'json', googleOnly]).stdout).verification).toEqual({ verified: 2, impostor: 2, unknown: 0, 'not-checked': 0 });
    expect(robotstxt(['audit', '--robots', robotsFile, '--verify', '--crawler-ranges', `nobody=${join(saved, 'download-0.txt')}`, googleOnly]).stderr).toBe(`robotstxt: nobody=${join(saved, 'download-0.txt')}: 'nobody' names no vendor or range file (vendors: google, bing, openai, anthropic, perplexity, apple, commoncrawl; files: ${CRAWLER_RANGE_SOURCES.map((source) => new URL(source.url).pathname.split('/').pop()).join(', ')})\n`);
  });
  it('a crawler is judged by the file that covers it: gptbot.json alone decides GPTBot; the others are not checked, naming their missing files', () => {
    const only = join(dir, 'only-gptbot');
    mkdirSync(only);
    writeFileSync(join(only, 'gptbot.json'), googleFile(['20.171.206.0/24']));
    const report = JSON.parse(robotstxt(['audit', '--robots', robotsFile, '--verify', '--crawler-ranges', only, '--format', 'json', '--top', '0', logFile]).stdout);
    // GPTBot: verified and impostor; Google's 5 with an address, Bing's 2 and Anthropic's 2: not checked; Yandex and the line without an address: unknown
    expect(report.verification).toEqual({ verified: 1, impostor: 1, unknown: 2, 'not-checked': 9 });
    const family = (id: string): unknown => report.verifiedBy.families.find((f: { family: string }) => f.family === id);
    expect(family('openai-gptbot')).toEqual({ family: 'openai-gptbot', name: 'GPTBot', vendor: 'openai', files: [join(only, 'gptbot.json')], missing: [], stale: [], invalid: [], requests: 2, notChecked: 0 });
    expect(family('google-common')).toEqual({ family: 'google-common', name: "Googlebot and Google's common crawlers", vendor: 'google', files: [], missing: ['common-crawlers.json'], stale: [], invalid: [], requests: 6, notChecked: 5 });
    expect(sentences(report.verifiedBy)).toEqual([
      "Googlebot and Google's common crawlers: 5 of 6 request(s) not checked, not told from impostors: missing common-crawlers.json (get the files with robotstxt fetch --crawler-ranges --store <dir>, or download them from the vendor and pass --crawler-ranges <dir>)",
      "Bingbot and Bing's crawlers: 2 of 2 request(s) not checked, not told from impostors: missing bingbot.json (get the files with robotstxt fetch --crawler-ranges --store <dir>, or download them from the vendor and pass --crawler-ranges <dir>)",
      "Anthropic's bots: 2 of 2 request(s) not checked, not told from impostors: missing bots.json (get the files with robotstxt fetch --crawler-ranges --store <dir>, or download them from the vendor and pass --crawler-ranges <dir>)",
    ]);
  });
  it('googlebot.json alone, or common-crawlers.json alone, decides Googlebot: outside its ranges an impostor, inside verified; AdsBot is not checked without special-crawlers.json', () => {
    const googleOnly = join(dir, 'google-alone.log');
    const ADSBOT = 'AdsBot-Google (+http://www.google.com/adsbot.html)';
    writeFileSync(googleOnly, [entry('66.249.64.5', '/private/a', GOOGLEBOT), entry('2001:4860:4801:10::1', '/ok', GOOGLEBOT), entry('203.0.113.5', '/private/c', GOOGLEBOT), entry('203.0.113.6', '/ok', GOOGLEBOT), entry('66.249.90.70', '/ok', ADSBOT)].join('\n') + '\n');
    for (const name of ['googlebot.json', 'common-crawlers.json']) {
      const alone = join(dir, `alone-${name}`);
      mkdirSync(alone);
      writeFileSync(join(alone, name), googleFile(['66.249.64.0/27', '2001:4860:4801:10::/64']));
      for (const given of [alone, join(alone, name)]) {
        const r = robotstxt(['audit', '--robots', robotsFile, '--verify', '--crawler-ranges', given, '--format', 'json', googleOnly]);
        expect(r.stderr).toBe('');
        const report = JSON.parse(r.stdout);
        expect(report.verification).toEqual({ verified: 2, impostor: 2, unknown: 0, 'not-checked': 1 });
        expect(rowsOf(report)).toEqual([['Googlebot', 2, 1, '2/0/0/0'], ['Googlebot (impostor)', 2, 1, '0/2/0/0'], ['AdsBot-Google', 1, 0, '0/0/0/1']]);
        expect(sentences(report.verifiedBy)).toEqual(["Google's special-case crawlers: 1 of 1 request(s) not checked, not told from impostors: missing special-crawlers.json (get the files with robotstxt fetch --crawler-ranges --store <dir>, or download them from the vendor and pass --crawler-ranges <dir>)"]);
      }
    }
  });
  it('a GPTBot from ChatGPT-User\'s ranges is not verified: an impostor from chatgpt-user.json, listed with the user-triggered fetchers; without gptbot.json, not checked', () => {
    const log = join(dir, 'gptbot-from-user.log');
    writeFileSync(log, [entry('23.98.142.180', '/private/u', GPTBOT), entry('20.171.206.1', '/private/v', GPTBOT)].join('\n') + '\n');
    const all = JSON.parse(robotstxt(['audit', '--robots', robotsFile, '--verify', '--crawler-ranges', ranges, '--format', 'json', log]).stdout);
    expect(all.verification).toEqual({ verified: 1, impostor: 1, unknown: 0, 'not-checked': 0 });
    expect(rowsOf(all)).toEqual([['GPTBot', 1, 1, '1/0/0/0']]);
    expect(rowsOf({ crawlers: all.userTriggered })).toEqual([['GPTBot (impostor, from chatgpt-user.json)', 1, 1, '0/1/0/0']]);
    expect(all.userTriggered[0]).toMatchObject({ vendor: 'openai', family: 'openai-gptbot', from: 'chatgpt-user.json', category: 'ai-training' });
    expect(all.disallowed).toBe(1); // a user-directed fetch is not a violation
    const text = robotstxt(['audit', '--robots', robotsFile, '--verify', '--crawler-ranges', ranges, log]).stdout;
    expect(text).toContain('\nuser-triggered fetchers (fetch because a person asked; they ignore robots.txt by design and are not counted as violators):\nGPTBot (impostor, from chatgpt-user.json)  *      ai-training         1           1  100.0%');
    const userOnly = join(dir, 'only-chatgpt-user');
    mkdirSync(userOnly);
    writeFileSync(join(userOnly, 'chatgpt-user.json'), googleFile(['23.98.142.176/28']));
    const without = JSON.parse(robotstxt(['audit', '--robots', robotsFile, '--verify', '--crawler-ranges', userOnly, '--format', 'json', log]).stdout);
    expect(without.verification).toEqual({ verified: 0, impostor: 0, unknown: 0, 'not-checked': 2 });
    expect(rowsOf({ crawlers: without.userTriggered })).toEqual([['GPTBot (from chatgpt-user.json)', 1, 1, '0/0/0/1']]);
    expect(sentences(without.verifiedBy)).toEqual(['GPTBot: 2 of 2 request(s) not checked, not told from impostors: missing gptbot.json (get the files with robotstxt fetch --crawler-ranges --store <dir>, or download them from the vendor and pass --crawler-ranges <dir>)']);
  });
  it('a Google crawler the table does not list, verified by a user-triggered file: said (from that file) and listed with the user-triggered fetchers', () => {
    const log = join(dir, 'google-agent.log');
    const AGENT = 'Mozilla/5.0 (compatible; Google-Agent/1.0; +https://developers.google.com/crawling)';
    writeFileSync(log, [entry('34.0.0.5', '/private/q', AGENT), entry('66.249.64.6', '/private/r', AGENT)].join('\n') + '\n');
    const report = JSON.parse(robotstxt(['audit', '--robots', robotsFile, '--verify', '--crawler-ranges', ranges, '--format', 'json', log]).stdout);
    expect(report.verification).toEqual({ verified: 2, impostor: 0, unknown: 0, 'not-checked': 0 });
    expect(rowsOf(report)).toEqual([['Google-Agent', 1, 1, '1/0/0/0']]);
    expect(rowsOf({ crawlers: report.userTriggered })).toEqual([['Google-Agent (from user-triggered-agents.json)', 1, 1, '1/0/0/0']]);
    expect(report.userTriggered[0]).toMatchObject({ family: 'google-other', userDirected: true });
  });
  it('every family of the table, by its covering files: in one verified, outside all an impostor, with one missing not checked (per vendor and file)', () => {
    const sample: Record<string, string> = {
      'google-common': 'Googlebot', 'google-special': 'AdsBot-Google', 'google-user-triggered': 'FeedFetcher-Google', 'google-other': 'Google-Future-Crawler',
      bing: 'bingbot', 'openai-gptbot': 'GPTBot', 'openai-searchbot': 'OAI-SearchBot', 'openai-chatgpt-user': 'ChatGPT-User', anthropic: 'ClaudeBot', 'anthropic-user': 'Claude-User',
      'perplexity-bot': 'PerplexityBot', 'perplexity-user': 'Perplexity-User', apple: 'Applebot', commoncrawl: 'CCBot', yandex: 'YandexBot', baidu: 'Baiduspider',
    };
    const table = join(dir, 'every-file');
    mkdirSync(table);
    // source i holds 10.0.i.0/24
    CRAWLER_RANGE_SOURCES.forEach((source, i) => writeFileSync(join(table, `${source.id}.json`), googleFile([`10.0.${i}.0/24`])));
    const addressOf = (source: { id: string }): string => `10.0.${CRAWLER_RANGE_SOURCES.findIndex((s) => s.id === source.id)}.9`;
    const files = (except: string | null): string[] => CRAWLER_RANGE_SOURCES.filter((s) => s.id !== except).map((s) => join(table, `${s.id}.json`));
    const everything = new CrawlerVerifier({ rangeFiles: files(null), nowMs: Date.parse('2026-11-20T00:00:00Z') });
    const families = CRAWLER_VENDORS.flatMap((vendor) => vendor.families);
    expect(families.map((family) => family.id).sort()).toEqual(Object.keys(sample).sort());
    // user-triggered fetchers are read from the same table (and a few vendors' fetchers that publish no ranges)
    expect(families.filter((family) => family.userTriggered).map((family) => family.id)).toEqual(['google-user-triggered', 'openai-chatgpt-user', 'anthropic-user', 'perplexity-user']);
    expect(['FeedFetcher-Google', 'ChatGPT-User', 'Claude-User', 'Perplexity-User', 'MistralAI-User', 'ClaudeBot', 'GPTBot', 'Googlebot'].map(isUserTriggeredFetcher)).toEqual([true, true, true, true, true, false, false, false]);
    for (const family of families) {
      expect(familyOfCrawler(sample[family.id])?.id).toBe(family.id);
      if (family.covering.length === 0) {
        expect(everything.classify(family, '10.0.0.9')).toBe('unknown'); // DNS only
        continue;
      }
      for (const source of family.covering) expect([family.id, source.id, everything.classify(family, addressOf(source))]).toEqual([family.id, source.id, 'verified']);
      expect([family.id, everything.classify(family, '192.0.2.1')]).toEqual([family.id, 'impostor']);
      // a file of the same vendor that does not cover the family: an impostor, and the file said
      for (const other of family.vendor.ranges.filter((source) => !family.covering.includes(source))) {
        expect([family.id, other.id, everything.classifyClaim(family, addressOf(other))]).toEqual([family.id, other.id, { verdict: 'impostor', services: null, heldBy: other }]);
      }
      for (const source of family.covering) {
        const lacking = new CrawlerVerifier({ rangeFiles: files(source.id), nowMs: Date.parse('2026-11-20T00:00:00Z') });
        expect([family.id, source.id, lacking.classify(family, '192.0.2.1')]).toEqual([family.id, source.id, 'not-checked']);
        expect(lacking.coverage()[0]).toMatchObject({ family: family.id, missing: [new URL(source.url).pathname.split('/').pop()], notChecked: 1 });
      }
    }
  });
  it('a stale covering file still verifies, but an address outside it is not checked, said with its age; --ranges-max-age moves the limit', () => {
    const old = join(dir, 'stale');
    mkdirSync(old);
    writeFileSync(join(old, 'common-crawlers.json'), googleFile(['66.249.64.0/27'], '2026-09-01T00:00:00.000000')); // 81 days before the log's requests
    const args = ['audit', '--robots', robotsFile, '--verify', '--crawler-ranges', old, '--format', 'json'];
    const log = join(dir, 'stale.log');
    writeFileSync(log, [entry('66.249.64.5', '/ok', GOOGLEBOT), entry('203.0.113.5', '/ok', GOOGLEBOT)].join('\n') + '\n');
    const report = JSON.parse(robotstxt([...args, log]).stdout);
    expect(report.verification).toEqual({ verified: 1, impostor: 0, unknown: 0, 'not-checked': 1 });
    expect(report.verifiedBy.families[0]).toMatchObject({ stale: [{ file: join(old, 'common-crawlers.json'), days: 81 }], notChecked: 1 });
    expect(verificationNotes(report.verifiedBy)).toEqual([{ kind: 'rangesNotChecked', family: "Googlebot and Google's common crawlers", notChecked: 1, requests: 2, missing: [], stale: [{ file: 'common-crawlers.json', days: 81 }], maxAgeDays: 30, invalid: [] }]);
    expect(sentences(report.verifiedBy)).toEqual(["Googlebot and Google's common crawlers: 1 of 2 request(s) not checked, not told from impostors: common-crawlers.json (81 days) made more than 30 days from the requests (--ranges-max-age; any takes files of any age) (get the files with robotstxt fetch --crawler-ranges --store <dir>, or download them from the vendor and pass --crawler-ranges <dir>)"]);
    expect(JSON.parse(robotstxt([...args, '--ranges-max-age', '90', log]).stdout).verification).toEqual({ verified: 1, impostor: 1, unknown: 0, 'not-checked': 0 });
    const bad = robotstxt([...args, '--ranges-max-age', '0', log]);
    expect([bad.stderr, bad.status]).toEqual(['robotstxt: --ranges-max-age must be a number of days from 1 to 36500, or any, got \'0\'\n', 2]);
  });
  it('a covering file that fails validation is said on stderr and its crawlers are not checked (the audit goes on)', () => {
    const broken = join(dir, 'broken');
    mkdirSync(broken);
    writeFileSync(join(broken, 'bingbot.json'), '{"prefixes": [');
    writeFileSync(join(broken, 'gptbot.json'), googleFile(['20.171.206.0/24']));
    const r = robotstxt(['audit', '--robots', robotsFile, '--verify', '--crawler-ranges', broken, '--format', 'json', logFile]);
    expect(r.stderr).toMatch(new RegExp(`^robotstxt: ${join(broken, 'bingbot.json').replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}: not JSON \\(.*\\); the crawlers it covers are not checked\\n$`));
    expect(r.status).toBe(0);
    const report = JSON.parse(r.stdout);
    const bing = report.verifiedBy.families.find((f: { family: string }) => f.family === 'bing');
    expect(bing).toMatchObject({ files: [], missing: [], invalid: [{ file: join(broken, 'bingbot.json') }], requests: 2, notChecked: 2 });
    expect(sentences(report.verifiedBy)).toContain(`Bingbot and Bing's crawlers: 2 of 2 request(s) not checked, not told from impostors: bingbot.json failed validation (${bing.invalid[0].reason}) (get the files with robotstxt fetch --crawler-ranges --store <dir>, or download them from the vendor and pass --crawler-ranges <dir>)`);
  });
  it('JAFAR files: a later major formatVersion is not read (its crawlers not checked); per-prefix services, the most specific prefix\'s counted', () => {
    const jafar = join(dir, 'jafar');
    mkdirSync(jafar);
    writeFileSync(join(jafar, 'gptbot.json'), JSON.stringify({ formatVersion: '2.0', creationTime: '2026-11-20T00:00:00Z', prefixes: [{ ipv4Prefix: '20.171.206.0/24' }] }));
    expect(robotstxt(['audit', '--robots', robotsFile, '--verify', '--crawler-ranges', join(jafar, 'gptbot.json'), logFile]).stderr).toBe(`robotstxt: ${join(jafar, 'gptbot.json')}: format version "2.0" is not one this reader knows (JAFAR 1.x): not read; the crawlers it covers are not checked\n`);
    writeFileSync(join(jafar, 'gptbot.json'), JSON.stringify({ formatVersion: '1.1', creationTime: '2026-11-20T00:00:00Z', prefixes: [
      { ipv4Prefix: '20.171.0.0/16', services: ['OpenAI-Generic'] },
      { ipv4Prefix: '20.171.206.0/24', services: ['GPTBot'] },
      { ipv4Prefix: '20.171.206.0/28', ipv6Prefix: '2001:db8::/32' }, // both: ignored
    ] }));
    const log = join(dir, 'jafar.log');
    writeFileSync(log, [entry('20.171.206.1', '/ok', GPTBOT), entry('20.171.206.2', '/ok', GPTBOT), entry('20.171.9.9', '/ok', GPTBOT)].join('\n') + '\n');
    const report = JSON.parse(robotstxt(['audit', '--robots', robotsFile, '--verify', '--crawler-ranges', `openai=${join(jafar, 'gptbot.json')}`, '--format', 'json', log]).stdout);
    expect(report.crawlers.map((c: Row & { verifiedServices: unknown }) => [c.agent, c.verification, c.verifiedServices])).toEqual([['GPTBot', { verified: 3, impostor: 0, unknown: 0, 'not-checked': 0 }, { GPTBot: 2, 'OpenAI-Generic': 1 }]]);
  });
  it('--client-ip forwarded verifies the last X-Forwarded-For address', () => {
    const proxied = join(dir, 'proxied.log');
    writeFileSync(proxied, [
      entry('10.0.0.1', '/private/x', GOOGLEBOT, 200, '203.0.113.77, 66.249.64.9'), // the proxy saw Google's address
      entry('10.0.0.1', '/private/y', GOOGLEBOT, 200, '66.249.64.9, 203.0.113.77'), // a forged first address
    ].join('\n') + '\n');
    const rows = (clientIp: string): unknown => rowsOf(JSON.parse(robotstxt(['audit', '--robots', robotsFile, '--verify', '--crawler-ranges', ranges, '--client-ip', clientIp, '--format', 'json', proxied]).stdout));
    expect(rows('forwarded')).toEqual([['Googlebot', 1, 1, '1/0/0/0'], ['Googlebot (impostor)', 1, 1, '0/1/0/0']]);
    expect(rows('remote')).toEqual([['Googlebot (impostor)', 2, 2, '0/2/0/0']]);
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
    const bing = CRAWLER_VENDORS.find((vendor) => vendor.id === 'bing')?.families[0] ?? null;
    expect(['10.1.2.0', '10.1.2.255', '10.1.3.0', '198.51.100.7', '198.51.100.8', '192.0.2.200', '::ffff:192.0.2.9', '[::ffff:10.1.2.9]', 'nonsense'].map((ip) => verifier.classify(bing, ip)))
      .toEqual(['verified', 'verified', 'impostor', 'verified', 'impostor', 'verified', 'verified', 'verified', 'unknown']);
    const everything = new CrawlerVerifier({ rangeFiles: [join(folder, 'bingbot.json')] });
    writeFileSync(join(folder, 'bingbot.json'), googleFile(['0.0.0.0/0']));
    expect(new CrawlerVerifier({ rangeFiles: [folder] }).classify(bing, '255.255.255.255')).toBe('verified');
    expect(everything.classify(bing, '255.255.255.255')).toBe('impostor');
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
  it('forward-confirmed reverse DNS: verified, impostor (another owner, a name that does not resolve back, no PTR), unknown (DNS error)', async () => {
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
      entry('192.0.2.9', '/p', GPTBOT), // OpenAI documents no DNS names, and gptbot.json was not given: not checked
    ], 1);
    const report = audit.report();
    expect(report.verification).toEqual({ verified: 3, impostor: 3, unknown: 1, 'not-checked': 1 });
    expect(report.crawlers.map((c) => [c.agent, c.impostor, c.verification])).toEqual([
      ['YandexBot', true, { verified: 0, impostor: 3, unknown: 0, 'not-checked': 0 }],
      ['Googlebot', false, { verified: 2, impostor: 0, unknown: 0, 'not-checked': 0 }],
      ['YandexBot', false, { verified: 1, impostor: 0, unknown: 1, 'not-checked': 0 }],
      ['GPTBot', false, { verified: 0, impostor: 0, unknown: 0, 'not-checked': 1 }],
    ]);
    expect(report.verifiedBy?.dns).toEqual({ problem: null, unknown: 0 });
  });
  const claims = [
    entry('5.255.253.1', '/p', YANDEX), entry('5.255.253.4', '/p', YANDEX), // DNS only (Yandex publishes no ranges)
    entry('66.249.64.1', '/p', GOOGLEBOT), // in Google's ranges
    entry('66.249.77.1', '/p', GOOGLEBOT), // outside common-crawlers.json, Googlebot's one file: an impostor's unless a working resolver confirms it
    entry('157.55.39.9', '/p', BINGBOT), entry('198.51.100.1', '/p', BINGBOT), // Bing: its one file read, so an address outside is an impostor's
  ];
  it('a resolver that fails everything (NXDOMAIN for all, offline, a sandbox): its check fails, every DNS-only answer is unknown, and the report says why', async () => {
    const nxdomain: DnsResolver = { reverse: async () => { throw Object.assign(new Error('queryPtr ENOTFOUND'), { code: 'ENOTFOUND' }); }, lookup: async () => { throw Object.assign(new Error('ENOTFOUND'), { code: 'ENOTFOUND' }); } };
    const verifier = new CrawlerVerifier({ dns: true, rangeFiles: [join(ranges, 'common-crawlers.json'), join(ranges, 'bingbot.json')], resolver: nxdomain });
    const audit = new RobotsAudit(() => parseRobots('User-agent: *\nDisallow: /p\n'), { verifier });
    await audit.addLines(claims, 1);
    const report = audit.report();
    // before the check, 5.255.253.* were impostors (no PTR); now unknown. 66.249.77.1 is judged by Googlebot's file alone
    expect(report.verification).toEqual({ verified: 2, impostor: 2, unknown: 2, 'not-checked': 0 });
    expect(report.crawlers.filter((c) => c.impostor).map((c) => c.agent)).toEqual(['Googlebot', 'bingbot']);
    const problem = 'the resolver could not give the name of 66.249.66.1, a known crawler address (ENOTFOUND)';
    expect(report.verifiedBy?.dns).toEqual({ problem, unknown: 2 });
    expect(verificationNotes(report.verifiedBy)).toContainEqual({ kind: 'dnsNotBelieved', problem, unknown: 2 });
    expect(sentences(report.verifiedBy)).toContain(`DNS answers not believed: ${problem}; 2 request(s) that DNS alone would have told are unknown`);
  });
  it('a working fake resolver: the verified and impostor counts are exact; another probe address can be named', async () => {
    const working = resolver({ '5.255.253.1': ['spider-5-255-253-1.yandex.com'], '66.249.77.1': ['crawl-66-249-77-1.googlebot.com'], '203.0.113.9': ['probe.example'] }, { 'spider-5-255-253-1.yandex.com': ['5.255.253.1'], 'crawl-66-249-77-1.googlebot.com': ['66.249.77.1'], 'probe.example': ['203.0.113.9'] });
    for (const dnsProbe of [undefined, '203.0.113.9']) {
      const verifier = new CrawlerVerifier({ dns: true, rangeFiles: [join(ranges, 'common-crawlers.json'), join(ranges, 'bingbot.json')], resolver: working, dnsProbe });
      const audit = new RobotsAudit(() => parseRobots('User-agent: *\nDisallow: /p\n'), { verifier });
      await audit.addLines(claims, 1);
      const report = audit.report();
      expect(report.verification).toEqual({ verified: 4, impostor: 2, unknown: 0, 'not-checked': 0 });
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

  it('fills the store (every file of the table), keeps fresh files, reports a failure and exits 1 when nothing is kept', { tags: ['slow'] }, async () => {
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
    served.set('/anthropic-bots.json', { status: 200, body: JSON.stringify({ creationTime: '2026-11-20T00:00:00Z', ranges: ['160.79.104.0/23'] }) });
    const before = requests;
    const second = await robotstxtAsync(args);
    expect(requests - before).toBe(1);
    expect(second.stdout).toContain('ok\tanthropic-bots\tfetched\t200 1 prefixes\n');
    expect(second.stdout).toContain('ok\tbingbot\tfresh\t200 2 prefixes\n');
    expect(second.status).toBe(0);
    // audit --store <dir> --verify reads them from there
    const report = JSON.parse(robotstxt(['audit', '--store', store, '--host', 'shop.example', '--verify', '--format', 'json', '--top', '0', logFile]).stdout);
    // the served files hold 192.0.2.0/24 (GPTBot's 192.0.2.1) and Anthropic's now 160.79.104.0/23 (ClaudeBot's 160.79.104.9)
    expect(report.verification).toEqual({ verified: 2, impostor: 9, unknown: 2, 'not-checked': 0 });
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
    expect(report.userTriggered.map((c: Row & { category: string }) => [c.agent, c.category, c.requests, c.disallowed, c.verification])).toEqual([['ChatGPT-User', 'user-triggered', 1, 1, { verified: 1, impostor: 0, unknown: 0, 'not-checked': 0 }]]);
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
  it('several hosts in one row: each top disallowed path carries its host (table, JSON, HTML); --by host rows need none', () => {
    const shared = join(dir, 'shared-paths');
    mkdirSync(shared);
    writeFileSync(join(shared, 'a.example.txt'), 'User-agent: *\nDisallow: /private\n');
    writeFileSync(join(shared, 'b.example.txt'), 'User-agent: *\nDisallow: /private\n');
    const log = join(dir, 'shared-paths.log');
    writeFileSync(log, [vhost('a.example', '/private/x', GOOGLEBOT), vhost('a.example', '/private/x', GOOGLEBOT), vhost('b.example', '/private/x', GOOGLEBOT), vhost('b.example', '/private/y', GOOGLEBOT)].join('\n') + '\n');
    const report = JSON.parse(robotstxt(['audit', '--robots-dir', shared, '--format', 'json', log]).stdout);
    expect(report.crawlers[0].topDisallowedPaths).toEqual([
      { host: 'a.example', path: '/private/x', requests: 2, upTo: 2 },
      { host: 'b.example', path: '/private/x', requests: 1, upTo: 1 },
      { host: 'b.example', path: '/private/y', requests: 1, upTo: 1 },
    ]);
    expect(robotstxt(['audit', '--robots-dir', shared, log]).stdout.split('\n')[2]).toMatch(/ a\.example line 2 \/private \(2\)  a\.example \/private\/x \(2\)$/);
    const html = join(dir, 'shared-paths.html');
    robotstxt(['audit', '--robots-dir', shared, '--format', 'html', '--output', html, log]);
    expect(readFileSync(html, 'utf8')).toContain('<td>a.example <code>/private/x</code> (2)<br>b.example <code>/private/x</code> (1)<br>b.example <code>/private/y</code> (1)</td>');
    const byHost = JSON.parse(robotstxt(['audit', '--robots-dir', shared, '--by', 'host', '--format', 'json', log]).stdout);
    expect(byHost.crawlers.map((c: { host: string; topDisallowedPaths: unknown }) => [c.host, c.topDisallowedPaths])).toEqual([
      ['a.example', [{ host: null, path: '/private/x', requests: 2, upTo: 2 }]],
      ['b.example', [{ host: null, path: '/private/x', requests: 1, upTo: 1 }, { host: null, path: '/private/y', requests: 1, upTo: 1 }]],
    ]);
  });
  it('--by host: a row per host and crawler, the same labels in the table, JSON and the HTML page (Chromium)', { tags: ['slow'] }, () => {
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
    expect([bad.stderr, bad.status]).toEqual(['robotstxt: --by applies only with --robots-dir, --store, --robots-history or --pack\n', 2]);
  });
});
