// The core's calls on access log lines (assembly/log.ts, the one place of the Apache/nginx format and of the
// rules that make a request's URL line: escapes undone, `http://<host>` in front of a relative target).
import {
  CHAR_LF, LOG_LINE_RECORD_SIZE, LOG_RESULT_LINES, LOG_RESULT_OTHER, LOG_RESULT_URL_BYTES, LOG_RESULT_FIRST_RELATIVE,
  TARGET_ENTRY_TARGET, TARGET_ENTRY_TARGET_LENGTH, TARGET_ENTRY_HOST, TARGET_ENTRY_HOST_LENGTH, TARGET_ENTRY_URL_END, TARGET_ENTRY_URL_HOST, TARGET_ENTRY_SIZE,
} from '../constants.js';
import { align, MAX_BATCH_BYTES, SENTINEL_SLACK, tooLarge } from './limits.js';
import type { CoreFrame } from './frame.js';

/** A chunk of log lines read by the core (see readChunk). */
export interface LogChunk {
  /** LOG_LINE_RECORD_SIZE / 4 fields per line (LOG_* and LOG_LINE_* offsets), or null when none were asked for. */
  records: Int32Array | null;
  /** LF-ended URL lines, one per Apache/nginx request line, in input order (the records say which is whose). */
  urls: Uint8Array;
  /** The input line number of each URL line. */
  numbers: Uint32Array;
  /** Input lines read. */
  lines: number;
  /** Lines that are no Apache/nginx request lines (another format, or none; empty lines are not counted), and the numbers of the first of them. */
  other: number;
  otherLines: number[];
  /** The index of the first URL line that names no host (URL_HOST_NONE), or -1. */
  firstRelative: number;
}

/** How readChunk makes URL lines: with `http://<host>` in front of relative targets (the line's host, else defaultHost) or not. */
export interface UrlLineOptions {
  withHost: boolean;
  /** Latin-1 bytes of the host for lines that name none (--host), or null. */
  defaultHost: Uint8Array | null;
}

/** URL lines the core made for requests read from other formats (see urlLines). */
export interface UrlLines {
  /** LF-ended URL lines, one per request, in order. */
  urls: Uint8Array;
  /** Where each line ends in urls (before its LF). */
  ends: Uint32Array;
  /** Whose host each line names (URL_HOST_*). */
  hosts: Uint8Array;
}

/** Calls on log lines. Made once per core. */
export class LogCalls {
  constructor(private readonly frame: CoreFrame) {}

  /**
   * Every line of a chunk of log lines (whole lines, LF-separated) read in one call: the URL line of each
   * Apache/nginx request line, its input line number (from firstLineNumber), the numbers of the first
   * maxOther lines of other formats (the caller reads those), and with `records`, each line's record.
   * One call per chunk: check --log, diff --log, audit and fetch --log.
   */
  readChunk(chunk: Uint8Array, firstLineNumber: number, options: UrlLineOptions & { records: boolean; maxOther: number }): LogChunk {
    if (chunk.length > MAX_BATCH_BYTES) throw tooLarge('a batch of log lines', chunk.length, MAX_BATCH_BYTES);
    const frame = this.frame;
    const host = options.defaultHost;
    const hostLength = host?.length ?? 0;
    const inputPtr = frame.workPtr;
    const hostPtr = align(inputPtr + chunk.length + 1 + SENTINEL_SLACK, 16);
    frame.reserve(hostPtr + hostLength);
    let memory = frame.memoryBytes();
    memory.set(chunk, inputPtr);
    memory[inputPtr + chunk.length] = CHAR_LF;
    if (host !== null) memory.set(host, hostPtr);
    // a record per line: room for the lines there are (counted only then: a record per byte would be 88 times the chunk)
    const lineBound = options.records ? frame.exports.countLines(inputPtr, chunk.length) + 1 : chunk.length + 1;
    const otherPtr = align(hostPtr + hostLength, 16);
    const numbersPtr = align(otherPtr + options.maxOther * 4, 16);
    const recordsPtr = align(numbersPtr + lineBound * 4, 16);
    const urlsPtr = align(recordsPtr + (options.records ? lineBound * LOG_LINE_RECORD_SIZE : 0), 16);
    frame.reserve(urlsPtr + chunk.length + lineBound * (8 + hostLength + 1) + SENTINEL_SLACK);
    const count = frame.exports.readLogChunk(inputPtr, chunk.length, firstLineNumber, options.records ? recordsPtr : 0, urlsPtr, numbersPtr, otherPtr, options.maxOther, options.withHost ? 1 : 0, hostPtr, hostLength, frame.resultPtr);
    const lines = frame.result(LOG_RESULT_LINES);
    const other = frame.result(LOG_RESULT_OTHER);
    const firstRelative = frame.result(LOG_RESULT_FIRST_RELATIVE);
    memory = frame.memoryBytes();
    return {
      records: options.records ? new Int32Array(memory.buffer.slice(recordsPtr, recordsPtr + lines * LOG_LINE_RECORD_SIZE)) : null,
      urls: memory.slice(urlsPtr, urlsPtr + frame.result(LOG_RESULT_URL_BYTES)),
      numbers: new Uint32Array(memory.buffer.slice(numbersPtr, numbersPtr + count * 4)),
      lines,
      other,
      otherLines: Array.from(new Uint32Array(memory.buffer.slice(otherPtr, otherPtr + Math.min(other, options.maxOther) * 4))),
      firstRelative: firstRelative === 0xffffffff ? -1 : firstRelative,
    };
  }

  /**
   * The URL lines of requests read from other formats (JSON, CloudFront, ALB): each target (latin-1 bytes)
   * with `http://<host>` in front by the same rule as readChunk's (the request's host, else the default
   * host). One call per chunk's such requests.
   */
  urlLines(requests: readonly { target: Uint8Array; host: Uint8Array | null }[], options: UrlLineOptions): UrlLines {
    const frame = this.frame;
    const count = requests.length;
    const defaultHost = options.defaultHost;
    const defaultLength = defaultHost?.length ?? 0;
    let textBytes = defaultLength;
    let longestHost = defaultLength;
    for (const { target, host } of requests) {
      textBytes += target.length + (host?.length ?? 0);
      longestHost = Math.max(longestHost, host?.length ?? 0);
    }
    if (textBytes > MAX_BATCH_BYTES) throw tooLarge('a batch of log requests', textBytes, MAX_BATCH_BYTES);
    const entriesPtr = frame.workPtr;
    const textPtr = align(entriesPtr + count * TARGET_ENTRY_SIZE, 16);
    const outPtr = align(textPtr + textBytes, 16);
    let targetBytes = 0;
    for (const { target } of requests) targetBytes += target.length;
    frame.reserve(outPtr + targetBytes + count * (8 + longestHost + 1) + SENTINEL_SLACK);
    const memory = frame.memoryBytes();
    const words = frame.memoryWords();
    let at = textPtr;
    const put = (bytes: Uint8Array): number => {
      memory.set(bytes, at);
      at += bytes.length;
      return at - bytes.length;
    };
    const defaultPtr = defaultHost !== null ? put(defaultHost) : 0;
    requests.forEach(({ target, host }, i) => {
      const entry = (entriesPtr + i * TARGET_ENTRY_SIZE) >>> 2;
      words[entry + (TARGET_ENTRY_TARGET >> 2)] = put(target);
      words[entry + (TARGET_ENTRY_TARGET_LENGTH >> 2)] = target.length;
      words[entry + (TARGET_ENTRY_HOST >> 2)] = host !== null ? put(host) : 0;
      words[entry + (TARGET_ENTRY_HOST_LENGTH >> 2)] = host?.length ?? 0;
    });
    frame.exports.urlLinesOfTargets(entriesPtr, count, outPtr, options.withHost ? 1 : 0, defaultPtr, defaultLength, frame.resultPtr);
    const after = frame.memoryWords();
    const ends = new Uint32Array(count);
    const hosts = new Uint8Array(count);
    for (let i = 0; i < count; i++) {
      const entry = (entriesPtr + i * TARGET_ENTRY_SIZE) >>> 2;
      ends[i] = after[entry + (TARGET_ENTRY_URL_END >> 2)];
      hosts[i] = after[entry + (TARGET_ENTRY_URL_HOST >> 2)];
    }
    return { urls: frame.memoryBytes().slice(outPtr, outPtr + frame.result(LOG_RESULT_URL_BYTES)), ends, hosts };
  }

  /** A log field (latin-1 bytes) with its escapes undone (a backslash quotes the next byte). Per field that holds a backslash. */
  unescape(field: Uint8Array): Uint8Array {
    const frame = this.frame;
    const srcPtr = frame.workPtr;
    const dstPtr = align(srcPtr + field.length, 16);
    frame.reserve(dstPtr + field.length + SENTINEL_SLACK);
    frame.memoryBytes().set(field, srcPtr);
    const length = frame.exports.unescapeLogField(srcPtr, field.length, dstPtr);
    return frame.memoryBytes().slice(dstPtr, dstPtr + length);
  }
}
