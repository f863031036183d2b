// The one way tests find headless Chromium and the other runtimes, and what a suite does when one is absent:
// it skips with the reason printed (a developer's machine may lack them), except under CI=true, where a test
// that fails says what is missing (CI must not pass without the browser and runtime suites).
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { it } from 'vitest';

/**
 * Headless Chromium (apt-get install chromium; .ci/run installs it), or null. ROBOTSTXT_TEST_WITHOUT_CHROMIUM=1
 * runs the suite as on a machine without it (the suite must pass both ways).
 */
export const CHROMIUM: string | null = process.env.ROBOTSTXT_TEST_WITHOUT_CHROMIUM === '1' ? null : ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'].find((path) => existsSync(path)) ?? null;

/** Chromium's flags for every test: headless, no sandbox (containers), nothing fetched behind the test's back; a profile of its own when given. */
export function chromiumFlags(profile?: string): string[] {
  const flags = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'];
  return profile === undefined ? flags : [...flags, `--user-data-dir=${profile}`];
}

/**
 * Headless Chromium driven through puppeteer-core, for the suites that script a page. No launch timer of its
 * own (puppeteer's 30 s ran out once while every test file ran beside it on two cores): the calling hook's or
 * test's limit bounds the wait. Once per suite or test.
 */
export async function launchChromium(): Promise<import('puppeteer-core').Browser> {
  const { default: puppeteer } = await import('puppeteer-core');
  return puppeteer.launch({ executablePath: CHROMIUM as string, args: chromiumFlags(), timeout: 0 });
}

/** Bun, Deno and workerd as `npm run runtimes` installs them (into .runtimes/), by name. */
export function runtimePath(root: string, name: 'bun' | 'deno' | 'workerd'): string {
  return join(root, '.runtimes', 'node_modules', '.bin', name);
}

/**
 * Whether a suite that needs a tool can run (`present`): when it cannot, it skips and the reason is printed,
 * or under CI=true a test named after the suite fails, saying what to install. Call at a test file's top
 * level, and skip the suite when it returns false.
 */
export function canRun(present: boolean, suite: string, install: string): boolean {
  if (present) return true;
  if (process.env.CI === 'true') {
    it(`${suite} (CI=true: a suite that cannot run fails)`, () => {
      throw new Error(`${suite} cannot run here: ${install}`);
    });
  } else {
    console.warn(`skipped: ${suite}: ${install}`);
  }
  return false;
}
