// The one cache of parsed robots.txt files (src/core/parsed-robots-cache.ts): within its budget, least recently
// used out, what it drops closed (at once, or after the batch once held); and its users: an audit's folder or
// store (rulesOfDirectory), a store's current copies read through its history, a pack's files.
import { describe, it, expect } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ParsedRobotsCache } from '../src/core/parsed-robots-cache.js';
import { parseRobots, rulesOfDirectory, rulesOfHistory, RobotsAudit, type RobotsTxt } from '../src/node/index.js';
import { StoreHistory } from '../src/node/history/index.js';
import { originOf, type UrlOrigin } from '../src/core/url-model.js';
import { HISTORY_MARK } from '../src/node/store/store.js';
import { tempDir } from './cli-helpers.js';

const file = (path: string): RobotsTxt => parseRobots(`User-agent: *\nDisallow: ${path}\n`);
/** True when the file still answers; false when it was closed (CLOSED). */
const open = (robots: RobotsTxt): boolean => {
  try {
    robots.isAllowed('https://example.com/', 'bot');
    return true;
  } catch (error) {
    if ((error as { code?: string }).code === 'CLOSED') return false;
    throw error;
  }
};
const origin = (url: string): UrlOrigin => originOf(url) as UrlOrigin;

describe('ParsedRobotsCache', () => {
  it('drops the least recently used past its budget and closes it at once', () => {
    const cache = new ParsedRobotsCache<RobotsTxt>(500, (robots) => robots, () => 100); // 230 bytes each with the key's cost: two fit
    const [a, b, c] = [file('/a'), file('/b'), file('/c')];
    cache.set('a', a);
    cache.set('b', b);
    expect(cache.get('a')).toBe(a); // a is now the most recent: b goes first
    cache.set('c', c);
    expect([cache.get('b'), open(b), open(a), open(c), cache.evictions]).toEqual([undefined, false, true, true, 1]);
    cache.close();
    expect([open(a), open(c), cache.get('a')]).toEqual([false, false, undefined]);
  });

  it('once held, what it drops stays open until closeDropped; mustCloseDropped past a quarter of the budget', () => {
    const cache = new ParsedRobotsCache<RobotsTxt>(950, (robots) => robots, () => 100); // four fit; past 237 bytes dropped, judge now
    cache.holdDropped();
    const files = ['/1', '/2', '/3', '/4', '/5', '/6', '/7'].map(file);
    files.slice(0, 6).forEach((robots, i) => cache.set(String(i), robots));
    // 4 kept, 2 dropped (200 bytes): both still open
    expect([files.map(open), cache.mustCloseDropped]).toEqual([[true, true, true, true, true, true, true], false]);
    cache.set('6', files[6]);
    expect([files.map(open), cache.mustCloseDropped]).toEqual([[true, true, true, true, true, true, true], true]);
    cache.closeDropped();
    expect([files.map(open), cache.mustCloseDropped]).toEqual([[false, false, false, true, true, true, true], false]);
  });
});

describe('rulesOfDirectory and a store\'s current copies close what the cache drops', () => {
  const dir = tempDir();
  writeFileSync(join(dir, 'a.example.txt'), 'User-agent: *\nDisallow: /a\n');
  writeFileSync(join(dir, 'b.example.txt'), 'User-agent: *\nDisallow: /b\n');
  const reading = { mode: 'google' as const, maxBytes: 512_000 };

  it('a file dropped is held while the audit may use it, closed after the batch, and read again when met again', () => {
    const rules = rulesOfDirectory(dir, { reading, warn: () => {}, cacheBytes: 1 }); // room for one file
    rules.holdDropped();
    const a = rules.at(origin('https://a.example/'), null).current?.robots as RobotsTxt;
    rules.at(origin('https://b.example/'), null); // a dropped
    expect(open(a)).toBe(true);
    rules.closeDropped();
    expect(open(a)).toBe(false);
    const again = rules.at(origin('https://a.example/x'), null).current?.robots as RobotsTxt;
    expect([again === a, again.isAllowed('https://a.example/a', 'bot'), again.isAllowed('https://a.example/b', 'bot')]).toEqual([false, false, true]);
  });

  it('a version standing for a current copy asks for its file at each use (never a closed one)', () => {
    writeFileSync(join(dir, HISTORY_MARK), '');
    const directory = rulesOfDirectory(dir, { reading, warn: () => {}, cacheBytes: 1 });
    const rules = rulesOfHistory(new StoreHistory(dir, { reading, current: directory }));
    rules.holdDropped();
    const time = Date.parse('2026-11-01T00:00:00Z');
    const version = rules.at(origin('https://a.example/'), time).current as { robots: RobotsTxt };
    rules.at(origin('https://b.example/'), time);
    rules.closeDropped(); // a's first file closed
    expect(version.robots.isAllowed('https://a.example/a', 'bot')).toBe(false);
    expect(version.robots.isAllowed('https://a.example/ok', 'bot')).toBe(true);
  });

  it('an audit over a folder judges the same with room for one file as with room for all', async () => {
    const lines: string[] = [];
    for (let i = 0; i < 60; i++) {
      const host = i % 3 === 0 ? 'a.example' : i % 3 === 1 ? 'b.example' : 'c.example';
      lines.push(`${host} 66.249.66.1 - - [01/Nov/2026:10:00:${String(i % 60).padStart(2, '0')} +0000] "GET /${i % 2 === 0 ? 'a' : 'b'}/${i} HTTP/1.1" 200 5 "-" "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"`);
    }
    const report = async (cacheBytes?: number): Promise<unknown> => {
      const audit = new RobotsAudit(rulesOfDirectory(dir, { reading, warn: () => {}, cacheBytes }), { filePerHost: true });
      await audit.addLines(lines, 1, 'vhost.log');
      return audit.report();
    };
    const roomForOne = await report(1);
    expect(roomForOne).toEqual(await report());
    expect((roomForOne as { crawlers: { requests: number; disallowed: number }[] }).crawlers.map(({ requests, disallowed }) => ({ requests, disallowed }))).toEqual([{ requests: 60, disallowed: 20 }]);
  });

  it('a cache of no bytes is refused, naming the option', () => {
    expect(() => rulesOfDirectory(dir, { reading, warn: () => {}, cacheBytes: 0 })).toThrow("cacheBytes '0': the memory for parsed files must be a whole number of bytes from 1");
  });
});
