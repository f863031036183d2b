// Worker threads: one compiled WebAssembly module shared by every worker (each instantiates it once).
// piscina does the thread management (it also fails the task of a worker that exits, which tinypool 2
// leaves pending). Two pools:
// - RobotsPool: any worker takes any batch of lines for one compiled matcher (one robots.txt);
// - HostShardPool: one single-thread pool per shard of hosts, so that a host's lines always reach the
//   thread that has its robots.txt compiled (each thread its own cache).
import { availableParallelism } from 'node:os';
import { createRequire } from 'node:module';
import type { Piscina } from 'piscina';
import { maxThreads } from './thread-limit.js';
import { RobotsError } from '../../core/errors.js';
import { wasmModule } from '../core-node.js';
import type { RobotsMatcher, OutputFilter } from '../../core/matcher.js';
import type { HostChunkResult, HostsSpec } from '../hosts/index.js';
import { decodeReply, type HostCounters } from './reply-codec.js';

export type { HostCounters } from './reply-codec.js';

/** How a batch is answered: text lines (all, or only those of one verdict), jsonl with the deciding rules, or verdicts only. */
export type OutputFormat = 'text' | 'jsonl' | 'none';

/** One batch of lines for one matcher (internal). */
export interface LinesTask {
  kind: 'lines';
  matcherId: number;
  blob: Uint8Array;
  /** The lines: a view of shared memory (read in place) or of a buffer moved to the worker. */
  input: Uint8Array;
  /** Shared memory for a text reply, or null: the worker then moves a new buffer back. */
  output: Uint8Array | null;
  only: OutputFilter;
  format: OutputFormat;
  /** jsonl "input" numbers: firstNumber + line index, or numbers[line index]. */
  firstNumber: number;
  numbers: Uint32Array | null;
}

export type { HostsSpec } from '../hosts/index.js';

/** One shard of a chunk for a hosts worker (internal). */
export interface HostsTask {
  kind: 'hosts';
  spec: HostsSpec;
  /** The shard's lines: a view of shared memory (read in place), or a buffer moved to the worker. */
  input: Uint8Array;
  format: OutputFormat;
  only: OutputFilter;
  numbers: Uint32Array | null;
}

/** A worker's first task: start (and with a spec, make the many-host matcher before the first shard comes). */
export interface WarmTask {
  kind: 'warm';
  spec?: HostsSpec;
}

/** Verdicts of a batch of lines, and its output when asked. */
export interface LinesResult {
  verdicts: Uint8Array;
  output: Uint8Array;
}

/** A hosts worker's reply: the shard's verdicts and output, and its thread's counters (a shard's order says nothing of the window's: no sortedByHost). */
export interface HostsReply extends Omit<HostChunkResult, 'sortedByHost'> {
  stats: HostCounters;
}

/** Bytes in shared memory: read and written in place by the main thread and a worker, never copied between them. */
const sharedBytes = (length: number): Uint8Array => new Uint8Array(new SharedArrayBuffer(length));

export interface PoolOptions {
  /** Worker threads (default: available cores). */
  threads?: number;
  /** The worker module (default: this package's worker; tests pass their own). */
  workerUrl?: URL;
}

// The worker runs from the built package (dist/src/node/threads/worker.js), also when these sources are run by tests.
const DEFAULT_WORKER = import.meta.url.endsWith('.ts') ? new URL('../../../dist/src/node/threads/worker.js', import.meta.url) : new URL('./worker.js', import.meta.url);

/** Upper bound of worker threads: a few per core (a typo such as --threads 99999999 must not exhaust memory). */
export { maxThreads };

function checkThreads(threads: number): void {
  if (!Number.isInteger(threads) || threads < 1 || threads > maxThreads()) {
    throw new RobotsError('INVALID_ARGUMENT', `threads must be a whole number from 1 to ${maxThreads()} (4 x ${availableParallelism()} cores), got ${String(threads)}`);
  }
}

// piscina is loaded when a pool is first made (its CommonJS build: synchronously), not when the package is
// imported: a run that never starts a worker does not pay the memory of the thread machinery.
const load = createRequire(import.meta.url);
/** Young generation of a worker's JavaScript heap (V8 otherwise grows it to 32 MiB or more). */
const WORKER_YOUNG_GENERATION_MB = 4;

/** tasksAhead: tasks posted to a worker before it answers the one it is on. */
function newPiscina(threads: number, workerUrl: URL | undefined, tasksAhead = 1): Piscina {
  const { Piscina: PiscinaClass } = load('piscina') as typeof import('piscina');
  // a small young generation: workers allocate little JavaScript (their work is in WebAssembly memory), and
  // V8's default lets each one reserve tens of MiB of it
  return new PiscinaClass({ filename: (workerUrl ?? DEFAULT_WORKER).href, minThreads: threads, maxThreads: threads, concurrentTasksPerWorker: tasksAhead, workerData: { module: wasmModule() }, resourceLimits: { maxYoungGenerationSizeMb: WORKER_YOUNG_GENERATION_MB } });
}

/** Resolves once every worker of the pool has started and answered (workers are then ready for real work). */
async function warmUp(pool: Piscina, threads: number, task: WarmTask = { kind: 'warm' }): Promise<void> {
  await Promise.all(Array.from({ length: threads }, () => pool.run(task)));
}

/** A pool of worker threads matching line batches of one matcher at a time. Made once per program; call close() when done. */
export class RobotsPool {
  readonly threads: number;
  private readonly pool: Piscina;
  private warmed: Promise<void> | null = null;

  constructor(options: PoolOptions = {}) {
    const threads = options.threads ?? availableParallelism();
    checkThreads(threads);
    this.threads = threads;
    this.pool = newPiscina(threads, options.workerUrl);
  }

  /** Resolves when every worker has started (before that, a task waits for its worker to start). */
  ready(): Promise<void> {
    this.warmed ??= warmUp(this.pool, this.threads);
    return this.warmed;
  }

  /**
   * Matches a batch of LF-separated lines in a worker and returns verdicts and output (text, every line or
   * `only` those of one verdict, or jsonl). Lines in a SharedArrayBuffer are read in place; others are copied once and the copy is moved.
   * `lines` stays usable either way. Called once per batch (a batch is typically 1 MiB).
   */
  async checkLines(matcher: RobotsMatcher, lines: Uint8Array, only: OutputFilter = 'all', replySlot: Uint8Array | null = null, format: OutputFormat = 'text', firstNumber = 1, numbers: Uint32Array | null = null): Promise<LinesResult> {
    let input = lines;
    const transferList: ArrayBuffer[] = [];
    if (!(lines.buffer instanceof SharedArrayBuffer)) {
      input = new Uint8Array(lines.length); // Buffer#slice would share memory: moving it would detach the caller's bytes
      input.set(lines);
      transferList.push(input.buffer as ArrayBuffer);
    }
    const task: LinesTask = { kind: 'lines', matcherId: matcher.id, blob: matcher.sharedBlob(), input, output: format === 'none' ? null : replySlot, only, format, firstNumber, numbers };
    let packed: Uint8Array;
    try {
      packed = (await this.pool.run(task, { transferList }) as Uint8Array | null) ?? (replySlot as Uint8Array);
    } catch (error) {
      throw new RobotsError('WORKER_FAILED', `a worker thread failed: ${(error as Error).message}`);
    }
    const reply = decodeReply(packed);
    return { verdicts: reply.verdicts, output: reply.output };
  }

  /** Stops the workers. */
  async close(): Promise<void> {
    await this.pool.close();
  }
}


/**
 * Worker threads for many hosts: one single-thread pool per worker, each with its own MultiHostMatcher
 * (made from spec as soon as the worker starts), so that the hosts a worker answered stay compiled there.
 */
export class HostShardPool {
  /**
   * Shards a worker is given before it answers the one it is on: it goes from one to the next without
   * waiting for the main thread's event loop (busy answering its own shards).
   */
  readonly shardsAhead = 2;
  private readonly pools: Piscina[];
  private readonly warmed: Promise<void>;

  constructor(readonly workers: number, private readonly spec: HostsSpec, workerUrl?: URL) {
    checkThreads(workers);
    this.pools = Array.from({ length: workers }, () => newPiscina(1, workerUrl, this.shardsAhead));
    // each worker makes its matcher (its heap, its source) while this thread answers its own first shards;
    // a failure there is the first shard's to report
    this.warmed = Promise.all(this.pools.map((pool) => warmUp(pool, 1, { kind: 'warm', spec }))).then(() => undefined, () => undefined);
  }

  /** Resolves when every worker has started and made its matcher (or failed to: its first shard then says why). */
  ready(): Promise<void> {
    return this.warmed;
  }

  /**
   * Answers lines of many hosts in worker `worker` (0-based): verdicts, output and that thread's counters.
   * Lines in shared memory are read in place (they must stay unchanged until the answer settles); others
   * are copied once and the copy moved. Called once per shard of a window.
   */
  async answer(worker: number, input: Uint8Array, format: OutputFormat, only: OutputFilter, numbers: Uint32Array | null): Promise<HostsReply> {
    const transferList: ArrayBuffer[] = [];
    if (!(input.buffer instanceof SharedArrayBuffer)) {
      input = input.slice();
      transferList.push(input.buffer as ArrayBuffer);
    }
    const task: HostsTask = { kind: 'hosts', spec: this.spec, input, format, only, numbers };
    let reply: Uint8Array;
    try {
      reply = await this.pools[worker].run(task, { transferList }) as Uint8Array;
    } catch (error) {
      throw new RobotsError('WORKER_FAILED', `a worker thread failed: ${(error as Error).message}`);
    }
    return decodeReply(reply);
  }

  /** Stops the workers. */
  async close(): Promise<void> {
    await Promise.all(this.pools.map((pool) => pool.close()));
  }
}

/** A pair of shared buffers: a chunk's input lines and a worker's text reply (read and written in place). */
export interface SharedSlot {
  input: Uint8Array;
  output: Uint8Array;
}

/**
 * A fixed ring of shared slots for chunks in flight to workers: no copy of a chunk or of its reply between
 * threads, and memory that stays flat however long the input. Made once per run.
 */
export class SharedSlotRing {
  private readonly free: SharedSlot[] = [];
  private readonly waiting: ((slot: SharedSlot) => void)[] = [];

  /** count slots of chunkBytes input; text replies are about 1.2 x the input for typical URLs, jsonl ones 2.5 x (larger ones come back in a buffer of their own). */
  constructor(count: number, chunkBytes: number, format: OutputFormat = 'text') {
    for (let i = 0; i < count; i++) this.free.push({ input: sharedBytes(chunkBytes), output: sharedBytes(chunkBytes * (format === 'jsonl' ? 4 : 2)) });
  }

  /** A free slot (waits for one to be released). */
  acquire(): Promise<SharedSlot> {
    const slot = this.free.pop();
    return slot !== undefined ? Promise.resolve(slot) : new Promise<SharedSlot>((resolve) => this.waiting.push(resolve));
  }

  /** Gives a slot back once its chunk's output is written. */
  release(slot: SharedSlot): void {
    const next = this.waiting.shift();
    if (next !== undefined) next(slot);
    else this.free.push(slot);
  }
}
