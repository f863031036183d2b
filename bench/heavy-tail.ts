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
//   - one robots.txt and 1,000,000 URLs through the command line with one thread and the default threads,
//     against the reference's API on the same file and URLs (oracle --bench).
// Every figure is also given as a ratio to the reference's, measured in the same run. Writes its section of
// bench/RESULTS.md.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MultiHostMatcher, parseRobots, robotsFromMap } from '../src/node/index.js';
import { heavyTailCorpus, type CrawlHost } from './heavy-tail-corpus.js';
import { shopRobots, shopUrls } from './data.js';
import { writeSectionResults } from './results-file.js';
import { cliPath as CLI, medianOf as median } from './cli-runs.js';
import { buildReferenceOracle } from './reference-oracle.js';
import { timed, writeReferenceParts, writeReferenceStream, type TimedRun } from './crawl-runs.js';

const AGENT = 'Googlebot';
const root = fileURLToPath(new URL('../../', import.meta.url));
const quick = process.argv.includes('--quick');
const { hosts, totalBytes, shape, corpusNote, GENERATED, urlLines } = heavyTailCorpus(root, quick);
console.log(`${shape} (${GENERATED} generated, ${corpusNote})`);

const dir = mkdtempSync(join(tmpdir(), 'robotstxt-heavy-tail-'));
const robotsDir = join(dir, 'robots');
mkdirSync(robotsDir);
for (const host of hosts) writeFileSync(join(robotsDir, `${host.name}.txt`), host.body);

// ---- the reference, as a command ----
const { oracle, referenceNote } = buildReferenceOracle(root);

const rows: string[] = [];
/** Runs of each of ours per many-host row (and parts of the reference's run): see the loop below. */
const MANY_HOST_RUNS = quick ? 1 : 5;
const ratio = (ours: number, reference: number | null): string => (reference === null ? 'skipped' : `${(ours / reference).toFixed(1)}x`);
const runs = quick ? 1 : 3;

for (const [order, perHost] of [['random', 10], ['sorted', 35]] as const) {
  const lines = urlLines(perHost, order, order === 'random' ? 7 : 11);
  const urlFile = join(dir, `urls-${order}.txt`);
  writeFileSync(urlFile, lines.map((line) => line.url).join('\n') + '\n');
  for (const maxBytes of [0, 512_000]) {
    // interleaved finely: the reference's run over the stream is split into MANY_HOST_RUNS consecutive parts
    // (each starting at a host switch), and each part is followed by one run of each of ours, so that the
    // machine's slow and fast minutes fall on both sides of a ratio alike (one whole run of the reference
    // takes 20 s, ours about 1 s). The reference's time is the sum of its parts; ours, the median of its runs.
    const parts = referenceNote === '' ? await writeReferenceParts(join(dir, `reference-${order}-${maxBytes}`), lines, hosts, AGENT, maxBytes, MANY_HOST_RUNS) : [];
    // with whole files also --threads 2 (not the default with --robots-dir), for its memory
    const formats = maxBytes === 0 ? (['text', 'jsonl', 'text, --threads 2', 'jsonl, --threads 2'] as const) : (['text'] as const);
    const referenceTimes: number[] = [];
    const ours = new Map<string, TimedRun[]>(formats.map((format) => [format, []]));
    for (let r = 0; r < MANY_HOST_RUNS; r++) {
      if (referenceNote === '') referenceTimes.push((await timed(oracle, [], parts[r])).seconds);
      for (const format of formats) {
        const args = [CLI, 'check', '--robots-dir', robotsDir, '--agent', AGENT, '--max-bytes', String(maxBytes), '--format', format.split(',')[0], ...(format.endsWith('--threads 2') ? ['--threads', '2'] : []), '-'];
        (ours.get(format) as TimedRun[]).push(await timed(process.execPath, args, urlFile));
      }
    }
    for (const part of parts) rmSync(part);
    const referenceRate = referenceTimes.length > 0 ? lines.length / referenceTimes.reduce((sum, seconds) => sum + seconds, 0) : null;
    for (const format of formats) {
      const results = ours.get(format) as TimedRun[];
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
const firstUrl = (host: CrawlHost): string => `https://${host.name}${host.paths[0] ?? '/'}`;
// medians of `runs` passes, each with fresh matchers (a MultiHostMatcher per pass: every host new to it)
const parsePasses: number[] = [];
const multiHostPasses: number[] = [];
const firstUrls = Buffer.from(hosts.map(firstUrl).join('\n') + '\n');
const bodyMap = new Map(hosts.map((host) => [host.name, host.body]));
for (let pass = 0; pass < runs; pass++) {
  let started = performance.now();
  for (const [i, host] of hosts.entries()) parseRobots(bodies[i], { maxBytes: 0 }).matcher(AGENT).isAllowed(firstUrl(host));
  parsePasses.push((performance.now() - started) / 1000);
  const matcher = new MultiHostMatcher({ agents: AGENT, source: robotsFromMap(bodyMap), maxBytes: 0, cacheBytes: 64 << 20 });
  started = performance.now();
  await matcher.checkLines(firstUrls);
  multiHostPasses.push((performance.now() - started) / 1000);
}
const parseMatcherSeconds = median(parsePasses);
const multiHostSeconds = median(multiHostPasses);
let referenceCompileRate: number | null = null;
if (referenceNote === '') {
  const stream = join(dir, 'reference-compile.txt');
  await writeReferenceStream(stream, hosts.map((host, index) => ({ host: index, url: firstUrl(host) })), hosts, AGENT, 0);
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

// ---- one robots.txt, 1,000,000 URLs: the command line, whole process, against the reference's API ----
const SINGLE_URLS = quick ? 100_000 : 1_000_000;
const shopFile = join(dir, 'shop.txt');
const shopUrlsFile = join(dir, 'shop-urls.txt');
const shopSampleFile = join(dir, 'shop-sample.txt');
writeFileSync(shopFile, shopRobots());
const shopList = shopUrls(SINGLE_URLS);
writeFileSync(shopUrlsFile, shopList.join('\n') + '\n');
writeFileSync(shopSampleFile, shopList.slice(0, 100_000).join('\n') + '\n');
// interleaved: a run of the reference's API on 100,000 of the URLs (its rate does not depend on their number;
// the faster of one matcher reused and a fresh matcher per URL), then one of each thread setting
const singleReferenceRates: number[] = [];
// (runs of a third of a second each: seven of each, so that one slow minute does not decide a median)
const SINGLE_RUNS = quick ? 1 : 7;
const singleResults = { '1': [] as TimedRun[], default: [] as TimedRun[] };
for (let r = 0; r < SINGLE_RUNS; r++) {
  if (referenceNote === '') {
    const bench = spawnSync(oracle, ['--bench', shopFile, AGENT, shopSampleFile, '1'], { encoding: 'utf8' });
    const rates = [...bench.stdout.matchAll(/^(reuse|fresh)\s+rep 0: wall [\d.]+ s\s+(\d+) checks\/s/gm)].map((match) => Number(match[2]));
    if (rates.length > 0) singleReferenceRates.push(Math.max(...rates));
  }
  for (const threads of ['1', 'default'] as const) {
    singleResults[threads].push(await timed(process.execPath, [CLI, 'check', '--robots', shopFile, '--agent', AGENT, ...(threads === 'default' ? [] : ['--threads', threads]), '-'], shopUrlsFile));
  }
}
const singleReference = singleReferenceRates.length > 0 ? median(singleReferenceRates) : null;
const singleRates: Record<string, number> = {};
for (const threads of ['1', 'default'] as const) {
  const results = singleResults[threads];
  const rate = SINGLE_URLS / median(results.map((result) => result.seconds));
  singleRates[threads] = rate;
  const row = `| ${(SINGLE_URLS / 1e6).toFixed(1)} M URLs, one robots.txt (~50 rules), ${threads === 'default' ? 'default --threads' : '--threads 1'}, text | ${(rate / 1e6).toFixed(2)} M URLs/s | ${singleReference === null ? 'skipped' : `${(singleReference / 1e3).toFixed(1)} k URLs/s (its API, the faster of a reused and a fresh matcher)`} | ${ratio(rate, singleReference)} | ${median(results.map((result) => result.peakMiB)).toFixed(0)} MiB |`;
  rows.push(row);
  console.log(row);
}
// the two thread settings run in turn: their ratio is taken run by run (a pair shares the machine's minute)
const pairRatios = singleResults['1'].map((one, i) => one.seconds / singleResults.default[i].seconds);
const threadsLine = `The default --threads against --threads 1 on the 1 M URLs: ${(singleRates.default / singleRates['1']).toFixed(2)}x the rate (ratio of the medians), ${median(pairRatios).toFixed(2)}x (median of the ${pairRatios.length} ratios of runs made one after the other).`;
console.log(threadsLine);
rmSync(dir, { recursive: true, force: true });

const section = [
  '## Many hosts on a heavy-tailed crawl',
  '',
  `Measured by \`npm run bench:heavy-tail\` on ${new Date().toISOString().slice(0, 10)}, whole process. Many-host rows: the reference's run over each stream split into ${MANY_HOST_RUNS} consecutive parts, each part followed by one run of each of ours (the reference's time is the sum of its parts; ours, the median of ${MANY_HOST_RUNS} runs); the per-host rows: medians of ${runs} runs; the one-robots.txt rows: medians of ${SINGLE_RUNS} runs, each pair of ours right after one run of the reference's API (interleaved). Every command with its input file as standard input (\`< file\`), default \`--cache-mb 64\`, one thread unless said: ${shape} (${GENERATED} generated with bench/heavy-tail.ts, ${corpusNote}). The reference is Google's library built from ../shared/reference-oracle, answering the same URL stream through its own API (the body given again at every host switch, as its API takes it) in the same run.${referenceNote === '' ? '' : ` ${referenceNote}.`}`,
  '',
  '| input | robotstxt-wasm | reference | ratio | peak memory |',
  '|---|---|---|---|---|',
  ...rows,
  '',
  threadsLine,
];
console.log(writeSectionResults('heavy-tail', section));
