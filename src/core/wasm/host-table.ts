// The many-host engine's host table: host key -> slot (HOSTS_* and HOST_ENTRY_* of src/core/constants.ts,
// read and filled by assembly/hosts.ts's scan), with the key bytes after the entries. A key met for the first
// time is pending until the policy resolves it (its slot, or "names no host"); an entry notes its slot's
// generation, so it goes stale when the slot is emptied. Canonical names are also remembered under a prefix,
// so other spellings of a host find its slot.
import {
  HOSTS_CAPACITY, HOSTS_USED, HOSTS_KEY_BYTES_USED, HOSTS_KEY_BYTES_CAPACITY, HOSTS_HEADER_SIZE,
  HOST_ENTRY_KEY_OFFSET, HOST_ENTRY_KEY_LENGTH, HOST_ENTRY_SLOT, HOST_ENTRY_GENERATION, HOST_ENTRY_SIZE,
  HOST_SLOT_NO_HOST, HOST_KEY_ALIAS,
} from '../constants.js';
import type { CoreFrame } from './frame.js';
import type { CoreExports } from './exports.js';
import type { HostSlots } from './host-slots.js';

const FIRST_TABLE_CAPACITY = 256;
/** Key bytes per host table entry (keys are host[:port], typically 10 to 40 bytes). */
const KEY_BYTES_PER_ENTRY = 48;
const latin1 = new TextDecoder('latin1');
/** Canonical names remembered for other spellings are kept under this prefix: no key from a line has a NUL. */
const REMEMBERED_PREFIX = '\0';

/** Bytes of a host table of `capacity` entries (header, entries, key bytes). */
function tableBytes(capacity: number): number {
  return HOSTS_HEADER_SIZE + capacity * (HOST_ENTRY_SIZE + KEY_BYTES_PER_ENTRY);
}

/** The host table of one engine. */
export class HostTable {
  private readonly exports: CoreExports;
  private block: number;
  private capacity = FIRST_TABLE_CAPACITY;
  /** Names remembered for other spellings (rememberHost): none, no look-up of them. */
  private rememberedNames = 0;

  constructor(private readonly frame: CoreFrame, private readonly slots: HostSlots) {
    this.exports = frame.exports;
    this.block = this.newTable(this.capacity);
  }

  private newTable(capacity: number): number {
    const block = this.frame.heap.allocate(tableBytes(capacity));
    const address = this.frame.heap.address(block);
    this.frame.memoryBytes().fill(0, address, address + HOSTS_HEADER_SIZE + capacity * HOST_ENTRY_SIZE);
    const words = this.frame.memoryWords();
    words[(address + HOSTS_CAPACITY) >>> 2] = capacity;
    words[(address + HOSTS_USED) >>> 2] = 0;
    words[(address + HOSTS_KEY_BYTES_USED) >>> 2] = 0;
    words[(address + HOSTS_KEY_BYTES_CAPACITY) >>> 2] = capacity * KEY_BYTES_PER_ENTRY;
    return block;
  }

  /** The table's address (valid until the next heap allocation). */
  get address(): number {
    return this.frame.heap.address(this.block);
  }

  /** Heap bytes of the table. */
  get ownBytes(): number {
    return this.frame.heap.size(this.block);
  }

  /**
   * Grows the table at once to hold `hosts` keys (within maxTableBytes): a pack held names the origins
   * to come, whose keys would otherwise fill the table again and again, a scan of the chunk each time. Once
   * per pack held.
   */
  expectHosts(hosts: number, maxTableBytes: number): void {
    let capacity = this.capacity;
    while (capacity - (capacity >> 2) < hosts && tableBytes(capacity * 2) <= maxTableBytes) capacity *= 2;
    if (capacity > this.capacity) this.rebuild(capacity, maxTableBytes);
  }

  /**
   * The table filled up while a chunk was scanned: the remedy of attempt `step` (0: rebuilt without stale
   * entries; then grown within maxTableBytes; then emptied, its keys resolved again when met; a chunk of one
   * line gets a larger empty table). Returns the next step, or -1 when an empty table of the largest size
   * cannot hold the chunk's hosts (it is answered in parts).
   */
  relieve(step: number, oneLine: boolean, maxTableBytes: number): number {
    if (step === 0) {
      this.rebuild(this.capacity, maxTableBytes);
      return 1;
    }
    if (tableBytes(this.capacity * 2) <= maxTableBytes) {
      this.rebuild(this.capacity * 2, maxTableBytes);
      return step;
    }
    if (step < 2) {
      this.clear();
      return 2;
    }
    if (!oneLine) {
      this.clear();
      return -1;
    }
    this.clear(this.capacity * 2); // one line: its host fits any table
    return step;
  }

  /** A new table of `capacity` entries with the old one's entries that still name a matcher (in a larger one, within maxTableBytes, when they do not fit; else none). */
  private rebuild(capacity: number, maxTableBytes: number): void {
    const next = this.newTable(capacity);
    const kept = this.exports.rehashHostTable(this.address, this.frame.heap.address(next), this.slots.address);
    if (kept < 0) {
      this.frame.heap.free(next);
      if (tableBytes(capacity * 2) <= maxTableBytes) this.rebuild(capacity * 2, maxTableBytes);
      else this.clear();
      return;
    }
    this.frame.heap.free(this.block);
    this.block = next;
    this.capacity = capacity;
  }

  /** Forgets every key (the table is emptied; keys are resolved again when met). */
  clear(capacity = this.capacity): void {
    this.rememberedNames = 0;
    if (capacity !== this.capacity) {
      this.frame.heap.free(this.block);
      this.capacity = capacity;
      this.block = this.newTable(capacity);
      return;
    }
    const address = this.address;
    this.frame.memoryBytes().fill(0, address + HOSTS_HEADER_SIZE, address + HOSTS_HEADER_SIZE + capacity * HOST_ENTRY_SIZE);
    const words = this.frame.memoryWords();
    words[(address + HOSTS_USED) >>> 2] = 0;
    words[(address + HOSTS_KEY_BYTES_USED) >>> 2] = 0;
  }

  private entryWord(entry: number, field: number): number {
    return (this.address + HOSTS_HEADER_SIZE + entry * HOST_ENTRY_SIZE + field) >>> 2;
  }

  /** The key of an entry, one char per byte (host ASCII lower-cased, maybe IDN bytes, and ":port" if any). Per pending entry, when it is resolved. */
  keyOf(entry: number): string {
    const words = this.frame.memoryWords();
    const offset = this.address + HOSTS_HEADER_SIZE + this.capacity * HOST_ENTRY_SIZE + words[this.entryWord(entry, HOST_ENTRY_KEY_OFFSET)];
    return latin1.decode(this.frame.memoryBytes().subarray(offset, offset + (words[this.entryWord(entry, HOST_ENTRY_KEY_LENGTH)] & ~HOST_KEY_ALIAS)));
  }

  /** Resolves a pending key: the slot that answers it (pinned for this chunk), or null when it names no usable host. */
  resolve(entry: number, slot: number | null): void {
    const words = this.frame.memoryWords();
    if (slot === null) {
      words[this.entryWord(entry, HOST_ENTRY_SLOT)] = HOST_SLOT_NO_HOST;
      return;
    }
    words[this.entryWord(entry, HOST_ENTRY_SLOT)] = slot + 1;
    words[this.entryWord(entry, HOST_ENTRY_GENERATION)] = this.slots.generation(slot);
    this.slots.pin(slot);
  }

  /** Whether an entry was resolved as naming no usable host. */
  namesNoHost(entry: number): boolean {
    return this.frame.memoryWords()[this.entryWord(entry, HOST_ENTRY_SLOT)] === HOST_SLOT_NO_HOST;
  }

  /** Writes a key (one char per byte) into the work area; returns its address. */
  private keyInMemory(key: string): number {
    const address = this.frame.workPtr;
    this.frame.reserve(address + key.length);
    const bytes = this.frame.memoryBytes();
    for (let i = 0; i < key.length; i++) bytes[address + i] = key.charCodeAt(i);
    return address;
  }

  /**
   * The slot that answers a canonical host key, or -1: a line's entry with that key that is not an alias
   * (see markAlias; asked only when ownEntry, since a key being resolved finds its own pending entry), else
   * the name remembered for other spellings (rememberHost).
   */
  findHost(key: string, ownEntry: boolean): number {
    if (ownEntry) {
      const address = this.keyInMemory(key);
      const slot = this.exports.findHostSlot(this.address, this.slots.address, address, key.length);
      if (slot >= 0) return slot;
    }
    if (this.rememberedNames === 0) return -1;
    const address = this.keyInMemory(REMEMBERED_PREFIX + key);
    return this.exports.findHostSlot(this.address, this.slots.address, address, key.length + 1);
  }

  /** Remembers that a canonical host key answers with slot (when the table has room): other spellings find it. */
  rememberHost(key: string, slot: number): void {
    const address = this.keyInMemory(REMEMBERED_PREFIX + key);
    if (this.exports.rememberHost(this.address, this.slots.address, address, key.length + 1, slot)) this.rememberedNames++;
  }

  /** Flags a pending entry as a spelling that is not its host's canonical name (canonical look-ups skip it). */
  markAlias(entry: number): void {
    const words = this.frame.memoryWords();
    const field = this.entryWord(entry, HOST_ENTRY_KEY_LENGTH);
    words[field] = (words[field] | HOST_KEY_ALIAS) >>> 0;
  }

  /** Gives the table back to the heap. Once, by HostEngine.close. */
  close(): void {
    if (this.block >= 0) this.frame.heap.free(this.block);
    this.block = -1;
  }
}
