// The bulk automaton (assembly/dfa.ts) against the trie NFA it is built from and the model: same verdicts
// with a normal region, with a region so small that it flushes and falls back to the NFA all the time, and
// for URLs whose bytes the line format cannot carry (LF, CR inside checkBatch strings).
import { describe, it, expect, afterEach } from 'vitest';
import fc from 'fast-check';
import { parseRobots } from '../src/node/index.js';
import '../src/node/core-node.js'; // the WebAssembly core, loaded from build/
import { core, type BulkEngineSwitches } from '../src/core/wasm/core.js';
import { modelVerdict } from './model.js';
import { raw } from './helpers.js';

afterEach(() => core().setBulkEngine('automaton'));

// Mostly patterns starting with '/'; some without (`*x` matches anywhere, `a*` nowhere).
const pattern = fc.tuple(fc.constantFrom('/', '/', '/', ''), fc.array(fc.constantFrom('/', 'a', 'b', 'ab', '*', '$', '?', '=', '.', '%2F', '\xc3\xa9', 'index.html'), { minLength: 1, maxLength: 7 }))
  .map(([lead, parts]) => lead + parts.join(''));
const rules = fc.array(fc.tuple(fc.constantFrom('Allow', 'Disallow'), pattern), { minLength: 1, maxLength: 30 });
const path = fc.array(fc.constantFrom('/', 'a', 'b', 'ab', '?', '=', '.', '%2F', '#', '\xc3\xa9', 'index.html', '$', ';'), { maxLength: 14 }).map((p) => p.join(''));
const prefix = fc.constantFrom('', 'http://h.com', 'https://u@h.com:80', '//h', 'h.com');

const latin1 = new TextDecoder('latin1');
/** checkBatch gets strings whose UTF-8 bytes are the URL's bytes (invalid UTF-8: replaced, compared with its own bytes). */
function verdicts(body: Uint8Array, urls: string[]): { lines: number[]; batch: number[]; batchUrls: string[] } {
  const matcher = parseRobots(body).matcher('bot');
  const strings = urls.map((u) => new TextDecoder().decode(raw(u)));
  return {
    lines: [...matcher.checkLines(raw(urls.map((u) => u + '\n').join('')))],
    batch: [...matcher.checkBatch(strings)],
    batchUrls: strings.map((u) => latin1.decode(new TextEncoder().encode(u))),
  };
}

describe('automaton = NFA = model', () => {
  const never = { pairWalks: 'never', literalIndex: 'never' } as const;
  const engines: [string, 'automaton' | 'nfa', BulkEngineSwitches][] = [
    ['automaton, one line at a time', 'automaton', never],
    ['automaton, two lines walked as a pair', 'automaton', { ...never, pairWalks: 'always' }],
    ['automaton capped at 3 states (constant flushes and NFA fallbacks)', 'automaton', { ...never, automatonStateLimit: 3 }],
    ['automaton capped at 3 states, pairs (pair fallbacks)', 'automaton', { ...never, automatonStateLimit: 3, pairWalks: 'always' }],
    ['literal index + automaton of the \'*\' patterns, one line at a time', 'automaton', { ...never, literalIndex: 'always' }],
    ['literal index + automaton of the \'*\' patterns, pairs', 'automaton', { ...never, literalIndex: 'always', pairWalks: 'always' }],
    ['literal index + automaton capped at 3 states', 'automaton', { ...never, literalIndex: 'always', automatonStateLimit: 3 }],
    ['literal index + automaton capped at 3 states, pairs', 'automaton', { ...never, literalIndex: 'always', automatonStateLimit: 3, pairWalks: 'always' }],
    ['NFA for bulk', 'nfa', never],
  ];
  for (const [name, engine, switches] of engines) {
    it(`${name}: 1,500 random rule sets x 10 URLs`, () => {
      core().setBulkEngine(engine, switches);
      const resetsBefore = core().automatonStats().resets;
      fc.assert(fc.property(rules, fc.array(fc.tuple(prefix, path), { minLength: 1, maxLength: 10 }), (list, parts) => {
        const body = raw('User-agent: *\n' + list.map(([kind, p]) => `${kind}: ${p}\n`).join(''));
        const urls = parts.map(([a, b]) => a + b);
        const { lines, batch, batchUrls } = verdicts(body, urls);
        urls.forEach((url, i) => {
          expect(lines[i], `lines ${url}`).toBe(modelVerdict(body, ['bot'], raw(url)).allowed ? 1 : 2);
          expect(batch[i], `batch ${url}`).toBe(modelVerdict(body, ['bot'], raw(batchUrls[i])).allowed ? 1 : 2);
        });
      }), { numRuns: 1500 });
      const resets = core().automatonStats().resets - resetsBefore;
      // every matcher load resets once (1,500 loads); a capped automaton must also have overflowed many times
      if ((switches.automatonStateLimit ?? 0) > 0) expect(resets).toBeGreaterThan(1500 + 1000);
      else expect(resets).toBeLessThanOrEqual(1500);
    });
  }
  it('literal index: explain and jsonl name the model\'s deciding line (repeated keys, \'$\' keys, both kinds), 1,000 rule sets', () => {
    // the same literal key written several times, with and without a final '$', as allow and disallow: the
    // index keeps the earliest line of each kind, as the trie does, and merges with the '*' rules by length
    core().setBulkEngine('automaton', { literalIndex: 'always' });
    const literal = fc.array(fc.constantFrom('/', 'a', 'b', 'index.html', '?', '%2f', '\xc3\xa9'), { minLength: 0, maxLength: 4 }).map((parts) => '/' + parts.join(''));
    const ruleLine = fc.tuple(fc.constantFrom('Allow', 'Disallow'), fc.oneof(literal, literal.map((p) => p + '$'), pattern));
    fc.assert(fc.property(fc.array(ruleLine, { minLength: 1, maxLength: 24 }), fc.array(fc.tuple(prefix, path), { minLength: 1, maxLength: 8 }), (list, parts) => {
      const lines = list.flatMap((line) => [line, line]); // every rule twice: the later copy never decides
      const body = raw('User-agent: *\n' + lines.map(([kind, p]) => `${kind}: ${p}\n`).join(''));
      const matcher = parseRobots(body).matcher('bot');
      const urls = parts.map(([a, b]) => a + b);
      const jsonl = new TextDecoder().decode(matcher.checkLinesJsonl(raw(urls.join('\n') + '\n')).output).trim().split('\n').map((text) => JSON.parse(text) as { rule: { line: number } | null });
      urls.forEach((url, i) => {
        const expected = modelVerdict(body, ['bot'], raw(url));
        const explained = matcher.explain(raw(url));
        expect(explained.allowed, url).toBe(expected.allowed);
        expect(explained.rule?.line ?? null, `explain ${url}`).toBe(expected.line);
        expect(jsonl[i].rule?.line ?? null, `jsonl ${url}`).toBe(expected.line);
      });
    }), { numRuns: 1000 });
  });
  it('an automaton capped at 1 state: bulk calls fall back to the NFA', () => {
    core().setBulkEngine('automaton', { automatonStateLimit: 1 });
    const { lines, batch } = verdicts(raw('User-agent: *\nDisallow: /a*b$\n'), ['/axb', '/axbc', 'http://h/ab']);
    expect(lines).toEqual([2, 1, 2]);
    expect(batch).toEqual([2, 1, 2]);
  });
  it('LF and CR inside checkBatch strings are ordinary URL bytes', () => {
    const matcher = parseRobots('User-agent: *\nDisallow: /a*b\nDisallow: /c$\n').matcher('bot');
    expect([...matcher.checkBatch(['/a\nb', '/a\rb', '/a\r\n', '/c\r', '/c\n', '/c'])]).toEqual([2, 2, 1, 1, 1, 2]);
    for (const url of ['/a\nb', '/a\rb', '/c\r']) expect(modelVerdict('User-agent: *\nDisallow: /a*b\nDisallow: /c$\n', ['bot'], url).allowed).toBe(matcher.checkBatch([url])[0] === 1);
  });
  it('checkLines: CR only ends a URL right before LF (or at the end of the input), walked in pairs or not', () => {
    for (const pairWalks of ['never', 'always'] as const) {
      core().setBulkEngine('automaton', { pairWalks });
      const matcher = parseRobots('User-agent: *\nDisallow: /c$\nDisallow: /d\r\n').matcher('bot');
      expect([...matcher.checkLines(raw('/c\r\n/c\rx\n/c\r'))]).toEqual([2, 1, 2]);
      expect(new TextDecoder().decode(matcher.checkLinesText(raw('/c\r\n\n/x#/c\n?c\n/c')).output)).toBe('disallowed\t/c\nallowed\t\nallowed\t/x#/c\nallowed\t?c\ndisallowed\t/c\n');
    }
  });
  it('checkLines: lines starting with "http://" or "https://" (read as one word) find the same path as the scan', () => {
    const body = 'User-agent: *\nDisallow: /\nAllow: /h\nAllow: //\nAllow: /x?\n';
    const urls = ['https://', 'http://', 'https:/', 'https://h', 'http://h/b', 'https://h:80/b', 'https://u@h:80/b', 'HTTPS://h/b', 'http:///b',
      'https://h?x', 'http://h#/b', 'https://h/h', 'http:/h/b', 'httpx://h/b', 'https:/h', '//h/b', 'https://h://b', 'https://h//b', 'http://h/x?'];
    const expected = [2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 1, 1, 2, 1, 2, 1, 1, 1];
    for (const pairWalks of ['never', 'always'] as const) {
      core().setBulkEngine('automaton', { pairWalks });
      const matcher = parseRobots(body).matcher('bot');
      expect([...matcher.checkLines(raw(urls.join('\n')))]).toEqual(expected);
      expect([...matcher.checkBatch(urls)]).toEqual(expected);
    }
    urls.forEach((url, i) => expect(modelVerdict(body, ['bot'], url).allowed ? 1 : 2, url).toBe(expected[i]));
  });
  it('the automaton survives between calls and across matcher switches', () => {
    const a = parseRobots('User-agent: *\nDisallow: /*x$\n').matcher('bot');
    const b = parseRobots('User-agent: *\nAllow: /*x$\nDisallow: /\n').matcher('bot');
    for (let round = 0; round < 3; round++) {
      expect([...a.checkLines(raw('/ax\n/ay\n'))]).toEqual([2, 1]);
      expect([...b.checkLines(raw('/ax\n/ay\n'))]).toEqual([1, 2]);
    }
  });
  it('node stamps (16 bits) wrap around: 140,000 wildcard URLs on one matcher, NFA and automaton, equal the model', () => {
    // each NFA URL takes a fresh stamp generation; after 65,535 of them the blob's stamps are cleared and
    // counting starts again. A node met once, then exactly 65,535 URLs later, would carry a stale stamp equal
    // to the new generation (and be left out of the set) if the clearing were missing: the '/zz*q' star
    // node is met by those URLs only.
    const body = raw('User-agent: *\nDisallow: /*a*b$\nAllow: /*a*b*c\nDisallow: /x*\nDisallow: /zz*q\n');
    const matcher = parseRobots(body).matcher('bot');
    const letters = ['a', 'b', 'c', 'x', '/'];
    const urls = Array.from({ length: 140_000 }, (_, i) => {
      let path = '/';
      for (let n = i; n > 0; n = Math.floor(n / 5)) path += letters[n % 5];
      return path;
    });
    for (const rare of [1000, 1000 + 65_535, 7000, 7000 + 65_535, 7000 + 2 * 65_535]) urls[rare] = '/zzq';
    const expected = urls.map((url) => (modelVerdict(body, ['bot'], raw(url)).allowed ? 1 : 2));
    const input = raw(urls.join('\n') + '\n');
    for (const engine of ['nfa', 'automaton'] as const) {
      core().setBulkEngine(engine, { pairWalks: 'never', literalIndex: 'never' });
      const got = [...matcher.checkLines(input)];
      const wrong = got.findIndex((verdict, i) => verdict !== expected[i]);
      expect(wrong, `${engine}: ${urls[wrong]}`).toBe(-1);
    }
  });
});
