// Group selection (whose groups decide for an agent) is decided in one place, the WebAssembly core
// (assembly/groups.ts numbers the groups, assembly/select.ts chooses them); the object model's groups are
// numbered by the same tokenizer, and RobotsTxt.groupsFor / names / crawlDelay ask select.ts which apply.
// This test holds the two views together: over real files and their own agents, the rules of the groups
// groupsFor reports are exactly the rules the compiled matcher holds.
import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseRobots } from '../src/node/index.js';
import { compiledRule } from '../src/core/wasm/blob.js';
import { HEADER_RULE_COUNT, RULE_KIND_ALLOW } from '../src/core/constants.js';
import { CORPUS_ROBOTS, corpusMissingReason } from './cli-helpers.js';

/** The (kind, line) of every rule a compiled matcher holds (the index.htm rule's derived twin left out), sorted. */
function compiledRules(blob: Uint8Array): string[] {
  const count = new DataView(blob.buffer, blob.byteOffset, blob.byteLength).getUint32(HEADER_RULE_COUNT, true);
  const rules: string[] = [];
  for (let i = 0; i < count; i++) {
    const rule = compiledRule(blob, i);
    if (!rule.derived) rules.push(`${rule.kind === RULE_KIND_ALLOW ? 'allow' : 'disallow'}:${rule.line}`);
  }
  return rules.sort();
}

const selected = (body: Uint8Array | string, agent: string): [string[], string[]] => {
  const robots = parseRobots(body);
  return [robots.groupsFor(agent).flatMap((group) => group.rules.map((rule) => `${rule.kind}:${rule.line}`)).sort(), compiledRules(robots.matcher(agent).blob)];
};

describe('groupsFor selects the groups the compiled matcher selects', () => {
  it('on the cases of the specification: named agents, *, merged groups, agents named without rules', () => {
    const bodies = [
      'User-agent: *\nDisallow: /a\n\nUser-agent: FooBot\nDisallow: /b\n\nUser-agent: *\nAllow: /c\n',
      'User-agent: *\nDisallow: /a\n\nUser-agent: FooBot\n',
      'User-agent: *\nUser-agent: FooBot\nDisallow: /a\n\nUser-agent: foobot\nAllow: /a/b\n',
      'Disallow: /before\nUser-agent: BarBot/2.1 extra\nDisallow: /x\nUser-agent: FooBot\nDisallow: /y\n',
      'User-agent: * foo\nDisallow: /z\nUser-agent: *bot\nDisallow: /w\n',
    ];
    for (const body of bodies) for (const agent of ['FooBot', 'BarBot', 'Other', 'foobot']) {
      const [fromGroups, compiled] = selected(body, agent);
      expect(fromGroups, `${agent} on ${JSON.stringify(body)}`).toEqual(compiled);
    }
  });
  it('groups without rules: user-agent lines separated only by other lines stay one group (crawlDelay, names)', () => {
    const robots = parseRobots('User-agent: FooBot\nCrawl-delay: 5\nUser-agent: BarBot\nDisallow: /x\n\nUser-agent: *\nCrawl-delay: 9\nDisallow: /\n\nUser-agent: BazBot\nCrawl-delay: 2\n');
    expect(robots.groups.map((group) => group.agents.map((agent) => agent.value))).toEqual([['FooBot', 'BarBot'], ['*'], ['BazBot']]);
    expect([robots.crawlDelay('foobot'), robots.crawlDelay('BarBot'), robots.crawlDelay('Other'), robots.crawlDelay('BazBot')]).toEqual([5, 5, 9, 2]);
    expect([robots.names('BAZBOT'), robots.names(['Other', 'barbot']), robots.names('Other'), robots.names('*')]).toEqual([true, true, false, false]);
    expect(robots.groupsFor(['BazBot', 'FooBot']).map((group) => group.agents[0].line)).toEqual([1, 10]);
    expect(robots.isAllowed('https://e.com/a', 'BazBot')).toBe(true); // its group has no rules, and it is named: `*` does not apply
    // selections are kept per query (64 at most, then forgotten together): answers stay the same past that
    for (let i = 0; i < 150; i++) expect(robots.crawlDelay(i % 3 === 0 ? 'BazBot' : `other${i}`)).toBe(i % 3 === 0 ? 2 : 9);
    expect(robots.groupsFor('BAZBOT').map((group) => group.agents[0].line)).toEqual([10]);
  });
  it.skipIf(corpusMissingReason !== null)('on real files, for each file\'s own agents, Googlebot and an agent no file names', () => {
    const folder = join(CORPUS_ROBOTS, 'protego');
    const names = readdirSync(folder).sort().filter((_, i) => i % 4 === 0);
    let compared = 0;
    let rulesCompared = 0;
    const differing: string[] = [];
    for (const name of names) {
      const body = readFileSync(join(folder, name));
      const agents = new Set(['Googlebot', 'UnnamedTestBot']);
      for (const group of parseRobots(body).groups) for (const line of group.agents) if (!line.global && line.productToken !== '' && agents.size < 6) agents.add(line.productToken);
      for (const agent of agents) {
        const [fromGroups, compiled] = selected(body, agent);
        compared++;
        rulesCompared += compiled.length;
        if (JSON.stringify(fromGroups) !== JSON.stringify(compiled)) differing.push(`${name} ${agent}`);
      }
    }
    expect(differing).toEqual([]);
    expect(compared).toBeGreaterThan(2000);
    expect(rulesCompared).toBeGreaterThan(20_000);
  });
});
