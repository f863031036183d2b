// Every `$ ` example in README.md, ARCHITECTURE.md, CONTRIBUTING.md and docs/*.md runs on a fresh clone (files
// of the repository only), exits 0 (an example whose exit status matters prints it: `; echo "exit $?"`), and
// prints exactly what the page shows: its standard output and error, in the order written, line for line; a
// `...` line stands for lines left out (at the start, in the middle or at the end), and nothing else may be.
import { describe, it, expect } from 'vitest';
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync, chmodSync, mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CLI, tempDir } from './cli-helpers.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const PAGES = ['README.md', 'ARCHITECTURE.md', 'CONTRIBUTING.md', ...readdirSync(join(ROOT, 'docs')).filter((name) => name.endsWith('.md')).map((name) => `docs/${name}`)];

interface Example {
  page: string;
  command: string;
  /** The lines shown under the command; '...' stands for lines left out. */
  shown: string[];
}

/**
 * Examples that use what the whole machine shares: the local sites' fixed ports (examples/local-sites.mjs,
 * 127.0.0.1:48080-48083) and fixed folders in /tmp. The pages show them as a reader types them, so two test
 * runs at once (two clones, CI beside a developer) take turns: a lock folder in the temporary directory, made
 * exclusively, naming its owner's pid; a lock whose owner is gone is taken over.
 */
const MACHINE_WIDE = /local-sites|crawler\.mjs|127\.0\.0\.1:4808|\/tmp\//;
const EXAMPLES_LOCK = join(tmpdir(), 'robotstxt-wasm-doc-examples.lock');

function ownerAlive(): boolean {
  let pid: number;
  try {
    pid = Number(readFileSync(join(EXAMPLES_LOCK, 'pid'), 'utf8'));
  } catch {
    return true; // made a moment ago, its pid not yet written
  }
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function withMachineWide<T>(command: string, run: () => T): T {
  if (!MACHINE_WIDE.test(command)) return run();
  const pause = new Int32Array(new SharedArrayBuffer(4));
  for (;;) {
    try {
      mkdirSync(EXAMPLES_LOCK);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      if (!ownerAlive()) rmSync(EXAMPLES_LOCK, { recursive: true, force: true });
      else Atomics.wait(pause, 0, 0, 50); // another run's example holds the ports: wait for its turn
    }
  }
  try {
    writeFileSync(join(EXAMPLES_LOCK, 'pid'), String(process.pid));
    return run();
  } finally {
    rmSync(EXAMPLES_LOCK, { recursive: true, force: true });
  }
}

/** The `$ ` commands of a page's fenced blocks, each with the lines shown under it. */
function examplesOf(page: string): Example[] {
  const examples: Example[] = [];
  let inBlock = false;
  let current: Example | null = null;
  for (const line of readFileSync(join(ROOT, page), 'utf8').split('\n')) {
    if (line.startsWith('```')) {
      inBlock = !inBlock;
      current = null;
      continue;
    }
    if (!inBlock) continue;
    if (line.startsWith('$ ')) {
      current = { page, command: line.slice(2), shown: [] };
      examples.push(current);
    } else if (current !== null) {
      current.shown.push(line);
    }
  }
  return examples;
}

/**
 * Whether the output matches what is shown: the shown lines, split at '...' lines into runs, appear in
 * order, each run as consecutive lines of the output; the first run starts the output unless a '...' comes
 * first, and the last ends it unless a '...' comes last. Returns null when it matches, else what differs.
 */
export function mismatch(shown: readonly string[], output: readonly string[]): string | null {
  const runs: string[][] = [[]];
  for (const line of shown) {
    if (line.trim() === '...') runs.push([]);
    else runs[runs.length - 1].push(line);
  }
  const openStart = shown.length > 0 && shown[0].trim() === '...';
  const openEnd = shown.length > 0 && shown[shown.length - 1].trim() === '...';
  const pieces = runs.filter((run) => run.length > 0);
  let at = 0;
  for (const [index, run] of pieces.entries()) {
    const fits = (from: number): boolean => run.every((line, i) => output[from + i] === line);
    let found = -1;
    if (index === 0 && !openStart) found = fits(0) ? 0 : -1;
    else for (let from = at; from + run.length <= output.length && found < 0; from++) if (fits(from)) found = from;
    if (found < 0) return `these lines are not printed${index === 0 && !openStart ? ' at the start' : ''}, in this order: ${JSON.stringify(run)}`;
    at = found + run.length;
  }
  if (!openEnd && at !== output.length) return `more lines printed after the last shown one (show them, or end with ...): ${JSON.stringify(output.slice(at, at + 5))}`;
  if (pieces.length === 0 && !openStart && output.length > 0) return `the example shows no output, but it printed: ${JSON.stringify(output.slice(0, 5))}`;
  return null;
}

/** A folder with a `robotstxt` command (the built one), put first on PATH for the examples. */
function commandFolder(): string {
  const folder = tempDir();
  const script = join(folder, 'robotstxt');
  writeFileSync(script, `#!/bin/sh\nexec "${process.execPath}" "${CLI}" "$@"\n`);
  chmodSync(script, 0o755);
  return folder;
}

describe('the examples of the pages', () => {
  const examples = PAGES.flatMap(examplesOf);
  const bin = commandFolder();
  it('the README stays within the 25 KB it set itself (detail lives in docs/)', () => {
    expect(readFileSync(join(fileURLToPath(new URL('..', import.meta.url)), 'README.md')).length).toBeLessThanOrEqual(25_000);
  });
  it('there are examples to run, on more than one page', () => {
    expect(examples.length).toBeGreaterThanOrEqual(20);
    expect(new Set(examples.map((example) => example.page)).size).toBeGreaterThanOrEqual(4);
  });
  it('the matching of shown lines is strict: a line left out without ... or an extra line fails', () => {
    expect(mismatch(['a', 'b'], ['a', 'b'])).toBeNull();
    expect(mismatch(['a', '...', 'c'], ['a', 'b', 'c'])).toBeNull();
    expect(mismatch(['...', 'b'], ['a', 'b'])).toBeNull();
    expect(mismatch(['a', '...'], ['a', 'b'])).toBeNull();
    expect(mismatch(['a', 'c'], ['a', 'b', 'c'])).not.toBeNull();
    expect(mismatch(['b'], ['a', 'b'])).not.toBeNull();
    expect(mismatch(['a'], ['a', 'b'])).not.toBeNull();
    expect(mismatch([], ['a'])).not.toBeNull();
  });
  for (const { page, command, shown } of examples) {
    it(`${page}: ${command}`, () => {
      // standard error into standard output, in the order written, as a terminal shows them
      const result = withMachineWide(command, () => spawnSync('sh', ['-c', `(${command}) 2>&1`], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, PATH: `${bin}:${process.env.PATH ?? ''}` }, maxBuffer: 1 << 26, timeout: 120_000 }));
      const output = result.stdout.split('\n');
      if (output.at(-1) === '') output.pop();
      expect(result.status, `exit status (an example whose status is not 0 prints it: ; echo "exit $?")\n--- output ---\n${output.slice(0, 20).join('\n')}`).toBe(0);
      const problem = mismatch(shown, output);
      expect(problem, `${problem}\n--- output ---\n${output.slice(0, 40).join('\n')}`).toBeNull();
    }, 120_000);
  }
});
