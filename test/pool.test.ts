// Worker threads: results in input order, a crashed or throwing worker is an error that loses nothing.
import { availableParallelism } from 'node:os';
import { describe, it, expect, afterAll } from 'vitest';
import { parseRobots, RobotsPool, RobotsError, checkChunksInOrder } from '../dist/src/node/index.js';
import { robotstxt, tempDir } from './cli-helpers.js';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

const encode = (text: string): Uint8Array => new TextEncoder().encode(text);
const decode = (bytes: Uint8Array): string => new TextDecoder().decode(bytes);
const matcher = parseRobots('User-agent: *\nDisallow: /private\n').matcher('bot');
const pools: RobotsPool[] = [];

/** A LineChunkSource handing out these chunks, one per call, written into the caller's buffer. */
function chunkSource(chunks: string[]): { next(target: Uint8Array): Promise<Uint8Array | null> } {
  let index = 0;
  return {
    next: async (target) => {
      if (index === chunks.length) return null;
      const bytes = encode(chunks[index++]);
      target.set(bytes);
      return target.subarray(0, bytes.length);
    },
  };
}
afterAll(async () => { for (const pool of pools) await pool.close(); });

describe('RobotsPool', () => {
  it('returns every batch\'s verdicts and output for that batch, whatever the completion order', async () => {
    const pool = new RobotsPool({ threads: 2 });
    pools.push(pool);
    const batches = Array.from({ length: 40 }, (_, i) => Array.from({ length: 1 + (i * 37) % 500 }, (_, k) => (k % 3 === 0 ? `/private/${i}/${k}` : `/page/${i}/${k}`)));
    const results = await Promise.all(batches.map((lines, i) => {
      const bytes = encode(lines.join('\n') + '\n');
      if (i % 2 === 0) return pool.checkLines(matcher, bytes);
      const shared = new Uint8Array(new SharedArrayBuffer(bytes.length)); // read in place by the worker
      shared.set(bytes);
      return pool.checkLines(matcher, shared);
    }));
    results.forEach((result, i) => {
      const lines = batches[i];
      expect([...result.verdicts]).toEqual(lines.map((url) => (url.startsWith('/private') ? 2 : 1)));
      expect(decode(result.output)).toBe(lines.map((url) => `${url.startsWith('/private') ? 'disallowed' : 'allowed'}\t${url}\n`).join(''));
    });
  });
  it('leaves the caller\'s bytes usable (a copy is moved to the worker)', async () => {
    const pool = new RobotsPool({ threads: 1 });
    pools.push(pool);
    const lines = encode('/private\n/x\n');
    await pool.checkLines(matcher, lines);
    expect(decode(lines)).toBe('/private\n/x\n');
  });
  it('a worker that crashes or throws rejects with WORKER_FAILED, and the pool goes on working', async () => {
    const pool = new RobotsPool({ threads: 2, workerUrl: new URL('./fixtures/crashing-worker.mjs', import.meta.url) });
    pools.push(pool);
    for (const marker of ['CRASH', 'THROW']) {
      let caught: unknown = null;
      try { await pool.checkLines(matcher, encode(`/${marker}\n`)); } catch (error) { caught = error; }
      expect(caught).toBeInstanceOf(RobotsError);
      expect((caught as RobotsError).code).toBe('WORKER_FAILED');
    }
    const after = await pool.checkLines(matcher, encode('/private\n/ok\n'));
    expect([...after.verdicts]).toEqual([2, 1]);
  });
  it('rejects a bad thread count: below 1 or above 4 per core', () => {
    const cores = availableParallelism();
    expect(() => new RobotsPool({ threads: 0 })).toThrow(`threads must be a whole number from 1 to ${4 * cores} (4 x ${cores} cores), got 0`);
    expect(() => new RobotsPool({ threads: 4 * cores + 1 })).toThrow(`threads must be a whole number from 1 to ${4 * cores} (4 x ${cores} cores), got ${4 * cores + 1}`);
  });
});

describe('checkChunksInOrder', () => {
  it('keeps input order and recomputes a chunk whose worker crashed: no line lost or written twice', async () => {
    const pool = new RobotsPool({ threads: 2, workerUrl: new URL('./fixtures/crashing-worker.mjs', import.meta.url) });
    pools.push(pool);
    const chunks = Array.from({ length: 12 }, (_, i) => `/private/${i}\n/page/${i}\n${i === 5 ? '/CRASH\n' : ''}${i === 8 ? '/THROW\n' : ''}`);
    const source = chunkSource(chunks);
    const stats = { chunks: 0, recomputed: 0, matchedHere: 0 };
    const outputs: string[] = [];
    for await (const { bytes, release } of checkChunksInOrder(pool, matcher, source, 'all', stats, 4096)) {
      outputs.push(decode(bytes));
      release();
    }
    const expected = chunks.map((chunk) => chunk.split('\n').filter((l) => l !== '').map((url) => `${url.startsWith('/private') ? 'disallowed' : 'allowed'}\t${url}\n`).join(''));
    expect(outputs).toEqual(expected);
    expect(stats).toEqual({ chunks: 12, recomputed: 2, matchedHere: 0 });
  });
  it('with helpHere the calling thread matches chunks too, in order', async () => {
    const pool = new RobotsPool({ threads: 1 });
    pools.push(pool);
    const chunks = Array.from({ length: 30 }, (_, i) => `/private/${i}\n/page/${i}\n`);
    const source = chunkSource(chunks);
    const stats = { chunks: 0, recomputed: 0, matchedHere: 0 };
    const outputs: string[] = [];
    for await (const { bytes, release } of checkChunksInOrder(pool, matcher, source, 'all', stats, 4096, true)) {
      outputs.push(decode(bytes));
      release();
    }
    expect(outputs).toEqual(chunks.map((_, i) => `disallowed\t/private/${i}\nallowed\t/page/${i}\n`));
    expect(stats.chunks).toBe(30);
    expect(stats.matchedHere).toBeGreaterThan(0);
    expect(stats.matchedHere).toBeLessThan(30);
  });
});

describe('robotstxt check --threads', () => {
  const dir = tempDir();
  const robots = join(dir, 'robots.txt');
  writeFileSync(robots, 'User-agent: *\nDisallow: /private\nDisallow: /*.pdf$\n');
  const lines: string[] = [];
  for (let i = 0; i < 60_000; i++) lines.push(i % 4 === 0 ? `https://e.com/private/${i}` : i % 4 === 1 ? `https://e.com/doc/${i}.pdf` : `https://e.com/page/${'p'.repeat(i % 40)}/${i}`);
  const input = lines.join('\n') + '\n'; // about 2.5 MB: several 1 MiB chunks, so the pool really runs
  it('gives the same output, in order, with 1 and 2 threads', () => {
    const one = robotstxt(['check', '--robots', robots, '--agent', 'x', '--threads', '1'], input);
    const two = robotstxt(['check', '--robots', robots, '--agent', 'x', '--threads', '2'], input);
    expect(one.status).toBe(0);
    expect(two.status).toBe(0);
    expect(two.stdout).toBe(one.stdout);
    const out = one.stdout.split('\n');
    expect(out.length).toBe(lines.length + 1);
    expect(out[0]).toBe('disallowed\thttps://e.com/private/0');
    expect(out[1]).toBe('disallowed\thttps://e.com/doc/1.pdf');
    expect(out[59_999]).toBe(`allowed\thttps://e.com/page/${'p'.repeat(59_999 % 40)}/59999`);
  });
  it('--threads outside 1 to 4 per core is a usage error (a huge count must not start workers until memory runs out)', () => {
    const cores = availableParallelism();
    for (const value of ['0', String(4 * cores + 1), '99999999999999999999']) {
      const r = robotstxt(['check', '--robots', robots, '--agent', 'x', '--threads', value], '');
      expect(r.stderr).toBe(`robotstxt: --threads must be a whole number from 1 to ${4 * cores} (4 x ${cores} cores), got '${value}'\n`);
      expect(r.status).toBe(2);
    }
  });
});
