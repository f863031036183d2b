// Raw slots of the many-host engine (google mode): a host's body kept uncompiled, its lines answered straight
// from it (assembly/direct.ts) until it is worth a compile (upgradeSlot); kept in a block of its own, or, for a
// host met once, in the landing block for one round (a transient slot, given up with the round). A pack's
// compiled rule set of a host met once lies there too (a transient slot that is not raw). One agent query per
// engine, kept in a heap block on first use.
import { RAW_BODY_MAGIC, RAW_BODY_LENGTH, RAW_BODY_START, RAW_BODY_SLACK, SLOT_FLAG_RAW } from '../constants.js';
import { RobotsError } from '../errors.js';
import { sizeClassIndex, sizeOfClass } from './heap.js';
import { LandingBlock, writeRawBody } from './landing.js';
import { TRANSIENT, type HostSlots } from './host-slots.js';
import type { WasmCore } from './core.js';
import type { CoreFrame } from './frame.js';

/** The raw and transient slots of one engine, and its agent query. */
export class RawSlots {
  private readonly frame: CoreFrame;
  private readonly landing: LandingBlock;
  /** The agent query raw slots are answered for (a heap block, made by the first raw slot), and its bytes. */
  private agentsBlock = -1;
  private rawAgents: Uint8Array | null = null;
  /** The transient slots of the current round. */
  private readonly transients: number[] = [];

  constructor(private readonly core: WasmCore, private readonly slots: HostSlots, landing: LandingBlock) {
    this.frame = core.frame;
    this.landing = landing;
  }

  /** The agent query's address for assembly/hosts.ts matchGroups (0 before the first raw slot). */
  get agentsAddress(): number {
    return this.agentsBlock >= 0 ? this.frame.heap.address(this.agentsBlock) : 0;
  }

  /** Heap bytes of the agent query and the landing block. */
  get ownBytes(): number {
    return (this.agentsBlock >= 0 ? this.frame.heap.size(this.agentsBlock) : 0) + this.landing.heapBytes;
  }

  /** The agent query of raw and transient slots: kept in a heap block on first use; one per engine. */
  private useAgents(agents: Uint8Array): void {
    if (this.rawAgents === null) {
      this.rawAgents = agents;
      this.agentsBlock = this.frame.heap.allocate(agents.length);
      this.frame.memoryBytes().set(agents, this.frame.heap.address(this.agentsBlock));
    } else if (this.rawAgents !== agents) {
      throw new RobotsError('INVALID_ARGUMENT', 'raw slots of one engine answer one agent query');
    }
  }

  /**
   * Keeps a body (already cut to its size limit) in a new slot without compiling it: the slot's lines are
   * answered straight from it until upgradeSlot compiles it. Google mode only. Returns the slot.
   */
  rawSlot(body: Uint8Array, agents: Uint8Array): number {
    this.useAgents(agents);
    const slot = this.slots.newSlot();
    const block = this.frame.heap.allocate(RAW_BODY_START + body.length + RAW_BODY_SLACK);
    writeRawBody(this.frame, this.frame.heap.address(block), body);
    this.slots.fillSlot(slot, block, SLOT_FLAG_RAW);
    return slot;
  }

  /** Sizes the landing block for a cache budget (see LandingBlock.setBudget). */
  setLandingBudget(budgetBytes: number): void {
    this.landing.setBudget(budgetBytes);
  }

  /** Whether a body (raw) or a compiled rule set of this length can be a transient slot at all (it fits an empty landing block). */
  fitsLanding(length: number, raw = true): boolean {
    return this.landing.fits(raw ? LandingBlock.rawBodyBytes(length) : length);
  }

  /** Whether the landing block has room for one more body (raw) or compiled rule set of this length this round. */
  landingHasRoom(length: number, raw = true): boolean {
    return this.landing.hasRoom(raw ? LandingBlock.rawBodyBytes(length) : length);
  }

  /**
   * A raw slot whose body lies in the landing block, for one round (a host met for the first time: answered
   * straight from its body, then forgotten, see releaseTransients). Google mode only; the caller checks
   * landingHasRoom first (and answers a round to empty the block when it has none). Returns the slot.
   */
  transientSlot(body: Uint8Array, agents: Uint8Array): number {
    this.useAgents(agents);
    // the slot first: a new slot may grow the slot table (an allocation), which may move the landing block
    const slot = this.slots.newSlot();
    this.slots.fillTransient(slot, this.landing.place(body), SLOT_FLAG_RAW);
    this.transients.push(slot);
    return slot;
  }

  /**
   * A slot whose compiled rule set (a pack's blob: `fill` writes its `length` bytes; it must not call the
   * engine) lies in the landing block for one round (a host met for the first time; see releaseTransients).
   * The caller checks landingHasRoom(length, false) first. When fill throws, the slot is given back. Returns the slot.
   */
  transientRulesSlot(length: number, fill: (target: Uint8Array) => void): number {
    // the slot first: a new slot may grow the slot table (an allocation), which may move the landing block
    const slot = this.slots.newSlot();
    const offset = this.landing.reserve(length);
    const address = this.landing.address + offset;
    try {
      fill(this.frame.memoryBytes().subarray(address, address + length));
    } catch (error) {
      this.slots.returnSlot(slot);
      throw error;
    }
    this.slots.fillTransient(slot, offset, 0);
    this.transients.push(slot);
    return slot;
  }

  /** Whether a slot is transient (its body or rule set in the landing block, released at the end of the round). */
  isTransient(slot: number): boolean {
    return this.slots.blockOf(slot) === TRANSIENT;
  }

  /** Transient slots now (released by releaseTransients). */
  get transientCount(): number {
    return this.transients.length;
  }

  /**
   * Empties every transient slot (their host entries go stale: a host met again is resolved again) and the
   * landing block. After the round that answered their lines, or at the end of the chunk.
   */
  releaseTransients(): void {
    for (const slot of this.transients) {
      if (this.slots.blockOf(slot) !== TRANSIENT) continue; // compiled since: a cached slot now
      this.slots.freeSlot(slot);
    }
    this.transients.length = 0;
    this.landing.reset();
  }

  /** Whether a slot holds a raw body (rawSlot, transientSlot) rather than a compiled matcher (compiled rules in the landing block included). */
  isRaw(slot: number): boolean {
    const block = this.slots.blockOf(slot);
    return (block >= 0 || block === TRANSIENT) && this.frame.memoryWords()[this.slots.blobAddress(slot) >>> 2] === RAW_BODY_MAGIC;
  }

  /**
   * Compiles a raw slot's body in place of it (the slot, its generation, lines and pin stay). With `room`,
   * asked for the bytes the compiled matcher needs beyond the raw body's block once its size is known: when
   * it says no, the compile is dropped and the slot stays raw (its lines are answered from the body). Returns
   * whether the slot was compiled.
   */
  upgradeSlot(slot: number, room: ((more: number) => boolean) | null = null): boolean {
    const rawBlock = this.slots.blockOf(slot);
    const raw = this.slots.blobAddress(slot);
    const bodyLength = this.frame.memoryWords()[(raw + RAW_BODY_LENGTH) >>> 2];
    const { address, length } = this.core.bodies.compileAt(raw + RAW_BODY_START, bodyLength, this.frame.heap.address(this.agentsBlock), false, this.frame.workPtr);
    // (room may evict other slots: freeing blocks moves none, and the blob lies after the heap; a transient
    // slot's body holds no block of its own, so the matcher's whole size is more)
    const held = rawBlock === TRANSIENT ? 0 : this.frame.heap.size(rawBlock);
    if (room !== null && !room(Math.max(0, sizeOfClass(sizeClassIndex(length)) - held))) return false;
    // the blob lies in the work area, after the heap: the new block may grow the heap over it (memmove)
    const block = this.frame.heap.allocate(length);
    this.frame.copyWithin(this.frame.heap.address(block), address, address + length);
    if (rawBlock !== TRANSIENT) this.frame.heap.free(rawBlock);
    this.slots.replaceBlock(slot, block);
    return true;
  }

  /** Gives back the agent query's block and the landing block. Once, by HostEngine.close. */
  close(): void {
    if (this.agentsBlock >= 0) this.frame.heap.free(this.agentsBlock);
    this.agentsBlock = -1;
    this.transients.length = 0;
    this.landing.close();
  }
}
