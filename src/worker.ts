// A pool worker: one WebAssembly instance of the shared compiled module, matchers cached by id.
// Reads a batch of lines (shared memory or moved bytes) and writes [line count u32 | output length u32 |
// verdicts | output] into the task's shared output slot, or moves it back when there is no slot or it is too small.
import { workerData, move } from 'piscina';
import { WasmCore } from './wasm/core.js';
import type { LinesTask } from './pool.js';

const data = workerData as { module: WebAssembly.Module };
const engine = new WasmCore(data.module);
const MAX_CACHED_MATCHERS = 64;
const blobs = new Map<number, Uint8Array>();

/** Called by piscina once per batch. */
export default function checkLinesTask(task: LinesTask): unknown {
  let blob = blobs.get(task.matcherId);
  if (blob === undefined) {
    blob = task.blob; // a view of shared memory: the same bytes, never copied between threads
    blobs.set(task.matcherId, blob);
    if (blobs.size > MAX_CACHED_MATCHERS) blobs.delete(blobs.keys().next().value as number);
  }
  const packed = engine.matchLinesPacked(blob, task.input, task.filter, task.output);
  return packed === null ? null : move(packed);
}
