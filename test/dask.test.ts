// The Dask recipe of "Beyond one machine" runs: examples/dask-check.py filters a URL dump with robotstxt check
// on a Dask LocalCluster of two worker processes, partitioned by host, and its output equals one robotstxt
// check process's, byte for byte. Needs Debian's python3-distributed (/usr/bin/python3): skipped with the
// reason printed where it is absent; .ci/run installs it, and under CI=true a missing Dask fails the suite.
import { describe, it, expect } from 'vitest';
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CLI, robotstxt, tempDir } from './cli-helpers.js';
import { canRun } from './browser.js';
import { seededRandom } from '../bench/data.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const PYTHON = '/usr/bin/python3';
const daskPresent = spawnSync(PYTHON, ['-c', 'import dask.bag, distributed'], { encoding: 'utf8' }).status === 0;

describe.skipIf(!canRun(daskPresent, 'the Dask example', 'apt-get install python3-distributed (.ci/run installs it)'))('examples/dask-check.py on a Dask LocalCluster', () => {
  it('its output equals one robotstxt check process\'s, line for line, on a dump of many hosts in random order', () => {
    // the example's URLs 40 times over in a seeded random order, with lines the URL model reads in odd ways
    const base = readFileSync(join(ROOT, 'examples', 'hosts-urls.txt'), 'utf8').split('\n').filter((line) => line !== '');
    const lines = Array.from({ length: 40 }, () => base).flat();
    lines.push('HTTPS://NEWS.EXAMPLE/Products/x', 'https://news.example:443/a', 'http://user@docs.example/cart/', 'not a url', '', 'https://unknown.example/x');
    const random = seededRandom(36);
    for (let i = lines.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [lines[i], lines[j]] = [lines[j], lines[i]];
    }
    const dump = join(tempDir(), 'urls.txt');
    writeFileSync(dump, lines.join('\n') + '\n');
    const dask = spawnSync(PYTHON, [join(ROOT, 'examples', 'dask-check.py'), dump, join(ROOT, 'examples', 'robots'), 'Googlebot'], {
      cwd: ROOT, encoding: 'utf8', timeout: 120_000, env: { ...process.env, ROBOTSTXT: `${process.execPath} ${CLI}` },
    });
    expect(dask.status, dask.stderr.slice(-2000)).toBe(0);
    const one = robotstxt(['check', '--robots-dir', join(ROOT, 'examples', 'robots'), '--agent', 'Googlebot', dump]);
    expect(one.status).toBe(0);
    expect(dask.stdout.split('\n').length).toBe(lines.length + 1);
    expect(dask.stdout).toBe(one.stdout);
  }, 150_000);
});
