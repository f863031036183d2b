// Google's reference library as a command (../shared/reference-oracle, built into the temporary folder): one
// place for how the benchmarks build it and say why its column is skipped.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Builds the reference oracle once per benchmark run: its path, and '' or the reason its column is skipped (printed). */
export function buildReferenceOracle(root: string): { oracle: string; referenceNote: string } {
  const oracle = join(tmpdir(), 'robotstxt-reference-oracle');
  const oracleBuild = join(root, '..', 'shared', 'reference-oracle', 'build.sh');
  let referenceNote = '';
  if (!existsSync(oracleBuild)) referenceNote = `the reference column is skipped: ${oracleBuild} is absent`;
  else {
    const built = spawnSync('bash', [oracleBuild, oracle], { encoding: 'utf8' });
    if (built.status !== 0) referenceNote = `the reference column is skipped: its build failed (${(built.stderr || built.stdout).trim().split('\n').at(-1)})`;
  }
  if (referenceNote !== '') console.warn(referenceNote);
  return { oracle, referenceNote };
}
