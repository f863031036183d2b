// Property tests: the WebAssembly engine against the simple model (test/model.ts), thousands of random
// robots.txt bodies, agent queries and URLs per run. Also: every bulk path agrees with the single check.
import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { parseRobots, type RobotsMode } from '../src/node/index.js';
import { modelVerdict } from './model.js';
import { raw } from './helpers.js';
import { body, url, agents, UTF8_E_ACUTE } from './robots-arbitraries.js';

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/** The JavaScript string whose UTF-8 encoding is these bytes (what checkBatch is given), or null when there is none. */
export function utf8String(bytes: Uint8Array): string | null {
  try {
    return strictUtf8.decode(bytes);
  } catch {
    return null;
  }
}

function agree(mode: RobotsMode, robots: Uint8Array, query: string[], urls: string[]): void {
  const matcher = parseRobots(robots, { mode }).matcher(query);
  // checkBatch takes strings (UTF-8 encoded); the URLs here are bytes written as Latin-1 strings
  const asStrings = urls.map((u) => utf8String(raw(u)));
  const batchIndexes = asStrings.flatMap((u, i) => (u === null ? [] : [i]));
  const batchVerdicts = matcher.checkBatch(batchIndexes.map((i) => asStrings[i] as string));
  const batch = new Map(batchIndexes.map((index, k) => [index, batchVerdicts[k]]));
  const lines = matcher.checkLines(raw(urls.map((u) => u + '\n').join('')));
  const explained = matcher.explainLines(raw(urls.map((u) => u + '\n').join('')));
  const decided = matcher.decidingRules(raw(urls.map((u) => u + '\n').join('')));
  urls.forEach((u, i) => {
    const expected = modelVerdict(robots, query, raw(u), { mode });
    const explanation = matcher.explain(raw(u));
    const context = `${mode} body=${JSON.stringify(String.fromCharCode(...robots))} agents=${JSON.stringify(query)} url=${JSON.stringify(u)}`;
    expect(explanation.allowed, context).toBe(expected.allowed);
    expect(explanation.rule === null ? null : explanation.rule.line, context).toBe(expected.line);
    expect(matcher.isAllowed(raw(u)), context).toBe(expected.allowed);
    // a fresh matcher's first verdict comes straight from the body (assembly/direct.ts, google mode), no compile
    expect(parseRobots(robots, { mode }).matcher(query).isAllowed(raw(u)), `first verdict ${context}`).toBe(expected.allowed);
    if (batch.has(i)) expect(batch.get(i), context).toBe(expected.allowed ? 1 : 2);
    expect(lines[i], context).toBe(expected.allowed ? 1 : 2);
    expect([explained.verdicts[i], explained.lines[i]], `explainLines ${context}`).toEqual([expected.allowed ? 1 : 2, expected.line ?? 0]);
    // the bulk deciding rule is explain()'s, field for field (kind, line, pattern, priority, index.htm rule)
    expect([decided.verdicts[i], decided.rules[i]], `decidingRules ${context}`).toEqual([expected.allowed ? 1 : 2, explanation.rule]);
  });
}

describe('engine agrees with the model', () => {
  it('google mode: random bodies, agents and URLs (4,000 bodies x 6 URLs)', () => {
    fc.assert(fc.property(body, agents, fc.array(url, { minLength: 1, maxLength: 6 }), (robots, query, urls) => agree('google', robots, query, urls)), { numRuns: 4000 });
  });
  it('rfc mode: random bodies, agents and URLs (2,000 bodies x 6 URLs)', () => {
    fc.assert(fc.property(body, agents, fc.array(url, { minLength: 1, maxLength: 6 }), (robots, query, urls) => agree('rfc', robots, query, urls)), { numRuns: 2000 });
  });
  it('matcher stress: many wildcard rules over a tiny alphabet (3,000 rule sets x 8 paths)', () => {
    const tinyPattern = fc.array(fc.constantFrom('/', 'a', 'b', '*', '$'), { minLength: 1, maxLength: 8 }).map((p) => '/' + p.join(''));
    const rules = fc.array(fc.tuple(fc.constantFrom('Allow', 'Disallow'), tinyPattern), { minLength: 1, maxLength: 40 });
    const tinyPath = fc.array(fc.constantFrom('/', 'a', 'b', '$', '*'), { maxLength: 12 }).map((p) => '/' + p.join(''));
    fc.assert(fc.property(rules, fc.array(tinyPath, { minLength: 1, maxLength: 8 }), (list, paths) => {
      const robots = raw('User-agent: *\n' + list.map(([kind, p]) => `${kind}: ${p}\n`).join(''));
      agree('google', robots, ['Googlebot'], paths);
    }), { numRuns: 3000 });
  });
  it('index.htm and escapes: allow-heavy random rule sets (1,500 runs)', () => {
    const htmlPattern = fc.tuple(fc.array(fc.constantFrom('/', 'a', '*', '%2f', UTF8_E_ACUTE), { maxLength: 4 }), fc.constantFrom('/index.htm', '/index.html', '/index.htmx', '/', '')).map(([p, tail]) => '/' + p.join('') + tail);
    const rules = fc.array(fc.tuple(fc.constantFrom('Allow', 'Allow', 'Disallow'), htmlPattern), { minLength: 1, maxLength: 12 });
    const htmlPath = fc.tuple(fc.array(fc.constantFrom('/', 'a', '%2f', '%2F', UTF8_E_ACUTE, '%C3%A9'), { maxLength: 5 }), fc.constantFrom('', '/', '/index.html', '?q')).map(([p, tail]) => '/' + p.join('') + tail);
    fc.assert(fc.property(rules, fc.array(htmlPath, { minLength: 1, maxLength: 6 }), (list, paths) => {
      agree('google', raw('User-agent: *\n' + list.map(([kind, p]) => `${kind}: ${p}\n`).join('')), ['x'], paths);
    }), { numRuns: 1500 });
  });
});
