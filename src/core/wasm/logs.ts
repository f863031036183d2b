// The core's calls on access log lines (assembly/log.ts): the fields of one line, of every line of a chunk,
// and the URL lines of a chunk (each request target, `http://<host>` in front of relative ones).
import { CHAR_LF, LOG_RECORD_SIZE, LOG_LINE_RECORD_SIZE, LOG_RESULT_LINES, LOG_RESULT_MALFORMED, LOG_RESULT_OUTPUT_LENGTH } from '../constants.js';
import { align, MAX_BATCH_BYTES, SENTINEL_SLACK, tooLarge } from './limits.js';
import type { CoreFrame } from './frame.js';

/** URL lines taken from a chunk of access log lines (see extractLogTargets). */
export interface LogTargets {
  /** LF-ended URL lines, one per log line with a request target. */
  urls: Uint8Array;
  /** The input line number of each URL line. */
  numbers: Uint32Array;
  /** Input lines read. */
  lines: number;
  /** Input lines that were not access log lines with a target, and the numbers of the first of them. */
  malformed: number;
  malformedLines: number[];
}

/** Calls on log lines. Made once per core. */
export class LogCalls {
  constructor(private readonly frame: CoreFrame) {}

  /** The fields of one access log line (LOG_* offsets into line), or null when it is not one with a request target. */
  parseLogRecord(line: Uint8Array): Int32Array | null {
    if (line.length > MAX_BATCH_BYTES) throw tooLarge('a log line', line.length, MAX_BATCH_BYTES);
    const frame = this.frame;
    const recordPtr = frame.workPtr;
    const linePtr = recordPtr + LOG_RECORD_SIZE;
    frame.reserve(linePtr + line.length + SENTINEL_SLACK);
    frame.memoryBytes().set(line, linePtr);
    if (frame.exports.parseLogRecord(linePtr, line.length, recordPtr) === 0) return null;
    return new Int32Array(frame.memoryBytes().buffer.slice(recordPtr, recordPtr + LOG_RECORD_SIZE));
  }

  /**
   * Every line of a chunk of log lines read at once (assembly/log.ts parseLogRecords): LOG_LINE_RECORD_SIZE / 4
   * fields per line, the LOG_* offsets relative to the line's start. One call per chunk.
   */
  parseLogRecords(chunk: Uint8Array): Int32Array {
    if (chunk.length > MAX_BATCH_BYTES) throw tooLarge('a batch of log lines', chunk.length, MAX_BATCH_BYTES);
    const frame = this.frame;
    const inputPtr = frame.workPtr;
    const recordsPtr = align(inputPtr + chunk.length + 1 + SENTINEL_SLACK, 16);
    frame.reserve(recordsPtr);
    const memory = frame.memoryBytes();
    memory.set(chunk, inputPtr);
    memory[inputPtr + chunk.length] = CHAR_LF;
    // a record per line: room for the lines there are, not a record per byte
    frame.reserve(recordsPtr + (frame.exports.countLines(inputPtr, chunk.length) + 1) * LOG_LINE_RECORD_SIZE);
    const count = frame.exports.parseLogRecords(inputPtr, chunk.length, recordsPtr);
    return new Int32Array(frame.memoryBytes().buffer.slice(recordsPtr, recordsPtr + count * LOG_LINE_RECORD_SIZE));
  }

  /**
   * The URL lines of a chunk of access log lines (assembly/log.ts): each request target, with
   * `http://<vhost or defaultHost>` in front of relative targets when withHost. Line numbers from firstLineNumber;
   * the numbers of the first maxMalformed lines that are no request lines. One call per chunk.
   */
  extractLogTargets(chunk: Uint8Array, firstLineNumber: number, withHost: boolean, defaultHost: Uint8Array | null, maxMalformed: number): LogTargets {
    if (chunk.length > MAX_BATCH_BYTES) throw tooLarge('a batch of log lines', chunk.length, MAX_BATCH_BYTES);
    const frame = this.frame;
    const lineBound = chunk.length + 1;
    const hostLength = defaultHost?.length ?? 0;
    const inputPtr = frame.workPtr;
    const hostPtr = align(inputPtr + chunk.length + 1 + SENTINEL_SLACK, 16);
    const recordPtr = align(hostPtr + hostLength, 16);
    const numbersPtr = recordPtr + LOG_RECORD_SIZE + 4;
    const malformedPtr = align(numbersPtr + lineBound * 4, 16);
    const outPtr = align(malformedPtr + maxMalformed * 4, 16);
    frame.reserve(outPtr + chunk.length + lineBound * (8 + hostLength + 1) + SENTINEL_SLACK);
    const memory = frame.memoryBytes();
    memory.set(chunk, inputPtr);
    memory[inputPtr + chunk.length] = CHAR_LF;
    if (defaultHost !== null) memory.set(defaultHost, hostPtr);
    const count = frame.exports.extractLogTargets(inputPtr, chunk.length, firstLineNumber, outPtr, numbersPtr, malformedPtr, maxMalformed, withHost ? 1 : 0, hostPtr, hostLength, recordPtr, frame.resultPtr);
    const malformed = frame.result(LOG_RESULT_MALFORMED);
    const listed = Math.min(malformed, maxMalformed);
    const after = frame.memoryBytes();
    return {
      urls: after.slice(outPtr, outPtr + frame.result(LOG_RESULT_OUTPUT_LENGTH)),
      numbers: new Uint32Array(after.buffer.slice(numbersPtr, numbersPtr + count * 4)),
      lines: frame.result(LOG_RESULT_LINES),
      malformed,
      malformedLines: Array.from(new Uint32Array(after.buffer.slice(malformedPtr, malformedPtr + listed * 4))),
    };
  }
}
