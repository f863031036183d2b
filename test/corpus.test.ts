// Every real robots.txt of ../shared/corpus/robots: parses without throwing in both modes, and the engine
// agrees with the model on URLs made from the file's own rules. Skips (with a printed reason) without the corpus.
import { describe, it, expect } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseRobots, type RobotsTxt } from '../src/index.js';
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
