// npm run bench:history: audit judged by the robots.txt in force at each hit (--robots-history) against the
// plain audit (--robots), on the 1,000,000-line benchmark log of bench/data.ts (one day, 2026-11-21), whole
// process, interleaved runs. The history has two versions: the shop file from 2026-11-01, and the shop file with
// two more rules from 2026-11-21T12:00Z, so that the afternoon's requests fall within 24 h of the change and
// are judged by both versions. Target: at least 0.8x the plain audit's rate. Writes its section of bench/RESULTS.md.
import { cpus, tmpdir } from 'node:os';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { accessLogLines, shopRobots } from './data.js';
import { medianOf, runCli } from './cli-runs.js';
import { writeSectionResults } from './results-file.js';

const quick = process.argv.includes('--quick');
const LINES = quick ? 100_000 : 1_000_000;
const RUNS = quick ? 1 : 5;
const work = mkdtempSync(join(tmpdir(), 'robotstxt-bench-history-'));
try {
  const robots = join(work, 'robots.txt');
  writeFileSync(robots, shopRobots());
  const history = join(work, 'history', 'shop.example');
  mkdirSync(history, { recursive: true });
  writeFileSync(join(history, '2026-11-01.txt'), shopRobots());
  writeFileSync(join(history, '2026-11-21T12-00-00Z.txt'), shopRobots().replace('User-agent: *\n', 'User-agent: *\nDisallow: /media/\nDisallow: /*?sort=\n'));
  const log = join(work, 'access.log');
  writeFileSync(log, accessLogLines(LINES).join('\n') + '\n');
  const empty = join(work, 'empty.txt');
  writeFileSync(empty, '');
  const runs: Record<'plain' | 'history', number[]> = { plain: [], history: [] };
  for (let round = 0; round < RUNS + 1; round++) {
    const plain = runCli(['audit', '--robots', robots, log], empty).seconds;
    const byVersion = runCli(['audit', '--robots-history', join(work, 'history'), '--host', 'shop.example', log], empty).seconds;
    if (round > 0) { runs.plain.push(plain); runs.history.push(byVersion); } // the first round warms the caches
  }
  const plainRate = LINES / medianOf(runs.plain);
  const historyRate = LINES / medianOf(runs.history);
  const ratio = historyRate / plainRate;
  const section = [
    '## Audit by the robots.txt in force (`npm run bench:history`, bench/history.ts)',
    '',
    `Generated on ${new Date().toISOString().slice(0, 10)}; ${cpus().length} x ${cpus()[0]?.model.trim() ?? 'unknown CPU'}; Node ${process.version}. ${LINES.toLocaleString('en')} lines of bench/data.ts accessLogLines (one day), whole process, median of ${RUNS} interleaved runs. The history: the shop file from 2026-11-01 and a version with two more rules from 2026-11-21T12:00Z (the afternoon's requests judged by both versions).`,
    '',
    '| audit | lines/s | vs plain (same run) | target |',
    '|---|---|---|---|',
    `| --robots (plain) | ${(plainRate / 1e3).toFixed(1)} k | 1.00x | |`,
    `| --robots-history | ${(historyRate / 1e3).toFixed(1)} k | ${ratio.toFixed(2)}x | >= 0.80x: ${ratio >= 0.8 ? 'met' : '**not met**'} |`,
  ];
  console.log(writeSectionResults('history', section));
} finally {
  rmSync(work, { recursive: true, force: true });
}
