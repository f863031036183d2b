// Hostile and huge inputs: correct verdicts, no throw, no blow-up. (Time and memory of the worst cases: npm run bench:hostile.)
import { describe, it, expect } from 'vitest';
import { parseRobots } from '../src/node/index.js';
import { modelVerdict } from './model.js';

describe('hostile patterns and huge inputs', () => {
  const hostile = 'User-agent: *\nDisallow: /*a*a*a*a*a*a*a*a*a*a*b\n';
  const longA = '/' + 'a'.repeat(65536);
  it('ID_HostileWildcardsAgainst64KiBPath: /*a*a*a*a*a*a*a*a*a*a*b', () => {
    const matcher = parseRobots(hostile).matcher('x');
    expect(matcher.isAllowed(longA)).toBe(true);
    expect(matcher.isAllowed(longA + 'b')).toBe(false);
    expect(modelVerdict(hostile, ['x'], longA).allowed).toBe(true);
    expect(modelVerdict(hostile, ['x'], longA + 'b').allowed).toBe(false);
    expect([...matcher.checkLines(new TextEncoder().encode(`${longA}\n${longA}b\n`))]).toEqual([1, 2]);
  });
  it('ID_StarRuns: a run of 500,000 stars in one rfc-mode rule is one star (it cost path x stars per URL); runs agree with the model', () => {
    const body = `User-agent: *\nDisallow: /${'*'.repeat(500_000)}x\n`;
    const matcher = parseRobots(body, { mode: 'rfc', maxBytes: 0 }).matcher('x');
    expect([...matcher.checkBatch([`http://a/${'y'.repeat(4096)}`, `http://a/${'y'.repeat(4095)}x`])]).toEqual([1, 2]);
    const runs = 'User-agent: *\nDisallow: /a***b\nAllow: /a**b*****c$\nDisallow: /*****\nAllow: /**x*\n';
    for (const url of ['/ab', '/aXb', '/abc', '/aXbYc', '/x', '/zzz', '/', '/a***b']) {
      for (const mode of ['google', 'rfc'] as const) expect(parseRobots(runs, { mode }).matcher('x').isAllowed(url), `${mode} ${url}`).toBe(modelVerdict(runs, ['x'], url, { mode }).allowed);
    }
  });
  it('2,000 wildcard rules against a long path agree with the model', () => {
    const rules: string[] = [];
    for (let i = 0; i < 2000; i++) rules.push(`${i % 3 === 0 ? 'Allow' : 'Disallow'}: /*${'ab'.slice(i % 2)}*${'a'.repeat(i % 7)}*${i % 5 === 0 ? 'b$' : 'ba'}`);
    const body = 'User-agent: *\n' + rules.join('\n');
    const matcher = parseRobots(body).matcher('x');
    for (const url of ['/' + 'ab'.repeat(3000), '/' + 'a'.repeat(5000) + 'b', '/' + 'ba'.repeat(2500) + 'x']) {
      expect(matcher.isAllowed(url)).toBe(modelVerdict(body, ['x'], url).allowed);
    }
  });
  it('a 1 MiB single line is truncated to 16,663 bytes; a 1 MiB URL is matched', () => {
    const body = 'User-agent: *\nDisallow: /' + 'x'.repeat(1 << 20);
    const robots = parseRobots(body, { maxBytes: 0 });
    expect(robots.groups[0].rules[0].value.length).toBe(16663 - 'Disallow: '.length);
    expect(robots.isAllowed('/' + 'x'.repeat(1 << 20), 'x')).toBe(false);
    expect(robots.isAllowed('/' + 'x'.repeat(16000), 'x')).toBe(true);
  });
  it('100,000 user-agent lines and binary garbage parse without throwing', () => {
    const agents = 'User-agent: bot\n'.repeat(100000) + 'Disallow: /\n';
    expect(parseRobots(agents).isAllowed('/x', 'bot')).toBe(true); // the rule lies past 500 KiB
    expect(parseRobots(agents, { maxBytes: 0 }).isAllowed('/x', 'bot')).toBe(false);
    const garbage = new Uint8Array(300000);
    let seed = 7;
    for (let i = 0; i < garbage.length; i++) {
      seed = (seed * 1103515245 + 12345) >>> 0;
      garbage[i] = seed >>> 24;
    }
    const robots = parseRobots(garbage);
    expect(robots.isAllowed('/x', 'Googlebot')).toBe(modelVerdict(garbage, ['Googlebot'], '/x').allowed);
  });
  it('an HTML error page served as robots.txt allows everything', () => {
    expect(parseRobots('<!DOCTYPE html>\n<html><head><title>404</title></head>\n<body>Not found: /robots.txt</body></html>\n').isAllowed('/x', 'Googlebot')).toBe(true);
  });
});
