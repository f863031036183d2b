// Worker threads: one compiled WebAssembly module shared by every worker, batches moved (transferred), results
// returned in input order. piscina does the thread management (it also fails the task of a worker that
// exits, which tinypool 2 leaves pending).
import { availableParallelism } from 'node:os';
import { Piscina } from 'piscina';
import { OUTPUT_ALL } from './constants.js';
import { RobotsError } from './errors.js';
import { wasmModule } from './wasm/core.js';
import type { RobotsMatcher } from './matcher.js';

/** One batch for a worker (internal). */
export interface LinesTask {
  matcherId: number;
  blob: Uint8Array;
  /** The lines: a view of shared memory (read in place) or of a buffer moved to the worker. */
  input: Uint8Array;
  /** Shared memory for the reply, or null: the worker then moves a new buffer back. */
  output: Uint8Array | null;
  filter: number;
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
  private readonly pool: Piscina;

  constructor(options: PoolOptions = {}) {
    const threads = options.threads ?? availableParallelism();
    if (!Number.isInteger(threads) || threads < 1) throw new RobotsError('INVALID_ARGUMENT', `threads must be a whole number >= 1, got ${String(threads)}`);
    this.threads = threads;
    this.pool = new Piscina({
      filename: (options.workerUrl ?? DEFAULT_WORKER).href,
      minThreads: threads,
      maxThreads: threads,
      workerData: { module: wasmModule() },
    });
  }

  /**
   * Matches a batch of LF-separated lines in a worker and returns verdicts and the command line's output.
   * Lines in a SharedArrayBuffer are read in place; others are copied once and the copy is moved.
   * `lines` stays usable either way. Called once per batch (a batch is typically 1 MiB).
   */
  async checkLines(matcher: RobotsMatcher, lines: Uint8Array, filter = OUTPUT_ALL, replySlot: Uint8Array | null = null): Promise<LinesResult> {
    let input = lines;
    const transferList: ArrayBuffer[] = [];
    if (!(lines.buffer instanceof SharedArrayBuffer)) {
      input = new Uint8Array(lines.length); // Buffer#slice would share memory: moving it would detach the caller's bytes
      input.set(lines);
      transferList.push(input.buffer as ArrayBuffer);
    }
    const task: LinesTask = { matcherId: matcher.id, blob: matcher.sharedBlob(), input, output: replySlot, filter };
    let packed: Uint8Array;
    try {
      packed = (await this.pool.run(task, { transferList }) as Uint8Array | null) ?? (replySlot as Uint8Array);
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
    await this.pool.close();
  }
}

/** What checkChunksInOrder did besides its output. */
export interface OrderedRunStats {
  chunks: number;
  /** Chunks matched on the calling thread (helpHere). */
  matchedHere: number;
  /** Chunks whose worker failed and that were matched again on this thread instead. */
  recomputed: number;
}

/** A source of whole-line chunks written into buffers the caller provides (LineReader in the command line). */
export interface LineChunkSource {
  next(target: Uint8Array): Promise<Uint8Array | null>;
}

/** One chunk's output from checkChunksInOrder: call release() once it is written (its memory is reused). */
export interface OrderedOutput {
  bytes: Uint8Array;
  /** Lines in the chunk. */
  lines: number;
  release: () => void;
}

interface Slot {
  input: Uint8Array;
  output: Uint8Array;
}

/**
 * Reads whole-line chunks into a ring of shared buffers, matches them on the pool (and, with helpHere, on
 * this thread whenever every worker already has a chunk queued), and yields each chunk's output in input
 * order. Workers read the input and write their reply in shared memory, so the run allocates little per
 * chunk: memory stays flat however long the input. A chunk whose worker fails is matched again on this
 * thread (its bytes are still in the ring), so no line is lost or written twice. Called once per run.
 */
export async function* checkChunksInOrder(pool: RobotsPool, matcher: RobotsMatcher, source: LineChunkSource, filter: number, stats: OrderedRunStats, chunkBytes = 1 << 20, helpHere = false): AsyncGenerator<OrderedOutput> {
  const maxInFlight = (pool.threads + (helpHere ? 1 : 0)) * 2;
  let queuedInWorkers = 0;
  const free: Slot[] = [];
  const waiting: ((slot: Slot) => void)[] = [];
  // replies are about 1.2 x the input for typical URLs; larger ones come back in a buffer of their own
  for (let i = 0; i < maxInFlight + 2; i++) free.push({ input: new Uint8Array(new SharedArrayBuffer(chunkBytes)), output: new Uint8Array(new SharedArrayBuffer(chunkBytes * 2)) });
  const acquire = async (): Promise<Slot> => free.pop() ?? new Promise<Slot>((resolve) => waiting.push(resolve));
  const releaseSlot = (slot: Slot): void => {
    const next = waiting.shift();
    if (next !== undefined) next(slot);
    else free.push(slot);
  };
  const inFlight: { chunk: Uint8Array; slot: Slot; result: Promise<LinesResult | null> }[] = [];
  let ended = false;
  while (true) {
    while (!ended && inFlight.length < maxInFlight) {
      const slot = await acquire();
      const chunk = await source.next(slot.input);
      if (chunk === null) {
        ended = true;
        releaseSlot(slot);
        break;
      }
      stats.chunks++;
      if (helpHere && queuedInWorkers >= pool.threads) {
        // every worker is busy (or still starting): this thread matches the chunk now
        stats.matchedHere++;
        inFlight.push({ chunk, slot, result: Promise.resolve(matcher.checkLinesFormatted(chunk, filter)) });
        continue;
      }
      queuedInWorkers++;
      const result = pool.checkLines(matcher, chunk, filter, slot.output).catch(() => null);
      inFlight.push({ chunk, slot, result: result.finally(() => { queuedInWorkers--; }) });
    }
    const head = inFlight.shift();
    if (head === undefined) return;
    const result = await head.result;
    let done: LinesResult;
    if (result !== null) {
      done = result;
    } else {
      stats.recomputed++;
      done = matcher.checkLinesFormatted(head.chunk, filter);
    }
    yield { bytes: done.output, lines: done.verdicts.length, release: () => releaseSlot(head.slot) };
  }
}
