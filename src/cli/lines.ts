// Streaming helpers: chunks of complete lines from a byte stream, and writes that respect backpressure.
import { once } from 'node:events';
import { createReadStream } from 'node:fs';
import type { Readable, Writable } from 'node:stream';
import { CHAR_LF } from '../constants.js';
import { RobotsError } from '../errors.js';

/** Input chunk size: large enough to amortise one WebAssembly call per chunk, small enough for constant memory. */
export const CHUNK_BYTES = 1 << 20;

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a, 0);
  out.set(b, a.length);
  return out;
}

/**
 * Regroups a byte stream into chunks that end just after an LF, plus a last chunk without one when the
 * input does not end with LF. No line is split or lost. Memory: one chunk plus the longest line.
 */
export async function* completeLineChunks(input: AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array> {
  let carry: Uint8Array | null = null;
  for await (const chunk of input) {
    const lastLf = chunk.lastIndexOf(CHAR_LF);
    if (lastLf < 0) {
      carry = carry === null ? chunk : concat(carry, chunk);
      continue;
    }
    const head = chunk.subarray(0, lastLf + 1);
    yield carry === null ? head : concat(carry, head);
    carry = lastLf + 1 < chunk.length ? chunk.subarray(lastLf + 1) : null;
  }
  if (carry !== null && carry.length > 0) yield carry;
}

/** A file path, or `-` for standard input, as a byte stream; a missing file fails with an error naming it. */
export async function openInput(path: string | undefined, what: string): Promise<Readable> {
  const stream = path === undefined || path === '-' ? createReadStream('', { fd: 0, highWaterMark: CHUNK_BYTES }) : createReadStream(path, { highWaterMark: CHUNK_BYTES });
  if (path === undefined || path === '-') return stream;
  try {
    await once(stream, 'open');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new RobotsError('FILE_UNREADABLE', `cannot read ${what} '${path}': ${code === 'ENOENT' ? 'no such file' : code === 'EACCES' ? 'permission denied' : String(code)}`);
  }
  return stream;
}

/** Writes bytes, waiting for 'drain' when the destination is full (constant memory on slow readers). */
export async function writeAll(output: Writable, bytes: Uint8Array): Promise<void> {
  if (bytes.length === 0) return;
  if (!output.write(bytes)) await once(output, 'drain');
}
