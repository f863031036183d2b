// The many-host engine's slot table: one record per matcher a host is answered by (SLOT_* of
// src/core/constants.ts, read by assembly/hosts.ts), and per slot the heap blocks it holds: its compiled
// blob (or a raw body, src/core/wasm/raw-slots.ts), and its automaton region. Slots are reused (a free list);
// a slot emptied gets a new generation, so host entries that named it go stale. The scan stamp pins the slots
// a chunk uses (the policy never evicts those while the chunk runs).
import {
  SLOT_AUTOMATON_PTR, SLOT_AUTOMATON_BYTES, SLOT_GENERATION, SLOT_LINES, SLOT_PIN_STAMP, SLOT_FLAGS, SLOT_SIZE, SLOT_FLAG_RAW,
  AUTOMATON_HEADER_SIZE, AUTOMATON_OVERFLOWS,
} from '../constants.js';
import type { CoreFrame } from './frame.js';
import type { LandingBlock } from './landing.js';
import { SlotPlaces, TRANSIENT, PACKED } from './slot-places.js';

const FIRST_SLOT_CAPACITY = 64;
export { TRANSIENT, PACKED };

/** The slot table of one engine. */
export class HostSlots {
  private readonly frame: CoreFrame;
  private block: number;
  private capacity = FIRST_SLOT_CAPACITY;
  private count = 0;
  private readonly freeSlots: number[] = [];
  /** Where each slot's blob or body lies. */
  private readonly places: SlotPlaces;
  private stamp = 0;

  /** packAddress: where the pack data held lies now (PackData's). */
  constructor(frame: CoreFrame, landing: LandingBlock, packAddress: () => number) {
    this.frame = frame;
    this.places = new SlotPlaces(FIRST_SLOT_CAPACITY, frame, landing, packAddress);
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
    this.places.grow(capacity);
    this.capacity = capacity;
  }

  /** A fresh record for a slot holding `block` (or TRANSIENT, PACKED at `offset`, see SlotPlaces): generation kept (entries that named it before stay stale), pinned by this scan. */
  fillSlot(slot: number, block: number, flags: number, offset = 0, length = 0): void {
    this.places.set(slot, block, offset, length);
    this.places.setAutomaton(slot, -1);
    this.freshRecord(this.frame.memoryWords(), this.address, slot, flags);
  }

  /** Zeroes a slot's record in the table at `table` but its generation (entries that named it stay stale), pins it by this scan and sets its flags. */
  private freshRecord(words: Uint32Array, table: number, slot: number, flags: number): void {
    const record = (table + slot * SLOT_SIZE) >>> 2;
    const generation = words[record + (SLOT_GENERATION >>> 2)];
    words.fill(0, record, record + (SLOT_SIZE >>> 2));
    words[record + (SLOT_GENERATION >>> 2)] = generation;
    words[record + (SLOT_PIN_STAMP >>> 2)] = this.stamp;
    words[record + (SLOT_FLAGS >>> 2)] = flags;
  }

  /** Fills a slot whose raw body (flags SLOT_FLAG_RAW) or compiled rule set (0) lies at `offset` in the landing block. */
  fillTransient(slot: number, offset: number, flags: number): void {
    this.fillSlot(slot, TRANSIENT, flags, offset);
  }

  /**
   * New slots, made at once, for compiled rule sets that lie in the pack data held: rule set i at
   * offsets[i], lengths[i] bytes long (a length of -1: none made for it). Returns each one's slot (-1: none).
   */
  newPackedSlots(offsets: Int32Array, lengths: Int32Array, flags: number): Int32Array {
    // the table's addresses brought up to date first; then the records in one pass once the table has grown
    // (a pack holds thousands: fillSlot's per-slot work and a rewrite of every address, run cold, cost 5-6 ms
    // for 15,568), their addresses written with them
    this.refreshAddresses();
    const made = new Int32Array(lengths.length).fill(-1);
    for (let i = 0; i < lengths.length; i++) if (lengths[i] >= 0) made[i] = this.newSlot();
    const words = this.frame.memoryWords();
    const table = this.address;
    for (const slot of made) if (slot >= 0) this.freshRecord(words, table, slot, flags);
    this.places.placePacked(made, offsets, lengths, table);
    return made;
  }

  /** The heap block of a slot's blob or raw body (TRANSIENT: in the landing block; PACKED: in the pack data; -1: empty). */
  blockOf(slot: number): number {
    return this.places.blockOf(slot);
  }

  /** Puts a new blob block in place of a slot's raw body (its generation, lines and pin stay; its raw flag goes). */
  replaceBlock(slot: number, block: number): void {
    this.places.set(slot, block);
    this.setWord(slot, SLOT_FLAGS, this.word(slot, SLOT_FLAGS) & ~SLOT_FLAG_RAW);
  }

  /** Empties a slot: its blocks go back to the heap, and host entries that named it no longer count. */
  freeSlot(slot: number): void {
    this.places.free(slot);
    this.setWord(slot, SLOT_GENERATION, (this.word(slot, SLOT_GENERATION) + 1) >>> 0);
    this.setWord(slot, SLOT_AUTOMATON_PTR, 0);
    this.setWord(slot, SLOT_FLAGS, 0);
    this.freeSlots.push(slot);
  }

  /** Whether a slot holds a compiled matcher or a body (transient and packed slots included). */
  isFilled(slot: number): boolean {
    return this.places.isFilled(slot);
  }

  /** Heap bytes a slot holds (blob and automaton region; a transient or packed slot no blob: the landing block and the pack data are the engine's own). */
  slotBytes(slot: number): number {
    const automaton = this.places.automatonOf(slot);
    return this.places.heapBytes(slot) + (automaton >= 0 ? this.frame.heap.size(automaton) : 0);
  }

  /** Blob length of a slot (for sizing its automaton). */
  blobBytes(slot: number): number {
    return this.places.blobBytes(slot);
  }

  /** Automaton region bytes of a slot (0: none). */
  automatonBytes(slot: number): number {
    return this.places.automatonOf(slot) >= 0 ? this.word(slot, SLOT_AUTOMATON_BYTES) : 0;
  }

  /** Lines the slot has matched since it was filled. */
  slotLines(slot: number): number {
    return this.word(slot, SLOT_LINES);
  }

  /** Whether the slot's automaton region filled up since it was made (it is then worth a larger one). */
  automatonOverflowed(slot: number): boolean {
    const block = this.places.automatonOf(slot);
    return block >= 0 && this.frame.memoryWords()[(this.frame.heap.address(block) + AUTOMATON_OVERFLOWS) >>> 2] > 0;
  }

  /** Gives a slot a fresh automaton region of `bytes` (replacing its old one). */
  giveAutomaton(slot: number, bytes: number): void {
    this.places.setAutomaton(slot, -1);
    const block = this.frame.heap.allocate(bytes);
    this.places.setAutomaton(slot, block);
    this.zero(this.frame.heap.address(block), AUTOMATON_HEADER_SIZE);
    this.setWord(slot, SLOT_AUTOMATON_BYTES, bytes);
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
    return this.places.address(slot);
  }

  /** Rewrites the table's addresses of the slots whose places changed, or of every slot when blocks moved. Before each match. */
  refreshAddresses(): void {
    this.places.writeAddresses(this.address, this.count);
  }

  /** Gives every block back to the heap (the table, each slot's blob and automaton). Once, by HostEngine.close. */
  close(): void {
    const heap = this.frame.heap;
    for (let slot = 0; slot < this.count; slot++) this.places.free(slot);
    if (this.block >= 0) heap.free(this.block);
    this.block = -1;
    this.count = 0;
    this.freeSlots.length = 0;
  }
}
