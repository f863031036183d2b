// The only module that touches WebAssembly pointers. Everything else speaks bytes and objects.
//
// Linear memory of one instance (one per thread), addresses growing to the right:
//
//   0            heapBase = blobPtr          dfaPtr                          batchPtr
//   | AS statics | matcher blob slot        | automaton region              | input bytes, LF sentinel | offsets u32[n+1] | verdicts u8[n] | output | scratch -> (grows)
//                | (copied in when the      | (lazily built DFA of the       \_______________ per-call batch region, laid out afresh every call ______________/
//                |  active matcher changes) |  active matcher; reset with it)
//
// - Matcher blob (layout in assembly/compile.ts and assembly/literal.ts): header | trie nodes | edge labels |
//   edge targets | rule records | normalised patterns | literal trie (the patterns without '*', path-compressed).
//   Position-independent (all offsets relative to its start), made by compileRules and copied
//   out to a JavaScript Uint8Array that the RobotsMatcher owns (the GC frees it; workers get copies).
//   It is copied back into the slot only when a different matcher becomes active (loadMatcher).
// - Automaton region: states and transitions the core builds as URLs need them (assembly/dfa.ts); it
//   survives between calls for the same matcher and is flushed when full.
// - Batch region: nothing survives a call. matchLines needs an LF right after the input (the sentinel that
//   lets the core's line loop run without bounds checks) and 16 readable bytes after that (SENTINEL_SLACK).
// - Scratch: the NFA's work lists (3 x 4 bytes per trie node) and rfc-mode path buffers; the core grows
//   memory itself when it needs more, so views are re-created whenever memory.buffer changes.
// - compileRules uses the batch region as its work area and returns the blob's address there.
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { CHAR_LF, LINE_RECORD_SIZE, OUTPUT_ALL, HEADER_TOTAL_LENGTH, RESULT_VERDICT, RESULT_ALLOW_RULE, RESULT_DISALLOW_RULE, RESULT_SIZE, RULE_INPUT_SIZE } from '../constants.js';
import { RobotsError } from '../errors.js';

interface CoreExports {
  memory: WebAssembly.Memory;
  heapBase(): number;
  reserve(endAddress: number): void;
  normalizePattern(srcPtr: number, srcLen: number, dstPtr: number, flags: number): number;
  extractPath(urlPtr: number, urlLen: number, dstPtr: number): number;
  compileRules(inputPtr: number, ruleCount: number, flags: number, workPtr: number): number;
  tokenizeLines(bodyPtr: number, length: number, from: number, google: number, recordsPtr: number): number;
  loadMatcher(blobPtr: number, dfaPtr: number, dfaBytes: number): void;
  useNfaForBulk(value: number, automatonStateLimit: number): void;
  automatonStats(): bigint;
  setPairWalks(mode: number): void;
  setLiteralTrie(mode: number): void;
  matchOne(scratchPtr: number, urlPtr: number, urlLen: number, resultPtr: number): number;
  matchLines(scratchPtr: number, inputPtr: number, inputLen: number, verdictsPtr: number, outputPtr: number, filter: number): number;
  lastOutputLength(): number;
  matchOffsets(scratchPtr: number, offsetsPtr: number, count: number, bytesPtr: number, verdictsPtr: number): void;
}

/** One rule as the core compiles it: kind, line number and the raw value bytes (normalised inside). */
export interface RuleInput {
  kind: number;
  line: number;
  value: Uint8Array;
}

/** Verdict of one URL with the indexes (into the compiled blob's rule table) of the best allow and disallow rules. */
export interface CoreMatch {
  verdict: number;
  allowRule: number;
  disallowRule: number;
}

// From src/wasm/ (tests run the sources) or dist/src/wasm/ (the built package): the same file at the top.
const WASM_CANDIDATES = ['../../build/robotstxt.wasm', '../../../build/robotstxt.wasm'].map((relative) => fileURLToPath(new URL(relative, import.meta.url)));
let compiledModule: WebAssembly.Module | null = null;

/** The compiled module, read and compiled once per thread (shareable with workers). */
export function wasmModule(): WebAssembly.Module {
  if (compiledModule === null) {
    const path = WASM_CANDIDATES.find((candidate) => existsSync(candidate));
    if (path === undefined) {
      throw new RobotsError('WASM_UNAVAILABLE', `the WebAssembly core is missing (looked for ${WASM_CANDIDATES.join(', ')}): run npm run build`);
    }
    compiledModule = new WebAssembly.Module(readFileSync(path));
  }
  return compiledModule;
}

const encoder = new TextEncoder();
const align = (value: number, to: number): number => Math.ceil(value / to) * to;

/** Automaton region size for a blob: room for many states, bounded (flushed when full). */
function automatonBytes(blobLength: number): number {
  return align(Math.min(AUTOMATON_MAX_BYTES, AUTOMATON_MIN_BYTES + 16 * blobLength), 65536);
}
// Small for small matchers: switching matchers (--robots-dir) resets the region, and a reset clears its hash table.
const AUTOMATON_MIN_BYTES = 1 << 20;
const AUTOMATON_MAX_BYTES = 64 << 20;
/** Bytes the core may read past the LF sentinel (its line-end search reads 8 bytes at a time). */
const SENTINEL_SLACK = 16;

/** A switch the core decides by itself ('auto') unless a test or an A/B run forces it. */
export type Tristate = 'auto' | 'always' | 'never';
/** The automaton's switches (tests and A/B runs; each 'auto' unless given). */
export interface BulkEngineSwitches {
  /** Caps the automaton's states (0 = no cap): with a few, overflow and the NFA fallback run constantly. */
  automatonStateLimit?: number;
  /** Two lines walked at once ('auto': for large automata). */
  pairWalks?: Tristate;
  /** Patterns without '*' answered by the literal trie ('auto': large literal rule sets; 'always' applies to matchers compiled after the call). */
  literalTrie?: Tristate;
}
const tristateCode = (value: Tristate): number => (value === 'auto' ? 0 : value === 'always' ? 1 : 2);

/** One instance of the core with its memory. Created once per thread (see core()); not thread-safe. */
export class WasmCore {
  private readonly exports: CoreExports;
  private bytes: Uint8Array;
  private words: Uint32Array;
  private readonly blobPtr: number;
  private blobCapacity = 0;
  private dfaBytes = 0;

  private loadedBlob: Uint8Array | null = null;

  constructor(module: WebAssembly.Module = wasmModule()) {
    const instance = new WebAssembly.Instance(module, { env: { abort: () => { throw new RobotsError('WASM_UNAVAILABLE', 'the WebAssembly core aborted'); } } });
    this.exports = instance.exports as unknown as CoreExports;
    this.blobPtr = this.exports.heapBase();
    this.bytes = new Uint8Array(this.exports.memory.buffer);
    this.words = new Uint32Array(this.exports.memory.buffer);
  }

  /** Views die when memory grows: call after every export that may grow memory, and after reserve. */
  private refreshViews(): void {
    if (this.bytes.buffer !== this.exports.memory.buffer) {
      this.bytes = new Uint8Array(this.exports.memory.buffer);
      this.words = new Uint32Array(this.exports.memory.buffer);
    }
  }

  private reserve(endAddress: number): void {
    if (endAddress > this.exports.memory.buffer.byteLength) this.exports.reserve(endAddress);
    this.refreshViews();
  }

  private get dfaPtr(): number {
    return align(this.blobPtr + this.blobCapacity, 16);
  }

  private get batchPtr(): number {
    return align(this.dfaPtr + this.dfaBytes, 16);
  }

  /** Makes blob the active matcher: copies it into the slot and resets the automaton, unless it is active already. */
  private useBlob(blob: Uint8Array): void {
    if (this.loadedBlob === blob) return;
    if (blob.length > this.blobCapacity) this.blobCapacity = align(blob.length, 65536);
    this.dfaBytes = Math.max(this.dfaBytes, automatonBytes(blob.length));
    this.reserve(this.batchPtr);
    this.bytes.set(blob, this.blobPtr);
    this.exports.loadMatcher(this.blobPtr, this.dfaPtr, this.dfaBytes);
    this.refreshViews();
    this.loadedBlob = blob;
  }

  /** Automaton statistics of the active matcher: states built, and region resets since the instance started. */
  automatonStats(): { states: number; resets: number; regionBytes: number } {
    const packed = this.exports.automatonStats();
    return { states: Number(packed & 0xffffffffn), resets: Number(packed >> 32n), regionBytes: this.dfaBytes };
  }

  /**
   * Tests and A/B runs: bulk calls by the trie NFA, or by the automaton with its switches forced (see
   * BulkEngineSwitches); called with only an engine, every switch goes back to 'auto'.
   */
  setBulkEngine(engine: 'automaton' | 'nfa', switches: BulkEngineSwitches = {}): void {
    this.exports.useNfaForBulk(engine === 'nfa' ? 1 : 0, switches.automatonStateLimit ?? 0);
    this.exports.setPairWalks(tristateCode(switches.pairWalks ?? 'auto'));
    this.exports.setLiteralTrie(tristateCode(switches.literalTrie ?? 'auto'));
    this.loadedBlob = null;
  }

  /** Line records of a robots.txt body (see assembly/lines.ts): an Int32Array of LINE_RECORD_SIZE / 4 fields each. */
  tokenizeLines(body: Uint8Array, from: number, google: boolean): Int32Array {
    const bodyPtr = this.batchPtr;
    const recordsPtr = align(bodyPtr + body.length, 16);
    // at most one record per line and a line per byte: reserved, but only the records written are touched
    this.reserve(recordsPtr + (body.length + 2) * LINE_RECORD_SIZE);
    this.bytes.set(body, bodyPtr);
    const count = this.exports.tokenizeLines(bodyPtr, body.length, from, google ? 1 : 0, recordsPtr);
    return new Int32Array(this.bytes.buffer.slice(recordsPtr, recordsPtr + count * LINE_RECORD_SIZE));
  }

  /** Compiles rules (in file order) into a matcher blob, returned as an owned copy. */
  compile(rules: readonly RuleInput[], flags: number): Uint8Array {
    // Rule values are usually views into one robots.txt body: copy the span they cover once.
    let shared = rules.length > 0;
    let spanStart = Infinity;
    let spanEnd = 0;
    let valueBytes = 0;
    const buffer = rules.length > 0 ? rules[0].value.buffer : null;
    for (const rule of rules) {
      valueBytes += rule.value.length;
      if (rule.value.buffer !== buffer) shared = false;
      spanStart = Math.min(spanStart, rule.value.byteOffset);
      spanEnd = Math.max(spanEnd, rule.value.byteOffset + rule.value.length);
    }
    if (shared && spanEnd - spanStart > 4 * valueBytes + 4096) shared = false; // a few rules in a big body
    const inputPtr = this.batchPtr;
    const valuesPtr = align(inputPtr + rules.length * RULE_INPUT_SIZE, 8);
    const workPtr = align(valuesPtr + (shared ? spanEnd - spanStart : valueBytes), 16);
    this.reserve(workPtr);
    const words = this.words;
    const bytes = this.bytes;
    if (shared) bytes.set(new Uint8Array(buffer as ArrayBufferLike, spanStart, spanEnd - spanStart), valuesPtr);
    let valuePtr = valuesPtr;
    for (let index = 0; index < rules.length; index++) {
      const rule = rules[index];
      const value = rule.value;
      const record = (inputPtr >> 2) + index * (RULE_INPUT_SIZE >> 2);
      words[record] = rule.kind;
      words[record + 1] = rule.line;
      words[record + 3] = value.length;
      if (shared) {
        words[record + 2] = valuesPtr + value.byteOffset - spanStart;
      } else {
        words[record + 2] = valuePtr;
        bytes.set(value, valuePtr);
        valuePtr += value.length;
      }
    }
    const blobAt = this.exports.compileRules(inputPtr, rules.length, flags, workPtr);
    this.refreshViews();
    const length = this.words[(blobAt + HEADER_TOTAL_LENGTH) >> 2];
    return this.bytes.slice(blobAt, blobAt + length);
  }

  /** One URL (bytes) against a blob, with the deciding rule indexes. */
  matchOne(blob: Uint8Array, url: Uint8Array): CoreMatch {
    this.useBlob(blob);
    const resultPtr = this.batchPtr;
    const urlPtr = resultPtr + RESULT_SIZE;
    const scratchPtr = align(urlPtr + url.length, 16);
    this.reserve(scratchPtr);
    this.bytes.set(url, urlPtr);
    this.exports.matchOne(scratchPtr, urlPtr, url.length, resultPtr);
    this.refreshViews();
    const result = new Int32Array(this.bytes.buffer, resultPtr, RESULT_SIZE >> 2);
    return { verdict: result[RESULT_VERDICT >> 2], allowRule: result[RESULT_ALLOW_RULE >> 2], disallowRule: result[RESULT_DISALLOW_RULE >> 2] };
  }

  /** One URL string, verdict only (the single-check path: no allocation but the UTF-8 bytes in memory). */
  matchString(blob: Uint8Array, url: string): number {
    this.useBlob(blob);
    const resultPtr = this.batchPtr;
    const urlPtr = resultPtr + RESULT_SIZE;
    const maxBytes = url.length * 3;
    const scratchPtr = align(urlPtr + maxBytes, 16);
    this.reserve(scratchPtr);
    const written = encoder.encodeInto(url, this.bytes.subarray(urlPtr, urlPtr + maxBytes)).written;
    const verdict = this.exports.matchOne(scratchPtr, urlPtr, written, resultPtr);
    this.refreshViews();
    return verdict;
  }

  /** Verdict bytes for the LF-separated lines of input (see matchLines in assembly/index.ts). */
  matchLines(blob: Uint8Array, input: Uint8Array): Uint8Array {
    const { verdictsPtr, count } = this.runLines(blob, input, false, OUTPUT_ALL);
    return this.bytes.slice(verdictsPtr, verdictsPtr + count);
  }

  /** Matches the lines of input and returns the command line's output bytes for them (filter: OUTPUT_*). */
  matchAndFormatLines(blob: Uint8Array, input: Uint8Array, filter: number): { output: Uint8Array; verdicts: Uint8Array } {
    const { verdictsPtr, count, outputPtr } = this.runLines(blob, input, true, filter);
    const length = this.exports.lastOutputLength();
    return { output: this.bytes.slice(outputPtr, outputPtr + length), verdicts: this.bytes.slice(verdictsPtr, verdictsPtr + count) };
  }

  /**
   * For worker replies: matches and formats, and writes [line count u32 | output length u32 | verdicts | output]
   * into target when it fits (returns null), else into a new buffer (returned). One copy out of linear memory.
   */
  matchLinesPacked(blob: Uint8Array, input: Uint8Array, filter: number, target: Uint8Array | null): Uint8Array | null {
    const { verdictsPtr, count, outputPtr } = this.runLines(blob, input, true, filter);
    const length = this.exports.lastOutputLength();
    const fits = target !== null && 8 + count + length <= target.length;
    const packed = fits ? (target as Uint8Array) : new Uint8Array(8 + count + length);
    const header = new DataView(packed.buffer, packed.byteOffset, 8);
    header.setUint32(0, count, true);
    header.setUint32(4, length, true);
    packed.set(this.bytes.subarray(verdictsPtr, verdictsPtr + count), 8);
    packed.set(this.bytes.subarray(outputPtr, outputPtr + length), 8 + count);
    return fits ? null : packed;
  }

  private runLines(blob: Uint8Array, input: Uint8Array, format: boolean, filter: number): { verdictsPtr: number; count: number; outputPtr: number } {
    this.useBlob(blob);
    const inputPtr = this.batchPtr;
    const verdictsPtr = align(inputPtr + input.length + 1 + SENTINEL_SLACK, 16);
    const outputPtr = align(verdictsPtr + input.length + 1, 16);
    // each line writes at most 11 prefix bytes more than it reads (plus 8 bytes of copy slack)
    const scratchPtr = align(outputPtr + (format ? input.length + 1 + 11 * (input.length + 1) + SENTINEL_SLACK : 0), 16);
    this.reserve(scratchPtr);
    this.bytes.set(input, inputPtr);
    this.bytes[inputPtr + input.length] = CHAR_LF;
    const count = this.exports.matchLines(scratchPtr, inputPtr, input.length, verdictsPtr, format ? outputPtr : 0, filter);
    this.refreshViews();
    return { verdictsPtr, count, outputPtr };
  }

  /**
   * Verdict bytes for many URL strings, one call for the batch. All strings are UTF-8 encoded by one
   * encodeInto of their concatenation; when that is pure ASCII the offsets follow from the string lengths,
   * otherwise each string is encoded on its own.
   */
  matchStrings(blob: Uint8Array, urls: readonly string[]): Uint8Array {
    this.useBlob(blob);
    const count = urls.length;
    const joined = urls.join('');
    const maxBytes = joined.length * 3;
    const offsetsPtr = this.batchPtr;
    const verdictsPtr = align(offsetsPtr + (count + 1) * 4, 16);
    const bytesPtr = align(verdictsPtr + count, 16);
    const scratchPtr = align(bytesPtr + maxBytes + 1, 16);
    this.reserve(scratchPtr);
    const offsetsIndex = offsetsPtr >> 2;
    const words = this.words;
    const written = encoder.encodeInto(joined, this.bytes.subarray(bytesPtr, bytesPtr + maxBytes)).written;
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
        offset += encoder.encodeInto(urls[i], this.bytes.subarray(bytesPtr + offset, bytesPtr + maxBytes)).written;
        words[offsetsIndex + i + 1] = offset;
      }
    }
    this.exports.matchOffsets(scratchPtr, offsetsPtr, count, bytesPtr, verdictsPtr);
    this.refreshViews();
    return this.bytes.slice(verdictsPtr, verdictsPtr + count);
  }

  /** The normalised form of one allow/disallow value (tests, explain). */
  normalizePattern(value: Uint8Array, flags: number): Uint8Array {
    const srcPtr = this.batchPtr;
    const dstPtr = srcPtr + value.length;
    this.reserve(dstPtr + value.length * 3 + 16);
    this.bytes.set(value, srcPtr);
    const length = this.exports.normalizePattern(srcPtr, value.length, dstPtr, flags);
    return this.bytes.slice(dstPtr, dstPtr + length);
  }

  /** The path the reference matches for a URL (tests, explain). */
  extractPath(url: Uint8Array): Uint8Array {
    const srcPtr = this.batchPtr;
    const dstPtr = srcPtr + url.length;
    this.reserve(dstPtr + url.length + 16);
    this.bytes.set(url, srcPtr);
    const length = this.exports.extractPath(srcPtr, url.length, dstPtr);
    return this.bytes.slice(dstPtr, dstPtr + length);
  }
}

let threadCore: WasmCore | null = null;

/** This thread's core, instantiated on first use. */
export function core(): WasmCore {
  if (threadCore === null) threadCore = new WasmCore();
  return threadCore;
}
