// The robots.txt pack's bytes (robotstxt pack; RobotsPack reads them): one file holding many origins'
// robots.txt, each distinct body once, its rules for every group already compiled, and an index from origin to
// body that answers in O(1). Little-endian throughout; offsets past 4 GiB are two u32 (low, high).
//
//   | header (HEADER_BYTES) | data: bodies and compiled blobs, one after another | index |
//
// Header:
//   0  "ROBOTPAK"         8 bytes of magic
//   8  u32 format         PACK_FORMAT: the layout below
//   12 u32 semantics      ENGINE_SEMANTICS: how bodies are compiled and verdicts made (a pack of another is never read)
//   16 u32 flags          FLAG_RFC: compiled in rfc mode (else google); FLAG_KEY_KINDS and FLAG_*_KEYS: the
//                         kinds of origin keys it holds
//   20 u32 maxBytes       the reading limit the bodies were cut at (0: whole)
//   24 u32 origins, 28 u32 bodies, 32 u32 blobs, 36 u32 buckets (a power of two)
//   40 u64 length         of the whole file
//   48 u64 indexOffset, 56 u64 indexLength
//   64 u32 indexCrc       CRC-32 of the index
//   68 u32 dataCrc        CRC-32 of the data area
//   72 u32 headerCrc      CRC-32 of bytes 0..72
//   76 f64 builtAt        ms since 1970
//   84 u32 captures, 88 u32 tokens (the counts of those index sections), 92 reserved
// Index (offsets from its start, each section aligned to 8):
//   buckets  u32[buckets + 1]: origins of bucket b are origins[buckets[b] .. buckets[b + 1])
//   origins  ORIGIN_BYTES each: hash u32 (FNV-1a of the key), key offset u32 and length u32 (strings),
//            first capture u32, captures u32
//   captures CAPTURE_BYTES each, oldest first: time f64 (ms; NaN: not known), body i32 (-1: none), effect u16
//            (EFFECT_*), status u16, hops u16, reserved u16, reserved u32
//   bodies   BODY_BYTES each: offset u64, length u32, crc u32, first token u32, tokens u32, star blob u32, reserved u32
//   tokens   TOKEN_BYTES each, per body sorted by bytes: string offset u32, length u32, blob u32
//   blobs    BLOB_BYTES each: offset u64, length u32, crc u32
//   strings  bytes (origin keys, product tokens)
// An origin key is how a robots directory names a file: a store's file key (`https@example.com`,
// `http@example.com@8080`), `host:port` or `host` (src/core/url-model.ts); the reader asks in the order a
// directory is read. A body's token table holds each product token its user-agent lines name (lower case),
// with the blob compiled for that token alone; every other single agent gets the star blob (its `*` groups, or
// none). ENGINE_SEMANTICS changes whenever a blob or a verdict could change, so no pack outlives its engine.
import { BLOB_MAGIC, ORIGIN_BYTES, CAPTURE_BYTES, BODY_BYTES, TOKEN_BYTES, BLOB_BYTES, EFFECT_RULES, EFFECT_ALLOW_ALL, EFFECT_DISALLOW_ALL } from '../constants.js';

export { ORIGIN_BYTES, CAPTURE_BYTES, BODY_BYTES, TOKEN_BYTES, BLOB_BYTES, EFFECT_RULES, EFFECT_ALLOW_ALL, EFFECT_DISALLOW_ALL };

export const PACK_MAGIC = [0x52, 0x4f, 0x42, 0x4f, 0x54, 0x50, 0x41, 0x4b]; // ROBOTPAK
export const PACK_FORMAT = 1;
/** The compile and match semantics packed blobs rely on: the blob layout's magic, and this engine's version of its rules. */
export const ENGINE_SEMANTICS = (BLOB_MAGIC ^ 0x00010001) >>> 0;
export const FLAG_RFC = 1;
/**
 * Set with the kinds of origin keys the pack holds (FLAG_*_KEYS; a pack without it may hold any): a reader
 * skips the look-ups of kinds a pack holds none of (a folder's pack has no store keys).
 */
export const FLAG_KEY_KINDS = 2;
export const FLAG_STORE_KEYS = 4;
export const FLAG_PORT_KEYS = 8;
export const FLAG_HOST_KEYS = 16;

/** The kind of an origin key as a flag: a store file key (`https@example.com`), `host:port`, or `host`. Per origin written. */
export function keyKindFlag(key: string): number {
  return key.includes('@') ? FLAG_STORE_KEYS : /:\d+$/.test(key) ? FLAG_PORT_KEYS : FLAG_HOST_KEYS;
}

export const HEADER_BYTES = 96;
export const H_FORMAT = 8;
export const H_SEMANTICS = 12;
export const H_FLAGS = 16;
export const H_MAX_BYTES = 20;
export const H_ORIGINS = 24;
export const H_BODIES = 28;
export const H_BLOBS = 32;
export const H_BUCKETS = 36;
export const H_LENGTH = 40;
export const H_INDEX_OFFSET = 48;
export const H_INDEX_LENGTH = 56;
export const H_INDEX_CRC = 64;
export const H_DATA_CRC = 68;
export const H_HEADER_CRC = 72;
export const H_BUILT_AT = 76;
export const H_CAPTURES = 84;
export const H_TOKENS = 88;


/** Where each section of the index lies, from its counts (one place for the writer and the reader). */
export interface IndexLayout {
  buckets: number;
  origins: number;
  captures: number;
  bodies: number;
  tokens: number;
  blobs: number;
  strings: number;
  /** The index's length with `stringBytes` of strings. */
  length: number;
}

const align8 = (value: number): number => (value + 7) & ~7;

/** The sections' offsets in an index of these counts. Per pack. */
export function indexLayout(counts: { buckets: number; origins: number; captures: number; bodies: number; tokens: number; blobs: number; stringBytes: number }): IndexLayout {
  const buckets = 0;
  const origins = align8(buckets + 4 * (counts.buckets + 1));
  const captures = align8(origins + ORIGIN_BYTES * counts.origins);
  const bodies = align8(captures + CAPTURE_BYTES * counts.captures);
  const tokens = align8(bodies + BODY_BYTES * counts.bodies);
  const blobs = align8(tokens + TOKEN_BYTES * counts.tokens);
  const strings = align8(blobs + BLOB_BYTES * counts.blobs);
  return { buckets, origins, captures, bodies, tokens, blobs, strings, length: strings + counts.stringBytes };
}

/** The bucket count for `origins` origins: a power of two, about one origin per bucket. */
export function bucketCountFor(origins: number): number {
  let buckets = 1;
  while (buckets < origins) buckets *= 2;
  return buckets;
}

/** FNV-1a (32 bits) of a key's bytes (origin keys are ASCII). Per look-up. */
export function keyHash(key: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) {
    hash ^= key.charCodeAt(i) & 0xff;
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

const CRC_TABLE = ((): Uint32Array => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

/** CRC-32 (IEEE, as zlib computes it) of bytes, continuing from `crc`. Linear. (Node's zlib.crc32 gives the same, faster.) */
export function crc32(bytes: Uint8Array, crc = 0): number {
  let c = ~crc >>> 0;
  for (let i = 0; i < bytes.length; i++) c = CRC_TABLE[(c ^ bytes[i]) & 0xff] ^ (c >>> 8);
  return ~c >>> 0;
}

/** A u64 written as two u32 (low, high). */
export function setU64(view: DataView, at: number, value: number): void {
  view.setUint32(at, value >>> 0, true);
  view.setUint32(at + 4, Math.floor(value / 0x1_0000_0000), true);
}

/** A u64 read from two u32 (low, high), as a number (exact below 2^53). */
export function getU64(view: DataView, at: number): number {
  return view.getUint32(at, true) + view.getUint32(at + 4, true) * 0x1_0000_0000;
}
