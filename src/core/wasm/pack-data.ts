// A pack's data area held whole in the many-host engine's heap (one block, read once when the matcher opens):
// its compiled rule sets are then answered where they lie, a slot per origin pointing into it (HostSlots
// PACKED), with no read and no copy per host. One per engine; the policy of when a pack is held whole is
// src/node/hosts/hosts.ts's (it must fit half of the matcher's budget).
import type { CoreFrame } from './frame.js';

/** What a source gives whole: its bytes' length, and how to write them into a block of that length (it may throw: a damaged pack). */
export interface WholeData {
  readonly length: number;
  fill(target: Uint8Array): void;
}

/** The data held whole by one engine (none, or one source's). */
export class PackData {
  private block = -1;
  private held: WholeData | null = null;

  constructor(private readonly frame: CoreFrame) {}

  /** Whether these are the data held now. Per origin answered in place. */
  holds(data: WholeData): boolean {
    return this.held === data;
  }

  /** Whether some data are held. */
  get holding(): boolean {
    return this.held !== null;
  }

  /** Reads data into a block of their own (the caller gave up any held before); when fill throws, nothing is held. Once per matcher. */
  hold(data: WholeData): void {
    const block = this.frame.heap.allocate(Math.max(1, data.length));
    const address = this.frame.heap.address(block);
    try {
      data.fill(this.frame.memoryBytes().subarray(address, address + data.length));
    } catch (error) {
      this.frame.heap.free(block);
      throw error;
    }
    this.block = block;
    this.held = data;
  }

  /** The held data's address (valid until the next heap allocation). */
  get address(): number {
    return this.frame.heap.address(this.block);
  }

  /** Heap bytes of the block (0: none held). */
  get heapBytes(): number {
    return this.block >= 0 ? this.frame.heap.size(this.block) : 0;
  }

  /** Gives the block back (slots that point into it must have been emptied first). */
  close(): void {
    if (this.block >= 0) this.frame.heap.free(this.block);
    this.block = -1;
    this.held = null;
  }
}
