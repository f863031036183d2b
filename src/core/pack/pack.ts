// A robots.txt pack read (src/core/pack/layout.ts says its bytes): its header checked (magic, format, the
// engine's semantics, length, checksums) before anything else is read, then origins looked up in O(1) (a bucket
// of the hash index, the key compared), each capture's body and the blob compiled for an agent handed out.
// Any runtime: the bytes come from a PackStorage (all of them in memory, or a file read in pages by the Node
// side). A pack that is not one, is cut or damaged, or was made by another version is refused with one
// sentence (PACK_INVALID), never read.
import { RobotsError } from '../errors.js';
import { PACK_KIND_HOST, PACK_KIND_STORE } from '../constants.js';
import type { CoreIndex } from '../wasm/pack-data.js';
import { asciiLowerCase } from '../robots.js';
import {
  PACK_MAGIC, PACK_FORMAT, ENGINE_SEMANTICS, FLAG_RFC, FLAG_KEY_KINDS, FLAG_STORE_KEYS, FLAG_HOST_KEYS, HEADER_BYTES, H_FORMAT, H_SEMANTICS, H_FLAGS, H_MAX_BYTES, H_ORIGINS, H_BODIES,
  H_BLOBS, H_BUCKETS, H_LENGTH, H_INDEX_OFFSET, H_INDEX_LENGTH, H_INDEX_CRC, H_DATA_CRC, H_HEADER_CRC, H_BUILT_AT, H_CAPTURES, H_TOKENS, ORIGIN_BYTES,
  CAPTURE_BYTES, BODY_BYTES, TOKEN_BYTES, BLOB_BYTES, EFFECT_RULES, EFFECT_ALLOW_ALL, EFFECT_DISALLOW_ALL, indexLayout, keyHash, crc32, getU64, type IndexLayout,
} from './layout.js';

/** Where a pack's bytes are: `read` gives [offset, offset + length) (a view valid until the next read). */
export interface PackStorage {
  readonly size: number;
  read(offset: number, length: number): Uint8Array;
  /** All of the pack's bytes, when they are in memory (a pack read whole). */
  readonly bytes?: Uint8Array;
  /** True when each read gives a new array the reader may keep (no copy needed). */
  readonly fresh?: boolean;
  /** Reads [offset, offset + target.length) into target (a file: straight into it, no array between). */
  readInto?(offset: number, target: Uint8Array): void;
  /** The CRC-32 of [offset, offset + length), read a piece at a time (a file: through one small buffer). */
  checksum?(offset: number, length: number, crc32: (bytes: Uint8Array, crc: number) => number): number;
}

/** Bytes in memory as a PackStorage (a pack read whole, or given as bytes). */
export function bytesStorage(bytes: Uint8Array): PackStorage {
  return { size: bytes.length, read: (offset, length) => bytes.subarray(offset, offset + length), bytes };
}

/** One capture of an origin: when it was seen, what its URLs get, and its body (effect rules). */
export interface PackCapture {
  /** ms since 1970, or null when the source said no time. */
  time: number | null;
  effect: 'rules' | 'allow-all' | 'disallow-all';
  /** The body's index in the pack (effect rules), else null. */
  body: number | null;
  /** The HTTP status the source recorded (0: none), and the redirects followed to it. */
  status: number;
  hops: number;
}

/**
 * verifyData: true, the whole data area's checksum checked at open (nothing is read before it holds); 'owed',
 * checked whole later, by the reader (RobotsPack.verifyData, or agentBlobsInto as it reads the data); else
 * each body and blob is checked when first read.
 */
export interface PackOpenOptions {
  verifyData?: boolean | 'owed';
  /** How the pack is named in errors (its path). */
  name?: string;
  /** CRC-32 as zlib computes it, continuing from crc (Node passes zlib.crc32, native; default: crc32 of layout.ts). */
  crc32?: (bytes: Uint8Array, crc: number) => number;
}

const EFFECTS = ['rules', 'allow-all', 'disallow-all'] as const;
/** RobotsPack.latestBody for a capture whose URLs are all allowed (no robots.txt: a 4xx), or all disallowed (a 5xx, unreachable). */
/** What a many-host matcher holds of a pack for one agent (RobotsPack.agentBlobs). */
export interface AgentBlobs {
  /** The blobs held, in the file's order. */
  readonly blobs: Int32Array;
  /** Where each of them (blobs[i]) lies in the file, and its bytes. */
  readonly offsets: Float64Array;
  readonly lengths: Int32Array;
  /** Per blob of the pack, where it lies in the bytes held (-1: not held). */
  readonly places: Int32Array;
  /** Bytes held: the blobs' together. */
  readonly length: number;
}

/** The piece the data area is read in when an agent's blobs are held (one buffer, touched once). */
const HELD_READ_BYTES = 1 << 20;

export const ALL_ALLOWED = -1;
export const ALL_DISALLOWED = -2;

/**
 * A robots.txt pack: made once per run by its reader (check --pack, audit --pack, the library's RobotsPack);
 * each look-up is O(1) in the pack's size (a bucket's few origins compared, a body's few tokens searched).
 */
export class RobotsPack {
  /** The mode the pack's bodies were compiled in (google or rfc). */
  readonly mode: 'google' | 'rfc';
  /** The reading limit the bodies were cut at (0: read whole). */
  readonly maxBytes: number;
  readonly originCount: number;
  /** Captures of all origins (more than originCount: some origin was seen several times, and audit judges by capture). */
  readonly captureCount: number;
  readonly bodyCount: number;
  readonly blobCount: number;
  readonly builtAt: number;
  private readonly buckets: number;
  private readonly indexOffset: number;
  private readonly layout: IndexLayout;
  private readonly index: DataView;
  private readonly indexBytes: Uint8Array;
  /** Bodies and blobs whose checksum was checked, a bit each (all of them when the data area was checked whole). */
  private readonly checked: Uint8Array;
  /** Whether the whole data area was checked (at open, by agentBlobsInto, or by verifyData), and whether its whole check is owed (verifyData 'owed'). */
  private dataChecked: boolean;
  private dataCheckOwed: boolean;
  private readonly dataCrc: number;
  private readonly flags: number;
  private readonly tokenCount: number;
  private readonly name: string;
  private readonly checksum: (bytes: Uint8Array) => number;
  private readonly continued: (bytes: Uint8Array, crc: number) => number;

  private constructor(private readonly storage: PackStorage, options: PackOpenOptions) {
    this.name = options.name ?? 'the pack';
    this.continued = options.crc32 ?? crc32;
    this.checksum = (bytes) => this.continued(bytes, 0);
    const refuse = (why: string): never => {
      throw new RobotsError('PACK_INVALID', `${this.name} ${why}`);
    };
    if (storage.size < HEADER_BYTES) refuse(`is not a robots.txt pack (${storage.size} bytes: shorter than a pack's header; robotstxt pack makes one)`);
    const header = new Uint8Array(storage.read(0, HEADER_BYTES)); // (a copy: a Node Buffer's slice would be a view)
    if (PACK_MAGIC.some((byte, i) => header[i] !== byte)) refuse('is not a robots.txt pack (robotstxt pack makes one)');
    const view = new DataView(header.buffer);
    const format = view.getUint32(H_FORMAT, true);
    const semantics = view.getUint32(H_SEMANTICS, true);
    if (this.checksum(header.subarray(0, H_HEADER_CRC)) !== view.getUint32(H_HEADER_CRC, true)) refuse('is damaged: its header fails its checksum (rebuild it with robotstxt pack)');
    if (format !== PACK_FORMAT || semantics !== ENGINE_SEMANTICS) refuse(`was packed by another version of robotstxt-wasm (format ${format}, engine ${semantics.toString(16)}; this one reads format ${PACK_FORMAT}, engine ${ENGINE_SEMANTICS.toString(16)}): rebuild it with robotstxt pack`);
    const length = getU64(view, H_LENGTH);
    if (length !== storage.size) refuse(`is cut or damaged: ${storage.size} bytes where its header says ${length} (rebuild it with robotstxt pack)`);
    this.flags = view.getUint32(H_FLAGS, true);
    this.mode = (this.flags & FLAG_RFC) !== 0 ? 'rfc' : 'google';
    this.maxBytes = view.getUint32(H_MAX_BYTES, true);
    this.originCount = view.getUint32(H_ORIGINS, true);
    this.captureCount = view.getUint32(H_CAPTURES, true);
    this.bodyCount = view.getUint32(H_BODIES, true);
    this.blobCount = view.getUint32(H_BLOBS, true);
    this.buckets = view.getUint32(H_BUCKETS, true);
    this.builtAt = view.getFloat64(H_BUILT_AT, true);
    this.indexOffset = getU64(view, H_INDEX_OFFSET);
    const indexLength = getU64(view, H_INDEX_LENGTH);
    if (this.indexOffset < HEADER_BYTES || this.indexOffset + indexLength !== length) refuse('is damaged: its index lies outside it (rebuild it with robotstxt pack)');
    // the index is read whole (a few tens of bytes per origin) and checked; the data area when asked, else piece by piece
    const index = storage.read(this.indexOffset, indexLength);
    this.indexBytes = storage.fresh === true ? index : new Uint8Array(index); // (kept: a view of the caller's bytes would pin them)
    if (this.checksum(this.indexBytes) !== view.getUint32(H_INDEX_CRC, true)) refuse('is damaged: its index fails its checksum (rebuild it with robotstxt pack)');
    this.index = new DataView(this.indexBytes.buffer);
    this.tokenCount = view.getUint32(H_TOKENS, true);
    this.layout = indexLayout({ buckets: this.buckets, origins: this.originCount, captures: this.captureCount, bodies: this.bodyCount, tokens: this.tokenCount, blobs: this.blobCount, stringBytes: 0 });
    if (this.layout.strings > indexLength || this.buckets === 0 || (this.buckets & (this.buckets - 1)) !== 0) refuse('is damaged: its index does not hold its sections (rebuild it with robotstxt pack)');
    this.dataChecked = options.verifyData === true;
    this.dataCheckOwed = options.verifyData === 'owed';
    this.dataCrc = view.getUint32(H_DATA_CRC, true);
    this.checked = new Uint8Array(this.dataChecked ? 0 : Math.ceil((this.bodyCount + this.blobCount) / 8));
    if (this.dataChecked) this.checkDataSum(this.dataSum());
  }

  /** The whole data area's checksum, read through (a file's through one small buffer). */
  private dataSum(): number {
    return this.storage.checksum !== undefined ? this.storage.checksum(HEADER_BYTES, this.dataLength, this.continued) : this.checksum(this.storage.read(HEADER_BYTES, this.dataLength));
  }

  /** Refuses the pack when the data area's checksum is not `sum`. */
  private checkDataSum(sum: number): void {
    if (sum !== this.dataCrc) throw new RobotsError('PACK_INVALID', `${this.name} is damaged: its data fails its checksum (rebuild it with robotstxt pack)`);
  }

  /**
   * Makes the whole data check that was owed (opened with verifyData 'owed'), unless agentBlobsInto made it as it
   * read the data whole: for a reader that does not hold the data, before its first answer, so that a damaged
   * pack is refused before anything is written. Once; nothing for a pack checked at open or piece by piece.
   */
  verifyData(): void {
    if (!this.dataCheckOwed) return;
    this.checkDataSum(this.dataSum());
    this.dataCheckOwed = false;
    this.dataChecked = true;
  }

  /** Opens a pack over its bytes (checked: magic, format, engine, length, index; the data area too when verifyData). Once per run. */
  static open(storage: PackStorage, options: PackOpenOptions = {}): RobotsPack {
    return new RobotsPack(storage, options);
  }

  /** A pack given as bytes (read whole: every checksum checked at once). */
  static fromBytes(bytes: Uint8Array, options: Omit<PackOpenOptions, 'verifyData'> = {}): RobotsPack {
    if (!(bytes instanceof Uint8Array)) throw new RobotsError('INVALID_ARGUMENT', 'a pack is given as a Uint8Array of its bytes');
    return new RobotsPack(bytesStorage(bytes), { ...options, verifyData: true });
  }

  /** The origin record of a key (a store file key, `host:port` or `host`), as its index, or -1. O(1). */
  originIndex(key: string): number {
    const hash = keyHash(key);
    const bucket = hash & (this.buckets - 1);
    const from = this.index.getUint32(this.layout.buckets + 4 * bucket, true);
    const to = this.index.getUint32(this.layout.buckets + 4 * (bucket + 1), true);
    for (let i = from; i < to; i++) {
      const at = this.layout.origins + i * ORIGIN_BYTES;
      if (this.index.getUint32(at, true) !== hash) continue;
      const offset = this.index.getUint32(at + 4, true);
      const length = this.index.getUint32(at + 8, true);
      if (length !== key.length) continue;
      let same = true;
      const strings = this.layout.strings + offset;
      for (let j = 0; j < length && same; j++) same = this.indexBytes[strings + j] === (key.charCodeAt(j) & 0xff);
      if (same) return i;
    }
    return -1;
  }

  /** Whether the pack may hold origin keys of a kind (FLAG_STORE_KEYS, FLAG_PORT_KEYS, FLAG_HOST_KEYS; a pack that does not say may hold any). Per origin looked up. */
  mayHoldKeys(kind: number): boolean {
    return (this.flags & FLAG_KEY_KINDS) === 0 || (this.flags & kind) !== 0;
  }

  /**
   * The index as the core reads it to answer origins itself (src/core/wasm/pack-data.ts, assembly/pack-hosts.ts):
   * its bytes (checked at open), its sections, the agent asked (its product token, any case), and where each
   * blob lies in the bytes held (AgentBlobs.places). Once per matcher that holds the agent's blobs.
   */
  coreIndex(agent: string, held: AgentBlobs): CoreIndex {
    return {
      bytes: this.indexBytes,
      sections: { buckets: this.layout.buckets, origins: this.layout.origins, captures: this.layout.captures, bodies: this.layout.bodies, tokens: this.layout.tokens, blobs: this.layout.blobs, strings: this.layout.strings },
      counts: { buckets: this.buckets, origins: this.originCount, captures: this.captureCount, bodies: this.bodyCount, tokens: this.tokenCount, blobs: this.blobCount, stringBytes: this.indexBytes.length - this.layout.strings }, // (the strings run to the index's end)
      kinds: (this.mayHoldKeys(FLAG_STORE_KEYS) ? PACK_KIND_STORE : 0) | (this.mayHoldKeys(FLAG_HOST_KEYS) ? PACK_KIND_HOST : 0),
      agent: Uint8Array.from(asciiLowerCase(agent), (c) => c.charCodeAt(0) & 0xff),
      blobPlaces: held.places,
    };
  }

  /** The key of an origin record (for listings). */
  originKey(origin: number): string {
    const at = this.layout.origins + origin * ORIGIN_BYTES;
    const offset = this.index.getUint32(at + 4, true);
    const length = this.index.getUint32(at + 8, true);
    let key = '';
    for (let j = 0; j < length; j++) key += String.fromCharCode(this.indexBytes[this.layout.strings + offset + j]);
    return key;
  }

  /** The captures of an origin record, oldest first. */
  captures(origin: number): PackCapture[] {
    const at = this.layout.origins + origin * ORIGIN_BYTES;
    const first = this.index.getUint32(at + 12, true);
    const count = this.index.getUint32(at + 16, true);
    this.inRange(first + count, this.captureCount, 'a capture');
    const out: PackCapture[] = [];
    for (let i = first; i < first + count; i++) out.push(this.capture(i));
    return out;
  }

  /** What an origin's newest capture answers, without an object: its body's index (>= 0), ALL_ALLOWED or ALL_DISALLOWED. Per origin met. */
  latestBody(origin: number): number {
    const at = this.layout.origins + origin * ORIGIN_BYTES;
    const newest = this.index.getUint32(at + 12, true) + this.index.getUint32(at + 16, true) - 1;
    this.inRange(newest + 1, this.captureCount, 'a capture');
    const capture = this.layout.captures + newest * CAPTURE_BYTES;
    const effect = this.index.getUint16(capture + 12, true);
    if (effect === EFFECT_DISALLOW_ALL) return ALL_DISALLOWED;
    const body = this.index.getInt32(capture + 8, true);
    if (effect === EFFECT_ALLOW_ALL || body < 0) return ALL_ALLOWED;
    this.inRange(body + 1, this.bodyCount, 'a body');
    return body;
  }

  /**
   * Refuses an index that names a record past its section (a pack edited with its checksums made again, or
   * made wrong): `end` (one past the last record named) at most `count`. Per record looked up.
   */
  private inRange(end: number, count: number, what: string): void {
    if (!(end >= 0 && end <= count)) throw new RobotsError('PACK_INVALID', `${this.name} is damaged: its index names ${what} outside it (rebuild it with robotstxt pack)`);
  }

  private capture(i: number): PackCapture {
    const at = this.layout.captures + i * CAPTURE_BYTES;
    const time = this.index.getFloat64(at, true);
    const body = this.index.getInt32(at + 8, true);
    const effect = this.index.getUint16(at + 12, true);
    return { time: Number.isNaN(time) ? null : time, body: body < 0 ? null : body, effect: EFFECTS[effect] ?? 'rules', status: this.index.getUint16(at + 14, true), hops: this.index.getUint16(at + 16, true) };
  }

  /** A body's bytes (a copy), checked against its checksum when first read. Per origin met. */
  body(body: number): Uint8Array {
    this.inRange(body + 1, this.bodyCount, 'a body');
    const at = this.layout.bodies + body * BODY_BYTES;
    return this.data(getU64(this.index, at), this.index.getUint32(at + 8, true), this.index.getUint32(at + 12, true), `body ${body}`, body);
  }

  /**
   * The blob compiled for one agent (its product token, any case) from a body: the token's own groups when
   * the body names it, else the star groups. Per origin met.
   */
  blob(body: number, agent: string): Uint8Array {
    return this.blobAt(this.blobIndex(body, agent));
  }

  /** The blob index of an agent in a body (see blob). */
  blobIndex(body: number, agent: string): number {
    this.inRange(body + 1, this.bodyCount, 'a body');
    const at = this.layout.bodies + body * BODY_BYTES;
    const first = this.index.getUint32(at + 16, true);
    const count = this.index.getUint32(at + 20, true);
    this.inRange(first + count, this.tokenCount, 'a product token');
    const token = asciiLowerCase(agent);
    // binary search of the body's tokens (sorted by their bytes)
    let low = first;
    let high = first + count - 1;
    while (low <= high) {
      const middle = (low + high) >>> 1;
      const entry = this.layout.tokens + middle * TOKEN_BYTES;
      const compared = this.compareString(this.index.getUint32(entry, true), this.index.getUint32(entry + 4, true), token);
      if (compared === 0) return this.blobNamed(this.index.getUint32(entry + 8, true));
      if (compared < 0) low = middle + 1;
      else high = middle - 1;
    }
    return this.blobNamed(this.index.getUint32(at + 24, true));
  }

  /** A blob index the index names, refused when past the blobs. */
  private blobNamed(blob: number): number {
    this.inRange(blob + 1, this.blobCount, 'a compiled rule set');
    return blob;
  }

  /** A blob's length in bytes (see blobInto). */
  blobLength(blob: number): number {
    return this.index.getUint32(this.layout.blobs + blob * BLOB_BYTES + 8, true);
  }

  /**
   * Reads a blob into target (blobLength bytes: a many-host matcher's block in its memory, so that no array
   * lies between the file and it), checked when first read. Per blob a matcher takes in.
   */
  blobInto(blob: number, target: Uint8Array): void {
    const at = this.layout.blobs + blob * BLOB_BYTES;
    const offset = getU64(this.index, at);
    const length = this.index.getUint32(at + 8, true);
    if (target.length !== length) throw new RobotsError('INVALID_ARGUMENT', `blob ${blob} is ${length} bytes, not ${target.length}`);
    this.placeCheck(offset, length, `blob ${blob}`);
    if (this.storage.readInto !== undefined) this.storage.readInto(offset, target);
    else target.set(this.storage.read(offset, length));
    this.checkOnce(target, this.index.getUint32(at + 12, true), `blob ${blob}`, this.bodyCount + blob);
  }

  /** Bytes of the index. */
  get indexLength(): number {
    return this.indexBytes.length;
  }

  /** Bytes of the data area (every body and blob, one after another). */
  get dataLength(): number {
    return this.indexOffset - HEADER_BYTES;
  }

  /**
   * What a many-host matcher holds of the pack for one agent (its product token, any case; src/core/wasm/pack-data.ts):
   * the blob the agent gets from each body, each once, in the file's order, one after another (about half
   * of the data for one agent: no body, no other agent's blob), and where each lies in them. Linear in the
   * bodies; once per matcher that may hold the pack (its index within half of the matcher's budget).
   */
  agentBlobs(agent: string): AgentBlobs {
    const token = asciiLowerCase(agent);
    const places = new Int32Array(this.blobCount).fill(-1);
    let blobs = new Int32Array(this.bodyCount);
    let offsets = new Float64Array(this.bodyCount);
    let count = 0;
    let sorted = true;
    for (let body = 0; body < this.bodyCount; body++) {
      const blob = this.blobIndex(body, token);
      if (places[blob] === 0) continue; // (a blob two bodies name: a pack made otherwise)
      places[blob] = 0;
      blobs[count] = blob;
      offsets[count] = getU64(this.index, this.layout.blobs + blob * BLOB_BYTES);
      if (count > 0 && offsets[count] < offsets[count - 1]) sorted = false;
      count++;
    }
    // in the file's order (the writer's: each body's blobs after it, so body order; sorted here when a pack's is not)
    if (sorted) {
      blobs = blobs.slice(0, count);
      offsets = offsets.slice(0, count);
    } else {
      const order = Array.from({ length: count }, (_, i) => i).sort((a, b) => offsets[a] - offsets[b]);
      [blobs, offsets] = [Int32Array.from(order, (i) => blobs[i]), Float64Array.from(order, (i) => offsets[i])];
    }
    const lengths = new Int32Array(count);
    let length = 0;
    for (let i = 0; i < count; i++) {
      lengths[i] = this.blobLength(blobs[i]);
      this.placeCheck(offsets[i], lengths[i], `blob ${blobs[i]}`);
      places[blobs[i]] = length;
      length += lengths[i];
    }
    return { blobs, offsets, lengths, places, length };
  }

  /**
   * Reads an agent's blobs (agentBlobs) into target (their length: a many-host matcher's block, which then
   * answers each in place): the data area read once in pieces through one buffer, each piece into the CRC of
   * the whole data unless it was checked already (a damaged pack is refused, nothing held), the blobs copied
   * out of it. Fresh memory touched: the blobs' bytes only. Once per matcher that holds them.
   */
  agentBlobsInto(held: AgentBlobs, target: Uint8Array): void {
    if (target.length !== held.length) throw new RobotsError('INVALID_ARGUMENT', `the agent's blobs are ${held.length} bytes, not ${target.length}`);
    const { blobs, offsets, lengths, places } = held;
    // the whole data's check owed (a pack up to WHOLE_CHECK_BYTES opened for a reader that holds it): made as it is read
    const checking = this.dataCheckOwed && !this.dataChecked;
    const end = this.indexOffset;
    const staging = this.storage.readInto !== undefined ? new Uint8Array(Math.min(HELD_READ_BYTES, Math.max(1, end - HEADER_BYTES))) : null;
    let sum = 0;
    let next = 0; // the first of the blobs not wholly copied yet
    // without checking, only the stretches that hold blobs are read
    for (let at = checking || blobs.length === 0 ? HEADER_BYTES : offsets[0]; at < end && (checking || next < blobs.length);) {
      const length = Math.min(staging?.length ?? end - at, end - at);
      const piece = staging !== null ? staging.subarray(0, length) : this.storage.read(at, length);
      if (staging !== null) this.storage.readInto!(at, piece);
      if (checking) sum = this.continued(piece, sum);
      // the blobs (or their parts) inside [at, at + length); `next` passes only blobs wholly copied (blobs of an
      // index that overlap, which no writer makes, are each copied whole all the same: a part copied again is the same bytes)
      let whole = true;
      for (let i = next; i < blobs.length && offsets[i] < at + length; i++) {
        const from = Math.max(offsets[i], at);
        const to = Math.min(offsets[i] + lengths[i], at + length);
        if (to > from) target.set(piece.subarray(from - at, to - at), places[blobs[i]] + from - offsets[i]);
        if (offsets[i] + lengths[i] > at + length) whole = false;
        else if (whole) next = i + 1;
      }
      at += length;
      if (!checking && next < blobs.length) at = Math.max(at, offsets[next]);
    }
    if (checking) {
      this.checkDataSum(sum);
      this.dataChecked = true;
      this.dataCheckOwed = false;
    } else if (!this.dataChecked) {
      // checked piece by piece (a pack over the whole check's size): each blob held, once
      blobs.forEach((blob, i) => this.checkOnce(target.subarray(places[blob], places[blob] + lengths[i]), this.index.getUint32(this.layout.blobs + blob * BLOB_BYTES + 12, true), `blob ${blob}`, this.bodyCount + blob));
    }
  }

  /** A blob's bytes by index (a copy), checked when first read. */
  blobAt(blob: number): Uint8Array {
    const at = this.layout.blobs + blob * BLOB_BYTES;
    return this.data(getU64(this.index, at), this.index.getUint32(at + 8, true), this.index.getUint32(at + 12, true), `blob ${blob}`, this.bodyCount + blob);
  }

  /** Bytes of the data area (a copy), checked once against their checksum; id: the body's index, or bodyCount + the blob's. */
  private data(offset: number, length: number, crc: number, what: string, id: number): Uint8Array {
    this.placeCheck(offset, length, what);
    const read = this.storage.read(offset, length);
    const bytes = this.storage.fresh === true ? read : new Uint8Array(read);
    this.checkOnce(bytes, crc, what, id);
    return bytes;
  }

  private placeCheck(offset: number, length: number, what: string): void {
    if (offset < HEADER_BYTES || offset + length > this.indexOffset) throw new RobotsError('PACK_INVALID', `${this.name} is damaged: its ${what} lies outside its data (rebuild it with robotstxt pack)`);
  }

  /** Checks a piece's checksum the first time it is read (none when the data area was checked whole at open). */
  private checkOnce(bytes: Uint8Array, crc: number, what: string, id: number): void {
    if (this.dataChecked || (this.checked[id >>> 3] & (1 << (id & 7))) !== 0) return;
    if (this.checksum(bytes) !== crc) throw new RobotsError('PACK_INVALID', `${this.name} is damaged: its ${what} fails its checksum (rebuild it with robotstxt pack)`);
    this.checked[id >>> 3] |= 1 << (id & 7);
  }

  /** Compares the string at strings[offset, offset + length) with a lower-case token, as bytes. */
  private compareString(offset: number, length: number, token: string): number {
    const base = this.layout.strings + offset;
    const shared = Math.min(length, token.length);
    for (let i = 0; i < shared; i++) {
      const difference = this.indexBytes[base + i] - (token.charCodeAt(i) & 0xff);
      if (difference !== 0) return difference;
    }
    return length - token.length;
  }

  /** The effect code of a capture as a word (the writer's codes). */
  static effectCode(effect: PackCapture['effect']): number {
    return effect === 'rules' ? EFFECT_RULES : effect === 'allow-all' ? EFFECT_ALLOW_ALL : EFFECT_DISALLOW_ALL;
  }
}
