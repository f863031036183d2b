// The library surface: what parseRobots collects besides rules, errors, and the matcher's bulk entry points.
import { describe, it, expect } from 'vitest';
import { spawnSync } from 'node:child_process';
import { parseRobots, RobotsError, VERDICT_ALLOWED, VERDICT_DISALLOWED } from '../src/node/index.js';
import { bytes } from './helpers.js';
import { modelVerdict } from './model.js';
import '../src/node/core-node.js'; // the WebAssembly core, loaded from build/
import { core } from '../src/core/wasm/core.js';
import { hasLiteralIndex } from '../src/core/wasm/blob.js';
import { encodeAgents } from '../src/core/wasm/bodies.js';

const body = [
  'Sitemap: https://e.com/a.xml', // 1
  'User-agent: Googlebot', // 2
  'Crawl-delay: 2.5', // 3
  'Disallow: /g', // 4
  'Disalow: /typo', // 5
  'Allow /x', // 6
  '', // 7
  'User-agent: *', // 8
  'Crawl-delay: ten', // 9
  'Disallow: /all', // 10
  'Host: www.e.com', // 11
  'Clean-param: ref /articles/', // 12
  'Noodle: 1', // 13
  'justtext', // 14
  'sitemap: https://e.com/b.xml', // 15
].join('\n');

describe('parseRobots collects', () => {
  const robots = parseRobots(body);
  it('sitemaps in file order, values as written', () => {
    expect(robots.sitemaps).toEqual(['https://e.com/a.xml', 'https://e.com/b.xml']);
  });
  it('crawl-delay per group: the agent\'s own, the * group\'s, null when absent or not a number', () => {
    expect(robots.crawlDelay('Googlebot')).toBe(2.5);
    expect(robots.crawlDelay('googlebot')).toBe(2.5);
    expect(robots.crawlDelay('Bingbot')).toBeNull(); // "ten"
    expect(parseRobots('User-agent: *\nDisallow: /\n').crawlDelay('x')).toBeNull();
    expect(parseRobots('User-agent: a\nUser-agent: b\nCrawl-delay: 7\n').crawlDelay('b')).toBe(7);
  });
  it('host and clean-param values', () => {
    expect(robots.directiveValues('host')).toEqual(['www.e.com']);
    expect(robots.directiveValues('Clean-Param')).toEqual(['ref /articles/']);
  });
  it('groups with their agents, rules and line numbers', () => {
    expect(robots.groups.length).toBe(2);
    expect(robots.groups[0].agents).toEqual([{ line: 2, value: 'Googlebot', productToken: 'Googlebot', global: false }]);
    expect(robots.groups[0].rules.map((r) => [r.kind, r.line, new TextDecoder().decode(r.value)])).toEqual([['disallow', 4, '/g'], ['disallow', 5, '/typo'], ['allow', 6, '/x']]);
    expect(robots.groups[1].agents[0].global).toBe(true);
  });
  it('diagnostics with lines, severities and stable codes', () => {
    expect(robots.diagnostics.map((d) => [d.line, d.severity, d.code])).toEqual([
      [5, 'warning', 'typo-key'],
      [6, 'warning', 'missing-colon'],
      [13, 'warning', 'unknown-directive'],
      [14, 'error', 'no-separator'],
    ]);
    const bom = parseRobots(bytes([0xef, 0xbb, 0xbf], 'User-agent: *\nDisallow: /', 'a'.repeat(17000), '\n'));
    expect(bom.diagnostics.map((d) => [d.line, d.code])).toEqual([[1, 'bom'], [2, 'line-truncated']]);
    const big = parseRobots('User-agent: *\n' + '#'.repeat(600000), { maxBytes: 1000 });
    expect(big.diagnostics.map((d) => d.message)).toEqual(['file is 600014 bytes: only the first 1000 are read']);
    expect(big.bytesRead).toBe(1000);
  });
  it('a string body and its UTF-8 bytes give the same verdicts', () => {
    const text = 'User-agent: *\nDisallow: /café\n';
    for (const url of ['/caf%C3%A9', '/café', '/cafe']) {
      expect(parseRobots(text).isAllowed(url, 'x')).toBe(parseRobots(bytes(text)).isAllowed(url, 'x'));
    }
    expect(parseRobots(text).isAllowed('/caf%C3%A9', 'x')).toBe(false);
  });
});

describe('matchers', () => {
  const robots = parseRobots('User-agent: *\nDisallow: /private\nAllow: /private/ok\nDisallow: /*.pdf$\n');
  it('are compiled once per agent query (case-insensitive) and reused; queries that select the same groups share one', () => {
    expect(robots.matcher('Googlebot')).toBe(robots.matcher('googlebot'));
    expect(robots.matcher(['a', 'b'])).toBe(robots.matcher('a')); // neither is named: both get the * group
    const named = parseRobots('User-agent: *\nDisallow: /\n\nUser-agent: b\nAllow: /\n');
    const unnamed = named.matcher('a');
    expect(named.matcher(['a', 'b'])).not.toBe(unnamed);
    expect(named.matcher('b')).not.toBe(unnamed);
    expect(named.matcher('other')).toBe(unnamed);
    expect([named.matcher('other').isAllowed('/x'), named.matcher('b').isAllowed('/x'), named.matcher(['a', 'b']).isAllowed('/x')]).toEqual([false, true, true]);
  });
  it('checkBatch returns one verdict byte per URL, strings with non-ASCII characters as UTF-8', () => {
    const verdicts = robots.matcher('x').checkBatch(['/private', '/private/ok', '/a.pdf', '/é.pdf', '/é.pdf?x', '']);
    expect([...verdicts]).toEqual([VERDICT_DISALLOWED, VERDICT_ALLOWED, VERDICT_DISALLOWED, VERDICT_DISALLOWED, VERDICT_ALLOWED, VERDICT_ALLOWED]);
    expect(robots.matcher('x').checkBatch([]).length).toBe(0);
  });
  it('checkBatch strings are UTF-8 encoded, so in rfc mode "/é" matches Disallow: /é and /%c3%a9', () => {
    const rfc = parseRobots('User-agent: *\nDisallow: /é\n', { mode: 'rfc' }).matcher('x');
    expect([...rfc.checkBatch(['/é', '/%c3%a9', '/\u00c3\u00a9', '/e'])]).toEqual([2, 2, 1, 1]);
  });
  it('checkLines takes LF or CRLF separated bytes', () => {
    expect([...robots.matcher('x').checkLines(bytes('/private\r\n/private/ok\n\n/x.pdf'))]).toEqual([2, 1, 1, 2]);
    expect([...robots.matcher('x').checkLines(bytes('/private\n'))]).toEqual([2]);
  });
  it('explain names the deciding rule or null', () => {
    const matcher = robots.matcher('x');
    expect(matcher.explain('https://e.com/private/ok/1')).toEqual({ allowed: true, rule: { kind: 'allow', line: 3, pattern: '/private/ok', priority: 11, indexHtmRule: false } });
    expect(matcher.explain('https://e.com/private/no')).toEqual({ allowed: false, rule: { kind: 'disallow', line: 2, pattern: '/private', priority: 8, indexHtmRule: false } });
    expect(matcher.explain('https://e.com/other')).toEqual({ allowed: true, rule: null });
  });
  it('many matchers can be used alternately (the active one is swapped into WebAssembly memory)', () => {
    const a = parseRobots('User-agent: *\nDisallow: /a\n').matcher('x');
    const b = parseRobots('User-agent: *\nDisallow: /b\n').matcher('x');
    for (let i = 0; i < 3; i++) {
      expect(a.isAllowed('/a')).toBe(false);
      expect(b.isAllowed('/a')).toBe(true);
      expect([...a.checkBatch(['/a', '/b'])]).toEqual([2, 1]);
      expect([...b.checkBatch(['/a', '/b'])]).toEqual([1, 2]);
    }
  });
  it('checkLinesText and checkLinesJsonl keep every line, or only those of one verdict; any other filter is INVALID_ARGUMENT', () => {
    const matcher = parseRobots('User-agent: *\nDisallow: /a\n').matcher('bot');
    const lines = new TextEncoder().encode('/a\n/b\n/a/x\n');
    const text = (only?: 'all' | 'allowed' | 'disallowed'): string => new TextDecoder().decode(matcher.checkLinesText(lines, only).output);
    expect(text()).toBe('disallowed\t/a\nallowed\t/b\ndisallowed\t/a/x\n');
    expect(text('all')).toBe(text());
    expect(text('allowed')).toBe('/b\n');
    expect(text('disallowed')).toBe('/a\n/a/x\n');
    expect(new TextDecoder().decode(matcher.checkLinesJsonl(lines, 'allowed').output)).toBe('{"input":2,"url":"/b","verdict":"allowed","rule":null}\n');
    // into a buffer the caller reuses: a view of it when the output fits, else a buffer of its own; the same bytes
    const into = new Uint8Array(4096);
    for (const method of ['checkLinesText', 'checkLinesJsonl'] as const) {
      const alone = method === 'checkLinesText' ? matcher.checkLinesText(lines) : matcher.checkLinesJsonl(lines);
      const reused = method === 'checkLinesText' ? matcher.checkLinesText(lines, 'all', into) : matcher.checkLinesJsonl(lines, 'all', 1, null, into);
      expect(reused.output.buffer).toBe(into.buffer);
      expect(Buffer.from(reused.output).equals(Buffer.from(alone.output))).toBe(true);
      const tooSmall = new Uint8Array(8);
      const outside = method === 'checkLinesText' ? matcher.checkLinesText(lines, 'all', tooSmall) : matcher.checkLinesJsonl(lines, 'all', 1, null, tooSmall);
      expect(outside.output.buffer).not.toBe(tooSmall.buffer);
      expect(Buffer.from(outside.output).equals(Buffer.from(alone.output))).toBe(true);
    }
    for (const bad of ['none', 1]) {
      expect(() => matcher.checkLinesText(lines, bad as 'all')).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT', message: `an output filter is all, allowed or disallowed, got ${JSON.stringify(bad)}` }));
    }
  });
});

describe('agent queries as the core reads them', () => {
  it('the same query gives the same bytes every time, past the 64 kept; no two queries share an encoding, whatever their agents spell', () => {
    const decode = (encoded: Uint8Array): string[] => {
      const view = new DataView(encoded.buffer, encoded.byteOffset, encoded.byteLength);
      const agents: string[] = [];
      for (let i = 0, at = 4; i < view.getUint32(0, true); i++) {
        const length = view.getUint32(at, true);
        agents.push(new TextDecoder().decode(encoded.subarray(at + 4, at + 4 + length)));
        at += 4 + length;
      }
      return agents;
    };
    const queries = [['Googlebot'], ['a', 'b'], ['2:1:a1:b'], ['1:a'], ['a'], ['1:a', 'b'], ['é', 'Bingbot'], ...Array.from({ length: 100 }, (_, i) => [`bot${i}`])];
    for (let round = 0; round < 2; round++) {
      for (const query of queries) expect(decode(encodeAgents(query))).toEqual(query);
    }
  });
});

describe('errors are RobotsError with a stable code', () => {
  const cases: [() => unknown, string][] = [
    [() => parseRobots('', { mode: 'strict' as 'rfc' }), 'unknown mode "strict" (expected google or rfc)'],
    [() => parseRobots('', { maxBytes: -1 }), 'maxBytes must be a whole number from 0 (the whole body) to 16777216 (16 MiB), got -1'],
    [() => parseRobots('', { maxBytes: 1.5 }), 'maxBytes must be a whole number from 0 (the whole body) to 16777216 (16 MiB), got 1.5'],
    [() => parseRobots('').matcher([]), 'at least one user agent is needed'],
  ];
  for (const [call, message] of cases) {
    it(message, () => {
      let caught: unknown = null;
      try { call(); } catch (error) { caught = error; }
      expect(caught).toBeInstanceOf(RobotsError);
      expect((caught as RobotsError).code).toBe('INVALID_ARGUMENT');
      expect((caught as RobotsError).message).toBe(message);
    });
  }
});

describe('start-up: the literal index asks for its random seed only when it first builds an index', () => {
  // crypto.getRandomValues loads Node's web crypto (milliseconds of every command's start-up): a process that
  // never compiles a large literal rule set never loads it (the modules check loads; the package index loads
  // node:crypto for the store)
  const script = (rules: number): string => `
    await import(${JSON.stringify(new URL('../dist/src/node/core-node.js', import.meta.url).href)});
    const { parseRobots } = await import(${JSON.stringify(new URL('../dist/src/core/robots.js', import.meta.url).href)});
    const body = 'User-agent: *\\n' + Array.from({ length: ${rules} }, (_, i) => 'Disallow: /section/page-' + i + '-' + 'x'.repeat(20)).join('\\n');
    const matcher = parseRobots(body).matcher('Googlebot');
    const verdicts = [matcher.isAllowed('https://e.com/section/page-7-' + 'x'.repeat(20)), matcher.isAllowed('https://e.com/ok'), matcher.isAllowed('https://e.com/section/page-7-' + 'x'.repeat(20))];
    console.log(JSON.stringify({ verdicts, crypto: process.moduleLoadList.includes('NativeModule internal/crypto/random') }));`;
  const run = (rules: number): { verdicts: boolean[]; crypto: boolean } => JSON.parse(spawnSync(process.execPath, ['--input-type=module', '-e', script(rules)], { encoding: 'utf8' }).stdout);
  it('a small file: no index, no crypto', () => {
    expect(run(10)).toEqual({ verdicts: [false, true, false], crypto: false });
  });
  it('16 KiB and more of literal patterns: an index, seeded from crypto', () => {
    expect(run(2000)).toEqual({ verdicts: [false, true, false], crypto: true });
  });
});

describe('a busy matcher with a literal index is compiled into the trie (same verdicts, faster per URL)', () => {
  // 3,000 literal Disallow/Allow rules (over 16 KiB of literal patterns: compiled first with a literal index),
  // and a few '*' and '$' rules beside them
  const rules = ['User-agent: *', 'Disallow: /*.pdf$', 'Allow: /docs/*/public'];
  for (let i = 0; i < 3000; i++) rules.push(`${i % 3 === 0 ? 'Allow' : 'Disallow'}: /docs/section-${i % 97}/page-${i}`);
  const body = rules.join('\n');
  const urls: string[] = [];
  for (let i = 0; i < 1000; i++) urls.push(`https://e.com/docs/section-${i % 97}/page-${(i * 7) % 3100}${i % 5 === 0 ? '/more' : ''}${i % 11 === 0 ? '.pdf' : ''}`);
  const lines = new TextEncoder().encode(urls.join('\n') + '\n');
  const expected = Uint8Array.from(urls, (url) => (modelVerdict(body, ['Googlebot'], url).allowed ? VERDICT_ALLOWED : VERDICT_DISALLOWED));

  it('answers as the model before and after: the trie replaces the index after 65,536 URLs answered in bulk', { tags: ['slow'] }, () => {
    const matcher = parseRobots(body).matcher('Googlebot');
    expect(matcher.checkLines(lines)).toEqual(expected);
    expect(hasLiteralIndex(matcher.blob)).toBe(true);
    for (let answered = 2000; answered <= 65_000; answered += 1000) matcher.checkLines(lines);
    expect(hasLiteralIndex(matcher.blob)).toBe(true); // 65,000 answered: not yet
    expect(matcher.checkLines(lines)).toEqual(expected); // 66,000: compiled into the trie after this call
    expect(hasLiteralIndex(matcher.blob)).toBe(false);
    expect(matcher.checkLines(lines)).toEqual(expected);
    expect(matcher.checkBatch(urls)).toEqual(expected);
    expect(urls.slice(0, 50).map((url) => matcher.isAllowed(url))).toEqual([...expected.slice(0, 50)].map((verdict) => verdict === VERDICT_ALLOWED));
    for (const url of urls.slice(0, 200)) expect(matcher.explain(url).rule?.line ?? null, url).toBe(modelVerdict(body, ['Googlebot'], url).line);
  });

  it('an index forced by setBulkEngine stays (A/B runs and tests compare the two as they are)', () => {
    core().setBulkEngine('automaton', { literalIndex: 'always' });
    try {
      const matcher = parseRobots(body).matcher('Googlebot');
      for (let answered = 0; answered < 70_000; answered += 1000) expect(matcher.checkLines(lines)).toEqual(expected);
      expect(hasLiteralIndex(matcher.blob)).toBe(true);
    } finally {
      core().setBulkEngine('automaton');
    }
  });
});
