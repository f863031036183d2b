// robotstxt audit: crawler identification, verdicts, rules, paths, malformed lines, gzip, stdin, formats,
// and the HTML report rendered by headless Chromium.
import { describe, it, expect } from 'vitest';
import { existsSync, readFileSync, statSync, writeFileSync, mkdirSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { robotstxt, tempDir, CORPUS_LOG, corpusMissingReason, AUDIT_GROUP_NOTE as GROUP_NOTE } from './cli-helpers.js';
import { CHROMIUM, canRun, chromiumFlags } from './browser.js';
import { crawlerName, parseRobots, RobotsAudit, parseLogLine } from '../src/node/index.js';
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
    expect(google.rules).toEqual([{ file: null, line: 2, pattern: '/private', requests: 3 }]);
    expect(google.topDisallowedPaths).toEqual([{ host: null, path: '/private/a', requests: 2, upTo: 2 }, { host: null, path: '/private/z', requests: 1, upTo: 1 }]);
    expect(report.crawlers[1].rules).toEqual([{ file: null, line: 8, pattern: '/tmp', requests: 1 }, { file: null, line: 9, pattern: '/*.png$', requests: 1 }]);
  });
  it('reports malformed lines with their numbers, and an hourly timeline', () => {
    expect(report.malformed).toEqual({ count: 1, lines: [{ log: 'access.log', line: 9 }] });
    expect(report.timeline).toEqual([
      { hour: '2015-05-17 10:00', requests: 5, disallowed: 3 },
      { hour: '2015-05-17 11:00', requests: 2, disallowed: 2 },
      { hour: '2015-05-17 12:00', requests: 1, disallowed: 1 },
    ]);
  });
  it('addLines judges a chunk in bulk (one call per matcher) and reports exactly what addLine per line does; a target with a line break is judged alone', async () => {
    const robots = parseRobots(robotsBody);
    const bulk = new RobotsAudit(() => robots);
    await bulk.addLines(log.split('\n'), 1, 'access.log');
    expect(bulk.report()).toEqual(report);
    const audit = new RobotsAudit(() => parseRobots('User-agent: *\nDisallow: /a\nDisallow: /*x$\n'));
    const json = (uri: string): string => JSON.stringify({ uri, http_user_agent: 'Googlebot/2.1 (+http://www.google.com/bot.html)' });
    await audit.addLines([json('/a\nb'), json('/b'), json('/a/1'), json('/b\rx'), json('/cx')], 1, 'j.log');
    const [google] = audit.report().crawlers;
    expect([google.requests, google.disallowed]).toEqual([5, 4]);
    expect(google.rules).toEqual([{ file: null, line: 2, pattern: '/a', requests: 2 }, { file: null, line: 3, pattern: '/*x$', requests: 2 }]);
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
      '11 log lines: 8 crawler requests (6 disallowed, 2 allowed, 0 no rules known), 2 other requests, 1 malformed',
      'crawler          group      category  requests  disallowed   share  2xx/3xx/4xx/5xx  robots.txt  top rule             top disallowed path',
      'Googlebot        own group  search           4           3   75.0%  3/0/0/0                   0  line 2 /private (3)  /private/a (2)',
      'bingbot          *          search           3           2   66.7%  2/0/0/0                   0  line 8 /tmp (1)      /img/b.png (1)',
      'Googlebot-Image  own group  search           1           1  100.0%  1/0/0/0                   0  line 5 / (1)         /img/a.png (1)',
      GROUP_NOTE,
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
      [['audit', logFile], 'robotstxt: audit needs exactly one of --robots <file>, --robots-dir <dir>, --store <dir>, --robots-history <dir>, --pack <file> or --merge\n'],
      [['audit', '--robots', robotsFile], 'robotstxt: audit needs at least one <log> (- for standard input; see robotstxt audit --help)\n'],
      [['audit', '--robots', robotsFile, '--format', 'pdf', logFile], "robotstxt: --format must be table, json, html or partial, got 'pdf'\n"],
      [['audit', '--robots', robotsFile, join(dir, 'nope.log')], `robotstxt: cannot read log file '${join(dir, 'nope.log')}': no such file\n`],
    ];
    for (const [args, message] of cases) {
      const r = robotstxt(args);
      expect(r.stderr).toBe(message);
      expect(r.status).toBe(2);
    }
  });
});


describe.skipIf(!canRun(CHROMIUM !== null, 'the HTML report suite', 'apt-get install chromium (.ci/run installs it)'))('the HTML report in headless Chromium', () => {
  it('opens, and shows its three charts with bars', { tags: ['slow'] }, () => {
    const html = join(dir, 'audit.html');
    const r = robotstxt(['audit', '--robots', robotsFile, '--format', 'html', '--output', html, logFile]);
    expect(r.status).toBe(0);
    const flags = chromiumFlags(join(dir, 'chromium-profile'));
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
    const report = JSON.parse(robotstxt(['audit', '--robots', robotsFile, '--format', 'json', '--top', '0', CORPUS_LOG]).stdout);
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
    expect(bing.topDisallowedPaths[0]).toEqual({ host: null, path: '/hot', requests: 120, upTo: 120 });
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
  it('diff between two versions of Wikipedia\'s robots.txt over the log agrees with the model', { tags: ['slow'] }, () => {
    const before = join(corpus, 'robots_wikipedia_20170706.txt');
    const after = join(corpus, 'robots_wikipedia.txt');
    const report = JSON.parse(robotstxt(['diff', before, after, '--agent', 'Googlebot', '--log', CORPUS_LOG, '--format', 'json']).stdout);
    let changed = 0;
    const oldBody = readFileSync(before);
    const newBody = readFileSync(after);
    // the model once per distinct target (it re-reads the whole body per question), counted per request
    const changes = new Map<string, boolean>();
    for (const text of readFileSync(CORPUS_LOG, 'latin1').split('\n')) {
      const request = parseLogLine(text);
      if (request === null) continue;
      let differs = changes.get(request.target);
      if (differs === undefined) {
        const bytes = Buffer.from(request.target, 'latin1');
        differs = modelVerdict(oldBody, ['Googlebot'], bytes).allowed !== modelVerdict(newBody, ['Googlebot'], bytes).allowed;
        changes.set(request.target, differs);
      }
      if (differs) changed++;
    }
    expect(report.checked - report.unchanged).toBe(changed);
  });
});

describe('audit names crawlers right', () => {
  // junk user-agent lines as real files have them (appleinsider.com, www.uni-trier.de, www.sciencedaily.com)
  const body = [
    'User-agent: Mozilla/5.0 (compatible;contxbot/1.0)', 'Disallow: /', '',
    'User-agent: Linux', 'Disallow: /', '',
    'User-agent: MSIE 6.0', 'Disallow: /', '',
    'User-agent: Googlebot', 'Disallow: /nogoogle/', '',
    'User-agent: *', 'Disallow: /private/', '',
  ].join('\n');
  const MAILRU = 'Mozilla/5.0 (compatible; Linux x86_64; Mail.RU_Bot/2.0; +http://go.mail.ru/help/robots)';
  const SPIDER360 = 'Mozilla/5.0 (compatible; MSIE 9.0; Windows NT 6.1; Trident/5.0); 360Spider';
  const DAUMOA = 'Mozilla/5.0 (compatible; MSIE or Firefox mutant; not on Windows server;) Daumoa 4.0';
  const ADSBOT = 'AdsBot-Google (+http://www.google.com/adsbot.html)';
  const requests: [string, string][] = [
    ['/private/a', CHROME], ['/x', 'Mozilla/5.0 (compatible; MSIE 9.0; Windows NT 6.1; Trident/5.0)'],
    ['/private/a', MAILRU], ['/private/b', SPIDER360], ['/private/c', DAUMOA], ['/ok', DAUMOA],
    ['/nogoogle/x.png', 'Googlebot-Image/1.0'], ['/private/y.png', 'Googlebot-Image/1.0'],
    ['/private/z', ADSBOT], ['/nogoogle/', GOOGLEBOT],
  ];
  const report = (() => {
    const audit = new RobotsAudit(() => parseRobots(body));
    requests.forEach(([path, agent], i) => audit.addLine(line(path, agent), i + 1));
    return audit.report();
  })();
  const rows = report.crawlers.map((c) => [c.agent, c.group, c.requests, c.disallowed]);
  it('browsers are never crawlers, even when a junk group is named after a browser word (Mozilla, Linux, MSIE)', () => {
    expect(report.otherRequests).toBe(2);
    expect(rows.map((row) => row[0])).not.toContain('Mozilla');
    expect(rows.map((row) => row[0])).not.toContain('Linux');
    expect(rows.map((row) => row[0])).not.toContain('MSIE');
  });
  it('Mail.RU_Bot, 360Spider and Daumoa each get their own row and the * group', () => {
    expect(rows).toEqual(expect.arrayContaining([['Mail.RU_Bot', '*', 1, 1], ['360Spider', '*', 1, 1], ['Daumoa', '*', 2, 1]]));
  });
  it('GoogleOnly_ Googlebot-Image follows the Googlebot group when the file has none of its own; AdsBot ignores *', () => {
    expect(rows).toEqual(expect.arrayContaining([['Googlebot-Image', 'Googlebot', 2, 1], ['AdsBot-Google', null, 1, 0], ['Googlebot', 'Googlebot', 1, 1]]));
    expect(report.crawlers.find((c) => c.agent === 'Googlebot-Image')?.rules).toEqual([{ file: null, line: 11, pattern: '/nogoogle/', requests: 1 }]);
  });
  it('crawlerName is linear and skips browser words and URLs', () => {
    expect([MAILRU, SPIDER360, DAUMOA, 'Mozilla/5.0 (compatible; Yahoo! Slurp; http://help.yahoo.com/help/us/ysearch/slurp)', 'Mozilla/5.0 (compatible; Foo/1.0; +http://foo.example/bot.html)'].map(crawlerName))
      .toEqual(['Mail.RU_Bot', '360Spider', 'Daumoa', 'Slurp', 'Foo']);
    const long = `Mozilla/5.0 (${'x'.repeat(100_000)}) FooBot/1.0`;
    expect(crawlerName(long)).toBe('FooBot');
  });
  it('categories: search, ai-training, user-triggered (listed apart), seo, other', () => {
    const audit = new RobotsAudit(() => parseRobots('User-agent: *\nDisallow:\n'));
    const agents = [GOOGLEBOT, 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)', 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; ChatGPT-User/1.0; +https://openai.com/bot', 'Mozilla/5.0 (compatible; AhrefsBot/7.0; +http://ahrefs.com/robot/)', 'curl/8.4.0'];
    agents.forEach((agent, i) => audit.addLine(line('/', agent), i + 1));
    const report = audit.report();
    expect(Object.fromEntries(report.crawlers.map((c) => [c.agent, c.category]))).toEqual({ Googlebot: 'search', GPTBot: 'ai-training', AhrefsBot: 'seo', curl: 'other' });
    expect(report.userTriggered.map((c) => [c.agent, c.category])).toEqual([['ChatGPT-User', 'user-triggered']]);
  });
  it('--top, --since and --until', () => {
    const r = robotstxt(['audit', '--robots', robotsFile, '--top', '1', '--since', '2015-05-17T10:30:00Z', '--until', '2015-05-17T12:00', logFile]);
    expect(r.stdout).toBe([
      '11 log lines: 2 crawler requests (2 disallowed, 0 allowed, 0 no rules known), 0 other requests, 1 malformed, 8 outside --since/--until',
      'crawler                                group      category  requests  disallowed   share  2xx/3xx/4xx/5xx  robots.txt  top rule             top disallowed path',
      'Googlebot                              own group  search           1           1  100.0%  1/0/0/0                   0  line 2 /private (1)  /private/a (1)',
      '1 more crawler(s) (--top 0 lists all)                              1           1  100.0%',
      GROUP_NOTE,
    ].join('\n') + '\n');
    for (const [args, message] of [[['--top', 'x'], "--top must be a whole number from 0 to 1000000000, got 'x'"], [['--since', 'yesterday'], "--since must be a time such as 2026-11-01, 2026-11-01T08:00:00Z or seconds since 1970, got 'yesterday'"], [['--since', '2020-01-02', '--until', '2020-01-01'], '--until must be later than --since']] as [string[], string][]) {
      const bad = robotstxt(['audit', '--robots', robotsFile, ...args, logFile]);
      expect([bad.stderr, bad.status]).toEqual([`robotstxt: ${message}\n`, 2]);
    }
  });
  it('--robots-dir on a log without hosts and without --host: a clear error, not a silent 0', () => {
    const sites = join(dir, 'sites-nohost');
    mkdirSync(sites, { recursive: true });
    writeFileSync(join(sites, 'a.com.txt'), 'User-agent: *\nDisallow: /\n');
    const r = robotstxt(['audit', '--robots-dir', sites, logFile]);
    expect(r.stderr).toBe(`robotstxt: ${logFile}:1: the line names no host (a combined line without a host field), so its robots.txt is unknown: give --host <name>, or use a log whose lines carry the host (vhost_combined, CloudFront, ALB, or JSON with a host key)\n`);
    expect([r.stdout, r.status]).toEqual(['', 2]);
  });
  it('top paths of millions of rare ones stay honest: a path requested once never shows thousands', () => {
    const audit = new RobotsAudit(() => parseRobots('User-agent: *\nDisallow: /\n'));
    let n = 0;
    for (let i = 0; i < 20_000; i++) audit.addLine(line(`/private/${i}`, BINGBOT), ++n);
    for (let i = 0; i < 5; i++) audit.addLine(line('/hot', BINGBOT), ++n);
    const paths = audit.report().crawlers[0].topDisallowedPaths;
    // requests: exact since the path was last tracked; upTo: the most it can be, with what untracked time missed
    expect(paths[0].path).toBe('/hot');
    expect(paths[0].requests).toBe(5);
    expect(paths[0].upTo).toBeGreaterThanOrEqual(5);
    for (const path of paths.slice(1)) expect(path.requests).toBe(1);
    for (const path of paths) expect(path.upTo).toBeLessThanOrEqual(20_000 / 2000 + 5); // the bound: dropped halves of 2,000

  });
});

describe.skipIf(corpusMissingReason !== null)('audit of the real log mixed with its crawler lines in four formats', () => {
  // a robots.txt naming some of the log's crawlers; `Mozilla` and `Yandex` claim nothing (a browser word;
  // not a whole word of "YandexBot"), Googlebot-Image follows Googlebot (GoogleOnly)
  const body = [
    'User-agent: Googlebot', 'Disallow: /blog/geekery/', '',
    'User-agent: bingbot', 'User-agent: msnbot', 'Disallow: /projects/', 'Disallow: /files/', '',
    'User-agent: Yandex', 'Disallow: /', '',
    'User-agent: Mozilla', 'Disallow: /', '',
    'User-agent: *', 'Disallow: /presentations/', 'Disallow: /blog/tags/', '',
  ].join('\n');
  /** Each crawler of interest: how the test knows it from its User-Agent, and the group the reference applies. */
  const CRAWLERS: { agent: string; test: RegExp; group: string }[] = [
    { agent: 'Googlebot', test: /compatible; Googlebot\/2\.1/, group: 'Googlebot' },
    { agent: 'Googlebot-Image', test: /^Googlebot-Image\//, group: 'Googlebot' },
    { agent: 'bingbot', test: /compatible; bingbot\//, group: 'bingbot' },
    { agent: 'msnbot', test: /^msnbot\//, group: 'msnbot' },
    { agent: 'msnbot-media', test: /^msnbot-media\//, group: '*' },
    { agent: 'YandexBot', test: /compatible; YandexBot\//, group: '*' },
  ];
  const ascii = (text: string): boolean => /^[\x20-\x7e]*$/.test(text);
  const iso = (ms: number): string => new Date(ms).toISOString();
  /** The same request in JSON lines, CloudFront (documented field order, no #Fields line) or ALB form. */
  const render = (format: number, r: NonNullable<ReturnType<typeof parseLogLine>>): string => {
    const ua = r.userAgent as string;
    if (format === 1) return JSON.stringify({ time_iso8601: iso(r.timeMs as number), remote_addr: r.client, request_uri: r.target, status: r.status, http_user_agent: ua, host: 'www.example.org' });
    if (format === 2) {
      const [stem, ...query] = r.target.split('?');
      const at = iso(r.timeMs as number);
      return [at.slice(0, 10), at.slice(11, 19), 'IAD89-C3', '1000', r.client, r.method, 'd1.cloudfront.net', stem, String(r.status), '-', encodeURI(ua), query.length > 0 ? query.join('?') : '-', '-', 'Miss', 'id==', 'www.example.org', 'https', '100', '0.010', '-', 'TLSv1.3', 'TLS_AES_128_GCM_SHA256', 'Miss', 'HTTP/1.1', '-', '-', '4000', '0.009', 'Miss', 'text/html', '100', '-', '-'].join('\t');
    }
    return `https ${iso(r.timeMs as number)} app/lb/1 ${r.client}:4000 10.0.0.1:80 0.000 0.001 0.000 ${r.status} ${r.status} 10 100 "${r.method} https://www.example.org:443${r.target} HTTP/1.1" "${ua}" ECDHE-RSA-AES128-GCM-SHA256 TLSv1.2 arn:aws:elasticloadbalancing:us-east-1:1:targetgroup/t/1 "Root=1-1" "www.example.org" "-" 0 ${iso(r.timeMs as number)} "forward" "-" "-" "10.0.0.1:80" "200" "-" "-" TID_1`;
  };
  it('counts, per crawler, exactly the model\'s verdicts for its group', () => {
    const dir = tempDir();
    const robots = join(dir, 'robots.txt');
    writeFileSync(robots, body);
    const lines = readFileSync(CORPUS_LOG, 'latin1').split('\n').filter((text) => text !== '');
    const expected = new Map<string, { requests: number; disallowed: number }>();
    const formats = [0, 0, 0, 0];
    const mixed = ['#Version: 1.0'];
    lines.forEach((text, i) => {
      const request = parseLogLine(text);
      const ua = request?.userAgent ?? null;
      const crawler = ua === null ? undefined : CRAWLERS.find((c) => c.test.test(ua));
      const format = request !== null && ua !== null && ascii(ua) && ascii(request.target) && /^\S+$/.test(request.target) && request.status !== null ? i % 4 : 0;
      formats[format]++;
      mixed.push(format === 0 || request === null ? text : render(format, request));
      if (crawler === undefined || request === null) return;
      const counts = expected.get(crawler.agent) ?? { requests: 0, disallowed: 0 };
      counts.requests++;
      const path = request.target.split('?')[0];
      if (path !== '/robots.txt' && !modelVerdict(body, [crawler.group], Buffer.from(request.target, 'latin1')).allowed) counts.disallowed++;
      expected.set(crawler.agent, counts);
    });
    const log = join(dir, 'mixed.log');
    writeFileSync(log, mixed.join('\n') + '\n', 'latin1');
    expect(Math.min(...formats)).toBeGreaterThan(500); // every format is well represented
    const r = robotstxt(['audit', '--robots', robots, '--format', 'json', '--top', '0', log]);
    const report = JSON.parse(r.stdout);
    expect(report.lines).toBe(10000);
    expect(report.malformed.count).toBe(1);
    const got = Object.fromEntries(report.crawlers.filter((c: { agent: string }) => expected.has(c.agent)).map((c: { agent: string; group: string; requests: number; disallowed: number }) => [c.agent, { group: c.group, requests: c.requests, disallowed: c.disallowed }]));
    const want = Object.fromEntries(CRAWLERS.map((c) => [c.agent, { group: c.group, ...(expected.get(c.agent) as { requests: number; disallowed: number }) }]));
    expect(got).toEqual(want);
    // the figures, for the reader (and a check that the model is not trivially all-allowed)
    expect(want).toEqual({
      'Googlebot': { group: 'Googlebot', requests: 509, disallowed: 95 },
      'Googlebot-Image': { group: 'Googlebot', requests: 13, disallowed: 0 },
      'bingbot': { group: 'bingbot', requests: 58, disallowed: 4 },
      'msnbot': { group: 'msnbot', requests: 96, disallowed: 30 },
      'msnbot-media': { group: '*', requests: 22, disallowed: 3 },
      'YandexBot': { group: '*', requests: 64, disallowed: 38 },
    });
    expect(report.crawlers.map((c: { agent: string }) => c.agent)).not.toContain('Mozilla');
  });
});

describe('audit: AI usage, apart from robots.txt violations (examples/ai-robots.txt, examples/logs/ai-bots.log)', () => {
  const robots = fileURLToPath(new URL('../examples/ai-robots.txt', import.meta.url));
  const log = fileURLToPath(new URL('../examples/logs/ai-bots.log', import.meta.url));
  it('JSON: per crawler with a purpose, the requests robots.txt allowed against a stated preference, by statement', () => {
    const r = robotstxt(['audit', '--robots', robots, '--format', 'json', log]);
    expect(r.status).toBe(0);
    const report = JSON.parse(r.stdout);
    expect(report.usage).toEqual({ against: 5, stated: true });
    expect(report.disallowed).toBe(1); // GPTBot's /cart: a robots.txt violation, never a usage count
    expect(Object.fromEntries([...report.crawlers, ...report.userTriggered].map((c: { agent: string; usage: unknown }) => [c.agent, c.usage]))).toEqual({
      GPTBot: { purpose: 'train-ai', against: 2, by: [{ file: null, source: 'content-signal', line: 1, preference: 'ai-train=no', requests: 1 }, { file: null, source: 'content-usage', line: 4, preference: 'train-ai=n', requests: 1 }] },
      ClaudeBot: { purpose: 'train-ai', against: 2, by: [{ file: null, source: 'content-usage', line: 4, preference: 'train-ai=n', requests: 2 }] },
      Googlebot: { purpose: 'search', against: 1, by: [{ file: null, source: 'content-usage', line: 6, preference: 'search=n', requests: 1 }] },
      'ChatGPT-User': { purpose: 'ai-input', against: 0, by: [] },
    });
  });
  it('text: a usage column and a section of its own; a file that states no preference shows neither', () => {
    const lines = robotstxt(['audit', '--robots', robots, log]).stdout.split('\n');
    expect(lines[1]).toBe('crawler       group  category        requests  disallowed  share  2xx/3xx/4xx/5xx  robots.txt  usage no  top rule          top disallowed path');
    expect(lines.slice(-5)).toEqual([
      "AI usage: 5 request(s) robots.txt allowed against a stated preference for the crawler's purpose (usage no; not robots.txt violations):",
      '  GPTBot     train-ai  2  line 1 ai-train=no (1), line 4 train-ai=n (1)',
      '  ClaudeBot  train-ai  2  line 4 train-ai=n (2)',
      '  Googlebot  search    1  line 6 search=n (1)',
      '',
    ]);
    const plain = robotstxt(['audit', '--robots', fileURLToPath(new URL('../examples/shop-robots.txt', import.meta.url)), log]).stdout;
    expect(plain).not.toContain('usage no');
    expect(plain).not.toContain('AI usage');
  });
  it('--top cuts the usage list as it cuts the table, and says what it left out (text, JSON, HTML)', () => {
    const lines = robotstxt(['audit', '--robots', robots, '--top', '1', log]).stdout.split('\n');
    expect(lines.slice(-4)).toEqual([
      "AI usage: 5 request(s) robots.txt allowed against a stated preference for the crawler's purpose (usage no; not robots.txt violations):",
      '  GPTBot  train-ai  2  line 1 ai-train=no (1), line 4 train-ai=n (1)',
      '  not listed: 3 by crawlers beyond --top (--top 0 lists all)',
      '',
    ]);
    expect(JSON.parse(robotstxt(['audit', '--robots', robots, '--top', '1', '--format', 'json', log]).stdout).moreCrawlers).toEqual({ crawlers: 2, requests: 4, disallowed: 0, usageAgainst: 3 });
    const html = join(dir, 'audit-usage-top.html');
    robotstxt(['audit', '--robots', robots, '--top', '1', '--format', 'html', '--output', html, log]);
    expect(readFileSync(html, 'utf8')).toContain('</table><p>not listed: 3 by crawlers beyond --top (--top 0 lists all).</p>');
    expect(robotstxt(['audit', '--robots', robots, log]).stdout).not.toContain('not listed');
  });
  it.skipIf(!canRun(CHROMIUM !== null, 'the HTML report suite', 'apt-get install chromium (.ci/run installs it)'))('HTML: the usage column and table, as Chromium renders them', { tags: ['slow'] }, () => {
    const html = join(dir, 'audit-usage.html');
    expect(robotstxt(['audit', '--robots', robots, '--format', 'html', '--output', html, log]).status).toBe(0);
    const dom = spawnSync(CHROMIUM as string, [...chromiumFlags(join(dir, 'chromium-profile-usage')), '--dump-dom', `file://${html}`], { encoding: 'utf8', timeout: 60_000 }).stdout;
    expect(dom).toContain('<th>usage no</th>');
    const usageTable = /<table id="usage">([\s\S]*?)<\/table>/.exec(dom)?.[1] ?? '';
    expect([...usageTable.matchAll(/<tr><td>([^<]*)<\/td><td>([^<]*)<\/td><td>(\d+)<\/td>/g)].map((m) => `${m[1]} ${m[2]} ${m[3]}`)).toEqual(['GPTBot train-ai 2', 'ClaudeBot train-ai 2', 'Googlebot search 1']);
  });
});

describe('audit never counts a request whose rules are not known as allowed', () => {
  const sites = join(tempDir(), 'sites');
  mkdirSync(sites);
  writeFileSync(join(sites, 'a.example.txt'), 'User-agent: *\nDisallow: /private\n');
  mkdirSync(join(sites, 'broken.example.txt')); // a folder by a host's name: cannot be read
  const vhostLine = (host: string, path: string): string => `${host}:80 1.2.3.4 - - [17/May/2015:10:05:03 +0000] "GET ${path} HTTP/1.1" 200 1 "-" "${GOOGLEBOT}"`;
  const vhostLog = join(tempDir(), 'vhosts.log');
  writeFileSync(vhostLog, [vhostLine('a.example', '/private/x'), vhostLine('a.example', '/ok'), vhostLine('nofile.example', '/private/x'), vhostLine('nofile.example', '/y'), vhostLine('broken.example', '/z')].join('\n') + '\n');
  it('a host without a file, and one whose file cannot be read: counted as no rules known, named on stderr, in the table, in JSON and in HTML; the audit goes on', () => {
    const text = robotstxt(['audit', '--robots-dir', sites, vhostLog]);
    expect(text.status).toBe(0);
    expect(text.stderr).toBe(`robotstxt: cannot read robots file '${join(sites, 'broken.example.txt')}': is a directory: the requests of http://broken.example have no rules known\n` +
      'robotstxt: 3 crawler request(s) with no rules known (no robots.txt file, a file that could not be read, an origin never fetched, or a time before the first version), first http://nofile.example, http://broken.example: not judged, not counted as allowed (--missing disallow judges them, --missing error stops)\n');
    expect(text.stdout.split('\n').slice(0, 2)).toEqual([
      '5 log lines: 5 crawler requests (1 disallowed, 1 allowed, 3 no rules known), 0 other requests, 0 malformed',
      '3 crawler request(s) with no rules known (no robots.txt file, a file that could not be read, an origin never fetched, or a time before the first version), first http://nofile.example, http://broken.example: not judged, not counted as allowed (--missing disallow judges them, --missing error stops)',
    ]);
    const json = JSON.parse(robotstxt(['audit', '--robots-dir', sites, '--format', 'json', vhostLog]).stdout);
    expect([json.disallowed, json.allowed, json.noRulesKnown]).toEqual([1, 1, { requests: 3, origins: ['http://nofile.example', 'http://broken.example'], judged: 'not judged' }]);
    expect(json.crawlers.map((c: { agent: string; requests: number; disallowed: number; noRulesKnown: number }) => [c.agent, c.requests, c.disallowed, c.noRulesKnown])).toEqual([['Googlebot', 5, 1, 3]]);
    const html = robotstxt(['audit', '--robots-dir', sites, '--format', 'html', vhostLog]).stdout;
    expect(html).toContain('<span class="no-rules">3 no rules known</span>');
    expect(html).toContain('<p class="no-rules-note">3 crawler request(s) with no rules known (no robots.txt file, a file that could not be read, an origin never fetched, or a time before the first version), first http://nofile.example, http://broken.example: not judged, and not counted as allowed.</p>');
  });
  it('--missing disallow judges them disallowed (still counted as no rules known); --missing error stops, naming the origin (exit 2)', () => {
    const json = JSON.parse(robotstxt(['audit', '--robots-dir', sites, '--missing', 'disallow', '--format', 'json', vhostLog]).stdout);
    expect([json.disallowed, json.allowed, json.noRulesKnown.requests, json.noRulesKnown.judged]).toEqual([4, 1, 3, 'as disallowed']);
    const stop = robotstxt(['audit', '--robots-dir', sites, '--missing', 'error', vhostLog]);
    expect([stop.status, stop.stdout, stop.stderr]).toEqual([2, '', `robotstxt: no robots.txt known for http://nofile.example (no file or store record of it in ${sites}; --missing error)\n`]);
  });
  it('a --robots-dir or --store that is not a directory is a usage error (exit 2, the one wording of every command), never an audit where no host has rules', () => {
    for (const option of ['--robots-dir', '--store']) {
      const r = robotstxt(['audit', option, join(sites, 'mistyped'), vhostLog]);
      expect([r.status, r.stdout, r.stderr], option).toEqual([2, '', `robotstxt: ${option} '${join(sites, 'mistyped')}' is not a readable directory\n`]);
    }
  });
});
