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
import { referenceBytesPerUrl, timed, writeReferenceParts } from './crawl-runs.js';

const AGENT = 'Googlebot';
const root = fileURLToPath(new URL('../../', import.meta.url));
const quick = process.argv.includes('--quick');
const RUNS = quick ? 1 : 5;
const corpusRoot = join(root, '..', 'shared', 'corpus', 'robots');
const { oracle, referenceNote } = buildReferenceOracle(root);

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
    for (const weighting of ['even', 'size'] as const) {
      for (const [order, perHost, seed] of [['random', 10, 7], ['sorted', 37, 11]] as const) {
        const stream = corpus.urlLines(perHost, order, seed, weighting, true);
        const urlFile = join(dir, `urls-${weighting}-${order}.txt`);
        writeFileSync(urlFile, stream.map((line) => line.url).join('\n') + '\n');
        for (const maxBytes of [0, 512_000]) {
          const parts = await writeReferenceParts(join(dir, `reference-${weighting}-${order}-${maxBytes}`), stream, hosts, AGENT, maxBytes, RUNS);
          const referenceTimes: number[] = [];
          const ours = new Map<string, { seconds: number; peakMiB: number }[]>([['1', []], ['2', []], ['default', []]]);
          for (let r = 0; r < RUNS; r++) {
            referenceTimes.push((await timed(oracle, [], parts[r])).seconds);
            for (const threads of ours.keys()) {
              const args = [CLI, 'check', '--robots-dir', robotsDir, '--agent', AGENT, '--max-bytes', String(maxBytes), ...(threads === 'default' ? [] : ['--threads', threads]), '-'];
              (ours.get(threads) as { seconds: number; peakMiB: number }[]).push(await timed(process.execPath, args, urlFile));
            }
          }
          for (const part of parts) rmSync(part);
          const referenceRate = stream.length / referenceTimes.reduce((sum, seconds) => sum + seconds, 0);
          const bytesPerUrl = referenceBytesPerUrl(stream, hosts, maxBytes);
          const rateOf = (threads: string): number => stream.length / median((ours.get(threads) as { seconds: number }[]).map((run) => run.seconds));
          for (const threads of ours.keys()) {
            const rate = rateOf(threads);
            const peak = Math.max(...(ours.get(threads) as { peakMiB: number }[]).map((run) => run.peakMiB));
            const row = `| ${weighting === 'even' ? `~${perHost} per host` : 'by file size'}, ${order}, ${maxBytes === 0 ? 'whole files' : '500 KiB cut'}, ${threads === 'default' ? 'default threads' : `--threads ${threads}`} | ${(rate / 1e3).toFixed(0)} k URLs/s | ${(referenceRate / 1e3).toFixed(1)} k URLs/s | ${(bytesPerUrl / 1e3).toFixed(1)} KB | **${(rate / referenceRate).toFixed(1)}x** | ${peak.toFixed(0)} MiB |`;
            rows.push(row);
            console.log(row);
          }
          threadRatios.push(`${weighting}, ${order}, ${maxBytes === 0 ? 'whole' : 'cut'}: --threads 2 / 1 ${(rateOf('2') / rateOf('1')).toFixed(2)}x, default / 1 ${(rateOf('default') / rateOf('1')).toFixed(2)}x`);
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
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
console.log(writeSectionResults('real-crawl', lines));
