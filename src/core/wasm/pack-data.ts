// A pack's rules for one agent held in the many-host engine's heap (read once when the matcher opens): the
// blob the agent gets from each body (RobotsPack.agentBlobs: no body, no other agent's blob),
// one block, and, when the source gives its index, the index in the core beside a record (PACK_RECORD_* of
// src/core/constants.ts) that lets the scan answer a line's new host itself (assembly/pack-hosts.ts): a slot
// per blob held (HostSlots PACKED, flagged SLOT_FLAG_PACKED), pointing where it lies in the block, no read
// and no copy per host, and no call out of the core per host. One per engine; the policy of when a pack is
// held is src/node/hosts/'s (what it holds must fit half of the matcher's budget).
import {
  BLOB_BYTES, SLOT_FLAG_PACKED, PACK_RECORD_INDEX, PACK_RECORD_BUCKETS, PACK_RECORD_ORIGINS, PACK_RECORD_CAPTURES,
  PACK_RECORD_BODIES, PACK_RECORD_TOKENS, PACK_RECORD_STRINGS, PACK_RECORD_BUCKET_COUNT, PACK_RECORD_ORIGIN_COUNT,
  PACK_RECORD_CAPTURE_COUNT, PACK_RECORD_BODY_COUNT, PACK_RECORD_TOKEN_COUNT, PACK_RECORD_BLOB_COUNT, PACK_RECORD_STRING_BYTES,
  PACK_RECORD_KINDS, PACK_RECORD_AGENT, PACK_RECORD_AGENT_LENGTH, PACK_RECORD_BLOB_SLOTS, PACK_RECORD_ALLOW_SLOT,
  PACK_RECORD_DISALLOW_SLOT, PACK_RECORD_RULES_MET, PACK_RECORD_ALLOW_MET, PACK_RECORD_DISALLOW_MET, PACK_RECORD_BODY_SLOTS, PACK_RECORD_ORIGIN_SLOTS, PACK_RECORD_SIZE,
} from '../constants.js';
import type { CoreFrame } from './frame.js';
import type { HostSlots } from './host-slots.js';

/** A pack's index as the core reads it (src/core/pack/layout.ts): its bytes, where its sections start in them, their counts, the kinds of keys it holds, and the agent whose rules are asked. */
export interface CoreIndex {
  bytes: Uint8Array;
  sections: { buckets: number; origins: number; captures: number; bodies: number; tokens: number; blobs: number; strings: number };
  counts: { buckets: number; origins: number; captures: number; bodies: number; tokens: number; blobs: number; stringBytes: number };
  /** PACK_KIND_* of the keys looked up. */
  kinds: number;
  /** The agent's product token, lower case. */
  agent: Uint8Array;
  /** Per blob of the index, where it lies in the bytes held (-1: not held: its hosts are left to the host). */
  blobPlaces: Int32Array;
}

/** What a source gives at once to be held (a pack's rules for the agent): its bytes' length, how to write them into a block of that length (it may throw: a damaged pack), and its index for the core, when it has one. */
export interface HeldData {
  /** Bytes of its index in the core (0: none), known before `length` is worked out. */
  readonly indexLength: number;
  readonly length: number;
  fill(target: Uint8Array): void;
  readonly index?: CoreIndex;
}

/** The pack data held by one engine (none, or one source's). */
export class PackData {
  private block = -1;
  private held: HeldData | null = null;
  /** The record and the index in the core (-1: none), and per blob its slot (-1: none). */
  private recordBlock = -1;
  private blobSlots: Int32Array = new Int32Array(0);

  constructor(private readonly frame: CoreFrame, private readonly slots: HostSlots) {}

  /** Whether these are the data held now. Per origin answered in place. */
  holds(data: HeldData): boolean {
    return this.held === data;
  }

  /** Whether some data are held. */
  get holding(): boolean {
    return this.held !== null;
  }

  /** Reads data into a block of their own (the caller gave up any held before); when fill throws, nothing is held. Once per matcher. */
  hold(data: HeldData): void {
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

  /**
   * Lays the held pack's index out in the core for the scan (assembly/pack-hosts.ts), with a slot per compiled
   * rule set held (a blob not held gets none: its hosts are left to the host)
   * and the fixed slots of captures that allow or disallow every URL. Once, after hold.
   */
  attachIndex(index: CoreIndex, allowSlot: number, disallowSlot: number): void {
    const blobs = new DataView(index.bytes.buffer, index.bytes.byteOffset + index.sections.blobs, index.counts.blobs * BLOB_BYTES);
    const dataLength = (this.held as HeldData).length;
    const offsets = new Int32Array(index.counts.blobs);
    const lengths = new Int32Array(index.counts.blobs);
    for (let blob = 0; blob < index.counts.blobs; blob++) {
      const offset = index.blobPlaces[blob];
      const length = blobs.getUint32(blob * BLOB_BYTES + 8, true);
      // (a blob not held, or not inside what is, gets no slot: its hosts are left to the host, which reads it)
      const inside = offset >= 0 && offset + length <= dataLength;
      offsets[blob] = inside ? offset : 0;
      lengths[blob] = inside ? length : -1;
    }
    this.blobSlots = this.slots.newPackedSlots(offsets, lengths, SLOT_FLAG_PACKED);
    // the record: its words, the index, the agent's token; the blob slots, then a slot per body and per
    // origin (written by the core, resolvePackOrigins) after them
    const indexAt = PACK_RECORD_SIZE;
    const agentAt = indexAt + index.bytes.length;
    const slotsAt = (agentAt + index.agent.length + 3) & ~3;
    const bodySlotsAt = slotsAt + 4 * index.counts.blobs;
    const originSlotsAt = bodySlotsAt + 4 * index.counts.bodies;
    const recordBytes = originSlotsAt + 4 * index.counts.origins;
    this.recordBlock = this.frame.heap.allocate(recordBytes);
    const record = this.frame.heap.address(this.recordBlock);
    const bytes = this.frame.memoryBytes();
    bytes.set(index.bytes, record + indexAt);
    bytes.set(index.agent, record + agentAt);
    const { sections, counts } = index;
    const fields: [number, number][] = [
      [PACK_RECORD_INDEX, indexAt], [PACK_RECORD_AGENT, agentAt], [PACK_RECORD_AGENT_LENGTH, index.agent.length],
      [PACK_RECORD_BUCKETS, sections.buckets], [PACK_RECORD_ORIGINS, sections.origins], [PACK_RECORD_CAPTURES, sections.captures],
      [PACK_RECORD_BODIES, sections.bodies], [PACK_RECORD_TOKENS, sections.tokens], [PACK_RECORD_STRINGS, sections.strings],
      [PACK_RECORD_BUCKET_COUNT, counts.buckets], [PACK_RECORD_ORIGIN_COUNT, counts.origins], [PACK_RECORD_CAPTURE_COUNT, counts.captures],
      [PACK_RECORD_BODY_COUNT, counts.bodies], [PACK_RECORD_TOKEN_COUNT, counts.tokens], [PACK_RECORD_BLOB_COUNT, counts.blobs],
      [PACK_RECORD_STRING_BYTES, counts.stringBytes], [PACK_RECORD_KINDS, index.kinds], [PACK_RECORD_BLOB_SLOTS, slotsAt],
      [PACK_RECORD_BODY_SLOTS, bodySlotsAt], [PACK_RECORD_ORIGIN_SLOTS, originSlotsAt], [PACK_RECORD_ALLOW_SLOT, allowSlot], [PACK_RECORD_DISALLOW_SLOT, disallowSlot],
      [PACK_RECORD_RULES_MET, 0], [PACK_RECORD_ALLOW_MET, 0], [PACK_RECORD_DISALLOW_MET, 0],
    ];
    const words = this.frame.memoryWords();
    for (const [at, value] of fields) words[(record + at) >>> 2] = value;
    for (let blob = 0; blob < this.blobSlots.length; blob++) words[((record + slotsAt) >>> 2) + blob] = this.blobSlots[blob] + 1;
    this.frame.exports.resolvePackOrigins(record);
  }

  /** The record's address for the scan (0: no index in the core; valid until the next heap allocation). */
  get recordAddress(): number {
    return this.recordBlock >= 0 ? this.frame.heap.address(this.recordBlock) : 0;
  }

  /** The slot of a blob of the pack held (-1: none). Per origin the host resolves with the pack's rules. */
  slotOfBlob(blob: number): number {
    return blob >= 0 && blob < this.blobSlots.length ? this.blobSlots[blob] : -1;
  }

  /** Adds the origins the core answered since the last call to the counters (PACK_RECORD_*_MET), and zeroes them. Per chunk scanned. */
  takeMet(counters: { packed: number; allowAll: number; disallowAll: number }): void {
    if (this.recordBlock < 0) return;
    const words = this.frame.memoryWords();
    const record = this.frame.heap.address(this.recordBlock) >>> 2;
    counters.packed += words[record + (PACK_RECORD_RULES_MET >>> 2)];
    counters.allowAll += words[record + (PACK_RECORD_ALLOW_MET >>> 2)];
    counters.disallowAll += words[record + (PACK_RECORD_DISALLOW_MET >>> 2)];
    words[record + (PACK_RECORD_RULES_MET >>> 2)] = 0;
    words[record + (PACK_RECORD_ALLOW_MET >>> 2)] = 0;
    words[record + (PACK_RECORD_DISALLOW_MET >>> 2)] = 0;
  }

  /** The held pack's slots (each blob's), for the budget's accounting of their automaton regions. */
  get heldSlots(): Int32Array {
    return this.blobSlots;
  }

  /** The held data's address (valid until the next heap allocation). */
  get address(): number {
    return this.frame.heap.address(this.block);
  }

  /** Heap bytes of the data and the record (0: none held). */
  get heapBytes(): number {
    return (this.block >= 0 ? this.frame.heap.size(this.block) : 0) + (this.recordBlock >= 0 ? this.frame.heap.size(this.recordBlock) : 0);
  }

  /** Gives the pack up: its slots emptied (host entries that named them go stale), the record and the data given back. */
  close(): void {
    for (const slot of this.blobSlots) if (slot >= 0) this.slots.freeSlot(slot);
    this.blobSlots = new Int32Array(0);
    if (this.recordBlock >= 0) this.frame.heap.free(this.recordBlock);
    if (this.block >= 0) this.frame.heap.free(this.block);
    this.recordBlock = -1;
    this.block = -1;
    this.held = null;
  }
}
