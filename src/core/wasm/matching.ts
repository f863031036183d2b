// The core's calls that match URLs against one library matcher (a RobotsMatcher's compiled rules, made
// resident and bound by resident.ts): one URL, many URL strings, chunks of URL lines with their text or jsonl
// output, and the deciding rules of each line. Chunks of lines lie in the batch region (stable while the
// heap grows); everything else in the work area.
import {
  CHAR_LF, OUTPUT_ALL, RESULT_VERDICT, RESULT_ALLOW_RULE, RESULT_DISALLOW_RULE, RESULT_SIZE, RULE_REF_SIZE, RULE_REF_RECORD, RULE_SIZE,
  HEADER_RULES_OFFSET, JSONL_SCRATCH_BYTES, MAX_LINE_BYTES, LINES_RESULT_OUTPUT_LENGTH, LINES_RESULT_INPUT_STOP, JSONL_RESULT_LINES, JSONL_RESULT_INPUT_END,
} from '../constants.js';
import { RobotsError } from '../errors.js';
import { align, MAX_BATCH_BYTES, OUTPUT_PIECE_BYTES, SENTINEL_SLACK, tooLarge } from './limits.js';
import { OutputPieces } from './output.js';
import type { CoreFrame } from './frame.js';
import type { CompiledRules, ResidentMatchers } from './resident.js';
import type { CoreExports } from './exports.js';

const encoder = new TextEncoder();

/** Verdict of one URL with the indexes (into the compiled blob's rule table) of the best allow and disallow rules. */
export interface CoreMatch {
  verdict: number;
  allowRule: number;
  disallowRule: number;
}

/** Where a chunk of lines and its results lie in the batch region after runLines. */
interface LinesRun {
  inputPtr: number;
  verdictsPtr: number;
  count: number;
  outputPtr: number;
  outputLength: number;
  rulesPtr: number;
}

/** Calls that match against one matcher. Made once per core. */
export class MatchCalls {
  private readonly exports: CoreExports;

  constructor(private readonly frame: CoreFrame, private readonly resident: ResidentMatchers) {
    this.exports = frame.exports;
  }

  /** One URL (bytes) against a matcher, with the deciding rule indexes. */
  matchOne(rules: CompiledRules, url: Uint8Array): CoreMatch {
    if (url.length > MAX_BATCH_BYTES) throw tooLarge('a URL', url.length, MAX_BATCH_BYTES);
    const resultPtr = this.resident.bind(rules, false); // the work area: 16-aligned
    const urlPtr = resultPtr + RESULT_SIZE;
    const scratchPtr = align(urlPtr + url.length, 16);
    this.frame.reserve(scratchPtr);
    this.frame.memoryBytes().set(url, urlPtr);
    this.frame.exports.matchOne(scratchPtr, urlPtr, url.length, resultPtr);
    const result = new Int32Array(this.frame.memoryBytes().buffer, resultPtr, RESULT_SIZE >> 2);
    return { verdict: result[RESULT_VERDICT >> 2], allowRule: result[RESULT_ALLOW_RULE >> 2], disallowRule: result[RESULT_DISALLOW_RULE >> 2] };
  }

  /** One URL string, verdict only (the single-check path: no allocation but the UTF-8 bytes in memory). */
  matchString(rules: CompiledRules, url: string): number {
    if (url.length * 3 > MAX_BATCH_BYTES) throw tooLarge('a URL', url.length * 3, MAX_BATCH_BYTES);
    const resultPtr = this.resident.bind(rules, false); // the work area: 16-aligned
    const urlPtr = resultPtr + RESULT_SIZE;
    const maxBytes = url.length * 3;
    const scratchPtr = align(urlPtr + maxBytes, 16);
    this.frame.reserve(scratchPtr);
    const written = encoder.encodeInto(url, this.frame.memoryBytes().subarray(urlPtr, urlPtr + maxBytes)).written;
    return this.exports.matchOne(scratchPtr, urlPtr, written, resultPtr) as number;
  }

  /**
   * Verdict bytes for many URL strings, one call for the batch. All strings are UTF-8 encoded by one
   * encodeInto of their concatenation; when that is pure ASCII the offsets follow from the string lengths,
   * otherwise each string is encoded on its own.
   */
  matchStrings(rules: CompiledRules, urls: readonly string[]): Uint8Array {
    const count = urls.length;
    const joined = urls.join('');
    const maxBytes = joined.length * 3;
    if (maxBytes > MAX_BATCH_BYTES) throw tooLarge('a batch of URLs', maxBytes, MAX_BATCH_BYTES);
    const offsetsPtr = this.resident.bind(rules, true);
    const verdictsPtr = align(offsetsPtr + (count + 1) * 4, 16);
    const bytesPtr = align(verdictsPtr + count, 16);
    const scratchPtr = align(bytesPtr + maxBytes + 1, 16);
    this.frame.reserve(scratchPtr);
    const offsetsIndex = offsetsPtr >>> 2;
    const words = this.frame.memoryWords();
    const bytes = this.frame.memoryBytes();
    const written = encoder.encodeInto(joined, bytes.subarray(bytesPtr, bytesPtr + maxBytes)).written;
    words[offsetsIndex] = 0;
    if (written === joined.length) {
      let offset = 0;
      for (let i = 0; i < count; i++) {
        offset += urls[i].length;
        words[offsetsIndex + i + 1] = offset;
      }
    } else {
      let offset = 0;
      for (let i = 0; i < count; i++) {
        offset += encoder.encodeInto(urls[i], bytes.subarray(bytesPtr + offset, bytesPtr + maxBytes)).written;
        words[offsetsIndex + i + 1] = offset;
      }
    }
    this.frame.exports.matchOffsets(scratchPtr, offsetsPtr, count, bytesPtr, verdictsPtr);
    const verdicts = this.frame.memoryBytes().slice(verdictsPtr, verdictsPtr + count);
    this.resident.growIfOverflowed(rules);
    return verdicts;
  }

  /** Verdict bytes for the LF-separated lines of input (see matchLines in assembly/index.ts). */
  matchLines(rules: CompiledRules, input: Uint8Array): Uint8Array {
    const run = this.runLines(rules, input, false, OUTPUT_ALL, false);
    return this.frame.memoryBytes().slice(run.verdictsPtr, run.verdictsPtr + run.count);
  }

  /**
   * Matches the lines of input and returns the text output for them (filter: OUTPUT_*): copied into `into`
   * when it fits (the result is then a view of it), else into a new buffer.
   */
  matchAndFormatLines(rules: CompiledRules, input: Uint8Array, filter: number, into: Uint8Array | null = null): { output: Uint8Array; verdicts: Uint8Array } {
    const run = this.runLines(rules, input, true, filter, false);
    const memory = this.frame.memoryBytes();
    const output = new OutputPieces(into);
    output.add(memory.subarray(run.outputPtr, run.outputPtr + run.outputLength));
    return { output: output.result(), verdicts: memory.slice(run.verdictsPtr, run.verdictsPtr + run.count) };
  }

  /**
   * For worker replies: matches and formats the lines of input, and returns the verdicts and text output as
   * views of linear memory, valid until the next call on this core (the caller copies them into its reply).
   */
  matchAndFormatLinesInPlace(rules: CompiledRules, input: Uint8Array, filter: number): { output: Uint8Array; verdicts: Uint8Array } {
    const run = this.runLines(rules, input, true, filter, false);
    const memory = this.frame.memoryBytes();
    return { output: memory.subarray(run.outputPtr, run.outputPtr + run.outputLength), verdicts: memory.subarray(run.verdictsPtr, run.verdictsPtr + run.count) };
  }

  /**
   * jsonl for the lines of input: verdicts with their deciding rules (explain mode of the bulk engine), then
   * one JSON object per line (assembly/format.ts). Input numbers: numbers[i], or firstNumber + i. With `into`
   * (a buffer the caller reuses from chunk to chunk), the output is a view of it when it fits.
   */
  explainAndFormatJsonl(rules: CompiledRules, input: Uint8Array, filter: number, firstNumber: number, numbers: Uint32Array | null, into: Uint8Array | null = null): { output: Uint8Array; verdicts: Uint8Array } {
    const run = this.runLines(rules, input, false, filter, true);
    const verdicts = this.frame.memoryBytes().slice(run.verdictsPtr, run.verdictsPtr + run.count);
    const output = this.formatJsonl(run.inputPtr, input.length, run.count, run.verdictsPtr, run.rulesPtr, firstNumber, numbers, filter, into);
    return { output, verdicts };
  }

  /**
   * Verdicts and deciding rules of the lines of input (explain mode of the bulk engine, one call per batch):
   * per line its verdict byte and the index in the blob of the rule that decided it (-1: none did; for
   * `<dir>/$`, the index.htm rule's derived rule). What explain() says of each URL, without a call per URL.
   */
  explainLines(rules: CompiledRules, input: Uint8Array): { verdicts: Uint8Array; rules: Int32Array } {
    const run = this.runLines(rules, input, false, OUTPUT_ALL, true);
    // a compiled blob's rule records follow its header's rules offset
    const blob = this.resident.view(rules);
    const rulesBase = this.resident.address(rules) + new DataView(blob.buffer, blob.byteOffset, blob.byteLength).getUint32(HEADER_RULES_OFFSET, true);
    const indexes = new Int32Array(run.count);
    const memory = new DataView(this.frame.memoryBytes().buffer);
    for (let i = 0; i < run.count; i++) {
      const record = memory.getUint32(run.rulesPtr + i * RULE_REF_SIZE + RULE_REF_RECORD, true);
      indexes[i] = record === 0 ? -1 : (record - rulesBase) / RULE_SIZE;
    }
    return { verdicts: this.frame.memoryBytes().slice(run.verdictsPtr, run.verdictsPtr + run.count), rules: indexes };
  }

  /**
   * jsonl output for lineCount lines at inputPtr (with their verdicts and rule references in memory), in
   * pieces when the output area is full. For this module and hosts-engine.ts; addresses in the batch region
   * or a heap block. With `into`, the output is copied there when it fits (the result is then a view of it),
   * else into a new buffer.
   */
  formatJsonl(inputPtr: number, inputLength: number, lineCount: number, verdictsPtr: number, rulesPtr: number, firstNumber: number, numbers: Uint32Array | null, filter: number, into: Uint8Array | null = null): Uint8Array {
    const frame = this.frame;
    const output = new OutputPieces(into);
    let done = 0;
    let p = inputPtr;
    // the input numbers (when given) once, before the output area; with `into`, pieces of OUTPUT_PIECE_BYTES
    // copied into it (a larger area only for a line that needs it: 6 bytes per URL or pattern byte at most,
    // a pattern 3 per value byte, one line at most), without it one area for all (one copy out, no join);
    // after the output, where a rule named by its raw value (a direct answer) is normalised to be printed
    const numbersPtr = numbers !== null ? frame.workPtr : 0;
    const outputPtr = numbers !== null ? align(numbersPtr + lineCount * 4, 16) : frame.workPtr;
    if (numbers !== null) {
      frame.reserve(outputPtr);
      frame.memoryWords().set(numbers.subarray(0, lineCount), numbersPtr >>> 2);
    }
    const wholeBytes = Math.min(MAX_BATCH_BYTES, 6 * inputLength + 256 * lineCount + 18 * MAX_LINE_BYTES + 65536);
    let outputBytes = into !== null ? Math.min(OUTPUT_PIECE_BYTES, wholeBytes) : wholeBytes;
    while (done < lineCount) {
      const scratchPtr = align(outputPtr + outputBytes, 16);
      frame.reserve(scratchPtr + JSONL_SCRATCH_BYTES);
      const length = frame.exports.formatJsonlLines(p, lineCount - done, verdictsPtr + done, rulesPtr + done * RULE_REF_SIZE, numbersPtr === 0 ? 0 : numbersPtr + done * 4, firstNumber + done, outputPtr, outputPtr + outputBytes, filter, scratchPtr, frame.resultPtr);
      const lines = frame.result(JSONL_RESULT_LINES);
      if (lines === 0 && length === 0) {
        if (outputBytes < wholeBytes) {
          outputBytes = wholeBytes;
          continue;
        }
        throw new RobotsError('INPUT_TOO_LARGE', `a line's jsonl output does not fit ${outputBytes} bytes`);
      }
      output.add(frame.memoryBytes().subarray(outputPtr, outputPtr + length));
      done += lines;
      p = frame.result(JSONL_RESULT_INPUT_END) >>> 0;
    }
    return output.result();
  }

  /**
   * Matches the lines of input in the batch region (stable while the heap grows): the automaton region
   * starts small and is grown whenever a call stops because it filled up, then the call goes on.
   */
  private runLines(rules: CompiledRules, input: Uint8Array, format: boolean, filter: number, explain: boolean): LinesRun {
    // explained lines name their rules by address until they are read: the blob must not move meanwhile
    return explain ? this.frame.heap.keepingBlocks(() => this.runLinesNow(rules, input, format, filter, explain)) : this.runLinesNow(rules, input, format, filter, explain);
  }

  private runLinesNow(rules: CompiledRules, input: Uint8Array, format: boolean, filter: number, explain: boolean): LinesRun {
    if (input.length > MAX_BATCH_BYTES) throw tooLarge('a batch of lines', input.length, MAX_BATCH_BYTES);
    const frame = this.frame;
    const lineBound = input.length + 1;
    const inputPtr = frame.batchBase;
    const verdictsPtr = align(inputPtr + input.length + 1 + SENTINEL_SLACK, 16);
    const rulesPtr = align(verdictsPtr + lineBound, 16);
    const outputPtr = align(rulesPtr + (explain ? lineBound * RULE_REF_SIZE : 0), 16);
    // each line writes at most 11 prefix bytes more than it reads (plus 8 bytes of copy slack)
    const batchEnd = align(outputPtr + (format ? input.length + 1 + 11 * lineBound + SENTINEL_SLACK : 0), 16);
    frame.ensureBatch(batchEnd - frame.batchBase);
    const memory = frame.memoryBytes();
    memory.set(input, inputPtr);
    memory[inputPtr + input.length] = CHAR_LF;
    const end = inputPtr + input.length;
    let p = inputPtr;
    let count = 0;
    let outputLength = 0;
    while (true) {
      const workPtr = this.resident.bind(rules, true);
      const growable = this.resident.automatonCanGrow(rules);
      const done = frame.exports.matchLines(workPtr, p, end - p, verdictsPtr + count, format ? outputPtr + outputLength : 0, filter, explain ? rulesPtr + count * RULE_REF_SIZE : 0, growable ? 1 : 0, frame.resultPtr);
      count += done;
      if (format) outputLength += frame.result(LINES_RESULT_OUTPUT_LENGTH);
      p = frame.result(LINES_RESULT_INPUT_STOP) >>> 0;
      if (p >= end) break;
      this.resident.growAutomaton(rules);
    }
    return { inputPtr, verdictsPtr, count, outputPtr, outputLength, rulesPtr };
  }
}
