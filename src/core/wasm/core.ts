// The WebAssembly core's host side: instantiation, memory regions, and the library matcher calls. With
// heap.ts and hosts-engine.ts beside it, the only code that touches WebAssembly pointers; everything else
// speaks bytes and objects.
//
// Linear memory of one instance (one per thread), addresses growing to the right:
//
//   0            batchBase                    heap.base                                   workPtr
//   | AS statics | batch region               | matcher heap (heap.ts)                    | work area -> (grows)
//                | library batches: input, LF | blocks that outlive calls: compiled       | laid out afresh by every call:
//                | sentinel, offsets,         | matchers (blobs), automaton regions, the  | compile work, NFA scratch,
//                | verdicts, rule references, | many-host slot and host tables and the    | formatted output, host key
//                | output (grows, moving the  | chunk being answered. Compacted when the  | scratch
//                | heap up)                   | budgets would be exceeded: blocks move,   |
//                |                            | owners keep block ids, re-read addresses  |
//
// - Matcher blob (layout in assembly/compile.ts, assembly/layout.ts and assembly/literal.ts, header offsets
//   in src/core/constants.ts): header | normalised patterns | rule records | literal index | trie nodes (16 bytes
//   each) | rule slots | node labels. Position-independent (offsets from its start). compileRobots builds
//   it in the work area; a RobotsMatcher keeps an owned copy (a JavaScript Uint8Array, sent to workers as
//   shared memory) that is made resident in the heap when used (an LRU of RESIDENT_BYTES); the many-host
//   matcher keeps blobs only in the heap.
// - Automaton region (assembly/dfa.ts): a header, byte classes, then states built as URLs need them. One
//   per matcher, made on first bulk use; a fresh region has a zero header. It keeps its states while its
//   matcher stays resident, so switching matchers costs a few loads, not a rebuild.
// - Work area: matchLines needs an LF right after the input (the sentinel that lets the core's line loop
//   run without bounds checks) and 16 readable bytes after that (SENTINEL_SLACK). The core grows memory
//   itself when it needs more, so views are re-created whenever memory.buffer changes.
import {
  CHAR_LF, LINE_RECORD_SIZE, OUTPUT_ALL, HEADER_TOTAL_LENGTH, RESULT_VERDICT, RESULT_ALLOW_RULE, RESULT_DISALLOW_RULE, RESULT_SIZE,
  FLAG_RFC_MODE, RULE_REF_SIZE, RULE_REF_RECORD, RULE_SIZE, HEADER_RULES_OFFSET, AUTOMATON_HEADER_SIZE, AUTOMATON_OVERFLOWS, LOG_RECORD_SIZE, LOG_LINE_RECORD_SIZE, MAX_HOST_KEY_BYTES, JSONL_SCRATCH_BYTES, MAX_LINE_BYTES, HEADER_LITERAL_OFFSET,
} from '../constants.js';
import { RobotsError } from '../errors.js';
import { MatcherHeap, ADDRESS_LIMIT } from './heap.js';

interface CoreExports {
  memory: WebAssembly.Memory;
  heapBase(): number;
  reserve(endAddress: number): void;
  copyBytes(dst: number, src: number, length: number): void;
  normalizePattern(srcPtr: number, srcLen: number, dstPtr: number, flags: number): number;
  extractPath(urlPtr: number, urlLen: number, dstPtr: number): number;
  originKeyOf(linePtr: number, keyPtr: number): number;
  compileRobots(bodyPtr: number, bodyLen: number, agentsPtr: number, flags: number, workPtr: number): number;
  answerUrlFromBody(bodyPtr: number, bodyLen: number, agentsPtr: number, urlPtr: number, urlLen: number, workPtr: number): number;
  tokenizeLines(bodyPtr: number, length: number, from: number, google: number, recordsPtr: number): number;
  bomLength(bodyPtr: number, length: number): number;
  selectGroups(bodyPtr: number, bodyLen: number, agentsPtr: number, flags: number, workPtr: number): number;
  lastSelectedGroups(): number;
  lastSelectedByName(): number;
  bindMatcher(blobPtr: number, dfaPtr: number, dfaBytes: number): void;
  useNfaForBulk(value: number, automatonStateLimit: number): void;
  automatonStats(): bigint;
  setPairWalks(mode: number): void;
  setLiteralIndex(mode: number): void;
  matchOne(scratchPtr: number, urlPtr: number, urlLen: number, resultPtr: number): number;
  matchLines(scratchPtr: number, inputPtr: number, inputLen: number, verdictsPtr: number, outputPtr: number, filter: number, rulesPtr: number, stopOnOverflow: number): number;
  lastOutputLength(): number;
  lastInputStop(): number;
  formatJsonlLines(inputPtr: number, lineCount: number, verdictsPtr: number, rulesPtr: number, numbersPtr: number, firstNumber: number, outputPtr: number, outputEnd: number, filter: number, scratchPtr: number): number;
  lastJsonlLines(): number;
  lastJsonlInputEnd(): number;
  matchOffsets(scratchPtr: number, offsetsPtr: number, count: number, bytesPtr: number, verdictsPtr: number): void;
  parseLogRecord(linePtr: number, lineLen: number, recordPtr: number): number;
  parseLogRecords(inputPtr: number, inputLen: number, recordsPtr: number): number;
  extractLogTargets(inputPtr: number, inputLen: number, firstLineNumber: number, outPtr: number, numbersPtr: number, malformedPtr: number, maxMalformed: number, withHost: number, defaultHostPtr: number, defaultHostLen: number, recordPtr: number): number;
  lastLogLines(): number;
  lastLogMalformed(): number;
  lastLogOutputLength(): number;
  splitLinesByHost(inputPtr: number, inputLen: number, shardCount: number, shardOfLinePtr: number, shardSizesPtr: number, outPtr: number, shardCapacity: number, keyScratch: number): number;
  formatTextLines(inputPtr: number, lineCount: number, verdictsPtr: number, outputPtr: number, filter: number): number;
  countLines(ptr: number, length: number): number;
  countLineEndBytes(ptr: number, length: number): number;
}

/** A chunk split by host for threads (see splitLinesByHost). */
export interface HostShards {
  /** The shard of each input line. */
  shardOfLine: Uint8Array;
  /** Each shard's lines, LF-ended, in input order. */
  shards: Uint8Array[];
}

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

/** Verdict of one URL with the indexes (into the compiled blob's rule table) of the best allow and disallow rules. */
export interface CoreMatch {
  verdict: number;
  allowRule: number;
  disallowRule: number;
}

let compiledModule: WebAssembly.Module | null = null;
let moduleLoader: (() => WebAssembly.Module) | null = null;

/**
 * How this thread gets the compiled module when it first needs it: Node's entries register a synchronous
 * file loader (src/node/core-node.ts); other runtimes call initialize() (src/core/index.ts) first.
 */
export function setWasmModuleLoader(loader: () => WebAssembly.Module): void {
  moduleLoader = loader;
}

/** Sets the compiled module (initialize, or a worker given its parent's module). */
export function setWasmModule(module: WebAssembly.Module): void {
  compiledModule = module;
}

/** True once the module is compiled (or can be, synchronously, by a registered loader). */
export function wasmModuleReady(): boolean {
  return compiledModule !== null || moduleLoader !== null;
}

/** The compiled module, read and compiled once per thread (shareable with workers). */
export function wasmModule(): WebAssembly.Module {
  if (compiledModule === null) {
    if (moduleLoader === null) throw new RobotsError('WASM_UNAVAILABLE', 'the WebAssembly core is not loaded yet: await initialize() (from robotstxt-wasm/core) before parsing');
    compiledModule = moduleLoader();
  }
  return compiledModule;
}

/** Byte arrays joined into one (no Buffer: this module runs in every runtime). */
function concatBytes(pieces: Uint8Array[]): Uint8Array {
  const joined = new Uint8Array(pieces.reduce((sum, piece) => sum + piece.length, 0));
  let at = 0;
  for (const piece of pieces) {
    joined.set(piece, at);
    at += piece.length;
  }
  return joined;
}

/**
 * Output made a piece at a time (each piece a view of wasm memory, copied at once): into `into` while it has
 * room (the result is then a view of it), else joined into a new buffer. For formatJsonl and
 * hosts-engine.ts's formatText, once per chunk.
 */
export class OutputPieces {
  private readonly pieces: Uint8Array[] = [];
  private used = 0;
  private fits: boolean;
  constructor(private readonly into: Uint8Array | null) {
    this.fits = into !== null;
  }
  add(piece: Uint8Array): void {
    const into = this.into as Uint8Array;
    if (this.fits && this.used + piece.length <= into.length) {
      into.set(piece, this.used);
      this.pieces.push(into.subarray(this.used, this.used + piece.length));
      this.used += piece.length;
    } else {
      this.fits = false;
      this.pieces.push(piece.slice());
    }
  }
  result(): Uint8Array {
    if (this.fits) return (this.into as Uint8Array).subarray(0, this.used);
    return this.pieces.length === 1 ? this.pieces[0] : concatBytes(this.pieces);
  }
}

const encoder = new TextEncoder();
export const align = (value: number, to: number): number => Math.ceil(value / to) * to;

/** Largest automaton region of a matcher: room for many states, bounded (flushed when full). */
export function automatonCapBytes(blobLength: number): number {
  return align(Math.min(AUTOMATON_MAX_BYTES, AUTOMATON_CAP_BASE_BYTES + 16 * blobLength), 65536);
}
/** First automaton region of a matcher: small (most matchers need few states); grown x4 when it fills up. */
export function automatonFirstBytes(blobLength: number): number {
  return Math.min(automatonCapBytes(blobLength), align(AUTOMATON_FIRST_BASE_BYTES + 4 * blobLength, 16384));
}
const AUTOMATON_CAP_BASE_BYTES = 1 << 20;
const AUTOMATON_FIRST_BASE_BYTES = 32 << 10;
export const AUTOMATON_MAX_BYTES = 64 << 20;
/** Growth factor of an automaton region that filled up. */
export const AUTOMATON_GROWTH = 4;
/** Bytes the core may read past the LF sentinel (its line-end search reads 8 bytes at a time). */
export const SENTINEL_SLACK = 16;
/** Library matchers kept resident in the heap (least recently used out; the one in use always stays). */
const RESIDENT_BYTES = 64 << 20;
/** Largest robots.txt body compiled in one piece: its trie must fit the 32-bit memory with room to spare. */
export const MAX_COMPILE_BYTES = 16 << 20;

/**
 * The one rule for how much of a robots.txt body is read, for every reader (parseRobots, the many-host
 * matcher, the batch tester, files, the store, fetches): with a size limit (maxBytes 1 to MAX_COMPILE_BYTES)
 * the first maxBytes bytes, the rest cut as crawlers cut it (a body-truncated diagnostic says so); with none
 * (maxBytes 0: the whole body, as robots_main reads it) the whole body, and a body larger than one compile
 * takes is INPUT_TOO_LARGE, never answered from a part.
 */
export function bytesToRead(length: number, maxBytes: number): number {
  if (maxBytes > 0) return Math.min(length, maxBytes);
  if (length > MAX_COMPILE_BYTES) throw bodyTooLarge(length);
  return length;
}

/** The INPUT_TOO_LARGE error of a body read whole that is larger than one compile takes (bytesToRead). */
export function bodyTooLarge(length: number): RobotsError {
  // a reader bounded at MAX_COMPILE_BYTES + 1 (readLimit) knows only that the body is longer
  const size = length > MAX_COMPILE_BYTES + 1 ? `${length} bytes` : `more than ${MAX_COMPILE_BYTES} bytes`;
  return new RobotsError('INPUT_TOO_LARGE', `a robots.txt body of ${size} is larger than one compile takes whole (16 MiB): give a size limit (such as the 512000 bytes crawlers read) to read its first part`);
}

/** Largest input of one matching call (a chunk of lines, or one line). */
export const MAX_BATCH_BYTES = 256 << 20;
/** The work area output is written in, a piece at a time (copied out after each): the area written is memory kept. */
export const OUTPUT_PIECE_BYTES = 1 << 20;

/** A switch the core decides by itself ('auto') unless a test or an A/B run forces it. */
export type Tristate = 'auto' | 'always' | 'never';
/** The automaton's switches (tests and A/B runs; each 'auto' unless given). */
export interface BulkEngineSwitches {
  /** Caps the automaton's states (0 = no cap): with a few, overflow and the NFA fallback run constantly. */
  automatonStateLimit?: number;
  /** Two lines walked at once ('auto': for large automata). */
  pairWalks?: Tristate;
  /** Patterns without '*' answered by a literal index ('auto': large literal rule sets; applies to matchers compiled after the call). */
  literalIndex?: Tristate;
}
const tristateCode = (value: Tristate): number => (value === 'auto' ? 0 : value === 'always' ? 1 : 2);

/** A library matcher's blob made resident in the heap, with its automaton region once bulk calls need one. */
interface ResidentMatcher {
  blobBlock: number;
  automatonBlock: number;
  automatonBytes: number;
}

/** The agent query as the core reads it: [count u32][length u32, bytes]... (UTF-8). */
/** The agent query of no agent (tokenizing needs none). */
const EMPTY_AGENTS = new Uint8Array(4);

export function encodeAgents(agents: readonly string[]): Uint8Array {
  const encoded = agents.map((agent) => encoder.encode(agent));
  const out = new Uint8Array(4 + encoded.reduce((sum, bytes) => sum + 4 + bytes.length, 0));
  const view = new DataView(out.buffer);
  view.setUint32(0, encoded.length, true);
  let offset = 4;
  for (const bytes of encoded) {
    view.setUint32(offset, bytes.length, true);
    out.set(bytes, offset + 4);
    offset += 4 + bytes.length;
  }
  return out;
}

/** The INPUT_TOO_LARGE error of an input past a limit of the core (one wording everywhere). */
export function tooLarge(what: string, bytes: number, limit: number): RobotsError {
  return new RobotsError('INPUT_TOO_LARGE', `${what} of ${bytes} bytes is larger than the ${limit}-byte limit of one WebAssembly call`);
}

/** One instance of the core with its memory. Created once per thread (see core()); not thread-safe. */
export class WasmCore {
  private readonly exports: CoreExports;
  private bytes: Uint8Array;
  private words: Uint32Array;
  /** Blocks that outlive calls (see heap.ts). */
  readonly heap: MatcherHeap;
  /** Start of the batch region (many-host chunks). */
  readonly batchBase: number;
  private batchCapacity = 0;
  private readonly resident = new Map<Uint8Array, ResidentMatcher>();
  /** The literal-index switch setBulkEngine last set. */
  private literalIndexSwitch: Tristate = 'auto';
  /** Blobs used once for one URL (bound in the work area, not resident: see useBlob). */
  private readonly usedOnce = new WeakSet<Uint8Array>();
  private residentBytes = 0;
  private residentBudgetReserved = false;
  /** The library matcher bound now (null: none, or the many-host engine bound one), and the heap epoch then. */
  private bound: ResidentMatcher | null = null;
  private boundEpoch = -1;
  private boundAutomaton = false;

  constructor(module: WebAssembly.Module = wasmModule()) {
    const instance = new WebAssembly.Instance(module, {
      env: {
        abort: () => { throw new RobotsError('WASM_UNAVAILABLE', 'the WebAssembly core aborted'); },
        // literal indexes hash with a seed nobody outside this process knows (assembly/literal.ts asks on its first build)
        randomSeedHalf: () => globalThis.crypto.getRandomValues(new Uint32Array(1))[0],
      },
    });
    this.exports = instance.exports as unknown as CoreExports;
    this.batchBase = this.exports.heapBase();
    this.bytes = new Uint8Array(this.exports.memory.buffer);
    this.words = new Uint32Array(this.exports.memory.buffer);
    this.heap = new MatcherHeap({ reserve: (end) => this.reserve(end), copy: (target, start, end) => this.copyWithin(target, start, end) }, this.batchBase);
  }

  /**
   * Views die when memory grows (the old buffer is detached: its views then have length 0): call after
   * every export that may grow memory, and after reserve. Reading memory.buffer costs more than this check.
   */
  private refreshViews(): void {
    if (this.bytes.length === 0) {
      this.bytes = new Uint8Array(this.exports.memory.buffer);
      this.words = new Uint32Array(this.exports.memory.buffer);
    }
  }

  /** memmove inside linear memory (the core's memory.copy). */
  copyWithin(target: number, start: number, end: number): void {
    this.exports.copyBytes(target, start, end - start);
  }

  /** All of linear memory as bytes (a fresh view when memory grew). For heap.ts and hosts-engine.ts. */
  memoryBytes(): Uint8Array {
    this.refreshViews();
    return this.bytes;
  }

  /** All of linear memory as u32 words. */
  memoryWords(): Uint32Array {
    this.refreshViews();
    return this.words;
  }

  /** Makes [0, endAddress) addressable. */
  reserve(endAddress: number): void {
    if (endAddress > ADDRESS_LIMIT) throw new RobotsError('INPUT_TOO_LARGE', `the WebAssembly core would need ${endAddress} bytes of memory (32-bit address space)`);
    if (endAddress > this.exports.memory.buffer.byteLength) this.exports.reserve(endAddress);
    this.refreshViews();
  }

  /** The exports, for hosts-engine.ts (which adds the many-host calls). */
  get raw(): CoreExports & Record<string, unknown> {
    return this.exports as CoreExports & Record<string, unknown>;
  }

  /** Start of the work area: after the heap, laid out afresh by every call. */
  get workPtr(): number {
    return align(this.heap.base + this.heap.capacity, 16);
  }

  /** Makes the batch region at least `bytes` long (the heap moves up when it grows); returns its start. */
  ensureBatch(bytes: number): number {
    if (bytes > this.batchCapacity) {
      this.batchCapacity = align(Math.max(bytes, this.batchCapacity * 1.5), 65536);
      this.heap.relocate(this.batchBase + this.batchCapacity);
    }
    return this.batchBase;
  }

  /** The many-host engine binds its own matchers: the library matcher bound before must be bound again. */
  forgetBinding(): void {
    this.bound = null;
  }

  /** Makes blob resident (and its automaton region, for bulk calls) and binds it, unless it is bound already. */
  /**
   * Binds a blob for a call; returns where the call's own data may start in the work area. A blob's first
   * single-URL use binds a copy in the work area and keeps nothing (a matcher made for one verdict, as a
   * one-off check or a crawler meeting a host makes, costs no heap block and evicts nothing); from its second
   * use, or its first bulk call, it is made resident in the heap.
   */
  private useBlob(blob: Uint8Array, automaton: boolean): number {
    let entry = this.resident.get(blob);
    if (entry === undefined && !automaton && !this.usedOnce.has(blob)) {
      this.usedOnce.add(blob);
      const at = this.workPtr;
      this.reserve(at + blob.length);
      this.bytes.set(blob, at);
      this.exports.bindMatcher(at, 0, 0);
      this.bound = null;
      return align(at + blob.length, 16);
    }
    if (entry !== undefined && entry === this.bound && this.boundEpoch === this.heap.epoch && (this.boundAutomaton || !automaton)) return this.workPtr;
    if (entry === undefined) {
      if (this.resident.size === 0 && this.residentBytes === 0 && !this.residentBudgetReserved) {
        this.heap.reserveBudget(RESIDENT_BYTES);
        this.residentBudgetReserved = true;
      }
      const block = this.heap.allocate(blob.length);
      this.memoryBytes().set(blob, this.heap.address(block));
      entry = { blobBlock: block, automatonBlock: -1, automatonBytes: 0 };
      this.residentBytes += this.heap.size(block);
    } else {
      this.resident.delete(blob); // most recently used last
    }
    this.resident.set(blob, entry);
    if (automaton && entry.automatonBlock < 0) this.giveAutomaton(entry, automatonFirstBytes(blob.length));
    for (const [other, old] of this.resident) {
      if (this.residentBytes <= RESIDENT_BYTES || old === entry) break;
      this.forget(other, old);
    }
    // addresses last: an allocation above may have moved blocks
    this.exports.bindMatcher(this.heap.address(entry.blobBlock), entry.automatonBlock >= 0 ? this.heap.address(entry.automatonBlock) : 0, entry.automatonBytes);
    this.refreshViews();
    this.bound = entry;
    this.boundEpoch = this.heap.epoch;
    this.boundAutomaton = entry.automatonBlock >= 0;
    return this.workPtr;
  }

  /** Gives a resident matcher a fresh automaton region of `bytes` (its old one, if any, is freed). */
  private giveAutomaton(entry: ResidentMatcher, bytes: number): void {
    if (entry.automatonBlock >= 0) {
      this.residentBytes -= this.heap.size(entry.automatonBlock);
      this.heap.free(entry.automatonBlock);
    }
    entry.automatonBytes = bytes;
    entry.automatonBlock = this.heap.allocate(bytes);
    const address = this.heap.address(entry.automatonBlock);
    this.memoryBytes().fill(0, address, address + AUTOMATON_HEADER_SIZE);
    this.residentBytes += this.heap.size(entry.automatonBlock);
    if (this.bound === entry) this.bound = null;
  }

  /** After a bulk call that could not stop: a region that filled up is grown for the next call. */
  private growIfOverflowed(blob: Uint8Array): void {
    const entry = this.resident.get(blob);
    if (entry === undefined || entry.automatonBlock < 0) return;
    const cap = automatonCapBytes(blob.length);
    if (entry.automatonBytes < cap && this.words[(this.heap.address(entry.automatonBlock) + AUTOMATON_OVERFLOWS) >>> 2] > 0) {
      this.giveAutomaton(entry, Math.min(cap, entry.automatonBytes * AUTOMATON_GROWTH));
    }
  }

  private forget(blob: Uint8Array, entry: ResidentMatcher): void {
    this.resident.delete(blob);
    this.residentBytes -= this.heap.size(entry.blobBlock);
    this.heap.free(entry.blobBlock);
    if (entry.automatonBlock >= 0) {
      this.residentBytes -= this.heap.size(entry.automatonBlock);
      this.heap.free(entry.automatonBlock);
    }
    if (this.bound === entry) this.bound = null;
  }

  /** Automaton statistics of the bound matcher: states built, and region resets since the instance started. */
  automatonStats(): { states: number; resets: number; regionBytes: number } {
    const packed = this.exports.automatonStats();
    return { states: Number(packed & 0xffffffffn), resets: Number(packed >> 32n), regionBytes: this.bound?.automatonBytes ?? 0 };
  }

  /**
   * Tests and A/B runs: bulk calls by the trie NFA, or by the automaton with its switches forced (see
   * BulkEngineSwitches); called with only an engine, every switch goes back to 'auto'. Resident matchers
   * are dropped, so that every automaton is laid out again under the new switches.
   */
  setBulkEngine(engine: 'automaton' | 'nfa', switches: BulkEngineSwitches = {}): void {
    this.exports.useNfaForBulk(engine === 'nfa' ? 1 : 0, switches.automatonStateLimit ?? 0);
    this.exports.setPairWalks(tristateCode(switches.pairWalks ?? 'auto'));
    this.literalIndexSwitch = switches.literalIndex ?? 'auto';
    this.exports.setLiteralIndex(tristateCode(this.literalIndexSwitch));
    for (const [blob, entry] of [...this.resident]) this.forget(blob, entry);
  }

  /**
   * Line records of a robots.txt body (see assembly/lines.ts): an Int32Array of LINE_RECORD_SIZE / 4 fields
   * each, and the length of the byte order mark skipped before the first line (0 to 3).
   */
  tokenizeLines(body: Uint8Array, google: boolean): { records: Int32Array; bom: number } {
    // at most one record per line: room for the lines there are (a record per byte would be 36 times the body)
    const { bodyPtr, after } = this.stageBody(body, EMPTY_AGENTS, 0);
    const recordsPtr = align(after, 16);
    this.reserve(recordsPtr + (this.exports.countLineEndBytes(bodyPtr, body.length) + 1) * LINE_RECORD_SIZE);
    const bom = this.exports.bomLength(bodyPtr, body.length);
    const count = this.exports.tokenizeLines(bodyPtr, body.length, bom, google ? 1 : 0, recordsPtr);
    return { records: new Int32Array(this.bytes.buffer.slice(recordsPtr, recordsPtr + count * LINE_RECORD_SIZE)), bom };
  }

  /**
   * The groups of body that decide for an agent query (assembly/select.ts, the compile's own choice): their
   * numbers (the line records' LINE_GROUP), and whether a user-agent line named the agent (else they are the
   * `*` groups). One pass over the body.
   */
  selectGroups(body: Uint8Array, agents: Uint8Array, rfc: boolean): { groups: Uint32Array; byName: boolean } {
    const { bodyPtr, agentsPtr, after } = this.stageBody(body, agents, 0);
    const count = this.exports.selectGroups(bodyPtr, body.length, agentsPtr, rfc ? FLAG_RFC_MODE : 0, align(after, 16));
    this.refreshViews();
    const at = this.exports.lastSelectedGroups() >>> 0; // an address: unsigned (addresses reach 4 GiB)
    return { groups: new Uint32Array(this.bytes.buffer.slice(at, at + count * 4)), byName: this.exports.lastSelectedByName() !== 0 };
  }

  /**
   * Compiles the rules of body that apply to an agent query (assembly/select.ts) into a blob in the work
   * area; returns its address and length (valid until the next call). body is already cut to maxBytes.
   */
  compileInWorkArea(body: Uint8Array, agents: Uint8Array, rfc: boolean): { address: number; length: number } {
    const { bodyPtr, agentsPtr, after } = this.stageBody(body, agents, 0);
    return this.compileAt(bodyPtr, body.length, agentsPtr, rfc, align(after, 16));
  }

  /**
   * Copies a body (with SENTINEL_SLACK zero bytes after it: the tokenizer reads ahead) and an agent query
   * into the work area, with `extra` bytes reserved after them; returns their addresses and where the
   * extra bytes start.
   */
  private stageBody(body: Uint8Array, agents: Uint8Array, extra: number): { bodyPtr: number; agentsPtr: number; after: number } {
    if (body.length > MAX_COMPILE_BYTES) throw tooLarge('a robots.txt body', body.length, MAX_COMPILE_BYTES);
    const bodyPtr = this.workPtr;
    const agentsPtr = align(bodyPtr + body.length + SENTINEL_SLACK, 8);
    const after = align(agentsPtr + agents.length, 8);
    this.reserve(after + extra);
    this.bytes.set(body, bodyPtr);
    this.bytes.fill(0, bodyPtr + body.length, bodyPtr + body.length + SENTINEL_SLACK);
    this.bytes.set(agents, agentsPtr);
    return { bodyPtr, agentsPtr, after };
  }

  /**
   * Compiles a body that lies in linear memory already (a many-host slot's raw body, hosts-engine.ts), with
   * the agent query at agentsPtr, into a blob at workPtr or after; returns its address and length.
   */
  compileAt(bodyPtr: number, bodyLength: number, agentsPtr: number, rfc: boolean, workPtr: number): { address: number; length: number } {
    let address: number;
    try {
      address = this.exports.compileRobots(bodyPtr, bodyLength, agentsPtr, rfc ? FLAG_RFC_MODE : 0, workPtr) >>> 0;
    } catch (error) {
      if (error instanceof WebAssembly.RuntimeError) throw new RobotsError('INPUT_TOO_LARGE', `a robots.txt body of ${bodyLength} bytes does not compile within the WebAssembly core's memory`);
      throw error;
    }
    this.refreshViews();
    return { address, length: this.words[(address + HEADER_TOTAL_LENGTH) >>> 2] };
  }

  /**
   * Google mode: the verdict of one URL straight from a body (assembly/direct.ts: one tokenize pass, no
   * compile), or 0 when that would cost more than a compile (compile then). A matcher's first URL uses it.
   */
  answerUrlFromBody(body: Uint8Array, agents: Uint8Array, url: string | Uint8Array): number {
    const urlBytes = typeof url === 'string' ? url.length * 3 : url.length;
    if (urlBytes > MAX_BATCH_BYTES) throw tooLarge('a URL', urlBytes, MAX_BATCH_BYTES);
    const { bodyPtr, agentsPtr, after: urlPtr } = this.stageBody(body, agents, urlBytes + SENTINEL_SLACK + 16);
    const workPtr = align(urlPtr + urlBytes + SENTINEL_SLACK, 16);
    const urlLength = typeof url === 'string' ? encoder.encodeInto(url, this.bytes.subarray(urlPtr, urlPtr + urlBytes)).written : (this.bytes.set(url, urlPtr), url.length);
    let verdict: number;
    try {
      verdict = this.exports.answerUrlFromBody(bodyPtr, body.length, agentsPtr, urlPtr, urlLength, workPtr);
    } catch (error) {
      if (error instanceof WebAssembly.RuntimeError) throw new RobotsError('INPUT_TOO_LARGE', `a robots.txt body of ${body.length} bytes does not fit the WebAssembly core's memory`);
      throw error;
    }
    this.refreshViews();
    return verdict;
  }

  /** Compiles the rules of body for an agent query into an owned blob (a RobotsMatcher's). */
  compileRobots(body: Uint8Array, agents: readonly string[], rfc: boolean): Uint8Array {
    const { address, length } = this.compileInWorkArea(body, encodeAgents(agents), rfc);
    return this.bytes.slice(address, address + length);
  }

  /** Whether a blob answers its literal rules from a literal index (assembly/literal.ts) rather than the trie. */
  hasLiteralIndex(blob: Uint8Array): boolean {
    return new DataView(blob.buffer, blob.byteOffset, blob.byteLength).getUint32(HEADER_LITERAL_OFFSET, true) !== 0;
  }

  /**
   * compileRobots with every literal rule in the trie (no literal index): slower to compile, faster per URL.
   * RobotsMatcher calls it once a matcher with an index has answered many URLs. Null when a test or an A/B
   * run forces the literal-index switch (setBulkEngine): the forced choice stands.
   */
  compileRobotsIntoTrie(body: Uint8Array, agents: readonly string[], rfc: boolean): Uint8Array | null {
    if (this.literalIndexSwitch !== 'auto') return null;
    this.exports.setLiteralIndex(tristateCode('never'));
    try {
      return this.compileRobots(body, agents, rfc);
    } finally {
      this.exports.setLiteralIndex(tristateCode('auto'));
    }
  }

  /** Frees the heap blocks of a blob no matcher uses any more (a RobotsMatcher compiled again). */
  release(blob: Uint8Array): void {
    const entry = this.resident.get(blob);
    if (entry !== undefined) this.forget(blob, entry);
    this.usedOnce.delete(blob);
  }

  /** One URL (bytes) against a blob, with the deciding rule indexes. */
  matchOne(blob: Uint8Array, url: Uint8Array): CoreMatch {
    if (url.length > MAX_BATCH_BYTES) throw tooLarge('a URL', url.length, MAX_BATCH_BYTES);
    const resultPtr = this.useBlob(blob, false);
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
    if (url.length * 3 > MAX_BATCH_BYTES) throw tooLarge('a URL', url.length * 3, MAX_BATCH_BYTES);
    const resultPtr = this.useBlob(blob, false);
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
    const run = this.runLines(blob, input, false, OUTPUT_ALL, false);
    return this.bytes.slice(run.verdictsPtr, run.verdictsPtr + run.count);
  }

  /**
   * Matches the lines of input and returns the text output for them (filter: OUTPUT_*): copied into `into`
   * when it fits (the result is then a view of it), else into a new buffer.
   */
  matchAndFormatLines(blob: Uint8Array, input: Uint8Array, filter: number, into: Uint8Array | null = null): { output: Uint8Array; verdicts: Uint8Array } {
    const run = this.runLines(blob, input, true, filter, false);
    const output = new OutputPieces(into);
    output.add(this.bytes.subarray(run.outputPtr, run.outputPtr + run.outputLength));
    return { output: output.result(), verdicts: this.bytes.slice(run.verdictsPtr, run.verdictsPtr + run.count) };
  }

  /**
   * For worker replies: matches and formats the lines of input, and returns the verdicts and text output as
   * views of linear memory, valid until the next call on this core (the caller copies them into its reply).
   */
  matchAndFormatLinesInPlace(blob: Uint8Array, input: Uint8Array, filter: number): { output: Uint8Array; verdicts: Uint8Array } {
    const run = this.runLines(blob, input, true, filter, false);
    return { output: this.bytes.subarray(run.outputPtr, run.outputPtr + run.outputLength), verdicts: this.bytes.subarray(run.verdictsPtr, run.verdictsPtr + run.count) };
  }

  /**
   * jsonl for the lines of input: verdicts with their deciding rules (explain mode of the bulk engine), then
   * one JSON object per line (assembly/format.ts). Input numbers: numbers[i], or firstNumber + i.
   */
  explainAndFormatJsonl(blob: Uint8Array, input: Uint8Array, filter: number, firstNumber: number, numbers: Uint32Array | null): { output: Uint8Array; verdicts: Uint8Array } {
    const run = this.runLines(blob, input, false, filter, true);
    const verdicts = this.bytes.slice(run.verdictsPtr, run.verdictsPtr + run.count);
    const output = this.formatJsonl(run.inputPtr, input.length, run.count, run.verdictsPtr, run.rulesPtr, firstNumber, numbers, filter);
    return { output, verdicts };
  }

  /**
   * Verdicts and deciding rules of the lines of input (explain mode of the bulk engine, one call per batch):
   * per line its verdict byte and the index in the blob of the rule that decided it (-1: none did; for
   * `<dir>/$`, the index.htm rule's derived rule). What explain() says of each URL, without a call per URL.
   */
  explainLines(blob: Uint8Array, input: Uint8Array): { verdicts: Uint8Array; rules: Int32Array } {
    const run = this.runLines(blob, input, false, OUTPUT_ALL, true);
    // a compiled blob's rule records follow its header's rules offset in the resident copy
    const rulesBase = this.heap.address((this.resident.get(blob) as ResidentMatcher).blobBlock) + new DataView(blob.buffer, blob.byteOffset, blob.byteLength).getUint32(HEADER_RULES_OFFSET, true);
    const rules = new Int32Array(run.count);
    const memory = new DataView(this.bytes.buffer);
    for (let i = 0; i < run.count; i++) {
      const record = memory.getUint32(run.rulesPtr + i * RULE_REF_SIZE + RULE_REF_RECORD, true);
      rules[i] = record === 0 ? -1 : (record - rulesBase) / RULE_SIZE;
    }
    return { verdicts: this.bytes.slice(run.verdictsPtr, run.verdictsPtr + run.count), rules };
  }

  /**
   * jsonl output for lineCount lines at inputPtr (with their verdicts and rule references in memory), in
   * pieces when the output area is full. For this module and hosts-engine.ts; addresses in the batch region.
   * With `into`, the output is copied there when it fits (the result is then a view of it), else into a new buffer.
   */
  formatJsonl(inputPtr: number, inputLength: number, lineCount: number, verdictsPtr: number, rulesPtr: number, firstNumber: number, numbers: Uint32Array | null, filter: number, into: Uint8Array | null = null): Uint8Array {
    const output = new OutputPieces(into);
    let done = 0;
    let p = inputPtr;
    // the input numbers (when given) once, before the output area; with `into`, pieces of OUTPUT_PIECE_BYTES
    // copied into it (a larger area only for a line that needs it: 6 bytes per URL or pattern byte at most,
    // a pattern 3 per value byte, one line at most), without it one area for all (one copy out, no join);
    // after the output, where a rule named by its raw value (a direct answer) is normalised to be printed
    const numbersPtr = numbers !== null ? this.workPtr : 0;
    const outputPtr = numbers !== null ? align(numbersPtr + lineCount * 4, 16) : this.workPtr;
    if (numbers !== null) {
      this.reserve(outputPtr);
      this.words.set(numbers.subarray(0, lineCount), numbersPtr >>> 2);
    }
    const wholeBytes = Math.min(MAX_BATCH_BYTES, 6 * inputLength + 256 * lineCount + 18 * MAX_LINE_BYTES + 65536);
    let outputBytes = into !== null ? Math.min(OUTPUT_PIECE_BYTES, wholeBytes) : wholeBytes;
    while (done < lineCount) {
      const scratchPtr = align(outputPtr + outputBytes, 16);
      this.reserve(scratchPtr + JSONL_SCRATCH_BYTES);
      const length = this.exports.formatJsonlLines(p, lineCount - done, verdictsPtr + done, rulesPtr + done * RULE_REF_SIZE, numbersPtr === 0 ? 0 : numbersPtr + done * 4, firstNumber + done, outputPtr, outputPtr + outputBytes, filter, scratchPtr);
      const lines = this.exports.lastJsonlLines();
      if (lines === 0 && length === 0) {
        if (outputBytes < wholeBytes) {
          outputBytes = wholeBytes;
          continue;
        }
        throw new RobotsError('INPUT_TOO_LARGE', `a line's jsonl output does not fit ${outputBytes} bytes`);
      }
      output.add(this.bytes.subarray(outputPtr, outputPtr + length));
      done += lines;
      p = this.exports.lastJsonlInputEnd() >>> 0;
    }
    return output.result();
  }

  /**
   * Matches the lines of input in the batch region (stable while the heap grows): the automaton region
   * starts small and is grown whenever a call stops because it filled up, then the call goes on.
   */
  private runLines(blob: Uint8Array, input: Uint8Array, format: boolean, filter: number, explain: boolean): { inputPtr: number; verdictsPtr: number; count: number; outputPtr: number; outputLength: number; rulesPtr: number } {
    // explained lines name their rules by address until they are read: the blob must not move meanwhile
    return explain ? this.heap.keepingBlocks(() => this.runLinesNow(blob, input, format, filter, explain)) : this.runLinesNow(blob, input, format, filter, explain);
  }

  private runLinesNow(blob: Uint8Array, input: Uint8Array, format: boolean, filter: number, explain: boolean): { inputPtr: number; verdictsPtr: number; count: number; outputPtr: number; outputLength: number; rulesPtr: number } {
    if (input.length > MAX_BATCH_BYTES) throw tooLarge('a batch of lines', input.length, MAX_BATCH_BYTES);
    const lineBound = input.length + 1;
    const inputPtr = this.batchBase;
    const verdictsPtr = align(inputPtr + input.length + 1 + SENTINEL_SLACK, 16);
    const rulesPtr = align(verdictsPtr + lineBound, 16);
    const outputPtr = align(rulesPtr + (explain ? lineBound * RULE_REF_SIZE : 0), 16);
    // each line writes at most 11 prefix bytes more than it reads (plus 8 bytes of copy slack)
    const batchEnd = align(outputPtr + (format ? input.length + 1 + 11 * lineBound + SENTINEL_SLACK : 0), 16);
    this.ensureBatch(batchEnd - this.batchBase);
    this.refreshViews();
    this.bytes.set(input, inputPtr);
    this.bytes[inputPtr + input.length] = CHAR_LF;
    const end = inputPtr + input.length;
    let p = inputPtr;
    let count = 0;
    let outputLength = 0;
    while (true) {
      this.useBlob(blob, true);
      const entry = this.bound as ResidentMatcher;
      const growable = entry.automatonBytes < automatonCapBytes(blob.length);
      const done = this.exports.matchLines(this.workPtr, p, end - p, verdictsPtr + count, format ? outputPtr + outputLength : 0, filter, explain ? rulesPtr + count * RULE_REF_SIZE : 0, growable ? 1 : 0);
      this.refreshViews();
      count += done;
      if (format) outputLength += this.exports.lastOutputLength();
      p = this.exports.lastInputStop() >>> 0;
      if (p >= end) break;
      this.giveAutomaton(entry, Math.min(automatonCapBytes(blob.length), entry.automatonBytes * AUTOMATON_GROWTH));
    }
    return { inputPtr, verdictsPtr, count, outputPtr, outputLength, rulesPtr };
  }

  /**
   * Verdict bytes for many URL strings, one call for the batch. All strings are UTF-8 encoded by one
   * encodeInto of their concatenation; when that is pure ASCII the offsets follow from the string lengths,
   * otherwise each string is encoded on its own.
   */
  matchStrings(blob: Uint8Array, urls: readonly string[]): Uint8Array {
    const count = urls.length;
    const joined = urls.join('');
    const maxBytes = joined.length * 3;
    if (maxBytes > MAX_BATCH_BYTES) throw tooLarge('a batch of URLs', maxBytes, MAX_BATCH_BYTES);
    this.useBlob(blob, true);
    const offsetsPtr = this.workPtr;
    const verdictsPtr = align(offsetsPtr + (count + 1) * 4, 16);
    const bytesPtr = align(verdictsPtr + count, 16);
    const scratchPtr = align(bytesPtr + maxBytes + 1, 16);
    this.reserve(scratchPtr);
    const offsetsIndex = offsetsPtr >>> 2;
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
    const verdicts = this.bytes.slice(verdictsPtr, verdictsPtr + count);
    this.growIfOverflowed(blob);
    return verdicts;
  }

  /** The fields of one access log line (LOG_* offsets into line), or null when it is not one with a request target. */
  parseLogRecord(line: Uint8Array): Int32Array | null {
    if (line.length > MAX_BATCH_BYTES) throw tooLarge('a log line', line.length, MAX_BATCH_BYTES);
    const recordPtr = this.workPtr;
    const linePtr = recordPtr + LOG_RECORD_SIZE;
    this.reserve(linePtr + line.length + SENTINEL_SLACK);
    this.bytes.set(line, linePtr);
    if (this.exports.parseLogRecord(linePtr, line.length, recordPtr) === 0) return null;
    return new Int32Array(this.bytes.buffer.slice(recordPtr, recordPtr + LOG_RECORD_SIZE));
  }

  /**
   * The URL lines of a chunk of access log lines (assembly/log.ts): each request target, with
   * `http://<vhost or defaultHost>` in front of relative targets when withHost. Line numbers from firstLineNumber.
   */
  /**
   * Every line of a chunk of log lines read at once (assembly/log.ts parseLogRecords): LOG_LINE_RECORD_SIZE / 4
   * fields per line, the LOG_* offsets relative to the line's start. One call per chunk.
   */
  parseLogRecords(chunk: Uint8Array): Int32Array {
    if (chunk.length > MAX_BATCH_BYTES) throw tooLarge('a batch of log lines', chunk.length, MAX_BATCH_BYTES);
    const inputPtr = this.workPtr;
    const recordsPtr = align(inputPtr + chunk.length + 1 + SENTINEL_SLACK, 16);
    this.reserve(recordsPtr);
    this.bytes.set(chunk, inputPtr);
    this.bytes[inputPtr + chunk.length] = CHAR_LF;
    // a record per line: room for the lines there are, not a record per byte
    this.reserve(recordsPtr + (this.countLinesAt(inputPtr, chunk.length) + 1) * LOG_LINE_RECORD_SIZE);
    const count = this.exports.parseLogRecords(inputPtr, chunk.length, recordsPtr);
    return new Int32Array(this.bytes.buffer.slice(recordsPtr, recordsPtr + count * LOG_LINE_RECORD_SIZE));
  }

  extractLogTargets(chunk: Uint8Array, firstLineNumber: number, withHost: boolean, defaultHost: Uint8Array | null, maxMalformed: number): LogTargets {
    if (chunk.length > MAX_BATCH_BYTES) throw tooLarge('a batch of log lines', chunk.length, MAX_BATCH_BYTES);
    const lineBound = chunk.length + 1;
    const hostLength = defaultHost?.length ?? 0;
    const inputPtr = this.workPtr;
    const hostPtr = align(inputPtr + chunk.length + 1 + SENTINEL_SLACK, 16);
    const recordPtr = align(hostPtr + hostLength, 16);
    const numbersPtr = recordPtr + LOG_RECORD_SIZE + 4;
    const malformedPtr = align(numbersPtr + lineBound * 4, 16);
    const outPtr = align(malformedPtr + maxMalformed * 4, 16);
    this.reserve(outPtr + chunk.length + lineBound * (8 + hostLength + 1) + SENTINEL_SLACK);
    this.bytes.set(chunk, inputPtr);
    this.bytes[inputPtr + chunk.length] = CHAR_LF;
    if (defaultHost !== null) this.bytes.set(defaultHost, hostPtr);
    const count = this.exports.extractLogTargets(inputPtr, chunk.length, firstLineNumber, outPtr, numbersPtr, malformedPtr, maxMalformed, withHost ? 1 : 0, hostPtr, hostLength, recordPtr);
    const malformed = this.exports.lastLogMalformed();
    const listed = Math.min(malformed, maxMalformed);
    return {
      urls: this.bytes.slice(outPtr, outPtr + this.exports.lastLogOutputLength()),
      numbers: new Uint32Array(this.bytes.buffer.slice(numbersPtr, numbersPtr + count * 4)),
      lines: this.exports.lastLogLines(),
      malformed,
      malformedLines: Array.from(new Uint32Array(this.bytes.buffer.slice(malformedPtr, malformedPtr + listed * 4))),
    };
  }

  /** LF-separated lines in a chunk (a final line without LF counts); 16 bytes a step. */
  countLines(chunk: Uint8Array): number {
    const ptr = this.workPtr;
    this.reserve(ptr + chunk.length + SENTINEL_SLACK);
    this.bytes.set(chunk, ptr);
    return this.exports.countLines(ptr, chunk.length);
  }

  /** Lines of bytes already in linear memory at ptr (the batch region). */
  countLinesAt(ptr: number, length: number): number {
    return this.exports.countLines(ptr, length);
  }

  /** Text output (assembly/format.ts) of LF-separated lines whose verdicts are known (answered by several threads). */
  formatText(input: Uint8Array, verdicts: Uint8Array, filter: number, into: Uint8Array | null = null): Uint8Array {
    if (input.length > MAX_BATCH_BYTES) throw tooLarge('a batch of lines', input.length, MAX_BATCH_BYTES);
    const inputPtr = this.workPtr;
    const verdictsPtr = align(inputPtr + input.length + 1 + SENTINEL_SLACK, 16);
    const outputPtr = align(verdictsPtr + verdicts.length, 16);
    this.reserve(outputPtr + input.length + 12 * (verdicts.length + 1) + SENTINEL_SLACK);
    this.bytes.set(input, inputPtr);
    this.bytes[inputPtr + input.length] = CHAR_LF;
    this.bytes.set(verdicts, verdictsPtr);
    const length = this.exports.formatTextLines(inputPtr, verdicts.length, verdictsPtr, outputPtr, filter);
    if (into === null || into.length < length) return this.bytes.slice(outputPtr, outputPtr + length);
    into.set(this.bytes.subarray(outputPtr, outputPtr + length));
    return into.subarray(0, length);
  }

  /**
   * Splits a chunk of lines into shardCount shards by host (assembly/hosts.ts splitLinesByHost); copies out,
   * shard i into targets[i] when it is given and long enough (the shard is then a view of it), else into a new buffer.
   */
  splitLinesByHost(chunk: Uint8Array, shardCount: number, targets: readonly (Uint8Array | null)[] = []): HostShards {
    if (chunk.length > MAX_BATCH_BYTES) throw tooLarge('a batch of lines', chunk.length, MAX_BATCH_BYTES);
    if (!Number.isInteger(shardCount) || shardCount < 1 || shardCount > 255) throw new RobotsError('INVALID_ARGUMENT', `shards must be 1 to 255, got ${shardCount}`);
    const lineBound = chunk.length + 1;
    const inputPtr = this.workPtr;
    const shardOfLinePtr = align(inputPtr + chunk.length + 1 + SENTINEL_SLACK, 16);
    const sizesPtr = align(shardOfLinePtr + lineBound, 16);
    const keyScratch = align(sizesPtr + shardCount * 4, 16);
    const outPtr = align(keyScratch + MAX_HOST_KEY_BYTES + 64, 16);
    const shardCapacity = align(chunk.length + 1, 16);
    this.reserve(outPtr + shardCount * shardCapacity + SENTINEL_SLACK);
    this.bytes.set(chunk, inputPtr);
    this.bytes[inputPtr + chunk.length] = CHAR_LF;
    const count = this.exports.splitLinesByHost(inputPtr, chunk.length, shardCount, shardOfLinePtr, sizesPtr, outPtr, shardCapacity, keyScratch);
    const shards: Uint8Array[] = [];
    for (let shard = 0; shard < shardCount; shard++) {
      const offset = outPtr + shard * shardCapacity;
      const size = this.words[(sizesPtr >>> 2) + shard];
      const target = targets[shard] ?? null;
      if (target !== null && target.length >= size) {
        target.set(this.bytes.subarray(offset, offset + size));
        shards.push(target.subarray(0, size));
      } else {
        shards.push(this.bytes.slice(offset, offset + size));
      }
    }
    return { shardOfLine: this.bytes.slice(shardOfLinePtr, shardOfLinePtr + count), shards };
  }

  /** The normalised form of one allow/disallow value (tests, explain). */
  normalizePattern(value: Uint8Array, flags: number): Uint8Array {
    const srcPtr = this.workPtr;
    const dstPtr = srcPtr + value.length;
    this.reserve(dstPtr + value.length * 3 + 16);
    this.bytes.set(value, srcPtr);
    const length = this.exports.normalizePattern(srcPtr, value.length, dstPtr, flags);
    return this.bytes.slice(dstPtr, dstPtr + length);
  }

  /**
   * The origin key the many-host scan reads from one URL line (assembly/hosts.ts hostKeyOf), one char per
   * byte, or null when the scan finds no http(s) URL. Tests compare it with the URL model.
   */
  originKey(line: Uint8Array): string | null {
    const linePtr = this.workPtr;
    const keyPtr = align(linePtr + line.length + 1 + SENTINEL_SLACK, 16);
    this.reserve(keyPtr + MAX_HOST_KEY_BYTES + 64);
    this.bytes.set(line, linePtr);
    this.bytes[linePtr + line.length] = CHAR_LF;
    const length = this.exports.originKeyOf(linePtr, keyPtr);
    return length < 0 ? null : String.fromCharCode(...this.bytes.subarray(keyPtr, keyPtr + length));
  }

  /** The path the reference matches for a URL (tests, explain). */
  extractPath(url: Uint8Array): Uint8Array {
    const srcPtr = this.workPtr;
    const dstPtr = srcPtr + url.length;
    this.reserve(dstPtr + url.length + 16);
    this.bytes.set(url, srcPtr);
    const length = this.exports.extractPath(srcPtr, url.length, dstPtr);
    return this.bytes.slice(dstPtr, dstPtr + length);
  }
}

let threadCore: WasmCore | null = null;

/** Makes an instance this thread's core (a worker that instantiated the shared module itself). */
export function setThreadCore(instance: WasmCore): void {
  threadCore = instance;
}

/** This thread's core, instantiated on first use. */
export function core(): WasmCore {
  if (threadCore === null) threadCore = new WasmCore();
  return threadCore;
}
