// npm run bench:test-batch: robotstxt test --batch, 100,000 cases over 1,000 robots.txt files in one process,
// whole process, beside Google's reference answering the same cases in its stream mode (its API, the body
// given again for every case whose file differs from the last one's) and beside `robotstxt test` started once
// per case (Google's spec-test runner's contract), all measured in the same run. The reference's verdicts are
// compared with the batch's (0 differing expected). Writes its section of bench/RESULTS.md.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { seededRandom } from './data.js';
import { cliPath, medianOf as median, timedRun } from './cli-runs.js';
import { buildReferenceOracle } from './reference-oracle.js';
import { writeSectionResults } from './results-file.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const FILES = 1000;
const CASES = 100_000;
const RUNS = 3;
const random = seededRandom(21);
const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)];
const words = ['shop', 'cart', 'account', 'search', 'media', 'api', 'wp-admin', 'blog', 'help', 'index.html', '%7Euser'];
const agents = ['Googlebot', 'Bingbot', 'FooBot', '*'];

const dir = mkdtempSync(join(tmpdir(), 'robotstxt-test-batch-'));
const robotsDir = join(dir, 'robots');
mkdirSync(robotsDir);
const bodies: Buffer[] = [];
for (let f = 0; f < FILES; f++) {
  const lines: string[] = [];
  for (let g = 0; g < 1 + Math.floor(random() * 3); g++) {
    lines.push(`User-agent: ${pick(agents)}`);
    for (let r = 0; r < 2 + Math.floor(random() * 30); r++) lines.push(`${pick(['Allow', 'Disallow', 'Disallow'])}: /${pick(words)}${pick(['', '/', '*', '$', `/${pick(words)}`, '*.pdf$', '/*?sort='])}`);
  }
  bodies.push(Buffer.from(lines.join('\n') + '\n'));
  writeFileSync(join(robotsDir, `${f}.txt`), bodies[f]);
}
const cases = Array.from({ length: CASES }, () => ({ file: Math.floor(random() * FILES), agent: pick(agents.slice(0, 3)), url: `https://example.com/${pick(words)}/${pick(words)}${pick(['', '.pdf', '?sort=1'])}` }));
const casesFile = join(dir, 'cases.jsonl');
writeFileSync(casesFile, cases.map((c) => JSON.stringify({ robots: `${c.file}.txt`, agent: c.agent, url: c.url })).join('\n') + '\n');

/** timedRun, with what a failed run printed last. */
function timed(command: string, args: string[], input: string, output: string): { seconds: number } {
  const run = timedRun(command, args, input, output);
  if (run.status !== 0) console.warn(run.stderr.trim().split('\n').slice(-3).join('\n'));
  return run;
}

// the reference's stream: the file's body when it changes, then the query
const { oracle, referenceNote } = buildReferenceOracle(root);
const streamFile = join(dir, 'reference-stream.txt');
if (referenceNote === '') {
  const parts: Buffer[] = [];
  let current = -1;
  for (const c of cases) {
    if (c.file !== current) {
      parts.push(Buffer.from(`R ${bodies[c.file].length}\n`), bodies[c.file], Buffer.from('\n'));
      current = c.file;
    }
    parts.push(Buffer.from(`q ${c.agent.length} ${Buffer.byteLength(c.url)}\n${c.agent}${c.url}\n`));
  }
  writeFileSync(streamFile, Buffer.concat(parts));
}

const empty = join(dir, 'empty.txt');
writeFileSync(empty, '');
const batchOut = join(dir, 'answers.jsonl');
const referenceOut = join(dir, 'reference-answers.txt');
const batchTimes: number[] = [];
const referenceTimes: number[] = [];
for (let r = 0; r < RUNS; r++) {
  if (referenceNote === '') referenceTimes.push(timed(oracle, [], streamFile, referenceOut).seconds);
  batchTimes.push(timed(process.execPath, [cliPath, 'test', '--batch', '--robots-root', robotsDir, casesFile], empty, batchOut).seconds);
}
const answers = readFileSync(batchOut, 'utf8').trimEnd().split('\n').map((line) => (JSON.parse(line) as { verdict: string }).verdict);
let differing: number | null = null;
if (referenceNote === '') {
  const reference = readFileSync(referenceOut, 'utf8').trimEnd().split('\n');
  differing = answers.filter((verdict, i) => (verdict === 'allowed' ? '1' : '0') !== reference[i]).length + Math.abs(reference.length - answers.length);
}
// one process per case, as Google's spec-test runner starts robots_main: 60 cases
const singleTimes: number[] = [];
for (let i = 0; i < 60; i++) {
  const c = cases[i * 1000];
  const started = performance.now();
  spawnSync(process.execPath, [cliPath, 'test', join(robotsDir, `${c.file}.txt`), c.agent, c.url], { stdio: 'ignore' });
  singleTimes.push((performance.now() - started) / 1000);
}

const batchRate = CASES / median(batchTimes);
const referenceRate = referenceTimes.length > 0 ? CASES / median(referenceTimes) : null;
const singleRate = 1 / median(singleTimes);
const rows = [
  `| \`robotstxt test --batch\`, ${CASES / 1000}k cases over ${FILES} files, whole process | ${(batchRate / 1000).toFixed(1)} k cases/s | ${referenceRate === null ? 'skipped' : `${(referenceRate / 1000).toFixed(1)} k cases/s`} | ${referenceRate === null ? 'skipped' : `${(batchRate / referenceRate).toFixed(2)}x`} |`,
  `| \`robotstxt test\`, one process per case (60 cases) | ${singleRate.toFixed(1)} cases/s | | batch: ${(batchRate / singleRate).toFixed(0)}x |`,
];
for (const row of rows) console.log(row);
console.log(differing === null ? 'verdicts not compared (no reference)' : `verdicts differing from the reference: ${differing} of ${CASES}`);
rmSync(dir, { recursive: true, force: true });

writeSectionResults('test-batch', [
  '## Many test cases in one process (`robotstxt test --batch`)',
  '',
  `Measured by \`npm run bench:test-batch\` on ${new Date().toISOString().slice(0, 10)}, whole process, medians of ${RUNS} runs interleaved with the reference's: ${CASES.toLocaleString('en-US')} cases (agent, URL) in random order over ${FILES} generated robots.txt files of 3 to 90 rules. The reference is Google's library built from ../shared/reference-oracle, answering the same cases in its stream mode (its API; the body given again whenever a case's file differs from the last case's, which here is almost every case).${referenceNote === '' ? '' : ` ${referenceNote}.`}`,
  '',
  '| input | robotstxt-wasm | reference (same cases, same run) | ratio |',
  '|---|---|---|---|',
  ...rows,
  '',
  differing === null ? 'Verdicts were not compared: the reference could not be built.' : `Verdicts differing from the reference's: ${differing} of ${CASES.toLocaleString('en-US')}.`,
  '',
  'On files this small the reference parses a body again for each case in a few microseconds; the batch pays per case in JavaScript (the JSON line, the file cache, binding that file\'s matcher, `explain` for the deciding line). What the batch replaces is a process per case.',
]);
