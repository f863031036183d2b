// audit --robots-history: each request judged by the robots.txt version in force at its log time (the 24-hour
// copy rule: `either`; before the first version: `no rules known`), exact figures in text, JSON and HTML.
// examples/robots-history/shop.example holds three versions (2026-11-01, a staging Disallow: / on
// 2026-11-10T12:00Z, a fix on 2026-11-14); examples/logs/history.log ten requests around them.
import { describe, it, expect } from 'vitest';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { historyTime } from '../src/node/history/index.js';
import { robotstxt, tempDir } from './cli-helpers.js';
import { CHROMIUM, canRun, chromiumFlags } from './browser.js';
import { modelVerdict } from './model.js';

const HISTORY = fileURLToPath(new URL('../examples/robots-history', import.meta.url));
const LOG = fileURLToPath(new URL('../examples/logs/history.log', import.meta.url));
const V1 = '2026-11-01T00:00:00.000Z';
const V2 = '2026-11-10T12:00:00.000Z';
const V3 = '2026-11-14T00:00:00.000Z';

describe('history file names: the time a version took effect', () => {
  it('ISO 8601 UTC with or without colons, basic format, a date; nothing else', () => {
    expect(historyTime('2026-11-12T10:00:00Z')).toBe(Date.UTC(2026, 10, 12, 10));
    expect(historyTime('2026-11-12T10-00-00Z')).toBe(Date.UTC(2026, 10, 12, 10));
    expect(historyTime('20261112T100000Z')).toBe(Date.UTC(2026, 10, 12, 10));
    expect(historyTime('2026-11-12T10:00:00.250Z')).toBe(Date.UTC(2026, 10, 12, 10, 0, 0, 250));
    expect(historyTime('2026-11-12')).toBe(Date.UTC(2026, 10, 12));
    for (const name of ['2026-02-30', '2026-11-12T25:00:00Z', '2026-11-12T10:00:00', 'robots', '2026-11-12T10:00:00+01:00']) expect(historyTime(name), name).toBeNull();
  });
});

describe('audit --robots-history', () => {
  it('a crawler whose group changed over time is labelled "differs by version"; across hosts "differs by host"; both "differs by host and version"', () => {
    const history = join(tempDir(), 'history');
    mkdirSync(join(history, 'a.example'), { recursive: true });
    mkdirSync(join(history, 'b.example'), { recursive: true });
    writeFileSync(join(history, 'a.example', '2026-11-01.txt'), 'User-agent: Googlebot\nDisallow: /g\n');
    writeFileSync(join(history, 'a.example', '2026-11-10.txt'), 'User-agent: *\nDisallow: /s\n');
    writeFileSync(join(history, 'b.example', '2026-11-01.txt'), 'User-agent: *\nDisallow: /s\n');
    const at = (host: string, day: string, agent = 'Googlebot/2.1 (+http://www.google.com/bot.html)'): string => `${host}:80 192.0.2.1 - - [${day}/Nov/2026:08:00:00 +0000] "GET /g HTTP/1.1" 200 10 "-" "${agent}"`;
    const labels = (lines: string[]): unknown => {
      const log = join(history, '..', `log-${lines.length}-${lines[0].length}.log`);
      writeFileSync(log, lines.join('\n') + '\n');
      const r = robotstxt(['audit', '--robots-history', history, '--format', 'json', log]);
      expect(r.status, r.stderr).toBe(0);
      return JSON.parse(r.stdout).crawlers.map((c: { agent: string; groupLabel: string }) => [c.agent, c.groupLabel]);
    };
    expect(labels([at('a.example', '02'), at('a.example', '20')])).toEqual([['Googlebot', 'differs by version']]);
    expect(labels([at('a.example', '02'), at('b.example', '20')])).toEqual([['Googlebot', 'differs by host']]);
    expect(labels([at('a.example', '02'), at('a.example', '20'), at('b.example', '21')])).toEqual([['Googlebot', 'differs by host and version']]);
  });
  it('JSON: the versions that judged requests, either and no rules known, per crawler and in all', () => {
    const r = robotstxt(['audit', '--robots-history', HISTORY, '--host', 'shop.example', '--format', 'json', LOG]);
    expect(r.status).toBe(0);
    const report = JSON.parse(r.stdout);
    expect(report.history).toEqual({
      versions: [
        { host: 'shop.example', from: V1, requests: 2, disallowed: 1 },
        { host: 'shop.example', from: V2, requests: 3, disallowed: 2 },
        { host: 'shop.example', from: V3, requests: 4, disallowed: 2 },
      ],
      either: 2,
      noRulesKnown: 1,
    });
    expect(report.disallowed).toBe(5);
    const rows = Object.fromEntries(report.crawlers.map((c: { agent: string; requests: number; disallowed: number; history: unknown; rules: unknown }) => [c.agent, [c.requests, c.disallowed, c.history, c.rules]]));
    expect(rows).toEqual({
      Googlebot: [7, 3, {
        versions: [{ host: 'shop.example', from: V1, requests: 2, disallowed: 1 }, { host: 'shop.example', from: V2, requests: 2, disallowed: 1 }, { host: 'shop.example', from: V3, requests: 2, disallowed: 1 }],
        either: 1, noRulesKnown: 1,
      }, [
        { file: `shop.example@${V1}`, line: 2, pattern: '/private/', requests: 1 },
        { file: `shop.example@${V2}`, line: 3, pattern: '/', requests: 1 },
        { file: `shop.example@${V3}`, line: 3, pattern: '/cart', requests: 1 },
      ]],
      bingbot: [3, 2, {
        versions: [{ host: 'shop.example', from: V2, requests: 1, disallowed: 1 }, { host: 'shop.example', from: V3, requests: 2, disallowed: 1 }],
        either: 1, noRulesKnown: 0,
      }, [
        { file: `shop.example@${V2}`, line: 3, pattern: '/', requests: 1 },
        { file: `shop.example@${V3}`, line: 3, pattern: '/cart', requests: 1 },
      ]],
    });
  });
  it('the either requests are those the two versions judge differently (the model of the reference agrees)', () => {
    // 2026-11-10T15:00 /a: within 24 h of the staging file; 2026-11-14T08:00 /c: within 24 h of the fix
    for (const [older, newer, path] of [['2026-11-01', '2026-11-10T12-00-00Z', '/a'], ['2026-11-10T12-00-00Z', '2026-11-14', '/c']]) {
      const verdict = (version: string): boolean => modelVerdict(readFileSync(join(HISTORY, 'shop.example', `${version}.txt`)), ['Googlebot'], `https://shop.example${path}`).allowed;
      expect(verdict(older)).not.toBe(verdict(newer));
    }
  });
  it('text: the versions and the requests no single version judged, above the table', () => {
    const lines = robotstxt(['audit', '--robots-history', HISTORY, '--host', 'shop.example', LOG]).stdout.split('\n');
    expect(lines.slice(0, 4)).toEqual([
      '10 log lines: 10 crawler requests (5 disallowed, 2 allowed, 1 no rules known), 0 other requests, 0 malformed',
      `robots.txt versions: shop.example since ${V1}: 2 crawler request(s), 1 disallowed; shop.example since ${V2}: 3 crawler request(s), 2 disallowed; shop.example since ${V3}: 4 crawler request(s), 2 disallowed`,
      'either: 2 request(s) within 24 h after a change that the two versions judge differently (not counted as disallowed); no rules known: 1 request(s) before the first version of their host, or without a time',
      '1 crawler request(s) with no rules known (no robots.txt file, a file that could not be read, an origin never fetched, or a time before the first version), first http://shop.example: not judged, not counted as allowed (--missing disallow judges them, --missing error stops)',
    ]);
  });
  it('a file not named by a time, a folder that is not one: exit 2 naming it', () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'shop.example'));
    writeFileSync(join(dir, 'shop.example', 'latest.txt'), 'User-agent: *\nDisallow: /\n');
    const bad = robotstxt(['audit', '--robots-history', dir, '--host', 'shop.example', LOG]);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain(`robots.txt history file '${join(dir, 'shop.example', 'latest.txt')}' is not named by the time it took effect`);
    const missing = robotstxt(['audit', '--robots-history', join(dir, 'nope'), LOG]);
    expect(missing.status).toBe(2);
    expect(missing.stderr).toBe(`robotstxt: --robots-history '${join(dir, 'nope')}' is not a readable directory\n`);
  });
  it.skipIf(!canRun(CHROMIUM !== null, 'the HTML report suite', 'apt-get install chromium (.ci/run installs it)'))('HTML: the versions table, as Chromium renders it', { tags: ['slow'] }, () => {
    const dir = tempDir();
    const html = join(dir, 'history.html');
    expect(robotstxt(['audit', '--robots-history', HISTORY, '--host', 'shop.example', '--format', 'html', '--output', html, LOG]).status).toBe(0);
    const dom = spawnSync(CHROMIUM as string, [...chromiumFlags(join(dir, 'profile')), '--dump-dom', `file://${html}`], { encoding: 'utf8', timeout: 60_000 }).stdout;
    const table = /<table id="versions">([\s\S]*?)<\/table>/.exec(dom)?.[1] ?? '';
    expect([...table.matchAll(/<tr><td>([^<]*)<\/td><td>([^<]*)<\/td><td>(\d+)<\/td><td>(\d+)<\/td><\/tr>/g)].map((m) => m.slice(1).join(' '))).toEqual([`shop.example ${V1} 2 1`, `shop.example ${V2} 3 2`, `shop.example ${V3} 4 2`]);
    expect(dom).toContain('2 request(s) within 24 h after a change that the two versions judge differently');
    // the timeline marks where each version begins (the log starts before the first)
    expect([...dom.matchAll(/<line class="change"[^>]*><title>([^<]*)<\/title>/g)].map((m) => m[1])).toEqual([
      `robots.txt of shop.example known from here: its first version in force from ${V1}`,
      `robots.txt of shop.example changed: the version in force from ${V2}`,
      `robots.txt of shop.example changed: the version in force from ${V3}`,
    ]);
  });
});

describe('a store that keeps versions (fetch --store at several times), and audit --store by version', () => {
  it('three fetches of a robots.txt that changes twice keep three versions with exact times; an unchanged fetch adds none; the bound drops the oldest; audit gives the figures --robots-history gives', { tags: ['slow'], timeout: 120_000 }, async () => {
    const { createServer } = await import('node:http');
    const { robotstxtAsync } = await import('./cli-helpers.js');
    let body = readFileSync(join(HISTORY, 'shop.example', '2026-11-01.txt'));
    const server = createServer((request, response) => {
      if (request.url !== '/robots.txt') { response.writeHead(404); response.end(); return; }
      response.writeHead(200, { 'content-type': 'text/plain' });
      response.end(body);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as { port: number }).port;
    const store = tempDir();
    const fetchAt = async (now: string, extra: string[] = []): Promise<void> => {
      const r = await robotstxtAsync(['fetch', '--store', store, '--scheme', 'http', `127.0.0.1:${port}`, '--now', now, ...extra]);
      expect(r.status, r.stderr).toBe(0);
    };
    const versions = (): unknown[] => (JSON.parse(readFileSync(join(store, `http@127.0.0.1@${port}.versions`, 'index.json'), 'utf8')) as { versions: { firstSeen: string; lastSeen: string; effect: string; status: number }[] }).versions.map((v) => [v.firstSeen, v.lastSeen, v.effect, v.status]);
    try {
      await fetchAt('2026-11-01T00:00:00Z');
      await fetchAt('2026-11-05T00:00:00Z'); // the same body: the version is seen again
      body = readFileSync(join(HISTORY, 'shop.example', '2026-11-10T12-00-00Z.txt'));
      await fetchAt('2026-11-10T12:00:00Z');
      body = readFileSync(join(HISTORY, 'shop.example', '2026-11-14.txt'));
      await fetchAt('2026-11-14T00:00:00Z');
      expect(versions()).toEqual([
        ['2026-11-01T00:00:00Z', '2026-11-05T00:00:00Z', 'rules', 200],
        ['2026-11-10T12:00:00Z', '2026-11-10T12:00:00Z', 'rules', 200],
        ['2026-11-14T00:00:00Z', '2026-11-14T00:00:00Z', 'rules', 200],
      ]);
      // each version's body file is named by its bytes' SHA-256 (two versions share a file only when their bytes are equal)
      const named = ['2026-11-01.txt', '2026-11-10T12-00-00Z.txt', '2026-11-14.txt'].map((file) => `${createHash('sha256').update(readFileSync(join(HISTORY, 'shop.example', file))).digest('hex')}.txt`);
      expect(readdirSync(join(store, `http@127.0.0.1@${port}.versions`)).sort()).toEqual([...named, 'index.json'].sort());
      // the current files are where older readers look: the newest version
      expect(readFileSync(join(store, `http@127.0.0.1@${port}.txt`), 'utf8')).toBe(body.toString());
      // audit --store judges each request by its version: the figures of --robots-history
      const viaStore = await robotstxtAsync(['audit', '--store', store, '--host', `127.0.0.1:${port}`, '--format', 'json', LOG]);
      expect(viaStore.status, viaStore.stderr).toBe(0);
      const history = JSON.parse(viaStore.stdout).history;
      expect(history).toEqual({
        versions: [
          { host: `127.0.0.1:${port}`, from: V1, requests: 2, disallowed: 1 },
          { host: `127.0.0.1:${port}`, from: V2, requests: 3, disallowed: 2 },
          { host: `127.0.0.1:${port}`, from: V3, requests: 4, disallowed: 2 },
        ],
        either: 2,
        noRulesKnown: 1,
      });
      // history: the versions, and what each change flipped for a URL list
      const urlFile = join(store, '..', `watched-${port}.txt`);
      writeFileSync(urlFile, ['/a', '/private/x', '/cart', `http://127.0.0.1:${port}/c`, 'https://elsewhere.example/a'].join('\n') + '\n');
      const listed = await robotstxtAsync(['history', `http://127.0.0.1:${port}`, '--store', store, '--urls', urlFile, '--agent', 'Googlebot']);
      expect(listed.status, listed.stderr).toBe(0);
      const origin = `http://127.0.0.1:${port}`;
      expect(listed.stdout.split('\n')).toEqual([
        `${origin}: 3 version(s) in the store`,
        '  2026-11-01T00:00:00Z  rules         status 200  seen until 2026-11-05T00:00:00Z',
        '  2026-11-10T12:00:00Z  rules         status 200  seen until 2026-11-10T12:00:00Z',
        '  2026-11-14T00:00:00Z  rules         status 200  seen until 2026-11-14T00:00:00Z',
        'change 2026-11-01T00:00:00Z -> 2026-11-10T12:00:00Z, Googlebot: 3 newly disallowed, 0 newly allowed (of 4 URL(s))',
        ...[`${origin}/a`, `${origin}/c`, `${origin}/cart`].map((url) => `  newly disallowed ${url}  (now: disallow / (line 3))`),
        'change 2026-11-10T12:00:00Z -> 2026-11-14T00:00:00Z, Googlebot: 0 newly disallowed, 2 newly allowed (of 4 URL(s))',
        ...[`${origin}/a`, `${origin}/c`].map((url) => `  newly allowed ${url}  (now: no rule)`),
        '',
      ]);
      // --urls lines are matched to the origin by the URL model (a scheme in capitals is the same origin), not by their text
      const variants = join(store, '..', `variants-${port}.txt`);
      writeFileSync(variants, [`HTTP://127.0.0.1:${port}/cart`, `http://127.0.0.1:${port}/a`].join('\n') + '\n');
      const byModel = await robotstxtAsync(['history', origin, '--store', store, '--urls', variants, '--agent', 'Googlebot']);
      expect(byModel.stdout.split('\n').filter((line) => line.startsWith('change ') || line.startsWith('  newly'))).toEqual([
        'change 2026-11-01T00:00:00Z -> 2026-11-10T12:00:00Z, Googlebot: 2 newly disallowed, 0 newly allowed (of 2 URL(s))',
        `  newly disallowed HTTP://127.0.0.1:${port}/cart  (now: disallow / (line 3))`,
        `  newly disallowed ${origin}/a  (now: disallow / (line 3))`,
        'change 2026-11-10T12:00:00Z -> 2026-11-14T00:00:00Z, Googlebot: 0 newly disallowed, 1 newly allowed (of 2 URL(s))',
        `  newly allowed ${origin}/a  (now: no rule)`,
      ]);
      // a host named without a scheme is found under http when the store keeps it only there; a scheme named says where it is
      const byHost = await robotstxtAsync(['history', `127.0.0.1:${port}`, '--store', store]);
      expect([byHost.status, byHost.stdout.split('\n')[0]]).toEqual([0, `${origin}: 3 version(s) in the store`]);
      const otherScheme = await robotstxtAsync(['history', `https://127.0.0.1:${port}`, '--store', store]);
      expect([otherScheme.status, otherScheme.stderr]).toEqual([2, `robotstxt: the store '${store}' keeps no versions of https://127.0.0.1:${port}, but 3 of ${origin} (name ${origin})\n`]);
      // diff of two stored versions, by time
      const byTime = await robotstxtAsync(['diff', '2026-11-05', '2026-11-12', '--store', store, '--origin', origin, '--agent', 'Googlebot', '--urls', urlFile, '--format', 'json']);
      expect(byTime.status, byTime.stderr).toBe(0);
      const diffReport = JSON.parse(byTime.stdout);
      // the line of another origin is left out and said (it was judged by this origin's rules)
      expect([diffReport.newlyDisallowedRequests, diffReport.newlyAllowedRequests, diffReport.newlyDisallowed.map((c: { url: string }) => c.url).sort()]).toEqual([3, 0, [`${origin}/a`, `${origin}/c`, `${origin}/cart`]]);
      expect(byTime.stderr).toBe(`robotstxt: 1 line(s) of ${urlFile} name another origin or none (the first: https://elsewhere.example/a): left out, only ${origin}'s versions are compared\n`);
      // --origin read as history reads its argument: a host alone is found under http when the store keeps it only there
      const bareHost = await robotstxtAsync(['diff', '2026-11-05', '2026-11-12', '--store', store, '--origin', `127.0.0.1:${port}`, '--agent', 'Googlebot', '--urls', urlFile, '--format', 'json']);
      expect([bareHost.status, JSON.parse(bareHost.stdout).newlyDisallowedRequests]).toEqual([0, 3]);
      const listedOthers = await robotstxtAsync(['history', origin, '--store', store, '--urls', urlFile, '--agent', 'Googlebot']);
      expect(listedOthers.stderr).toBe(`robotstxt: 1 line(s) of ${urlFile} name another origin or none (the first: https://elsewhere.example/a): left out, only ${origin}'s versions are compared\n`);
      const early = await robotstxtAsync(['diff', '2026-10-01', '2026-11-12', '--store', store, '--origin', origin, '--agent', 'Googlebot', '--urls', urlFile]);
      expect([early.status, early.stderr]).toEqual([2, `robotstxt: the store has no version of ${origin} in force at 2026-10-01 (its first was seen later)\n`]);
      // fetch --fail-on-change: an unchanged fetch exits 0; one whose change flips a watched URL exits 1 and prints it
      const same = await robotstxtAsync(['fetch', '--store', store, '--scheme', 'http', `127.0.0.1:${port}`, '--now', '2026-11-16T00:00:00Z', '--fail-on-change', urlFile, '--agent', 'Googlebot']);
      expect([same.status, same.stderr.includes('changed')]).toEqual([0, false]);
      body = Buffer.from('User-agent: *\nDisallow: /private/\nDisallow: /cart\nDisallow: /a\n');
      const flipped = await robotstxtAsync(['fetch', '--store', store, '--scheme', 'http', `127.0.0.1:${port}`, '--now', '2026-11-18T00:00:00Z', '--fail-on-change', urlFile, '--agent', 'Googlebot']);
      expect(flipped.status).toBe(1);
      expect(flipped.stderr.split('\n').filter((line) => line.includes('changed'))).toEqual([
        `robotstxt fetch: ${origin} changed (2026-11-14T00:00:00Z -> 2026-11-18T00:00:00Z), Googlebot: newly disallowed ${origin}/a  (now: disallow /a (line 4))`,
        `robotstxt fetch: --fail-on-change: 1 verdict(s) of ${urlFile} changed`,
      ]);
      // a bound of 2 drops the oldest at the next change
      body = Buffer.from('User-agent: *\nDisallow: /new\n');
      await fetchAt('2026-11-20T00:00:00Z', ['--keep-versions', '2']);
      expect(versions()).toEqual([['2026-11-18T00:00:00Z', '2026-11-18T00:00:00Z', 'rules', 200], ['2026-11-20T00:00:00Z', '2026-11-20T00:00:00Z', 'rules', 200]]);
      const sha = (text: string): string => `${createHash('sha256').update(text).digest('hex')}.txt`;
      expect(readdirSync(join(store, `http@127.0.0.1@${port}.versions`)).sort()).toEqual([sha('User-agent: *\nDisallow: /private/\nDisallow: /cart\nDisallow: /a\n'), sha('User-agent: *\nDisallow: /new\n'), 'index.json'].sort());
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe('a store written before versions', () => {
  it('is read as before (no history: the current copy judges every request), and a later fetch starts its versions without losing it', async () => {
    const { createServer } = await import('node:http');
    const { robotstxtAsync } = await import('./cli-helpers.js');
    const body = readFileSync(join(HISTORY, 'shop.example', '2026-11-14.txt'));
    const server = createServer((_request, response) => { response.writeHead(200, { 'content-type': 'text/plain' }); response.end(body); });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as { port: number }).port;
    const store = tempDir();
    try {
      // --keep-versions 0 writes the store as it was before versions: the record and the body only
      expect((await robotstxtAsync(['fetch', '--store', store, '--scheme', 'http', `127.0.0.1:${port}`, '--keep-versions', '0', '--now', '2026-11-01T00:00:00Z'])).status).toBe(0);
      expect(readdirSync(store).sort()).toEqual([`http@127.0.0.1@${port}.json`, `http@127.0.0.1@${port}.txt`]);
      const before = await robotstxtAsync(['audit', '--store', store, '--host', `127.0.0.1:${port}`, '--format', 'json', LOG]);
      const report = JSON.parse(before.stdout);
      expect(report.history).toBeNull();
      expect([report.crawlerRequests, report.disallowed]).toEqual([10, 3]); // /private/x, /cart twice: today's file for every request
      // a later fetch keeps versions: the first is the current copy; the record and body stay where they were
      expect((await robotstxtAsync(['fetch', '--store', store, '--scheme', 'http', `127.0.0.1:${port}`, '--now', '2026-11-03T00:00:00Z'])).status).toBe(0);
      expect(readdirSync(store).sort()).toEqual([`http@127.0.0.1@${port}.json`, `http@127.0.0.1@${port}.txt`, `http@127.0.0.1@${port}.versions`]);
      const after = JSON.parse((await robotstxtAsync(['audit', '--store', store, '--host', `127.0.0.1:${port}`, '--format', 'json', LOG])).stdout);
      expect([after.history, after.crawlerRequests, after.disallowed]).toEqual([null, 10, 3]); // one version: nothing changed, read as before
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  }, 60_000);
});

describe('the Node API of versions', () => {
  it('RobotsHistory.versionsAt: the version in force, and the one before within 24 h of a change', async () => {
    const { RobotsHistory, originOf, CACHE_WINDOW_MS } = await import('../src/node/index.js');
    const history = new RobotsHistory(HISTORY, { reading: { mode: 'google', maxBytes: 512_000 } });
    const origin = originOf('https://shop.example/a');
    if (origin === null) throw new Error('no origin');
    const at = (time: string): [string | null, string | null] => {
      const { current, previous } = history.versionsAt(origin, Date.parse(time));
      return [current?.label ?? null, previous?.label ?? null];
    };
    expect(CACHE_WINDOW_MS).toBe(24 * 3600 * 1000);
    expect(at('2026-10-30T00:00:00Z')).toEqual([null, null]);
    expect(at('2026-11-05T00:00:00Z')).toEqual([V1, null]);
    expect(at('2026-11-11T11:59:59Z')).toEqual([V2, V1]);
    expect(at('2026-11-11T12:00:00Z')).toEqual([V2, null]);
    expect(history.versionsAt(origin, Date.parse('2026-11-12T00:00:00Z')).current?.robots.isAllowed('https://shop.example/a', 'Googlebot')).toBe(false);
    expect(history.versionAt(origin, Date.parse('2026-11-11T11:59:59Z'))?.label).toBe(V2);
    expect(history.versionAt(origin, Date.parse('2026-10-30T00:00:00Z'))).toBeNull();
    expect(history.versionAt(origin, Date.parse('2026-11-20T00:00:00Z'))?.name).toBe(`shop.example@${V3}`);
  });
});

describe('version tables of many hosts with many versions', () => {
  it('stay within their memory: the host met longest ago is listed again when met again, with the same versions and verdicts', { tags: ['slow'], timeout: 60_000 }, async () => {
    const { RobotsHistory, originOf } = await import('../src/node/index.js');
    const folder = join(tempDir(), 'history');
    const hour = 3600 * 1000;
    const start = Date.UTC(2020, 0, 1);
    // 50 hosts of 1,000 versions an hour apart: about 38 MB of tables at ~770 bytes a version, over the 32 MiB kept
    for (let h = 0; h < 50; h++) {
      mkdirSync(join(folder, `h${h}.example`), { recursive: true });
      for (let v = 0; v < 1000; v++) writeFileSync(join(folder, `h${h}.example`, `${new Date(start + v * hour).toISOString().slice(0, 19).replaceAll(':', '-')}Z.txt`), `User-agent: *\nDisallow: /${v}\n`);
    }
    const history = new RobotsHistory(folder, { reading: { mode: 'google', maxBytes: 512_000 } });
    const at = start + 500 * hour + 1;
    const versionOf = (h: number) => {
      const origin = originOf(`https://h${h}.example/`);
      if (origin === null) throw new Error('no origin');
      return history.versionAt(origin, at);
    };
    const first = versionOf(0);
    expect(first?.label).toBe(new Date(start + 500 * hour).toISOString());
    expect(versionOf(0)).toBe(first); // kept while the tables fit
    const listed = Array.from({ length: 49 }, (_, i) => versionOf(i + 1));
    expect(versionOf(49)).toBe(listed[48]); // the host met last is kept
    const again = versionOf(0);
    expect(again).not.toBe(first); // the host met longest ago was dropped: listed again
    expect([again?.key, again?.name, again?.file]).toEqual([first?.key, first?.name, first?.file]);
    expect(again?.robots.isAllowed('https://h0.example/500', 'Googlebot')).toBe(false);
    expect(again?.robots.isAllowed('https://h0.example/501', 'Googlebot')).toBe(true);
  });
});

describe('memory with thousands of versions', () => {
  // 300 hosts of 10 versions each (a day apart, 40 to 80 rules each), and a log whose requests each meet
  // another version: a parse per request, far more versions than the history keeps parsed
  const dir = tempDir();
  const folder = join(dir, 'history');
  const day = 24 * 3600 * 1000;
  const start = Date.UTC(2026, 10, 1);
  for (let h = 0; h < 300; h++) {
    mkdirSync(join(folder, `h${h}.example`), { recursive: true });
    for (let v = 0; v < 10; v++) {
      const rules = Array.from({ length: 40 + ((h * 7 + v * 13) % 40) }, (_, r) => `Disallow: /${v}/${h}/${r}/${'x'.repeat(r % 9)}`);
      writeFileSync(join(folder, `h${h}.example`, `${new Date(start + v * day).toISOString().slice(0, 10)}.txt`), `User-agent: *\n${rules.join('\n')}\n`);
    }
  }
  const lines: string[] = [];
  for (let v = 0; v < 10; v++) for (let h = 0; h < 300; h++) lines.push(`h${h}.example:443 66.249.66.1 - - [${String(1 + v).padStart(2, '0')}/Nov/2026:12:00:00 +0000] "GET /${v}/${h}/${(h + v) % 50}/ HTTP/1.1" 200 100 "-" "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"`);
  const chunk = new TextEncoder().encode(lines.join('\n') + '\n');

  it('versions dropped from the cache while their requests wait are judged and closed in bounded batches, with the report of one batch', async () => {
    const { RobotsHistory, RobotsAudit, rulesOfHistory } = await import('../src/node/index.js');
    const audit = async (earlyJudging: boolean): Promise<{ report: unknown; batches: number[] }> => {
      const history = new RobotsHistory(folder, { reading: { mode: 'google', maxBytes: 512_000 } });
      const batches: number[] = [];
      let requests = 0;
      const counted = {
        versionsAt: (origin: Parameters<typeof history.versionsAt>[0], timeMs: number) => { requests++; return history.versionsAt(origin, timeMs); },
        holdDropped: () => history.holdDropped(),
        closeDropped: () => { batches.push(requests); requests = 0; history.closeDropped(); },
        get mustCloseDropped() { return earlyJudging && history.mustCloseDropped; },
      };
      const robotsAudit = new RobotsAudit(rulesOfHistory(counted), { requireHost: true, filePerHost: true });
      await robotsAudit.addChunk(chunk, 1);
      return { report: robotsAudit.report(), batches: batches.filter((count) => count > 0) };
    };
    const early = await audit(true);
    const late = await audit(false);
    // one chunk of 3,000 requests: judged in batches of at most a few hundred (the dropped versions' bound),
    // not all at its end; every request counted once, with the same report
    expect(late.batches).toEqual([3000]);
    expect(early.batches.length).toBeGreaterThan(3);
    expect(Math.max(...early.batches)).toBeLessThan(1000);
    expect(early.batches.reduce((sum, count) => sum + count, 0)).toBe(3000);
    expect(early.report).toEqual(late.report);
    expect((early.report as { disallowed: number; crawlerRequests: number }).crawlerRequests).toBe(3000);
  });

  it('a program that asks versions and never calls closeDropped: the versions the cache drops are closed, and parsed again when asked', async () => {
    const { RobotsHistory, originOf, RobotsError } = await import('../src/node/index.js');
    const history = new RobotsHistory(folder, { reading: { mode: 'google', maxBytes: 512_000 } });
    const originOfHost = (h: number) => originOf(`https://h${h}.example/`) as NonNullable<ReturnType<typeof originOf>>;
    const first = history.versionAt(originOfHost(0), start + 12 * 3600 * 1000);
    const firstRules = first?.robots;
    expect(firstRules?.isAllowed('https://h0.example/0/0/0/', 'Googlebot')).toBe(false);
    // 3,000 versions parsed, far more than the cache keeps
    for (let v = 0; v < 10; v++) for (let h = 0; h < 300; h++) expect(history.versionAt(originOfHost(h), start + v * day + 1)?.robots.isAllowed(`https://h${h}.example/${v}/${h}/0/`, 'Googlebot')).toBe(false);
    expect(history.mustCloseDropped).toBe(false);
    expect(() => firstRules?.isAllowed('https://h0.example/0/0/0/', 'Googlebot')).toThrow(RobotsError);
    const asked = history.versionAt(originOfHost(0), start + 12 * 3600 * 1000);
    expect(asked?.robots).not.toBe(firstRules);
    expect(asked?.robots.isAllowed('https://h0.example/0/0/0/', 'Googlebot')).toBe(false);
    expect(asked?.robots.isAllowed('https://h0.example/1/0/0/', 'Googlebot')).toBe(true);
  });

  it('afterBatch: called once per closeDropped (after each judged batch), where the caller governs its heap; anything but a function is refused', async () => {
    const { RobotsHistory } = await import('../src/node/index.js');
    for (const bad of [0, 'gc', {}, null]) {
      expect(() => new RobotsHistory(folder, { reading: { mode: 'google', maxBytes: 512_000 }, afterBatch: bad as never })).toThrow('afterBatch must be a function, got ');
    }
    let calls = 0;
    const history = new RobotsHistory(folder, { reading: { mode: 'google', maxBytes: 512_000 }, afterBatch: () => { calls++; } });
    expect(history.mustCloseDropped).toBe(false);
    history.closeDropped();
    history.closeDropped();
    expect(calls).toBe(2);
  });
});
