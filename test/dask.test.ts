// The Dask recipes of "Beyond one machine" run as a cluster job runs them: examples/dask-check.py reads URL
// dumps with dask.bag.read_text in blocks and pipes each partition through robotstxt check as it is (no
// shuffle), examples/dask-audit.py audits each partition (--format partial) and merges the parts; each
// output equals one process's over the same input, byte for byte. Needs Debian's python3-distributed
// (/usr/bin/python3): skipped with the reason printed where it is absent; .ci/run installs it, and under
// CI=true a missing Dask fails the suite.
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
const ROBOTSTXT = { ...process.env, ROBOTSTXT: `${process.execPath} ${CLI}` };

function shuffled<T>(items: T[], seed: number): T[] {
  const random = seededRandom(seed);
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

describe.skipIf(!canRun(daskPresent, 'the Dask examples', 'apt-get install python3-distributed (.ci/run installs it)'))('examples/dask-check.py (a folder or a pack) and dask-audit.py on a Dask LocalCluster', { tags: ['slow'] }, () => {
  it('check: dumps read by read_text in blocks (a glob of two files), each block piped through robotstxt check: one process\'s output, byte for byte; its notes passed on by partition', () => {
    // the example's URLs 40 times over in a seeded random order, with lines the URL model reads in odd ways,
    // a URL with U+2028 (no line break but LF splits lines), bytes that are no UTF-8, and lines naming no host
    const base = readFileSync(join(ROOT, 'examples', 'hosts-urls.txt'), 'utf8').split('\n').filter((line) => line !== '');
    const lines = shuffled([...Array.from({ length: 40 }, () => base).flat(), 'HTTPS://NEWS.EXAMPLE/Products/x', 'https://news.example:443/a', 'http://user@docs.example/cart/', 'not a url', '', 'https://unknown.example/x', 'https://shop.example/cart\u2028https://shop.example/ok'], 36);
    const dir = tempDir();
    const half = Math.floor(lines.length / 2);
    const first = Buffer.concat([Buffer.from(lines.slice(0, half).join('\n') + '\n'), Buffer.from('https://shop.example/\xff\xfe/cart\n', 'latin1')]);
    const second = Buffer.from(lines.slice(half).join('\n')); // no LF after its last line
    writeFileSync(join(dir, 'dump-1.txt'), first);
    writeFileSync(join(dir, 'dump-2.txt'), second);
    const whole = join(dir, 'whole.txt');
    writeFileSync(whole, Buffer.concat([first, second]));
    const dask = spawnSync(PYTHON, [join(ROOT, 'examples', 'dask-check.py'), join(dir, 'dump-*.txt'), join(ROOT, 'examples', 'robots'), 'Googlebot', '--blocksize', '8KiB'], { cwd: ROOT, encoding: 'latin1', timeout: 120_000, env: ROBOTSTXT });
    expect(dask.status, dask.stderr.slice(-2000)).toBe(0);
    const one = robotstxt(['check', '--robots-dir', join(ROOT, 'examples', 'robots'), '--agent', 'Googlebot', whole]);
    expect(one.status).toBe(0);
    expect(dask.stdout.split('\n').length).toBe(lines.length + 2);
    expect(dask.stdout).toBe(one.stdout);
    // the lines that name no host are said by the partitions that had them
    expect(dask.stderr).toMatch(/^partition \d+: robotstxt: /m);
    // a pack in place of the folder: the same output, byte for byte
    const pack = join(dir, 'robots.pack');
    expect(robotstxt(['pack', '--robots-dir', join(ROOT, 'examples', 'robots'), '--out', pack]).status).toBe(0);
    const packed = spawnSync(PYTHON, [join(ROOT, 'examples', 'dask-check.py'), join(dir, 'dump-*.txt'), pack, 'Googlebot', '--blocksize', '8KiB'], { cwd: ROOT, encoding: 'latin1', timeout: 120_000, env: ROBOTSTXT });
    expect(packed.status, packed.stderr.slice(-2000)).toBe(0);
    expect(packed.stdout).toBe(one.stdout);
    expect(robotstxt(['check', '--pack', pack, '--agent', 'Googlebot', whole]).stdout).toBe(one.stdout);
  }, 240_000);
  it('check --out DIR: one file per partition, together one process\'s output; a command that cannot be found: one line, exit 2', () => {
    const dir = tempDir();
    const dump = join(dir, 'urls.txt');
    writeFileSync(dump, shuffled(readFileSync(join(ROOT, 'examples', 'hosts-urls.txt'), 'utf8').split('\n').filter((line) => line !== ''), 3).join('\n').repeat(20) + '\n');
    const out = join(dir, 'out');
    const dask = spawnSync(PYTHON, [join(ROOT, 'examples', 'dask-check.py'), dump, join(ROOT, 'examples', 'robots'), 'Googlebot', '--blocksize', '4KiB', '--out', out], { cwd: ROOT, encoding: 'utf8', timeout: 120_000, env: ROBOTSTXT });
    expect(dask.status, dask.stderr.slice(-2000)).toBe(0);
    const parts = spawnSync('sh', ['-c', `cat ${out}/part-*.txt`], { encoding: 'utf8' }).stdout;
    expect(parts).toBe(robotstxt(['check', '--robots-dir', join(ROOT, 'examples', 'robots'), '--agent', 'Googlebot', dump]).stdout);
    expect(spawnSync('sh', ['-c', `ls ${out} | wc -l`], { encoding: 'utf8' }).stdout.trim()).not.toBe('1');
    for (const script of ['dask-check.py', 'dask-audit.py']) {
      const args = script === 'dask-check.py' ? [dump, 'robots', 'Googlebot'] : [dump, '--', '--robots', 'robots.txt'];
      const missing = spawnSync(PYTHON, [join(ROOT, 'examples', script), ...args], { cwd: ROOT, encoding: 'utf8', timeout: 60_000, env: { ...process.env, ROBOTSTXT: '/nonexistent/robotstxt' } });
      expect([missing.status, missing.stdout, missing.stderr], script).toEqual([2, '', `${script}: the robotstxt command was not found (/nonexistent/robotstxt): install robotstxt-wasm, or set ROBOTSTXT to the command\n`]);
    }
  }, 150_000);
  it('audit: each partition audited apart (--format partial), the parts merged: one process\'s report over the same logs, byte for byte (JSON, and the table with --verify)', () => {
    // a log of the examples' requests 30 times over in a seeded order, with a malformed line in it
    const base = [...readFileSync(join(ROOT, 'examples', 'access.log'), 'utf8').split('\n'), ...readFileSync(join(ROOT, 'examples', 'logs', 'bots.log'), 'utf8').split('\n')].filter((line) => line !== '');
    const logLines = shuffled(Array.from({ length: 30 }, () => base).flat(), 9);
    logLines.splice(1234, 0, 'not a log line');
    const dir = tempDir();
    const log = join(dir, 'access.log');
    writeFileSync(log, logLines.join('\n') + '\n');
    const robots = join(ROOT, 'examples', 'shop-robots.txt');
    for (const [options, format] of [[['--robots', robots], 'json'], [['--robots', robots, '--verify', '--crawler-ranges', join(ROOT, 'examples', 'crawler-ranges')], 'table']] as const) {
      const dask = spawnSync(PYTHON, [join(ROOT, 'examples', 'dask-audit.py'), log, '--blocksize', '64KiB', '--', ...options, '--format', format], { cwd: ROOT, encoding: 'utf8', timeout: 120_000, env: ROBOTSTXT });
      expect(dask.status, dask.stderr.slice(-2000)).toBe(0);
      const one = robotstxt(['audit', ...options, '--format', format, '-'], readFileSync(log));
      expect(one.status).toBe(0);
      expect(dask.stdout, format).toBe(one.stdout);
      expect(one.stderr).toMatch(/^robotstxt: 31 malformed log line\(s\) skipped \(-:\d+, .*-:1235, /);
      expect(dask.stderr).toContain(one.stderr); // the merge says it as the one process does, the lines numbered as in the whole
    }
  }, 150_000);
});
