// Worker threads: one compiled WebAssembly module shared by every worker, batches moved (transferred), results
// returned in input order. tinypool does the thread management.
import { availableParallelism } from 'node:os';
import { Tinypool } from 'tinypool';
import { OUTPUT_ALL } from './constants.js';
import { RobotsError } from './errors.js';
import { wasmModule } from './wasm/core.js';
import type { RobotsMatcher } from './matcher.js';

/** One batch for a worker (internal). */
export interface LinesTask {
  matcherId: number;
  blob: Uint8Array;
  input: ArrayBuffer;
  filter: number;
  format: boolean;
}

/** Verdicts of a batch of lines, and the command line's output for them when asked. */
export interface LinesResult {
  verdicts: Uint8Array;
  output: Uint8Array;
}

export interface PoolOptions {
  /** Worker threads (default: available cores). */
  threads?: number;
  /** The worker module (default: this package's worker; tests pass their own). */
  workerUrl?: URL;
}

// The worker runs from the built package (dist/src/worker.js), also when these sources are run by tests.
const DEFAULT_WORKER = import.meta.url.endsWith('.ts') ? new URL('../dist/src/worker.js', import.meta.url) : new URL('./worker.js', import.meta.url);

/** A pool of worker threads matching line batches. Made once per program; call close() when done. */
export class RobotsPool {
  readonly threads: number;
  private readonly pool: Tinypool;

  constructor(options: PoolOptions = {}) {
    const threads = options.threads ?? availableParallelism();
    if (!Number.isInteger(threads) || threads < 1) throw new RobotsError('INVALID_ARGUMENT', `threads must be a whole number >= 1, got ${String(threads)}`);
    this.threads = threads;
    this.pool = new Tinypool({
      filename: (options.workerUrl ?? DEFAULT_WORKER).href,
      minThreads: threads,
      maxThreads: threads,
      workerData: { module: wasmModule() },
    });
  }

  /** Matches a batch of LF-separated lines in a worker (a copy of the bytes is moved there; `lines` stays usable). */
  async checkLines(matcher: RobotsMatcher, lines: Uint8Array, format = false, filter = OUTPUT_ALL): Promise<LinesResult> {
    const copy = new Uint8Array(lines.length); // Buffer#slice would share memory: moving it would detach the caller's bytes
    copy.set(lines);
    const input = copy.buffer;
    const task: LinesTask = { matcherId: matcher.id, blob: matcher.sharedBlob(), input, filter, format };
    let packed: Uint8Array;
    try {
      packed = new Uint8Array(await this.pool.run(task, { transferList: [input] }) as ArrayBufferLike);
    } catch (error) {
      throw new RobotsError('WORKER_FAILED', `a worker thread failed: ${(error as Error).message}`);
    }
    const header = new DataView(packed.buffer, packed.byteOffset, 8);
    const count = header.getUint32(0, true);
    const outputLength = header.getUint32(4, true);
    return { verdicts: packed.subarray(8, 8 + count), output: packed.subarray(8 + count, 8 + count + outputLength) };
  }

  /** Stops the workers. */
  async close(): Promise<void> {
    await this.pool.destroy();
  }
}

/** What checkChunksInOrder did besides its output. */
export interface OrderedRunStats {
  chunks: number;
  /** Chunks whose worker failed and that were matched again on this thread instead. */
  recomputed: number;
}

/**
 * Matches chunks of complete lines on the pool, keeping up to 2 x threads in flight, and yields each chunk's
 * output in input order. A chunk whose worker fails is matched again on this thread, so no line is lost or
 * written twice. Called once per command-line run.
 */
export async function* checkChunksInOrder(pool: RobotsPool, matcher: RobotsMatcher, chunks: AsyncIterable<Uint8Array>, filter: number, stats: OrderedRunStats): AsyncGenerator<Uint8Array> {
  const inFlight: { chunk: Uint8Array; result: Promise<LinesResult | null> }[] = [];
  const maxInFlight = pool.threads * 2;
  const settle = async (entry: { chunk: Uint8Array; result: Promise<LinesResult | null> }): Promise<Uint8Array> => {
    const result = await entry.result;
    if (result !== null) return result.output;
    stats.recomputed++;
    return matcher.checkLinesFormatted(entry.chunk, filter).output;
  };
  for await (const chunk of chunks) {
    stats.chunks++;
    // a copy is moved to the worker; the chunk itself is kept until the worker answers, for a retry here
    inFlight.push({ chunk, result: pool.checkLines(matcher, chunk, true, filter).catch(() => null) });
    if (inFlight.length >= maxInFlight) yield await settle(inFlight.shift() as (typeof inFlight)[number]);
  }
  while (inFlight.length > 0) yield await settle(inFlight.shift() as (typeof inFlight)[number]);
}
