// Builds (npm run build) only when the built output (dist/, build/robotstxt.wasm) is missing or older than a
// source it is made from. npm's prepare step runs it (npm ci on a fresh clone builds; npm pack and npm link
// on a built checkout do not build again), and so does the tests' global setup (npm test after an edit).
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/**
 * The newest modification time of a file or of the files below a folder (0 when it is absent).
 * @param {string} path
 * @returns {number}
 */
function newest(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let latest = 0;
  for (const entry of readdirSync(path, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) latest = Math.max(latest, statSync(join(entry.parentPath, entry.name)).mtimeMs);
  }
  return latest;
}

/** What the build reads: its sources and its settings. */
const SOURCES = ['src', 'assembly', 'bench', 'scripts', 'asconfig.json', 'tsconfig.json'];

/**
 * Whether the built output is missing or older than any source it is made from. Called once per build or test run.
 * @returns {boolean}
 */
export function outputIsStale() {
  const outputs = [join(ROOT, 'dist/src/bin/robotstxt.cjs'), join(ROOT, 'dist/src/bin/robotstxt-main.cache'), join(ROOT, 'dist/src/bin/robotstxt-verdicts.cache'), join(ROOT, 'build/robotstxt.wasm')];
  if (!outputs.every((file) => existsSync(file))) return true;
  const built = Math.min(...outputs.map((file) => statSync(file).mtimeMs));
  return Math.max(...SOURCES.map((source) => newest(join(ROOT, source)))) > built;
}

/**
 * Runs npm run build when the output is stale; says why on stderr. Returns whether it built.
 * @param {string} who what asks (named in the line it prints)
 * @returns {boolean}
 */
export function buildIfStale(who) {
  if (!outputIsStale()) return false;
  console.warn(`${who}: the sources are newer than dist/ and build/ (or these are missing): running npm run build`);
  execFileSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'inherit' });
  return true;
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  if (!buildIfStale('prepare')) console.warn('prepare: dist/ and build/ are newer than every source: nothing to build (npm run build builds anyway)');
}
