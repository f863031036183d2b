// What the corpus tests share: the real robots.txt files of ../shared/corpus/robots, URLs made from each file's
// own rules, and the engine-against-model check (split over two test files, so that two workers share it).
import { expect } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RobotsTxt } from '../src/node/index.js';
import { parseRobots } from '../src/node/index.js';
import { modelVerdict } from './model.js';
import { CORPUS_ROBOTS } from './cli-helpers.js';

export const latin1 = new TextDecoder('latin1');
export const raw = (text: string): Uint8Array => Uint8Array.from([...text].map((c) => c.charCodeAt(0) & 0xff));

export function corpusFiles(): string[] {
  return readdirSync(CORPUS_ROBOTS).flatMap((folder) => readdirSync(join(CORPUS_ROBOTS, folder)).map((name) => join(CORPUS_ROBOTS, folder, name))).sort();
}

/** URLs that exercise a file's own rules: each value as a path, with wildcards filled in two ways, plus neighbours. */
export function urlsFromRules(robots: RobotsTxt, limit: number): string[] {
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

export function namedAgent(robots: RobotsTxt): string {
  for (const group of robots.groups) for (const agent of group.agents) if (!agent.global && agent.productToken !== '') return agent.productToken;
  return 'NamedNowhere';
}

/**
 * For every file, URLs made from its own rules (fewer for files over 100 KB), three agents (Googlebot, *, and
 * an agent the file names): the engine's verdict equals the model's. Returns the number of verdicts checked.
 * The model (deliberately slow: test/model.ts) checks each URL against every rule of its file.
 */
export function engineAgreesWithModel(files: string[]): number {
  let checked = 0;
  for (const file of files) {
    const body = readFileSync(file);
    const robots = parseRobots(body);
    const urls = urlsFromRules(robots, body.length > 100_000 ? 3 : 12);
    for (const agent of ['Googlebot', '*', namedAgent(robots)]) {
      const verdicts = robots.matcher(agent).checkBatch(urls);
      urls.forEach((url, i) => {
        const expected = modelVerdict(body, [agent], raw(url));
        if (verdicts[i] !== (expected.allowed ? 1 : 2)) expect(`${file} ${agent} ${url} -> ${verdicts[i]}`).toBe(`model: ${expected.allowed}`);
        checked++;
      });
    }
  }
  return checked;
}
