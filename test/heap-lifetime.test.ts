// Long-lived processes: every owner of WebAssembly memory can be closed and its blocks are reused, dropped
// owners are reclaimed by their finalizers, every per-agent cache is bounded, and the engine answers exactly
// when its heap lies past 2 GiB and past 3.5 GiB (addresses are unsigned 32-bit numbers everywhere).
// Figures for a million matchers are measured in `npm run bench` (bench/lifetimes.ts), not here.
import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { MultiHostMatcher, robotsFromMap, parseRobots, RobotsError, TestBatch } from '../src/node/index.js';
import '../src/node/core-node.js'; // the WebAssembly core, loaded from build/
import { core } from '../src/core/wasm/core.js';
import { MAX_KEPT_MATCHERS } from '../src/core/robots.js';
import { modelVerdict } from './model.js';
import { raw, until } from './helpers.js';

const encode = (text: string): Uint8Array => new TextEncoder().encode(text);
setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;
/** Collects garbage and lets the finalizers it queued run (they run when the event loop turns), until `done` holds. */
async function collectUntil(done: () => boolean, what: string): Promise<void> {
  await until(() => {
    collectGarbage();
    return done();
  }, what, 5000, 10);
}

const BODY = 'User-agent: *\nDisallow: /private\nAllow: /private/ok\nDisallow: /*.pdf$\n';
const URLS = ['https://e.com/private/x', 'https://e.com/private/ok', 'https://e.com/a.pdf', 'https://e.com/a.pdf?x', 'https://e.com/'];
const EXPECTED = [2, 1, 2, 1, 1];

describe('MultiHostMatcher.close()', () => {
  it('1,000 matchers made, used and closed one after another: the heap\'s live bytes and the memory stay where the first left them', async () => {
    const heap = core().frame.heap;
    const map = new Map([['e.com', BODY]]);
    const input = encode(URLS.join('\n'));
    let afterFirst = -1;
    let memoryAfterFirst = -1;
    const liveBefore = heap.liveBytes;
    for (let i = 0; i < 1000; i++) {
      const hosts = new MultiHostMatcher({ agents: 'Googlebot', source: robotsFromMap(map) });
      expect([...await hosts.checkLines(input)]).toEqual(EXPECTED);
      hosts.close();
      if (i === 0) {
        afterFirst = heap.liveBytes;
        memoryAfterFirst = core().frame.memoryBytes().length;
      }
    }
    expect(afterFirst).toBe(liveBefore);
    expect(heap.liveBytes).toBe(liveBefore);
    expect(core().frame.memoryBytes().length).toBe(memoryAfterFirst);
  });
  it('a call after close() throws CLOSED; close() twice is harmless; Symbol.dispose closes', async () => {
    const hosts = new MultiHostMatcher({ agents: 'bot', source: () => BODY });
    hosts.close();
    hosts.close();
    expect(() => hosts.checkLinesWithOutput(encode('https://e.com/private'), { format: 'none' })).toThrow(expect.objectContaining({ code: 'CLOSED', message: 'this MultiHostMatcher was closed' }));
    await expect(hosts.checkLines(encode('https://e.com/private'))).rejects.toThrow(RobotsError);
    expect(() => hosts.setBudget(2 << 20)).toThrow('this MultiHostMatcher was closed');
    const disposed = new MultiHostMatcher({ agents: 'bot', source: () => BODY });
    disposed[Symbol.dispose]();
    expect(() => disposed.checkLinesWithOutput(encode('https://e.com/'), { format: 'none' })).toThrow('this MultiHostMatcher was closed');
  });
  it('close() while a call waits for its source: the call is answered, then the memory goes back', async () => {
    const heap = core().frame.heap;
    const liveBefore = heap.liveBytes;
    let release: (body: string) => void = () => undefined;
    const hosts = new MultiHostMatcher({ agents: 'bot', source: () => new Promise<string>((resolve) => { release = resolve; }) });
    const answer = hosts.checkLines(encode(URLS.join('\n')));
    await new Promise((resolve) => setTimeout(resolve, 5));
    hosts.close();
    expect(heap.liveBytes).toBeGreaterThan(liveBefore); // still answering
    release(BODY);
    expect([...await answer]).toEqual(EXPECTED);
    expect(heap.liveBytes).toBe(liveBefore);
  });
  it('matchers dropped without close() are reclaimed once collected: 300 dropped matchers leave the heap as it was', async () => {
    const heap = core().frame.heap;
    let previous = -1;
    await collectUntil(() => { const now = heap.liveBytes; const steady = now === previous; previous = now; return steady; }, 'the heap to be steady');
    const liveBefore = heap.liveBytes;
    await makeAndDrop(300); // (in a function of its own: no matcher stays in this frame)
    expect(heap.liveBytes).toBeGreaterThan(liveBefore);
    await collectUntil(() => heap.liveBytes === liveBefore, 'the dropped matchers to be reclaimed');
    expect(heap.liveBytes).toBe(liveBefore);
  });
});

async function makeAndDrop(count: number): Promise<void> {
  const map = new Map([['e.com', BODY]]);
  for (let i = 0; i < count; i++) {
    const hosts = new MultiHostMatcher({ agents: 'bot', source: robotsFromMap(map) });
    expect([...await hosts.checkLines(encode(URLS.join('\n')))]).toEqual(EXPECTED);
  }
}

describe('per-agent matchers are bounded', () => {
  it(`RobotsTxt keeps the matchers of its last ${MAX_KEPT_MATCHERS} agent queries, one per set of groups they select; one asked again after that is made again and answers the same`, () => {
    // 200 groups named by letter tokens: every query below selects its own group
    const token = (i: number): string => `bot-${String.fromCharCode(97 + Math.floor(i / 26) % 26)}${String.fromCharCode(97 + (i % 26))}`;
    let body = BODY;
    for (let i = 0; i < 200; i++) body += `\nUser-agent: ${token(i)}\nDisallow: /only-${i}\n`;
    const robots = parseRobots(body);
    const first = robots.matcher(token(0));
    expect(robots.matcher(token(0).toUpperCase())).toBe(first); // the same query (case-insensitive): the kept matcher
    for (let round = 0; round < 10; round++) {
      for (let i = 0; i < 200; i++) {
        const matcher = robots.matcher(token(i));
        expect(matcher.isAllowed(`https://e.com/only-${i}/x`)).toBe(false);
        expect(matcher.isAllowed('https://e.com/private/x')).toBe(true); // its own group, not *
      }
    }
    const again = robots.matcher(token(0));
    expect(again).not.toBe(first);
    expect(again.checkLines(encode('https://e.com/only-0/x\nhttps://e.com/private/x'))).toEqual(new Uint8Array([2, 1]));
    expect(first.checkLines(encode('https://e.com/only-0/x'))).toEqual(new Uint8Array([2])); // a matcher the caller holds stays usable
    // 2,000 agents the file does not name: one matcher for all (they all get the * group)
    const star = robots.matcher('agent0');
    for (let i = 1; i < 2000; i++) expect(robots.matcher(`agent${i}`)).toBe(star);
    expect(star.checkLines(encode(URLS.join('\n')))).toEqual(new Uint8Array(EXPECTED));
  });
  it('RobotsMatcher.close(): its resident rules leave the heap; calls after it throw CLOSED; a file hands out a new matcher for the query', () => {
    const heap = core().frame.heap;
    const robots = parseRobots(BODY);
    const matcher = robots.matcher('bot');
    matcher.checkLines(encode(URLS.join('\n'))); // resident now, with an automaton region
    const live = heap.liveBytes;
    matcher.close();
    expect(heap.liveBytes).toBeLessThan(live);
    expect(matcher.closed).toBe(true);
    expect(() => matcher.isAllowed('https://e.com/')).toThrow(expect.objectContaining({ code: 'CLOSED', message: 'this RobotsMatcher was closed' }));
    expect(() => matcher.checkLines(encode('https://e.com/'))).toThrow('this RobotsMatcher was closed');
    const next = robots.matcher('bot');
    expect(next).not.toBe(matcher);
    expect(next.isAllowed('https://e.com/private/x')).toBe(false);
    robots.close();
    expect(next.closed).toBe(true);
    expect(() => robots.matcher('bot')).toThrow(expect.objectContaining({ code: 'CLOSED', message: 'this RobotsTxt was closed' }));
    expect(robots.groups.length).toBe(1); // the parsed view stays readable
  });
  it('TestBatch keeps files and matchers within cacheBytes (least recently used closed): 3,000 agents over one 60 KB file of wildcard rules', { tags: ['slow'] }, () => {
    let body = 'User-agent: *\n';
    for (let i = 0; body.length < 60_000; i++) body += `Disallow: /*${i.toString(36)}*x$\nAllow: /a${i}*\n`;
    const budget = 4 << 20;
    const batch = new TestBatch({ root: '.', cacheBytes: budget });
    const robots = parseRobots(body, { maxBytes: 0 });
    const reference = robots.matcher('anybot');
    let peak = 0;
    for (let i = 0; i < 3000; i++) {
      const url = `https://e.com/${i % 7 === 0 ? 'a' : ''}${i.toString(36)}zzx`;
      const answer = batch.answer({ robotsText: body, agent: `bot${i}`, url });
      const explanation = reference.explain(url);
      expect(answer).toEqual({ verdict: explanation.allowed ? 'allowed' : 'disallowed', line: explanation.rule?.line ?? null });
      peak = Math.max(peak, batch.cacheBytes.used);
    }
    expect(peak).toBeLessThanOrEqual(budget);
    expect(batch.cacheBytes.budget).toBe(budget);
    batch.close();
    expect(batch.cacheBytes.used).toBe(0);
    const late = reference.explain('https://e.com/a1');
    expect(batch.answer({ robotsText: body, agent: 'late', url: 'https://e.com/a1' })).toEqual({ verdict: late.allowed ? 'allowed' : 'disallowed', line: late.rule?.line ?? null });
  });
  it('TestBatch: a robotsText past 16 MiB gets the answer a file of it gets (INPUT_TOO_LARGE), never an answer from its first part', () => {
    const body = 'User-agent: *\nAllow: /\n' + '#'.repeat(17 << 20);
    const answer = batch17().answer({ robotsText: body, agent: 'bot', url: 'https://e.com/' });
    expect(answer).toEqual({ error: { code: 'INPUT_TOO_LARGE', message: 'a robots.txt body of 17825815 bytes is larger than one compile takes whole (16 MiB): give a size limit (such as the 512000 bytes crawlers read) to read its first part' } });
  });
});

function batch17(): TestBatch {
  return new TestBatch({ root: '.' });
}

// Fragments as Latin-1 strings (one char = one byte), as test/property.test.ts builds them.
const patternTokens = ['/', '/', 'a', 'b', 'ab', '*', '*', '$', '%2f', '%', '?', '.', '\xc3\xa9', 'index.htm', ';'];
const pattern = fc.array(fc.constantFrom(...patternTokens), { maxLength: 6 }).map((parts) => parts.join(''));
const ruleLine = fc.tuple(fc.constantFrom('Allow: ', 'Disallow: ', 'disallow:'), pattern).map(([key, value]) => key + value);
const group = fc.tuple(fc.constantFrom('*', 'bot', 'other'), fc.array(ruleLine, { maxLength: 5 })).map(([agent, rules]) => `User-agent: ${agent}\n${rules.join('\n')}\n`);
const body = fc.array(group, { maxLength: 3 }).map((groups) => groups.join(''));
const urlPath = fc.array(fc.constantFrom('/', 'a', 'b', '.pdf', '?', '%2f', '\xc3\xa9', 'index.html', '$'), { maxLength: 6 }).map((parts) => '/' + parts.join(''));

/** The single-file and many-host engines against the model, with the heap where it lies now. */
async function engineEqualsModel(runs: number): Promise<void> {
  await fc.assert(fc.asyncProperty(
    fc.array(body, { minLength: 1, maxLength: 6 }),
    fc.array(fc.tuple(fc.nat(), urlPath), { minLength: 1, maxLength: 30 }),
    fc.constantFrom('google', 'rfc'),
    async (bodies, picks, mode) => {
      const hosts = bodies.map((_, i) => `h${i}.test`);
      // filler rules make hosts large, so that a 1 MiB budget evicts (and the heap compacts) while chunks run
      const texts = bodies.map((text, i) => text + (i % 2 === 0 ? `User-agent: zz\n${Array.from({ length: 300 }, (_, k) => `Disallow: /zz/${k}/${'q'.repeat(60)}`).join('\n')}\n` : ''));
      const urls = picks.map(([n, path]) => `http://${hosts[n % hosts.length]}${path}`);
      const many = new MultiHostMatcher({ agents: 'bot', source: robotsFromMap(new Map(hosts.map((host, i) => [host, raw(texts[i])]))), mode: mode as 'google' | 'rfc', cacheBytes: 1 << 20 });
      const verdicts = await many.checkLines(raw(urls.join('\n')));
      const jsonl = new TextDecoder().decode((await many.checkLinesWithOutput(raw(urls.join('\n')), { format: 'jsonl' })).output).trim().split('\n');
      many.close();
      urls.forEach((url, i) => {
        const n = Number(/^http:\/\/h(\d+)/.exec(url)?.[1]);
        const single = parseRobots(raw(texts[n]), { mode: mode as 'google' | 'rfc' }).matcher('bot');
        const expected = modelVerdict(raw(texts[n]), ['bot'], raw(url), { mode: mode as 'google' | 'rfc' });
        const context = `${mode} ${url} ${JSON.stringify(bodies[n])}`;
        expect(verdicts[i], context).toBe(expected.allowed ? 1 : 2);
        expect(single.isAllowed(raw(url)), context).toBe(expected.allowed);
        expect(single.checkLines(raw(`${url}\n${url}`)), context).toEqual(new Uint8Array([verdicts[i], verdicts[i]]));
        expect(single.explain(raw(url)).rule?.line ?? null, context).toBe(expected.line);
        expect(JSON.parse(jsonl[i]).rule?.line ?? null, context).toBe(expected.line);
      });
    },
  ), { numRuns: runs });
}

describe('addresses past 2^31 (the heap moved up by a batch region of 2.1 GiB, then 3.5 GiB: pages never written cost no memory)', () => {
  it('every verdict and deciding line equals the model, single-file and many-host, with evictions and compactions (150 runs each)', { tags: ['slow'] }, async () => {
    const wasm = core();
    await engineEqualsModel(20); // low addresses first: blocks exist when the heap moves
    for (const batch of [2100 * 2 ** 20, 3500 * 2 ** 20]) {
      wasm.frame.ensureBatch(batch);
      expect(wasm.frame.heap.base).toBeGreaterThan(batch);
      await engineEqualsModel(150);
      // the log reader and the line scans address the work area past the heap too
      expect(wasm.lineChunks.countLines(encode('a\nb\nc'))).toBe(3);
      const read = wasm.logs.readChunk(encode('1.2.3.4 - - [10/Oct/2026:13:55:36 +0000] "GET /x HTTP/1.1" 200 5 "-" "bot"\nnot a log line'), 1, { records: true, withHost: true, defaultHost: encode('h.example'), maxOther: 4 });
      expect([new TextDecoder().decode(read.urls), read.lines, read.otherLines]).toEqual(['http://h.example/x\n', 2, [2]]);
    }
  });
});
