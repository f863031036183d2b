// A large gzip file inflated on a thread of its own, ahead of its reader: the reader's thread answers a window
// of lines while the next is inflated. (On the main thread a zlib stream needs that thread between two 256 KiB
// pieces, so little is inflated while a window is answered: a .gz input took 1.10-1.22x a plain file's time.)
// The inflated bytes come through a ring of RING_SLOTS slots of shared memory, written by the thread and
// copied out by the reader, so no buffer crosses between the threads: each transferred buffer lived outside
// both heaps until a collection (a first version that sent them peaked 50 MiB higher). The thread runs a small
// script of its own (node:fs, node:zlib): no bundle to find at run time. Memory: the ring (the reader's
// window: a many-host check pays it from its cache) and the thread's isolate (about 12 MiB), where zlib's
// pieces on the main thread held 16-32 MiB until a collection. Used by line-reader.ts for gzip files of
// GZIP_THREAD_MIN_BYTES or more read in windows (a many-host check).
import { Worker } from 'node:worker_threads';

/** Bytes of one slot of the ring. */
const SLOT_BYTES = 1 << 20;

// the control words (Int32Array over the ring's first bytes): each slot's length (0 = free for the thread,
// else the bytes it holds for the reader), then the state (its index: the number of slots)
const RUNNING = 0;
const ENDED = 1; // every slot with bytes was published before
const FAILED = 2; // the error was posted before
const CLOSED = 3; // set by the reader: the thread stops
/** The most slots a ring has (the control words must fit before RAW_AT). */
const MAX_SLOTS = 24;
const RAW_AT = 4 * (MAX_SLOTS + 1) + 4; // the compressed bytes read so far, a float64 (8-byte aligned)
const CONTROL_BYTES = RAW_AT + 8; // the words above; the slots' bytes from here

const SCRIPT = `
const { parentPort, workerData } = require('node:worker_threads');
const { createGunzip } = require('node:zlib');
const { read } = require('node:fs');
const { fd, head, ring, slots, slotBytes, controlBytes, rawAt, ENDED, FAILED, CLOSED } = workerData;
const YOUNG_GARBAGE_WORDS = 2000;
const control = new Int32Array(ring, 0, slots + 1);
const raw = new Float64Array(ring, rawAt, 1);
const data = new Uint8Array(ring, controlBytes);
const STATE = slots;
let slot = 0;
let filled = 0;
let stopped = false;
raw[0] = head.length;
// a slot is published once full (or at the end); the next one waited for while the reader still holds it
const publish = (last) => {
  if (filled === 0) return true;
  Atomics.store(control, slot, filled);
  Atomics.notify(control, slot);
  slot = (slot + 1) % slots;
  filled = 0;
  while (!last && Atomics.load(control, slot) !== 0) {
    if (Atomics.load(control, STATE) === CLOSED) return false;
    Atomics.wait(control, slot, Atomics.load(control, slot), 1000);
  }
  return Atomics.load(control, STATE) !== CLOSED;
};
const finish = (state) => {
  stopped = true;
  Atomics.store(control, STATE, state);
  for (let i = 0; i < slots; i++) Atomics.notify(control, i);
  gunzip.destroy();
};
const fail = (error) => {
  if (stopped) return;
  parentPort.postMessage({ error: String(error && error.message), code: error && error.code });
  finish(FAILED);
};
const gunzip = createGunzip({ chunkSize: 1 << 16 });
gunzip.on('data', (chunk) => {
  if (stopped) return;
  // each piece zlib gives lives outside the heap until a collection, which V8 starts only after tens of MiB
  // of them: a little garbage on the heap per piece makes the young collections (small: resourceLimits)
  // that free them
  new Array(YOUNG_GARBAGE_WORDS).fill(0);
  let at = 0;
  while (at < chunk.length) {
    const n = Math.min(chunk.length - at, slotBytes - filled);
    data.set(chunk.subarray(at, at + n), slot * slotBytes + filled);
    filled += n;
    at += n;
    if (filled === slotBytes && !publish(false)) { finish(CLOSED); return; }
  }
});
gunzip.on('end', () => { if (!stopped && publish(true)) finish(ENDED); });
gunzip.on('error', fail);
// the file read on from where the reader's first bytes left it (never closed here: the reader owns the fd),
// into one buffer: the next read once zlib has taken the last
const input = Buffer.allocUnsafe(1 << 18);
const pump = () => read(fd, input, 0, input.length, null, (error, count) => {
  if (stopped) return;
  if (error) { fail(error); return; }
  if (count === 0) { gunzip.end(); return; }
  raw[0] += count;
  gunzip.write(input.subarray(0, count), (failed) => { if (!failed && !stopped) pump(); });
});
gunzip.write(head);
pump();
`;

/** Atomics.waitAsync (Node 16+; the TypeScript library this build targets does not declare it yet). */
const waitAsync = (Atomics as unknown as { waitAsync(array: Int32Array, index: number, value: number, timeoutMs: number): { async: boolean; value: Promise<string> | string } }).waitAsync;

/** The inflated bytes of a gzip file, as gunzipOnThread hands them out. */
export interface ThreadedGunzip {
  /** Copies up to length inflated bytes into target at offset, waiting until there are that many or the file has ended; 0 at the end. An error of the file or of its data rejects (zlib's message). */
  read(target: Uint8Array, offset: number, length: number): Promise<number>;
  /** Compressed bytes read from the file so far. */
  readonly rawBytes: number;
  /** Bytes of the ring (the inflated bytes held ahead of the reader at most). */
  readonly ringBytes: number;
  /** Stops the thread and resolves once it has ended (the fd may be closed then, not before: the thread reads it). Safe to call twice. */
  close(): Promise<void>;
}

/**
 * The inflated bytes of a gzip file (fd, after its first bytes `head`, already read), inflated by a thread of
 * its own up to aheadBytes (and one slot) ahead of the reader: the reader's largest read, so that a whole
 * window is there when it is asked for and the next is inflated while it is answered (memory: that many
 * bytes, whatever the file's size). Once per large gzip file read (line-reader.ts).
 */
export function gunzipOnThread(fd: number, head: Uint8Array, aheadBytes: number): ThreadedGunzip {
  const RING_SLOTS = Math.min(MAX_SLOTS, Math.max(2, Math.ceil(aheadBytes / SLOT_BYTES)));
  const STATE = RING_SLOTS;
  const ring = new SharedArrayBuffer(CONTROL_BYTES + RING_SLOTS * SLOT_BYTES);
  const control = new Int32Array(ring, 0, RING_SLOTS + 1);
  const raw = new Float64Array(ring, RAW_AT, 1);
  const data = new Uint8Array(ring, CONTROL_BYTES);
  const worker = new Worker(SCRIPT, { eval: true, workerData: { fd, head, ring, slots: RING_SLOTS, slotBytes: SLOT_BYTES, controlBytes: CONTROL_BYTES, rawAt: RAW_AT, ENDED, FAILED, CLOSED }, resourceLimits: { maxYoungGenerationSizeMb: 1 } });
  let failure: Error | null = null;
  let failed: () => void = () => undefined;
  const failureTold = new Promise<void>((resolve) => { failed = resolve; });
  const fail = (error: Error): void => {
    failure ??= error;
    failed();
  };
  worker.on('message', (message: { error: string; code?: string }) => fail(Object.assign(new Error(message.error), { code: message.code })));
  worker.on('error', fail);
  const exited = new Promise<void>((resolve) => worker.once('exit', () => {
    // a thread gone without saying the end or an error (killed from outside): its reader is told, never left waiting
    if (Atomics.load(control, STATE) === RUNNING) fail(new Error('the thread inflating it ended before the data did'));
    resolve();
  }));
  let slot = 0;
  let taken = 0; // bytes of the slot being read that were copied out
  let closed = false;
  return {
    get rawBytes() {
      return raw[0];
    },
    ringBytes: RING_SLOTS * SLOT_BYTES,
    async read(target, offset, length) {
      let count = 0;
      while (count < length) {
        if (failure !== null) throw failure;
        const filled = Atomics.load(control, slot);
        if (filled === 0) {
          const state = Atomics.load(control, STATE);
          // (the thread publishes its last slot before it says the end: the slot is looked at again)
          if (state === ENDED && Atomics.load(control, slot) === 0) break;
          if (state === FAILED) {
            await failureTold;
            continue;
          }
          if (state === RUNNING) {
            // (the end or a failure said between the look above and this wait notifies no one again: the
            // state is looked at once the wait is set, and the wait has a time limit)
            const waited = waitAsync(control, slot, 0, 200);
            if (waited.async && Atomics.load(control, STATE) === RUNNING) await waited.value;
          }
          continue;
        }
        const piece = Math.min(filled - taken, length - count);
        const from = slot * SLOT_BYTES + taken;
        target.set(data.subarray(from, from + piece), offset + count);
        count += piece;
        taken += piece;
        if (taken === filled) {
          Atomics.store(control, slot, 0);
          Atomics.notify(control, slot);
          slot = (slot + 1) % RING_SLOTS;
          taken = 0;
        }
      }
      return count;
    },
    async close() {
      if (closed) return;
      closed = true;
      if (Atomics.load(control, STATE) === RUNNING) {
        Atomics.store(control, STATE, CLOSED);
        for (let i = 0; i < RING_SLOTS; i++) Atomics.notify(control, i);
        await worker.terminate();
      }
      await exited;
    },
  };
}
