// The landing block of the many-host engine: one heap block that the raw bodies and the packs' compiled rule
// sets of hosts met once lie in for one round (transient slots, src/core/wasm/raw-slots.ts), laid one after
// another and given up together, so that hosts met once touch the same few pages instead of fresh memory
// each. Made on first use, reused round after round. A raw body's layout (RAW_BODY_*) is written here for
// kept raw slots too.
import { RAW_BODY_MAGIC, RAW_BODY_LENGTH, RAW_BODY_START, RAW_BODY_SLACK } from '../constants.js';
import { align } from './limits.js';
import type { CoreFrame } from './frame.js';

/** The landing block's size at most (a budget under 16 MiB gets a 16th of it, at least MIN_LANDING_BYTES): transient bodies fit it with their header and slack, and rule sets. */
const LANDING_BYTES = 1 << 20;
const MIN_LANDING_BYTES = 64 << 10;

/** Lays out a raw body at address: RAW_BODY_MAGIC, its length, the body, RAW_BODY_SLACK zero bytes. Per raw body kept. */
export function writeRawBody(frame: CoreFrame, address: number, body: Uint8Array): void {
  const bytes = frame.memoryBytes();
  const words = frame.memoryWords();
  words[address >>> 2] = RAW_BODY_MAGIC;
  words[(address + RAW_BODY_LENGTH) >>> 2] = body.length;
  bytes.set(body, address + RAW_BODY_START);
  bytes.fill(0, address + RAW_BODY_START + body.length, address + RAW_BODY_START + body.length + RAW_BODY_SLACK);
}

/** The landing block of one engine (RawSlots owns it). */
export class LandingBlock {
  private block = -1;
  /** Bytes in use (bodies laid one after another), and the block's size when next made. */
  private used = 0;
  private bytes = LANDING_BYTES;

  constructor(private readonly frame: CoreFrame) {}

  /** Bytes a raw body of this length takes in the block (header, body, slack; everything stays 16-byte aligned). */
  static rawBodyBytes(bodyLength: number): number {
    return align(RAW_BODY_START + bodyLength + RAW_BODY_SLACK, 16);
  }

  /** Sizes the block for a cache budget (a 16th of it, from 64 KiB to 1 MiB); an empty block of another size is given back now. */
  setBudget(budgetBytes: number): void {
    const bytes = Math.max(MIN_LANDING_BYTES, Math.min(LANDING_BYTES, Math.floor(budgetBytes / 16 / 16) * 16));
    if (bytes === this.bytes) return;
    this.bytes = bytes;
    if (this.block >= 0 && this.used === 0) {
      this.frame.heap.free(this.block);
      this.block = -1;
    }
  }

  /** Whether this many bytes (rawBodyBytes for a raw body, a rule set's length) fit an empty block at all. */
  fits(bytes: number): boolean {
    return align(bytes, 16) <= this.bytes;
  }

  /** Whether the block has room for this many bytes more this round. */
  hasRoom(bytes: number): boolean {
    return this.used + align(bytes, 16) <= this.bytes && (this.block < 0 || this.frame.heap.size(this.block) >= this.bytes);
  }

  /** Takes this many bytes after the others (the caller checked hasRoom); returns their offset in the block. */
  reserve(bytes: number): number {
    if (this.block < 0) this.block = this.frame.heap.allocate(this.bytes);
    const offset = this.used;
    this.used += align(bytes, 16);
    return offset;
  }

  /** Lays a raw body after the others (the caller checked hasRoom for rawBodyBytes); returns its offset in the block. */
  place(body: Uint8Array): number {
    const offset = this.reserve(LandingBlock.rawBodyBytes(body.length));
    writeRawBody(this.frame, this.frame.heap.address(this.block) + offset, body);
    return offset;
  }

  /** The block's address (valid until the next heap allocation). */
  get address(): number {
    return this.frame.heap.address(this.block);
  }

  /** Empties the block (its bodies are given up); a block made for a smaller budget goes back to the heap. */
  reset(): void {
    this.used = 0;
    if (this.block >= 0 && this.frame.heap.size(this.block) < this.bytes) {
      this.frame.heap.free(this.block);
      this.block = -1;
    }
  }

  /** Heap bytes the block takes. */
  get heapBytes(): number {
    return this.block >= 0 ? this.frame.heap.size(this.block) : 0;
  }

  close(): void {
    if (this.block >= 0) this.frame.heap.free(this.block);
    this.block = -1;
    this.used = 0;
  }
}
