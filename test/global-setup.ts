// Runs once before any test file: the tests that start the command line, workers or pages run the built
// output (dist/, build/robotstxt.wasm). When a source is newer than that output (`npm test` after an edit),
// it is built first, so that no test reads stale output; after `npm ci` (whose prepare step builds) nothing
// is built again: CI builds once.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** The newest modification time of the files below a folder (0 when it is absent). */
function newest(dir: string): number {
  if (!existsSync(dir)) return 0;
  let latest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) latest = Math.max(latest, statSync(join(entry.parentPath, entry.name)).mtimeMs);
  }
  return latest;
}

/** Whether the built output is older than any source it is made from. */
export function outputIsStale(): boolean {
  const outputs = [join(ROOT, 'dist/src/bin/robotstxt.cjs'), join(ROOT, 'build/robotstxt.wasm')];
  if (!outputs.every((file) => existsSync(file))) return true;
  const built = Math.min(...outputs.map((file) => statSync(file).mtimeMs));
  return Math.max(newest(join(ROOT, 'src')), newest(join(ROOT, 'assembly')), newest(join(ROOT, 'bench')), newest(join(ROOT, 'scripts'))) > built;
}

export default function setup(): void {
  if (!outputIsStale()) return;
  console.warn('test setup: the sources are newer than dist/ and build/: running npm run build first');
  execFileSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'inherit' });
}
