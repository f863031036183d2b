// The matcher heap: blocks of WebAssembly linear memory that outlive a call (compiled matchers, automaton
// regions, the many-host tables). Everything stored in a block is addressed by offsets from the block's
// start, so a block may move: owners keep block ids and read addresses at the start of every call (epoch
// tells when something moved).
//
// Allocation: sizes are rounded up to one of 8 classes per power of two (at most 12.5% more); a freed block
// goes on its class's free list and the next block of that class reuses it as it is. New memory comes
// from the top. Only when the top would pass the soft limit (the owners' budgets, see reserveBudget) are the
// live blocks slid down over all the free ones (compaction), so a cache that evicts and refills hosts of
// the usual mix of sizes reuses its memory without copying it, and the heap stays near its owners' budgets.
import { RobotsError } from '../errors.js';

/** Blocks start at multiples of this (vector loads, u64 fields). */
export const BLOCK_ALIGN = 16;
/** WebAssembly (wasm32) addresses are 32-bit: the heap and everything after it must stay below this. */
export const ADDRESS_LIMIT = 0xffff0000;
const CLASSES_PER_DOUBLING = 8;

/** The size class of a block of `bytes` bytes: the smallest class size >= bytes. */
export function sizeClass(bytes: number): { index: number; size: number } {
  const size = Math.max(BLOCK_ALIGN, Math.ceil(bytes / BLOCK_ALIGN) * BLOCK_ALIGN);
  if (size <= BLOCK_ALIGN * CLASSES_PER_DOUBLING) return { index: size / BLOCK_ALIGN - 1, size };
  const power = 31 - Math.clz32(size - 1); // 2^power < size <= 2^(power + 1)
  const step = 2 ** power / CLASSES_PER_DOUBLING;
  const sub = Math.ceil((size - 2 ** power) / step); // 1 .. CLASSES_PER_DOUBLING
  const classSize = 2 ** power + sub * step;
  return { index: CLASSES_PER_DOUBLING + (power - 7) * CLASSES_PER_DOUBLING + sub - 1, size: classSize };
}

/** What the heap needs from the instance: its bytes (re-read after growth) and a way to grow them. */
export interface HeapMemory {
  bytes(): Uint8Array;
  /** Makes [0, endAddress) addressable (grows linear memory). */
  reserve(endAddress: number): void;
}

export class MatcherHeap {
  /** First address of the heap (moves only when the region below it grows: see relocate). */
  base: number;
  /** Bytes of the heap: the transient work area starts at base + capacity. */
  capacity = 0;
  /** Bytes used from base (live blocks and free ones). */
  private top = 0;
  /** Bytes in free blocks. */
  private freeBytes = 0;
  /** The top grows past this only when compaction cannot make room (see reserveBudget). */
  private softLimit = 0;
  /** Changes whenever a block moves: owners then re-read addresses. */
  epoch = 0;
  /** Compactions so far (statistics). */
  compactions = 0;
  private offsets = new Uint32Array(64);
  private sizes = new Uint32Array(64);
  private alive = new Uint8Array(64);
  private order: number[] = [];
  private readonly freeLists: number[][] = [];
  private freeIds: number[] = [];
  private nextId = 0;

  constructor(private readonly memory: HeapMemory, base: number) {
    this.base = base;
  }

  /** Bytes held by live blocks. */
  get liveBytes(): number {
    return this.top - this.freeBytes;
  }

  /** An owner that keeps itself within `bytes` (a cache budget): the heap compacts rather than grow past the sum, plus 1/8. */
  reserveBudget(bytes: number): void {
    this.softLimit += bytes + (bytes >> 3);
  }

  /** An owner gives its budget back. */
  releaseBudget(bytes: number): void {
    this.softLimit = Math.max(0, this.softLimit - bytes - (bytes >> 3));
  }

  /** A new block of at least `bytes` bytes (contents undefined); returns its id. May move other blocks. */
  allocate(bytes: number): number {
    const { index, size } = sizeClass(bytes);
    const reused = this.freeLists[index]?.pop();
    if (reused !== undefined) {
      this.alive[reused] = 1;
      this.freeBytes -= size;
      return reused;
    }
    if (this.top + size > this.capacity) this.makeRoom(size);
    const id = this.freeIds.pop() ?? this.newId();
    this.offsets[id] = this.top;
    this.sizes[id] = size;
    this.alive[id] = 1;
    this.order.push(id);
    this.top += size;
    return id;
  }

  /** Gives a block back: the next block of its size class reuses it. */
  free(id: number): void {
    if (this.alive[id] !== 1) throw new RobotsError('INVALID_ARGUMENT', `heap block ${id} is not allocated`);
    this.alive[id] = 0;
    this.freeBytes += this.sizes[id];
    (this.freeLists[sizeClass(this.sizes[id]).index] ??= []).push(id);
  }

  /** The block's current address (valid until the next allocate or relocate). */
  address(id: number): number {
    return this.base + this.offsets[id];
  }

  /** The block's size in bytes (its size class). */
  size(id: number): number {
    return this.sizes[id];
  }

  /** Moves the whole heap to newBase (the region below it grew); owners see a new epoch. */
  relocate(newBase: number): void {
    if (newBase === this.base) return;
    this.memory.reserve(newBase + this.capacity);
    this.memory.bytes().copyWithin(newBase, this.base, this.base + this.top);
    this.base = newBase;
    this.epoch++;
  }

  private newId(): number {
    const id = this.nextId++;
    if (id >= this.offsets.length) {
      const grow = <T extends Uint32Array | Uint8Array>(old: T, make: (n: number) => T): T => {
        const next = make(old.length * 2);
        next.set(old);
        return next;
      };
      this.offsets = grow(this.offsets, (n) => new Uint32Array(n));
      this.sizes = grow(this.sizes, (n) => new Uint32Array(n));
      this.alive = grow(this.alive, (n) => new Uint8Array(n));
    }
    return id;
  }

  private makeRoom(size: number): void {
    if (this.freeBytes > 0 && this.top + size > this.softLimit) this.compact();
    if (this.top + size <= this.capacity) return;
    const wanted = Math.ceil(Math.max(this.top + size, this.capacity * 1.125) / BLOCK_ALIGN) * BLOCK_ALIGN;
    if (this.base + this.top + size > ADDRESS_LIMIT) {
      throw new RobotsError('INPUT_TOO_LARGE', `the WebAssembly heap cannot hold ${size} more bytes (32-bit address space)`);
    }
    this.capacity = Math.max(this.capacity, Math.min(wanted, ADDRESS_LIMIT - this.base));
    this.memory.reserve(this.base + this.capacity);
  }

  /** Slides live blocks down over the free ones, in address order; the free lists are emptied. */
  private compact(): void {
    const bytes = this.memory.bytes();
    let cursor = 0;
    const live: number[] = [];
    for (const id of this.order) {
      if (this.alive[id] !== 1) {
        this.freeIds.push(id);
        continue;
      }
      const offset = this.offsets[id];
      if (offset !== cursor) bytes.copyWithin(this.base + cursor, this.base + offset, this.base + offset + this.sizes[id]);
      this.offsets[id] = cursor;
      cursor += this.sizes[id];
      live.push(id);
    }
    this.order = live;
    this.top = cursor;
    this.freeBytes = 0;
    for (const list of this.freeLists) if (list !== undefined) list.length = 0;
    this.epoch++;
    this.compactions++;
  }
}
