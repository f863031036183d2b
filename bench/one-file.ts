// npm run bench:one-file: one robots.txt at the machine's speed. Two comparisons, each measured in one run:
//
// 1. The command line beside the library's in-process rate and the reference's API. 1,000,000 generated URLs
//    (bench/data.ts shopUrls, seed 11) against the ~50-rule shop file, agent Googlebot:
//    - the library in-process: matcher.checkLinesText(chunk, 'all', into) (the very lines check prints) over the
//      URL bytes in memory, cut into whole-line chunks of CHUNK_BYTES (the command line's), into a buffer reused
//      from chunk to chunk; a new matcher each run (its automaton made again), this process warmed by a first
//      run; jsonl: checkLinesJsonl the same way;
//    - the command line, whole process: `robotstxt check --robots <file> --agent Googlebot [--format jsonl] -`
//      with the URLs on standard input and the output to /dev/null, --threads 1 and the default; beside it the
//      same command on an empty input (its start-up), and the rate once that start-up is taken away;
//    - Google's reference library (../shared/reference-oracle): its API on 100,000 of the URLs, the faster of
//      one matcher reused and a fresh one per URL (its rate does not depend on how many).
// 2. Parse + compile + first verdict of every file of ../shared/corpus/robots (whole files, the bytes the
//    reference parses): per file parseRobots(body, { maxBytes: 0 }).matcher(agent).isAllowed(url), warm (a
//    fresh process: the median of its passes after the second) and cold (the first pass of a fresh process); the reference's parse +
//    match of the same files: its stream (each body, then one query) whole process, less its run on a stream of
//    one query (its start-up).
// Rounds interleaved (each kind once per round), medians. Writes its section of bench/RESULTS.md.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseRobots } from '../src/node/index.js';
import { CHUNK_BYTES } from '../src/node/logs/index.js';
import { shopRobots, shopUrls } from './data.js';
import { cliPath as CLI, medianOf as median } from './cli-runs.js';
import { timed } from './crawl-runs.js';
import { buildReferenceOracle } from './reference-oracle.js';
import { writeSectionResults } from './results-file.js';

const AGENT = 'Googlebot';
const FIRST_URL = 'https://example.com/';
const root = fileURLToPath(new URL('../../', import.meta.url));
const corpusRoot = join(root, '..', 'shared', 'corpus', 'robots');

/** Every file of the corpus, in a fixed order. */
function corpusBodies(): Buffer[] {
  return readdirSync(corpusRoot).sort().flatMap((folder) => readdirSync(join(corpusRoot, folder)).sort().map((name) => readFileSync(join(corpusRoot, folder, name))));
}

/** One pass of parse + compile + first verdict over the bodies: milliseconds. */
function compilePass(bodies: readonly Buffer[]): number {
  const started = performance.now();
  for (const body of bodies) {
    const robots = parseRobots(body, { maxBytes: 0 });
    robots.matcher(AGENT).isAllowed(FIRST_URL);
    robots.close();
  }
  return performance.now() - started;
}

// a child's task: COMPILE_PASSES passes in a fresh process, their milliseconds printed (the first is cold).
// Apart from this benchmark's own heap (a million URL strings make every garbage collection of a pass slower).
const COMPILE_PASSES = 8;
if (process.argv[2] === '--compile-passes') {
  const bodies = corpusBodies();
  const passes: number[] = [];
  for (let pass = 0; pass < COMPILE_PASSES; pass++) passes.push(compilePass(bodies));
  process.stdout.write(`${passes.join(' ')}\n`);
  process.exit(0);
}

const quick = process.argv.includes('--quick');
const RUNS = quick ? 2 : 7;
const URLS = quick ? 200_000 : 1_000_000;
const REFERENCE_SAMPLE = 100_000;
const dir = mkdtempSync(join(tmpdir(), 'robotstxt-one-file-'));
const { oracle, referenceNote } = buildReferenceOracle(root);

const shopFile = join(dir, 'shop.txt');
const urlsFile = join(dir, 'urls.txt');
const emptyFile = join(dir, 'empty.txt');
const sampleFile = join(dir, 'sample.txt');
writeFileSync(shopFile, shopRobots());
const urlBytes = ((): Buffer => {
  const urls = shopUrls(URLS, 11); // (not kept: a million strings would slow every collection of this process)
  writeFileSync(sampleFile, urls.slice(0, REFERENCE_SAMPLE).join('\n') + '\n');
  return Buffer.from(urls.join('\n') + '\n');
})();
writeFileSync(urlsFile, urlBytes);
writeFileSync(emptyFile, '');

// the command line's chunks: whole lines, at most CHUNK_BYTES each
const chunks: Uint8Array[] = [];
for (let start = 0; start < urlBytes.length;) {
  let end = Math.min(urlBytes.length, start + CHUNK_BYTES);
  if (end < urlBytes.length) end = urlBytes.lastIndexOf(10, end - 1) + 1;
  chunks.push(urlBytes.subarray(start, end));
  start = end;
}
const body = readFileSync(shopFile);
const into = new Uint8Array(CHUNK_BYTES * 4);
/** One in-process run over every chunk with a new matcher: seconds. */
function libraryRun(format: 'text' | 'jsonl'): number {
  const robots = parseRobots(body);
  const matcher = robots.matcher(AGENT);
  const started = performance.now();
  let lines = 0;
  for (const chunk of chunks) lines += (format === 'text' ? matcher.checkLinesText(chunk, 'all', into) : matcher.checkLinesJsonl(chunk, 'all', lines + 1, null, into)).verdicts.length;
  const seconds = (performance.now() - started) / 1000;
  robots.close();
  if (lines !== URLS) throw new Error(`the library answered ${lines} lines of ${URLS}`);
  return seconds;
}
libraryRun('text');
libraryRun('jsonl');

const bodies = existsSync(corpusRoot) ? corpusBodies() : [];
const corpusBytes = bodies.reduce((sum, file) => sum + file.length, 0);
const referenceStream = join(dir, 'reference-compile.txt');
const referenceEmpty = join(dir, 'reference-empty.txt');
const query = `q ${AGENT.length} ${FIRST_URL.length}\n${AGENT}${FIRST_URL}\n`;
if (bodies.length > 0) {
  writeFileSync(referenceStream, Buffer.concat(bodies.flatMap((file) => [Buffer.from(`R ${file.length}\n`), file, Buffer.from(`\n${query}`)])));
  writeFileSync(referenceEmpty, query);
}

const cli = (args: string[], input: string): Promise<number> => timed(process.execPath, [CLI, 'check', '--robots', shopFile, '--agent', AGENT, ...args, '-'], input).then((run) => {
  if (run.status !== 0) throw new Error(`robotstxt check ${args.join(' ')} exited ${run.status}`);
  return run.seconds;
});
const times: Record<string, number[]> = {};
const add = (name: string, value: number): void => { (times[name] ??= []).push(value); };
const referenceRates: number[] = []; // per round (absent when the reference is)
console.log(`${RUNS} rounds: the library in-process, the command line, the reference${bodies.length > 0 ? ', and the corpus compile' : ''}...`);
for (let round = 0; round < RUNS; round++) {
  add('library text', libraryRun('text'));
  add('cli text 1', await cli(['--threads', '1'], urlsFile));
  add('cli text default', await cli([], urlsFile));
  add('library jsonl', libraryRun('jsonl'));
  add('cli jsonl 1', await cli(['--threads', '1', '--format', 'jsonl'], urlsFile));
  add('cli empty', await cli(['--threads', '1'], emptyFile));
  add('node alone', (await timed(process.execPath, ['-e', '0'], emptyFile)).seconds);
  if (referenceNote === '') {
    const run = spawnSync(oracle, ['--bench', shopFile, AGENT, sampleFile, '1'], { encoding: 'utf8' });
    const rates = [...run.stdout.matchAll(/^(reuse|fresh)\s+rep 0: wall [\d.]+ s\s+(\d+) checks\/s/gm)].map((match) => Number(match[2]));
    if (rates.length > 0) referenceRates.push(Math.max(...rates));
  }
  if (bodies.length > 0) {
    const passes = spawnSync(process.execPath, [fileURLToPath(import.meta.url), '--compile-passes'], { encoding: 'utf8' }).stdout.trim().split(' ').map((ms) => Number(ms) / 1000);
    if (passes.length !== COMPILE_PASSES || passes.some((seconds) => !(seconds > 0))) throw new Error('the compile passes did not run');
    add('compile cold', passes[0]);
    add('compile warm', median(passes.slice(2)));
    if (referenceNote === '') {
      add('reference compile', (await timed(oracle, [], referenceStream)).seconds);
      add('reference empty', (await timed(oracle, [], referenceEmpty)).seconds);
    }
  }
  console.log(`round ${round + 1} of ${RUNS} done`);
}
rmSync(dir, { recursive: true, force: true });

const m = (name: string): number => median(times[name]);
/** The median over the rounds of a ratio taken within each round (its two sides measured back to back: the machine's drift cancels). */
const roundRatio = (of: (round: number) => number): number => median(Array.from({ length: RUNS }, (_, round) => of(round)));
const t = (name: string, round: number): number => times[name][round];
const rate = (seconds: number): number => URLS / seconds;
const fmtRate = (value: number): string => (value >= 1e6 ? `${(value / 1e6).toFixed(2)} M` : `${(value / 1e3).toFixed(1)} k`);
const reference = referenceRates.length === RUNS ? median(referenceRates) : null;
const mark = (ok: boolean): string => (ok ? 'met' : '**not met**');
const startUp = m('cli empty');
const rows: string[] = [];
const cliRow = (what: string, name: string, libraryName: string): void => {
  const toLibrary = roundRatio((round) => t(libraryName, round) / t(name, round));
  const afterStartToLibrary = roundRatio((round) => t(libraryName, round) / (t(name, round) - t('cli empty', round)));
  const toReference = reference === null ? null : roundRatio((round) => rate(t(name, round)) / referenceRates[round]);
  rows.push(`| ${what} | ${fmtRate(rate(m(name)))} URLs/s | ${toLibrary.toFixed(2)}x: ${mark(toLibrary >= 0.8)} | ${fmtRate(rate(m(name) - startUp))} URLs/s | ${afterStartToLibrary.toFixed(2)}x | ${toReference === null ? 'skipped' : `${toReference.toFixed(1)}x: ${mark(toReference >= 50)}`} |`);
};
cliRow('`check`, text, --threads 1', 'cli text 1', 'library text');
cliRow('`check`, text, default --threads', 'cli text default', 'library text');
cliRow('`check --format jsonl`, --threads 1', 'cli jsonl 1', 'library jsonl');
const machine = `${cpus().length} x ${cpus()[0]?.model.trim() ?? 'unknown CPU'}, ${Math.round(totalmem() / 2 ** 30)} GiB; Node ${process.version}`;
const section = [
  '## One robots.txt at the machine\'s speed (`npm run bench:one-file`, bench/one-file.ts)',
  '',
  `Measured on ${new Date().toISOString().slice(0, 10)}; ${machine}. ${(URLS / 1e6).toFixed(1)} M generated URLs (bench/data.ts shopUrls, ${(urlBytes.length / 1e6).toFixed(1)} MB) against the ~50-rule shop file, agent ${AGENT}; ${RUNS} interleaved rounds: rates are medians, ratios the medians of each round's ratio (its two sides measured back to back).`,
  '',
  `The library in-process (\`checkLinesText(chunk, 'all', into)\` over ${CHUNK_BYTES >> 20} MiB chunks of the URL bytes in memory, a new matcher per run, a warm process): **${fmtRate(rate(m('library text')))} URLs/s** text, ${fmtRate(rate(m('library jsonl')))} URLs/s jsonl (\`checkLinesJsonl\`). The reference's API on the same file and URLs: ${reference === null ? `skipped (${referenceNote})` : `${fmtRate(reference)} URLs/s (the faster of one matcher reused and a fresh one per URL)`}.`,
  '',
  '| command line, whole process | URLs/s | vs the library in-process (target >= 0.8x) | start-up taken away | vs the library | vs the reference\'s API (target >= 50x) |',
  '|---|---|---|---|---|---|',
  ...rows,
  '',
  `Start-up, the same command on an empty input: ${(startUp * 1000).toFixed(0)} ms (\`node -e 0\` alone: ${(m('node alone') * 1000).toFixed(0)} ms). The library's run of ${(URLS / 1e6).toFixed(1)} M URLs takes ${(m('library text') * 1000).toFixed(0)} ms, so a whole process at 0.8x its rate would have ${(m('library text') / 0.8 * 1000).toFixed(0)} ms in all, of which start-up alone takes ${(startUp * 1000).toFixed(0)} ms: at this size the whole-process ratio is start-up's, and the rate with start-up taken away is the one that tells how the command answers.`,
];
if (bodies.length > 0) {
  const mb = corpusBytes / 1e6;
  const warm = mb / m('compile warm');
  const cold = mb / m('compile cold');
  const referenceRate = times['reference compile'] === undefined ? null : mb / (m('reference compile') - m('reference empty'));
  const toReference = (name: string): number => roundRatio((round) => (t('reference compile', round) - t('reference empty', round)) / t(name, round));
  const warmRatio = referenceRate === null ? null : toReference('compile warm');
  const ratio = (name: string): string => (referenceRate === null ? 'skipped' : `${toReference(name).toFixed(2)}x`);
  section.push(
    '',
    `Parse + compile + first verdict (\`parseRobots(body, { maxBytes: 0 }).matcher('${AGENT}').isAllowed('${FIRST_URL}')\`) of every file of ../shared/corpus/robots: ${bodies.length} files, ${mb.toFixed(1)} MB, read whole. The reference: its parse + match of the same files (each body, then one query, through its API), whole process less its run on one query (${(m('reference empty') * 1000).toFixed(1)} ms).`,
    '',
    '| parse + compile + first verdict | MB/s | vs the reference (target >= 2.5x) |',
    '|---|---|---|',
    `| robotstxt-wasm, warm (a fresh process: the median of its passes after the second) | ${warm.toFixed(0)} MB/s | ${ratio('compile warm')}${warmRatio === null ? '' : `: ${mark(warmRatio >= 2.5)}`} |`,
    `| robotstxt-wasm, cold (the first pass of a fresh process: code not yet optimised) | ${cold.toFixed(0)} MB/s | ${ratio('compile cold')} |`,
    `| reference (parse + match, whole process less start-up) | ${referenceRate === null ? 'skipped' : `${referenceRate.toFixed(0)} MB/s`} | 1x |`,
  );
} else {
  section.push('', `The corpus compile is skipped: ${corpusRoot} is absent.`);
}
console.log(section.join('\n'));
writeSectionResults('one-file', section);
