// Worker threads: results in input order, a crashed or throwing worker is an error that loses nothing.
import { availableParallelism } from 'node:os';
import { describe, it, expect, afterAll } from 'vitest';
import { Writable } from 'node:stream';
import { parseRobots, RobotsPool, RobotsError, runCheck } from '../dist/src/node/index.js';
import { ThisThreadAnswerer, RobotsWorkersAnswerer } from '../dist/src/node/check/index.js';
import { InOrderWriter } from '../dist/src/node/check/index.js';
import { SharedSlotRing } from '../dist/src/node/threads/index.js';
import { encodeReply, decodeReply, REPLY_HEADER_WORDS } from '../dist/src/node/threads/index.js';
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

describe('worker reply codec', () => {
  const verdicts = Uint8Array.of(1, 2, 2);
  const output = encode('allowed\t/a\ndisallowed\t/b\n');
  const stats = { compiled: 1, direct: 2, missing: 3, allowAll: 4, disallowAll: 5, evicted: 6, cachedHosts: 7, cacheBytes: 8, cutBodies: 9, packed: 10, packHeldBytes: 11 };
  it('a hosts reply decodes to what was encoded, written into the slot when it fits', () => {
    const slot = new Uint8Array(new SharedArrayBuffer(256));
    const packed = encodeReply(verdicts, output, { noHostLines: 10, noHostExamples: [0, 4, 7], hosts: 11, runs: 12, stats }, slot);
    expect(packed.buffer).toBe(slot.buffer);
    expect(packed.length).toBe(REPLY_HEADER_WORDS * 4 + 3 + output.length);
    const reply = decodeReply(packed);
    expect([...reply.verdicts]).toEqual([1, 2, 2]);
    expect(decode(reply.output)).toBe('allowed\t/a\ndisallowed\t/b\n');
    expect({ noHostLines: reply.noHostLines, noHostExamples: reply.noHostExamples, hosts: reply.hosts, runs: reply.runs, stats: reply.stats }).toEqual({ noHostLines: 10, noHostExamples: [0, 4, 7], hosts: 11, runs: 12, stats });
  });
  it('a lines reply has zero counters; a slot too small or not 4-byte aligned gets a new buffer', () => {
    const small = new Uint8Array(REPLY_HEADER_WORDS * 4 + 3);
    const moved = encodeReply(verdicts, output, null, small);
    expect(moved.buffer).not.toBe(small.buffer);
    const misaligned = new Uint8Array(512).subarray(2);
    expect(encodeReply(verdicts, output, null, misaligned).buffer).not.toBe(misaligned.buffer);
    const reply = decodeReply(moved);
    expect(decode(reply.output)).toBe('allowed\t/a\ndisallowed\t/b\n');
    expect([reply.noHostLines, reply.hosts, reply.runs, ...Object.values(reply.stats)]).toEqual(new Array(14).fill(0));
  });
});

describe('check\'s answerers and in-order writer', () => {
  /** Answers the chunks as the check pipeline does with one robots.txt: each read into a shared slot, answered by a worker, written in order. */
  async function answerInWorkers(pool: RobotsPool, chunks: string[]): Promise<{ text: string; counts: { chunksInWorkers: number; recomputed: number; noHostLines: number } }> {
    await pool.ready();
    const counts = { chunksInWorkers: 0, recomputed: 0, noHostLines: 0 };
    const spec = { format: 'text' as const, only: 'all' as const };
    const here = new ThisThreadAnswerer({ matcher }, spec, counts, 4096);
    const workers = new RobotsWorkersAnswerer(pool, matcher, spec, counts, here);
    const ring = new SharedSlotRing(6, 4096);
    const written: Buffer[] = [];
    const writer = new InOrderWriter(new Writable({ write(chunk, _encoding, done) { written.push(Buffer.from(chunk)); done(); } }), 4);
    const source = chunkSource(chunks);
    for (let index = 0; ; index++) {
      const slot = await ring.acquire();
      const urls = await source.next(slot.input);
      if (urls === null) break;
      await writer.add(workers.answer({ urls, firstNumber: 1, numbers: null, slot, index }), () => ring.release(slot));
    }
    await writer.finish();
    return { text: Buffer.concat(written).toString(), counts };
  }
  it('keeps input order and answers again on this thread a chunk whose worker crashed or threw: no line lost or written twice', async () => {
    const pool = new RobotsPool({ threads: 2, workerUrl: new URL('./fixtures/crashing-worker.mjs', import.meta.url) });
    pools.push(pool);
    const chunks = Array.from({ length: 12 }, (_, i) => `/private/${i}\n/page/${i}\n${i === 5 ? '/CRASH\n' : ''}${i === 8 ? '/THROW\n' : ''}`);
    const { text, counts } = await answerInWorkers(pool, chunks);
    const expected = chunks.map((chunk) => chunk.split('\n').filter((l) => l !== '').map((url) => `${url.startsWith('/private') ? 'disallowed' : 'allowed'}\t${url}\n`).join('')).join('');
    expect(text).toBe(expected);
    expect(counts).toEqual({ chunksInWorkers: 10, recomputed: 2, noHostLines: 0 });
  });
  it('runCheck with threads answers on this thread until the workers are ready, then in them; the output is in input order', async () => {
    // chunks come every 2 ms until the worker says it is ready, then 200 more
    const channel = new BroadcastChannel('robotstxt-test-workers');
    let readyAt = -1;
    const lines: string[] = [];
    channel.onmessage = () => { readyAt = lines.length; };
    const source = {
      next: async (target: Uint8Array) => {
        if ((readyAt >= 0 && lines.length >= readyAt + 200) || lines.length >= 20_000) return null;
        await new Promise((resolve) => setTimeout(resolve, 2));
        const i = lines.length;
        lines.push(`disallowed\t/private/${i}\nallowed\t/page/${i}\n`);
        const bytes = encode(`/private/${i}\n/page/${i}\n`);
        target.set(bytes);
        return target.subarray(0, bytes.length);
      },
    };
    const written: Buffer[] = [];
    const output = new Writable({ write(chunk, _encoding, done) { written.push(Buffer.from(chunk)); done(); } });
    const plan = { target: { kind: 'robots' as const, matcher }, threads: 2, format: 'text' as const, only: 'all' as const, log: null, inputBytes: 1 << 30, chunkBytes: 4096, workerUrl: new URL('./fixtures/announcing-worker.mjs', import.meta.url) };
    const outcome = await runCheck(source, plan, output, () => undefined);
    channel.close();
    expect(Buffer.concat(written).toString()).toBe(lines.join(''));
    expect(outcome.chunks).toBe(lines.length);
    expect(outcome.lines).toBe(2 * lines.length);
    expect(outcome.recomputed).toBe(0);
    // the first chunk is read before the worker has started; after it has, a chunk waits for none
    expect(outcome.chunksInWorkers).toBeGreaterThan(0);
    expect(outcome.chunksInWorkers).toBeLessThan(lines.length);
    expect(outcome.threadsUsed).toBe(2);
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
      expect(r.stderr).toBe(`robotstxt: --threads must be a whole number from 1 to ${4 * cores}, got '${value}'\n`);
      expect(r.status).toBe(2);
    }
  });
});
