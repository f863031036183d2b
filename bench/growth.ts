// npm run bench:growth: each main path of the command line (bench/growth-paths.ts) at 1x and 4x its input,
// whole process, and the ratio of their times less the command's start-up (the same command on an empty
// input). A straight line gives about 4; a step that grows faster than its input shows as more. Medians of
// RUNS interleaved rounds. test/growth.test.ts asserts the same ratios on counted instructions (no clock).
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { BENCH_SIZES, growthPaths } from './growth-paths.js';
import { cliPath as CLI, medianOf as median } from './cli-runs.js';
import { timed } from './crawl-runs.js';
import { writeSectionResults } from './results-file.js';

const quick = process.argv.includes('--quick');
const RUNS = quick ? 1 : 5;
const SCALES = [0, 1, 4] as const;
const dir = mkdtempSync(join(tmpdir(), 'robotstxt-growth-'));
const rows: string[] = [];
for (const [index, path] of growthPaths(quick ? { urls: 100_000, rules: 2_000, hosts: 500, logLines: 20_000, pages: 2_000 } : BENCH_SIZES).entries()) {
  const runs = SCALES.map((k) => {
    const folder = join(dir, `${index}-${k}`);
    mkdirSync(folder);
    return path.write(folder, k);
  });
  const seconds: number[][] = SCALES.map(() => []);
  for (let round = 0; round < RUNS; round++) {
    for (const [i, run] of runs.entries()) {
      const result = await timed(process.execPath, [CLI, ...run.args], run.stdin);
      if (result.status !== 0 && result.status !== 1) throw new Error(`${path.name} at ${SCALES[i]}x exited ${result.status}`);
      seconds[i].push(result.seconds);
    }
  }
  const [start, one, four] = seconds.map(median);
  const ratio = (four - start) / (one - start);
  const row = `| ${path.name} | ${path.grows} | ${(start * 1000).toFixed(0)} ms | ${(one * 1000).toFixed(0)} ms | ${(four * 1000).toFixed(0)} ms | **${ratio.toFixed(2)}** |`;
  rows.push(row);
  console.log(row);
}
rmSync(dir, { recursive: true, force: true });
writeSectionResults('growth', [
  '## Costs as inputs grow (`npm run bench:growth`, bench/growth.ts)',
  '',
  `Measured on ${new Date().toISOString().slice(0, 10)}; ${cpus().length} x ${cpus()[0]?.model.trim() ?? 'unknown CPU'}; Node ${process.version}. Each main path whole process at 0x (an empty input: its start-up), 1x and 4x its input (bench/growth-paths.ts), --threads 1 where the command has threads; medians of ${RUNS} interleaved rounds. The ratio is (4x - 0x) / (1x - 0x): a straight line gives about 4. \`npm run test:slow\` (test/growth.test.ts) holds the same ratio to at most 5 on instructions counted by valgrind, not on time.`,
  '',
  '| path | input at 1x (k = 1) | 0x | 1x | 4x | 4x / 1x |',
  '|---|---|---|---|---|---|',
  ...rows,
]);
