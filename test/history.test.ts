// audit --robots-history: each request judged by the robots.txt version in force at its log time (the 24-hour
// copy rule: `either`; before the first version: `no rules known`), exact figures in text, JSON and HTML.
// examples/robots-history/shop.example holds three versions (2026-11-01, a staging Disallow: / on
// 2026-11-10T12:00Z, a fix on 2026-11-14); examples/logs/history.log ten requests around them.
import { describe, it, expect } from 'vitest';
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { historyTime } from '../src/node/robots-history.js';
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
    expect(lines.slice(0, 3)).toEqual([
      '10 log lines: 10 crawler requests (5 disallowed), 0 other requests, 0 malformed',
      `robots.txt versions: shop.example since ${V1}: 2 crawler request(s), 1 disallowed; shop.example since ${V2}: 3 crawler request(s), 2 disallowed; shop.example since ${V3}: 4 crawler request(s), 2 disallowed`,
      'either: 2 request(s) within 24 h after a change that the two versions judge differently (not counted as disallowed); no rules known: 1 request(s) before the first version of their host, or without a time',
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
  it.skipIf(!canRun(CHROMIUM !== null, 'the HTML report suite', 'apt-get install chromium (.ci/run installs it)'))('HTML: the versions table, as Chromium renders it', () => {
    const dir = tempDir();
    const html = join(dir, 'history.html');
    expect(robotstxt(['audit', '--robots-history', HISTORY, '--host', 'shop.example', '--format', 'html', '--output', html, LOG]).status).toBe(0);
    const dom = spawnSync(CHROMIUM as string, [...chromiumFlags(join(dir, 'profile')), '--dump-dom', `file://${html}`], { encoding: 'utf8', timeout: 60_000 }).stdout;
    const table = /<table id="versions">([\s\S]*?)<\/table>/.exec(dom)?.[1] ?? '';
    expect([...table.matchAll(/<tr><td>([^<]*)<\/td><td>([^<]*)<\/td><td>(\d+)<\/td><td>(\d+)<\/td><\/tr>/g)].map((m) => m.slice(1).join(' '))).toEqual([`shop.example ${V1} 2 1`, `shop.example ${V2} 3 2`, `shop.example ${V3} 4 2`]);
    expect(dom).toContain('2 request(s) within 24 h after a change that the two versions judge differently');
  });
});
