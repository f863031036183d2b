// Many hosts on worker threads (src/node/check/answerers.ts HostShardsAnswerer): a window is split into
// buckets of hosts that the threads take as they get free, so a worker that is slow to start leaves its share
// to this thread, and a worker that fails leaves its buckets to it; the output is one thread's either way.
import { describe, it, expect } from 'vitest';
import { writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { matcherForSpec, type HostsSpec } from '../dist/src/node/hosts/index.js';
import { HostShardPool } from '../dist/src/node/threads/index.js';
import { HostShardsAnswerer, type AnswerCounts } from '../dist/src/node/check/index.js';
import '../dist/src/node/core-node.js'; // the WebAssembly core, loaded from build/
import { core } from '../dist/src/core/wasm/core.js';
import { Writable } from 'node:stream';
import { runCheck, type CheckOutcome } from '../dist/src/node/index.js';
import { HostsThreadsPace } from '../dist/src/node/check/index.js';
import { tempDir } from './cli-helpers.js';
import { until } from './helpers.js';

const HOSTS = 400;
const dir = join(tempDir(), 'robots');
mkdirSync(dir);
for (let h = 0; h < HOSTS; h++) writeFileSync(join(dir, `h${h}.example.txt`), `User-agent: *\nDisallow: /private${h % 7}/\nAllow: /private${h % 7}/open\n`);
const lines: string[] = [];
for (let i = 0; i < 5; i++) for (let h = 0; h < HOSTS; h++) lines.push(`https://h${h}.example/${['private', 'public'][i % 2]}${h % 7}/${i === 4 ? 'open' : 'page'}${i}`);
/** What one thread writes for these URLs: every host disallows /privateN/ but its page named open. */
const verdictLines = (list: string[]): string => list.map((url) => `${/^https:\/\/[^/]+\/private\d\/page/.test(url) ? 'disallowed' : 'allowed'}\t${url}\n`).join('');
const expected = verdictLines(lines);
const urls = new TextEncoder().encode(lines.join('\n') + '\n');
const spec: HostsSpec = { directory: dir, agents: ['Googlebot'], reading: { mode: 'google', maxBytes: 0 }, cacheBytes: 16 << 20, missing: 'allow', noHost: 'allow', now: Date.now() };
const decode = (bytes: Uint8Array): string => new TextDecoder().decode(bytes);

/** The hosts of each of the 16 buckets two threads split a window into (8 per thread). */
function hostsOfBuckets(): Set<string>[] {
  const { shards } = core().lineChunks.splitLinesByHost(urls, 16);
  return shards.map((shard) => new Set(decode(shard).split('\n').filter((line) => line !== '').map((line) => new URL(line).host)));
}

describe('many hosts on two threads: buckets taken as threads get free', () => {
  it('a worker still starting is given two buckets; this thread answers the other fourteen, then the output is one thread\'s', async () => {
    const hosts = matcherForSpec(spec);
    const goFile = join(dir, '..', 'go');
    process.env.ROBOTSTXT_TEST_GO_FILE = goFile; // (workers copy the environment when they start)
    const pool = new HostShardPool(1, spec, new URL('./fixtures/late-worker.mjs', import.meta.url));
    delete process.env.ROBOTSTXT_TEST_GO_FILE;
    const counts: AnswerCounts = { chunksInWorkers: 0, recomputed: 0, noHostLines: 0 };
    const answerer = new HostShardsAnswerer(pool, hosts, { format: 'text', only: 'all' }, counts);
    const buckets = hostsOfBuckets();
    // the worker's own buckets are the odd ones; it is given its first two (1 and 3) and this thread takes
    // the rest, its own and the worker's, while the worker waits to start
    const workerHosts = new Set([...buckets[1], ...buckets[3]]);
    const workerLines = lines.filter((url) => workerHosts.has(new URL(url).host)).length;
    const answer = answerer.answer({ urls, firstNumber: 1, numbers: null, slot: null, index: 0 });
    await until(() => hosts.stats.lines === lines.length - workerLines, 'this thread to answer fourteen buckets');
    expect(hosts.stats.direct).toBe(HOSTS - workerHosts.size);
    writeFileSync(goFile, '');
    const done = await answer;
    expect(decode(done.output)).toBe(expected);
    expect(done.lines).toBe(lines.length);
    const [worker] = [...answerer.workerCountersNow()];
    expect(worker.direct).toBe(workerHosts.size);
    expect(counts).toEqual({ chunksInWorkers: 1, recomputed: 0, noHostLines: 0 });
    // the next window: each bucket is offered first to the thread that answered it (its hosts are cached
    // there); whoever answers, the output is the same
    const again = await answerer.answer({ urls, firstNumber: 1, numbers: null, slot: null, index: 1 });
    expect(decode(again.output)).toBe(expected);
    await pool.close();
    hosts.close();
  });

  it('a worker that throws on a bucket leaves it to this thread: every line answered once, in order', async () => {
    const hosts = matcherForSpec(spec);
    const pool = new HostShardPool(1, spec, new URL('./fixtures/crashing-worker.mjs', import.meta.url));
    const counts: AnswerCounts = { chunksInWorkers: 0, recomputed: 0, noHostLines: 0 };
    const answerer = new HostShardsAnswerer(pool, hosts, { format: 'text', only: 'all' }, counts);
    // the worker is always given its first bucket (1): THROW in the path of one of its hosts makes it throw there
    const [host] = hostsOfBuckets()[1];
    const marked = lines.map((url) => url.replace(`//${host}/`, `//${host}/THROW`));
    const done = await answerer.answer({ urls: new TextEncoder().encode(marked.join('\n') + '\n'), firstNumber: 1, numbers: null, slot: null, index: 0 });
    expect(decode(done.output)).toBe(verdictLines(marked));
    expect(done.lines).toBe(lines.length);
    expect(counts.recomputed).toBe(1);
    await pool.close();
    hosts.close();
  });
});

describe('many hosts on two threads: workers start when the work to come is long, and go when they do not pay (HostsThreadsPace)', () => {
  /** A check run over `lines` in chunks of 250 lines, with a pace given; its output and outcome. */
  async function checkInChunks(pace: HostsThreadsPace): Promise<{ output: string; outcome: CheckOutcome }> {
    const chunks: Uint8Array[] = [];
    for (let i = 0; i < lines.length; i += 250) chunks.push(new TextEncoder().encode(lines.slice(i, i + 250).join('\n') + '\n'));
    let next = 0;
    const source = { next: async (): Promise<Uint8Array | null> => (next < chunks.length ? chunks[next++] : null), get atEnd(): boolean { return next === chunks.length; } };
    const written: Buffer[] = [];
    const output = new Writable({ write(chunk: Buffer, _encoding, done) { written.push(Buffer.from(chunk)); done(); } }); // (a copy: the answers are views of buffers reused)
    const outcome = await runCheck(source, { target: { kind: 'hosts', spec: { ...spec, cacheBytes: 64 << 20 } }, threads: 2, format: 'text', only: 'all', log: null, inputBytes: null, hostsThreadsPace: pace }, output, () => undefined);
    return { output: Buffer.concat(written).toString('utf8'), outcome };
  }

  it('judged not to pay after their windows, workers are let go: this thread answers the rest alone with the whole cache, and the output is one thread\'s', async () => {
    class LetGoAfterTwo extends HostsThreadsPace {
      windowsWithWorkers = 0;
      constructor() { super(0); }
      override record(bytes: number, ms: number, withWorkers: boolean): void {
        super.record(bytes, ms, withWorkers);
        if (withWorkers) this.windowsWithWorkers++;
      }
      override shouldStop(): boolean { return this.windowsWithWorkers === 2; }
    }
    const pace = new LetGoAfterTwo();
    const { output, outcome } = await checkInChunks(pace);
    expect(output).toBe(expected);
    expect([outcome.chunks, outcome.chunksInWorkers, outcome.threadsUsed, outcome.lines]).toEqual([8, 2, 2, lines.length]);
    expect(pace.windowsWithWorkers).toBe(2);
  });

  it('the default pace: a pipe answered alone for less than 2 s starts no worker; told to start at once, workers take every window', async () => {
    const alone = await checkInChunks(new HostsThreadsPace());
    expect(alone.output).toBe(expected);
    expect([alone.outcome.chunksInWorkers, alone.outcome.threadsUsed]).toEqual([0, 1]);
    const atOnce = await checkInChunks(new HostsThreadsPace(0));
    expect(atOnce.output).toBe(expected);
    expect([atOnce.outcome.chunksInWorkers, atOnce.outcome.threadsUsed]).toEqual([8, 2]);
  });

  it('the pace: workers start when the bytes to come, at this thread\'s pace, take long enough; judged after their first window, they stay when their windows come faster, go when not', () => {
    const pace = new HostsThreadsPace(2000);
    expect(pace.shouldStart(0, 100 << 20)).toBe(false); // nothing answered yet: no pace
    pace.record(1 << 20, 500, false); // 1 MiB in 0.5 s alone
    expect(pace.shouldStart(1 << 20, 4 << 20)).toBe(false); // 3 MiB to come: 1.5 s
    expect(pace.shouldStart(1 << 20, 5 << 20)).toBe(true); // 4 MiB to come: 2 s
    expect(pace.shouldStart(1 << 20, null)).toBe(false); // a pipe: 0.5 s answered so far
    pace.record(3 << 20, 1500, false);
    expect(pace.shouldStart(4 << 20, null)).toBe(true); // 2 s answered alone
    const faster = new HostsThreadsPace(2000);
    faster.record(1 << 20, 500, false);
    faster.record(1 << 20, 5000, true); // the first window with workers (their start) is not judged
    faster.record(1 << 20, 300, true);
    expect(faster.shouldStop()).toBe(false); // judged after two windows
    faster.record(1 << 20, 300, true);
    expect(faster.shouldStop()).toBe(false); // 0.3 s a MiB against 0.5: they stay
    const slower = new HostsThreadsPace(2000);
    slower.record(1 << 20, 500, false);
    slower.record(1 << 20, 100, true);
    slower.record(1 << 20, 500, true);
    slower.record(1 << 20, 600, true);
    expect(slower.shouldStop()).toBe(true); // 0.55 s a MiB: no faster
    expect(slower.shouldStop()).toBe(false); // judged once
  });
});
