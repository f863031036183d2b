// One reading of an agent, said aloud: check answers for the product token given (the reference) unless
// --as-crawler; audit answers as the crawler behaves unless --as-token. Each pair agrees on every request of
// a log that makes the two readings differ (Googlebot-Image and -News without groups of their own, AdsBot
// ignoring *), and each says which reading it used.
import { describe, it, expect } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { parseRobots, productToken } from '../src/node/index.js';
import { robotstxt, tempDir } from './cli-helpers.js';

const dir = tempDir();
const robotsFile = join(dir, 'robots.txt');
writeFileSync(robotsFile, [
  'User-agent: *', 'Disallow: /private', '',
  'User-agent: Googlebot', 'Disallow: /nogoogle', '',
  'User-agent: Googlebot-News', 'Disallow: /news-only', '',
  'User-agent: bingbot', 'Allow: /private/bing', 'Disallow: /nobing', '',
].join('\n'));
const CRAWLERS: Record<string, string> = {
  Googlebot: 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
  'Googlebot-Image': 'Googlebot-Image/1.0',
  'Googlebot-News': 'Googlebot-News',
  'AdsBot-Google': 'AdsBot-Google (+http://www.google.com/adsbot.html)',
  bingbot: 'Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)',
  GPTBot: 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)',
};
const PATHS = ['/private/a', '/nogoogle/b', '/news-only/c', '/private/bing/d', '/nobing/e', '/ok'];
const entry = (path: string, userAgent: string): string => `192.0.2.1 - - [21/Nov/2026:08:00:00 +0000] "GET ${path} HTTP/1.1" 200 10 "-" "${userAgent}"`;
const logFile = join(dir, 'readings.log');
writeFileSync(logFile, Object.values(CRAWLERS).flatMap((userAgent) => PATHS.map((path) => entry(path, userAgent))).join('\n') + '\n');

/** Per crawler (audit's name), the paths audit counted disallowed. */
function auditDisallowed(extra: string[]): Record<string, string[]> {
  const report = JSON.parse(robotstxt(['audit', '--robots', robotsFile, '--format', 'json', '--top', '0', ...extra, logFile]).stdout);
  expect(report.crawlerRequests).toBe(Object.keys(CRAWLERS).length * PATHS.length);
  return Object.fromEntries(report.crawlers.map((c: { agent: string; topDisallowedPaths: { path: string }[] }) => [c.agent, c.topDisallowedPaths.map((p) => p.path).sort()]));
}

/** Per crawler, the paths check --log --agent <crawler> answers disallowed, and what it said on stderr. */
function checkDisallowed(extra: string[]): { disallowed: Record<string, string[]>; said: string } {
  const disallowed: Record<string, string[]> = {};
  let said = '';
  for (const [agent, userAgent] of Object.entries(CRAWLERS)) {
    const lines = join(dir, `${agent}.log`);
    writeFileSync(lines, PATHS.map((path) => entry(path, userAgent)).join('\n') + '\n');
    const r = robotstxt(['check', '--robots', robotsFile, '--agent', agent, '--log', ...extra, lines]);
    expect(r.status).toBe(0);
    said += r.stderr;
    const verdicts = r.stdout.trim().split('\n').map((line) => line.split('\t')[0]);
    expect(verdicts).toHaveLength(PATHS.length);
    disallowed[agent] = PATHS.filter((_, i) => verdicts[i] === 'disallowed').sort();
  }
  return { disallowed, said };
}

describe('one reading of an agent, said aloud (check and audit agree on every request)', () => {
  it('check --as-crawler and audit (as crawlers behave) agree; so do check and audit --as-token (the reference); the readings differ', { tags: ['slow'] }, () => {
    const asCrawler = checkDisallowed(['--as-crawler']);
    const asToken = checkDisallowed([]);
    expect(auditDisallowed([])).toEqual(asCrawler.disallowed);
    expect(auditDisallowed(['--as-token'])).toEqual(asToken.disallowed);
    // where they differ: Googlebot-Image follows Googlebot's group as a crawler, the * group as a token; AdsBot ignores *
    expect(asCrawler.disallowed['Googlebot-Image']).toEqual(['/nogoogle/b']);
    expect(asToken.disallowed['Googlebot-Image']).toEqual(['/private/a', '/private/bing/d']);
    expect(asCrawler.disallowed['AdsBot-Google']).toEqual([]);
    expect(asToken.disallowed['AdsBot-Google']).toEqual(['/private/a', '/private/bing/d']);
    expect(asCrawler.disallowed['Googlebot-News']).toEqual(asToken.disallowed['Googlebot-News']);
    // check --usage reads the agent the same way (its crawl column)
    const urls = join(dir, 'urls.txt');
    writeFileSync(urls, 'https://a.example/nogoogle/b\nhttps://a.example/private/a\n');
    const usage = (extra: string[]): string => robotstxt(['check', '--robots', robotsFile, '--agent', 'Googlebot-Image', '--usage', 'search', ...extra, urls]).stdout;
    expect(usage(['--as-crawler'])).toBe('disallowed\tunknown\thttps://a.example/nogoogle/b\nallowed\tunknown\thttps://a.example/private/a\n');
    expect(usage([])).toBe('allowed\tunknown\thttps://a.example/nogoogle/b\ndisallowed\tunknown\thttps://a.example/private/a\n');
    expect(asCrawler.said).toBe([
      "robotstxt: Googlebot-Image: answered as Google's crawler behaves (--as-crawler): the googlebot group (it has none of its own); as its product token (the reference) it would get the * group\n",
      "robotstxt: AdsBot-Google: answered as Google's crawler behaves (--as-crawler): no group (it ignores *): every URL allowed; as its product token (the reference) it would get the * group\n",
    ].join(''));
    expect(asToken.said).toBe([
      "robotstxt: Googlebot-Image: answered as its product token, as the reference does: the * group; Google's crawler follows the googlebot group (it has none of its own) (--as-crawler answers so)\n",
      "robotstxt: AdsBot-Google: answered as its product token, as the reference does: the * group; Google's crawler follows no group (it ignores *): every URL allowed (--as-crawler answers so)\n",
    ].join(''));
  });
  it('audit says its reading in the table, JSON and HTML; partial audits of the two readings do not merge', () => {
    const json = (extra: string[]): { reading: string } => JSON.parse(robotstxt(['audit', '--robots', robotsFile, '--format', 'json', ...extra, logFile]).stdout);
    expect([json([]).reading, json(['--as-token']).reading]).toEqual(['crawler', 'token']);
    expect(robotstxt(['audit', '--robots', robotsFile, '--as-token', logFile]).stdout.trimEnd().split('\n').at(-1)).toBe('group: own group, * (the * group), differs by host or version; each crawler read as its product token, as the reference answers (--as-token)');
    const html = join(dir, 'token.html');
    robotstxt(['audit', '--robots', robotsFile, '--as-token', '--format', 'html', '--output', html, logFile]);
    expect(readFileSync(html, 'utf8')).toContain('<p class="reading">Each crawler is read as its product token, as the reference answers (--as-token): its own group, else *.</p>');
    expect(robotstxt(['audit', '--robots', robotsFile, '--format', 'html', logFile]).stdout).toContain('<p class="reading">Each crawler is read as it behaves: Googlebot-Image, -News and -Video follow the Googlebot group when they have none of their own; AdsBot ignores *. (--as-token reads product tokens, as the reference answers.)</p>');
    const parts = [[], ['--as-token']].map((extra, i) => {
      const part = join(dir, `part-${i}.json`);
      writeFileSync(part, robotstxt(['audit', '--robots', robotsFile, '--format', 'partial', ...extra, logFile]).stdout);
      return part;
    });
    const merged = robotstxt(['audit', '--merge', ...parts]);
    expect([merged.stderr, merged.status]).toEqual(['robotstxt: partial audits made with different options cannot be merged: one without --verify, without versions over time, without --by host, --missing allow, without --as-token, another without --verify, without versions over time, without --by host, --missing allow, with --as-token\n', 2]);
    expect(robotstxt(['check', '--robots-dir', dir, '--agent', 'Googlebot', '--as-crawler', logFile]).stderr).toBe('robotstxt: --as-crawler applies only with --robots\n');
  });
});

describe('a crawler whose name holds digits (MJ12bot): check --as-crawler answers as audit counts', () => {
  it('`User-agent: MJ12bot` names the group MJ (the reference ends the token at the digit): audit counts MJ12bot disallowed there, check --as-crawler and --agent MJ agree, and the warning says which --agent reproduces the audit', () => {
    const file = join(dir, 'mj.txt');
    writeFileSync(file, 'User-agent: MJ12bot\nDisallow: /\n\nUser-agent: *\nDisallow: /private\n');
    const log = join(dir, 'mj.log');
    writeFileSync(log, `${['/a', '/private/b'].map((path) => entry(path, 'Mozilla/5.0 (compatible; MJ12bot/v1.4.8; http://mj12bot.com/)')).join('\n')}\n`);
    const audit = JSON.parse(robotstxt(['audit', '--robots', file, '--format', 'json', log]).stdout);
    expect(audit.crawlers.map((c: { agent: string; group: string; requests: number; disallowed: number }) => [c.agent, c.group, c.requests, c.disallowed])).toEqual([['MJ12bot', 'MJ', 2, 2]]);
    const asCrawler = robotstxt(['check', '--robots', file, '--agent', 'MJ12bot', '--as-crawler', '--log', log]);
    expect(asCrawler.stdout).toBe('disallowed\t/a\ndisallowed\t/private/b\n');
    expect(asCrawler.stderr).toBe([
      "robotstxt: warning: agent 'MJ12bot' is not a product token: it matches no user-agent line, only the * group can apply (the token is 'MJ'); audit reads a crawler named MJ12bot by that token: --agent MJ (or --as-crawler) answers as audit counts it",
      "robotstxt: MJ12bot: answered as the crawler behaves (--as-crawler): the MJ group (its name's product token, as the file's user-agent lines are read); as its product token (the reference) it would get the * group",
      '',
    ].join('\n'));
    expect(robotstxt(['check', '--robots', file, '--agent', 'MJ', '--log', log]).stdout).toBe('disallowed\t/a\ndisallowed\t/private/b\n');
    // the reference's reading: MJ12bot as a product token matches no line
    expect(robotstxt(['check', '--robots', file, '--agent', 'MJ12bot', '--log', log]).stdout).toBe('allowed\t/a\ndisallowed\t/private/b\n');
  });
});

describe('one product-token rule: the core\'s (assembly/groups.ts), and productToken in JavaScript held equal to it', () => {
  it('for random user-agent values, the token the parsed file gives is productToken of the value', () => {
    const unit = fc.constantFrom('a', 'Z', 'b', '-', '_', '/', '1', '.', ' ', '*', 'é', '(', ';', 'x');
    fc.assert(fc.property(fc.array(unit, { minLength: 1, maxLength: 12 }).map((parts) => parts.join('').trim()), (value) => {
      fc.pre(value !== '' && !value.startsWith('*'));
      const agent = parseRobots(`User-agent: ${value}\nDisallow: /x\n`).groups[0]?.agents[0];
      expect(agent?.productToken, value).toBe(productToken(agent?.value ?? ''));
    }), { numRuns: 3000, seed: 20261202 });
  });
});
