// robotstxt audit: crawler identification, verdicts, rules, paths, malformed lines, gzip, stdin, formats,
// and the HTML report rendered by headless Chromium.
import { describe, it, expect } from 'vitest';
import { existsSync, readFileSync, statSync, writeFileSync, mkdirSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { robotstxt, tempDir, CORPUS_LOG, corpusMissingReason } from './cli-helpers.js';
import { crawlerName, parseRobots, RobotsAudit, parseLogLine } from '../src/index.js';
import { modelVerdict } from './model.js';

const dir = tempDir();
const robotsFile = join(dir, 'robots.txt');
const robotsBody = 'User-agent: Googlebot\nDisallow: /private\n\nUser-agent: Googlebot-Image\nDisallow: /\n\nUser-agent: *\nDisallow: /tmp\nDisallow: /*.png$\n';
writeFileSync(robotsFile, robotsBody);
const line = (path: string, agent: string, hour = '10'): string => `1.2.3.4 - - [17/May/2015:${hour}:05:03 +0000] "GET ${path} HTTP/1.1" 200 1 "-" "${agent}"`;
const GOOGLEBOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';
const BINGBOT = 'Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)';
const CHROME = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36';
const log = [
  line('/private/a', GOOGLEBOT),
  line('/private/a', GOOGLEBOT, '11'),
  line('/tmp/x', GOOGLEBOT), // * rules do not apply to Googlebot: it has its own group
  line('/img/a.png', 'Googlebot-Image/1.0'),
  line('/tmp/x', BINGBOT),
  line('/img/b.png', BINGBOT, '11'),
  line('/ok', BINGBOT),
  line('/private/a', CHROME), // a browser: not audited
  'garbage line',
  '',
  'a.com:80 1.2.3.4 - - [17/May/2015:12:00:00 +0000] "GET /private/z HTTP/1.1" 200 1 "-" "googlebot"',
  '9.9.9.9 - - [17/May/2015:12:30:00 +0000] "GET /private/q HTTP/1.0" 200 7', // common format: no User-Agent, not audited
].join('\n') + '\n';
const logFile = join(dir, 'access.log');
writeFileSync(logFile, log);

describe('RobotsAudit', () => {
  const report = (() => {
    const robots = parseRobots(robotsBody);
    const audit = new RobotsAudit(() => robots);
    log.split('\n').forEach((text, i) => audit.addLine(text, i + 1, 'access.log'));
    return audit.report();
  })();
  it('identifies crawlers by the file\'s product tokens (whole word, case-insensitive, longest first), else isbot', () => {
    expect(report.crawlers.map((c) => [c.agent, c.named, c.requests, c.disallowed])).toEqual([
      ['Googlebot', true, 4, 3],
      ['bingbot', false, 3, 2],
      ['Googlebot-Image', true, 1, 1],
    ]);
    expect(report.crawlerRequests).toBe(8);
    expect(report.otherRequests).toBe(2);
    expect(report.lines).toBe(11);
  });
  it('counts the rules that disallowed and the most requested disallowed paths', () => {
    const google = report.crawlers[0];
    expect(google.rules).toEqual([{ line: 2, pattern: '/private', requests: 3 }]);
    expect(google.topDisallowedPaths).toEqual([{ path: '/private/a', requests: 2 }, { path: '/private/z', requests: 1 }]);
    expect(report.crawlers[1].rules).toEqual([{ line: 8, pattern: '/tmp', requests: 1 }, { line: 9, pattern: '/*.png$', requests: 1 }]);
  });
  it('reports malformed lines with their numbers, and an hourly timeline', () => {
    expect(report.malformed).toEqual({ count: 1, lines: [{ log: 'access.log', line: 9 }] });
    expect(report.timeline).toEqual([
      { hour: '2015-05-17 10:00', requests: 5, disallowed: 3 },
      { hour: '2015-05-17 11:00', requests: 2, disallowed: 2 },
      { hour: '2015-05-17 12:00', requests: 1, disallowed: 1 },
    ]);
  });
  it('a request of /robots.txt itself is never a violation, even under Disallow: /', () => {
    const audit = new RobotsAudit(() => parseRobots('User-agent: *\nDisallow: /\n'));
    const line = (target: string): string => `66.249.66.1 - - [21/Nov/2026:08:00:00 +0000] "GET ${target} HTTP/1.1" 200 5 "-" "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"`;
    ['/robots.txt', 'http://e.com/robots.txt?x=1', '/robots.txt.bak', '/page'].forEach((target, i) => audit.addLine(line(target), i + 1, 'access.log'));
    expect(audit.report().crawlers.map((c) => [c.agent, c.requests, c.disallowed, c.topDisallowedPaths.map((p) => p.path)])).toEqual([['Googlebot', 4, 2, ['/page', '/robots.txt.bak']]]);
  });
  it('names unnamed crawlers from their User-Agent', () => {
    expect(['Mozilla/5.0 (compatible; bingbot/2.0)', 'Mozilla/5.0 (Windows) VoilaBot BETA 1.2', 'curl/7.1', 'Chef Client/11.4.0 (ruby)', 'Mozilla/5.0 (X) Gecko Firefox/3.6 (FlipboardProxy/1.1)'].map(crawlerName))
      .toEqual(['bingbot', 'VoilaBot', 'curl', 'Chef', 'FlipboardProxy']);
  });
});

describe('robotstxt audit', () => {
  it('table (default)', () => {
    const r = robotstxt(['audit', '--robots', robotsFile, logFile]);
    expect(r.stdout).toBe([
      '11 log lines: 8 crawler requests (6 disallowed), 2 other requests, 1 malformed',
      'crawler          requests  disallowed   share  top rule             top disallowed path',
      'Googlebot               4           3   75.0%  line 2 /private (3)  /private/a (2)',
      'bingbot (*)             3           2   66.7%  line 8 /tmp (1)      /img/b.png (1)',
      'Googlebot-Image         1           1  100.0%  line 5 / (1)         /img/a.png (1)',
      '(*) not named in robots.txt: its * group applies',
    ].join('\n') + '\n');
    expect(r.stderr).toBe(`robotstxt: 1 malformed log line(s) skipped (${logFile}:9)\n`);
    expect(r.status).toBe(0);
  });
  it('json has crawlers with agent, requests, disallowed', () => {
    const report = JSON.parse(robotstxt(['audit', '--robots', robotsFile, '--format', 'json', logFile]).stdout);
    expect(report.crawlers.map((c: { agent: string; requests: number; disallowed: number }) => ({ agent: c.agent, requests: c.requests, disallowed: c.disallowed }))).toEqual([
      { agent: 'Googlebot', requests: 4, disallowed: 3 }, { agent: 'bingbot', requests: 3, disallowed: 2 }, { agent: 'Googlebot-Image', requests: 1, disallowed: 1 },
    ]);
  });
  it('reads gzip files and standard input (plain or gzip), and several logs', () => {
    const gz = join(dir, 'access.log.gz');
    writeFileSync(gz, gzipSync(log));
    const json = (args: string[], input?: Uint8Array | string): { crawlerRequests: number; lines: number } => JSON.parse(robotstxt(['audit', '--robots', robotsFile, '--format', 'json', ...args], input).stdout);
    expect(json([gz]).crawlerRequests).toBe(8);
    expect(json(['-'], gzipSync(log)).crawlerRequests).toBe(8);
    expect(json(['-'], log).crawlerRequests).toBe(8);
    expect(json([logFile, gz]).crawlerRequests).toBe(16);
    expect(json(['-'], '').lines).toBe(0);
  });
  it('--robots-dir uses the vhost field or --host', () => {
    const sites = join(dir, 'sites');
    mkdirSync(sites);
    writeFileSync(join(sites, 'a.com.txt'), 'User-agent: Googlebot\nDisallow: /\n');
    writeFileSync(join(sites, 'b.com.txt'), 'User-agent: *\nAllow: /\n');
    const report = JSON.parse(robotstxt(['audit', '--robots-dir', sites, '--host', 'b.com', '--format', 'json', logFile]).stdout);
    const google = report.crawlers.find((c: { agent: string }) => c.agent === 'Googlebot');
    expect([google.requests, google.disallowed]).toEqual([4, 1]); // only the a.com line is disallowed
  });
  it('usage and file errors: exit 2', () => {
    const cases: [string[], string][] = [
      [['audit', logFile], 'robotstxt: audit needs exactly one of --robots <file>, --robots-dir <dir> or --store <dir>\n'],
      [['audit', '--robots', robotsFile], 'robotstxt: audit needs at least one <log> (- for standard input; see robotstxt audit --help)\n'],
      [['audit', '--robots', robotsFile, '--format', 'pdf', logFile], "robotstxt: --format must be table, json or html, got 'pdf'\n"],
      [['audit', '--robots', robotsFile, join(dir, 'nope.log')], `robotstxt: cannot read log file '${join(dir, 'nope.log')}': no such file\n`],
    ];
    for (const [args, message] of cases) {
      const r = robotstxt(args);
      expect(r.stderr).toBe(message);
      expect(r.status).toBe(2);
    }
  });
});

const CHROMIUM = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'].find((path) => existsSync(path));
if (CHROMIUM === undefined) console.warn('skipped: the HTML report test needs Chromium (apt-get install chromium; .ci/run installs it)');

describe.skipIf(CHROMIUM === undefined)('the HTML report in headless Chromium', () => {
  it('opens, and shows its three charts with bars', () => {
    const html = join(dir, 'audit.html');
    const r = robotstxt(['audit', '--robots', robotsFile, '--format', 'html', '--output', html, logFile]);
    expect(r.status).toBe(0);
    const flags = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run', `--user-data-dir=${join(dir, 'chromium-profile')}`];
    const dom = spawnSync(CHROMIUM as string, [...flags, '--dump-dom', `file://${html}`], { encoding: 'utf8', timeout: 60_000 });
    expect(dom.stdout).toContain('<svg class="chart" id="chart-crawlers"');
    expect(dom.stdout).toContain('<svg class="chart" id="chart-rules"');
    expect(dom.stdout).toContain('<svg class="chart" id="chart-time"');
    expect((dom.stdout.match(/class="bar part"/g) ?? []).length).toBe(3 + 4 + 3); // 3 crawlers, 4 rules (lines 2, 5, 8, 9), 3 hours
    const png = join(dir, 'audit.png');
    spawnSync(CHROMIUM as string, [...flags, `--screenshot=${png}`, '--window-size=1000,1400', `file://${html}`], { timeout: 60_000 });
    expect(existsSync(png)).toBe(true);
    expect(statSync(png).size).toBeGreaterThan(20_000); // a rendered page, not a blank one
  });
});

describe.skipIf(corpusMissingReason !== null)('audit of the real Apache log', () => {
  it('every audited request\'s verdict agrees with the model; one malformed line reported', () => {
    const robots = parseRobots(robotsBody);
    const report = JSON.parse(robotstxt(['audit', '--robots', robotsFile, '--format', 'json', CORPUS_LOG]).stdout);
    expect(report.lines).toBe(10000);
    expect(report.malformed).toEqual({ count: 1, lines: [{ log: CORPUS_LOG, line: 8899 }] });
    const google = report.crawlers.find((c: { agent: string }) => c.agent === 'Googlebot');
    let disallowed = 0;
    let requests = 0;
    for (const text of readFileSync(CORPUS_LOG, 'latin1').split('\n')) {
      const request = parseLogLine(text);
      if (request === null || request.userAgent === null || !/(^|[^a-z0-9_-])googlebot($|[^a-z0-9_-])/i.test(request.userAgent)) continue;
      requests++;
      if (!modelVerdict(robotsBody, ['Googlebot'], Buffer.from(request.target, 'latin1')).allowed) disallowed++;
    }
    expect([google.requests, google.disallowed]).toEqual([requests, disallowed]);
    expect(robots.names('Googlebot')).toBe(true);
  });
});

describe('bounded memory on large logs', () => {
  it('top disallowed paths stay exact for frequent paths among thousands of rare ones', () => {
    const robots = parseRobots('User-agent: *\nDisallow: /\n');
    const audit = new RobotsAudit(() => robots);
    let n = 0;
    for (let i = 0; i < 6000; i++) {
      audit.addLine(line(`/rare/${i}`, BINGBOT), ++n);
      if (i % 50 === 0) audit.addLine(line('/hot', BINGBOT), ++n);
    }
    const bing = audit.report().crawlers[0];
    expect(bing.disallowed).toBe(6000 + 120);
    expect(bing.topDisallowedPaths[0]).toEqual({ path: '/hot', requests: 120 });
    expect(bing.topDisallowedPaths.length).toBe(20);
  });
});

describe.skipIf(corpusMissingReason !== null)('audit and diff with real robots.txt files on the real log', () => {
  const corpus = join(CORPUS_LOG, '..', '..', 'robots', 'ropensci');
  it('audit with Wikipedia\'s robots.txt: every crawler line accounted for', () => {
    const report = JSON.parse(robotstxt(['audit', '--robots', join(corpus, 'robots_wikipedia.txt'), '--format', 'json', CORPUS_LOG]).stdout);
    expect(report.crawlerRequests + report.otherRequests + report.malformed.count).toBe(report.lines);
    expect(report.crawlers.length).toBeGreaterThan(10);
  });
  it('diff between two versions of Wikipedia\'s robots.txt over the log agrees with the model', () => {
    const before = join(corpus, 'robots_wikipedia_20170706.txt');
    const after = join(corpus, 'robots_wikipedia.txt');
    const report = JSON.parse(robotstxt(['diff', before, after, '--agent', 'Googlebot', '--log', CORPUS_LOG, '--format', 'json']).stdout);
    let changed = 0;
    const oldBody = readFileSync(before);
    const newBody = readFileSync(after);
    for (const text of readFileSync(CORPUS_LOG, 'latin1').split('\n')) {
      const request = parseLogLine(text);
      if (request === null) continue;
      const bytes = Buffer.from(request.target, 'latin1');
      if (modelVerdict(oldBody, ['Googlebot'], bytes).allowed !== modelVerdict(newBody, ['Googlebot'], bytes).allowed) changed++;
    }
    expect(report.checked - report.unchanged).toBe(changed);
  });
});
