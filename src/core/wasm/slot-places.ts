// Where the rules of each slot of the many-host engine lie (HostSlots's slots): a heap block of its own (a
// compiled blob, or a raw body), the landing block for one round (TRANSIENT, at an offset), the pack data held
// whole (PACKED, at an offset, its length known), or nowhere (-1: an empty slot). Per slot a few numbers in
// typed arrays, no object.
import type { CoreFrame } from './frame.js';
import type { LandingBlock } from './landing.js';

/** A slot's place when its body or rule set lies in the landing block (see RawSlots.transientSlot). */
export const TRANSIENT = -2;
/** A slot's place when its compiled rule set lies in the pack data held whole (see PackData). */
export const PACKED = -3;

/** The places of one engine's slots. */
export class SlotPlaces {
  private blocks: Int32Array;
  /** Per slot: its body's offset in the landing block (TRANSIENT), its rule set's in the pack data (PACKED). */
  private offsets: Int32Array;
  /** Per PACKED slot: its rule set's length. */
  private lengths: Int32Array;

  /** packAddress: where the pack data held whole lies now (PackData's). */
  constructor(capacity: number, private readonly frame: CoreFrame, private readonly landing: LandingBlock, private readonly packAddress: () => number) {
    this.blocks = new Int32Array(capacity).fill(-1);
    this.offsets = new Int32Array(capacity);
    this.lengths = new Int32Array(capacity);
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
  }

  /** A slot's place: a heap block, or TRANSIENT or PACKED at `offset` (PACKED: `length` bytes), or -1. */
  set(slot: number, block: number, offset = 0, length = 0): void {
    this.blocks[slot] = block;
    this.offsets[slot] = offset;
    this.lengths[slot] = length;
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

  /** Empties a slot's place (its own block back to the heap). */
  free(slot: number): void {
    if (this.blocks[slot] >= 0) this.frame.heap.free(this.blocks[slot]);
    this.blocks[slot] = -1;
  }
}
