// The many-host matcher's cache: what its slots hold against its byte budget, an eviction clock over them
// (least recently used out, approximated: a slot used since the clock last passed gets a second chance; a
// slot the running chunk uses is never evicted), automaton regions for busy slots, and one slot per compiled
// rule set a source hands out again (a pack's blob, shared by the origins of one body). Per cached slot a few
// numbers in typed arrays, no object.
import { automatonCapBytes, AUTOMATON_GROWTH } from '../../core/engine.js';
import type { HostEngine } from '../../core/engine.js';
import type { CompiledRules, HeldData } from './sources.js';

/** Bytes counted per cached host besides its heap blocks: its numbers in typed arrays and the clock. */
export const HOST_COST_BYTES = 32;
/** A slot gets an automaton region once it has answered this many lines (fewer: the trie NFA is cheaper). */
export const AUTOMATON_AFTER_LINES = 512;

/** First automaton region of a host's matcher: a few KiB for the usual small file, grown x4 when it fills up. */
function hostAutomatonFirstBytes(blobLength: number): number {
  return Math.min(automatonCapBytes(blobLength), Math.ceil((4096 + 2 * blobLength) / 4096) * 4096);
}
/** The cache of one MultiHostMatcher. */
export class HostCache {
  /** Slots with a matcher now. */
  cachedHosts = 0;
  /** Cached slots in eviction order, and per slot its fill count and its pin stamp when the clock last passed it. */
  private readonly clock = new SlotClock();
  private fills: Uint32Array = new Uint32Array(256);
  private seenStamp: Uint32Array = new Uint32Array(256);
  private usedBytes = 0;
  /** The scan stamp at which makeRoom found only hosts of the running chunk: no use looking again then. */
  private fullAtStamp = -1;
  /**
   * A source's compiled rules (CompiledRules.key) and the slot that holds them (kept, or a transient slot of
   * the landing block for a round), valid while that slot's generation is the one noted: a slot emptied (evicted,
   * or given up with its round) gets a new one, so whatever fills it next never answers for them.
   */
  private readonly compiledSlots = new Map<number, number>();
  private readonly compiledGenerations = new Map<number, number>();

  /** budget: bytes for everything the slots hold (setBudget changes it); counters.evicted counts what makeRoom drops. */
  constructor(private readonly engine: HostEngine, public budget: number, private readonly counters: { evicted: number }) {}

  /** Enters a filled slot in the cache: the clock, its fill count, its bytes (and `more` besides). */
  cache(slot: number, more: number): void {
    this.cachedHosts++;
    if (slot >= this.fills.length) {
      this.fills = grown(this.fills, slot);
      this.seenStamp = grown(this.seenStamp, slot);
    }
    this.fills[slot]++;
    this.clock.push(slot, this.fills[slot]);
    this.seenStamp[slot] = this.engine.slots.currentStamp;
    this.usedBytes += this.engine.slots.slotBytes(slot) + more;
  }

  /** A cached slot's blocks changed size (a raw body compiled in place): `before` was its size. */
  resized(slot: number, before: number): void {
    this.usedBytes += this.engine.slots.slotBytes(slot) - before;
  }

  /** The slot read before for compiled rules a source handed out (a pack's blob), while it holds them (kept, or landed this round), or -1. Per origin resolved with such rules. */
  cachedCompiledSlot(rules: CompiledRules): number {
    const known = this.compiledSlots.get(rules.key);
    return known !== undefined && this.engine.slots.isFilled(known) && this.engine.slots.generation(known) === this.compiledGenerations.get(rules.key) ? known : -1;
  }

  /**
   * The slot of compiled rules a source handed out (a pack's blob): the one read for them before while it
   * stays cached, else a new slot read now and cached. Per origin resolved with such rules.
   */
  compiledSlot(rules: CompiledRules): number {
    const known = this.cachedCompiledSlot(rules);
    if (known >= 0) return known;
    const slot = this.engine.compiled.blobSlot(rules.length, rules.fill);
    this.cache(slot, HOST_COST_BYTES);
    this.noteCompiledSlot(rules, slot);
    return slot;
  }

  /**
   * Holds what a source gives at once (a pack's rules for the agent, SourceTraits.heldData) when half the
   * budget holds them and their index, read once now, with the index laid out in the core (a slot per rule set held: the scan
   * answers plain keys itself) and the host table sized for its origins; gives it up when the budget no longer
   * does (its slots emptied: their origins are then read per host). At a matcher's open and at each new
   * budget, between calls.
   */
  fitHeldData(data: HeldData, fixedSlots: () => { allow: number; disallow: number }): void {
    const packData = this.engine.packData;
    // (the index first: what is held is worked out only for a pack whose index fits)
    const half = this.budgetPart(2);
    const fits = data.indexLength <= half && data.length + data.indexLength <= half;
    if (fits && !packData.holding) {
      packData.hold(data);
      if (data.index !== undefined) {
        const fixed = fixedSlots();
        packData.attachIndex(data.index, fixed.allow, fixed.disallow);
        this.engine.table.expectHosts(data.index.counts.origins, this.budgetPart(4));
      }
    } else if (!fits && packData.holding) {
      // its slots are in no clock (never evicted: they hold no bytes but their automaton regions, counted here)
      for (const slot of packData.heldSlots) if (slot >= 0) this.usedBytes -= this.engine.slots.slotBytes(slot);
      packData.close();
    }
  }

  /** Notes the slot that now holds compiled rules a source handed out (cachedCompiledSlot finds it while it holds them). Per slot read for them. */
  noteCompiledSlot(rules: CompiledRules, slot: number): void {
    this.compiledSlots.set(rules.key, slot);
    this.compiledGenerations.set(rules.key, this.engine.slots.generation(slot));
  }

  /**
   * A busy slot gets an automaton region (small, grown when it fills up, at most 1/16 of the budget) when
   * the budget has room for it as it is: a region never evicts a host (a host compiled again costs more
   * than its lines answered by the trie NFA).
   */
  planAutomaton(slot: number, lines: number): void {
    const current = this.engine.slots.automatonBytes(slot);
    // (most hosts of a chunk: none yet and too few lines for one; nothing else read)
    if (current === 0 && lines < AUTOMATON_AFTER_LINES && this.engine.slots.slotLines(slot) + lines < AUTOMATON_AFTER_LINES) return;
    const blob = this.engine.slots.blobBytes(slot);
    const cap = Math.min(automatonCapBytes(blob), this.budgetPart(16));
    let wanted = 0;
    if (current === 0) {
      if (this.engine.slots.slotLines(slot) + lines >= AUTOMATON_AFTER_LINES) wanted = hostAutomatonFirstBytes(blob);
    } else if (current < cap && this.engine.slots.automatonOverflowed(slot)) {
      wanted = Math.min(cap, current * AUTOMATON_GROWTH);
    }
    if (wanted === 0 || wanted > cap || this.accountedBytes() + wanted - current > this.budget - this.budgetPart(8)) return;
    const before = this.engine.slots.slotBytes(slot);
    this.engine.slots.giveAutomaton(slot, wanted);
    this.usedBytes += this.engine.slots.slotBytes(slot) - before;
  }

  /** A part of the budget (budgets reach 3 GiB: whole-number division, never a signed 32-bit shift). */
  budgetPart(divisor: number): number {
    return Math.floor(this.budget / divisor);
  }

  accountedBytes(): number {
    return this.usedBytes + this.engine.ownBytes;
  }

  /**
   * Evicts hosts (clock order) until the budget holds, with room for `more` bytes the engine is about to
   * take; with pinned, never a host the running chunk uses, and false when only those are left. Once over
   * the budget it evicts down to 7/8 of it: the heap's free blocks and its growth step then fit inside.
   */
  makeRoom(pinned = true, more = 0): boolean {
    const stamp = this.engine.slots.currentStamp;
    if (this.accountedBytes() + more <= this.budget) return true;
    if (pinned && this.fullAtStamp === stamp) return false;
    const target = this.budget - this.budgetPart(8) - more;
    // two turns of the clock at most: the first may only take second chances away
    let visits = 2 * this.clock.length;
    while (this.accountedBytes() > target) {
      if (visits-- <= 0 || this.clock.length === 0) {
        if (pinned) this.fullAtStamp = stamp;
        return this.accountedBytes() + more <= this.budget;
      }
      const slot = this.clock.shift();
      if (this.clock.shiftedFill !== this.fills[slot] || !this.engine.slots.isFilled(slot)) continue; // emptied since: stale
      const pin = this.engine.slots.pinStamp(slot);
      if (pinned && pin === stamp) {
        this.requeue(slot); // used by this chunk
        continue;
      }
      if (pin !== this.seenStamp[slot]) {
        // used since the clock last passed: a second chance
        this.seenStamp[slot] = pin;
        this.requeue(slot);
        continue;
      }
      this.evict(slot);
    }
    return true;
  }

  private requeue(slot: number): void {
    this.clock.push(slot, this.fills[slot]);
  }

  private evict(slot: number): void {
    this.usedBytes -= this.engine.slots.slotBytes(slot) + HOST_COST_BYTES;
    this.engine.slots.freeSlot(slot);
    this.cachedHosts--;
    this.counters.evicted++;
  }
}

/** A copy of `array` long enough for index `at` (twice as long, or more). */
function grown(array: Uint32Array, at: number): Uint32Array {
  const next = new Uint32Array(Math.max(at + 1, array.length * 2));
  next.set(array);
  return next;
}

/** A ring of (slot, fill count) pairs in typed arrays: the eviction clock, without an object per entry. */
class SlotClock {
  private slots = new Uint32Array(1024);
  private fillCounts = new Uint32Array(1024);
  private head = 0;
  length = 0;
  /** The fill count of the entry the last shift took. */
  shiftedFill = 0;

  push(slot: number, fill: number): void {
    if (this.length === this.slots.length) {
      const slots = new Uint32Array(this.slots.length * 2);
      const fills = new Uint32Array(this.slots.length * 2);
      for (let i = 0; i < this.length; i++) {
        const at = (this.head + i) % this.slots.length;
        slots[i] = this.slots[at];
        fills[i] = this.fillCounts[at];
      }
      this.slots = slots;
      this.fillCounts = fills;
      this.head = 0;
    }
    const at = (this.head + this.length) % this.slots.length;
    this.slots[at] = slot;
    this.fillCounts[at] = fill;
    this.length++;
  }

  shift(): number {
    const slot = this.slots[this.head];
    this.shiftedFill = this.fillCounts[this.head];
    this.head = (this.head + 1) % this.slots.length;
    this.length--;
    return slot;
  }
}

