// npm run bench:breakdown: where the time of the 10,000-rule benchmark goes. The generated file is split into
// its kinds of rules, each part compiled on its own, and every part matched against the same 100,000 URLs
// ("cold": distinct URLs, as in bench/run.ts) and against 1,000 distinct URLs repeated 100 times ("warm": the
// matcher's working set stays in the caches). Interleaved rounds, medians, nanoseconds per URL.
import { parseRobots } from '../src/node/index.js';
import { largeRobots, shopUrls } from './data.js';
import { medianOf as median } from './cli-runs.js';

const encoder = new TextEncoder();
const URLS = 100_000;
const ROUNDS = 9;
const lines = largeRobots(10_000).trimEnd().split('\n');
const [groupLine, ...ruleLines] = lines;
const anywhere = (line: string): boolean => line.startsWith('Disallow: /*');
const parts: [string, string[]][] = [
  ['one literal rule (the floor: batch copy, path search, verdicts)', ['Disallow: /zzz']],
  ['the literal rules alone (literal trie)', ruleLines.filter((line) => !line.includes('*'))],
  ['the `/section/*word-N` rules alone (automaton)', ruleLines.filter((line) => line.includes('*') && !anywhere(line))],
  ['literal + `/section/*` rules', ruleLines.filter((line) => !anywhere(line))],
  ['the whole file (+ the `/*?param=value` rules)', ruleLines],
];
const cold = encoder.encode(shopUrls(URLS).join('\n') + '\n');
const distinct = shopUrls(1_000);
const warm = encoder.encode(Array.from({ length: URLS / distinct.length }, () => distinct.join('\n')).join('\n') + '\n');
const matchers = parts.map(([, rules]) => parseRobots([groupLine, ...rules].join('\n') + '\n').matcher('Googlebot'));

const times = parts.map(() => ({ cold: [] as number[], warm: [] as number[] }));
let sink = 0;
for (let round = 0; round < ROUNDS; round++) {
  matchers.forEach((matcher, k) => {
    for (const kind of ['cold', 'warm'] as const) {
      const input = kind === 'cold' ? cold : warm;
      sink += matcher.checkLines(input)[0];
      const started = performance.now();
      sink += matcher.checkLines(input)[0];
      times[k][kind].push(((performance.now() - started) * 1e6) / URLS);
    }
  });
}
console.log(`10,000-rule file by kind of rule, ${URLS.toLocaleString('en')} URLs, median of ${ROUNDS} interleaved rounds (ns per URL)`);
console.log('| rules matched | rules | cold | warm |');
console.log('|---|---|---|---|');
parts.forEach(([name, rules], k) => console.log(`| ${name} | ${rules.length} | ${median(times[k].cold).toFixed(0)} | ${median(times[k].warm).toFixed(0)} |`));
if (sink === -1) console.log(sink);
