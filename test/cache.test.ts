// --robots-dir's cache: a byte budget, least recently used out, no recompilation per URL.
import { describe, it, expect } from 'vitest';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { LruCache, RobotsDirectory, urlHost } from '../src/cli/robots-dir.js';
import { tempDir } from './cli-helpers.js';

const encode = (text: string): Uint8Array => new TextEncoder().encode(text);

describe('LruCache', () => {
  it('evicts least recently used entries when the byte budget is exceeded', () => {
    const cache = new LruCache<string>(3 * (100 + 128 + 2), (value) => value.length); // room for three 100-byte values with key "k"
    for (const key of ['a', 'b', 'c']) cache.set(key, 'x'.repeat(100));
    expect(cache.size).toBe(3);
    expect(cache.get('a')).toBe('x'.repeat(100)); // a is now the most recent
    cache.set('d', 'x'.repeat(100)); // evicts b, the least recently used
    expect(cache.get('b')).toBeUndefined();
    expect([cache.get('a') !== undefined, cache.get('c') !== undefined, cache.get('d') !== undefined]).toEqual([true, true, true]);
    expect(cache.evictions).toBe(1);
    expect(cache.bytes).toBe(3 * 230);
  });
  it('keeps an entry larger than the budget alone rather than failing', () => {
    const cache = new LruCache<string>(100, (value) => value.length);
    cache.set('a', 'x'.repeat(10));
    cache.set('big', 'x'.repeat(1000));
    expect(cache.size).toBe(1);
    expect(cache.get('big')?.length).toBe(1000);
  });
  it('replacing a key does not double count it', () => {
    const cache = new LruCache<string>(10_000, (value) => value.length);
    cache.set('a', 'x'.repeat(100));
    cache.set('a', 'x'.repeat(50));
    expect(cache.bytes).toBe(50 + 128 + 2);
  });
});

describe('RobotsDirectory', () => {
  const dir = tempDir();
  const sites = join(dir, 'sites');
  mkdirSync(sites);
  for (const host of ['a.com', 'b.com', 'c.com']) writeFileSync(join(sites, `${host}.txt`), `User-agent: *\nDisallow: /${host[0]}\n` + `Disallow: /filler/${'z'.repeat(2000)}\n`);
  it('compiles each host once while it stays cached, and again after eviction', () => {
    const directory = new RobotsDirectory(sites, ['bot'], 'google', 0, 'allow', 1 << 20);
    for (let i = 0; i < 1000; i++) directory.matcherFor(encode(`https://${['a', 'b', 'c'][i % 3]}.com/x${i}`));
    expect(directory.compiled).toBe(3);
    const blob = directory.matcherFor(encode('https://a.com/')).blob.length;
    const small = new RobotsDirectory(sites, ['bot'], 'google', 0, 'allow', 2 * (2 * blob + 200)); // room for two hosts
    for (const host of ['a', 'b', 'a', 'c', 'a', 'b']) small.matcherFor(encode(`https://${host}.com/`));
    // a b (a hit) c evicts b; a hit; b evicts c
    expect(small.compiled).toBe(4);
    expect(small.cache.evictions).toBe(2);
    expect(small.cache.bytes).toBeLessThanOrEqual(2 * (2 * blob + 200));
  });
  it('20,000 hosts without files stay within the budget (only keys are cached)', () => {
    const directory = new RobotsDirectory(sites, ['bot'], 'google', 0, 'allow', 1 << 20);
    for (let i = 0; i < 20_000; i++) directory.matcherFor(encode(`https://host${i}.example/x`));
    expect(directory.missingLookups).toBe(20_000);
    expect(directory.cache.bytes).toBeLessThanOrEqual(1 << 20);
    expect(directory.cache.evictions).toBeGreaterThan(10_000);
  });
  it('urlHost reads scheme://user@host:port, lower-cases, and refuses odd hosts', () => {
    expect(urlHost(encode('https://User:PW@Example.COM:8080/a?b'))).toEqual({ host: 'example.com', port: '8080' });
    expect(urlHost(encode('//cdn.example.com/x'))).toEqual({ host: 'cdn.example.com', port: null });
    expect(urlHost(encode('http://[::1]:80/'))).toEqual({ host: '[::1]', port: '80' });
    expect(urlHost(encode('/relative'))).toBeNull();
    expect(urlHost(encode('http://../x'))).toBeNull();
    expect(urlHost(encode('http:///x'))).toBeNull();
  });
});
