// The many-host engine's slot table: one record per matcher a host is answered by (SLOT_* of
// src/core/constants.ts, read by assembly/hosts.ts), and per slot the heap blocks it holds: its compiled
// blob (or a raw body, src/core/wasm/raw-slots.ts), and its automaton region. Slots are reused (a free list);
// a slot emptied gets a new generation, so host entries that named it go stale. The scan stamp pins the slots
// a chunk uses (the policy never evicts those while the chunk runs).
import {
  SLOT_BLOB_PTR, SLOT_AUTOMATON_PTR, SLOT_AUTOMATON_BYTES, SLOT_GENERATION, SLOT_LINES, SLOT_PIN_STAMP, SLOT_FLAGS, SLOT_SIZE, SLOT_FLAG_RAW,
  AUTOMATON_HEADER_SIZE, AUTOMATON_OVERFLOWS,
} from '../constants.js';
import type { CoreFrame } from './frame.js';
import type { LandingBlock } from './landing.js';

const FIRST_SLOT_CAPACITY = 64;
/** blobBlocks' value for a transient slot: its body lies in the landing block (see RawSlots.transientSlot). */
export const TRANSIENT = -2;
/** blobBlocks' value for a slot whose compiled rule set lies in the pack data held whole (see PackData). */
export const PACKED = -3;

/** The slot table of one engine. */
export class HostSlots {
  private readonly frame: CoreFrame;
  private block: number;
  private capacity = FIRST_SLOT_CAPACITY;
  private count = 0;
  private readonly freeSlots: number[] = [];
  private blobBlocks: Int32Array = new Int32Array(FIRST_SLOT_CAPACITY).fill(-1);
  private automatonBlocks: Int32Array = new Int32Array(FIRST_SLOT_CAPACITY).fill(-1);
  /** Per slot: its body's offset in the landing block when it is transient, in the pack data when packed. */
  private placeOffsets: Int32Array = new Int32Array(FIRST_SLOT_CAPACITY);
  /** Per packed slot: its rule set's length. */
  private packedLengths: Int32Array = new Int32Array(FIRST_SLOT_CAPACITY);
  /** The heap epoch the table's addresses were written for. */
  private addressEpoch = -1;
  private stamp = 0;

  /** packAddress: where the pack data held whole lies now (PackData's). */
  constructor(frame: CoreFrame, private readonly landing: LandingBlock, private readonly packAddress: () => number) {
    this.frame = frame;
    this.block = this.frame.heap.allocate(this.capacity * SLOT_SIZE);
    this.zero(this.frame.heap.address(this.block), this.capacity * SLOT_SIZE);
  }

  private zero(address: number, bytes: number): void {
    this.frame.memoryBytes().fill(0, address, address + bytes);
  }

  /** The table's address (valid until the next heap allocation). */
  get address(): number {
    return this.frame.heap.address(this.block);
  }

  /** Slots made so far (used or free). */
  get slotCount(): number {
    return this.count;
  }

  /** Heap bytes of the table itself. */
  get ownBytes(): number {
    return this.frame.heap.size(this.block);
  }

  private slotAddress(slot: number): number {
    return this.frame.heap.address(this.block) + slot * SLOT_SIZE;
  }

  private word(slot: number, field: number): number {
    return this.frame.memoryWords()[(this.slotAddress(slot) + field) >>> 2];
  }

  private setWord(slot: number, field: number, value: number): void {
    this.frame.memoryWords()[(this.slotAddress(slot) + field) >>> 2] = value;
  }

  /** A slot's generation (a host entry that noted another is stale). */
  generation(slot: number): number {
    return this.word(slot, SLOT_GENERATION);
  }

  /** A slot to fill (fillSlot, fillTransient; or returnSlot when filling failed). May grow the table (an allocation). */
  newSlot(): number {
    const free = this.freeSlots.pop();
    if (free !== undefined) return free;
    if (this.count === this.capacity) this.grow();
    return this.count++;
  }

  /** Gives back a slot from newSlot that was never filled. */
  returnSlot(slot: number): void {
    this.freeSlots.push(slot);
  }

  private grow(): void {
    const capacity = this.capacity * 2;
    const block = this.frame.heap.allocate(capacity * SLOT_SIZE);
    const bytes = this.frame.memoryBytes();
    const from = this.frame.heap.address(this.block);
    const to = this.frame.heap.address(block);
    bytes.copyWithin(to, from, from + this.capacity * SLOT_SIZE);
    bytes.fill(0, to + this.capacity * SLOT_SIZE, to + capacity * SLOT_SIZE);
    this.frame.heap.free(this.block);
    this.block = block;
    const grown = (old: Int32Array): Int32Array => {
      const next = new Int32Array(capacity).fill(-1);
      next.set(old);
      return next;
    };
    this.blobBlocks = grown(this.blobBlocks);
    this.automatonBlocks = grown(this.automatonBlocks);
    this.placeOffsets = grown(this.placeOffsets);
    this.packedLengths = grown(this.packedLengths);
    this.capacity = capacity;
  }

  /** A fresh record for a slot holding `block` (or TRANSIENT): generation kept (entries that named it before stay stale), pinned by this scan. */
  fillSlot(slot: number, block: number, flags: number): void {
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

  /** Fills a slot whose raw body (flags SLOT_FLAG_RAW) or compiled rule set (0) lies at `offset` in the landing block. */
  fillTransient(slot: number, offset: number, flags: number): void {
    this.fillSlot(slot, TRANSIENT, flags);
    this.placeOffsets[slot] = offset;
  }

  /**
   * New slots, made at once, for compiled rule sets that lie in the pack data held whole: rule set i at
   * offsets[i], lengths[i] bytes long (a length of -1: none made for it). Returns each one's slot (-1: none).
   */
  newPackedSlots(offsets: Int32Array, lengths: Int32Array, flags: number): Int32Array {
    const made = new Int32Array(lengths.length).fill(-1);
    let needed = 0;
    for (const length of lengths) if (length >= 0) needed++;
    while (this.capacity < this.count + needed) this.grow();
    const words = this.frame.memoryWords();
    const table = this.address >>> 2;
    for (let i = 0; i < lengths.length; i++) {
      if (lengths[i] < 0) continue;
      const slot = made[i] = this.count++;
      this.blobBlocks[slot] = PACKED;
      this.placeOffsets[slot] = offsets[i];
      this.packedLengths[slot] = lengths[i];
      // (a slot never used before has a zero record: generation 0, no automaton)
      words[table + slot * (SLOT_SIZE >>> 2) + (SLOT_PIN_STAMP >>> 2)] = this.stamp;
      words[table + slot * (SLOT_SIZE >>> 2) + (SLOT_FLAGS >>> 2)] = flags;
    }
    this.addressEpoch = -1;
    return made;
  }

  /** The heap block of a slot's blob or raw body (TRANSIENT: in the landing block; PACKED: in the pack data; -1: empty). */
  blockOf(slot: number): number {
    return this.blobBlocks[slot];
  }

  /** Puts a new blob block in place of a slot's raw body (its generation, lines and pin stay; its raw flag goes). */
  replaceBlock(slot: number, block: number): void {
    this.blobBlocks[slot] = block;
    this.setWord(slot, SLOT_FLAGS, this.word(slot, SLOT_FLAGS) & ~SLOT_FLAG_RAW);
    this.addressEpoch = -1;
  }

  /** Empties a slot: its blocks go back to the heap, and host entries that named it no longer count. */
  freeSlot(slot: number): void {
    if (this.blobBlocks[slot] >= 0) this.frame.heap.free(this.blobBlocks[slot]);
    if (this.automatonBlocks[slot] >= 0) this.frame.heap.free(this.automatonBlocks[slot]);
    this.blobBlocks[slot] = -1;
    this.automatonBlocks[slot] = -1;
    this.setWord(slot, SLOT_GENERATION, (this.word(slot, SLOT_GENERATION) + 1) >>> 0);
    this.setWord(slot, SLOT_AUTOMATON_PTR, 0);
    this.setWord(slot, SLOT_FLAGS, 0);
    this.freeSlots.push(slot);
  }

  /** Whether a slot holds a compiled matcher or a body (transient and packed slots included). */
  isFilled(slot: number): boolean {
    return this.blobBlocks[slot] >= 0 || this.blobBlocks[slot] === TRANSIENT || this.blobBlocks[slot] === PACKED;
  }

  /** Heap bytes a slot holds (blob and automaton region; a transient or packed slot no blob: the landing block and the pack data are the engine's own). */
  slotBytes(slot: number): number {
    const automaton = this.automatonBlocks[slot];
    const blob = this.blobBlocks[slot];
    return (blob < 0 ? 0 : this.frame.heap.size(blob)) + (automaton >= 0 ? this.frame.heap.size(automaton) : 0);
  }

  /** Blob length of a slot (for sizing its automaton). */
  blobBytes(slot: number): number {
    const blob = this.blobBlocks[slot];
    return blob === TRANSIENT ? 0 : blob === PACKED ? this.packedLengths[slot] : this.frame.heap.size(blob);
  }

  /** Automaton region bytes of a slot (0: none). */
  automatonBytes(slot: number): number {
    return this.automatonBlocks[slot] >= 0 ? this.word(slot, SLOT_AUTOMATON_BYTES) : 0;
  }

  /** Lines the slot has matched since it was filled. */
  slotLines(slot: number): number {
    return this.word(slot, SLOT_LINES);
  }

  /** Whether the slot's automaton region filled up since it was made (it is then worth a larger one). */
  automatonOverflowed(slot: number): boolean {
    const block = this.automatonBlocks[slot];
    return block >= 0 && this.frame.memoryWords()[(this.frame.heap.address(block) + AUTOMATON_OVERFLOWS) >>> 2] > 0;
  }

  /** Gives a slot a fresh automaton region of `bytes` (replacing its old one). */
  giveAutomaton(slot: number, bytes: number): void {
    if (this.automatonBlocks[slot] >= 0) this.frame.heap.free(this.automatonBlocks[slot]);
    const block = this.frame.heap.allocate(bytes);
    this.automatonBlocks[slot] = block;
    this.zero(this.frame.heap.address(block), AUTOMATON_HEADER_SIZE);
    this.setWord(slot, SLOT_AUTOMATON_BYTES, bytes);
    this.addressEpoch = -1;
  }

  /** The scan stamp of the current chunk attempt: a slot whose pin stamp equals it is used by the chunk. */
  get currentStamp(): number {
    return this.stamp;
  }

  /** A new scan stamp (a chunk attempt, a round answered): slots pinned before are pinned no more. */
  nextStamp(): number {
    this.stamp = (this.stamp + 1) >>> 0;
    return this.stamp;
  }

  /** The last scan stamp that met the slot. */
  pinStamp(slot: number): number {
    return this.word(slot, SLOT_PIN_STAMP);
  }

  /** Pins a slot for the current chunk (it will not be chosen for eviction while the chunk runs). */
  pin(slot: number): void {
    this.setWord(slot, SLOT_PIN_STAMP, this.stamp);
  }

  /** The address of a slot's blob or raw body (valid until the next heap allocation). */
  blobAddress(slot: number): number {
    const block = this.blobBlocks[slot];
    if (block === TRANSIENT) return this.landing.address + this.placeOffsets[slot];
    return block === PACKED ? this.packAddress() + this.placeOffsets[slot] : this.frame.heap.address(block);
  }

  /** Rewrites the table's addresses when blocks moved (compaction, relocation) or slots changed. Before each match. */
  refreshAddresses(): void {
    if (this.addressEpoch === this.frame.heap.epoch) return;
    const words = this.frame.memoryWords();
    const base = this.frame.heap.address(this.block);
    for (let slot = 0; slot < this.count; slot++) {
      const record = (base + slot * SLOT_SIZE) >>> 2;
      const blob = this.blobBlocks[slot];
      const automaton = this.automatonBlocks[slot];
      words[record + (SLOT_BLOB_PTR >> 2)] = blob >= 0 || blob === TRANSIENT || blob === PACKED ? this.blobAddress(slot) : 0;
      words[record + (SLOT_AUTOMATON_PTR >> 2)] = automaton >= 0 ? this.frame.heap.address(automaton) : 0;
    }
    this.addressEpoch = this.frame.heap.epoch;
  }

  /** Addresses are to be rewritten before the next match (a block of the engine moved or was made). */
  addressesChanged(): void {
    this.addressEpoch = -1;
  }

  /** Gives every block back to the heap (the table, each slot's blob and automaton). Once, by HostEngine.close. */
  close(): void {
    const heap = this.frame.heap;
    for (let slot = 0; slot < this.count; slot++) {
      if (this.blobBlocks[slot] >= 0) heap.free(this.blobBlocks[slot]);
      if (this.automatonBlocks[slot] >= 0) heap.free(this.automatonBlocks[slot]);
    }
    this.blobBlocks.fill(-1);
    this.automatonBlocks.fill(-1);
    if (this.block >= 0) heap.free(this.block);
    this.block = -1;
    this.count = 0;
    this.freeSlots.length = 0;
  }
}
