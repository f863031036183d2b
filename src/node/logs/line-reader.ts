// Streaming helpers: whole-line chunks read straight into buffers the caller owns, and writes that respect
// backpressure.
import { once } from 'node:events';
import { read as readCallback, open as openCallback, close as closeCallback, createReadStream, fstatSync } from 'node:fs';
import { promisify } from 'node:util';
import type { Readable, Writable, Transform } from 'node:stream';
import { CHAR_LF } from '../../core/constants.js';
import { fileError, isGzip } from '../robots-file.js';
import { RobotsError } from '../../core/errors.js';
import { MAX_BATCH_BYTES } from '../../core/engine.js';
import type { ThreadedGunzip } from './gunzip-thread.js';

/** Input chunk size: large enough to amortise one WebAssembly call (or worker message) per chunk. */
export const CHUNK_BYTES = 1 << 20;

/** A gzip file this large or larger, read in windows (LineReader.open's windowBytes), is inflated on a thread of its own (gunzip-thread.ts); a smaller one here (a thread's start costs about 15-25 ms). */
export const GZIP_THREAD_MIN_BYTES = 4 << 20;

const readFd = promisify(readCallback);
// the callback API, not node:fs/promises: that module loads readline, watchers and more at start-up
const openFd = promisify(openCallback);
const closeFd = promisify(closeCallback);

/**
 * Where bytes come from: a file read in place (its reads never wait for a producer), or a stream (a pipe or
 * terminal on standard input, gzip's decompressed chunks), whose bytes are taken as they are there and waited
 * for otherwise.
 */
interface ByteSource {
  /** A file's: reads up to length bytes into target at offset, waiting for at least one; 0 at the end. */
  read?(target: Uint8Array, offset: number, length: number): Promise<number>;
  /**
   * A stream's: copies up to length bytes that are there now into target at offset, without waiting (0: none
   * now, or the end: see ended). Absent for a file.
   */
  readNow?(target: Uint8Array, offset: number, length: number): number;
  /** A stream's: resolves true when bytes (or the end) are there, false when waitMs pass first. */
  waitFor?(waitMs: number): Promise<boolean>;
  /** A stream's: true once its end was reached and every byte taken. */
  readonly ended?: boolean;
  /** A stream's: true when it comes from a producer that may pause (a pipe, a terminal), false for a file's gzip. */
  readonly producer?: boolean;
  close(): Promise<void>;
  /** Bytes taken from the file so far (compressed bytes for gzip): for progress against the file size. */
  rawBytes: number;
  /** Bytes held ahead of the reader besides its buffers (a gzip thread's ring). */
  readonly aheadBytes?: number;
}


/**
 * Bytes of an fd, after some already read (the sniffed head). A regular file is read ahead into two buffers
 * in turn: while the caller answers a chunk, the next read runs on libuv's thread (its bytes copied over when
 * asked for), so reading and answering overlap. Never for a pipe or terminal: a read left waiting on an idle
 * producer would hold a thread and keep the process from ending.
 */
function fdSource(fd: number, owned: boolean, head: Uint8Array, regularFile: boolean): ByteSource {
  let pending = head;
  // the read-ahead buffers (made at the size of the first read asked for), the one read into, and its read
  let ahead: Uint8Array[] = [];
  let filling = 0;
  let inFlight: Promise<number> | null = null;
  let aheadEnded = false;
  const readAhead = (): void => {
    const buffer = ahead[filling];
    inFlight = readFd(fd, buffer, 0, buffer.length, null).then(({ bytesRead }) => bytesRead);
    inFlight.catch(() => undefined); // its failure is met by the read that awaits it (none after close)
  };
  return {
    rawBytes: 0, // bytes handed out (the head included): a file has ended once they reach its size
    async read(target, offset, length) {
      let count = 0;
      while (count < length) {
        if (pending.length === 0) {
          if (inFlight === null) break;
          const got = await inFlight;
          inFlight = null;
          if (got === 0) {
            aheadEnded = true;
            break;
          }
          pending = ahead[filling].subarray(0, got);
          // the other buffer was handed out whole: the next read goes there while this one is
          filling ^= 1;
          readAhead();
        }
        const piece = Math.min(length - count, pending.length);
        target.set(pending.subarray(0, piece), offset + count);
        pending = pending.subarray(piece);
        count += piece;
      }
      if (count > 0 || aheadEnded) {
        this.rawBytes += count;
        return count;
      }
      const { bytesRead } = await readFd(fd, target, offset, length, null);
      this.rawBytes += bytesRead;
      // (a file's read shorter than asked is its end: no buffers ahead for it, 2 x 16 MiB that a file of 0.5
      // MB never fills, and whose making costs collections)
      if (regularFile && bytesRead === length && ahead.length === 0) {
        ahead = [new Uint8Array(Math.max(length, 1 << 16)), new Uint8Array(Math.max(length, 1 << 16))];
        readAhead();
      }
      return bytesRead;
    },
    async close() {
      // a read still in flight finishes before the fd goes (its bytes are not wanted)
      if (inFlight !== null) await (inFlight as Promise<number>).catch(() => 0);
      inFlight = null;
      if (owned) await closeFd(fd);
    },
  };
}

/**
 * The bytes of a stream in paused mode (standard input that is a pipe or a terminal: a socket, never a read
 * that holds a thread; gzip's output), taken as they are there: whatever size its reads come in, a window is
 * filled until it is full or the stream pauses. Its error rejects the next read or wait. Closing destroys it
 * (and `also`), so no read is left waiting for an idle producer.
 */
function streamSource(stream: Readable, also: () => void, countsRaw: boolean, producer: boolean, head: Uint8Array = new Uint8Array(0)): ByteSource {
  let pending: Uint8Array = new Uint8Array(0);
  let failure: Error | null = null;
  let ended = false;
  stream.on('error', (error: Error) => { failure ??= error; });
  stream.on('end', () => { ended = true; });
  stream.pause();
  // (after pause: standard input unshifted before it is paused gives nothing)
  if (head.length > 0) stream.unshift(Buffer.from(head));
  const take = (target: Uint8Array, offset: number, length: number): number => {
    if (failure !== null) throw failure;
    let count = 0;
    while (count < length) {
      if (pending.length === 0) {
        const next = stream.read() as Buffer | null;
        if (next === null) break;
        pending = next;
      }
      const piece = Math.min(length - count, pending.length);
      target.set(pending.subarray(0, piece), offset + count);
      pending = pending.subarray(piece);
      count += piece;
    }
    if (countsRaw) source.rawBytes += count;
    return count;
  };
  const source: ByteSource = {
    rawBytes: 0,
    producer,
    get ended() {
      return ended && pending.length === 0 && stream.readableLength === 0;
    },
    readNow: take,
    async waitFor(waitMs) {
      if (failure !== null) throw failure;
      if (pending.length > 0 || stream.readableLength > 0 || ended) return true;
      return new Promise<boolean>((resolve, reject) => {
        let timer: NodeJS.Timeout | null = null;
        const done = (value: boolean | Error): void => {
          stream.off('readable', onReadable);
          stream.off('end', onReadable);
          stream.off('error', onError);
          if (timer !== null) clearTimeout(timer);
          if (value instanceof Error) reject(value);
          else resolve(value);
        };
        const onReadable = (): void => done(true);
        const onError = (error: Error): void => done(error);
        stream.on('readable', onReadable);
        stream.on('end', onReadable);
        stream.on('error', onError);
        if (Number.isFinite(waitMs)) timer = setTimeout(() => done(false), waitMs);
        // a stream in paused mode reads on when asked: ask (its buffered bytes, if any, come with 'readable')
        stream.read(0);
      });
    },
    async close() {
      stream.destroy();
      also();
    },
  };
  return source;
}

/** Decompressed bytes of a gzip input (the head already read is fed first): a file's, or standard input's stream. */
function gzipSource(fd: number, owned: boolean, head: Uint8Array, gunzip: Transform, stdin: Readable | null): ByteSource {
  gunzip.write(head);
  const raw: Readable = stdin ?? createReadStream('', { fd, autoClose: false, highWaterMark: CHUNK_BYTES });
  raw.pipe(gunzip);
  const source = streamSource(gunzip, () => {
    raw.unpipe(gunzip);
    // a file stream's destroy closes its fd (autoClose only says when it happens by itself): the file opened
    // here goes with it, once; standard input given as a file is left open
    if (stdin !== null || owned) raw.destroy();
    else raw.pause();
  }, false, stdin !== null);
  source.rawBytes = head.length;
  raw.on('data', (chunk: string | Buffer) => { source.rawBytes += chunk.length; });
  return source;
}

/** Decompressed bytes of a large gzip file, inflated on a thread of its own ahead of the reader (gunzip-thread.ts): read as a file is. */
function threadedGzipSource(fd: number, owned: boolean, thread: ThreadedGunzip): ByteSource {
  return {
    get rawBytes() {
      return thread.rawBytes;
    },
    aheadBytes: thread.ringBytes,
    read: (target, offset, length) => thread.read(target, offset, length),
    async close() {
      // (the file opened here is closed once the thread has ended: it reads the fd until then)
      await thread.close();
      if (owned) await closeFd(fd);
    },
  };
}

/** readStream's answer when the producer paused with a whole line in the window. */
const PAUSED = -1;

/** A window waits at most this long for more bytes from a stream once it holds a whole line: then it is answered (a slow producer's lines are not held back). */
const STREAM_PAUSE_MS = 20;

/**
 * Reads an input (a file or standard input, gzip or not: its first two bytes tell) as chunks of whole lines,
 * each written into a buffer from the caller (so it can live in shared memory). Memory: the caller's buffers
 * plus the longest line.
 */
export class LineReader {
  private carry: Uint8Array = new Uint8Array(0);
  /** Bytes of the input handed out so far (for where a too-long line starts). */
  private lineBytesBefore = 0;
  private ended = false;
  /**
   * @param knownSize the input's size in bytes when it is known before reading (a regular file, not gzip),
   *   else null (a pipe, a terminal, gzip)
   */
  /** How far the window being filled was searched for a line end, and whether one was found (a stream's pause ends a window only past a whole line). */
  private lineEndSearched = 0;
  private lineEndSeen = false;
  /** A stream filled a whole window: its producer writes in bulk, so a window under a pipe's worth waits for a pause too (else the bytes left over from a full window went out alone, a few KiB, every other window). */
  private bulk = false;

  private constructor(private readonly source: ByteSource, readonly knownSize: number | null, private readonly name: string, private readonly what: string, private readonly gzip: boolean, private readonly fillsWindows: boolean) {}

  /** Closes the input (a reader that stops early, on an error, must not keep its file open). Safe to call twice. */
  async close(): Promise<void> {
    if (this.ended) return;
    this.ended = true;
    await this.source.close();
  }

  /** True once the input has ended: the chunk next() gave last was the last one (a file of known size: once all its bytes are read). */
  get atEnd(): boolean {
    return (this.ended || (this.knownSize !== null && this.source.rawBytes >= this.knownSize)) && this.carry.length === 0;
  }

  /** Bytes held ahead of what next() hands out, besides the caller's buffers: a large gzip file's ring of inflated bytes (gunzip-thread.ts), else 0. */
  get aheadBytes(): number {
    return this.source.aheadBytes ?? 0;
  }

  /** Bytes read from the file so far (compressed bytes for gzip input). */
  get rawBytesRead(): number {
    return this.source.rawBytes;
  }

  /**
   * Opens a file, or standard input for undefined or `-`; a missing file fails with an error naming it.
   * fillsWindows: once a window holds a pipe's worth (64 KiB), a producer's pause of STREAM_PAUSE_MS ends it,
   * not the first moment nothing is there (check over many hosts, whose windows are grouped by host); else,
   * and below that, lines are handed out as soon as the producer stops writing (a program that writes a
   * request and waits for its answer, such as test --batch, is answered at once). windowBytes: the largest
   * read the caller makes, from a caller that pays that much read-ahead from its own memory (a many-host
   * check, from its cache): a gzip file of GZIP_THREAD_MIN_BYTES or more is then inflated that far ahead of
   * it on a thread of its own. Without it gzip is inflated on this thread: audit of a large .gz log on the
   * thread ran 0.73-0.91 s against 0.85-1.01 s, but peaked at 152-158 MiB against 112-124 (the plain log: 125).
   */
  static async open(path: string | undefined, what: string, options: { fillsWindows?: boolean; windowBytes?: number } = {}): Promise<LineReader> {
    let fd = 0;
    let owned = false; // a file opened here (closed by the reader), not standard input
    if (path !== undefined && path !== '-') {
      try {
        fd = await openFd(path, 'r');
        owned = true;
      } catch (error) {
        throw fileError(path, what, error);
      }
    }
    const head = new Uint8Array(2);
    let sniffed = 0;
    try {
      while (sniffed < 2) {
        const { bytesRead } = await readFd(fd, head, sniffed, 2 - sniffed, null);
        if (bytesRead === 0) break;
        sniffed += bytesRead;
      }
    } catch (error) {
      if (owned) await closeFd(fd);
      throw fileError(path ?? '-', what, error);
    }
    const start = head.slice(0, sniffed);
    const gzip = isGzip(head.subarray(0, sniffed));
    let regular = false;
    let fileBytes: number | null = null; // a regular file's size
    try {
      const stat = fstatSync(fd);
      regular = stat.isFile();
      if (regular) fileBytes = stat.size;
    } catch {
      // (read as a stream of unknown size)
    }
    // standard input that is no file (a pipe, a socket, a terminal) is read as a stream where windows are filled
    // (many-host check) or gzip is inflated: its reads come in the producer's sizes, and a read that waits
    // for a pause must not hold a thread (the process could not end). Elsewhere it is read as a file is, a
    // short read handing its lines out (process.stdin costs about 10 ms of start-up). An input that ended
    // inside the sniffed head is all there: no stream, whose end would never be told again.
    const stdin = !owned && !regular && sniffed === 2 && (gzip || options.fillsWindows === true) ? process.stdin : null;
    let source: ByteSource;
    if (gzip && fileBytes !== null && fileBytes >= GZIP_THREAD_MIN_BYTES && options.windowBytes !== undefined) {
      // a large gzip file read in windows: inflated on a thread of its own while a window is answered
      source = threadedGzipSource(fd, owned, (await import('./gunzip-thread.js')).gunzipOnThread(fd, start, options.windowBytes));
    } else if (gzip) {
      // node:zlib is loaded only for gzip input
      source = gzipSource(fd, owned, start, (await import('node:zlib')).createGunzip({ chunkSize: 1 << 18 }), stdin);
    } else if (stdin !== null) {
      source = streamSource(stdin, () => undefined, true, true, start);
    } else {
      source = fdSource(fd, owned, start, regular);
    }
    return new LineReader(source, gzip ? null : fileBytes, path ?? '-', what, gzip, options.fillsWindows === true);
  }

  /**
   * Fills target with whole lines (the last one may lack its LF at the end of the input) and returns them as
   * a view of target, or of a larger buffer when one line does not fit; null when the input is exhausted.
   * No line is ever split or lost.
   */
  /** One read from the source; a corrupt or truncated gzip stream is an error naming the input. */
  private async read(buffer: Uint8Array, length: number): Promise<number> {
    try {
      return await (this.source as Required<Pick<ByteSource, 'read'>>).read(buffer, length, buffer.length - length);
    } catch (error) {
      throw this.readError(error);
    }
  }

  /**
   * From a stream: the bytes there now (waiting for some when none are), or PAUSED when the window holds a
   * whole line and its producer stopped writing (for STREAM_PAUSE_MS when the reader fills windows); 0 at
   * the end. A file's gzip is never a pause: it is read on.
   */
  private async readStream(buffer: Uint8Array, length: number): Promise<number> {
    const source = this.source as Required<ByteSource>;
    try {
      for (;;) {
        const got = source.readNow(buffer, length, buffer.length - length);
        if (got > 0 || source.ended) return got;
        // (each byte searched once: a long line arriving in small pieces stays linear)
        if (!this.lineEndSeen && length > this.lineEndSearched) this.lineEndSeen = buffer.subarray(this.lineEndSearched, length).indexOf(CHAR_LF) >= 0;
        this.lineEndSearched = length;
        const holdsLine = source.producer && this.lineEndSeen;
        // (a window under a pipe's worth is answered at once: a program that writes a few lines and waits for
        // their answers is answered now; a producer that brings more is waited for, a pause at a time)
        if (holdsLine && (!this.fillsWindows || (length < PIPE_READ_BYTES && !this.bulk))) return PAUSED;
        if (!await source.waitFor(holdsLine ? STREAM_PAUSE_MS : Infinity)) return PAUSED;
      }
    } catch (error) {
      throw this.readError(error);
    }
  }

  private readError(error: unknown): RobotsError {
    if (error instanceof RobotsError) return error;
    if (!this.gzip) return fileError(this.name, this.what, error);
    return new RobotsError('FILE_UNREADABLE', `cannot read ${this.what} '${this.name}': corrupt or truncated gzip data (${(error as Error).message})`);
  }

  async next(target: Uint8Array): Promise<Uint8Array | null> {
    let buffer = target.length > this.carry.length ? target : new Uint8Array(this.carry.length * 2 + PIPE_READ_BYTES);
    buffer.set(this.carry, 0);
    let length = this.carry.length;
    let searched = this.carry.length; // the carry holds no LF
    this.lineEndSearched = this.carry.length;
    this.lineEndSeen = false;
    this.carry = new Uint8Array(0);
    while (true) {
      // Fill while data flows: a stream until the window is full or its producer (a pipe, a terminal) pauses
      // (STREAM_PAUSE_MS with a whole line in the window), whatever the size of its reads; a file's gzip until
      // full; a file (or a named pipe given by path) until nearly full or after a short read. A slow producer such as `tail -f` gets its lines answered now, not when a
      // whole window has arrived.
      while (!this.ended && length < buffer.length) {
        const bytesRead = this.source.readNow !== undefined ? await this.readStream(buffer, length) : await this.read(buffer, length);
        if (bytesRead === 0) {
          this.ended = true;
          await this.source.close();
          break;
        }
        if (bytesRead === PAUSED) {
          this.bulk = false;
          break;
        }
        length += bytesRead;
        if (length >= buffer.length) this.bulk = true;
        if (this.source.readNow === undefined && (length >= buffer.length - PIPE_READ_BYTES || bytesRead < PIPE_READ_BYTES)) break;
      }
      if (this.ended) {
        if (length === 0) return null;
        return buffer.subarray(0, length);
      }
      // only the bytes not searched yet: a long line arriving in small reads stays linear
      const found = buffer.subarray(searched, length).lastIndexOf(CHAR_LF);
      if (found >= 0) {
        const lastLf = searched + found;
        this.carry = buffer.slice(lastLf + 1, length);
        this.lineBytesBefore += lastLf + 1;
        return buffer.subarray(0, lastLf + 1);
      }
      searched = length;
      if (length < buffer.length) continue; // a short read inside one line: read on
      if (buffer.length >= MAX_LINE_BYTES) {
        // a line longer than any batch the core takes: reported (never split, never silently dropped)
        throw new RobotsError('INPUT_TOO_LARGE', `cannot read ${this.what} '${this.name}': the line at byte ${this.lineBytesBefore + 1} is longer than ${MAX_LINE_BYTES >> 20} MiB, the longest line read`);
      }
      const bigger = new Uint8Array(Math.min(buffer.length * 2, MAX_LINE_BYTES)); // one line longer than the buffer
      bigger.set(buffer.subarray(0, length));
      buffer = bigger;
    }
  }

}

/**
 * Reads a file (or standard input, for undefined or `-`) a chunk of whole lines at a time into one buffer
 * reused from chunk to chunk, and always closes it, also when `visit` throws: the one way a command reads an
 * input file through. `visit` gets each chunk (a view, valid until it returns) and the reader (for its
 * progress). Once per input file.
 */
export async function forEachChunk(path: string | undefined, what: string, visit: (chunk: Uint8Array, reader: LineReader) => void | Promise<void>): Promise<void> {
  const reader = await LineReader.open(path, what);
  const buffer = new Uint8Array(CHUNK_BYTES);
  try {
    for (let chunk = await reader.next(buffer); chunk !== null; chunk = await reader.next(buffer)) await visit(chunk, reader);
  } finally {
    await reader.close();
  }
}

/**
 * The lines of a chunk of whole lines as strings of one char per byte (latin1: no byte is lost), a CR
 * before the LF removed; a final LF ends the last line. For the commands that read logs line by line.
 */
/**
 * An input read whole up to `limit` bytes: a file, or standard input for `-` (gzip recognised, as every input
 * is); its bytes past the limit are read and counted (fileBytes), not kept. The one reader of a whole robots
 * file or partial audit from standard input (lint -, test -, check --robots -, audit --merge -). Per input.
 */
export async function readInputWhole(path: string, what: string, limit: number): Promise<{ body: Uint8Array; fileBytes: number }> {
  const parts: Uint8Array[] = [];
  let length = 0;
  let fileBytes = 0;
  await forEachChunk(path, what, (chunk) => {
    fileBytes += chunk.length;
    if (length < limit) {
      parts.push(chunk.slice(0, limit - length));
      length += Math.min(chunk.length, limit - length);
    }
  });
  const body = new Uint8Array(length);
  let at = 0;
  for (const part of parts) {
    body.set(part, at);
    at += part.length;
  }
  return { body, fileBytes };
}

export function chunkLines(chunk: Uint8Array): string[] {
  const lines = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.length).toString('latin1').split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  for (let i = 0; i < lines.length; i++) if (lines[i].endsWith('\r')) lines[i] = lines[i].slice(0, -1);
  return lines;
}

/** The longest line read: half of the largest batch the WebAssembly core takes (room for its output). */
export const MAX_LINE_BYTES = MAX_BATCH_BYTES / 2;

/** A pipe delivers at most this much per read on Linux; a shorter read means the producer is slower than us. */
const PIPE_READ_BYTES = 65536;

/**
 * Writes bytes, waiting for 'drain' when the destination is full (constant memory on slow readers).
 * `written` runs once the bytes have left (their memory may then be reused).
 */
export async function writeAll(output: Writable, bytes: Uint8Array, written?: () => void): Promise<void> {
  if (bytes.length === 0) {
    written?.();
    return;
  }
  if (!output.write(bytes, written === undefined ? undefined : () => written())) await once(output, 'drain');
}

/** writeAll, resolved once the bytes have left (the caller may then reuse their buffer). */
export function writeOut(output: Writable, bytes: Uint8Array): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    writeAll(output, bytes, resolve).catch(reject);
  });
}
