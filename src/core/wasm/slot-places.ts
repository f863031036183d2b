// Where the rules of each slot of the many-host engine lie (HostSlots's slots): a heap block of its own (a
// compiled blob, or a raw body), the landing block for one round (TRANSIENT, at an offset), the pack data held
// whole (PACKED, at an offset, its length known), or nowhere (-1: an empty slot); and its automaton region's
// block. Per slot a few numbers in typed arrays, no object. The slot table's copy of their addresses is
// rewritten for the slots changed since the last match, or for all of them when blocks moved.
import { SLOT_BLOB_PTR, SLOT_AUTOMATON_PTR, SLOT_SIZE } from '../constants.js';
import type { CoreFrame } from './frame.js';
import type { LandingBlock } from './landing.js';

/** A slot's place when its body or rule set lies in the landing block (see RawSlots.transientSlot). */
export const TRANSIENT = -2;
/** A slot's place when its compiled rule set lies in the pack data held (see PackData). */
export const PACKED = -3;

/** The places of one engine's slots. */
export class SlotPlaces {
  private blocks: Int32Array;
  /** Per slot: its body's offset in the landing block (TRANSIENT), its rule set's in the pack data (PACKED). */
  private offsets: Int32Array;
  /** Per PACKED slot: its rule set's length. */
  private lengths: Int32Array;
  /** Per slot: its automaton region's heap block (-1: none). */
  private automata: Int32Array;
  /** The heap epoch the table's addresses were written for, and the slots changed since (null: every slot). */
  private addressEpoch = -1;
  private changedSlots: number[] | null = null;

  /** packAddress: where the pack data held lies now (PackData's). */
  constructor(capacity: number, private readonly frame: CoreFrame, private readonly landing: LandingBlock, private readonly packAddress: () => number) {
    this.blocks = new Int32Array(capacity).fill(-1);
    this.offsets = new Int32Array(capacity);
    this.lengths = new Int32Array(capacity);
    this.automata = new Int32Array(capacity).fill(-1);
  }

  /** Room for `capacity` slots (the table grew). */
  grow(capacity: number): void {
    const grown = (old: Int32Array): Int32Array => {
      const next = new Int32Array(capacity).fill(-1);
      next.set(old);
      return next;
    };
    this.blocks = grown(this.blocks);
    this.offsets = grown(this.offsets);
    this.lengths = grown(this.lengths);
    this.automata = grown(this.automata);
  }

  /** A slot's place: a heap block, or TRANSIENT or PACKED at `offset` (PACKED: `length` bytes), or -1; its addresses rewritten before the next match. */
  set(slot: number, block: number, offset = 0, length = 0): void {
    this.blocks[slot] = block;
    this.offsets[slot] = offset;
    this.lengths[slot] = length;
    this.changed(slot);
  }

  /** The heap block of a slot's blob or raw body (TRANSIENT, PACKED, or -1: empty). */
  blockOf(slot: number): number {
    return this.blocks[slot];
  }

  /** Whether a slot holds a compiled matcher or a body (transient and packed slots included). */
  isFilled(slot: number): boolean {
    return this.blocks[slot] >= 0 || this.blocks[slot] === TRANSIENT || this.blocks[slot] === PACKED;
  }

  /** Heap bytes of a slot's own block (a transient or packed slot has none: the landing block and the pack data are the engine's). */
  heapBytes(slot: number): number {
    const block = this.blocks[slot];
    return block < 0 ? 0 : this.frame.heap.size(block);
  }

  /** Blob length of a slot (for sizing its automaton; a transient slot's is not known: 0). */
  blobBytes(slot: number): number {
    const block = this.blocks[slot];
    return block === TRANSIENT ? 0 : block === PACKED ? this.lengths[slot] : this.frame.heap.size(block);
  }

  /** The address of a slot's blob or raw body (valid until the next heap allocation). */
  address(slot: number): number {
    const block = this.blocks[slot];
    if (block === TRANSIENT) return this.landing.address + this.offsets[slot];
    return block === PACKED ? this.packAddress() + this.offsets[slot] : this.frame.heap.address(block);
  }

  /**
   * Places slots[i] (-1: none) at offsets[i] in the pack data held, lengths[i] bytes, and writes their
   * addresses into the table at `table` now (fresh slots: no automaton). Once per pack held; linear in the slots.
   */
  placePacked(slots: Int32Array, offsets: Int32Array, lengths: Int32Array, table: number): void {
    const words = this.frame.memoryWords();
    const pack = this.packAddress();
    for (let i = 0; i < slots.length; i++) {
      const slot = slots[i];
      if (slot < 0) continue;
      // (new or freed slots: no automaton; their addresses written here, not listed as changed)
      this.blocks[slot] = PACKED;
      this.offsets[slot] = offsets[i];
      this.lengths[slot] = lengths[i];
      words[(table + slot * SLOT_SIZE + SLOT_BLOB_PTR) >>> 2] = pack + offsets[i];
      words[(table + slot * SLOT_SIZE + SLOT_AUTOMATON_PTR) >>> 2] = 0;
    }
  }

  /** A slot's automaton region block (-1: none). */
  automatonOf(slot: number): number {
    return this.automata[slot];
  }

  /** Gives a slot the automaton region `block` (-1: none), its old one back to the heap. */
  setAutomaton(slot: number, block: number): void {
    if (this.automata[slot] === block) return;
    if (this.automata[slot] >= 0) this.frame.heap.free(this.automata[slot]);
    this.automata[slot] = block;
    this.changed(slot);
  }

  /** Empties a slot's place (its own block and automaton back to the heap). */
  free(slot: number): void {
    if (this.blocks[slot] >= 0) this.frame.heap.free(this.blocks[slot]);
    this.set(slot, -1);
    this.setAutomaton(slot, -1);
  }

  /** A slot's addresses are to be rewritten (past an eighth of the slots and 16: every slot's). */
  private changed(slot: number): void {
    if (this.changedSlots === null) return;
    if (this.changedSlots.length >= (this.blocks.length >>> 3) + 16) this.changedSlots = null;
    else this.changedSlots.push(slot);
  }

  /**
   * Writes the blob and automaton addresses of the `count` slots of the table at `table` (SLOT_BLOB_PTR,
   * SLOT_AUTOMATON_PTR; 0: none): the changed slots', or every slot's when the heap's blocks moved since.
   * Before each match; linear in the slots written.
   */
  writeAddresses(table: number, count: number): void {
    const changed = this.addressEpoch === this.frame.heap.epoch ? this.changedSlots : null;
    if (changed !== null && changed.length === 0) return;
    const words = this.frame.memoryWords();
    const write = (slot: number): void => {
      const automaton = this.automata[slot];
      words[(table + slot * SLOT_SIZE + SLOT_BLOB_PTR) >>> 2] = this.isFilled(slot) ? this.address(slot) : 0;
      words[(table + slot * SLOT_SIZE + SLOT_AUTOMATON_PTR) >>> 2] = automaton >= 0 ? this.frame.heap.address(automaton) : 0;
    };
    if (changed === null) for (let slot = 0; slot < count; slot++) write(slot);
    else for (const slot of changed) write(slot);
    this.addressEpoch = this.frame.heap.epoch;
    this.changedSlots = [];
  }
}
