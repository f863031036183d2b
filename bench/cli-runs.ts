// Running the built command line from the benchmarks: one place for how a run is timed.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The built command line as users run it (the package's bin, dist/src/bin/robotstxt.cjs); every benchmark that spawns it uses this path. */
export const cliPath = join(fileURLToPath(new URL('../..', import.meta.url)), 'dist/src/bin/robotstxt.cjs');

/** The helper that times a command from a small process (bench/child-timer.ts: a large benchmark's own fork would be timed too). */
export const childTimerPath = fileURLToPath(new URL('./child-timer.js', import.meta.url));

/** Runs a command with inputFile on standard input and its output discarded (or written to outputFile); the wall-clock seconds, exit status and stderr, timed by bench/child-timer.ts. */
export function timedRun(command: string, args: string[], inputFile: string, outputFile: string | null = null): { seconds: number; status: number | null; stderr: string } {
  const timer = spawnSync(process.execPath, [childTimerPath, inputFile, outputFile ?? '-', command, ...args], { encoding: 'utf8', maxBuffer: 1 << 27 });
  if (timer.status !== 0) throw new Error(`bench/child-timer.ts failed (exit ${timer.status}): ${timer.stderr}`);
  return JSON.parse(timer.stdout) as { seconds: number; status: number | null; stderr: string };
}

/** Runs `robotstxt args…` with inputFile on standard input and output discarded; the wall-clock seconds and stderr (a failed run throws). */
export function runCli(args: string[], inputFile: string): { seconds: number; stderr: string } {
  const { seconds, status, stderr } = timedRun(process.execPath, [cliPath, ...args], inputFile);
  if (status !== 0) throw new Error(`robotstxt ${args.join(' ')} failed (exit ${status}): ${stderr}`);
  return { seconds, stderr };
}

/** The median of a list of timings. */
export const medianOf = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
