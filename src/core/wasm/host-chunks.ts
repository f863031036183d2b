// The chunk the many-host engine is answering: its lines copied into a heap block of their own (counted
// against the policy's budget like the matchers, so a larger chunk evicts matchers rather than add memory;
// kept and reused for the next chunk), scanned for their hosts (assembly/hosts.ts), grouped by host once, then
// answered round by round. Its layout (n input bytes, L <= n + 1 lines; offsets from the block's start):
//   | input, LF sentinel, slack | lineStarts u32[L] | entries u32[L] | order u32[L] | pending u32[L] | verdicts u8[L] | groups GROUP_SIZE x (L + 1) | rule refs RULE_REF_SIZE x L (jsonl only) |
import {
  CHAR_LF, LINE_NO_HOST, MAX_HOST_KEY_BYTES, GROUP_COUNT, GROUP_SIZE, RULE_REF_SIZE, OUTPUT_ALL, VERDICT_UNSET,
  SCAN_RESULT_PENDING, SCAN_RESULT_RUNS, SCAN_RESULT_DISTINCT, GROUP_RESULT_HOSTS, GROUP_RESULT_PLANS,
} from '../constants.js';
import { RobotsError } from '../errors.js';
import { align, SENTINEL_SLACK, MAX_BATCH_BYTES } from './limits.js';
import { formatTextInPieces } from './output.js';
import type { WasmCore } from './core.js';
import type { CoreFrame } from './frame.js';
import type { HostSlots } from './host-slots.js';
import type { HostTable } from './host-table.js';
import type { RawSlots } from './raw-slots.js';
import type { PackData } from './pack-data.js';

const SCAN_TABLE_FULL = -1;

/** One chunk's layout in its heap block: byte offsets from the block's start (the block may move). */
interface ChunkLayout {
  inputLength: number;
  lineStarts: number;
  entries: number;
  order: number;
  pending: number;
  verdicts: number;
  groups: number;
  /** 0 unless the chunk is explained (jsonl). */
  rules: number;
  end: number;
}

/**
 * Host keys met for the first time (or again after their matcher was evicted), which the policy resolves:
 * entries[i] with its key, keyOf(i): the key's bytes as one char per byte (host ASCII lower-cased, maybe IDN
 * bytes, and ":port" if any), read from the host table when asked (no string per host lives through the
 * chunk: a window of many hosts made that many strings at once, which outlived collections). Parallel
 * arrays: no object per host.
 */
export interface PendingHosts {
  entries: Uint32Array;
  /** The key of entries[i]; valid until the next chunk is loaded. */
  keyOf(i: number): string;
  /** The group of each key's lines (increasing): once keys [0, i) are resolved, groups [0, groups[i]) are. */
  groups: Uint32Array;
  /** The chunk's groups: its distinct host entries, and one for its lines without a host. */
  groupCount: number;
}

/** Where a chunk's parts lie in its block: the input (and its LF), then per line its start, entry, order, pending and verdict words, the groups and, explaining, the rule references. */
function chunkLayout(inputLength: number, lineBound: number, explain: boolean): ChunkLayout {
  const layout: ChunkLayout = { inputLength, lineStarts: align(inputLength + 1 + SENTINEL_SLACK, 16), entries: 0, order: 0, pending: 0, verdicts: 0, groups: 0, rules: 0, end: 0 };
  layout.entries = layout.lineStarts + lineBound * 4;
  layout.order = layout.entries + lineBound * 4;
  layout.pending = layout.order + lineBound * 4;
  layout.verdicts = layout.pending + lineBound * 4;
  layout.groups = align(layout.verdicts + lineBound, 16);
  layout.rules = explain ? align(layout.groups + (lineBound + 1) * GROUP_SIZE, 16) : 0;
  layout.end = align(layout.groups + (lineBound + 1) * GROUP_SIZE, 16) + (explain ? lineBound * RULE_REF_SIZE : 0);
  return layout;
}

/** Bytes of a chunk whose line ends are counted to estimate its lines. */
const LINE_SAMPLE_BYTES = 1 << 16;

/** A chunk's likely line count (+1), from the line ends in its first LINE_SAMPLE_BYTES, with a quarter to spare: only the first size of its block rests on it. */
function likelyLineBound(input: Uint8Array): number {
  const sample = Math.min(input.length, LINE_SAMPLE_BYTES);
  let ends = 0;
  for (let at = input.indexOf(CHAR_LF); at >= 0 && at < sample; at = input.indexOf(CHAR_LF, at + 1)) ends++;
  return Math.min(input.length + 1, Math.ceil(((ends + 1) * input.length * 1.25) / Math.max(1, sample)) + 16);
}

/** The chunk of one engine. */
export class HostChunks {
  private readonly frame: CoreFrame;
  private chunk: ChunkLayout | null = null;
  private block = -1;
  private lineCount = 0;
  private runCount = 0;
  private distinctCount = 0;
  private groupCount = 0;
  /** The round's groups: [roundFrom, roundTo). */
  private roundFrom = 0;
  private roundTo = 0;
  /** Lines of the chunk that named no host (answered so far). */
  noHostLines = 0;

  constructor(private readonly core: WasmCore, private readonly slots: HostSlots, private readonly table: HostTable, private readonly raw: RawSlots, private readonly packData: PackData) {
    this.frame = core.frame;
  }

  /** Heap bytes of the chunk block. */
  get ownBytes(): number {
    return this.block >= 0 ? this.frame.heap.size(this.block) : 0;
  }

  /** Address of an offset in the chunk's block (valid until the next heap allocation). */
  private at(offset: number): number {
    return this.frame.heap.address(this.block) + offset;
  }

  private get layout(): ChunkLayout {
    return this.chunk as ChunkLayout;
  }

  /**
   * Makes the chunk block at least `bytes` long, keeping its first `keep` bytes; makeRoom(more) is told
   * first how many bytes the engine is about to take in addition (the policy evicts matchers for them).
   */
  private ensureBlock(bytes: number, keep: number, makeRoom: (more: number) => void): void {
    const current = this.block >= 0 ? this.frame.heap.size(this.block) : 0;
    if (current >= bytes) return;
    const wanted = Math.max(bytes, Math.ceil(current * 1.25));
    makeRoom(wanted);
    const block = this.frame.heap.allocate(wanted);
    if (this.block >= 0) {
      if (keep > 0) this.frame.copyWithin(this.frame.heap.address(block), this.at(0), this.at(keep));
      this.frame.heap.free(this.block);
    }
    this.block = block; // (no slot lies in it: the slots' addresses stand)
  }

  /** Frees the chunk block when it is larger than maxBytes (a chunk of one huge line): the next chunk makes a new one. */
  trimChunk(maxBytes: number): void {
    if (this.block < 0 || this.frame.heap.size(this.block) <= maxBytes) return;
    this.frame.heap.free(this.block);
    this.block = -1;
    this.chunk = null;
  }

  /**
   * Copies a chunk of LF-separated lines into the chunk block and scans it (a new stamp: slots met are
   * pinned). Returns the keys to resolve; when the table fills up it is relieved (HostTable.relieve) and the
   * scan repeated: null when even that cannot hold the chunk's hosts (answer the chunk in parts); null too
   * when the chunk with its per-line arrays would take more than maxChunkBytes (and it has more than one
   * line). explain: room for rule references (jsonl); makeRoom: see ensureBlock. Once per chunk attempt.
   */
  loadChunk(input: Uint8Array, maxTableBytes: number, maxChunkBytes: number, explain: boolean, makeRoom: (more: number) => void): PendingHosts | null {
    if (input.length > MAX_BATCH_BYTES) throw new RobotsError('INPUT_TOO_LARGE', `a chunk of ${input.length} bytes is larger than ${MAX_BATCH_BYTES}`);
    const exports = this.frame.exports;
    const firstLf = input.indexOf(CHAR_LF);
    const oneLine = firstLf < 0 || firstLf >= input.length - 1;
    // the input first, then arrays sized by its lines; the block made at the size they will likely need too
    // (the line count estimated from the first bytes): made once, not for the input and again for the arrays,
    // the input copied over (every new page costs a fault, more than the bytes it holds)
    const likely = chunkLayout(input.length, likelyLineBound(input), explain);
    const inputBytes = likely.lineStarts;
    if (inputBytes > maxChunkBytes && !oneLine) return null;
    this.ensureBlock(Math.max(inputBytes, Math.min(likely.end, maxChunkBytes)), 0, makeRoom);
    this.frame.memoryBytes().set(input, this.at(0));
    this.frame.memoryBytes()[this.at(input.length)] = CHAR_LF;
    const lineBound = exports.countLines(this.at(0), input.length) + 1;
    const layout = chunkLayout(input.length, lineBound, explain);
    if (layout.end > maxChunkBytes && !oneLine) return null;
    this.ensureBlock(layout.end, input.length + 1, makeRoom);
    this.frame.memoryBytes().fill(VERDICT_UNSET, this.at(layout.verdicts), this.at(layout.verdicts) + lineBound); // no line answered yet
    this.chunk = layout;
    this.noHostLines = 0;
    let pendingCount = 0;
    let step = 0;
    while (true) {
      const stamp = this.slots.nextStamp();
      const keyScratch = this.frame.workPtr;
      this.frame.reserve(keyScratch + MAX_HOST_KEY_BYTES + 64);
      const result = exports.scanLineHosts(this.at(0), input.length, this.table.address, this.slots.address, stamp, this.at(layout.lineStarts), this.at(layout.entries), this.at(layout.pending), keyScratch, this.frame.resultPtr, this.packData.recordAddress);
      if (result !== SCAN_TABLE_FULL) {
        this.lineCount = result;
        this.runCount = this.frame.result(SCAN_RESULT_RUNS);
        this.distinctCount = this.frame.result(SCAN_RESULT_DISTINCT);
        pendingCount = this.frame.result(SCAN_RESULT_PENDING);
        break;
      }
      step = this.table.relieve(step, oneLine, maxTableBytes);
      if (step < 0) return null;
    }
    const pendingAt = this.at(layout.pending) >>> 2;
    const entries = this.frame.memoryWords().slice(pendingAt, pendingAt + pendingCount);
    // the lines by host entry, once: the pending list becomes each pending entry's group
    this.groupCount = exports.groupLinesByEntry(this.lineCount, this.at(layout.entries), this.table.address, this.slots.currentStamp, this.at(layout.groups), this.at(layout.order), this.at(layout.pending), pendingCount);
    const groupsAt = this.at(layout.pending) >>> 2;
    const groups = this.frame.memoryWords().slice(groupsAt, groupsAt + pendingCount);
    const table = this.table;
    return { entries, keyOf: (i) => table.keyOf(entries[i]), groups, groupCount: this.groupCount };
  }

  /** Lines in the chunk loaded last. */
  get lines(): number {
    return this.lineCount;
  }

  /** Runs of consecutive lines of one host in the chunk loaded last (SCAN_RESULT_RUNS of assembly/hosts.ts scanLineHosts). */
  get runs(): number {
    return this.runCount;
  }

  /** Host entries the lines of the chunk loaded last name (SCAN_RESULT_DISTINCT). */
  get distinctHosts(): number {
    return this.distinctCount;
  }

  /**
   * Makes groups [from, to) the round (every entry in them resolved): writes their slots (lines without a
   * host: missingSlot) and orders them by slot (the hosts of one matcher one after another). groupSlot(g)
   * and groupLines(g) then read them; match answers them. Returns the round's groups of hosts' matchers (not
   * the fixed slots a and b) and those the policy must plan first: a raw body's, a slot with an automaton
   * region, one whose lines reach planLines with the round's (assembly/hosts.ts slotGroups).
   */
  round(from: number, to: number, missingSlot: number, fixed: { a: number; b: number }, planLines: number): { hosts: number; plans: Uint32Array } {
    // scratch for the order by slot (slotGroups): a word per slot, then the round's records; then the plans
    const scratch = this.frame.workPtr;
    const plansAt = align(scratch + (this.slots.slotCount + 1) * 4 + 16 + (to - from) * GROUP_SIZE, 4);
    this.frame.reserve(plansAt + (to - from) * 4);
    this.noHostLines += this.frame.exports.slotGroups(this.at(this.layout.groups), from, to, this.table.address, missingSlot, this.frame.resultPtr, scratch, this.slots.slotCount, this.slots.address, fixed.a, fixed.b, planLines, plansAt);
    this.roundFrom = from;
    this.roundTo = to;
    const plans = this.frame.result(GROUP_RESULT_PLANS);
    return { hosts: this.frame.result(GROUP_RESULT_HOSTS), plans: this.frame.memoryWords().slice(plansAt >>> 2, (plansAt >>> 2) + plans) };
  }

  /** After a round's match: a new stamp, so that the slots it answered with are no longer pinned. */
  newRound(): void {
    this.slots.nextStamp();
  }

  /** The slot of group g of the last grouping. */
  groupSlot(g: number): number {
    return this.frame.memoryWords()[(this.at(this.layout.groups) + g * GROUP_SIZE) >>> 2];
  }

  /** The lines of group g of the last grouping. */
  groupLines(g: number): number {
    return this.frame.memoryWords()[(this.at(this.layout.groups) + g * GROUP_SIZE + GROUP_COUNT) >>> 2];
  }

  /**
   * Verdicts (explain: and rule references) of the round's lines, group by group from group `from` (the
   * round's first by default). Returns -1 when every group of the round is answered; in explain mode, the
   * first raw group whose direct answer passed its work limit (the caller compiles its slot with
   * upgradeSlot, then calls again from that group).
   */
  match(explain: boolean, from = this.roundFrom): number {
    const layout = this.layout;
    this.slots.refreshAddresses();
    this.core.resident.forgetBinding();
    if (explain && layout.rules === 0) throw new RobotsError('INVALID_ARGUMENT', 'the chunk was loaded without room for rule references');
    const stopped = this.frame.exports.matchGroups(this.at(0), this.at(layout.lineStarts), this.at(layout.groups), this.roundTo, this.at(layout.order), this.slots.address, this.at(layout.verdicts), explain ? this.at(layout.rules) : 0, this.frame.workPtr, this.raw.agentsAddress, from);
    return stopped < this.roundTo ? stopped : -1;
  }

  /**
   * The first `max` lines of the chunk (indexes) that named no host, after the chunk is answered (no
   * http(s) key, or a key resolved as naming no host). Only asked when some line did: callers name them.
   */
  noHostLineIndexes(max: number): number[] {
    const words = this.frame.memoryWords();
    const entriesAt = this.at(this.layout.entries) >>> 2;
    const found: number[] = [];
    for (let i = 0; i < this.lineCount && found.length < max; i++) {
      const entry = words[entriesAt + i];
      if (entry === LINE_NO_HOST || this.table.namesNoHost(entry)) found.push(i);
    }
    return found;
  }

  /** The chunk's verdict bytes, in input order (a copy). */
  verdicts(): Uint8Array {
    return this.frame.memoryBytes().slice(this.at(this.layout.verdicts), this.at(this.layout.verdicts) + this.lineCount);
  }

  /** Text output of the chunk (assembly/format.ts) in pieces: into `into` when it fits (a view of it), else a new copy. */
  formatText(filter = OUTPUT_ALL, into: Uint8Array | null = null): Uint8Array {
    const layout = this.layout;
    return formatTextInPieces(this.frame, this.at(0), this.at(layout.lineStarts), layout.inputLength, this.lineCount, this.at(layout.verdicts), filter, into);
  }

  /** jsonl output of the chunk after match(true): input numbers firstNumber + i, or numbers[i]; into `into` when it fits (a view of it). */
  formatJsonl(filter: number, firstNumber: number, numbers: Uint32Array | null, into: Uint8Array | null = null): Uint8Array {
    const layout = this.layout;
    return this.core.matching.formatJsonl(this.at(0), layout.inputLength, this.lineCount, this.at(layout.verdicts), this.at(layout.rules), firstNumber, numbers, filter, into);
  }

  /** Gives the chunk block back. Once, by HostEngine.close. */
  close(): void {
    if (this.block >= 0) this.frame.heap.free(this.block);
    this.block = -1;
    this.chunk = null;
  }
}
