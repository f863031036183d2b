// The matcher heap: blocks of WebAssembly linear memory that outlive a call (compiled matchers, automaton
// regions, the many-host tables). Everything stored in a block is addressed by offsets from the block's
// start, so a block may move: owners keep block ids and read addresses at the start of every call (epoch
// tells when something moved).
//
// Allocation (segregated fits): sizes are rounded up to one of 8 classes per power of two (at most 12.5%
// more). A free block is filed under the largest class it can serve; an allocation takes the first free
// block at or above its class, and what it does not need (256 bytes or more) becomes a free block of its
// own. New memory comes from the top. Only when the top would pass the soft limit (the owners' budgets,
// see reserveBudget) are the live blocks slid down over all the free ones (compaction, which also merges
// them), so a cache that evicts and refills hosts reuses its memory without copying it.
import { RobotsError } from '../errors.js';

/** Blocks start at multiples of this (vector loads, u64 fields). */
export const BLOCK_ALIGN = 16;
/** WebAssembly (wasm32) addresses are 32-bit: the heap and everything after it must stay below this. */
export const ADDRESS_LIMIT = 0xffff0000;
const CLASSES_PER_DOUBLING = 8;
/** A free block's leftover smaller than this stays with the allocation instead of becoming a block. */
const MIN_SPLIT_BYTES = 256;

/** Memory kept after the heap's capacity when it grows, for the work area (see makeRoom). The core starts with 3 MiB (asconfig.json initialMemory: 48 pages), so that its first blocks and this room need no growth. */
const WORK_AREA_ROOM = 2 << 20;

/** Room for free blocks a budget of `bytes` is given before the heap compacts (see reserveBudget). */
const budgetSlack = (bytes: number): number => Math.min(Math.floor(bytes / 32), 16 << 20);

/** The index of the smallest size class whose size is >= bytes (bytes >= 1). */
export function sizeClassIndex(bytes: number): number {
  const size = Math.max(BLOCK_ALIGN, Math.ceil(bytes / BLOCK_ALIGN) * BLOCK_ALIGN);
  if (size <= BLOCK_ALIGN * CLASSES_PER_DOUBLING) return size / BLOCK_ALIGN - 1;
  const power = 31 - Math.clz32(size - 1); // 2^power < size <= 2^(power + 1)
  const step = 2 ** (power - 3); // 2^power / CLASSES_PER_DOUBLING
  const sub = Math.ceil((size - 2 ** power) / step); // 1 .. CLASSES_PER_DOUBLING
  return CLASSES_PER_DOUBLING + (power - 7) * CLASSES_PER_DOUBLING + sub - 1;
}

/** The size of class `index` (sizeClassIndex's inverse). */
export function sizeOfClass(index: number): number {
  if (index < CLASSES_PER_DOUBLING) return (index + 1) * BLOCK_ALIGN;
  const power = 7 + Math.floor((index - CLASSES_PER_DOUBLING) / CLASSES_PER_DOUBLING);
  const sub = ((index - CLASSES_PER_DOUBLING) % CLASSES_PER_DOUBLING) + 1;
  return 2 ** power + sub * 2 ** (power - 3);
}

/** The largest class whose size is <= bytes (bytes >= BLOCK_ALIGN, a multiple of it): where a free block is filed. */
function floorClass(bytes: number): number {
  const index = sizeClassIndex(bytes);
  return sizeOfClass(index) === bytes ? index : index - 1;
}

/** What the heap needs from the instance: a way to grow its memory and to move bytes inside it. */
export interface HeapMemory {
  /** Makes [0, endAddress) addressable (grows linear memory). */
  reserve(endAddress: number): void;
  /** memmove of [start, end) to target. */
  copy(target: number, start: number, end: number): void;
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
  /** While above 0, no block moves (see keepingBlocks): the heap grows instead of compacting. */
  private holds = 0;
  /** Compactions so far (statistics). */
  compactions = 0;
  private offsets = new Uint32Array(64);
  private sizes = new Uint32Array(64);
  /** 1: allocated, 2: free (in a free list), 0: no block (its id is unused). */
  private states = new Uint8Array(64);
  private readonly freeLists: number[][] = [];
  /** Ids of blocks that no longer exist (merged by compaction). */
  private spareIds: number[] = [];
  private nextId = 0;

  constructor(private readonly memory: HeapMemory, base: number) {
    this.base = base;
  }

  /** Bytes held by live blocks. */
  get liveBytes(): number {
    return this.top - this.freeBytes;
  }

  /**
   * An owner that keeps itself within `bytes` (a cache budget): the heap compacts rather than grow past the
   * sum, plus room for free blocks between them (1/32, at most 16 MiB: a 3 GiB cache stays within 16 MiB
   * of its budget, not 96).
   */
  reserveBudget(bytes: number): void {
    this.softLimit += bytes + budgetSlack(bytes);
  }

  /** An owner gives its budget back. */
  releaseBudget(bytes: number): void {
    this.softLimit = Math.max(0, this.softLimit - bytes - budgetSlack(bytes));
  }

  /** A new block of at least `bytes` bytes (contents undefined); returns its id. May move other blocks. */
  allocate(bytes: number): number {
    const index = sizeClassIndex(bytes);
    const size = sizeOfClass(index);
    const reused = this.takeFree(index, size);
    if (reused >= 0) return reused;
    // past the budgets (when there are some) the heap compacts, even while its capacity, grown by an eighth
    // at a time, would have room: free blocks between live ones are taken back before the top moves on
    if (this.top + size > this.capacity || (this.holds === 0 && this.softLimit > 0 && this.top + size > this.softLimit && this.freeBytes > 0)) this.makeRoom(size);
    const id = this.newBlock(this.top, size, 1);
    this.top += size;
    return id;
  }

  /** Gives a block back: a later allocation of its size or less reuses it. */
  free(id: number): void {
    if (this.states[id] !== 1) throw new RobotsError('INVALID_ARGUMENT', `heap block ${id} is not allocated`);
    this.fileFree(id);
  }

  /** The block's current address (valid until the next allocate or relocate). */
  address(id: number): number {
    return this.base + this.offsets[id];
  }

  /** The block's size in bytes (at least what was asked for: a size class, or a whole free block). */
  size(id: number): number {
    return this.sizes[id];
  }

  /** Moves the whole heap to newBase (the region below it grew); owners see a new epoch. */
  relocate(newBase: number): void {
    if (newBase === this.base) return;
    this.memory.reserve(newBase + this.capacity);
    this.memory.copy(newBase, this.base, this.base + this.top);
    this.base = newBase;
    this.epoch++;
  }

  private fileFree(id: number): void {
    this.states[id] = 2;
    this.freeBytes += this.sizes[id];
    (this.freeLists[floorClass(this.sizes[id])] ??= []).push(id);
  }

  /** The first free block of class `index` or above, cut to `size` (the rest filed as a free block); -1 if none. */
  private takeFree(index: number, size: number): number {
    for (let list = index; list < this.freeLists.length; list++) {
      const candidates = this.freeLists[list];
      if (candidates === undefined || candidates.length === 0) continue;
      const id = candidates.pop() as number;
      this.states[id] = 1;
      this.freeBytes -= this.sizes[id];
      const rest = this.sizes[id] - size;
      if (rest >= MIN_SPLIT_BYTES) {
        this.sizes[id] = size;
        this.fileFree(this.newBlock(this.offsets[id] + size, rest, 2));
      }
      return id;
    }
    return -1;
  }

  private newBlock(offset: number, size: number, state: number): number {
    const id = this.spareIds.pop() ?? this.newId();
    this.offsets[id] = offset;
    this.sizes[id] = size;
    this.states[id] = state;
    return id;
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
      this.states = grow(this.states, (n) => new Uint8Array(n));
    }
    return id;
  }

  /**
   * Runs `work` with every block where it is: allocations grow the heap rather than compact it. For work
   * that leaves absolute addresses of blocks in memory across allocations (explained verdicts name their
   * rules by address until they are formatted). Per explained batch.
   */
  keepingBlocks<T>(work: () => T): T {
    this.holds++;
    try {
      return work();
    } finally {
      this.holds--;
    }
  }

  private makeRoom(size: number): void {
    if (this.holds === 0 && this.freeBytes > 0 && this.top + size > this.softLimit) this.compact();
    if (this.top + size <= this.capacity) return;
    // an eighth past what is needed (a large block, a pack's rules held, leaves room for the blocks after it)
    const wanted = Math.ceil(Math.max((this.top + size) * 1.125, this.capacity * 1.125) / BLOCK_ALIGN) * BLOCK_ALIGN;
    if (this.base + this.top + size > ADDRESS_LIMIT) {
      throw new RobotsError('INPUT_TOO_LARGE', `the WebAssembly heap cannot hold ${size} more bytes (32-bit address space)`);
    }
    this.capacity = Math.max(this.capacity, Math.min(wanted, ADDRESS_LIMIT - this.base));
    // with room after it for the work area of a call (a round's records, a match's scratch): without it,
    // the first round after a large block (a pack's rules held) grew memory again, and the collector counts
    // each growth (a growth and a collection, 2-5 ms measured)
    this.memory.reserve(Math.min(this.base + this.capacity + WORK_AREA_ROOM, ADDRESS_LIMIT));
  }

  /** Slides live blocks down over the free ones, in address order; free blocks cease to exist. */
  private compact(): void {
    const live: number[] = [];
    for (let id = 0; id < this.nextId; id++) {
      if (this.states[id] === 1) live.push(id);
      else if (this.states[id] === 2) {
        this.states[id] = 0;
        this.spareIds.push(id);
      }
    }
    live.sort((a, b) => this.offsets[a] - this.offsets[b]);
    let cursor = 0;
    for (const id of live) {
      const offset = this.offsets[id];
      if (offset !== cursor) this.memory.copy(this.base + cursor, this.base + offset, this.base + offset + this.sizes[id]);
      this.offsets[id] = cursor;
      cursor += this.sizes[id];
    }
    this.top = cursor;
    this.freeBytes = 0;
    for (const list of this.freeLists) if (list !== undefined) list.length = 0;
    this.epoch++;
    this.compactions++;
  }
}
