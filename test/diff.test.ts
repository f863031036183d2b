// robotstxt diff: verdict changes in both directions, request counts, deciding rules, text and JSON.
import { describe, it, expect } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { robotstxt, tempDir, CORPUS_LOG, corpusMissingReason } from './cli-helpers.js';
import { parseLogLine } from '../src/node/logs/index.js';
import { modelVerdict } from './model.js';
import { parseRobots, RobotsDiff } from '../src/node/index.js';

const dir = tempDir();
const oldFile = join(dir, 'old.txt');
const newFile = join(dir, 'new.txt');
writeFileSync(oldFile, 'User-agent: *\nDisallow: /private\nDisallow: /tmp\n');
writeFileSync(newFile, 'User-agent: *\nDisallow: /private\nAllow: /private/press\nDisallow: /search\n');
const urlsFile = join(dir, 'urls.txt');
writeFileSync(urlsFile, ['/search?q=1', '/search?q=1', '/search?q=2', '/tmp/x', '/private/press/a', '/private/x', '/home', '/search?q=1'].join('\n') + '\n');

describe('robotstxt diff', () => {
  it('text: counts per direction, deciding rules, URLs by requests', () => {
    const r = robotstxt(['diff', oldFile, newFile, '--agent', 'Googlebot', '--urls', urlsFile]);
    expect(r.stdout).toBe([
      `${oldFile} -> ${newFile} for Googlebot: 8 request(s) checked, 2 unchanged`,
      'newly disallowed: 4 request(s) of 2 distinct URL(s)',
      '  deciding rules now:',
      '           4  disallow /search (line 4)',
      '  URLs:',
      '           3  /search?q=1  (was: no rule; now: disallow /search (line 4))',
      '           1  /search?q=2  (was: no rule; now: disallow /search (line 4))',
      'newly allowed: 2 request(s) of 2 distinct URL(s)',
      '  deciding rules now:',
      '           1  allow /private/press (line 3)',
      '  URLs:',
      '           1  /private/press/a  (was: disallow /private (line 2); now: allow /private/press (line 3))',
      '           1  /tmp/x  (was: disallow /tmp (line 3); now: no rule)',
    ].join('\n') + '\n');
    expect(r.status).toBe(0);
  });
  it('a direction whose URLs no rule decides now has no empty "deciding rules now" heading', () => {
    const none = join(dir, 'none.txt');
    writeFileSync(none, 'User-agent: *\nDisallow: /private\nDisallow: /search\n');
    const r = robotstxt(['diff', oldFile, none, '--agent', 'Googlebot', '--urls', urlsFile]);
    expect(r.stdout).toContain('newly allowed: 1 request(s) of 1 distinct URL(s)\n  URLs:\n           1  /tmp/x  (was: disallow /tmp (line 3); now: no rule)\n');
    expect(r.stdout).not.toContain('deciding rules now:\n  URLs');
  });
  it('--fail-on: exit 1 when that change happens (a CI gate), 0 when it does not', () => {
    const gate = (failOn: string, newer = newFile): { status: number | null; stderr: string } => robotstxt(['diff', oldFile, newer, '--agent', 'Googlebot', '--urls', urlsFile, '--fail-on', failOn]);
    expect(gate('newly-disallowed')).toMatchObject({ status: 1, stderr: 'robotstxt: diff: --fail-on newly-disallowed: 4 request(s) change\n' });
    expect(gate('newly-allowed')).toMatchObject({ status: 1, stderr: 'robotstxt: diff: --fail-on newly-allowed: 2 request(s) change\n' });
    expect(gate('any')).toMatchObject({ status: 1, stderr: 'robotstxt: diff: --fail-on any: 6 request(s) change\n' });
    expect(gate('newly-disallowed', oldFile)).toMatchObject({ status: 0, stderr: '' });
    expect(gate('sometimes')).toMatchObject({ status: 2, stderr: "robotstxt: --fail-on must be newly-disallowed, newly-allowed or any, got 'sometimes'\n" });
  });
  it('--limit cuts the lists and says so', () => {
    const r = robotstxt(['diff', oldFile, newFile, '--agent', 'x', '--urls', urlsFile, '--limit', '1']);
    expect(r.stdout).toContain('    ... 1 more (--limit, or --format json for all)\n');
  });
  it('json: one object with every changed URL', () => {
    const report = JSON.parse(robotstxt(['diff', oldFile, newFile, '--agent', 'x', '--urls', urlsFile, '--format', 'json']).stdout);
    expect(report.checked).toBe(8);
    expect(report.unchanged).toBe(2);
    expect(report.newlyDisallowed.map((c: { url: string; requests: number }) => [c.url, c.requests])).toEqual([['/search?q=1', 3], ['/search?q=2', 1]]);
    expect(report.newlyAllowed[0]).toEqual({
      url: '/private/press/a', requests: 1,
      oldRule: { kind: 'disallow', line: 2, pattern: '/private', priority: 8, indexHtmRule: false },
      newRule: { kind: 'allow', line: 3, pattern: '/private/press', priority: 14, indexHtmRule: false },
    });
    expect(report.disallowingRules).toEqual([{ rule: { kind: 'disallow', line: 4, pattern: '/search', priority: 7, indexHtmRule: false }, requests: 4 }]);
  });
  it('--log reads request targets and counts lines that are not log lines', () => {
    const log = join(dir, 'access.log');
    writeFileSync(log, '1.2.3.4 - - [t] "GET /search?q=1 HTTP/1.1" 200 1 "-" "Googlebot"\ngarbage\n1.2.3.4 - - [t] "GET /home HTTP/1.1" 200 1\n');
    const r = robotstxt(['diff', oldFile, newFile, '--agent', 'x', '--log', log, '--format', 'json']);
    expect(JSON.parse(r.stdout).checked).toBe(2);
    expect(r.stderr).toBe(`robotstxt: ${log}: 1 of 3 lines were not access log lines (skipped)\n`);
  });
  it('usage errors: exit 2', () => {
    const cases: [string[], string][] = [
      [['diff', oldFile], 'robotstxt: diff needs <old-robots> and <new-robots>, got 1 file(s) (see robotstxt diff --help)\n'],
      [['diff', oldFile, newFile, '--urls', urlsFile], 'robotstxt: diff needs at least one --agent <token> (see robotstxt diff --help)\n'],
      [['diff', oldFile, newFile, '--agent', 'x'], 'robotstxt: diff needs exactly one of --urls <file> or --log <file>\n'],
      [['diff', oldFile, join(dir, 'nope'), '--agent', 'x', '--urls', urlsFile], `robotstxt: cannot read robots file '${join(dir, 'nope')}': no such file\n`],
    ];
    for (const [args, message] of cases) {
      const r = robotstxt(args);
      expect(r.stderr).toBe(message);
      expect(r.status).toBe(2);
    }
  });
});

describe.skipIf(corpusMissingReason !== null)('robotstxt diff on the real Apache log', () => {
  it('counts match the model request by request', () => {
    const blocking = join(dir, 'blocking.txt');
    writeFileSync(blocking, 'User-agent: *\nDisallow: /presentations/\nDisallow: /*.png$\nAllow: /images/\n');
    const report = JSON.parse(robotstxt(['diff', oldFile, blocking, '--agent', 'Googlebot', '--log', CORPUS_LOG, '--format', 'json']).stdout);
    const targets = readFileSync(CORPUS_LOG, 'latin1').split('\n').map((l) => parseLogLine(l)?.target).filter((t): t is string => t !== undefined);
    let blocked = 0;
    let freed = 0;
    for (const target of targets) {
      const bytes = Buffer.from(target, 'latin1');
      const before = modelVerdict(readFileSync(oldFile), ['Googlebot'], bytes).allowed;
      const after = modelVerdict(readFileSync(blocking), ['Googlebot'], bytes).allowed;
      if (before && !after) blocked++;
      if (!before && after) freed++;
    }
    expect(report.checked).toBe(targets.length);
    expect(report.newlyDisallowed.reduce((sum: number, c: { requests: number }) => sum + c.requests, 0)).toBe(blocked);
    expect(report.newlyAllowed.reduce((sum: number, c: { requests: number }) => sum + c.requests, 0)).toBe(freed);
    expect(blocked).toBeGreaterThan(1000);
  });
});

describe('diff on many distinct URLs', () => {
  it('lists at most 100,000 changed URLs but counts every request', { tags: ['slow'] }, () => {
    const many = join(dir, 'many.txt');
    const lines: string[] = [];
    for (let i = 0; i < 100_500; i++) lines.push(`/search?q=${i}`);
    lines.push('/search?q=0');
    writeFileSync(many, lines.join('\n') + '\n');
    const report = JSON.parse(robotstxt(['diff', oldFile, newFile, '--agent', 'x', '--urls', many, '--format', 'json']).stdout);
    expect(report.truncated).toBe(true);
    expect(report.newlyDisallowed.length).toBe(100_000);
    expect(report.checked).toBe(100_501);
    expect(report.unchanged).toBe(0);
    expect(report.disallowingRules[0].requests).toBe(100_501);
  });
});

describe('RobotsDiff: deciding rules read per URL when few change, in bulk when many do', () => {
  const before = parseRobots('User-agent: *\nDisallow: /private\nDisallow: /shop/\n').matcher('bot');
  const after = parseRobots('User-agent: *\nDisallow: /private\nAllow: /shop/index.html\nDisallow: /shop/\nAllow: /private/press\n').matcher('bot');
  const encode = (urls: string[]): Uint8Array => new TextEncoder().encode(urls.join('\n') + '\n');
  const changes = (urls: string[]): unknown => {
    const diff = new RobotsDiff(before, after);
    diff.addLines(encode(urls));
    const report = diff.report();
    return [...report.newlyAllowed, ...report.newlyDisallowed].map((change) => [change.url, change.requests, change.oldRule, change.newRule]);
  };
  /** What explain() says of a URL changed this many times. */
  const explained = (url: string, requests: number): unknown => [url, requests, before.explain(url).rule, after.explain(url).rule];
  it('many changes (the bulk path): the rules explain() gives, the index.htm rule included', () => {
    expect(changes(['/shop/', '/private/press/1', '/shop/', '/x'])).toEqual([explained('/shop/', 2), explained('/private/press/1', 1)]);
    expect(after.explain('/shop/').rule).toEqual({ kind: 'allow', line: 3, pattern: '/shop/index.html', priority: 7, indexHtmRule: true });
  });
  it('one change in 1,000 lines (the per-URL path): the same rules', () => {
    const urls = Array.from({ length: 1000 }, (_, i) => `/same/${i}`);
    urls[500] = '/private/press/1';
    expect(changes(urls)).toEqual([explained('/private/press/1', 1)]);
  });
});
