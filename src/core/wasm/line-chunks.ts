// The core's calls on chunks of LF-separated URL lines that no matcher answers here: counting them, the text
// output of lines whose verdicts are known (answered by other threads), and splitting a chunk by host for
// threads. Each copies its chunk to the start of the work area.
import { CHAR_LF, MAX_HOST_KEY_BYTES } from '../constants.js';
import { RobotsError } from '../errors.js';
import { align, MAX_BATCH_BYTES, SENTINEL_SLACK, tooLarge } from './limits.js';
import type { CoreFrame } from './frame.js';

/** A chunk split by host for threads (see splitLinesByHost). */
export interface HostShards {
  /** The shard of each input line. */
  shardOfLine: Uint8Array;
  /** Each shard's lines, LF-ended, in input order: views of `bytes`. */
  shards: Uint8Array[];
  /** Every shard's lines, shard after shard: a view of the `into` given, or a new buffer. */
  bytes: Uint8Array;
}

/** Calls on chunks of lines. Made once per core. */
export class LineChunkCalls {
  constructor(private readonly frame: CoreFrame) {}

  /** LF-separated lines in a chunk (a final line without LF counts); 16 bytes a step. Once per chunk. */
  countLines(chunk: Uint8Array): number {
    const ptr = this.frame.workPtr;
    this.frame.reserve(ptr + chunk.length + SENTINEL_SLACK);
    this.frame.memoryBytes().set(chunk, ptr);
    return this.frame.exports.countLines(ptr, chunk.length);
  }

  /**
   * Text output (assembly/format.ts) of LF-separated lines whose verdicts are known (answered by several
   * threads); with a column (a byte per line: 0 unknown, 1 allowed, 2 disallowed), its word after the
   * verdict's (check --usage).
   */
  formatText(input: Uint8Array, verdicts: Uint8Array, filter: number, into: Uint8Array | null = null, column: Uint8Array | null = null): Uint8Array {
    if (input.length > MAX_BATCH_BYTES) throw tooLarge('a batch of lines', input.length, MAX_BATCH_BYTES);
    const frame = this.frame;
    const inputPtr = frame.workPtr;
    const verdictsPtr = align(inputPtr + input.length + 1 + SENTINEL_SLACK, 16);
    const columnPtr = align(verdictsPtr + verdicts.length, 16);
    const outputPtr = align(columnPtr + (column === null ? 0 : verdicts.length), 16);
    frame.reserve(outputPtr + input.length + (column === null ? 12 : 23) * (verdicts.length + 1) + SENTINEL_SLACK);
    let memory = frame.memoryBytes();
    memory.set(input, inputPtr);
    memory[inputPtr + input.length] = CHAR_LF;
    memory.set(verdicts, verdictsPtr);
    if (column !== null) memory.set(column.subarray(0, verdicts.length), columnPtr);
    const length = frame.exports.formatTextLines(inputPtr, verdicts.length, verdictsPtr, outputPtr, filter, column === null ? 0 : columnPtr);
    memory = frame.memoryBytes();
    if (into === null || into.length < length) return memory.slice(outputPtr, outputPtr + length);
    into.set(memory.subarray(outputPtr, outputPtr + length));
    return into.subarray(0, length);
  }

  /**
   * Splits a chunk of lines into shardCount shards by host (assembly/hosts.ts splitLinesByHost), laid out
   * shard after shard in one buffer: `into` when it holds chunk.length + 1 bytes (shared memory, for
   * threads), else a new one. Once per chunk answered by several threads.
   */
  splitLinesByHost(chunk: Uint8Array, shardCount: number, into: Uint8Array | null = null): HostShards {
    if (chunk.length > MAX_BATCH_BYTES) throw tooLarge('a batch of lines', chunk.length, MAX_BATCH_BYTES);
    if (!Number.isInteger(shardCount) || shardCount < 1 || shardCount > 255) throw new RobotsError('INVALID_ARGUMENT', `shards must be 1 to 255, got ${shardCount}`);
    const frame = this.frame;
    const lineBound = chunk.length + 1;
    const inputPtr = frame.workPtr;
    const shardOfLinePtr = align(inputPtr + chunk.length + 1 + SENTINEL_SLACK, 16);
    const sizesPtr = align(shardOfLinePtr + lineBound, 16);
    const keyScratch = align(sizesPtr + shardCount * 4, 16);
    const outPtr = align(keyScratch + MAX_HOST_KEY_BYTES + 64, 16);
    frame.reserve(outPtr + chunk.length + 1 + SENTINEL_SLACK);
    let memory = frame.memoryBytes();
    memory.set(chunk, inputPtr);
    memory[inputPtr + chunk.length] = CHAR_LF;
    const count = frame.exports.splitLinesByHost(inputPtr, chunk.length, shardCount, shardOfLinePtr, sizesPtr, outPtr, keyScratch);
    memory = frame.memoryBytes();
    const words = frame.memoryWords();
    let total = 0;
    for (let shard = 0; shard < shardCount; shard++) total += words[(sizesPtr >>> 2) + shard];
    let bytes: Uint8Array;
    if (into !== null && into.length >= total) {
      bytes = into.subarray(0, total);
      bytes.set(memory.subarray(outPtr, outPtr + total));
    } else {
      bytes = memory.slice(outPtr, outPtr + total);
    }
    const shards: Uint8Array[] = [];
    let offset = 0;
    for (let shard = 0; shard < shardCount; shard++) {
      const size = words[(sizesPtr >>> 2) + shard];
      shards.push(bytes.subarray(offset, offset + size));
      offset += size;
    }
    return { shardOfLine: memory.slice(shardOfLinePtr, shardOfLinePtr + count), shards, bytes };
  }
}
