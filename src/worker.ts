// A pool worker: one WebAssembly instance of the shared compiled module, matchers cached by id.
// Receives line batches (moved, not copied) and moves back [count u32 | output length u32 | verdicts | output].
import { workerData } from 'node:worker_threads';
import { Tinypool } from 'tinypool';
import { WasmCore } from './wasm/core.js';
import type { LinesTask } from './pool.js';

const [, data] = workerData as [unknown, { module: WebAssembly.Module }];
const engine = new WasmCore(data.module);
const MAX_CACHED_MATCHERS = 64;
const blobs = new Map<number, Uint8Array>();

/** Called by tinypool once per batch. */
export default function checkLinesTask(task: LinesTask): unknown {
  let blob = blobs.get(task.matcherId);
  if (blob === undefined) {
    blob = task.blob; // a view of shared memory: the same bytes, never copied between threads
    blobs.set(task.matcherId, blob);
    if (blobs.size > MAX_CACHED_MATCHERS) blobs.delete(blobs.keys().next().value as number);
  }
  const input = new Uint8Array(task.input);
  let verdicts: Uint8Array;
  let output: Uint8Array | null = null;
  if (task.format) ({ verdicts, output } = engine.matchAndFormatLines(blob, input, task.filter));
  else verdicts = engine.matchLines(blob, input);
  const outputLength = output === null ? 0 : output.length;
  const result = new Uint8Array(8 + verdicts.length + outputLength);
  const header = new DataView(result.buffer);
  header.setUint32(0, verdicts.length, true);
  header.setUint32(4, outputLength, true);
  result.set(verdicts, 8);
  if (output !== null) result.set(output, 8 + verdicts.length);
  return Tinypool.move(result);
}
