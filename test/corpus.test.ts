// Every real robots.txt of ../shared/corpus/robots: parses without throwing in both modes, and the engine
// agrees with the model on URLs made from the file's own rules. Skips (with a printed reason) without the corpus.
import { describe, it, expect, afterEach } from 'vitest';
import { readFileSync } from 'node:fs';
import { parseRobots } from '../src/node/index.js';
import '../src/node/core-node.js'; // the WebAssembly core, loaded from build/
import { core } from '../src/core/wasm/core.js';
import { modelVerdict } from './model.js';
import { corpusMissingReason } from './cli-helpers.js';
import { corpusFiles, urlsFromRules, engineAgreesWithModel, raw, latin1 } from './corpus-helpers.js';

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
  it('engine and model agree on URLs made from the rules of the first half of the files (3 agents, google mode; the second half: corpus-model.test.ts)', () => {
    expect(engineAgreesWithModel(files.slice(0, files.length >> 1))).toBeGreaterThan(20000);
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
