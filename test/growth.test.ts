// Costs in a straight line, on counted work: each main path of the command line (bench/growth-paths.ts) run
// at 0x (an empty input: its fixed cost), 1x and 4x its input under valgrind's callgrind, which counts the
// instructions the process executes (the same count whatever else the machine does: no clock). The work of a
// scale is its count less the 0x count; 4x the input must cost at most 5x the work of 1x. A planted quadratic
// step (the same URLs path with a naive duplicate check, test/fixtures/planted-quadratic.mjs) must fail that
// bound: the measurement sees what it is there to see. Tagged slow (npm run test:slow): about a minute.
import { describe, expect, it } from 'vitest';
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, openSync, closeSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { COUNTED_SIZES, growthPaths, type GrowthRun } from '../bench/growth-paths.js';
import { CLI } from './cli-helpers.js';
import { canRun } from './browser.js';

const PLANTED = fileURLToPath(new URL('./fixtures/planted-quadratic.mjs', import.meta.url));
const SCALES = [0, 1, 4] as const;
/** 4x the input may cost at most this many times the work of 1x. */
const MAX_GROWTH = 5;

const valgrind = spawnSync('valgrind', ['--version'], { encoding: 'utf8' }).status === 0;

/** Instructions executed by `command args < stdin` (output discarded), as callgrind counts them. */
function countInstructions(command: string, args: string[], stdin: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const input = openSync(stdin, 'r');
    const child = spawn('valgrind', ['--tool=callgrind', '--callgrind-out-file=/dev/null', command, ...args], { stdio: [input, 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => { stderr += chunk.toString(); });
    child.on('close', (status) => {
      closeSync(input);
      const refs = /I\s+refs:\s+([\d,]+)/.exec(stderr);
      if ((status !== 0 && status !== 1) || refs === null) reject(new Error(`${[command, ...args].join(' ')} under callgrind: exit ${status}\n${stderr.slice(-2000)}`));
      else resolve(Number(refs[1].replace(/,/g, '')));
    });
  });
}

/** Runs tasks two at a time (the machine's cores): their results in order. */
async function twoAtATime<T>(tasks: (() => Promise<T>)[]): Promise<T[]> {
  const results: T[] = new Array(tasks.length);
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < tasks.length) {
      const index = next++;
      results[index] = await tasks[index]();
    }
  };
  await Promise.all([lane(), lane()]);
  return results;
}

/** (work at 4x) / (work at 1x), the work of a scale being its count less the empty input's. */
const growthOf = ([empty, one, four]: number[]): number => (four - empty) / (one - empty);

if (canRun(valgrind, 'counted work (valgrind callgrind)', 'apt-get install valgrind')) {
  describe('costs grow in a straight line: 4x the input costs at most 5x the work (instructions counted by callgrind)', () => {
    it('every main path: URLs per file, rules per file, hosts per run, log lines per audit, pages per crawl; and a planted quadratic step is caught', { tags: ['slow'], timeout: 600_000 }, async () => {
      const dir = mkdtempSync(join(tmpdir(), 'robotstxt-growth-'));
      try {
        const paths = growthPaths(COUNTED_SIZES);
        const runs: { path: string; runs: GrowthRun[] }[] = paths.map((path, index) => ({
          path: path.name,
          runs: SCALES.map((k) => {
            const folder = join(dir, `${index}-${k}`);
            mkdirSync(folder);
            return path.write(folder, k);
          }),
        }));
        // the planted step: the URLs path's own input, through the library, with a duplicate check that looks at every line before
        const urlsPath = runs[0];
        const planted = SCALES.map((_, i) => ({ args: [PLANTED, urlsPath.runs[i].args[2]], stdin: urlsPath.runs[i].stdin }));
        const tasks = [
          ...runs.flatMap(({ runs: scaled }) => scaled.map((run) => () => countInstructions(process.execPath, [CLI, ...run.args], run.stdin))),
          ...planted.map((run) => () => countInstructions(process.execPath, run.args, run.stdin)),
        ];
        const counts = await twoAtATime(tasks);
        const growth = new Map<string, number>();
        runs.forEach(({ path }, index) => growth.set(path, growthOf(counts.slice(index * 3, index * 3 + 3))));
        const plantedGrowth = growthOf(counts.slice(runs.length * 3));
        console.log([...growth].map(([path, ratio]) => `${path}: 4x/1x work ${ratio.toFixed(2)}`).join('\n') + `\nplanted quadratic step: ${plantedGrowth.toFixed(2)}`);
        for (const [path, ratio] of growth) expect({ path, withinBound: ratio <= MAX_GROWTH, ratio }).toEqual({ path, withinBound: true, ratio });
        // the bound fails where it must
        expect(plantedGrowth).toBeGreaterThan(MAX_GROWTH);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
  });
}
