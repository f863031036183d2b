// npm run bench:hosts: the many-host figures, each next to a comparison measured in the same run.
// Hosts: every file of ../shared/corpus/robots/* (skipped, with the reason printed, when that folder is
// absent) plus 10,000 generated hosts (bench/data.ts hostRobots); URLs from each host's own rules
// (bench/data.ts hostPaths). Library figures: medians of repeated passes (tinybench); command line: medians
// of interleaved child-process runs, whole process, standard output to /dev/null. Writes its section of
// bench/RESULTS.md (between the markers below; npm run bench keeps it).
import { Bench } from 'tinybench';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import robotsParserModule from 'robots-parser';
import { MultiHostMatcher, robotsFromMap } from '../src/node/index.js';
import '../src/node/core-node.js'; // the WebAssembly core, loaded from build/
import { core } from '../src/core/wasm/core.js';
import { encodeAgents } from '../src/core/wasm/bodies.js';
import { hostRobots, hostPaths, seededRandom, shopRobots, shopUrls } from './data.js';
import { medianOf, runCli } from './cli-runs.js';
import { writeHostsResults } from './results-file.js';

interface ReferenceRobots { isAllowed(url: string, agent?: string): boolean | undefined }
const robotsParser = robotsParserModule as unknown as (url: string, body: string) => ReferenceRobots;

const AGENT = 'Googlebot';

// --cold compile|hosts <dir>: one pass over the bodies of a robots directory in this fresh process; prints ms
if (process.argv[2] === '--cold') {
  const [kind, dir] = process.argv.slice(3);
  const files = readdirSync(dir).sort();
  const coldBodies = new Map(files.map((file) => [file.slice(0, -4), readFileSync(join(dir, file)).subarray(0, 512_000)]));
  const started = performance.now();
  if (kind === 'compile') {
    const coldAgents = encodeAgents([AGENT]);
    for (const body of coldBodies.values()) core().bodies.compileInWorkArea(body, coldAgents, false);
  } else {
    const matcher = new MultiHostMatcher({ agents: AGENT, source: robotsFromMap(coldBodies), cacheBytes: 64 << 20 });
    await matcher.checkLines(Buffer.from(files.map((file) => `https://${file.slice(0, -4)}/a/b`).join('\n') + '\n'));
  }
  console.log(performance.now() - started);
  process.exit(0);
}

const root = fileURLToPath(new URL('../../', import.meta.url));
const quick = process.argv.includes('--quick');
const GENERATED = quick ? 2000 : 10_000;

// ---- the hosts ----
interface Host { name: string; body: Buffer }
const hosts: Host[] = [];
const corpusRoot = join(root, '..', 'shared', 'corpus', 'robots');
let corpusNote = '';
if (existsSync(corpusRoot)) {
  for (const folder of readdirSync(corpusRoot).sort()) {
    for (const file of readdirSync(join(corpusRoot, folder)).sort()) {
      const stem = file.replace(/\.txt$/, '').toLowerCase().replace(/[^a-z0-9.-]/g, '-');
      hosts.push({ name: folder === 'protego' ? stem : `${stem}.${folder}.test`, body: readFileSync(join(corpusRoot, folder, file)) });
    }
  }
  corpusNote = `${hosts.length} files of ../shared/corpus/robots/* (real robots.txt bodies, ${(hosts.reduce((s, h) => s + h.body.length, 0) / 1e6).toFixed(1)} MB)`;
} else {
  corpusNote = 'no corpus files';
  console.log(`skipped the corpus hosts: ${corpusRoot} is absent (generated hosts only)`);
}
for (let i = 0; i < GENERATED; i++) hosts.push({ name: `site${i}.example`, body: Buffer.from(hostRobots(i)) });
const bodyBytes = hosts.reduce((sum, host) => sum + Math.min(host.body.length, 512_000), 0);
console.log(`${hosts.length} hosts (${corpusNote}, ${GENERATED} generated), ${(bodyBytes / 1e6).toFixed(1)} MB read`);

const work = mkdtempSync(join(tmpdir(), 'robotstxt-bench-hosts-'));
const robotsDir = join(work, 'robots');
mkdirSync(robotsDir);
for (const host of hosts) writeFileSync(join(robotsDir, `${host.name}.txt`), host.body);

function urlsPerHost(perHost: number, seed: number): string[][] {
  return hosts.map((host, i) => hostPaths(host.body.toString('latin1'), perHost, seed * 100_003 + i).map((path) => `https://${host.name}${path}`));
}
function shuffled<T>(items: T[], seed: number): T[] {
  const random = seededRandom(seed);
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}
function writeLines(name: string, lines: string[]): string {
  const path = join(work, name);
  writeFileSync(path, lines.join('\n') + '\n');
  return path;
}
const ten = urlsPerHost(10, 1);
const random10 = writeLines('random10.txt', shuffled(ten.flat(), 2));
const sorted10 = writeLines('sorted10.txt', ten.flat());
const thirtyFive = urlsPerHost(35, 3);
const sorted35 = writeLines('sorted35.txt', thirtyFive.flat());
const random35 = writeLines('random35.txt', shuffled(thirtyFive.flat(), 4));
const lines10 = ten.flat().length;
const lines35 = thirtyFive.flat().length;

// ---- per host: parse + compile + first verdict ----
const agents = encodeAgents([AGENT]);
const bodies = hosts.map((host) => host.body.subarray(0, 512_000));
const bench = new Bench({ time: quick ? 500 : 2000, warmupTime: 300 });
let sink = 0;
let pass = 0;
// every pass meets new host names (the pass number in front), so every host is compiled again: the cost a
// long run pays for each host it meets, with the memory of evicted hosts reused
const byName = new Map(hosts.map((host) => [host.name, host.body]));
const passSource = (host: { host: string }): Buffer | null => byName.get(host.host.slice(host.host.indexOf('-') + 1)) ?? null;
const steady = new MultiHostMatcher({ agents: AGENT, source: passSource, cacheBytes: 64 << 20 });
const firstUrls = (prefix: string): Uint8Array => Buffer.from(hosts.map((host) => `https://${prefix}-${host.name}/a/b`).join('\n') + '\n');
bench.add('compile (one call per body)', () => { for (const body of bodies) sink += core().bodies.compileInWorkArea(body, agents, false).length; });
bench.add('parse + compile + first verdict (MultiHostMatcher)', async () => { sink += (await steady.checkLines(firstUrls(`p${pass++}`)))[0]; });
bench.add('robots-parser: parse + first verdict', () => { for (const host of hosts) sink += robotsParser(`https://${host.name}/robots.txt`, host.body.toString('utf8')).isAllowed(`https://${host.name}/a/b`, AGENT) ? 1 : 0; });
console.log('per-host cost (tinybench)...');
await bench.run();
const median = (name: string): number => {
  const result = bench.getTask(name)?.result;
  if (result === undefined || !('latency' in result)) throw new Error(`benchmark ${name} did not complete`);
  return result.latency.p50;
};
const perHost = (ms: number): string => `${((ms * 1000) / hosts.length).toFixed(1)} µs/host, ${(bodyBytes / 1e6 / (ms / 1000)).toFixed(0)} MB/s`;

/** The first pass in a fresh process (cold: a new instance, memory never touched). */
function coldPass(kind: 'compile' | 'hosts'): number {
  const result = spawnSync(process.execPath, [fileURLToPath(import.meta.url), '--cold', kind, robotsDir], { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`cold pass failed: ${result.stderr}`);
  return Number(result.stdout.trim());
}

// ---- command line ----
/** Median seconds of each configuration, runs interleaved. */
function interleaved(configs: Record<string, { args: string[]; input: string }>, rounds: number): Record<string, { seconds: number; stderr: string }> {
  const times: Record<string, number[]> = {};
  const last: Record<string, string> = {};
  for (let round = 0; round < rounds; round++) {
    for (const [name, { args, input }] of Object.entries(configs)) {
      const { seconds, stderr } = runCli(args, input);
      (times[name] ??= []).push(seconds);
      last[name] = stderr;
    }
  }
  return Object.fromEntries(Object.entries(times).map(([name, values]) => [name, { seconds: medianOf(values), stderr: last[name] }]));
}
const dirArgs = (cacheMb: number, threads = 1, extra: string[] = []): string[] => ['check', '--robots-dir', robotsDir, '--agent', AGENT, '--cache-mb', String(cacheMb), '--threads', String(threads), '--stats', ...extra, '-'];
const ROUNDS = quick ? 3 : 5;
console.log('command line, many hosts (interleaved runs)...');
const many = interleaved({
  random10: { args: dirArgs(512), input: random10 },
  sorted10: { args: dirArgs(512), input: sorted10 },
  random10default: { args: dirArgs(64), input: random10 },
  random35: { args: dirArgs(512), input: random35 },
  random35default: { args: dirArgs(64), input: random35 },
  sorted35: { args: dirArgs(512), input: sorted35 },
  sorted35default: { args: dirArgs(64), input: sorted35 },
}, ROUNDS);
const rate = (lines: number, seconds: number): number => lines / seconds;
const fmt = (n: number): string => (n >= 1e6 ? `${(n / 1e6).toFixed(2)} M` : n >= 1e3 ? `${(n / 1e3).toFixed(0)} k` : n.toFixed(0));
const peakOf = (stderr: string): number => Number(/peak memory ([\d.]+) MiB/.exec(stderr)?.[1] ?? 'NaN');
const hostsOf = (stderr: string): string => /hosts: ([^\n]*)/.exec(stderr)?.[1] ?? '';

/** robots-parser on the same random10 stream, in-process: a parsed file per host kept in a Map (read on first sight). */
function referenceManyHosts(file: string): number {
  const urls = readFileSync(file, 'utf8').trimEnd().split('\n');
  const started = performance.now();
  const parsed = new Map<string, ReferenceRobots>();
  for (const url of urls) {
    const host = url.slice(8, url.indexOf('/', 8));
    let robots = parsed.get(host);
    if (robots === undefined) {
      let body = '';
      try { body = readFileSync(join(robotsDir, `${host}.txt`), 'utf8'); } catch { body = ''; }
      robots = robotsParser(`https://${host}/robots.txt`, body);
      parsed.set(host, robots);
    }
    sink += robots.isAllowed(url, AGENT) ? 1 : 0;
  }
  return urls.length / ((performance.now() - started) / 1000);
}
const referenceRandom10 = referenceManyHosts(random10);

// threads on a large many-host input: random35 four times over (the hosts fit a 512 MiB cache), and sorted35 four times
const random35x4 = writeLines('random35x4.txt', [readFileSync(random35, 'utf8').trimEnd(), readFileSync(random35, 'utf8').trimEnd(), readFileSync(random35, 'utf8').trimEnd(), readFileSync(random35, 'utf8').trimEnd()]);
const sorted35x4 = writeLines('sorted35x4.txt', [readFileSync(sorted35, 'utf8').trimEnd(), readFileSync(sorted35, 'utf8').trimEnd(), readFileSync(sorted35, 'utf8').trimEnd(), readFileSync(sorted35, 'utf8').trimEnd()]);
console.log('command line, threads on many hosts (interleaved runs)...');
const threads = interleaved({
  random1: { args: dirArgs(512, 1), input: random35x4 },
  random2: { args: dirArgs(512, 2), input: random35x4 },
  sorted1: { args: dirArgs(512, 1), input: sorted35x4 },
  sorted2: { args: dirArgs(512, 2), input: sorted35x4 },
}, quick ? 2 : 3);

// ---- one robots.txt: --log and --format jsonl against plain check; the default thread count against one ----
const shopFile = join(work, 'shop-robots.txt');
writeFileSync(shopFile, shopRobots());
const shop = shopUrls(quick ? 200_000 : 1_000_000, 11);
const shopLines = writeLines('shop-urls.txt', shop);
const shopLog = writeLines('shop-access.log', shop.map((url, i) => `66.249.66.${i % 250} - - [17/May/2015:10:05:0${i % 10} +0000] "GET ${url.slice('https://shop.example'.length)} HTTP/1.1" 200 ${1000 + (i % 5000)} "-" "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"`));
const shopLogMb = readFileSync(shopLog).length / 1e6;
const one = (threadArgs: string[], extra: string[]): string[] => ['check', '--robots', shopFile, '--agent', AGENT, ...threadArgs, '--stats', ...extra, '-'];
console.log('command line, one robots.txt: formats, logs and thread counts (interleaved runs)...');
const single = interleaved({
  plain1: { args: one(['--threads', '1'], []), input: shopLines },
  plainDefault: { args: one([], []), input: shopLines },
  jsonl1: { args: one(['--threads', '1'], ['--format', 'jsonl']), input: shopLines },
  jsonlDefault: { args: one([], ['--format', 'jsonl']), input: shopLines },
  log1: { args: one(['--threads', '1'], ['--log']), input: shopLog },
  logDefault: { args: one([], ['--log']), input: shopLog },
}, ROUNDS + 2);

// ---- memory: 100,000 generated hosts, random order, the default --cache-mb ----
const memoryHosts = quick ? 20_000 : 100_000;
const memoryDir = join(work, 'robots-100k');
mkdirSync(memoryDir);
const memoryUrls: string[] = [];
for (let i = 0; i < memoryHosts; i++) {
  const body = hostRobots(i);
  writeFileSync(join(memoryDir, `m${i}.example.txt`), body);
  for (const path of hostPaths(body, 3, 7 + i)) memoryUrls.push(`https://m${i}.example${path}`);
}
const memoryInput = writeLines('memory-urls.txt', shuffled(memoryUrls, 8));
console.log(`command line, ${memoryHosts} hosts, peak memory...`);
const memoryRun = runCli(['check', '--robots-dir', memoryDir, '--agent', AGENT, '--stats', '-'], memoryInput);

// ---- cold per-host passes ----
const coldCompile = coldPass('compile');
const coldHosts = coldPass('hosts');
rmSync(work, { recursive: true, force: true });

// ---- the section ----
const mark = (ok: boolean): string => (ok ? 'met' : '**not met**');
const r10 = rate(lines10, many.random10.seconds);
const s10 = rate(lines10, many.sorted10.seconds);
const r35 = rate(lines35, many.random35.seconds);
const s35 = rate(lines35, many.sorted35.seconds);
const plain1 = rate(shop.length, single.plain1.seconds);
const compileMs = median('compile (one call per body)');
const hostsMs = median('parse + compile + first verdict (MultiHostMatcher)');
const referenceMs = median('robots-parser: parse + first verdict');
const mbps = (ms: number): number => bodyBytes / 1e6 / (ms / 1000);
const out: string[] = [
  '## Many hosts (`npm run bench:hosts`, bench/hosts.ts)',
  '',
  `Generated on ${new Date().toISOString().slice(0, 10)}; ${cpus().length} x ${cpus()[0]?.model ?? 'unknown CPU'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB; Node ${process.version}.`,
  `Hosts: ${hosts.length.toLocaleString('en')} = ${corpusNote} + ${GENERATED.toLocaleString('en')} generated (bench/data.ts hostRobots: CMS defaults,`,
  'small sites, ~50-rule shops, some block-all and empty files). URLs from each host\'s own rules (hostPaths).',
  `Bodies read: ${(bodyBytes / 1e6).toFixed(1)} MB (500 KiB limit).`,
  '',
  '### Per host: parse + compile + first verdict',
  '',
  '| what | warm (median of passes) | cold (first pass, fresh process) | robots-parser, same bodies, same run | target |',
  '|---|---|---|---|---|',
  `| compile in one call (tokenize, select the agent's groups, compile) | ${perHost(compileMs)} | ${perHost(coldCompile)} | ${perHost(referenceMs)} (parse + one verdict) | >= 250 MB/s: ${mark(mbps(compileMs) >= 250 && mbps(coldCompile) >= 250)} |`,
  `| MultiHostMatcher, one URL per new host (compile, slot, first verdict; 64 MiB budget, evicting) | ${perHost(hostsMs)} | ${perHost(coldHosts)} | | >= 250 MB/s: ${mark(mbps(hostsMs) >= 250 && mbps(coldHosts) >= 250)} |`,
  '',
  '### `check --robots-dir`, whole process',
  '',
  `Median of ${ROUNDS} interleaved runs. \`--cache-mb 512\` holds every host (the random-order targets assume the hosts fit);`,
  `with the default 64 MiB: ${hostsOf(many.random10default.stderr) || '...'}.`,
  '',
  '| input | URLs/s | comparison in the same run | target |',
  '|---|---|---|---|',
  `| ${lines10.toLocaleString('en')} URLs, 10 per host, random order, --cache-mb 512 | ${fmt(r10)} | robots-parser in-process, a parsed file per host in a Map: ${fmt(referenceRandom10)} URLs/s (${(r10 / referenceRandom10).toFixed(1)}x) | >= 500 k/s: ${mark(r10 >= 500e3)} |`,
  `| the same, sorted by host | ${fmt(s10)} | random / sorted time: ${(s10 / r10).toFixed(2)}x | |`,
  `| the same, random order, default --cache-mb 64 | ${fmt(rate(lines10, many.random10default.seconds))} | (at 64 MiB: ${hostsOf(many.random10default.stderr)}) | |`,
  `| ${lines35.toLocaleString('en')} URLs, 35 per host, sorted by host, --cache-mb 512 | ${fmt(s35)} | default --cache-mb 64: ${fmt(rate(lines35, many.sorted35default.seconds))} | >= 2 M/s: ${mark(s35 >= 2e6)} |`,
  `| the same URLs, random order, --cache-mb 512 | ${fmt(r35)} | random / sorted time: **${(s35 / r35).toFixed(2)}x** | within 1.5x: ${mark(s35 / r35 <= 1.5)} |`,
  `| the same URLs, random order, default --cache-mb 64 | ${fmt(rate(lines35, many.random35default.seconds))} | (at 64 MiB: ${hostsOf(many.random35default.stderr)}) | |`,
  '',
  `Threads on a larger input (the 35-per-host URLs four times over, ${(lines35 * 4).toLocaleString('en')} lines, --cache-mb 512, median of ${quick ? 2 : 3}):`,
  '',
  '| input | --threads 1 | --threads 2 | ratio | target |',
  '|---|---|---|---|---|',
  `| random order | ${fmt(rate(lines35 * 4, threads.random1.seconds))} | ${fmt(rate(lines35 * 4, threads.random2.seconds))} | ${(threads.random1.seconds / threads.random2.seconds).toFixed(2)}x | >= 1.6x: ${mark(threads.random1.seconds / threads.random2.seconds >= 1.6)} |`,
  `| sorted by host | ${fmt(rate(lines35 * 4, threads.sorted1.seconds))} | ${fmt(rate(lines35 * 4, threads.sorted2.seconds))} | ${(threads.sorted1.seconds / threads.sorted2.seconds).toFixed(2)}x | |`,
  '',
  `### One robots.txt: formats, logs, the default thread count (${shop.length.toLocaleString('en')} URLs, ~50-rule file, whole process)`,
  '',
  '| run | --threads 1 | default threads | vs plain check, 1 thread | target |',
  '|---|---|---|---|---|',
  `| plain check | ${fmt(plain1)} | ${fmt(rate(shop.length, single.plainDefault.seconds))} (${(single.plain1.seconds / single.plainDefault.seconds).toFixed(2)}x) | 1 | default no slower than 1 thread: ${mark(single.plainDefault.seconds <= single.plain1.seconds * 1.05)} |`,
  `| --format jsonl | ${fmt(rate(shop.length, single.jsonl1.seconds))} | ${fmt(rate(shop.length, single.jsonlDefault.seconds))} | ${(rate(shop.length, single.jsonl1.seconds) / plain1).toFixed(2)} | >= 0.5: ${mark(rate(shop.length, single.jsonl1.seconds) / plain1 >= 0.5)} |`,
  `| --log (combined lines, ${shopLogMb.toFixed(0)} MB) | ${fmt(rate(shop.length, single.log1.seconds))} | ${fmt(rate(shop.length, single.logDefault.seconds))} | ${(rate(shop.length, single.log1.seconds) / plain1).toFixed(2)} | >= 0.5: ${mark(rate(shop.length, single.log1.seconds) / plain1 >= 0.5)} |`,
  '',
  '### Memory',
  '',
  `${memoryHosts.toLocaleString('en')} generated hosts, ${memoryUrls.length.toLocaleString('en')} URLs in random order, default --cache-mb 64, one thread: peak memory (VmHWM) **${peakOf(memoryRun.stderr).toFixed(1)} MiB**`,
  `(target <= 64 + 100 MiB: ${mark(peakOf(memoryRun.stderr) <= 164)}); ${hostsOf(memoryRun.stderr)}.`,
  `Peak memory of the runs above at --cache-mb 64 (target <= 164 MiB): random 10/host ${peakOf(many.random10default.stderr).toFixed(0)} MiB, random 35/host ${peakOf(many.random35default.stderr).toFixed(0)} MiB,`,
  `sorted 35/host ${peakOf(many.sorted35default.stderr).toFixed(0)} MiB; at --cache-mb 512 (every host cached): random 35/host ${peakOf(many.random35.stderr).toFixed(0)} MiB.`,
];
if (quick) console.log(out.join('\n'));
else {
  out.push('', 'What stands in the way of the targets marked **not met**, and what was tried: [docs/performance.md](../docs/performance.md).');
  console.log(writeHostsResults(out));
}
if (sink === -1) console.log(sink);
