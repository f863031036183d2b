// The resident-matcher cache of one instance: the compiled matchers of RobotsMatcher (library matchers) live
// in heap blocks, where they were moved the moment they were compiled, with an automaton region once bulk
// calls need one. At most RESIDENT_BYTES of them stay (least recently used out): a matcher evicted keeps its
// blob as bytes outside the core and is moved back in when it is used again. The one bound now is the core's
// current matcher (bindMatcher); the many-host engine (hosts-engine.ts) binds its own and says so.
import { AUTOMATON_HEADER_SIZE, AUTOMATON_OVERFLOWS } from '../constants.js';
import { automatonCapBytes, automatonFirstBytes, AUTOMATON_GROWTH } from './limits.js';
import type { CoreFrame } from './frame.js';

/** Library matchers kept resident in the heap (least recently used out; the one in use always stays). */
const RESIDENT_BYTES = 64 << 20;

/**
 * A compiled matcher (a blob) as its owner (a RobotsMatcher, a worker's cache) holds it: resident in a heap
 * block, or as bytes outside the core (given to a worker in shared memory, or taken out when it was evicted).
 */
export class CompiledRules {
  /** The blob's heap block while resident, else -1. */
  block = -1;
  /** Its automaton region's block (-1: none yet) and bytes. */
  automatonBlock = -1;
  automatonBytes = 0;
  /**
   * @param length the blob's length in bytes
   * @param bytes the blob outside the core: given (kept when it is made resident: a view of shared memory) or null
   */
  constructor(readonly length: number, public bytes: Uint8Array | null, readonly given: boolean) {}
}

/** The resident library matchers of one instance and the binding of the current one. Made once per core. */
export class ResidentMatchers {
  /** Resident matchers, least recently used first. */
  private readonly lru = new Set<CompiledRules>();
  private residentBytes = 0;
  private budgetReserved = false;
  /** The matcher bound now (null: none, or the many-host engine bound one), and the heap epoch then. */
  private bound: CompiledRules | null = null;
  private boundEpoch = -1;
  private boundAutomaton = false;

  constructor(private readonly frame: CoreFrame) {}

  /**
   * A blob just compiled in the work area at `address`, moved into a heap block of its own (memmove: the heap
   * may grow over the work area while the block is made). Called once per compile.
   */
  adopt(address: number, length: number): CompiledRules {
    const heap = this.frame.heap;
    if (!this.budgetReserved) {
      heap.reserveBudget(RESIDENT_BYTES);
      this.budgetReserved = true;
    }
    const rules = new CompiledRules(length, null, false);
    rules.block = heap.allocate(length);
    this.frame.copyWithin(heap.address(rules.block), address, address + length);
    this.residentBytes += heap.size(rules.block);
    this.lru.add(rules);
    this.evictOver(rules);
    return rules;
  }

  /** A blob given as bytes (a worker's view of the shared blob): made resident on first use. */
  given(bytes: Uint8Array): CompiledRules {
    return new CompiledRules(bytes.length, bytes, true);
  }

  /** The blob's bytes: a view of linear memory while resident (valid until the next call on this core), else its bytes. */
  view(rules: CompiledRules): Uint8Array {
    if (rules.block < 0) return rules.bytes as Uint8Array;
    const address = this.frame.heap.address(rules.block);
    return this.frame.memoryBytes().subarray(address, address + rules.length);
  }

  /** The heap address of a resident blob (after bind). */
  address(rules: CompiledRules): number {
    return this.frame.heap.address(rules.block);
  }

  /**
   * Binds a matcher for a call (made resident first, with an automaton region for bulk calls), unless it is
   * bound already; returns where the call's own data may start (the work area).
   */
  bind(rules: CompiledRules, automaton: boolean): number {
    const heap = this.frame.heap;
    if (rules === this.bound && this.boundEpoch === heap.epoch && (this.boundAutomaton || !automaton)) return this.frame.workPtr;
    if (rules.block < 0) {
      rules.block = heap.allocate(rules.length);
      this.frame.memoryBytes().set(rules.bytes as Uint8Array, heap.address(rules.block));
      if (!rules.given) rules.bytes = null;
      this.residentBytes += heap.size(rules.block);
    } else {
      this.lru.delete(rules); // most recently used last
    }
    this.lru.add(rules);
    if (automaton && rules.automatonBlock < 0) this.giveAutomaton(rules, automatonFirstBytes(rules.length));
    this.evictOver(rules);
    // addresses last: an allocation above may have moved blocks
    this.frame.exports.bindMatcher(heap.address(rules.block), rules.automatonBlock >= 0 ? heap.address(rules.automatonBlock) : 0, rules.automatonBytes);
    this.frame.refreshViews();
    this.bound = rules;
    this.boundEpoch = heap.epoch;
    this.boundAutomaton = rules.automatonBlock >= 0;
    return this.frame.workPtr;
  }

  /** Gives a resident matcher a fresh automaton region of `bytes` (its old one, if any, is freed). */
  giveAutomaton(rules: CompiledRules, bytes: number): void {
    const heap = this.frame.heap;
    if (rules.automatonBlock >= 0) {
      this.residentBytes -= heap.size(rules.automatonBlock);
      heap.free(rules.automatonBlock);
    }
    rules.automatonBytes = bytes;
    rules.automatonBlock = heap.allocate(bytes);
    const address = heap.address(rules.automatonBlock);
    this.frame.memoryBytes().fill(0, address, address + AUTOMATON_HEADER_SIZE);
    this.residentBytes += heap.size(rules.automatonBlock);
    if (this.bound === rules) this.bound = null;
  }

  /** After a bulk call that could not stop: a region that filled up is grown for the next call. */
  growIfOverflowed(rules: CompiledRules): void {
    if (rules.block < 0 || rules.automatonBlock < 0) return;
    const cap = automatonCapBytes(rules.length);
    if (rules.automatonBytes < cap && this.frame.memoryWords()[(this.frame.heap.address(rules.automatonBlock) + AUTOMATON_OVERFLOWS) >>> 2] > 0) {
      this.giveAutomaton(rules, Math.min(cap, rules.automatonBytes * AUTOMATON_GROWTH));
    }
  }

  /** Grows the region of a matcher whose bulk call stopped because it filled up (then the call goes on). */
  growAutomaton(rules: CompiledRules): void {
    this.giveAutomaton(rules, Math.min(automatonCapBytes(rules.length), rules.automatonBytes * AUTOMATON_GROWTH));
  }

  /** Whether a bound matcher's automaton region may still grow. */
  automatonCanGrow(rules: CompiledRules): boolean {
    return rules.automatonBytes < automatonCapBytes(rules.length);
  }

  /** Evicts least recently used matchers (never `keep`) while the resident ones take more than RESIDENT_BYTES. */
  private evictOver(keep: CompiledRules): void {
    for (const rules of this.lru) {
      if (this.residentBytes <= RESIDENT_BYTES) break;
      if (rules !== keep) this.evict(rules);
    }
  }

  /** Takes a matcher out of the heap, its blob kept as bytes (its automaton's states are made again when needed). */
  private evict(rules: CompiledRules): void {
    if (rules.bytes === null) rules.bytes = this.view(rules).slice();
    this.freeBlocks(rules);
  }

  private freeBlocks(rules: CompiledRules): void {
    const heap = this.frame.heap;
    this.lru.delete(rules);
    if (rules.block >= 0) {
      this.residentBytes -= heap.size(rules.block);
      heap.free(rules.block);
      rules.block = -1;
    }
    if (rules.automatonBlock >= 0) {
      this.residentBytes -= heap.size(rules.automatonBlock);
      heap.free(rules.automatonBlock);
      rules.automatonBlock = -1;
      rules.automatonBytes = 0;
    }
    if (this.bound === rules) this.bound = null;
  }

  /** Gives back every block of a matcher no one uses any more (closed, compiled again, or collected). */
  release(rules: CompiledRules): void {
    this.freeBlocks(rules);
    rules.bytes = null;
  }

  /** Takes every resident matcher out (so that each automaton is laid out again under new bulk settings). */
  evictAll(): void {
    for (const rules of [...this.lru]) this.evict(rules);
  }

  /** The many-host engine binds its own matchers: the library matcher bound before must be bound again. */
  forgetBinding(): void {
    this.bound = null;
  }

  /** Automaton region bytes of the matcher bound now (0: none). */
  get boundRegionBytes(): number {
    return this.bound?.automatonBytes ?? 0;
  }
}
