// npm run bench:heavy-tail: many hosts on a crawl shaped like a real one. Real crawls are heavy-tailed: most
// robots.txt files are a few hundred bytes, a few are megabytes of literal paths, and those few hold most of
// the bytes. This benchmark makes a seeded corpus with that shape (median ~255 B, p90 ~3.7 KB, 1% between
// 100 KB and 758 KB, 0.1% up to 3.7 MB: literal paths, hashes and query patterns), adds the real files of
// ../shared/corpus/robots/ (skipped, with the reason printed, when absent), and measures, whole process, in
// the same run:
//   - robotstxt check --robots-dir, ~10 URLs per host in random host order and ~35 per host sorted by host,
//     files read whole (--max-bytes 0) and cut at 500 KiB, text and jsonl: URLs/s and peak memory;
//   - Google's reference library (../shared/reference-oracle, built here; skipped with the reason printed
//     when it cannot be built) answering the same URL stream with its own API (one body per host switch);
//   - per-host parse + compile + first verdict over every body, through parseRobots().matcher() and through
//     MultiHostMatcher, against the reference's parse + match of one URL per body (MB/s).
// Every figure is also given as a ratio to the reference's, measured in the same run. Writes its section of
// bench/RESULTS.md.
import { spawn, spawnSync } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MultiHostMatcher, parseRobots, robotsFromMap } from '../src/index.js';
import { seededRandom } from './data.js';
import { writeSectionResults } from './results-file.js';

const AGENT = 'Googlebot';
const root = fileURLToPath(new URL('../../', import.meta.url));
const CLI = join(root, 'dist', 'src', 'cli', 'main.js');
const quick = process.argv.includes('--quick');
const GENERATED = quick ? 2000 : 9000;
const random = seededRandom(18);
const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)];
const WORDS = ['shop', 'cart', 'account', 'search', 'product', 'category', 'media', 'images', 'api', 'wp-admin', 'tag', 'page', 'blog', 'news', 'help', 'user', 'login', 'static'];

/** A body size from the crawl's distribution. */
function bodySize(): number {
  const u = random();
  if (u < 0.001) return Math.round(758_000 * Math.exp(random() * Math.log(3_700_000 / 758_000)));
  if (u < 0.011) return Math.round(100_000 * Math.exp(random() * Math.log(758_000 / 100_000)));
  // the body: log-normal, median 255 B, p90 3.7 KB (capped below the tail)
  const normal = Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
  return Math.min(99_000, Math.max(20, Math.round(Math.exp(Math.log(255) + 2.09 * normal))));
}

/** A robots.txt of about `size` bytes: a small file has a few groups; a large one is mostly literal paths. */
function body(size: number): { text: string; paths: string[] } {
  const lines = ['User-agent: *', 'Disallow: /cgi-bin/', `Disallow: /*?${pick(['sessionid', 'sort', 'ref', 'utm_source'])}=`];
  if (random() < 0.3) lines.push('', 'User-agent: Googlebot', `Disallow: /${pick(WORDS)}/private/`, `Allow: /${pick(WORDS)}/`);
  if (random() < 0.2) lines.push('', 'User-agent: GPTBot', 'Disallow: /');
  lines.push('', 'User-agent: *');
  const paths: string[] = [];
  let length = lines.join('\n').length;
  while (length < size) {
    const kind = random();
    const path = kind < 0.6 ? `/${pick(WORDS)}/${Math.floor(random() * 1e9).toString(36)}-${pick(WORDS)}.html`
      : kind < 0.85 ? `/${pick(WORDS)}/${Math.floor(random() * 2 ** 48).toString(16)}${Math.floor(random() * 2 ** 48).toString(16)}`
      : `/${pick(WORDS)}/*?${pick(WORDS)}=${Math.floor(random() * 1e6)}`;
    const line = `${random() < 0.8 ? 'Disallow' : 'Allow'}: ${path}`;
    lines.push(line);
    paths.push(path.replace(/\*/g, 'x'));
    length += line.length + 1;
  }
  return { text: lines.join('\n') + '\n', paths };
}

// ---- the hosts ----
interface Host { name: string; body: Buffer; paths: string[] }
const hosts: Host[] = [];
for (let i = 0; i < GENERATED; i++) {
  const made = body(bodySize());
  hosts.push({ name: `h${i}.crawl.test`, body: Buffer.from(made.text), paths: made.paths });
}
const corpusRoot = join(root, '..', 'shared', 'corpus', 'robots');
let corpusNote: string;
if (existsSync(corpusRoot)) {
  let count = 0;
  for (const folder of readdirSync(corpusRoot).sort()) {
    for (const file of readdirSync(join(corpusRoot, folder)).sort()) {
      const bytes = readFileSync(join(corpusRoot, folder, file));
      const paths = [...bytes.toString('latin1').matchAll(/^\s*(?:dis)?allow\s*:\s*(\/\S*)/gim)].map((m) => m[1].replace(/\*/g, 'x').replace(/\$$/, ''));
      hosts.push({ name: `c${count++}.corpus.test`, body: bytes, paths });
    }
  }
  corpusNote = `plus the ${count} real files of ../shared/corpus/robots/*`;
} else {
  corpusNote = `no real files: ${corpusRoot} is absent (skipped)`;
  console.warn(corpusNote);
}
const sizes = hosts.map((h) => h.body.length).sort((a, b) => a - b);
const totalBytes = sizes.reduce((sum, n) => sum + n, 0);
const quantile = (q: number): number => sizes[Math.min(sizes.length - 1, Math.floor(q * sizes.length))];
const bigBytes = sizes.filter((n) => n > 100_000).reduce((sum, n) => sum + n, 0);
const shape = `${hosts.length} hosts, ${(totalBytes / 1e6).toFixed(1)} MB: median ${quantile(0.5)} B, p90 ${(quantile(0.9) / 1e3).toFixed(1)} KB, p99 ${(quantile(0.99) / 1e3).toFixed(0)} KB, p99.9 ${(quantile(0.999) / 1e3).toFixed(0)} KB, largest ${(sizes[sizes.length - 1] / 1e6).toFixed(2)} MB; files over 100 KB hold ${((100 * bigBytes) / totalBytes).toFixed(0)}% of the bytes`;
console.log(`${shape} (${GENERATED} generated, ${corpusNote})`);

const dir = mkdtempSync(join(tmpdir(), 'robotstxt-heavy-tail-'));
const robotsDir = join(dir, 'robots');
mkdirSync(robotsDir);
for (const host of hosts) writeFileSync(join(robotsDir, `${host.name}.txt`), host.body);

/** URLs of each host from its own rules (and a few that match none), `perHost` each; sorted by host or shuffled. */
function urlLines(perHost: number, order: 'random' | 'sorted', seed: number): { host: number; url: string }[] {
  const rand = seededRandom(seed);
  const lines: { host: number; url: string }[] = [];
  hosts.forEach((host, index) => {
    for (let k = 0; k < perHost; k++) {
      const path = host.paths.length > 0 && rand() < 0.8 ? host.paths[Math.floor(rand() * host.paths.length)] : `/${WORDS[k % WORDS.length]}/page-${k}`;
      lines.push({ host: index, url: `https://${host.name}${path}${rand() < 0.2 ? '?sessionid=1' : ''}` });
    }
  });
  if (order === 'random') {
    for (let i = lines.length - 1; i > 0; i--) {
      const j = Math.floor(rand() * (i + 1));
      [lines[i], lines[j]] = [lines[j], lines[i]];
    }
  }
  return lines;
}

// ---- the reference, as a command ----
const oracle = join(tmpdir(), 'robotstxt-reference-oracle');
const oracleBuild = join(root, '..', 'shared', 'reference-oracle', 'build.sh');
let referenceNote = '';
if (!existsSync(oracleBuild)) referenceNote = `the reference column is skipped: ${oracleBuild} is absent`;
else {
  const built = spawnSync('bash', [oracleBuild, oracle], { encoding: 'utf8' });
  if (built.status !== 0) referenceNote = `the reference column is skipped: its build failed (${(built.stderr || built.stdout).trim().split('\n').at(-1)})`;
}
if (referenceNote !== '') console.warn(referenceNote);

/** The reference stream of a URL list: the host's body (`R`) on every host switch, then a query (`q`) per URL. */
async function writeReferenceStream(path: string, lines: { host: number; url: string }[], maxBytes: number): Promise<void> {
  const out = createWriteStream(path);
  const write = (data: string | Buffer): Promise<void> => (out.write(data) ? Promise.resolve() : new Promise((resolve) => out.once('drain', () => resolve())));
  let current = -1;
  for (const { host, url } of lines) {
    if (host !== current) {
      const bytes = maxBytes > 0 ? hosts[host].body.subarray(0, maxBytes) : hosts[host].body;
      await write(`R ${bytes.length}\n`);
      await write(bytes);
      await write('\n');
      current = host;
    }
    await write(`q ${AGENT.length} ${Buffer.byteLength(url)}\n${AGENT}${url}\n`);
  }
  await new Promise<void>((resolve) => out.end(resolve));
}

/** Runs a command with a file on standard input, output to /dev/null; wall seconds and peak RSS (MiB, from GNU time). */
function timed(command: string, args: string[], input: string): Promise<{ seconds: number; peakMiB: number; status: number | null }> {
  return new Promise((resolve) => {
    const started = performance.now();
    const child = spawn('/usr/bin/time', ['-f', 'peak-kib %M', command, ...args], { stdio: ['pipe', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => { stderr += chunk.toString(); });
    const feed = spawn('cat', [input], { stdio: ['ignore', 'pipe', 'ignore'] });
    feed.stdout.pipe(child.stdin);
    child.on('close', (status) => {
      const peak = /peak-kib (\d+)/.exec(stderr);
      if (status !== 0) console.warn(stderr.trim().split('\n').slice(-3).join('\n'));
      resolve({ seconds: (performance.now() - started) / 1000, peakMiB: peak === null ? 0 : Number(peak[1]) / 1024, status });
    });
  });
}

const rows: string[] = [];
const ratio = (ours: number, reference: number | null): string => (reference === null ? 'skipped' : `${(ours / reference).toFixed(1)}x`);
const runs = quick ? 1 : 3;
const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

for (const [order, perHost] of [['random', 10], ['sorted', 35]] as const) {
  const lines = urlLines(perHost, order, order === 'random' ? 7 : 11);
  const urlFile = join(dir, `urls-${order}.txt`);
  writeFileSync(urlFile, lines.map((line) => line.url).join('\n') + '\n');
  for (const maxBytes of [0, 512_000]) {
    let referenceRate: number | null = null;
    if (referenceNote === '') {
      const stream = join(dir, `reference-${order}-${maxBytes}.txt`);
      await writeReferenceStream(stream, lines, maxBytes);
      const times: number[] = [];
      for (let r = 0; r < runs; r++) times.push((await timed(oracle, [], stream)).seconds);
      referenceRate = lines.length / median(times);
      rmSync(stream);
    }
    for (const format of ['text', 'jsonl'] as const) {
      if (format === 'jsonl' && maxBytes !== 0) continue;
      const args = [CLI, 'check', '--robots-dir', robotsDir, '--agent', AGENT, '--max-bytes', String(maxBytes), '--format', format, '-'];
      const results = [];
      for (let r = 0; r < runs; r++) results.push(await timed(process.execPath, args, urlFile));
      const seconds = median(results.map((r) => r.seconds));
      const peak = Math.max(...results.map((r) => r.peakMiB));
      const rate = lines.length / seconds;
      const row = `| ${(lines.length / 1e3).toFixed(0)}k URLs, ~${perHost} per host, ${order} order, ${maxBytes === 0 ? 'whole files' : '500 KiB cut'}, ${format} | ${(rate / 1e3).toFixed(0)} k URLs/s | ${referenceRate === null ? 'skipped' : `${(referenceRate / 1e3).toFixed(1)} k URLs/s`} | ${ratio(rate, referenceRate)} | ${peak.toFixed(0)} MiB (budget + 100 = 164) |`;
      rows.push(row);
      console.log(row);
    }
  }
}

// ---- per-host parse + compile + first verdict, in this process ----
const bodies = hosts.map((host) => host.body);
const firstUrl = (host: Host): string => `https://${host.name}${host.paths[0] ?? '/'}`;
let started = performance.now();
for (const [i, host] of hosts.entries()) parseRobots(bodies[i], { maxBytes: 0 }).matcher(AGENT).isAllowed(firstUrl(host));
const parseMatcherSeconds = (performance.now() - started) / 1000;
const matcher = new MultiHostMatcher({ agents: AGENT, source: robotsFromMap(new Map(hosts.map((host) => [host.name, host.body]))), maxBytes: 0, cacheBytes: 64 << 20 });
started = performance.now();
await matcher.checkLines(Buffer.from(hosts.map(firstUrl).join('\n') + '\n'));
const multiHostSeconds = (performance.now() - started) / 1000;
let referenceCompileRate: number | null = null;
if (referenceNote === '') {
  const stream = join(dir, 'reference-compile.txt');
  await writeReferenceStream(stream, hosts.map((host, index) => ({ host: index, url: firstUrl(host) })), 0);
  const times: number[] = [];
  for (let r = 0; r < runs; r++) times.push((await timed(oracle, [], stream)).seconds);
  referenceCompileRate = totalBytes / 1e6 / median(times);
}
for (const [what, seconds] of [['parseRobots(body).matcher(agent) + first verdict', parseMatcherSeconds], ['MultiHostMatcher (bodies in a Map), first verdict per host', multiHostSeconds]] as const) {
  const rate = totalBytes / 1e6 / seconds;
  const row = `| per host: ${what}, whole files | ${rate.toFixed(0)} MB/s | ${referenceCompileRate === null ? 'skipped' : `${referenceCompileRate.toFixed(0)} MB/s (parse + match, whole process)`} | ${ratio(rate, referenceCompileRate)} | |`;
  rows.push(row);
  console.log(row);
}
rmSync(dir, { recursive: true, force: true });

const section = [
  '## Many hosts on a heavy-tailed crawl',
  '',
  `Measured by \`npm run bench:heavy-tail\` on ${new Date().toISOString().slice(0, 10)}, whole process, medians of ${runs} runs, default \`--cache-mb 64\`, one thread: ${shape} (${GENERATED} generated with bench/heavy-tail.ts, ${corpusNote}). The reference is Google's library built from ../shared/reference-oracle, answering the same URL stream through its own API (the body given again at every host switch, as its API takes it) in the same run.${referenceNote === '' ? '' : ` ${referenceNote}.`}`,
  '',
  '| input | robotstxt-wasm | reference | ratio | peak memory |',
  '|---|---|---|---|---|',
  ...rows,
];
console.log(writeSectionResults('heavy-tail', section));
