// Running the built command line from the benchmarks: one place for how a run is timed.
import { closeSync, openSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The built command line as users run it (the package's bin, dist/src/bin/robotstxt.cjs); every benchmark that spawns it uses this path. */
export const cliPath = join(fileURLToPath(new URL('../..', import.meta.url)), 'dist/src/bin/robotstxt.cjs');

/** Runs `robotstxt args…` with inputFile on standard input and output discarded; the wall-clock seconds and stderr. */
export function runCli(args: string[], inputFile: string): { seconds: number; stderr: string } {
  const input = openSync(inputFile, 'r');
  const started = performance.now();
  const result = spawnSync(process.execPath, [cliPath, ...args], { stdio: [input, 'ignore', 'pipe'], encoding: 'utf8' });
  const seconds = (performance.now() - started) / 1000;
  closeSync(input);
  if (result.status !== 0) throw new Error(`robotstxt ${args.join(' ')} failed (exit ${result.status}): ${result.stderr}`);
  return { seconds, stderr: result.stderr };
}

/** The median of a list of timings. */
export const medianOf = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
