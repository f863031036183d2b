// A suite that cannot run here (no Chromium, no Bun) skips with its reason printed, but under CI=true it fails:
// CI must not pass without the browser and runtime suites.
import { describe, it, expect } from 'vitest';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const VITEST = fileURLToPath(new URL('../node_modules/vitest/vitest.mjs', import.meta.url));

function runGate(ci: boolean): { status: number | null; output: string } {
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' };
  delete env.CI;
  delete env.VITEST;
  if (ci) env.CI = 'true';
  const run = spawnSync(process.execPath, [VITEST, 'run', '--root', 'test/fixtures/ci-gate'], { cwd: ROOT, env, encoding: 'utf8', timeout: 120_000 });
  return { status: run.status, output: run.stdout + run.stderr };
}

describe('a suite whose tool is missing', () => {
  it('skips with the reason printed on a developer machine, and fails under CI=true naming what to install', { tags: ['slow'], timeout: 120_000 }, () => {
    const local = runGate(false);
    expect(local.status).toBe(0);
    expect(local.output).toContain('skipped: the example suite: install the example tool');
    expect(local.output).toMatch(/1 skipped/);
    const ci = runGate(true);
    expect(ci.status).toBe(1);
    expect(ci.output).toContain('the example suite (CI=true: a suite that cannot run fails)');
    expect(ci.output).toContain('the example suite cannot run here: install the example tool');
  });
});
