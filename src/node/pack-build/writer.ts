// Writes a robots.txt pack (src/core/pack/layout.ts) as its origins are given: bodies and their compiled blobs
// go to the file as they come (a body seen before is written once: found by its CRC-32 and length, then
// compared byte by byte with the one written, so two bodies are one only when equal), the index is built in
// typed arrays (about 40 bytes an origin, 28 a distinct body, 16 a blob) and written at the end, then the
// header; the file is written beside its name and renamed into place, so a pack is whole or absent. It is not
// fsynced before the rename: a pack is made from its sources again at will, and one a crash left half on disk
// fails its checksums (the header's, the index's, the data's) and is refused with "rebuild it", never read
// wrong; the fsync cost 18-23 ms of a 0.7 s build of 54 MB here, and more the slower the disk. Memory:
// the index's arrays and a map entry per body kept for deduplication (DEDUP_BODIES at most, the oldest let
// go: a body met again after that is written again, never lost).
import type { RobotsReading } from '../../core/robots.js';
import { closeSync, openSync, readSync, renameSync, rmSync, writeSync } from 'node:fs';
import { crc32 as zlibCrc32 } from 'node:zlib';
import { RobotsError } from '../../core/errors.js';
import { packBody } from '../../core/pack/index.js';
import {
  PACK_MAGIC, PACK_FORMAT, ENGINE_SEMANTICS, FLAG_RFC, FLAG_KEY_KINDS, keyKindFlag, HEADER_BYTES, H_FORMAT, H_SEMANTICS, H_FLAGS, H_MAX_BYTES, H_ORIGINS, H_BODIES,
  H_BLOBS, H_BUCKETS, H_LENGTH, H_INDEX_OFFSET, H_INDEX_LENGTH, H_INDEX_CRC, H_DATA_CRC, H_HEADER_CRC, H_BUILT_AT, H_CAPTURES, H_TOKENS,
  ORIGIN_BYTES, CAPTURE_BYTES, BODY_BYTES, TOKEN_BYTES, BLOB_BYTES, EFFECT_RULES, EFFECT_ALLOW_ALL, EFFECT_DISALLOW_ALL,
  indexLayout, bucketCountFor, keyHash, setU64,
} from '../../core/pack/index.js';
import { describeErrno } from '../robots-file.js';

/** One capture of an origin as a source gives it: what was seen, when, and the body (effect rules): its bytes, or the index addBody gave. */
export interface CaptureInput {
  time: number | null;
  effect: 'rules' | 'allow-all' | 'disallow-all';
  body: Uint8Array | number | null;
  status: number;
  hops: number;
}

/** Distinct bodies remembered for deduplication at most (a map entry each, about 40 bytes). */
const DEDUP_BODIES = 2_000_000;
/**
 * Bodies written with the same CRC-32 and length that a new body is compared with at most (the rest are let
 * go: a body equal to one of them is written again, never lost). Worst case, stated: a body costs one CRC-32
 * and at most this many byte comparisons of its length, each a read of the body written (crafted collisions
 * cannot make deduplication quadratic).
 */
const DEDUP_CANDIDATES = 4;
/** Bytes the data area is written in at a time. */
const WRITE_BYTES = 1 << 20;

/** A growable typed array. */
class Column<T extends Uint32Array | Int32Array | Float64Array> {
  length = 0;
  constructor(public values: T, private readonly make: (size: number) => T) {}
  push(value: number): number {
    if (this.length === this.values.length) {
      const grown = this.make(this.values.length * 2);
      grown.set(this.values);
      this.values = grown;
    }
    this.values[this.length] = value;
    return this.length++;
  }
}
const u32s = (): Column<Uint32Array> => new Column(new Uint32Array(1024), (size) => new Uint32Array(size));
const i32s = (): Column<Int32Array> => new Column(new Int32Array(1024), (size) => new Int32Array(size));
const f64s = (): Column<Float64Array> => new Column(new Float64Array(1024), (size) => new Float64Array(size));

/** What a finished pack holds, for the command's summary. */
export interface PackWritten {
  origins: number;
  captures: number;
  bodies: number;
  bodyBytes: number;
  blobs: number;
  blobBytes: number;
  /** Bodies given (one per capture with rules), before deduplication, and their bytes. */
  bodiesGiven: number;
  bodyBytesGiven: number;
  bytes: number;
}

/** Builds one pack file: add origins (any order, each once), then finish(). Once per pack. */
export class PackWriter {
  private readonly temporary: string;
  private fd: number;
  private position = HEADER_BYTES;
  private dataCrc = 0;
  // the data area's bytes not yet written (one buffer reused: each new page of memory costs a fault, more than a copy)
  private readonly staging = new Uint8Array(WRITE_BYTES);
  private staged = 0;
  // origins
  private readonly originHash = u32s();
  /** The kinds of origin keys added (FLAG_*_KEYS). */
  private keyKinds = 0;
  private readonly originKeyOffset = u32s();
  private readonly originKeyLength = u32s();
  private readonly originCaptureStart = u32s();
  private readonly originCaptureCount = u32s();
  // captures
  private readonly captureTime = f64s();
  private readonly captureBody = i32s();
  private readonly captureMeta = u32s(); // effect | status << 8, hops in its own column
  private readonly captureHops = u32s();
  // bodies
  private readonly bodyOffset = f64s();
  private readonly bodyLength = u32s();
  private readonly bodyCrc = u32s();
  private readonly bodyTokenStart = u32s();
  private readonly bodyTokenCount = u32s();
  private readonly bodyStar = u32s();
  // tokens
  private readonly tokenString = u32s();
  private readonly tokenLength = u32s();
  private readonly tokenBlob = u32s();
  // blobs
  private readonly blobOffset = f64s();
  private readonly blobLength = u32s();
  private readonly blobCrc = u32s();
  // strings: keys and tokens, kept as chunks of bytes
  private readonly strings: Uint8Array[] = [];
  private stringBytes = 0;
  private readonly tokenStrings = new Map<string, number>();
  // bodies written, by (CRC-32 ^ length): their indexes (DEDUP_CANDIDATES at most a key)
  private readonly bodiesByCrc = new Map<number, number | number[]>();
  private compared = new Uint8Array(0);
  private readonly keys = new Set<string>();
  private given = { bodies: 0, bytes: 0 };
  private blobBytes = 0;
  private finished = false;

  constructor(private readonly path: string, private readonly options: { reading: RobotsReading; builtAt?: number }) {
    this.temporary = `${path}.tmp-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
    try {
      this.fd = openSync(this.temporary, 'wx+'); // (read too: a body is compared with the one written)
    } catch (error) {
      throw new RobotsError('FILE_UNWRITABLE', `cannot write pack '${path}': ${describeErrno((error as NodeJS.ErrnoException).code ?? (error as Error).message)}`);
    }
    // the header is written last, over this placeholder
    writeSync(this.fd, new Uint8Array(HEADER_BYTES), 0, HEADER_BYTES, 0);
  }

  /** Origins added so far. */
  get originCount(): number {
    return this.originHash.length;
  }

  /**
   * Adds an origin by its key (a store file key, `host:port` or `host`: src/core/pack/layout.ts) with its
   * captures, oldest first (at least one). A key given twice is refused (INVALID_ARGUMENT). Per origin.
   */
  addOrigin(key: string, captures: readonly CaptureInput[]): void {
    if (this.finished) throw new RobotsError('CLOSED', 'this pack was finished');
    if (captures.length === 0) throw new RobotsError('INVALID_ARGUMENT', `origin ${key} has no capture`);
    if (!/^[\x21-\x7e]+$/.test(key) || key.length > 2048) throw new RobotsError('INVALID_ARGUMENT', `not an origin key for a pack: ${JSON.stringify(key.slice(0, 80))}`);
    if (this.keys.has(key)) throw new RobotsError('INVALID_ARGUMENT', `origin ${key} was added twice`);
    this.keys.add(key);
    this.keyKinds |= keyKindFlag(key);
    this.originHash.push(keyHash(key));
    this.originKeyOffset.push(this.addString(key));
    this.originKeyLength.push(key.length);
    this.originCaptureStart.push(this.captureTime.length);
    this.originCaptureCount.push(captures.length);
    for (const capture of captures) {
      this.captureTime.push(capture.time ?? Number.NaN);
      this.captureBody.push(capture.effect === 'rules' && capture.body !== null ? (typeof capture.body === 'number' ? capture.body : this.addBody(capture.body)) : -1);
      const effect = capture.effect === 'rules' ? (capture.body === null ? EFFECT_ALLOW_ALL : EFFECT_RULES) : capture.effect === 'allow-all' ? EFFECT_ALLOW_ALL : EFFECT_DISALLOW_ALL;
      this.captureMeta.push(effect | (Math.min(0xffff, Math.max(0, capture.status)) << 16));
      this.captureHops.push(Math.min(0xffff, Math.max(0, capture.hops)));
    }
  }

  /** A body's index: one written before (equal bytes), or written now with its blobs (a capture may then name it by index). Per body. */
  addBody(body: Uint8Array): number {
    this.given.bodies++;
    this.given.bytes += body.length;
    const crc = zlibCrc32(body);
    const key = (crc ^ body.length) >>> 0;
    const known = this.bodiesByCrc.get(key);
    if (known !== undefined) {
      for (const candidate of typeof known === 'number' ? [known] : known) {
        if (this.bodyCrc.values[candidate] === crc && this.bodyLength.values[candidate] === body.length && this.sameAsWritten(candidate, body)) return candidate;
      }
    }
    const index = this.bodyOffset.push(this.position);
    this.bodyLength.push(body.length);
    this.bodyCrc.push(crc);
    this.write(body);
    const blobBase = this.blobOffset.length;
    const packed = packBody(body, this.options.reading.mode, (blob) => {
      this.blobOffset.push(this.position);
      this.blobLength.push(blob.length);
      this.blobCrc.push(zlibCrc32(blob));
      this.blobBytes += blob.length;
      this.write(blob);
    });
    this.bodyTokenStart.push(this.tokenString.length);
    this.bodyTokenCount.push(packed.tokens.length);
    this.bodyStar.push(blobBase + packed.star);
    for (const [token, blob] of packed.tokens) {
      let offset = this.tokenStrings.get(token);
      if (offset === undefined) this.tokenStrings.set(token, offset = this.addString(token));
      this.tokenString.push(offset);
      this.tokenLength.push(token.length);
      this.tokenBlob.push(blobBase + blob);
    }
    if (known === undefined) {
      if (this.bodiesByCrc.size >= DEDUP_BODIES) this.bodiesByCrc.delete(this.bodiesByCrc.keys().next().value as number);
      this.bodiesByCrc.set(key, index);
    } else if (typeof known === 'number') this.bodiesByCrc.set(key, [known, index]);
    else if (known.length < DEDUP_CANDIDATES) known.push(index);
    return index;
  }

  /** Whether body equals the bytes body `index` was written with (still staged, or read back from the file). */
  private sameAsWritten(index: number, body: Uint8Array): boolean {
    const offset = this.bodyOffset.values[index];
    const stagedFrom = this.position - this.staged;
    if (offset >= stagedFrom) return Buffer.from(this.staging.buffer, offset - stagedFrom, body.length).equals(body);
    if (this.compared.length < body.length) this.compared = new Uint8Array(Math.max(body.length, 2 * this.compared.length));
    const written = this.compared.subarray(0, body.length);
    try {
      let read = 0;
      while (read < written.length) {
        const got = readSync(this.fd, written, read, written.length - read, offset + read);
        if (got === 0) return false;
        read += got;
      }
    } catch (error) {
      this.abort();
      throw new RobotsError('FILE_UNWRITABLE', `cannot read back pack '${this.path}': ${describeErrno((error as NodeJS.ErrnoException).code ?? (error as Error).message)}`);
    }
    return Buffer.from(written.buffer, 0, written.length).equals(body);
  }

  private addString(text: string): number {
    const offset = this.stringBytes;
    const bytes = new Uint8Array(text.length);
    for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i) & 0xff;
    this.strings.push(bytes);
    this.stringBytes += bytes.length;
    return offset;
  }

  /**
   * Appends bytes to the data area: copied into the staging buffer, written when it is full; bytes as large
   * as it are written as they are. The bytes may be a view the caller reuses once this returns.
   */
  private write(bytes: Uint8Array): void {
    if (bytes.length === 0) return;
    this.dataCrc = zlibCrc32(bytes, this.dataCrc);
    if (this.staged + bytes.length > WRITE_BYTES) this.flush();
    if (bytes.length >= WRITE_BYTES) this.writeAt(bytes, this.position);
    else {
      this.staging.set(bytes, this.staged);
      this.staged += bytes.length;
    }
    this.position += bytes.length;
  }

  /** Writes the staged bytes (they end at `position`). */
  private flush(): void {
    if (this.staged === 0) return;
    this.writeAt(this.staging.subarray(0, this.staged), this.position - this.staged);
    this.staged = 0;
  }

  private writeAt(bytes: Uint8Array, at: number): void {
    try {
      let written = 0;
      while (written < bytes.length) written += writeSync(this.fd, bytes, written, bytes.length - written, at + written);
    } catch (error) {
      this.abort();
      throw new RobotsError('FILE_UNWRITABLE', `cannot write pack '${this.path}': ${describeErrno((error as NodeJS.ErrnoException).code ?? (error as Error).message)}`);
    }
  }

  /** Writes the index and the header, and puts the pack in place. Once. */
  finish(): PackWritten {
    if (this.finished) throw new RobotsError('CLOSED', 'this pack was finished');
    this.flush();
    const origins = this.originHash.length;
    const buckets = bucketCountFor(Math.max(1, origins));
    const layout = indexLayout({ buckets, origins, captures: this.captureTime.length, bodies: this.bodyOffset.length, tokens: this.tokenString.length, blobs: this.blobOffset.length, stringBytes: this.stringBytes });
    const index = new Uint8Array(layout.length);
    const view = new DataView(index.buffer);
    // origins in bucket order: counted per bucket, then placed (a stable counting sort)
    const starts = new Uint32Array(buckets + 1);
    for (let i = 0; i < origins; i++) starts[(this.originHash.values[i] & (buckets - 1)) + 1]++;
    for (let b = 0; b < buckets; b++) starts[b + 1] += starts[b];
    for (let b = 0; b <= buckets; b++) view.setUint32(layout.buckets + 4 * b, starts[b], true);
    const next = starts.slice(0, buckets);
    for (let i = 0; i < origins; i++) {
      const slot = next[this.originHash.values[i] & (buckets - 1)]++;
      const at = layout.origins + slot * ORIGIN_BYTES;
      view.setUint32(at, this.originHash.values[i], true);
      view.setUint32(at + 4, this.originKeyOffset.values[i], true);
      view.setUint32(at + 8, this.originKeyLength.values[i], true);
      view.setUint32(at + 12, this.originCaptureStart.values[i], true);
      view.setUint32(at + 16, this.originCaptureCount.values[i], true);
    }
    for (let i = 0; i < this.captureTime.length; i++) {
      const at = layout.captures + i * CAPTURE_BYTES;
      view.setFloat64(at, this.captureTime.values[i], true);
      view.setInt32(at + 8, this.captureBody.values[i], true);
      view.setUint16(at + 12, this.captureMeta.values[i] & 0xffff, true);
      view.setUint16(at + 14, this.captureMeta.values[i] >>> 16, true);
      view.setUint16(at + 16, this.captureHops.values[i], true);
    }
    for (let i = 0; i < this.bodyOffset.length; i++) {
      const at = layout.bodies + i * BODY_BYTES;
      setU64(view, at, this.bodyOffset.values[i]);
      view.setUint32(at + 8, this.bodyLength.values[i], true);
      view.setUint32(at + 12, this.bodyCrc.values[i], true);
      view.setUint32(at + 16, this.bodyTokenStart.values[i], true);
      view.setUint32(at + 20, this.bodyTokenCount.values[i], true);
      view.setUint32(at + 24, this.bodyStar.values[i], true);
    }
    for (let i = 0; i < this.tokenString.length; i++) {
      const at = layout.tokens + i * TOKEN_BYTES;
      view.setUint32(at, this.tokenString.values[i], true);
      view.setUint32(at + 4, this.tokenLength.values[i], true);
      view.setUint32(at + 8, this.tokenBlob.values[i], true);
    }
    for (let i = 0; i < this.blobOffset.length; i++) {
      const at = layout.blobs + i * BLOB_BYTES;
      setU64(view, at, this.blobOffset.values[i]);
      view.setUint32(at + 8, this.blobLength.values[i], true);
      view.setUint32(at + 12, this.blobCrc.values[i], true);
    }
    let at = layout.strings;
    for (const piece of this.strings) {
      index.set(piece, at);
      at += piece.length;
    }
    const indexOffset = this.position;
    this.writeAt(index, indexOffset);
    const header = new Uint8Array(HEADER_BYTES);
    const headerView = new DataView(header.buffer);
    header.set(PACK_MAGIC, 0);
    headerView.setUint32(H_FORMAT, PACK_FORMAT, true);
    headerView.setUint32(H_SEMANTICS, ENGINE_SEMANTICS, true);
    headerView.setUint32(H_FLAGS, (this.options.reading.mode === 'rfc' ? FLAG_RFC : 0) | FLAG_KEY_KINDS | this.keyKinds, true);
    headerView.setUint32(H_MAX_BYTES, this.options.reading.maxBytes, true);
    headerView.setUint32(H_ORIGINS, origins, true);
    headerView.setUint32(H_BODIES, this.bodyOffset.length, true);
    headerView.setUint32(H_BLOBS, this.blobOffset.length, true);
    headerView.setUint32(H_BUCKETS, buckets, true);
    setU64(headerView, H_LENGTH, indexOffset + index.length);
    setU64(headerView, H_INDEX_OFFSET, indexOffset);
    setU64(headerView, H_INDEX_LENGTH, index.length);
    headerView.setUint32(H_INDEX_CRC, zlibCrc32(index), true);
    headerView.setUint32(H_DATA_CRC, this.dataCrc, true);
    headerView.setFloat64(H_BUILT_AT, this.options.builtAt ?? Date.now(), true);
    headerView.setUint32(H_CAPTURES, this.captureTime.length, true);
    headerView.setUint32(H_TOKENS, this.tokenString.length, true);
    headerView.setUint32(H_HEADER_CRC, zlibCrc32(header.subarray(0, H_HEADER_CRC)), true);
    this.writeAt(header, 0);
    try {
      closeSync(this.fd);
      renameSync(this.temporary, this.path);
    } catch (error) {
      this.abort();
      throw new RobotsError('FILE_UNWRITABLE', `cannot write pack '${this.path}': ${describeErrno((error as NodeJS.ErrnoException).code ?? (error as Error).message)}`);
    }
    this.finished = true;
    let bodyBytes = 0;
    for (let i = 0; i < this.bodyLength.length; i++) bodyBytes += this.bodyLength.values[i];
    return { origins, captures: this.captureTime.length, bodies: this.bodyOffset.length, bodyBytes, blobs: this.blobOffset.length, blobBytes: this.blobBytes, bodiesGiven: this.given.bodies, bodyBytesGiven: this.given.bytes, bytes: indexOffset + index.length };
  }

  /** Drops the unfinished pack (its temporary file removed). Idempotent. */
  abort(): void {
    if (this.finished) return;
    this.finished = true;
    try { closeSync(this.fd); } catch { /* closed */ }
    rmSync(this.temporary, { force: true });
  }
}
