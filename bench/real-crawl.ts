// npm run bench:heavy-tail (its second part; alone: node dist/bench/real-crawl.js): many hosts on a crawl made
// only of real files, a benchmark no generator's choices can flatter. Every real body of
// ../shared/corpus/robots/ is one host; URLs come from each host's own rules, as written and as near-misses
// (one byte short, one past), and from paths no rule names. Two weightings: evenly per host (~10 per host in
// random order, ~37 sorted by host) and by file size (the same totals, each host's share proportional to its
// bytes). Files read whole and cut at 500 KiB; one and two threads. Whole process, each command with its input
// file as standard input; Google's reference library (../shared/reference-oracle) answers the same stream with
// its own API in the same run, split into parts interleaved with our runs. Every row gives the reference's own
// rate and the body bytes it parses per URL beside the ratio. Writes its section of bench/RESULTS.md. Skips,
// with the reason printed, when the corpus or the reference is absent.
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { heavyTailCorpus } from './heavy-tail-corpus.js';
import { writeSectionResults } from './results-file.js';
import { cliPath as CLI, medianOf as median } from './cli-runs.js';
import { buildReferenceOracle } from './reference-oracle.js';
import { referenceBytesPerUrl, timed, writeReferenceParts, type TimedRun } from './crawl-runs.js';

const AGENT = 'Googlebot';
const root = fileURLToPath(new URL('../../', import.meta.url));
const quick = process.argv.includes('--quick');
const RUNS = quick ? 1 : 5;
const corpusRoot = join(root, '..', 'shared', 'corpus', 'robots');
const { oracle, referenceNote } = buildReferenceOracle(root);

/**
 * What a second core can give, from the one-thread run: its wall and CPU seconds, and \`node -e 0\`'s wall (a
 * start no thread of ours shortens). Two threads finish no sooner than the CPU the one-thread run used spread
 * over two cores, nor than Node's start plus half of the rest (a worker starting for free, the work split
 * perfectly). Then the same bound at the speed the ratio target asks of one thread: both targets at once.
 */
function twoCoreCeiling(label: string, wall: number, cpu: number, nodeStart: number, referenceSeconds: number, targetRatio: number): string {
  const ceiling = Math.min(2 * wall / cpu, wall / (nodeStart + (wall - nodeStart) / 2));
  const targetWall = referenceSeconds / targetRatio;
  const twoThreadsNeeded = targetWall / 1.6;
  const twoThreadsAtBest = nodeStart + (targetWall - nodeStart) / 2;
  return `- ${label}: one thread ${wall.toFixed(3)} s wall using ${cpu.toFixed(2)} s of CPU (${(cpu / wall).toFixed(2)} cores: V8's compiler and collector threads run beside the main one); \`node -e 0\` ${nodeStart.toFixed(3)} s. ` +
    `Two threads can be at most **${ceiling.toFixed(2)}x** faster than one here (the lower of 2 x wall / CPU and wall / (Node's start + half the rest)). ` +
    `At the ${targetRatio}x target one thread would take ${targetWall.toFixed(3)} s; 1.6x faster than that is ${twoThreadsNeeded.toFixed(3)} s, while Node's start plus half the rest is ${twoThreadsAtBest.toFixed(3)} s: ` +
    (twoThreadsAtBest > twoThreadsNeeded ? 'on this machine the ratio target and the two-thread target cannot both hold.' : 'both could hold in principle.');
}

const lines: string[] = [
  '## Many hosts on a crawl of real files only',
  '',
];
if (!existsSync(corpusRoot) || referenceNote !== '') {
  const reason = !existsSync(corpusRoot) ? `${corpusRoot} is absent` : referenceNote;
  console.warn(`skipped: the real-files crawl: ${reason}`);
  lines.push(`Skipped on ${new Date().toISOString().slice(0, 10)}: ${reason}.`);
} else {
  const corpus = heavyTailCorpus(root, quick, 0);
  const { hosts, shape } = corpus;
  const dir = mkdtempSync(join(tmpdir(), 'robotstxt-real-crawl-'));
  try {
    const robotsDir = join(dir, 'robots');
    mkdirSync(robotsDir);
    for (const host of hosts) writeFileSync(join(robotsDir, `${host.name}.txt`), host.body);
    const rows: string[] = [];
    const threadRatios: string[] = [];
    const ceilings: string[] = [];
    for (const weighting of ['even', 'size'] as const) {
      for (const [order, perHost, seed] of [['random', 10, 7], ['sorted', 37, 11]] as const) {
        const stream = corpus.urlLines(perHost, order, seed, weighting, true);
        const urlFile = join(dir, `urls-${weighting}-${order}.txt`);
        writeFileSync(urlFile, stream.map((line) => line.url).join('\n') + '\n');
        for (const maxBytes of [0, 512_000]) {
          const parts = await writeReferenceParts(join(dir, `reference-${weighting}-${order}-${maxBytes}`), stream, hosts, AGENT, maxBytes, RUNS);
          const referenceTimes: number[] = [];
          const nodeAlone: number[] = [];
          const ours = new Map<string, TimedRun[]>([['1', []], ['2', []], ['default', []]]);
          for (let r = 0; r < RUNS; r++) {
            referenceTimes.push((await timed(oracle, [], parts[r])).seconds);
            nodeAlone.push((await timed(process.execPath, ['-e', '0'], urlFile)).seconds);
            for (const threads of ours.keys()) {
              const args = [CLI, 'check', '--robots-dir', robotsDir, '--agent', AGENT, '--max-bytes', String(maxBytes), ...(threads === 'default' ? [] : ['--threads', threads]), '-'];
              (ours.get(threads) as TimedRun[]).push(await timed(process.execPath, args, urlFile));
            }
          }
          for (const part of parts) rmSync(part);
          const referenceRate = stream.length / referenceTimes.reduce((sum, seconds) => sum + seconds, 0);
          const bytesPerUrl = referenceBytesPerUrl(stream, hosts, maxBytes);
          const rateOf = (threads: string): number => stream.length / median((ours.get(threads) as TimedRun[]).map((run) => run.seconds));
          for (const threads of ours.keys()) {
            const rate = rateOf(threads);
            const peak = Math.max(...(ours.get(threads) as TimedRun[]).map((run) => run.peakMiB));
            const row = `| ${weighting === 'even' ? `~${perHost} per host` : 'by file size'}, ${order}, ${maxBytes === 0 ? 'whole files' : '500 KiB cut'}, ${threads === 'default' ? 'default threads' : `--threads ${threads}`} | ${(rate / 1e3).toFixed(0)} k URLs/s | ${(referenceRate / 1e3).toFixed(1)} k URLs/s | ${(bytesPerUrl / 1e3).toFixed(1)} KB | **${(rate / referenceRate).toFixed(1)}x** | ${peak.toFixed(0)} MiB |`;
            rows.push(row);
            console.log(row);
          }
          threadRatios.push(`${weighting}, ${order}, ${maxBytes === 0 ? 'whole' : 'cut'}: --threads 2 / 1 ${(rateOf('2') / rateOf('1')).toFixed(2)}x, default / 1 ${(rateOf('default') / rateOf('1')).toFixed(2)}x`);
          if (weighting === 'even' && maxBytes === 0) {
            const one = ours.get('1') as TimedRun[];
            ceilings.push(twoCoreCeiling(`${order}, ~${perHost} per host`, median(one.map((run) => run.seconds)), median(one.map((run) => run.cpuSeconds)), median(nodeAlone), referenceTimes.reduce((sum, seconds) => sum + seconds, 0), order === 'random' ? 5 : 20));
          }
        }
      }
    }
    lines.push(
      `Measured by \`npm run bench:heavy-tail\` (bench/real-crawl.ts) on ${new Date().toISOString().slice(0, 10)}; ${cpus().length} x ${cpus()[0]?.model.trim() ?? 'unknown CPU'}; Node ${process.version}. The crawl: ${shape}, one host each. URLs from each host's own rules (a fifth of them near-misses) and paths no rule names; \`robotstxt check --robots-dir\`, default \`--cache-mb 64\`, whole process, medians of ${RUNS} runs; the reference (Google's library built from ../shared/reference-oracle) answers the same stream through its API, its run split into ${RUNS} parts each followed by one run of each of ours. "Reference bytes per URL": the body bytes its API parses per URL (it parses the host's body again for every URL: the mean body size per URL).`,
      '',
      '| input | robotstxt-wasm | reference | reference bytes per URL | ratio | peak memory (limit 164 MiB) |',
      '|---|---|---|---|---|---|',
      ...rows,
      '',
      `Threads, same runs: ${threadRatios.join('; ')}.`,
      '',
      'What two cores can give on this crawl, from the same runs (evenly per host, whole files):',
      '',
      ...ceilings,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
console.log(writeSectionResults('real-crawl', lines));
