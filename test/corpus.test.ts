// Every real robots.txt of ../shared/corpus/robots: parses without throwing in both modes, and the engine
// agrees with the model on URLs made from the file's own rules. Skips (with a printed reason) without the corpus.
import { describe, it, expect, afterEach } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseRobots, type RobotsTxt } from '../src/index.js';
import { core } from '../src/wasm/core-node.js';
import { modelVerdict } from './model.js';
import { CORPUS_ROBOTS, corpusMissingReason } from './cli-helpers.js';

const latin1 = new TextDecoder('latin1');
const raw = (text: string): Uint8Array => Uint8Array.from([...text].map((c) => c.charCodeAt(0) & 0xff));

function corpusFiles(): string[] {
  return readdirSync(CORPUS_ROBOTS).flatMap((folder) => readdirSync(join(CORPUS_ROBOTS, folder)).map((name) => join(CORPUS_ROBOTS, folder, name))).sort();
}

/** URLs that exercise a file's own rules: each value as a path, with wildcards filled in two ways, plus neighbours. */
function urlsFromRules(robots: RobotsTxt, limit: number): string[] {
  const values = new Set<string>();
  for (const group of robots.groups) for (const rule of group.rules) values.add(latin1.decode(rule.value));
  const urls = ['https://example.com/', 'https://example.com/robots.txt', 'https://example.com/index.html'];
  let index = 0;
  for (const value of values) {
    if (index++ % Math.max(1, Math.ceil(values.size / limit)) !== 0) continue;
    const plain = value.replace(/\$$/, '');
    urls.push(`https://example.com${plain.replace(/\*/g, '')}`);
    urls.push(`https://example.com${plain.replace(/\*/g, 'zz/')}x?y=1`);
    urls.push(`https://example.com${plain.slice(0, Math.max(1, plain.length - 1))}`);
  }
  return urls;
}

function namedAgent(robots: RobotsTxt): string {
  for (const group of robots.groups) for (const agent of group.agents) if (!agent.global && agent.productToken !== '') return agent.productToken;
  return 'NamedNowhere';
}

afterEach(() => core().setBulkEngine('automaton'));

describe.skipIf(corpusMissingReason !== null)('real robots.txt files', () => {
  const files = corpusMissingReason === null ? corpusFiles() : [];
  it(`parses all ${files.length} files in both modes without throwing, with diagnostics and line numbers`, () => {
    expect(files.length).toBeGreaterThan(4000);
    let groups = 0;
    for (const file of files) {
      const body = readFileSync(file);
      for (const mode of ['google', 'rfc'] as const) {
        const robots = parseRobots(body, { mode });
        groups += robots.groups.length;
        for (const group of robots.groups) for (const rule of group.rules) expect(rule.line).toBeGreaterThan(0);
        robots.matcher('Googlebot');
      }
    }
    expect(groups).toBeGreaterThan(10000);
  });
  it('engine and model agree on URLs made from every file\'s own rules (3 agents, google mode)', () => {
    let checked = 0;
    for (const file of files) {
      const body = readFileSync(file);
      const robots = parseRobots(body);
      const urls = urlsFromRules(robots, body.length > 100_000 ? 3 : 12);
      for (const agent of ['Googlebot', '*', namedAgent(robots)]) {
        const matcher = robots.matcher(agent);
        const verdicts = matcher.checkBatch(urls);
        urls.forEach((url, i) => {
          const expected = modelVerdict(body, [agent], raw(url));
          if (verdicts[i] !== (expected.allowed ? 1 : 2)) expect(`${file} ${agent} ${url} -> ${verdicts[i]}`).toBe(`model: ${expected.allowed}`);
          checked++;
        });
      }
    }
    expect(checked).toBeGreaterThan(50000);
    // the model (deliberately slow: test/model.ts) checks over 50,000 URLs against every rule of their file: 45 s on the
    // shared 2-core machine when quiet, over 70 s when it is slowed down, so more than the default 60 s
  }, 180_000);
  it('literal index and pair walks forced on: checkLines agrees with the model on every file (Googlebot)', () => {
    core().setBulkEngine('automaton', { pairWalks: 'always', literalIndex: 'always' });
    let checked = 0;
    for (const file of files) {
      const body = readFileSync(file);
      const robots = parseRobots(body);
      const urls = urlsFromRules(robots, body.length > 100_000 ? 3 : 12);
      const verdicts = robots.matcher('Googlebot').checkLines(raw(urls.join('\n')));
      urls.forEach((url, i) => {
        const expected = modelVerdict(body, ['Googlebot'], raw(url));
        if (verdicts[i] !== (expected.allowed ? 1 : 2)) expect(`${file} ${url} -> ${verdicts[i]}`).toBe(`model: ${expected.allowed}`);
        checked++;
      });
    }
    expect(checked).toBeGreaterThan(15000);
  });
  it('the largest literal file (docs.oracle.com, 31,843 rules, no size limit): automaton, literal index and NFA agree on 30,000 URLs', () => {
    const file = files.find((name) => name.endsWith('docs.oracle.com.txt'));
    expect(file).toBeDefined();
    const body = readFileSync(file as string);
    const robots = parseRobots(body, { maxBytes: 0 });
    const values = robots.groups.flatMap((group) => group.rules.map((rule) => latin1.decode(rule.value)));
    expect(values.length).toBe(31843);
    const urls: string[] = [];
    for (let i = 0; urls.length < 30000; i += 7) {
      const value = values[i % values.length];
      urls.push(`https://docs.oracle.com${value}`, `https://docs.oracle.com${value.slice(0, 1 + (i % value.length))}`, `https://docs.oracle.com${value}x/${i}.html`);
    }
    const lines = raw(urls.join('\n'));
    const verdictsOf = (literalIndex: 'auto' | 'always' | 'never', engine: 'automaton' | 'nfa' = 'automaton'): number[] => {
      core().setBulkEngine(engine, { literalIndex });
      // the literal index is chosen when a matcher is compiled: a fresh parse per mode
      return [...parseRobots(body, { maxBytes: 0 }).matcher('Googlebot').checkLines(lines)];
    };
    const nfa = verdictsOf('never', 'nfa');
    expect(nfa.filter((v) => v === 2).length).toBeGreaterThan(10000);
    expect(verdictsOf('auto')).toEqual(nfa);
    expect(verdictsOf('always')).toEqual(nfa);
    expect(verdictsOf('never')).toEqual(nfa);
    for (const i of [0, 1, 2, 12345, 29999]) expect(nfa[i], urls[i]).toBe(modelVerdict(body, ['Googlebot'], raw(urls[i]), { maxBytes: 0 }).allowed ? 1 : 2);
  });
  it('engine and model agree in rfc mode on a sample of files', () => {
    for (const file of files.filter((_, i) => i % 10 === 0)) {
      const body = readFileSync(file);
      const robots = parseRobots(body, { mode: 'rfc' });
      const urls = urlsFromRules(robots, 8);
      const matcher = robots.matcher('Googlebot');
      const verdicts = matcher.checkBatch(urls);
      urls.forEach((url, i) => {
        const expected = modelVerdict(body, ['Googlebot'], raw(url), { mode: 'rfc' });
        if (verdicts[i] !== (expected.allowed ? 1 : 2)) expect(`${file} ${url} -> ${verdicts[i]}`).toBe(`model: ${expected.allowed}`);
      });
    }
  });
});
