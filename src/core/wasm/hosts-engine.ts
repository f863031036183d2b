// The many-host engine's pointer side (assembly/hosts.ts does the per-line work). It owns, in the heap:
// the slot table (one record per cached matcher), the host table (host key -> slot), and per slot its blob
// and automaton region; in the batch region, the chunk being answered. The policy (which host gets which
// slot, eviction, budgets) is src/node/hosts/hosts.ts: it calls the phases below in order for every chunk:
//
//   loadChunk(input)            copy into the batch region, scan: line starts, host entries, pending keys;
//                               lines grouped by host entry (in order of first appearance)
//   resolve(entry, slot|null)   for every pending key: its slot, or null (names no usable host)
//   round(from, to, missing)    the slots of groups [from, to); groupSlot(g) and groupLines(g) read them
//   giveAutomaton(slot, bytes)  for busy slots (optional)
//   match(explain)              verdicts (and rule references) for the round's lines
//   verdicts() / formatText(filter) / formatJsonl(...)
// The policy answers a chunk in rounds when its hosts do not fit the budget together (or when the landing
// block of hosts not kept is full): it resolves keys in order, and the groups before the next pending key's
// group are then all resolved: round + match answer them, newRound() unpins their slots, and it goes on. A
// round costs its own lines (the grouping is made once per chunk).
//
// The chunk being answered lives in a heap block of its own (counted against the policy's budget like the
// matchers, so a larger chunk evicts matchers rather than add memory), kept and reused for the next chunk.
// Its layout (n input bytes, L <= n + 1 lines; offsets from the block's start):
//   | input, LF sentinel, slack | lineStarts u32[L] | entries u32[L] | order u32[L] | pending u32[L] | verdicts u8[L] | groups GROUP_SIZE x (L + 1) | rule refs RULE_REF_SIZE x L (jsonl only) |
import {
  CHAR_LF, HOSTS_CAPACITY, HOSTS_USED, HOSTS_KEY_BYTES_USED, HOSTS_KEY_BYTES_CAPACITY, HOSTS_HEADER_SIZE,
  HOST_ENTRY_KEY_OFFSET, HOST_ENTRY_KEY_LENGTH, HOST_ENTRY_SLOT, HOST_ENTRY_GENERATION, HOST_ENTRY_SIZE,
  HOST_SLOT_NO_HOST, LINE_NO_HOST, MAX_HOST_KEY_BYTES, HOST_KEY_ALIAS, SLOT_BLOB_PTR, SLOT_AUTOMATON_PTR, SLOT_AUTOMATON_BYTES, SLOT_GENERATION,
  SLOT_LINES, SLOT_PIN_STAMP, SLOT_FLAGS, SLOT_SIZE, GROUP_SLOT,
  GROUP_COUNT, GROUP_SIZE, RULE_REF_SIZE, AUTOMATON_HEADER_SIZE, AUTOMATON_OVERFLOWS, OUTPUT_ALL, VERDICT_UNSET,
  RAW_BODY_MAGIC, RAW_BODY_LENGTH, RAW_BODY_START, RAW_BODY_SLACK, SCAN_RESULT_PENDING, SCAN_RESULT_RUNS, SCAN_RESULT_DISTINCT,
} from '../constants.js';
import { RobotsError } from '../errors.js';
import { sizeClassIndex, sizeOfClass } from './heap.js';
import { align, SENTINEL_SLACK, MAX_BATCH_BYTES, OUTPUT_PIECE_BYTES } from './limits.js';
import { OutputPieces } from './output.js';
import type { WasmCore } from './core.js';
import type { CoreFrame } from './frame.js';
import type { CoreExports } from './exports.js';

const SCAN_TABLE_FULL = -1;
const FIRST_TABLE_CAPACITY = 256;
/** Key bytes per host table entry (keys are host[:port], typically 10 to 40 bytes). */
const KEY_BYTES_PER_ENTRY = 48;
const FIRST_SLOT_CAPACITY = 64;
const latin1 = new TextDecoder('latin1');
/** Canonical names remembered for other spellings are kept under this prefix: no key from a line has a NUL. */
const REMEMBERED_PREFIX = '\0';

/** blobBlocks' value for a transient slot: its body lies in the landing block (see transientSlot). */
const TRANSIENT = -2;
/** The landing block's size at most (a budget under 16 MiB gets a 16th of it, at least MIN_LANDING_BYTES): transient bodies fit it with their header and slack. */
const LANDING_BYTES = 1 << 20;
const MIN_LANDING_BYTES = 64 << 10;

/** Bytes of a host table of `capacity` entries (header, entries, key bytes). */
function tableBytes(capacity: number): number {
  return HOSTS_HEADER_SIZE + capacity * (HOST_ENTRY_SIZE + KEY_BYTES_PER_ENTRY);
}

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
 * entries[i] with keys[i], the key's bytes as one char per byte (host ASCII lower-cased, maybe IDN bytes,
 * and ":port" if any). Parallel arrays: no object per host.
 */
export interface PendingHosts {
  entries: Uint32Array;
  keys: string[];
  /** The group of each key's lines (increasing): once keys [0, i) are resolved, groups [0, groups[i]) are. */
  groups: Uint32Array;
  /** The chunk's groups: its distinct host entries, and one for its lines without a host. */
  groupCount: number;
}

export class HostEngine {
  private readonly exports: CoreExports;
  private readonly frame: CoreFrame;
  private tableBlock: number;
  private tableCapacity = FIRST_TABLE_CAPACITY;
  private slotsBlock: number;
  private slotCapacity = FIRST_SLOT_CAPACITY;
  private slotCount = 0;
  private readonly freeSlots: number[] = [];
  private blobBlocks: Int32Array = new Int32Array(FIRST_SLOT_CAPACITY).fill(-1);
  private automatonBlocks: Int32Array = new Int32Array(FIRST_SLOT_CAPACITY).fill(-1);
  /** The heap epoch the slot table's addresses were written for. */
  private addressEpoch = -1;
  private stamp = 0;
  private chunk: ChunkLayout | null = null;
  private chunkBlock = -1;
  /** Names remembered for other spellings (rememberHost) in the host table: none, no look-up of them. */
  private rememberedNames = 0;
  private lineCount = 0;
  private runCount = 0;
  private distinctCount = 0;
  private groupCount = 0;
  /** The round's groups: [roundFrom, roundTo). */
  private roundFrom = 0;
  private roundTo = 0;
  /** Lines of the chunk that named no host (answered so far). */
  noHostLines = 0;

  /** The agent query raw slots are answered for (a heap block, made by the first rawSlot), and its bytes. */
  private agentsBlock = -1;
  private rawAgents: Uint8Array | null = null;

  /**
   * The landing block transient slots keep their bodies in (see transientSlot): made on first use, reused
   * round after round, so that hosts met once touch the same few pages instead of fresh memory each.
   */
  private landingBlock = -1;
  /** Bytes of the landing block in use (transient bodies laid one after another), and its size. */
  private landingUsed = 0;
  private landingBytes = LANDING_BYTES;
  /** Per slot: its body's offset in the landing block when it is transient (blobBlocks[slot] === TRANSIENT). */
  private landingOffsets: Int32Array = new Int32Array(FIRST_SLOT_CAPACITY);
  /** The transient slots of the current round. */
  private readonly transients: number[] = [];

  constructor(private readonly core: WasmCore) {
    this.frame = core.frame;
    this.exports = core.frame.exports;
    this.tableBlock = this.newTable(this.tableCapacity);
    this.slotsBlock = core.frame.heap.allocate(this.slotCapacity * SLOT_SIZE);
    this.zero(core.frame.heap.address(this.slotsBlock), this.slotCapacity * SLOT_SIZE);
  }

  private words(): Uint32Array {
    return this.frame.memoryWords();
  }

  private zero(address: number, bytes: number): void {
    this.frame.memoryBytes().fill(0, address, address + bytes);
  }

  private newTable(capacity: number): number {
    const keyBytes = capacity * KEY_BYTES_PER_ENTRY;
    const block = this.frame.heap.allocate(tableBytes(capacity));
    const address = this.frame.heap.address(block);
    this.zero(address, HOSTS_HEADER_SIZE + capacity * HOST_ENTRY_SIZE);
    const words = this.words();
    words[(address + HOSTS_CAPACITY) >>> 2] = capacity;
    words[(address + HOSTS_USED) >>> 2] = 0;
    words[(address + HOSTS_KEY_BYTES_USED) >>> 2] = 0;
    words[(address + HOSTS_KEY_BYTES_CAPACITY) >>> 2] = keyBytes;
    return block;
  }

  /** Bytes the engine's own blocks take in the heap (host table, slot table, and the chunk). */
  get ownBytes(): number {
    return this.frame.heap.size(this.tableBlock) + this.frame.heap.size(this.slotsBlock) + (this.chunkBlock >= 0 ? this.frame.heap.size(this.chunkBlock) : 0) +
      (this.agentsBlock >= 0 ? this.frame.heap.size(this.agentsBlock) : 0) + (this.landingBlock >= 0 ? this.frame.heap.size(this.landingBlock) : 0);
  }

  /** Host table entries in use (keys remembered, with or without a matcher). */
  get hostEntries(): number {
    return this.words()[(this.frame.heap.address(this.tableBlock) + HOSTS_USED) >>> 2];
  }

  /**
   * A new table of `capacity` entries with the entries of the old one that still name a matcher (in a
   * larger one, within maxTableBytes, when they do not fit; else none of them).
   */
  private rebuildTable(capacity: number, maxTableBytes: number): void {
    const next = this.newTable(capacity);
    const kept = this.exports.rehashHostTable(this.frame.heap.address(this.tableBlock), this.frame.heap.address(next), this.frame.heap.address(this.slotsBlock));
    if (kept < 0) {
      this.frame.heap.free(next);
      if (tableBytes(capacity * 2) <= maxTableBytes) this.rebuildTable(capacity * 2, maxTableBytes);
      else this.clearHostTable();
      return;
    }
    this.frame.heap.free(this.tableBlock);
    this.tableBlock = next;
    this.tableCapacity = capacity;
  }

  /** Forgets every key (the table is emptied; keys are resolved again when met). */
  clearHostTable(capacity = this.tableCapacity): void {
    this.rememberedNames = 0;
    if (capacity !== this.tableCapacity) {
      this.frame.heap.free(this.tableBlock);
      this.tableCapacity = capacity;
      this.tableBlock = this.newTable(capacity);
      return;
    }
    const address = this.frame.heap.address(this.tableBlock);
    this.zero(address + HOSTS_HEADER_SIZE, capacity * HOST_ENTRY_SIZE);
    const words = this.words();
    words[(address + HOSTS_USED) >>> 2] = 0;
    words[(address + HOSTS_KEY_BYTES_USED) >>> 2] = 0;
  }

  private slotAddress(slot: number): number {
    return this.frame.heap.address(this.slotsBlock) + slot * SLOT_SIZE;
  }

  private slotWord(slot: number, field: number): number {
    return this.words()[(this.slotAddress(slot) + field) >>> 2];
  }

  private setSlotWord(slot: number, field: number, value: number): void {
    this.words()[(this.slotAddress(slot) + field) >>> 2] = value;
  }

  /**
   * Compiles a robots.txt body (already cut to its size limit) for the engine's agents into a new slot and
   * returns it. flags: SLOT_FLAG_* for the slot.
   */
  compileSlot(body: Uint8Array, agents: Uint8Array, rfc: boolean, flags = 0): number {
    // the slot first: a new slot may grow the slot table, and nothing but the blob's own block may be
    // allocated while the blob lies in the work area
    const slot = this.newSlot();
    const { address, length } = this.core.bodies.compileInWorkArea(body, agents, rfc);
    const block = this.frame.heap.allocate(length);
    // the blob lies in the work area, which starts after the heap: this allocation may have grown the heap
    // over it (its new block may overlap it), so copy from where it was, with memmove semantics
    this.frame.copyWithin(this.frame.heap.address(block), address, address + length);
    this.fillSlot(slot, block, flags);
    return slot;
  }

  /**
   * A slot for rules compiled already (a pack's blob, compiled for this engine's agent query and mode by
   * src/core/pack/compile.ts): `fill` writes their `length` bytes straight into a heap block (a file read into
   * it; it must not call the engine; when it throws, the slot and block are given back). Returns the slot.
   */
  blobSlot(length: number, fill: (target: Uint8Array) => void): number {
    const slot = this.newSlot();
    const block = this.frame.heap.allocate(Math.max(1, length));
    const address = this.frame.heap.address(block);
    try {
      fill(this.frame.memoryBytes().subarray(address, address + length));
    } catch (error) {
      this.frame.heap.free(block);
      this.freeSlots.push(slot);
      throw error;
    }
    this.fillSlot(slot, block, 0);
    return slot;
  }

  /**
   * Keeps a body (already cut to its size limit) in a new slot without compiling it: the slot's lines are
   * answered straight from it (assembly/direct.ts) until upgradeSlot compiles it. Google mode only; one
   * agent query per engine. Returns the slot.
   */
  rawSlot(body: Uint8Array, agents: Uint8Array): number {
    this.useAgents(agents);
    const slot = this.newSlot();
    const block = this.frame.heap.allocate(RAW_BODY_START + body.length + RAW_BODY_SLACK);
    this.writeRawBody(this.frame.heap.address(block), body);
    this.fillSlot(slot, block, 0);
    return slot;
  }

  /** The agent query of raw and transient slots: kept in a heap block on first use; one per engine. */
  private useAgents(agents: Uint8Array): void {
    if (this.rawAgents === null) {
      this.rawAgents = agents;
      this.agentsBlock = this.frame.heap.allocate(agents.length);
      this.frame.memoryBytes().set(agents, this.frame.heap.address(this.agentsBlock));
    } else if (this.rawAgents !== agents) {
      throw new RobotsError('INVALID_ARGUMENT', 'raw slots of one engine answer one agent query');
    }
  }

  /** Lays out a raw body at address: RAW_BODY_MAGIC, its length, the body, RAW_BODY_SLACK zero bytes. */
  private writeRawBody(address: number, body: Uint8Array): void {
    const bytes = this.frame.memoryBytes();
    const words = this.frame.memoryWords();
    words[address >>> 2] = RAW_BODY_MAGIC;
    words[(address + RAW_BODY_LENGTH) >>> 2] = body.length;
    bytes.set(body, address + RAW_BODY_START);
    bytes.fill(0, address + RAW_BODY_START + body.length, address + RAW_BODY_START + body.length + RAW_BODY_SLACK);
  }

  /** Bytes a body takes in the landing block (header, body, slack; blocks stay 16-byte aligned). */
  private static landingSize(bodyLength: number): number {
    return align(RAW_BODY_START + bodyLength + RAW_BODY_SLACK, 16);
  }

  /** Sizes the landing block for a cache budget (a 16th of it, from 64 KiB to 1 MiB); takes effect when the block is next made. */
  setLandingBudget(budgetBytes: number): void {
    const bytes = Math.max(MIN_LANDING_BYTES, Math.min(LANDING_BYTES, Math.floor(budgetBytes / 16 / 16) * 16));
    if (bytes === this.landingBytes) return;
    this.landingBytes = bytes;
    if (this.landingBlock >= 0 && this.transients.length === 0) {
      this.frame.heap.free(this.landingBlock);
      this.landingBlock = -1;
    }
  }

  /** Whether a body of this length can be a transient slot at all (it fits an empty landing block). */
  fitsLanding(bodyLength: number): boolean {
    return HostEngine.landingSize(bodyLength) <= this.landingBytes;
  }

  /** Whether the landing block has room for one more body of this length this round. */
  landingHasRoom(bodyLength: number): boolean {
    return this.landingUsed + HostEngine.landingSize(bodyLength) <= this.landingBytes && (this.landingBlock < 0 || this.frame.heap.size(this.landingBlock) >= this.landingBytes);
  }

  /**
   * A raw slot whose body lies in the landing block, for one round (a host met for the first time: answered
   * straight from its body, then forgotten, see releaseTransients). Google mode only; the caller checks
   * landingHasRoom first (and answers a round to empty the block when it has none). Returns the slot.
   */
  transientSlot(body: Uint8Array, agents: Uint8Array): number {
    this.useAgents(agents);
    // the slot first: a new slot may grow the slot table (an allocation), which may move the landing block
    const slot = this.newSlot();
    if (this.landingBlock < 0) this.landingBlock = this.frame.heap.allocate(this.landingBytes);
    const offset = this.landingUsed;
    this.landingUsed += HostEngine.landingSize(body.length);
    this.writeRawBody(this.frame.heap.address(this.landingBlock) + offset, body);
    this.fillSlot(slot, TRANSIENT, 0);
    this.landingOffsets[slot] = offset;
    this.transients.push(slot);
    return slot;
  }

  /** Whether a slot is transient (its body in the landing block, released at the end of the round). */
  isTransient(slot: number): boolean {
    return this.blobBlocks[slot] === TRANSIENT;
  }

  /** Transient slots now (released by releaseTransients). */
  get transientCount(): number {
    return this.transients.length;
  }

  /**
   * Empties every transient slot (their host entries go stale: a host met again is resolved again) and the
   * landing block. After the round that answered their lines, or at the end of the chunk.
   */
  releaseTransients(): void {
    for (const slot of this.transients) {
      if (this.blobBlocks[slot] !== TRANSIENT) continue; // compiled since: a cached slot now
      this.freeSlot(slot);
    }
    this.transients.length = 0;
    this.landingUsed = 0;
    if (this.landingBlock >= 0 && this.frame.heap.size(this.landingBlock) < this.landingBytes) {
      this.frame.heap.free(this.landingBlock); // made for a smaller budget
      this.landingBlock = -1;
    }
  }

  /** Whether a slot holds a raw body (rawSlot, transientSlot) rather than a compiled matcher. */
  isRaw(slot: number): boolean {
    const block = this.blobBlocks[slot];
    if (block === TRANSIENT) return true;
    return block >= 0 && this.words()[this.frame.heap.address(block) >>> 2] === RAW_BODY_MAGIC;
  }

  /** The address of a slot's blob or raw body (valid until the next heap allocation). */
  private blobAddress(slot: number): number {
    const block = this.blobBlocks[slot];
    return block === TRANSIENT ? this.frame.heap.address(this.landingBlock) + this.landingOffsets[slot] : this.frame.heap.address(block);
  }

  /**
   * Compiles a raw slot's body in place of it (the slot, its generation, lines and pin stay). With `room`,
   * asked for the bytes the compiled matcher needs beyond the raw body's block once its size is known: when
   * it says no, the compile is dropped and the slot stays raw (its lines are answered from the body). Returns
   * whether the slot was compiled.
   */
  upgradeSlot(slot: number, room: ((more: number) => boolean) | null = null): boolean {
    const rawBlock = this.blobBlocks[slot];
    const raw = this.blobAddress(slot);
    const bodyLength = this.words()[(raw + RAW_BODY_LENGTH) >>> 2];
    const { address, length } = this.core.bodies.compileAt(raw + RAW_BODY_START, bodyLength, this.frame.heap.address(this.agentsBlock), false, this.frame.workPtr);
    // (room may evict other slots: freeing blocks moves none, and the blob lies after the heap; a transient
    // slot's body holds no block of its own, so the matcher's whole size is more)
    const held = rawBlock === TRANSIENT ? 0 : this.frame.heap.size(rawBlock);
    if (room !== null && !room(Math.max(0, sizeOfClass(sizeClassIndex(length)) - held))) return false;
    // the blob lies in the work area, after the heap: the new block may grow the heap over it (memmove)
    const block = this.frame.heap.allocate(length);
    this.frame.copyWithin(this.frame.heap.address(block), address, address + length);
    if (rawBlock !== TRANSIENT) this.frame.heap.free(rawBlock);
    this.blobBlocks[slot] = block;
    this.addressEpoch = -1;
    return true;
  }

  /** A fresh slot record for a filled block: generation kept (entries that named the slot before stay stale), pinned by this scan. */
  private fillSlot(slot: number, block: number, flags: number): void {
    this.blobBlocks[slot] = block;
    this.automatonBlocks[slot] = -1;
    const record = this.slotAddress(slot);
    const words = this.frame.memoryWords();
    const generation = words[(record + SLOT_GENERATION) >>> 2];
    this.frame.memoryBytes().fill(0, record, record + SLOT_SIZE);
    words[(record + SLOT_GENERATION) >>> 2] = generation;
    words[(record + SLOT_PIN_STAMP) >>> 2] = this.stamp;
    words[(record + SLOT_FLAGS) >>> 2] = flags;
    this.addressEpoch = -1;
  }

  private newSlot(): number {
    const free = this.freeSlots.pop();
    if (free !== undefined) return free;
    if (this.slotCount === this.slotCapacity) this.growSlots();
    return this.slotCount++;
  }

  private growSlots(): void {
    const capacity = this.slotCapacity * 2;
    const block = this.frame.heap.allocate(capacity * SLOT_SIZE);
    const bytes = this.frame.memoryBytes();
    const from = this.frame.heap.address(this.slotsBlock);
    const to = this.frame.heap.address(block);
    bytes.copyWithin(to, from, from + this.slotCapacity * SLOT_SIZE);
    bytes.fill(0, to + this.slotCapacity * SLOT_SIZE, to + capacity * SLOT_SIZE);
    this.frame.heap.free(this.slotsBlock);
    this.slotsBlock = block;
    const grow = (old: Int32Array): Int32Array => {
      const next = new Int32Array(capacity).fill(-1);
      next.set(old);
      return next;
    };
    this.blobBlocks = grow(this.blobBlocks);
    this.automatonBlocks = grow(this.automatonBlocks);
    this.landingOffsets = grow(this.landingOffsets);
    this.slotCapacity = capacity;
  }

  /** Empties a slot: its blocks go back to the heap, and host entries that named it no longer count. */
  freeSlot(slot: number): void {
    if (this.blobBlocks[slot] >= 0) this.frame.heap.free(this.blobBlocks[slot]);
    if (this.automatonBlocks[slot] >= 0) this.frame.heap.free(this.automatonBlocks[slot]);
    this.blobBlocks[slot] = -1;
    this.automatonBlocks[slot] = -1;
    this.setSlotWord(slot, SLOT_GENERATION, (this.slotWord(slot, SLOT_GENERATION) + 1) >>> 0);
    this.setSlotWord(slot, SLOT_AUTOMATON_PTR, 0);
    this.freeSlots.push(slot);
  }

  /**
   * Gives every block of the engine back to the heap (host and slot tables, every slot's blob and automaton,
   * the chunk, the agent query): a later owner reuses them. The engine is unusable afterwards. Called once,
   * by MultiHostMatcher.close or its finalizer.
   */
  close(): void {
    const heap = this.frame.heap;
    for (let slot = 0; slot < this.slotCount; slot++) {
      if (this.blobBlocks[slot] >= 0) heap.free(this.blobBlocks[slot]);
      if (this.automatonBlocks[slot] >= 0) heap.free(this.automatonBlocks[slot]);
    }
    this.blobBlocks.fill(-1);
    this.automatonBlocks.fill(-1);
    for (const block of [this.tableBlock, this.slotsBlock, this.chunkBlock, this.agentsBlock, this.landingBlock]) if (block >= 0) heap.free(block);
    this.tableBlock = this.slotsBlock = this.chunkBlock = this.agentsBlock = this.landingBlock = -1;
    this.slotCount = 0;
    this.freeSlots.length = 0;
    this.transients.length = 0;
    this.landingUsed = 0;
    this.chunk = null;
    this.core.resident.forgetBinding();
  }

  /** Heap bytes a slot holds (blob and automaton region; a transient slot none: the landing block is the engine's own). */
  slotBytes(slot: number): number {
    const automaton = this.automatonBlocks[slot];
    const blob = this.blobBlocks[slot];
    return (blob < 0 ? 0 : this.frame.heap.size(blob)) + (automaton >= 0 ? this.frame.heap.size(automaton) : 0);
  }

  /** Blob length of a slot (for sizing its automaton). */
  blobBytes(slot: number): number {
    const blob = this.blobBlocks[slot];
    return blob === TRANSIENT ? 0 : this.frame.heap.size(blob);
  }

  /** Automaton region bytes of a slot (0: none). */
  automatonBytes(slot: number): number {
    return this.automatonBlocks[slot] >= 0 ? this.slotWord(slot, SLOT_AUTOMATON_BYTES) : 0;
  }

  /** Lines the slot has matched since it was filled. */
  slotLines(slot: number): number {
    return this.slotWord(slot, SLOT_LINES);
  }

  /** Whether the slot's automaton region filled up since it was made (it is then worth a larger one). */
  automatonOverflowed(slot: number): boolean {
    const block = this.automatonBlocks[slot];
    return block >= 0 && this.words()[(this.frame.heap.address(block) + AUTOMATON_OVERFLOWS) >>> 2] > 0;
  }

  /** The scan stamp of the current chunk attempt: a slot whose pin stamp equals it is used by the chunk. */
  get currentStamp(): number {
    return this.stamp;
  }

  /** The last scan stamp that met the slot. */
  pinStamp(slot: number): number {
    return this.slotWord(slot, SLOT_PIN_STAMP);
  }

  /** Gives a slot a fresh automaton region of `bytes` (replacing its old one). */
  giveAutomaton(slot: number, bytes: number): void {
    if (this.automatonBlocks[slot] >= 0) this.frame.heap.free(this.automatonBlocks[slot]);
    const block = this.frame.heap.allocate(bytes);
    this.automatonBlocks[slot] = block;
    this.zero(this.frame.heap.address(block), AUTOMATON_HEADER_SIZE);
    this.setSlotWord(slot, SLOT_AUTOMATON_BYTES, bytes);
    this.addressEpoch = -1;
  }

  /** Rewrites the slot table's addresses when blocks moved (compaction, relocation) or slots changed. */
  private refreshAddresses(): void {
    if (this.addressEpoch === this.frame.heap.epoch) return;
    const words = this.words();
    const base = this.frame.heap.address(this.slotsBlock);
    for (let slot = 0; slot < this.slotCount; slot++) {
      const record = (base + slot * SLOT_SIZE) >>> 2;
      const blob = this.blobBlocks[slot];
      const automaton = this.automatonBlocks[slot];
      words[record + (SLOT_BLOB_PTR >> 2)] = blob >= 0 || blob === TRANSIENT ? this.blobAddress(slot) : 0;
      words[record + (SLOT_AUTOMATON_PTR >> 2)] = automaton >= 0 ? this.frame.heap.address(automaton) : 0;
    }
    this.addressEpoch = this.frame.heap.epoch;
  }

  /** Address of an offset in the chunk's block (valid until the next heap allocation). */
  private chunkAt(offset: number): number {
    return this.frame.heap.address(this.chunkBlock) + offset;
  }

  /**
   * Makes the chunk block at least `bytes` long, keeping its first `keep` bytes; makeRoom(more) is told
   * first how many bytes the engine is about to take in addition (the policy evicts matchers for them).
   */
  private ensureChunkBlock(bytes: number, keep: number, makeRoom: (more: number) => void): void {
    const current = this.chunkBlock >= 0 ? this.frame.heap.size(this.chunkBlock) : 0;
    if (current >= bytes) return;
    const wanted = Math.max(bytes, Math.ceil(current * 1.25));
    makeRoom(wanted);
    const block = this.frame.heap.allocate(wanted);
    if (this.chunkBlock >= 0) {
      if (keep > 0) this.frame.copyWithin(this.frame.heap.address(block), this.frame.heap.address(this.chunkBlock), this.frame.heap.address(this.chunkBlock) + keep);
      this.frame.heap.free(this.chunkBlock);
    }
    this.chunkBlock = block;
    this.addressEpoch = -1;
  }

  /** Frees the chunk block when it is larger than maxBytes (a chunk of one huge line): the next chunk makes a new one. */
  trimChunk(maxBytes: number): void {
    if (this.chunkBlock < 0 || this.frame.heap.size(this.chunkBlock) <= maxBytes) return;
    this.frame.heap.free(this.chunkBlock);
    this.chunkBlock = -1;
    this.chunk = null;
  }

  /**
   * Copies a chunk of LF-separated lines into the chunk block and scans it (a new stamp: slots met are
   * pinned). Returns the keys to resolve; when the table fills up it is emptied and the scan repeated, and
   * grown when the chunk alone does not fit it, up to maxTableBytes: past that, null (answer the chunk in
   * parts); null too when the chunk with its per-line arrays would take more than maxChunkBytes (and it has
   * more than one line). explain: room for rule references (jsonl); makeRoom: see ensureChunkBlock. Called
   * once per chunk attempt.
   */
  loadChunk(input: Uint8Array, maxTableBytes: number, maxChunkBytes: number, explain: boolean, makeRoom: (more: number) => void): PendingHosts | null {
    if (input.length > MAX_BATCH_BYTES) throw new RobotsError('INPUT_TOO_LARGE', `a chunk of ${input.length} bytes is larger than ${MAX_BATCH_BYTES}`);
    const firstLf = input.indexOf(CHAR_LF);
    const oneLine = firstLf < 0 || firstLf >= input.length - 1;
    // the input first, then arrays sized by its lines
    const inputBytes = align(input.length + 1 + SENTINEL_SLACK, 16);
    if (inputBytes > maxChunkBytes && !oneLine) return null;
    this.ensureChunkBlock(inputBytes, 0, makeRoom);
    this.frame.memoryBytes().set(input, this.chunkAt(0));
    this.frame.memoryBytes()[this.chunkAt(input.length)] = CHAR_LF;
    const lineBound = this.exports.countLines(this.chunkAt(0), input.length) + 1;
    const layout: ChunkLayout = { inputLength: input.length, lineStarts: inputBytes, entries: 0, order: 0, pending: 0, verdicts: 0, groups: 0, rules: 0, end: 0 };
    layout.entries = layout.lineStarts + lineBound * 4;
    layout.order = layout.entries + lineBound * 4;
    layout.pending = layout.order + lineBound * 4;
    layout.verdicts = layout.pending + lineBound * 4;
    layout.groups = align(layout.verdicts + lineBound, 16);
    layout.rules = explain ? align(layout.groups + (lineBound + 1) * GROUP_SIZE, 16) : 0;
    layout.end = align(layout.groups + (lineBound + 1) * GROUP_SIZE, 16) + (explain ? lineBound * RULE_REF_SIZE : 0);
    if (layout.end > maxChunkBytes && !oneLine) return null;
    this.ensureChunkBlock(layout.end, input.length + 1, makeRoom);
    this.frame.memoryBytes().fill(VERDICT_UNSET, this.chunkAt(layout.verdicts), this.chunkAt(layout.verdicts) + lineBound); // no line answered yet
    this.chunk = layout;
    this.noHostLines = 0;
    let pendingCount = 0;
    let step = 0; // 0: as it is; 1: rebuilt (stale entries dropped); then grown while allowed; then emptied
    while (true) {
      this.stamp = (this.stamp + 1) >>> 0;
      const keyScratch = this.frame.workPtr;
      this.frame.reserve(keyScratch + MAX_HOST_KEY_BYTES + 64);
      const table = this.frame.heap.address(this.tableBlock);
      const result = this.exports.scanLineHosts(this.chunkAt(0), input.length, table, this.frame.heap.address(this.slotsBlock), this.stamp, this.chunkAt(layout.lineStarts), this.chunkAt(layout.entries), this.chunkAt(layout.pending), keyScratch, this.frame.resultPtr);
      if (result !== SCAN_TABLE_FULL) {
        this.lineCount = result;
        this.runCount = this.frame.result(SCAN_RESULT_RUNS);
        this.distinctCount = this.frame.result(SCAN_RESULT_DISTINCT);
        pendingCount = this.frame.result(SCAN_RESULT_PENDING);
        break;
      }
      // full: rebuild it without stale entries; still full, grow it within maxTableBytes; then forget every
      // key (they are resolved again); and when an empty table of the largest size cannot hold this chunk's
      // hosts, say so (the chunk is answered in parts)
      if (step === 0) {
        this.rebuildTable(this.tableCapacity, maxTableBytes);
        step = 1;
      } else if (tableBytes(this.tableCapacity * 2) <= maxTableBytes) {
        this.rebuildTable(this.tableCapacity * 2, maxTableBytes);
      } else if (step < 2) {
        this.clearHostTable();
        step = 2;
      } else if (!oneLine) {
        this.clearHostTable();
        return null;
      } else {
        this.clearHostTable(this.tableCapacity * 2); // one line: its host fits any table
      }
    }
    const words = this.words();
    const table = this.frame.heap.address(this.tableBlock);
    const keys = table + HOSTS_HEADER_SIZE + this.tableCapacity * HOST_ENTRY_SIZE;
    const pendingAt = this.chunkAt(layout.pending) >>> 2;
    const entries = words.slice(pendingAt, pendingAt + pendingCount);
    const keyTexts: string[] = new Array(pendingCount);
    const memory = this.frame.memoryBytes();
    for (let i = 0; i < pendingCount; i++) {
      const record = (table + HOSTS_HEADER_SIZE + entries[i] * HOST_ENTRY_SIZE) >>> 2;
      const offset = keys + words[record + (HOST_ENTRY_KEY_OFFSET >> 2)];
      keyTexts[i] = latin1.decode(memory.subarray(offset, offset + (words[record + (HOST_ENTRY_KEY_LENGTH >> 2)] & ~HOST_KEY_ALIAS)));
    }
    // the lines by host entry, once: the pending list becomes each pending entry's group
    this.groupCount = this.exports.groupLinesByEntry(this.lineCount, this.chunkAt(layout.entries), table, this.stamp, this.chunkAt(layout.groups), this.chunkAt(layout.order), this.chunkAt(layout.pending), pendingCount);
    const groupsAt = this.chunkAt(layout.pending) >>> 2;
    const groups = this.words().slice(groupsAt, groupsAt + pendingCount);
    return { entries, keys: keyTexts, groups, groupCount: this.groupCount };
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

  /** Resolves a pending key: the slot that answers it (pinned for this chunk), or null when it names no usable host. */
  resolve(entry: number, slot: number | null): void {
    const words = this.words();
    const record = (this.frame.heap.address(this.tableBlock) + HOSTS_HEADER_SIZE + entry * HOST_ENTRY_SIZE) >>> 2;
    if (slot === null) {
      words[record + (HOST_ENTRY_SLOT >> 2)] = HOST_SLOT_NO_HOST;
      return;
    }
    words[record + (HOST_ENTRY_SLOT >> 2)] = slot + 1;
    words[record + (HOST_ENTRY_GENERATION >> 2)] = this.slotWord(slot, SLOT_GENERATION);
    this.setSlotWord(slot, SLOT_PIN_STAMP, this.stamp);
  }

  /** Writes a key (one char per byte) into the work area; returns its address. */
  private keyInMemory(key: string): number {
    const address = this.frame.workPtr;
    this.frame.reserve(address + key.length);
    const bytes = this.frame.memoryBytes();
    for (let i = 0; i < key.length; i++) bytes[address + i] = key.charCodeAt(i);
    return address;
  }

  /**
   * The slot that answers a canonical host key, or -1: a line's entry with that key that is not an alias
   * (see markAlias; asked only when ownEntry, since a key being resolved finds its own pending entry), else
   * the name remembered for other spellings (rememberHost).
   */
  findHost(key: string, ownEntry: boolean): number {
    const table = this.frame.heap.address(this.tableBlock);
    const slots = this.frame.heap.address(this.slotsBlock);
    if (ownEntry) {
      const slot = this.exports.findHostSlot(table, slots, this.keyInMemory(key), key.length);
      if (slot >= 0) return slot;
    }
    if (this.rememberedNames === 0) return -1;
    return this.exports.findHostSlot(table, slots, this.keyInMemory(REMEMBERED_PREFIX + key), key.length + 1);
  }

  /** Remembers that a canonical host key answers with slot (when the table has room): other spellings find it. */
  rememberHost(key: string, slot: number): void {
    const address = this.keyInMemory(REMEMBERED_PREFIX + key);
    if (this.exports.rememberHost(this.frame.heap.address(this.tableBlock), this.frame.heap.address(this.slotsBlock), address, key.length + 1, slot)) this.rememberedNames++;
  }

  /** Flags a pending entry as a spelling that is not its host's canonical name (canonical look-ups skip it). */
  markAlias(entry: number): void {
    const field = (this.frame.heap.address(this.tableBlock) + HOSTS_HEADER_SIZE + entry * HOST_ENTRY_SIZE + HOST_ENTRY_KEY_LENGTH) >>> 2;
    const words = this.words();
    words[field] = (words[field] | HOST_KEY_ALIAS) >>> 0;
  }

  /** Whether a slot holds a compiled matcher or a body (transient slots included). */
  isFilled(slot: number): boolean {
    return this.blobBlocks[slot] >= 0 || this.blobBlocks[slot] === TRANSIENT;
  }

  /** Pins a slot for the current chunk (it will not be chosen for eviction while the chunk runs). */
  pin(slot: number): void {
    this.setSlotWord(slot, SLOT_PIN_STAMP, this.stamp);
  }

  /**
   * Makes groups [from, to) the round (every entry in them resolved): writes their slots (lines without a
   * host: missingSlot). groupSlot(g) and groupLines(g) then read them; match answers them.
   */
  round(from: number, to: number, missingSlot: number): void {
    const layout = this.chunk as ChunkLayout;
    // scratch for the order by slot (slotGroups): a word per slot, then the round's records
    const scratch = this.frame.workPtr;
    this.frame.reserve(scratch + (this.slotCount + 1) * 4 + 16 + (to - from) * GROUP_SIZE);
    this.noHostLines += this.exports.slotGroups(this.chunkAt(layout.groups), from, to, this.frame.heap.address(this.tableBlock), missingSlot, this.frame.resultPtr, scratch, this.slotCount);
    this.roundFrom = from;
    this.roundTo = to;
  }

  /** After a round's match: a new stamp, so that the slots it answered with are no longer pinned. */
  newRound(): void {
    this.stamp = (this.stamp + 1) >>> 0;
  }

  /** The slot of group g of the last grouping. */
  groupSlot(g: number): number {
    return this.words()[(this.chunkAt((this.chunk as ChunkLayout).groups) + g * GROUP_SIZE + GROUP_SLOT) >>> 2];
  }

  /** The lines of group g of the last grouping. */
  groupLines(g: number): number {
    return this.words()[(this.chunkAt((this.chunk as ChunkLayout).groups) + g * GROUP_SIZE + GROUP_COUNT) >>> 2];
  }

  /**
   * Verdicts (explain: and rule references) of the round's lines, group by group from group `from` (the
   * round's first by default). Returns -1 when every group of the round is answered; in explain mode, the
   * first raw group whose direct answer passed its work limit (the caller compiles its slot with
   * upgradeSlot, then calls again from that group).
   */
  match(explain: boolean, from = this.roundFrom): number {
    const layout = this.chunk as ChunkLayout;
    this.refreshAddresses();
    this.core.resident.forgetBinding();
    if (explain && layout.rules === 0) throw new RobotsError('INVALID_ARGUMENT', 'the chunk was loaded without room for rule references');
    const stopped = this.exports.matchGroups(this.chunkAt(0), this.chunkAt(layout.lineStarts), this.chunkAt(layout.groups), this.roundTo, this.chunkAt(layout.order), this.frame.heap.address(this.slotsBlock), this.chunkAt(layout.verdicts), explain ? this.chunkAt(layout.rules) : 0, this.frame.workPtr, this.agentsBlock >= 0 ? this.frame.heap.address(this.agentsBlock) : 0, from);
    return stopped < this.roundTo ? stopped : -1;
  }

  /**
   * The first `max` lines of the chunk (indexes) that named no host, after the chunk is answered: as
   * groupLinesBySlot counts them (no http(s) key, or a key resolved as naming no host). Only asked when
   * some line did (noHostLines): callers name them.
   */
  noHostLineIndexes(max: number): number[] {
    const layout = this.chunk as ChunkLayout;
    const words = this.words();
    const entriesAt = this.chunkAt(layout.entries) >>> 2;
    const table = this.frame.heap.address(this.tableBlock) + HOSTS_HEADER_SIZE;
    const found: number[] = [];
    for (let i = 0; i < this.lineCount && found.length < max; i++) {
      const entry = words[entriesAt + i];
      if (entry === LINE_NO_HOST || words[(table + entry * HOST_ENTRY_SIZE + HOST_ENTRY_SLOT) >>> 2] === HOST_SLOT_NO_HOST) found.push(i);
    }
    return found;
  }

  /** The chunk's verdict bytes, in input order (a copy). */
  verdicts(): Uint8Array {
    const layout = this.chunk as ChunkLayout;
    return this.frame.memoryBytes().slice(this.chunkAt(layout.verdicts), this.chunkAt(layout.verdicts) + this.lineCount);
  }

  /**
   * Text output of the chunk (assembly/format.ts), written a piece of about OUTPUT_PIECE_BYTES at a time:
   * copied into `into` when it fits (a view of it), else a new copy.
   */
  formatText(filter = OUTPUT_ALL, into: Uint8Array | null = null): Uint8Array {
    const layout = this.chunk as ChunkLayout;
    const output = new OutputPieces(into);
    const outputPtr = this.frame.workPtr;
    const startsAt = this.chunkAt(layout.lineStarts) >>> 2;
    const startOf = (line: number): number => (line < this.lineCount ? this.words()[startsAt + line] : layout.inputLength + 1);
    // a line's text is at most its bytes and 12 more
    const pieceBytes = (first: number, stop: number): number => startOf(stop) - startOf(first) + 12 * (stop - first);
    for (let first = 0; first < this.lineCount;) {
      // the most lines from `first` on whose text fits a piece (one line at least), by binary search
      let low = first + 1;
      let high = this.lineCount;
      while (low < high) {
        const middle = (low + high + 1) >>> 1;
        if (pieceBytes(first, middle) <= OUTPUT_PIECE_BYTES) low = middle;
        else high = middle - 1;
      }
      this.frame.reserve(outputPtr + pieceBytes(first, low) + SENTINEL_SLACK);
      const length = this.exports.formatTextLines(this.chunkAt(startOf(first)), low - first, this.chunkAt(layout.verdicts) + first, outputPtr, filter, 0);
      output.add(this.frame.memoryBytes().subarray(outputPtr, outputPtr + length));
      first = low;
    }
    return output.result();
  }

  /** jsonl output of the chunk after match(true): input numbers firstNumber + i, or numbers[i]; into `into` when it fits (a view of it). */
  formatJsonl(filter: number, firstNumber: number, numbers: Uint32Array | null, into: Uint8Array | null = null): Uint8Array {
    const layout = this.chunk as ChunkLayout;
    return this.core.matching.formatJsonl(this.chunkAt(0), layout.inputLength, this.lineCount, this.chunkAt(layout.verdicts), this.chunkAt(layout.rules), firstNumber, numbers, filter, into);
  }
}
