// npm run bench:per-host: what a host and a URL cost on a crawl of real files, whole process, beside what the
// same work costs in one file and in Google's reference library, all in the same run.
//
// The crawl: every real file of ../shared/corpus/robots/ served under 3 host names (so the run has over 10,000
// hosts and start-up is a small share of it), one robots directory, Googlebot, files read whole (--max-bytes 0),
// default --cache-mb. Streams: an empty input; one URL per host in random order; ~10 per host in random order;
// ~37 per host sorted by host (URLs from each host's own rules, a fifth of them near-misses).
//
// - Per host, whole process: (one URL per host - empty input) / hosts. Beside it: compiling the same bodies
//   in-process (a fresh process, each body once, timed from the first compile: what a process meets cold; and
//   again warm), and reading the same files (open, read, close: a fresh process), the floor of any per-file
//   reader on this machine.
// - Per URL after a host's first, whole process: (sorted - one per host) / (their URL counts' difference).
//   Beside it, the single-file path: `check --robots` over the same URL lines with one file (the shop example,
//   a ~50-rule file: one compiled automaton warm over every URL, the issue's figure), and each host's own
//   file through the single-file path in-process (parseRobots(body).matcher per host, its URLs minus its first).
// - The crawl's ratios to the reference, its own API answering the same streams (split into parts interleaved
//   with our runs), --threads 2 and the default beside --threads 1, and peak memory.
// Medians of 5 interleaved runs. Writes its section of bench/RESULTS.md. Skips, with the reason printed, when
// the corpus or the reference is absent.
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { existsSync } from 'node:fs';
import { heavyTailCorpus, type CrawlHost } from './heavy-tail-corpus.js';
import { seededRandom } from './data.js';
import { writeSectionResults } from './results-file.js';
import { cliPath as CLI, medianOf as median } from './cli-runs.js';
import { buildReferenceOracle } from './reference-oracle.js';
import { timed, writeReferenceParts, type TimedRun } from './crawl-runs.js';

const AGENT = 'Googlebot';
const NAMES_PER_FILE = 3;
const root = fileURLToPath(new URL('../../', import.meta.url));
const quick = process.argv.includes('--quick');
const RUNS = quick ? 1 : 5;
const corpusRoot = join(root, '..', 'shared', 'corpus', 'robots');

// ---- child modes: measured in a fresh process, printed as JSON ----
const mode = process.argv[2];
if (mode === '--compile' || mode === '--read' || mode === '--single-file') {
  const dir = process.argv[3];
  const { readdirSync, readFileSync, openSync, readSync, closeSync } = await import('node:fs');
  const files = readdirSync(dir).filter((name) => name.endsWith('.txt')).sort();
  if (mode === '--read') {
    const buffer = Buffer.allocUnsafe(32 << 20);
    const started = performance.now();
    for (const file of files) {
      const fd = openSync(join(dir, file), 'r');
      readSync(fd, buffer, 0, buffer.length, null);
      closeSync(fd);
    }
    console.log(JSON.stringify({ ms: performance.now() - started }));
  } else if (mode === '--compile') {
    await import('../src/node/core-node.js');
    const { core } = await import('../src/core/wasm/core.js');
    const { encodeAgents } = await import('../src/core/wasm/bodies.js');
    const bodies = files.map((file) => readFileSync(join(dir, file)));
    const agents = encodeAgents([AGENT]);
    const passes: number[] = [];
    for (let pass = 0; pass < 4; pass++) {
      const started = performance.now();
      for (const body of bodies) core().bodies.compileInWorkArea(body, agents, false);
      passes.push(performance.now() - started);
    }
    console.log(JSON.stringify({ coldMs: passes[0], warmMs: median(passes.slice(1)) }));
  } else {
    // each host's own file through the single-file path: its URLs at once, minus its first URL alone
    const { parseRobots } = await import('../src/node/index.js');
    const urls = readFileSync(process.argv[4], 'latin1').split('\n').filter((line) => line !== '');
    const byHost = new Map<string, string[]>();
    for (const url of urls) {
      const host = url.slice(8, url.indexOf('/', 8));
      let list = byHost.get(host);
      if (list === undefined) byHost.set(host, list = []);
      list.push(url);
    }
    const encoder = new TextEncoder();
    const hosts = [...byHost.keys()];
    const matchers = hosts.map((host) => parseRobots(readFileSync(join(dir, `${host}.txt`)), { maxBytes: 0 }).matcher(AGENT));
    const all = hosts.map((host) => encoder.encode((byHost.get(host) as string[]).join('\n') + '\n'));
    const first = hosts.map((host) => encoder.encode((byHost.get(host) as string[])[0] + '\n'));
    const marginal: number[] = [];
    for (let pass = 0; pass < 5; pass++) {
      let started = performance.now();
      for (let h = 0; h < hosts.length; h++) matchers[h].checkLines(all[h]);
      const allMs = performance.now() - started;
      started = performance.now();
      for (let h = 0; h < hosts.length; h++) matchers[h].checkLines(first[h]);
      const firstMs = performance.now() - started;
      marginal.push((allMs - firstMs) / (urls.length - hosts.length));
    }
    console.log(JSON.stringify({ usPerUrl: 1000 * median(marginal.slice(1)) }));
  }
  process.exit(0);
}

/** Runs this script in a child mode (a fresh process) and parses what it prints. */
function child<T>(args: string[]): T {
  const run = spawnSync(process.execPath, [fileURLToPath(import.meta.url), ...args], { encoding: 'utf8', maxBuffer: 1 << 26 });
  if (run.status !== 0) throw new Error(`bench/per-host.ts ${args[0]} failed: ${run.stderr}`);
  return JSON.parse(run.stdout.trim().split('\n').at(-1) as string) as T;
}

const lines: string[] = ['## Per host and per URL on a crawl of real files (`npm run bench:per-host`, bench/per-host.ts)', ''];
const { oracle, referenceNote } = existsSync(corpusRoot) ? buildReferenceOracle(root) : { oracle: '', referenceNote: '' };
if (!existsSync(corpusRoot) || referenceNote !== '') {
  const reason = !existsSync(corpusRoot) ? `${corpusRoot} is absent` : referenceNote;
  console.warn(`skipped: the per-host benchmark: ${reason}`);
  lines.push(`Skipped on ${new Date().toISOString().slice(0, 10)}: ${reason}.`);
} else {
  const corpus = heavyTailCorpus(root, quick, 0);
  // every real file under NAMES_PER_FILE host names
  const hosts: CrawlHost[] = [];
  for (let copy = 0; copy < NAMES_PER_FILE; copy++) for (const host of corpus.hosts) hosts.push({ ...host, name: host.name.replace('.corpus.test', `.n${copy}.corpus.test`) });
  const totalBytes = hosts.reduce((sum, host) => sum + host.body.length, 0);
  const dir = mkdtempSync(join(tmpdir(), 'robotstxt-per-host-'));
  try {
    const robotsDir = join(dir, 'robots');
    mkdirSync(robotsDir);
    for (const host of hosts) writeFileSync(join(robotsDir, `${host.name}.txt`), host.body);
    /** URLs of each host from its own rules (as bench/heavy-tail-corpus.ts makes them), perHost each; shuffled or sorted by host. */
    const stream = (perHost: number, order: 'random' | 'sorted', seed: number): { host: number; url: string }[] => {
      const random = seededRandom(seed);
      const made: { host: number; url: string }[] = [];
      hosts.forEach((host, index) => {
        for (let k = 0; k < perHost; k++) {
          let path = host.paths.length > 0 && random() < 0.8 ? host.paths[Math.floor(random() * host.paths.length)] : `/page/${k}`;
          const miss = random();
          if (miss < 0.1 && path.length > 2) path = path.slice(0, -1);
          else if (miss < 0.2) path += 'x';
          made.push({ host: index, url: `https://${host.name}${path}${random() < 0.2 ? '?sessionid=1' : ''}` });
        }
      });
      if (order === 'random') {
        for (let i = made.length - 1; i > 0; i--) {
          const j = Math.floor(random() * (i + 1));
          [made[i], made[j]] = [made[j], made[i]];
        }
      }
      return made;
    };
    const streams = { empty: [] as { host: number; url: string }[], one: stream(1, 'random', 3), random: stream(10, 'random', 7), sorted: stream(37, 'sorted', 11) };
    const files: Record<keyof typeof streams, string> = { empty: '', one: '', random: '', sorted: '' };
    for (const name of Object.keys(streams) as (keyof typeof streams)[]) {
      files[name] = join(dir, `urls-${name}.txt`);
      writeFileSync(files[name], streams[name].map((line) => line.url).join('\n') + (streams[name].length > 0 ? '\n' : ''));
    }
    const ours = (threads: string, input: string, robots: string[] = ['--robots-dir', robotsDir]): Promise<TimedRun> =>
      timed(process.execPath, [CLI, 'check', ...robots, '--agent', AGENT, '--max-bytes', '0', ...(threads === 'default' ? [] : ['--threads', threads]), '-'], input);
    const shop = ['--robots', join(root, 'examples', 'shop-robots.txt')];
    // the reference answers the crawl's streams, its run split into parts interleaved with ours
    const referenceParts = {
      one: await writeReferenceParts(join(dir, 'reference-one'), streams.one, hosts, AGENT, 0, RUNS),
      random: await writeReferenceParts(join(dir, 'reference-random'), streams.random, hosts, AGENT, 0, RUNS),
      sorted: await writeReferenceParts(join(dir, 'reference-sorted'), streams.sorted, hosts, AGENT, 0, RUNS),
    };
    const runs = new Map<string, TimedRun[]>();
    const push = (key: string, run: TimedRun): void => {
      if (!runs.has(key)) runs.set(key, []);
      (runs.get(key) as TimedRun[]).push(run);
    };
    const referenceSeconds = { one: 0, random: 0, sorted: 0 };
    for (let r = 0; r < RUNS; r++) {
      for (const name of ['one', 'random', 'sorted'] as const) referenceSeconds[name] += (await timed(oracle, [], referenceParts[name][r])).seconds;
      push('node', await timed(process.execPath, ['-e', '0'], files.empty));
      for (const name of ['empty', 'one', 'random', 'sorted'] as const) for (const threads of ['1', '2', 'default']) push(`${name} ${threads}`, await ours(threads, files[name]));
      push('shop empty', await ours('1', files.empty, shop));
      push('shop sorted', await ours('1', files.sorted, shop));
      console.log(`run ${r + 1} of ${RUNS}`);
    }
    const seconds = (key: string): number => median((runs.get(key) as TimedRun[]).map((run) => run.seconds));
    const peak = (key: string): number => Math.max(...(runs.get(key) as TimedRun[]).map((run) => run.peakMiB));
    const hostCount = hosts.length;
    const compile = child<{ coldMs: number; warmMs: number }>(['--compile', robotsDir]);
    const read = child<{ ms: number }>(['--read', robotsDir]);
    const singleFile = child<{ usPerUrl: number }>(['--single-file', robotsDir, files.sorted]);
    const perHostUs = (1e6 * (seconds('one 1') - seconds('empty 1'))) / hostCount;
    const compileColdUs = (1000 * compile.coldMs) / hostCount;
    const compileWarmUs = (1000 * compile.warmMs) / hostCount;
    const readUs = (1000 * read.ms) / hostCount;
    const perUrlUs = (1e6 * (seconds('sorted 1') - seconds('one 1'))) / (streams.sorted.length - streams.one.length);
    const shopPerUrlUs = (1e6 * (seconds('shop sorted') - seconds('shop empty'))) / streams.sorted.length;
    const met = (ok: boolean): string => (ok ? 'met' : '**not met**');
    const rows: string[] = [];
    for (const name of ['one', 'random', 'sorted'] as const) {
      const count = streams[name].length;
      const referenceRate = count / referenceSeconds[name];
      for (const threads of ['1', '2', 'default']) {
        const rate = count / seconds(`${name} ${threads}`);
        rows.push(`| ${name === 'one' ? 'one URL per host, random order' : name === 'random' ? '~10 URLs per host, random order' : '~37 URLs per host, sorted by host'} (${(count / 1e3).toFixed(0)} k URLs), ${threads === 'default' ? 'default threads' : `--threads ${threads}`} | ${seconds(`${name} ${threads}`).toFixed(3)} s | ${(rate / 1e3).toFixed(0)} k URLs/s | ${(referenceRate / 1e3).toFixed(1)} k URLs/s | **${(rate / referenceRate).toFixed(1)}x** | ${threads === '1' ? '' : `${(seconds(`${name} 1`) / seconds(`${name} ${threads}`)).toFixed(2)}x`} | ${peak(`${name} ${threads}`).toFixed(0)} MiB |`);
      }
    }
    const threadRatios = (['empty', 'one', 'random', 'sorted'] as const).map((name) => `${name}: --threads 2 / 1 ${(seconds(`${name} 1`) / seconds(`${name} 2`)).toFixed(2)}x, default / 1 ${(seconds(`${name} 1`) / seconds(`${name} default`)).toFixed(2)}x`);
    // which threads ran with --threads 2 (check's --stats, one more run of each, not timed)
    const threadsRan = (['one', 'random', 'sorted'] as const).map((name) => {
      const stats = spawnSync(process.execPath, [CLI, 'check', '--robots-dir', robotsDir, '--agent', AGENT, '--max-bytes', '0', '--threads', '2', '--stats', files[name]], { encoding: 'utf8', maxBuffer: 1 << 28 }).stderr;
      return `${name}: ${/threads \d+[^;]*/.exec(stats)?.[0] ?? '?'}`;
    });
    lines.push(
      `Measured by \`npm run bench:per-host\` on ${new Date().toISOString().slice(0, 10)}; ${cpus().length} x ${cpus()[0]?.model.trim() ?? 'unknown CPU'}; Node ${process.version}. The crawl: the ${corpus.hosts.length} real files of ../shared/corpus/robots/ (${(corpus.totalBytes / 1e6).toFixed(1)} MB), each served under ${NAMES_PER_FILE} host names: **${hostCount} hosts, ${(totalBytes / 1e6).toFixed(1)} MB** in one robots directory. \`robotstxt check --robots-dir\`, Googlebot, files read whole (\`--max-bytes 0\`), default \`--cache-mb 64\`, whole process, medians of ${RUNS} interleaved runs; \`node -e 0\` ${seconds('node').toFixed(3)} s and the empty input ${seconds('empty 1').toFixed(3)} s in the same runs.`,
      '',
      '### Per host and per URL',
      '',
      '| figure | robotstxt-wasm | beside it, same run | ratio | target |',
      '|---|---|---|---|---|',
      `| per host, whole process: (one URL per host - empty input) / hosts | ${perHostUs.toFixed(1)} µs | compiling the same bodies in-process, a fresh process, each once: ${compileColdUs.toFixed(1)} µs cold (warm: ${compileWarmUs.toFixed(1)} µs) | **${(perHostUs / compileColdUs).toFixed(2)}x** cold compile (${(perHostUs / compileWarmUs).toFixed(2)}x warm) | <= 1.5x: ${met(perHostUs <= 1.5 * compileColdUs)} |`,
      `| the floor of any reader of one file per host here | | opening, reading and closing the same files (a fresh process): ${readUs.toFixed(1)} µs; with the cold compile: ${(readUs + compileColdUs).toFixed(1)} µs | ${(perHostUs / (readUs + compileColdUs)).toFixed(2)}x read + cold compile | |`,
      `| per URL after a host's first, whole process: (sorted ~37 per host - one per host) / URLs | ${(1000 * perUrlUs).toFixed(0)} ns | \`check --robots\` with one ~50-rule file over the same URL lines: ${(1000 * shopPerUrlUs).toFixed(0)} ns | **${(perUrlUs / shopPerUrlUs).toFixed(2)}x** | <= 1.3x: ${met(perUrlUs <= 1.3 * shopPerUrlUs)} |`,
      `| the same URLs, each host's own file through the single-file path (in-process, warm: its URLs minus its first) | | ${(1000 * singleFile.usPerUrl).toFixed(0)} ns | ${(perUrlUs / singleFile.usPerUrl).toFixed(2)}x | |`,
      '',
      '### The crawl beside the reference, and threads',
      '',
      '| input | robotstxt-wasm | rate | reference | ratio | vs --threads 1 | peak memory (limit 164 MiB) |',
      '|---|---|---|---|---|---|---|',
      ...rows,
      '',
      `Threads, same runs (time of --threads 1 over the other): ${threadRatios.join('; ')}. With --robots-dir, workers start only once the work to come would take 2 s at this thread's pace and the hosts fit the threads' shares of the cache, and go again when their windows come no faster (src/node/check/budget.ts); what --threads 2 ran (--stats of one more run each): ${threadsRan.join('; ')}. The default with --robots-dir is one thread.`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
console.log(writeSectionResults('per-host', lines));
