// Slots filled with compiled rules: a body compiled by the core in the work area and copied into a block of
// its own, or a pack's blob (compiled already) read straight into its block. The slot table is HostSlots's.
import type { WasmCore } from './core.js';
import type { CoreFrame } from './frame.js';
import type { HostSlots } from './host-slots.js';

/** Fills slots of one engine with compiled rules. */
export class CompiledSlots {
  private readonly frame: CoreFrame;

  constructor(private readonly core: WasmCore, private readonly slots: HostSlots) {
    this.frame = core.frame;
  }

  /**
   * Compiles a robots.txt body (already cut to its size limit) for an agent query into a new slot and
   * returns it. flags: SLOT_FLAG_* for the slot.
   */
  compileSlot(body: Uint8Array, agents: Uint8Array, rfc: boolean, flags = 0): number {
    // the slot first: a new slot may grow the slot table, and nothing but the blob's own block may be
    // allocated while the blob lies in the work area
    const slot = this.slots.newSlot();
    const { address, length } = this.core.bodies.compileInWorkArea(body, agents, rfc);
    const block = this.frame.heap.allocate(length);
    // the blob lies in the work area, which starts after the heap: this allocation may have grown the heap
    // over it (its new block may overlap it), so copy from where it was, with memmove semantics
    this.frame.copyWithin(this.frame.heap.address(block), address, address + length);
    this.slots.fillSlot(slot, block, flags);
    return slot;
  }

  /**
   * A slot for rules compiled already (a pack's blob, compiled for the engine's agent query and mode by
   * src/core/pack/compile.ts): `fill` writes their `length` bytes straight into a heap block (a file read into
   * it; it must not call the engine; when it throws, the slot and block are given back). Returns the slot.
   */
  blobSlot(length: number, fill: (target: Uint8Array) => void): number {
    const slot = this.slots.newSlot();
    const block = this.frame.heap.allocate(Math.max(1, length));
    const address = this.frame.heap.address(block);
    try {
      fill(this.frame.memoryBytes().subarray(address, address + length));
    } catch (error) {
      this.frame.heap.free(block);
      this.slots.returnSlot(slot);
      throw error;
    }
    this.slots.fillSlot(slot, block, 0);
    return slot;
  }
}
