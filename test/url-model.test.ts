// The URL model (src/core/url-model.ts): every path that picks a URL's robots.txt picks the origin the WHATWG URL
// parser picks (the one Node's fetch, undici and browsers contact). The core's many-host scan
// (assembly/hosts.ts hostKeyOf) is checked against `new URL` on generated hostile URLs, then the engine, the
// directory and store sources, check --log, audit and RobotsCache on the victim/attacker table: a URL every
// HTTP client sends to the victim must never be answered by the attacker's robots.txt or by --missing.
import { describe, it, expect, afterEach } from 'vitest';
import fc from 'fast-check';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { MultiHostMatcher, robotsFromMap, robotsFromDirectory, originOf, RobotsError, RobotsAudit, parseRobots, parseLogLine, type RobotsHost } from '../src/node/index.js';
import { RobotsCache } from '../src/node/fetch/index.js';
import { originOfKey, withoutDefaultPort, isPlainKey } from '../src/core/url-model.js';
import '../src/node/core-node.js'; // the WebAssembly core, loaded from build/
import { core } from '../src/core/wasm/core.js';
import { robotstxt, robotstxtAsync, tempDir } from './cli-helpers.js';
import { LocalOrigins, serve } from './http-origins.js';

const encode = (text: string): Uint8Array => new TextEncoder().encode(text);

/** The origin WHATWG gives a line (null: none with a robots.txt), with this package's one labelled deviation: one trailing dot dropped. */
function whatwgOrigin(line: string): string | null {
  let url: URL;
  try {
    url = new URL(line);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  let host = url.hostname;
  if (host.length > 1 && host.endsWith('.')) host = host.slice(0, -1); // ID_TrailingDot
  if (host === '' || host === '.') return null;
  return `${url.protocol}//${host}${url.port === '' ? '' : `:${url.port}`}`;
}

/** What the core's scan and the model make of a line: the origin the many-host engine answers it by. */
function scannedOrigin(line: string): string | null {
  const key = core().urls.originKey(encode(line));
  if (key === null) return null;
  return originOfKey(key)?.origin ?? null;
}

const lead = fc.constantFrom('', '', '', ' ', '\t', '\x01', '  \x1f');
const scheme = fc.constantFrom('http', 'https', 'HTTP', 'HtTpS', 'h\tttp', 'ftp', 'ws', 'file', 'javascript', 'httpx', '');
const separator = fc.constantFrom('://', '://', '://', ':', ':/', ':\\\\', ':/\\', ':///', '://\t', ':\\', '//');
const userinfo = fc.constantFrom('', '', '', 'user@', 'attacker.example;@', 'attacker.example\\@', 'u:p@', '@', 'x@y@', 'a%40b@', 'victim.example%2F@', 'a b@', `${'u'.repeat(2000)}@`);
const host = fc.constantFrom(
  'victim.example', 'VICTIM.Example', 'vict%69m.example', 'victim.example.', 'victim.example..', 'xn--bcher-kva.de', 'bücher.de', 'BÜCHER.de',
  '0x7f.1', '127.0.0.1', '127.1', '0177.0.0.1', '[::1]', '[::FFFF:1.2.3.4]', '[::1', 'a..b', 'exa mple.com', 'ex\tample.com', '%2e', 'xn--a',
  'a.1', 'a.0x', 'a.0x1f', '', 'example.com\u3002org', 'ａｂｃ.com', 'a_b.example', '-a-.example', 'ab--cd.example', 'victim.example;attacker.example',
  'h\u00e9.example', 'x'.repeat(300), '%00', 'a\x7f.com', 'a\x01b.com', 'a%2fb.com', 'localhost',
);
const port = fc.constantFrom('', '', '', ':', ':80', ':443', ':8080', ':0080', ':99999', ':x', ':65535', ':\t81');
const rest = fc.constantFrom('', '/private', '\\private', '?q=1', '#f', ';x', '/p\\q', ' ', '\r', '\t/private', '/a b', '  ', '\x00/x', '/%2F');
const hostileUrl = fc.tuple(lead, scheme, separator, userinfo, host, port, rest).map((parts) => parts.join(''));

describe('originOf (audit, fetch, the cache) picks the origin WHATWG picks, also when it reads only the authority', () => {
  it('ID_HostileUrls: generated URLs, each asked twice (the second answer comes from the per-authority cache)', () => {
    fc.assert(fc.property(hostileUrl, (line) => {
      expect(originOf(line)?.origin ?? null, JSON.stringify(line)).toBe(whatwgOrigin(line));
      expect(originOf(line)?.origin ?? null, JSON.stringify(line)).toBe(whatwgOrigin(line));
    }), { numRuns: 20_000, seed: 19 });
  });
  it('ID_HostileUrls: random text after a plain authority, and around an http: prefix', () => {
    const anyText = fc.string({ unit: fc.constantFrom('a', 'B', '.', '/', '\\', '@', ':', ';', '%', '2', 'f', '?', '#', '[', ']', ' ', '\t', '\r', '\n', '\x00', 'é', '-', '0', 'x'), maxLength: 24 });
    fc.assert(fc.property(fc.constantFrom('http:', 'https:', 'HTTP://', 'http://', 'https://a.example', 'http://u@b.example:8080', 'https://[::1]', ''), anyText, (prefix, text) => {
      const line = prefix + text;
      expect(originOf(line)?.origin ?? null, JSON.stringify(line)).toBe(whatwgOrigin(line));
    }), { numRuns: 30_000, seed: 29 });
  });
});

describe('a plain key (answered without its text by a pack) is its own origin, as WHATWG reads it', () => {
  it('isPlainKey(key) says so only for keys WHATWG reads as that very origin, and the core reads each key the same way (property)', () => {
    // (hosts of up to ~100 bytes: the core reads a host 16 bytes a step, so labels, dots and `xn--` fall on
    // every side of a step's edge)
    const label = fc.oneof(fc.stringMatching(/^[a-z0-9-]{1,8}$/), fc.stringMatching(/^[a-z0-9x-]{9,17}$/), fc.constantFrom('xn--a', 'xn--', 'xn-', 'xnx--', '0x1f', '0x', '0xg', '1', '09', 'A', 'a_b', '', 'ex%41', 'a\x80'));
    const key = fc.tuple(fc.constantFrom('http://', 'https://', 'http:/', 'ftp://', 'https:'), fc.array(label, { minLength: 1, maxLength: 8 }), fc.constantFrom('', '', '.', ':80', ':8080')).map(([scheme, labels, end]) => scheme + labels.join('.') + end);
    fc.assert(fc.property(key, (text) => {
      const plain = isPlainKey(text);
      // the core's own reading (a pack held in it answers plain keys without the host): the same rule
      expect(core().urls.isPlainKey(Uint8Array.from(text, (c) => c.charCodeAt(0))), `core: ${text}`).toBe(plain);
      if (plain) expect(new URL(`${text}/`).origin, text).toBe(text);
    }), { numRuns: 6000, seed: 31 });
    const examples = ['http://a.b', 'https://x-1.example', 'http://a.0xg', 'http://a.b.', 'http://a.1', 'http://xn--a.b', 'http://a.b:80', 'https://',
      'https://abcdefghijklmno.xn--p', 'https://abcdefghijklmnop.xn--q', 'https://abcdefghijklmnop..q', 'https://abcdefghijklmno..q', 'https://abcdefghijklmnop.0x1f', 'https://abcdefghijklmnop.q1'];
    const expected = [true, true, true, false, false, false, false, false, false, false, false, false, false, true];
    expect(examples.map(isPlainKey)).toEqual(expected);
    expect(examples.map((text) => core().urls.isPlainKey(Uint8Array.from(text, (c) => c.charCodeAt(0))))).toEqual(expected);
  });
});

describe('withoutDefaultPort: an explicit default port is dropped, which never changes the origin', () => {
  it('drops :443 of https and :80 of http (any case), keeps every other port and text', () => {
    expect(['https://a.example:443/p?q', 'HTTP://a.example:80', 'http://a.example:80?x', 'https://a.example:443#f', 'https://a.example:80/p', 'http://a.example:443/p', 'https://a.example:4430/p', 'https://u:443@a.example/p', '/relative:80', 'ftp://a.example:80/p'].map(withoutDefaultPort)).toEqual(
      ['https://a.example/p?q', 'HTTP://a.example', 'http://a.example?x', 'https://a.example#f', 'https://a.example:80/p', 'http://a.example:443/p', 'https://a.example:4430/p', 'https://u:443@a.example/p', '/relative:80', 'ftp://a.example:80/p']);
  });
  it('never changes the origin WHATWG reads (generated URLs)', () => {
    fc.assert(fc.property(fc.constantFrom('http', 'https', 'HTTPS'), fc.constantFrom('a.example', 'b.example.', '[::1]', 'u:p@c.example', 'x'), fc.constantFrom('', ':80', ':443', ':8080', ':'), fc.constantFrom('', '/', '/p?q', '#f', '?a:443'), (scheme, host, port, rest) => {
      const url = `${scheme}://${host}${port}${rest}`;
      expect(originOf(withoutDefaultPort(url))?.origin ?? null).toBe(originOf(url)?.origin ?? null);
    }));
  });
});

describe('the many-host scan picks the host WHATWG picks', () => {
  it('ID_HostileUrls: generated URLs (user info with ; \\ @, backslashes, percent-encoded hosts, missing slashes, IDNA, ports, IPv6)', () => {
    fc.assert(fc.property(hostileUrl, (line) => {
      expect(scannedOrigin(line), JSON.stringify(line)).toBe(whatwgOrigin(line));
    }), { numRuns: 20_000, seed: 17 });
  });

  it('ID_HostileUrls: random printable and control text around an http: prefix', () => {
    const anyText = fc.string({ unit: fc.constantFrom('a', 'B', '.', '/', '\\', '@', ':', ';', '%', '2', 'f', '?', '#', '[', ']', ' ', '\t', '\r', '\x00', 'é', '-', '0', 'x') , maxLength: 24 });
    fc.assert(fc.property(fc.constantFrom('http:', 'https:', 'HTTP://', 'http://', ''), anyText, (prefix, text) => {
      const line = prefix + text;
      expect(scannedOrigin(line), JSON.stringify(line)).toBe(whatwgOrigin(line));
    }), { numRuns: 20_000, seed: 23 });
  });

  it('ID_HostileUrls: in bulk, sorted so that neighbours share prefixes (the scan\'s same-authority shortcut), each line is answered by its WHATWG origin', async () => {
    const lines = fc.sample(hostileUrl, { numRuns: 4000, seed: 31 }).filter((line) => !/[\n\r]/.test(line));
    lines.sort();
    // each origin a source is asked for gets a body whose deciding line number names it
    const ids = new Map<string, number>();
    const matcher = new MultiHostMatcher({ agents: 'x', source: (host: RobotsHost) => {
      if (!ids.has(host.origin)) ids.set(host.origin, ids.size);
      return `User-agent: *\n${'#\n'.repeat(ids.get(host.origin) as number)}Disallow: /\n`;
    } });
    const result = await matcher.checkLinesWithOutput(encode(lines.join('\n') + '\n'), { format: 'jsonl' });
    const answers = new TextDecoder().decode(result.output).trim().split('\n').map((line) => JSON.parse(line) as { rule: { line: number } | null });
    expect(answers.length).toBe(lines.length);
    const byId = [...ids.keys()];
    answers.forEach((answer, i) => {
      const answeredBy = answer.rule === null ? null : byId[answer.rule.line - 2];
      expect(answeredBy, JSON.stringify(lines[i])).toBe(whatwgOrigin(lines[i]));
    });
  });

  it('ID_HostileUrls: the log readers take an absolute request target\'s host as WHATWG does (ALB and JSON lines)', () => {
    const absolute = hostileUrl.filter((url) => /^https?:\/\//i.test(url) && !/[\s"\\]/.test(url));
    fc.assert(fc.property(absolute, (url) => {
      const expected = whatwgOrigin(url) === null ? null : new URL(whatwgOrigin(url) as string).hostname;
      // log lines are bytes: the reader gets them one char per byte, as the command line reads files
      const asRead = (text: string): string => Buffer.from(text, 'utf8').toString('latin1');
      const alb = parseLogLine(asRead(`http 2026-11-21T11:00:00Z app/x/1 1.2.3.4:5 - 0 0 0 200 200 1 1 "GET ${url} HTTP/1.1" "bot" - -`));
      if (alb !== null) expect(alb.host, url).toBe(expected);
      const json = parseLogLine(asRead(JSON.stringify({ uri: url, userAgent: 'bot' })));
      expect(json?.host ?? null, url).toBe(expected);
    }), { numRuns: 3000, seed: 29 });
  });

  it('originOf agrees with the same reading for strings, URL objects and bytes', () => {
    for (const line of ['http://attacker.example;@victim.example/private', 'http:victim.example/x', 'https://Bücher.DE./a', 'http://x:80/', 'ftp://a/', 'not a url']) {
      expect(originOf(line)?.origin ?? null).toBe(whatwgOrigin(line));
      expect(originOf(encode(line))?.origin ?? null).toBe(whatwgOrigin(line));
    }
    expect(JSON.parse(JSON.stringify(originOf(new URL('http://Example.COM:8080/x'))))).toEqual({
      scheme: 'http', host: 'example.com', port: '8080', origin: 'http://example.com:8080', hostKey: 'example.com:8080', fileKey: 'http@example.com@8080',
    });
    expect(originOf('https://[::1]:8443/')?.fileKey).toBe('https@[--1]@8443');
  });
});

/** The table of the security sweep: every URL an HTTP client sends to victim.example. */
const VICTIM_URLS = [
  'http://attacker.example;@victim.example/private',
  'http://victim.example\\@attacker.example/private',
  'http://victim.example\\private',
  'http:victim.example/private',
  'http://vict%69m.example/private',
  'http:\\\\victim.example/private',
  'HTTP://VICTIM.EXAMPLE./private',
  'http://victim.example:80/private',
  ' http://victim.example/private',
  'http://vic\ttim.example/private',
  'http://user:pw@victim.example/private',
  `http://${'a'.repeat(2000)}@victim.example/private`,
];
const VICTIM_BODY = 'User-agent: *\nDisallow: /\n';
const ATTACKER_BODY = 'User-agent: *\nAllow: /\n';

describe('victim/attacker: every path answers by the victim\'s robots.txt', () => {
  it('each URL of the table is one every HTTP client sends to the victim', () => {
    for (const url of VICTIM_URLS) expect(whatwgOrigin(url), url).toBe('http://victim.example');
  });

  it('MultiHostMatcher with a Map, with a directory, and asked per origin', async () => {
    const map = new MultiHostMatcher({ agents: 'Googlebot', source: robotsFromMap(new Map([['victim.example', VICTIM_BODY], ['attacker.example', ATTACKER_BODY]])) });
    expect([...await map.checkUrls(VICTIM_URLS)]).toEqual(VICTIM_URLS.map(() => 2));
    const dir = tempDir();
    writeFileSync(join(dir, 'victim.example.txt'), VICTIM_BODY);
    writeFileSync(join(dir, 'attacker.example.txt'), ATTACKER_BODY);
    const asked: string[] = [];
    const fromDir = robotsFromDirectory(dir);
    const matcher = new MultiHostMatcher({ agents: 'Googlebot', source: (origin: RobotsHost) => { asked.push(origin.origin); return fromDir(origin); } });
    expect([...await matcher.checkLines(encode(VICTIM_URLS.join('\n')))]).toEqual(VICTIM_URLS.map(() => 2));
    expect(asked).toEqual(['http://victim.example']);
  });

  it('check --robots-dir, check --store (origin files), check --log and audit on ALB lines agree', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'victim.example.txt'), VICTIM_BODY);
    writeFileSync(join(dir, 'attacker.example.txt'), ATTACKER_BODY);
    const input = VICTIM_URLS.join('\n') + '\n';
    const byDir = robotstxt(['check', '--robots-dir', dir, '--agent', 'Googlebot'], input);
    expect(byDir.status).toBe(0);
    expect(byDir.stdout.split('\n').filter(Boolean).map((line) => line.split('\t')[0])).toEqual(VICTIM_URLS.map(() => 'disallowed'));
    // a store keeps origins apart: the http origin's file answers http URLs, the https one https URLs
    const store = tempDir();
    writeFileSync(join(store, 'http@victim.example.txt'), VICTIM_BODY);
    writeFileSync(join(store, 'https@victim.example.txt'), ATTACKER_BODY);
    writeFileSync(join(store, 'victim.example.txt'), ATTACKER_BODY); // a host file: the origin files come first
    const byStore = robotstxt(['check', '--store', store, '--agent', 'Googlebot'], 'http://attacker.example;@victim.example/private\nhttps://victim.example/private\n');
    expect(byStore.stdout).toBe('disallowed\thttp://attacker.example;@victim.example/private\nallowed\thttps://victim.example/private\n');
    // ALB lines with absolute targets: check --log and audit read the same origin
    const alb = ['http://attacker.example;@victim.example:80/private', 'http://victim.example\\@attacker.example/private', 'http://vict%69m.example/private']
      .map((target, i) => `http 2026-01-0${i + 1}T00:00:00.000000Z app/lb 203.0.113.${i}:1234 10.0.0.1:80 0.001 0.002 0.000 200 200 100 200 "GET ${target.replaceAll('\\', '\\\\')} HTTP/1.1" "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)" - - arn:x "Root=1" "-" "-" 0 2026-01-01T00:00:00.000000Z "forward" "-" "-" "10.0.0.1:80" "200" "-" "-"`);
    writeFileSync(join(store, 'access.log'), alb.join('\n') + '\n');
    const byLog = robotstxt(['check', '--log', '--robots-dir', dir, '--agent', 'Googlebot', join(store, 'access.log')]);
    expect(byLog.stdout.split('\n').filter(Boolean).map((line) => line.split('\t')[0])).toEqual(['disallowed', 'disallowed', 'disallowed']);
    const audit = robotstxt(['audit', '--robots-dir', dir, '--format', 'json', join(store, 'access.log')]);
    expect(audit.status, audit.stderr).toBe(0);
    const report = JSON.parse(audit.stdout) as { crawlers: { agent: string; requests: number; disallowed: number }[] };
    expect(report.crawlers.map((c) => [c.agent, c.requests, c.disallowed])).toEqual([['Googlebot', 3, 3]]);
  });

  it('RobotsAudit (library) reads the origin of the request line, not a host of its own', () => {
    const robots = { 'http://victim.example': parseRobots(VICTIM_BODY), 'http://attacker.example': parseRobots(ATTACKER_BODY) } as Record<string, ReturnType<typeof parseRobots>>;
    const audit = new RobotsAudit((origin) => (origin === null ? null : robots[origin.origin] ?? null));
    audit.addLine('{"host":"victim.example","uri":"/private","userAgent":"Googlebot/2.1"}', 1);
    audit.addLine('{"uri":"http://attacker.example;@victim.example/private","userAgent":"Googlebot/2.1"}', 2);
    const report = audit.report();
    expect(report.crawlers.map((c) => [c.agent, c.requests, c.disallowed])).toEqual([['Googlebot', 2, 2]]);
  });
});

describe('rules per origin: fetching and RobotsCache', () => {
  let running: LocalOrigins | null = null;
  afterEach(async () => {
    await running?.close();
    running = null;
  });

  it('RobotsCache fetches each URL\'s own origin (as an HTTP client reads it) and keeps origins apart', async () => {
    running = await LocalOrigins.start([serve.body(VICTIM_BODY), serve.body(ATTACKER_BODY)]);
    const victim = running.origin(0).slice('http://'.length);
    const attacker = running.origin(1).slice('http://'.length);
    const cache = new RobotsCache({ store: tempDir() });
    try {
      const urls = [`http://${attacker};@${victim}/private`, `http://${victim}\\@${attacker}/private`, `http:${victim}/private`, `http://${attacker}/private`];
      expect([...await cache.checkUrls(urls, 'Googlebot')]).toEqual([2, 2, 2, 1]);
      expect(await cache.isAllowed(new URL(`http://${attacker}/x`), 'Googlebot')).toBe(true);
      expect(running.requestsTo(0)).toBe(1);
      expect(running.requestsTo(1)).toBe(1);
    } finally {
      await cache.close();
    }
  });

  it('check --fetch on http:// URLs fetches http://.../robots.txt with no --scheme; the store names files per origin', async () => {
    running = await LocalOrigins.start([serve.body(VICTIM_BODY)]);
    const store = tempDir();
    const run = await robotstxtAsync(['check', '--store', store, '--fetch', '--targets', 'any', '--agent', 'Googlebot'], `${running.origin(0)}/private\n`);
    expect(run.stdout).toBe(`disallowed\t${running.origin(0)}/private\n`);
    expect(running.requests.map((r) => r.url)).toEqual(['/robots.txt']);
    const fetched = await robotstxtAsync(['fetch', '--store', store, '--max-age', '0', `${running.origin(0)}/`]);
    expect(fetched.stdout).toMatch(new RegExp(`^rules\\t${running.origin(0).replaceAll('.', '\\.')}\\tfetched\\tok 200\\n$`));
    expect(robotstxt(['check', '--robots-dir', store, '--agent', 'Googlebot'], `${running.origin(0)}/private\n${running.origin(0).replace('http:', 'https:')}/private\n`).stdout)
      .toBe(`disallowed\t${running.origin(0)}/private\nallowed\t${running.origin(0).replace('http:', 'https:')}/private\n`);
  });
});

describe('arguments are checked at the door', () => {
  it('URL objects are read by their href; other values throw INVALID_ARGUMENT naming the argument', async () => {
    const robots = parseRobots('User-agent: *\nDisallow: /x\n');
    const matcher = robots.matcher('Googlebot');
    expect(robots.isAllowed(new URL('https://a.com/x'), 'Googlebot')).toBe(false);
    expect(matcher.isAllowed(new URL('https://a.com/x'))).toBe(false);
    expect([...matcher.checkBatch([new URL('https://a.com/x'), 'https://a.com/y'])]).toEqual([2, 1]);
    const wrong: unknown[] = [42, null, undefined, ['https://a.com/x'], new String('https://a.com/x'), { href: 'https://a.com/x' }];
    for (const value of wrong) {
      expect(() => robots.isAllowed(value as string, 'Googlebot')).toThrow(/url must be a URL string or a URL object/);
      expect(() => matcher.isAllowed(value as string)).toThrow(RobotsError);
      expect(() => matcher.checkBatch([value as string])).toThrow(/urls\[0\] must be a URL string or a URL object/);
    }
    expect(() => matcher.checkBatch('https://a.com/x' as unknown as string[])).toThrow(/urls must be an array/);
    expect(() => matcher.checkLines(42 as unknown as Uint8Array)).toThrow(/lines must be a Uint8Array/);
    expect(() => matcher.checkLines('https://a.com/x\n' as unknown as Uint8Array)).toThrow(/use checkBatch for strings/);
    expect(() => robots.isAllowed('https://a.com/x', 42 as unknown as string)).toThrow(RobotsError);
    const hosts = new MultiHostMatcher({ agents: 'Googlebot', source: robotsFromMap(new Map([['a.com', 'User-agent: *\nDisallow: /x\n']])) });
    expect([...await hosts.checkUrls([new URL('https://a.com/x')])]).toEqual([2]);
    await expect(hosts.checkLines(42 as unknown as Uint8Array)).rejects.toThrow(/lines must be a Uint8Array/);
    await expect(hosts.isAllowed(7 as unknown as string)).rejects.toThrow(/url must be/);
    expect(() => new RobotsCache({ store: 42 as unknown as string })).toThrow('store must be a directory path or a RobotsStore, got a number');
    expect(() => new MultiHostMatcher({ agents: [7 as unknown as string], source: robotsFromMap(new Map()) })).toThrow('agents[0] must be a string, got a number');
    expect(() => new MultiHostMatcher({ agents: 'x', source: 'dir' as never })).toThrow(/source must be a function/);
    const cache = new RobotsCache();
    try {
      await expect(cache.checkUrls([new URL('ftp://a.com/')], 'Googlebot')).resolves.toEqual(new Uint8Array([1]));
      await expect(cache.checkUrls([7 as unknown as string], 'Googlebot')).rejects.toThrow(/urls\[0\] must be/);
    } finally {
      await cache.close();
    }
  });

  it('robotsFromMap keys are canonicalised like URLs (a wrong key throws, never fails open)', async () => {
    const matcher = new MultiHostMatcher({ agents: 'Googlebot', source: robotsFromMap(new Map([['Example.COM', VICTIM_BODY], ['https://Other.example:443', VICTIM_BODY], ['bücher.de.', VICTIM_BODY]])) });
    expect([...await matcher.checkUrls(['http://example.com/x', 'https://other.example/x', 'http://other.example/x', 'http://xn--bcher-kva.de/x'])]).toEqual([2, 2, 1, 2]);
    expect(() => robotsFromMap(new Map([['http://a.com/path', 'x']]))).toThrow(/names no http\(s\) origin or host/);
    expect(() => robotsFromMap(new Map([['a.com/x', 'x']]))).toThrow(RobotsError);
    expect(() => robotsFromMap(new Map([['a.com', 'x'], ['A.com.', 'y']]))).toThrow(/name the same host/);
    expect(() => robotsFromMap({ 'a.com': 'x' } as unknown as Map<string, string>)).toThrow(/must be a Map/);
  });
});
