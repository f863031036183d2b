// Many hosts (src/node/hosts/hosts.ts, assembly/hosts.ts): host names as the command line and the library find them,
// sources, the byte budget, and every verdict equal to the single-file verdict for the same body (and to
// the model), on mixed-host chunks in random order with evictions.
import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { MultiHostMatcher, robotsFromDirectory, robotsFromMap, parseRobots, RobotsError, ALLOW_ALL, DISALLOW_ALL, type RobotsHost, type RobotsSourceAnswer } from '../src/node/index.js';
import { LruCache } from '../src/core/lru-cache.js';
import { originOfKey, isPlainKey } from '../src/core/url-model.js';
import { modelVerdict } from './model.js';
import { tempDir } from './cli-helpers.js';

const encode = (text: string): Uint8Array => new TextEncoder().encode(text);
const latin1 = (bytes: Uint8Array): string => Buffer.from(bytes).toString('latin1');

/** A matcher whose source records the hosts it is asked for. */
function recording(bodies: Record<string, string>, options: { cacheBytes?: number; missing?: 'allow' | 'disallow' } = {}): { matcher: MultiHostMatcher; asked: RobotsHost[] } {
  const asked: RobotsHost[] = [];
  const source = (host: RobotsHost): RobotsSourceAnswer => {
    asked.push(host);
    return bodies[host.key] ?? bodies[host.host] ?? null;
  };
  return { matcher: new MultiHostMatcher({ agents: 'bot', source, ...options }), asked };
}

describe('LruCache (audit keeps parsed files in one)', () => {
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
});

describe('host names', () => {
  it('originOfKey: one trailing dot dropped, an IDN in its ASCII form, default ports dropped, the port kept apart, no usable host -> null', () => {
    const origin = (key: string): string | null => originOfKey(key)?.origin ?? null;
    expect(JSON.parse(JSON.stringify(originOfKey('http://example.com.')))).toEqual({ scheme: 'http', host: 'example.com', port: null, origin: 'http://example.com', hostKey: 'example.com', fileKey: 'http@example.com' });
    expect(originOfKey('https://example.com:8080')).toMatchObject({ host: 'example.com', port: '8080', hostKey: 'example.com:8080', fileKey: 'https@example.com@8080' });
    expect([isPlainKey('https://example.com'), isPlainKey('https://example.com.'), isPlainKey('http://a.1'), isPlainKey('http://a.0x1f'), isPlainKey('http://a.0xg'), isPlainKey('http://xn--a.com')]).toEqual([true, false, false, false, true, false]);
    expect(origin(Buffer.from('http://bücher.de', 'utf8').toString('latin1'))).toBe('http://xn--bcher-kva.de');
    expect(origin('http://[::1]:80')).toBe('http://[::1]');
    expect(origin('https://example.com:443')).toBe('https://example.com');
    expect(origin('http://0x7f.1')).toBe('http://127.0.0.1');
    for (const bad of ['http://', 'http://.', 'http://..', 'http://:80', 'http://\xff\xfe', 'http://a.1', 'http://xn--a']) expect(origin(bad), JSON.stringify(bad)).toBeNull();
  });
  it('reads scheme://user@host:port, lower-cases, and answers lines without a usable host by the missing policy', async () => {
    const { matcher, asked } = recording({ 'example.com:8080': 'User-agent: *\nDisallow: /a\n', 'cdn.example.com': 'User-agent: *\nDisallow: /x\n' }, { missing: 'disallow' });
    const lines = [
      'https://User:PW@Example.COM:8080/a?b', // example.com:8080 -> disallowed by /a
      'http:cdn.example.com/x', // cdn.example.com (as WHATWG reads it) -> disallowed by /x
      'HTTP://CDN.example.com/y', // same host, allowed
      'http:///x', // WHATWG skips the slashes: host x, which has no robots.txt (the missing policy)
      '//cdn.example.com/x', '/relative', 'http://../x', 'mailto:a@b', '', 'http://exa mple.com/', // no host: the missing policy (disallow)
    ];
    const verdicts = await matcher.checkLines(encode(lines.join('\n')));
    expect([...verdicts]).toEqual([2, 2, 1, 2, 2, 2, 2, 2, 2, 2]);
    expect(asked.map((host) => host.key)).toEqual(['example.com:8080', 'cdn.example.com', 'x']);
    expect(asked.map((host) => host.origin)).toEqual(['https://example.com:8080', 'http://cdn.example.com', 'http://x']);
    expect(matcher.stats.noHostLines).toBe(6);
  });
  it('an IDN written in UTF-8 finds the xn-- file; example.com. finds example.com.txt (never example.com..txt)', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'xn--bcher-kva.de.txt'), 'User-agent: *\nDisallow: /\n');
    writeFileSync(join(dir, 'example.com.txt'), 'User-agent: *\nDisallow: /p\n');
    const matcher = new MultiHostMatcher({ agents: 'bot', source: robotsFromDirectory(dir) });
    const urls = ['http://bücher.de/x', 'http://BÜCHER.de/x', 'http://xn--bcher-kva.de/y', 'http://example.com./p', 'http://example.com/p', 'http://example.com../p'];
    // IDNA maps BÜCHER to bücher as well; example.com.. (two dots) is another, missing host
    expect([...await matcher.checkUrls(urls)]).toEqual([2, 2, 2, 2, 2, 1]);
    expect([matcher.stats.compiled, matcher.stats.direct]).toEqual([0, 2]); // two files read, each answered from its body
  });
  it('a host name cannot reach a file outside the directory', async () => {
    const dir = tempDir();
    const robots = join(dir, 'robots');
    mkdirSync(robots);
    writeFileSync(join(dir, 'secret.txt'), 'User-agent: *\nDisallow: /\n');
    const matcher = new MultiHostMatcher({ agents: 'bot', source: robotsFromDirectory(robots) });
    const urls = ['http://../secret/', 'http://..%2fsecret/', 'http://%2e%2e/secret', 'http://a\\..\\secret/', 'http://secret/..'];
    expect([...await matcher.checkUrls(urls)]).toEqual([1, 1, 1, 1, 1]);
    expect(matcher.stats.compiled).toBe(0);
  });
});

describe('sources', () => {
  it('a directory: <host>:<port>.txt first, then <host>.txt; a host without a file gets the missing policy', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'a.com.txt'), 'User-agent: *\nDisallow: /a\n');
    writeFileSync(join(dir, 'a.com:8080.txt'), 'User-agent: *\nDisallow: /b\n');
    const allow = new MultiHostMatcher({ agents: 'bot', source: robotsFromDirectory(dir) });
    expect([...await allow.checkUrls(['http://a.com/a', 'http://a.com/b', 'http://a.com:8080/a', 'http://a.com:8080/b', 'http://a.com:9/a', 'http://none.com/a'])]).toEqual([2, 1, 1, 2, 2, 1]);
    expect(allow.stats.missing).toBe(1);
    const disallow = new MultiHostMatcher({ agents: 'bot', source: robotsFromDirectory(dir), missing: 'disallow' });
    expect([...await disallow.checkUrls(['http://none.com/', 'http://a.com/x'])]).toEqual([2, 1]);
  });
  it('a directory\'s files are read whole into one reused buffer: a large file (past its first size), then a small one (none of the large one\'s bytes after it), then a file cut at maxBytes', async () => {
    const dir = tempDir();
    // 300 KB: the deciding rule is the last line
    writeFileSync(join(dir, 'big.test.txt'), 'User-agent: *\n' + 'Disallow: /filler/x\n'.repeat(15_000) + 'Disallow: /last\n');
    writeFileSync(join(dir, 'small.test.txt'), 'User-agent: *\nDisallow: /s\n');
    writeFileSync(join(dir, 'cut.test.txt'), 'User-agent: *\nDisallow: /a\n' + '#'.repeat(1000) + '\nDisallow: /b\n');
    const matcher = new MultiHostMatcher({ agents: 'bot', source: robotsFromDirectory(dir, { maxBytes: 0 }) });
    expect([...await matcher.checkUrls(['http://big.test/last', 'http://big.test/other', 'http://small.test/s', 'http://small.test/last', 'http://small.test/filler/x'])]).toEqual([2, 1, 2, 1, 1]);
    const cut = new MultiHostMatcher({ agents: 'bot', source: robotsFromDirectory(dir, { maxBytes: 500 }), maxBytes: 500 });
    expect([...await cut.checkUrls(['http://big.test/filler/x', 'http://big.test/last', 'http://cut.test/a', 'http://cut.test/b', 'http://small.test/s'])]).toEqual([2, 1, 2, 1, 2]);
  });
  it('a file that exists but cannot be read is an error naming it', async () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'a.com.txt')); // a directory where a file should be
    const matcher = new MultiHostMatcher({ agents: 'bot', source: robotsFromDirectory(dir) });
    await expect(matcher.checkUrls(['http://a.com/'])).rejects.toThrow(`cannot read robots file '${join(dir, 'a.com.txt')}': is a directory`);
  });
  it('a FIFO, socket or folder by a host\'s name is refused by name at once (never waited on), in a folder listed or not; a link to a regular file is read', async () => {
    for (const fillers of [0, 6000]) {
      // a folder of a few names is listed on first use; one of 6,000 names is not, for one host (each name is then opened and looked at)
      const dir = tempDir();
      for (let i = 0; i < fillers; i++) writeFileSync(join(dir, `filler-${i}.example.txt`), '');
      writeFileSync(join(dir, 'real.test.txt'), 'User-agent: *\nDisallow: /r\n');
      symlinkSync(join(dir, 'real.test.txt'), join(dir, 'link.test.txt'));
      execFileSync('mkfifo', [join(dir, 'fifo.test.txt')]);
      symlinkSync(join(dir, 'fifo.test.txt'), join(dir, 'fifolink.test.txt'));
      const matcher = new MultiHostMatcher({ agents: 'bot', source: robotsFromDirectory(dir) });
      expect([...await matcher.checkUrls(['http://link.test/r', 'http://link.test/x'])], `${fillers} fillers`).toEqual([2, 1]);
      for (const host of ['fifo.test', 'fifolink.test']) {
        await expect(matcher.checkUrls([`http://${host}/`]), `${fillers} fillers`).rejects.toThrow(`cannot read robots file '${join(dir, `${host}.txt`)}': not a regular file (a pipe, a device or a socket)`);
      }
    }
  });
  it('a folder listed once still finds a file written after the listing (once it sees the folder change)', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'a.test.txt'), 'User-agent: *\nDisallow: /a\n');
    const source = robotsFromDirectory(dir);
    const first = new MultiHostMatcher({ agents: 'bot', source });
    expect([...await first.checkUrls(['http://a.test/a', 'http://b.test/b'])]).toEqual([2, 1]);
    writeFileSync(join(dir, 'b.test.txt'), 'User-agent: *\nDisallow: /b\n');
    // the folder's mtime is looked at again at most every 250 ms: past that, the source finds the new file
    // (a matcher keeps its answer for a host without a file: a new matcher asks the same source again)
    await new Promise((resolve) => setTimeout(resolve, 300));
    const later = new MultiHostMatcher({ agents: 'bot', source });
    expect([...await later.checkUrls(['http://b.test/b', 'http://a.test/a'])]).toEqual([2, 2]);
  });
  it('a Map: host:port first, then host; bodies as bytes, ArrayBuffer or string', async () => {
    const bodies = new Map<string, Uint8Array | ArrayBuffer | string>([
      ['a.com', 'User-agent: *\nDisallow: /a\n'],
      ['a.com:81', encode('User-agent: *\nDisallow: /b\n')],
      ['b.com', encode('User-agent: bot\nDisallow: /\n').buffer as ArrayBuffer],
    ]);
    const matcher = new MultiHostMatcher({ agents: 'bot', source: robotsFromMap(bodies) });
    expect([...await matcher.checkUrls(['http://a.com/a', 'http://a.com:81/a', 'http://a.com:81/b', 'http://b.com/x', 'http://c.com/x'])]).toEqual([2, 1, 2, 2, 1]);
  });
  it('ALLOW_ALL and DISALLOW_ALL (stored fetch outcomes) answer every URL of their host, whatever --missing says; jsonl names no rule', async () => {
    const source = (host: RobotsHost): RobotsSourceAnswer => (host.host === 'open.test' ? ALLOW_ALL : host.host === 'down.test' ? DISALLOW_ALL : host.host === 'rules.test' ? 'User-agent: *\nDisallow: /x\n' : null);
    const urls = ['http://open.test/x', 'http://down.test/', 'http://down.test/robots.txt', 'http://rules.test/x', 'http://rules.test/y', 'http://unknown.test/x', 'http://open.test/y'];
    for (const missing of ['allow', 'disallow'] as const) {
      const matcher = new MultiHostMatcher({ agents: 'bot', source, missing });
      const result = await matcher.checkLinesWithOutput(encode(urls.join('\n')), { format: 'jsonl' });
      expect([...result.verdicts], missing).toEqual([1, 2, 2, 2, 1, missing === 'allow' ? 1 : 2, 1]);
      expect(new TextDecoder().decode(result.output).trim().split('\n').map((line) => JSON.parse(line).rule)).toEqual([null, null, null, { kind: 'disallow', line: 2, pattern: '/x' }, null, null, null]);
      expect([matcher.stats.allowAll, matcher.stats.disallowAll, matcher.stats.missing, matcher.stats.direct, matcher.stats.compiled]).toEqual([1, 1, 1, 1, 0]);
    }
  });

  it('an asynchronous source (a fetcher) is asked once per host, at most `concurrency` at a time', async () => {
    let running = 0;
    let most = 0;
    const asked: string[] = [];
    const source = async (host: RobotsHost): Promise<RobotsSourceAnswer> => {
      asked.push(host.key);
      running++;
      most = Math.max(most, running);
      await new Promise((resolve) => setTimeout(resolve, 2));
      running--;
      return host.host.startsWith('d') ? 'User-agent: *\nDisallow: /\n' : null;
    };
    const matcher = new MultiHostMatcher({ agents: 'bot', source, concurrency: 3 });
    const hosts = Array.from({ length: 20 }, (_, i) => `${i % 2 === 0 ? 'd' : 'a'}${i}.com`);
    const urls = [...hosts, ...hosts].map((host) => `https://${host}/p`);
    const verdicts = await matcher.checkUrls(urls);
    expect([...verdicts]).toEqual(urls.map((url) => (url.startsWith('https://d') ? 2 : 1)));
    expect(asked.sort()).toEqual([...hosts].sort());
    expect(most).toBeLessThanOrEqual(3);
    await matcher.checkUrls(urls); // cached: not asked again
    expect(asked.length).toBe(20);
  });
  it('a source that gives something other than bytes or a string is an error, never an empty file', async () => {
    for (const body of [42, { a: 1 }, [1, 2, 3]]) {
      const matcher = new MultiHostMatcher({ agents: 'bot', source: () => body as unknown as RobotsSourceAnswer });
      const error = await matcher.checkUrls(['http://a.com/']).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(RobotsError);
      expect((error as RobotsError).code).toBe('INVALID_ARGUMENT');
      expect((error as RobotsError).message).toContain('for http://a.com');
    }
  });
  it('options are range-checked', () => {
    const source = (): RobotsSourceAnswer => null;
    const cases: [Record<string, unknown>, string][] = [
      [{ agents: [] }, 'at least one user agent is needed'],
      [{ cacheBytes: 1000 }, 'cacheBytes must be a whole number from 1 MiB (1048576) to 3 GiB (3221225472, what the WebAssembly core can address), got 1000'],
      [{ cacheBytes: 3 * 2 ** 30 + 1 }, 'cacheBytes must be a whole number from 1 MiB (1048576) to 3 GiB (3221225472, what the WebAssembly core can address), got 3221225473'],
      [{ maxBytes: (16 << 20) + 1 }, 'maxBytes must be a whole number from 0 (the whole body) to 16777216 (16 MiB), got 16777217'],
      [{ maxBytes: -1 }, 'maxBytes must be a whole number from 0 (the whole body) to 16777216 (16 MiB), got -1'],
      [{ missing: 'maybe' }, 'missing must be allow, disallow or error, got maybe'],
      [{ concurrency: 0 }, 'concurrency must be a whole number from 1 to 4096, got 0'],
      [{ mode: 'strict' }, 'unknown mode "strict" (expected google or rfc)'],
      [{ source: 'dir' }, 'source must be a function (robotsFromDirectory, robotsFromMap, or your own)'],
    ];
    for (const [options, message] of cases) expect(() => new MultiHostMatcher({ agents: 'bot', source, ...options } as never)).toThrow(message);
  });
  it('a URL given as a string must not contain a line break', async () => {
    const matcher = new MultiHostMatcher({ agents: 'bot', source: () => null });
    await expect(matcher.checkUrls(['http://a.com/x\ny'])).rejects.toThrow('a URL contains a line break');
  });
});

describe('the byte budget', () => {
  // about 45 KB a host: 40 of them do not fit a 1 MiB budget together, as bodies or compiled
  const filler = (i: number): string => `User-agent: *\nDisallow: /${i}\n` + Array.from({ length: 1000 }, (_, k) => `Disallow: /filler/${i}/${k}/${'z'.repeat(20)}\n`).join('');
  const bodies = Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`h${i}.com`, filler(i)]));
  it('holds while hosts come and go; a host is read once while cached, again after eviction; compiled once it brings many lines', async () => {
    const { matcher } = recording(bodies, { cacheBytes: 1 << 20 });
    const urls = Object.keys(bodies).map((host, i) => `http://${host}/${i}`);
    for (let round = 0; round < 3; round++) expect([...await matcher.checkUrls(urls)]).toEqual(urls.map(() => 2));
    const stats = matcher.stats;
    expect(stats.cacheBytes).toBeLessThanOrEqual(1 << 20);
    expect(stats.evicted).toBeGreaterThan(0);
    expect(stats.compiled + stats.direct).toBe(40 + stats.evicted - (40 - stats.cachedHosts));
    // one host over and over: read once, answered from its body for 64 lines, then compiled once
    const one = recording(bodies, { cacheBytes: 1 << 20 });
    for (let i = 0; i < 50; i++) await one.matcher.checkUrls(['http://h1.com/1', 'http://h1.com/x']);
    expect(one.asked.length).toBe(1);
    expect([one.matcher.stats.compiled, one.matcher.stats.direct]).toEqual([1, 0]);
  });
  it('a chunk whose hosts do not fit together is answered in rounds: every verdict, each host read once', async () => {
    const { matcher, asked } = recording(bodies, { cacheBytes: 1 << 20 });
    // each host's lines far apart: the chunk names all 40 hosts before it names any of them again
    const hosts = Object.keys(bodies);
    const urls = [...hosts.map((host, i) => `http://${host}/${i}`), ...hosts.map((host) => `http://${host}/other`)];
    const verdicts = await matcher.checkUrls(urls);
    expect([...verdicts]).toEqual(urls.map((url) => (url.endsWith('/other') ? 1 : 2)));
    expect(matcher.stats.evicted).toBeGreaterThan(0); // they did not fit together
    expect(asked.length).toBe(40);
    expect([matcher.stats.compiled, matcher.stats.direct]).toEqual([0, 40]);
    expect(matcher.stats.cacheBytes).toBeLessThanOrEqual(1 << 20);
  });
  it('jsonl output of such a chunk (its rule references stay valid: answered in parts instead)', async () => {
    const { matcher } = recording(bodies, { cacheBytes: 1 << 20 });
    const hosts = Object.keys(bodies);
    const urls = [...hosts.map((host, i) => `http://${host}/${i}`), ...hosts.map((host) => `http://${host}/other`)];
    const result = await matcher.checkLinesWithOutput(encode(urls.join('\n')), { format: 'jsonl' });
    const lines = new TextDecoder().decode(result.output).trim().split('\n').map((line) => JSON.parse(line) as { input: number; url: string; verdict: string; rule: { kind: string; line: number; pattern: string } | null });
    expect(lines.map((line) => line.input)).toEqual(urls.map((_, i) => i + 1));
    lines.forEach((line, i) => {
      if (i < 40) expect(line).toEqual({ input: i + 1, url: urls[i], verdict: 'disallowed', rule: { kind: 'disallow', line: 2, pattern: `/${i}` } });
      else expect(line).toEqual({ input: i + 1, url: urls[i], verdict: 'allowed', rule: null });
    });
  });
  it('a chunk larger than half the budget is answered in parts; one line larger than that is answered whole', async () => {
    const { matcher } = recording(bodies, { cacheBytes: 1 << 20 });
    const long = `http://h3.com/3${'x'.repeat(800_000)}`; // one line, no LF at the end
    expect([...await matcher.checkLines(encode(long))]).toEqual([2]);
    const urls = Array.from({ length: 30_000 }, (_, i) => `http://h${i % 40}.com/${i % 80 < 40 ? i % 40 : 'other'}`);
    expect([...await matcher.checkUrls(urls)]).toEqual(urls.map((url) => (url.endsWith('/other') ? 1 : 2)));
    expect(matcher.stats.cacheBytes).toBeLessThanOrEqual(1 << 20);
  });
  it('20,000 hosts without files cost no matcher (only host table entries)', async () => {
    const matcher = new MultiHostMatcher({ agents: 'bot', source: () => null, cacheBytes: 1 << 20 });
    const urls = Array.from({ length: 20_000 }, (_, i) => `https://host${i}.example/x`);
    expect((await matcher.checkUrls(urls)).every((v) => v === 1)).toBe(true);
    expect(matcher.stats).toMatchObject({ missing: 20_000, compiled: 0, cachedHosts: 0 });
    expect(matcher.stats.cacheBytes).toBeLessThanOrEqual(1 << 20);
  });
});

// ---- property: many hosts in random order = one robots.txt each = the model ----
const paths = ['/', '/a', '/b', '/ab', '/a/b', '/a*', '/*b', '/a$', '/*.pdf$', '/p?', '/%2f', '/é', '/index.html', ''];
const ruleLine = fc.tuple(fc.constantFrom('Allow', 'Disallow', 'disallow'), fc.constantFrom(...paths)).map(([kind, path]) => `${kind}: ${path}`);
const group = fc.tuple(fc.constantFrom('*', 'bot', 'Bot', 'other'), fc.array(ruleLine, { maxLength: 5 })).map(([agent, rules]) => `User-agent: ${agent}\n${rules.join('\n')}\n`);
const body = fc.array(group, { maxLength: 3 }).map((groups) => groups.join('\n'));
const urlPath = fc.array(fc.constantFrom('/', 'a', 'b', '.pdf', '?', 'x', '%2f', 'é', 'index.html'), { maxLength: 5 }).map((parts) => '/' + parts.join(''));

describe('many hosts = one robots.txt per host = the model', () => {
  it('mixed-host chunks in random order, with evictions, both modes, verdicts and jsonl rules (400 runs)', { tags: ['slow'] }, async () => {
    await fc.assert(fc.asyncProperty(
      fc.array(body, { minLength: 1, maxLength: 12 }),
      fc.array(fc.tuple(fc.nat(), urlPath, fc.constantFrom('', '', 'HTTPS://', 'http://u@')), { minLength: 1, maxLength: 60 }),
      fc.constantFrom('google', 'rfc'),
      fc.integer({ min: 1, max: 4 }),
      async (bodies, picks, mode, chunks) => {
        const hosts = bodies.map((_, i) => `h${i}.test`);
        // filler rules make each compiled host large, so that a 1 MiB budget evicts while chunks run
        const texts = bodies.map((text, i) => text + (i % 3 === 0 ? `User-agent: zz\n${Array.from({ length: 400 }, (_, k) => `Disallow: /zz/${k}/${'q'.repeat(60)}`).join('\n')}\n` : ''));
        const map = new Map(hosts.map((host, i) => [host, texts[i]]));
        const matcher = new MultiHostMatcher({ agents: 'bot', source: robotsFromMap(map), mode: mode as 'google' | 'rfc', cacheBytes: 1 << 20 });
        const urls = picks.map(([n, path, prefix]) => `${prefix === '' ? 'http://' : prefix}${hosts[n % hosts.length]}${path}`);
        const lines = encode(urls.join('\n') + '\n');
        // answer in `chunks` pieces at line boundaries
        const verdicts: number[] = [];
        const jsonl: string[] = [];
        const per = Math.ceil(urls.length / chunks);
        for (let start = 0; start < urls.length; start += per) {
          const piece = encode(urls.slice(start, start + per).join('\n') + '\n');
          const result = await matcher.checkLinesWithOutput(piece, { format: 'jsonl', firstNumber: start + 1 });
          verdicts.push(...result.verdicts);
          jsonl.push(...new TextDecoder().decode(result.output).trim().split('\n'));
        }
        expect([...await matcher.checkLines(lines)]).toEqual(verdicts);
        urls.forEach((url, i) => {
          const n = hosts.indexOf(url.replace(/^[a-zA-Z]+:\/\/(u@)?/, '').split('/')[0].toLowerCase());
          const single = parseRobots(texts[n], { mode: mode as 'google' | 'rfc' }).matcher('bot');
          const expected = single.checkLines(encode(url + '\n'))[0];
          const context = `${mode} url=${url} body=${JSON.stringify(bodies[n])}`;
          expect(verdicts[i], context).toBe(expected);
          expect(modelVerdict(texts[n], ['bot'], encode(url), { mode: mode as 'google' | 'rfc' }).allowed ? 1 : 2, context).toBe(expected);
          const object = JSON.parse(jsonl[i]);
          const explanation = single.explain(url);
          expect(object, context).toEqual({ input: i + 1, url, verdict: expected === 1 ? 'allowed' : 'disallowed', rule: explanation.rule === null ? null : { kind: explanation.rule.kind, line: explanation.rule.line, pattern: explanation.rule.pattern, ...(explanation.rule.indexHtmRule ? { indexHtmRule: true } : {}) } });
        });
      },
    ), { numRuns: 400 });
  });
  it('every corpus-shaped host in one run: text output with --only equals the single-file output line by line', async () => {
    const map = new Map<string, string>();
    const urls: string[] = [];
    for (let i = 0; i < 300; i++) {
      map.set(`s${i}.test`, `User-agent: *\nDisallow: /private/${i}\nAllow: /private/${i}/ok\nDisallow: /*.pdf$\n`);
      urls.push(`https://s${i}.test/private/${i}/x`, `https://s${(i * 7) % 300}.test/private/${i}/ok`, `https://s${i}.test/doc.pdf`, `/relative/${i}`);
    }
    const matcher = new MultiHostMatcher({ agents: 'bot', source: robotsFromMap(map) });
    const result = await matcher.checkLinesWithOutput(encode(urls.join('\n')), { format: 'text', only: 'disallowed' });
    const expected = urls.filter((url) => {
      const host = /^https:\/\/([^/]+)/.exec(url)?.[1];
      return host !== undefined && !parseRobots(map.get(host) as string).isAllowed(url, 'bot');
    });
    expect(latin1(result.output)).toBe(expected.map((url) => url + '\n').join(''));
    expect(result.noHostLines).toBe(300);
    expect(() => matcher.checkLinesWithOutput(encode('http://a/\n'), { format: 'text', only: 'some' as 'all' })).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT' }));
  });
});

describe('direct answers (hosts answered straight from their body, assembly/direct.ts)', () => {
  const longSegment = 'a'.repeat(2000);
  // a '*' pattern whose segment almost matches at every place of a long path (its first and last bytes do,
  // the search's vector filter lets every place through): the direct answer passes its work limit and the
  // group is compiled instead
  const hostile = `User-agent: *\nDisallow: /*${longSegment}ba\nAllow: /ok\n`;
  it('a host with few lines is never compiled; one that comes back past 64 lines is compiled once, in place', async () => {
    const matcher = new MultiHostMatcher({ agents: 'bot', source: robotsFromMap(new Map([['a.test', 'User-agent: *\nDisallow: /private\nAllow: /private/ok$\n']])) });
    const few = ['/private/x', '/private/ok', '/private/ok/x', '/public'].map((path) => `https://a.test${path}`);
    expect([...await matcher.checkUrls(few)]).toEqual([2, 1, 2, 1]);
    expect([matcher.stats.direct, matcher.stats.compiled]).toEqual([1, 0]);
    const many = Array.from({ length: 70 }, (_, i) => `https://a.test/private/${i % 2 === 0 ? 'ok' : i}`);
    expect([...await matcher.checkUrls(many)]).toEqual(many.map((_, i) => (i % 2 === 0 ? 1 : 2)));
    // (the first call's four lines came host by host from a source asked again cheaply: the host was answered
    // from its body and not kept, so the second call reads it again and compiles it: answered directly once,
    // compiled once)
    expect([matcher.stats.direct, matcher.stats.compiled]).toEqual([1, 1]);
    expect([...await matcher.checkUrls(few)]).toEqual([2, 1, 2, 1]);
    expect(matcher.stats.compiled).toBe(1);
  });
  it('jsonl names the rules of a host answered from its body, as the compiled matcher names them (normalised pattern, its line, the index.htm rule)', async () => {
    const body = 'User-agent: *\nDisallow: /private\nDisallow: /caf%c3%a9/*.pdf$\n\nUser-agent: bot\nAllow: /docs/index.htm\nDisallow: /docs/\nDisallow: /p\u00e9\n';
    const matcher = new MultiHostMatcher({ agents: 'bot', source: robotsFromMap(new Map([['a.test', body]])) });
    const urls = ['https://a.test/private/2', 'https://a.test/docs/', 'https://a.test/docs/x', 'https://a.test/p%C3%A9/1', 'https://a.test/ok'];
    const result = await matcher.checkLinesWithOutput(encode(urls.join('\n')), { format: 'jsonl' });
    expect(new TextDecoder().decode(result.output)).toBe([
      '{"input":1,"url":"https://a.test/private/2","verdict":"allowed","rule":null}',
      '{"input":2,"url":"https://a.test/docs/","verdict":"allowed","rule":{"kind":"allow","line":6,"pattern":"/docs/index.htm","indexHtmRule":true}}',
      '{"input":3,"url":"https://a.test/docs/x","verdict":"disallowed","rule":{"kind":"disallow","line":7,"pattern":"/docs/"}}',
      '{"input":4,"url":"https://a.test/p%C3%A9/1","verdict":"disallowed","rule":{"kind":"disallow","line":8,"pattern":"/p%C3%A9"}}',
      '{"input":5,"url":"https://a.test/ok","verdict":"allowed","rule":null}',
    ].join('\n') + '\n');
    expect([matcher.stats.direct, matcher.stats.compiled]).toEqual([1, 0]);
    // the compiled matcher names the same rules
    const compiled = parseRobots(body).matcher('bot');
    compiled.isAllowed('https://a.test/'); // its first verdict comes from the body; from the second on it is compiled
    const explained = urls.map((url) => compiled.explain(url).rule);
    expect(explained.map((rule) => (rule === null ? null : [rule.kind, rule.line, rule.pattern, rule.indexHtmRule === true]))).toEqual([
      null, ['allow', 6, '/docs/index.htm', true], ['disallow', 7, '/docs/'], ['disallow', 8, '/p%C3%A9'], null,
    ].map((rule) => (rule === null ? null : rule.length === 3 ? [...rule, false] : rule)));
  });
  it('jsonl: a raw host whose direct answer passes its work limit is compiled in place, and its rules are named', async () => {
    const matcher = new MultiHostMatcher({ agents: 'bot', source: robotsFromMap(new Map([['h.test', hostile], ['o.test', 'User-agent: *\nDisallow: /o\n']])) });
    const urls = ['https://o.test/o', `https://h.test/${'a'.repeat(100_000)}`, `https://h.test/x${longSegment}ba`, 'https://o.test/p'];
    const result = await matcher.checkLinesWithOutput(encode(urls.join('\n')), { format: 'jsonl' });
    expect(new TextDecoder().decode(result.output).trim().split('\n').map((line) => JSON.parse(line).rule)).toEqual([
      { kind: 'disallow', line: 2, pattern: '/o' }, null, { kind: 'disallow', line: 2, pattern: `/*${longSegment}ba` }, null,
    ]);
    expect([matcher.stats.direct, matcher.stats.compiled]).toEqual([1, 1]);
  });
  it('past its work limit a direct answer gives way to a compile: same verdicts, no hang', { tags: ['slow'] }, async () => {
    const matcher = new MultiHostMatcher({ agents: 'bot', source: robotsFromMap(new Map([['h.test', hostile]])) });
    const urls = [`https://h.test/${'a'.repeat(100_000)}`, `https://h.test/x${longSegment}ba`, 'https://h.test/ok', `https://h.test/${'a'.repeat(50_000)}ba`];
    const expected = urls.map((url) => (modelVerdict(hostile, ['bot'], encode(url)).allowed ? 1 : 2));
    expect(expected).toEqual([1, 2, 1, 2]);
    expect([...await matcher.checkUrls(urls)]).toEqual(expected);
    // the single-URL direct answer gives way the same way
    for (const [i, url] of urls.entries()) expect(parseRobots(hostile).matcher('bot').isAllowed(url), url).toBe(expected[i] === 1);
  });
  it('long paths and rules that share their first 8 or 16 bytes (the prefix filters, the sort by 8-byte keys, insertion and merge sorts) equal the model (200 runs)', async () => {
    // pieces that make paths and rules longer than 16 bytes, alike in their first 8 or 16 (and a NUL escape,
    // '%', '*', '$' and non-ASCII bytes where the filters must not judge)
    const piece = fc.constantFrom('/wp-admin/', 'abcdefgh', 'abcdefgi', 'x', '-', '%2F', '%00', '%7e', 'é', '*', 'index.html', '?a=1');
    const value = fc.array(piece, { minLength: 1, maxLength: 5 }).map((parts) => '/wp-admin/' + parts.join(''));
    const rules = fc.array(fc.tuple(fc.constantFrom('Allow', 'Disallow'), value, fc.boolean()), { minLength: 1, maxLength: 16 });
    const body = rules.map((list) => `User-agent: bot\n${list.map(([kind, v, anchored]) => `${kind}: ${v}${anchored ? '$' : ''}`).join('\n')}\n`);
    const path = fc.oneof(value, fc.constantFrom('/', '/wp', '/wp-admin', '/wp-admin/abcdefgh'));
    // up to 64 lines: a host stays raw, its paths sorted by insertion (48 or fewer) or merging (more)
    await fc.assert(fc.asyncProperty(body, fc.array(path, { minLength: 1, maxLength: 64 }), async (robots, paths) => {
      const matcher = new MultiHostMatcher({ agents: 'bot', source: robotsFromMap(new Map([['h.test', robots]])) });
      const urls = paths.map((p) => `http://h.test${p}`);
      const verdicts = await matcher.checkUrls(urls);
      expect([matcher.stats.direct, matcher.stats.compiled]).toEqual([1, 0]);
      urls.forEach((url, i) => expect(verdicts[i], `url=${url} body=${JSON.stringify(robots)}`).toBe(modelVerdict(robots, ['bot'], encode(url)).allowed ? 1 : 2));
    }), { numRuns: 200 });
  });
  it('hosts not kept (the input\'s last chunk; a chunk that comes host by host) are answered from their body in rounds of the landing block, and equal the model (300 runs)', { tags: ['slow'] }, async () => {
    const star = fc.array(fc.constantFrom('/', 'a', 'b', '*', '$', '%2F', 'é', 'index.html'), { minLength: 1, maxLength: 6 }).map((p) => '/' + p.join(''));
    const rules = fc.array(fc.tuple(fc.constantFrom('Allow', 'Disallow'), fc.oneof(star, fc.constantFrom(...paths))), { maxLength: 12 });
    // a third of the bodies carry 20-40 KB of comment: a 1 MiB budget's landing block (64 KiB) fills after a few
    const hostBody = fc.tuple(fc.constantFrom('*', 'bot', 'other'), rules, fc.nat({ max: 40 })).map(([agent, list, pad]) => `User-agent: ${agent}\n${list.map(([kind, p]) => `${kind}: ${p}`).join('\n')}\n${pad > 20 ? `# ${'x'.repeat(pad * 1000)}\n` : ''}`);
    const path = fc.array(fc.constantFrom('/', 'a', 'b', '$', '*', '%2f', '%2F', 'é', 'index.html', '?q'), { maxLength: 8 }).map((p) => '/' + p.join(''));
    await fc.assert(fc.asyncProperty(fc.array(hostBody, { minLength: 1, maxLength: 12 }), fc.array(fc.tuple(fc.nat(), path), { minLength: 1, maxLength: 200 }), fc.boolean(), async (bodies, picks, sorted) => {
      const hosts = bodies.map((_, i) => `h${i}.test`);
      const map = robotsFromMap(new Map(hosts.map((host, i) => [host, bodies[i]])));
      const matcher = new MultiHostMatcher({ agents: 'bot', source: map, cacheBytes: 1 << 20 });
      let urls = picks.map(([n, p]) => `http://${hosts[n % hosts.length]}${p}`);
      if (sorted) urls = [...urls].sort(); // host by host: not kept even though lines may follow
      const result = await matcher.checkLinesWithOutput(encode(urls.join('\n') + '\n'), { format: 'text', last: !sorted });
      urls.forEach((url, i) => {
        const n = hosts.indexOf(url.slice('http://'.length).split('/')[0]);
        expect(result.verdicts[i], `url=${url} body=${JSON.stringify(bodies[n].slice(0, 200))}`).toBe(modelVerdict(bodies[n], ['bot'], encode(url)).allowed ? 1 : 2);
      });
      expect(new TextDecoder().decode(result.output)).toBe(urls.map((url, i) => `${result.verdicts[i] === 1 ? 'allowed' : 'disallowed'}\t${url}\n`).join(''));
      // the last chunk keeps only hosts compiled because they brought more than 64 lines
      if (!sorted) expect(matcher.stats.cachedHosts).toBe(matcher.stats.compiled);
    }), { numRuns: 300 });
  });
  it('input that comes host by host but names its hosts again later (sorted parts one after another): once hosts forgotten come back, they are kept', async () => {
    const hosts = Array.from({ length: 200 }, (_, i) => `h${String(i).padStart(3, '0')}.test`);
    const matcher = new MultiHostMatcher({ agents: 'bot', source: robotsFromMap(new Map(hosts.map((host, i) => [host, `User-agent: *\nDisallow: /${i}\n`]))) });
    const part = encode(hosts.flatMap((host, i) => [`http://${host}/${i}`, `http://${host}/x`]).join('\n') + '\n');
    const expected = hosts.flatMap(() => [2, 1]);
    expect([...(await matcher.checkLinesWithOutput(part, { format: 'none' })).verdicts]).toEqual(expected);
    expect([matcher.stats.direct, matcher.stats.cachedHosts]).toEqual([200, 0]); // host by host: forgotten
    expect([...(await matcher.checkLinesWithOutput(part, { format: 'none' })).verdicts]).toEqual(expected);
    // hosts read again that came back: once more than one in eight of the hosts read (200 + 29) has, the
    // 29th on, hosts are kept
    expect([matcher.stats.direct, matcher.stats.cachedHosts]).toEqual([400, 172]);
    expect([...(await matcher.checkLinesWithOutput(part, { format: 'none' })).verdicts]).toEqual(expected);
    expect([matcher.stats.direct, matcher.stats.cachedHosts]).toEqual([428, 200]); // only the 28 forgotten again are read
  });
  it('hosts of the input\'s last chunk are not kept (read again when asked again); a chunk in random host order with lines to follow keeps them', async () => {
    const bodies = { 'a.test': 'User-agent: *\nDisallow: /a\n', 'b.test': 'User-agent: *\nDisallow: /b\n' };
    const mixed = ['http://a.test/a', 'http://b.test/a', 'http://a.test/b', 'http://b.test/b'];
    const kept = recording(bodies);
    // (a recording source is a user's function: asked once per host while cached, never asked again for a body it gave)
    await kept.matcher.checkLinesWithOutput(encode(mixed.join('\n')), { format: 'text', last: true });
    expect(kept.matcher.stats.cachedHosts).toBe(2);
    const cheap = new MultiHostMatcher({ agents: 'bot', source: robotsFromMap(new Map(Object.entries(bodies))) });
    const last = await cheap.checkLinesWithOutput(encode(mixed.join('\n')), { format: 'text', last: true });
    expect([...last.verdicts]).toEqual([2, 1, 1, 2]);
    expect([cheap.stats.cachedHosts, cheap.stats.direct]).toEqual([0, 2]);
    // random host order with lines to follow: kept, and found again without being read
    const more = await cheap.checkLinesWithOutput(encode(mixed.join('\n')), { format: 'text' });
    expect([...more.verdicts]).toEqual([2, 1, 1, 2]);
    expect([cheap.stats.cachedHosts, cheap.stats.direct]).toEqual([2, 4]);
    await cheap.checkLinesWithOutput(encode(mixed.join('\n')), { format: 'text', last: true });
    expect([cheap.stats.cachedHosts, cheap.stats.direct]).toEqual([2, 4]);
    // host by host (sorted, several lines a host): not kept even with lines to follow
    const sorted = new MultiHostMatcher({ agents: 'bot', source: robotsFromMap(new Map(Object.entries(bodies))) });
    await sorted.checkLinesWithOutput(encode([...mixed].sort().join('\n')), { format: 'text' });
    expect([sorted.stats.cachedHosts, sorted.stats.direct]).toEqual([0, 2]);
  });
  it('random hosts, few lines each (raw) or many (compiled), equal the model (300 runs)', async () => {
    const star = fc.array(fc.constantFrom('/', 'a', 'b', '*', '$', '%2F', 'é', 'index.html'), { minLength: 1, maxLength: 6 }).map((p) => '/' + p.join(''));
    const rules = fc.array(fc.tuple(fc.constantFrom('Allow', 'Disallow'), fc.oneof(star, fc.constantFrom(...paths))), { maxLength: 12 });
    const hostBody = fc.tuple(fc.constantFrom('*', 'bot', 'other'), rules).map(([agent, list]) => `User-agent: ${agent}\n${list.map(([kind, p]) => `${kind}: ${p}`).join('\n')}\n`);
    const path = fc.array(fc.constantFrom('/', 'a', 'b', '$', '*', '%2f', '%2F', 'é', 'index.html', '?q'), { maxLength: 8 }).map((p) => '/' + p.join(''));
    await fc.assert(fc.asyncProperty(fc.array(hostBody, { minLength: 1, maxLength: 6 }), fc.array(fc.tuple(fc.nat(), path), { minLength: 1, maxLength: 120 }), async (bodies, picks) => {
      const hosts = bodies.map((_, i) => `h${i}.test`);
      const matcher = new MultiHostMatcher({ agents: 'bot', source: robotsFromMap(new Map(hosts.map((host, i) => [host, bodies[i]]))) });
      // host 0 gets most lines (past the direct limit when there are many), the others a few
      const urls = picks.map(([n, p], i) => `http://${hosts[i % 3 === 0 ? 0 : n % hosts.length]}${p}`);
      const verdicts = await matcher.checkUrls(urls);
      urls.forEach((url, i) => {
        const n = hosts.indexOf(url.slice('http://'.length).split('/')[0]);
        expect(verdicts[i], `url=${url} body=${JSON.stringify(bodies[n])}`).toBe(modelVerdict(bodies[n], ['bot'], encode(url)).allowed ? 1 : 2);
      });
    }), { numRuns: 300 });
  });
});
