// Hosts answered from a robots.txt pack held in the core (src/core/wasm/pack-data.ts lays out its record, its
// index as the pack file holds it, and the agent's product token; src/core/pack/layout.ts says the index): the
// scan (hosts.ts scanLineHosts) resolves a line's new host key here, without the host, when the key is plain
// (its own canonical origin, as src/core/url-model.ts isPlainKey says: the same rule, held equal by the
// tests) and the pack has an entry for it. Each entry's slot is written once, when the pack is held
// (resolvePackOrigins): its newest capture's fixed slot (every URL allowed or disallowed), or its body's rules
// for the agent (the agent's own token's blob, else the star groups'), each blob a slot of its own made by the
// host when it held the pack (SLOT_FLAG_PACKED; the record names it per blob). Anything else (no entry, a key
// that is not plain, a number out of the index's range, a slot emptied since) is left to the host.
//
// Worst case per key: the key's bytes twice (plainness, hash), a bucket's keys compared (a few), and a word read
// (the origin's slot, written once when the pack is held: resolvePackOrigins, linear in the index).
import {
  ORIGIN_BYTES, CAPTURE_BYTES, BODY_BYTES, TOKEN_BYTES, EFFECT_ALLOW_ALL, EFFECT_DISALLOW_ALL,
  PACK_RECORD_INDEX, PACK_RECORD_BUCKETS, PACK_RECORD_ORIGINS, PACK_RECORD_CAPTURES, PACK_RECORD_BODIES, PACK_RECORD_TOKENS,
  PACK_RECORD_STRINGS, PACK_RECORD_BUCKET_COUNT, PACK_RECORD_ORIGIN_COUNT, PACK_RECORD_CAPTURE_COUNT, PACK_RECORD_BODY_COUNT,
  PACK_RECORD_TOKEN_COUNT, PACK_RECORD_BLOB_COUNT, PACK_RECORD_STRING_BYTES, PACK_RECORD_KINDS, PACK_RECORD_AGENT,
  PACK_RECORD_AGENT_LENGTH, PACK_RECORD_BLOB_SLOTS, PACK_RECORD_ALLOW_SLOT, PACK_RECORD_DISALLOW_SLOT, PACK_RECORD_RULES_MET,
  PACK_RECORD_ALLOW_MET, PACK_RECORD_DISALLOW_MET, PACK_RECORD_BODY_SLOTS, PACK_RECORD_ORIGIN_SLOTS, PACK_KIND_STORE, PACK_KIND_HOST, SLOT_FLAGS, SLOT_SIZE, SLOT_FLAG_PACKED,
} from "../src/core/constants";
import { sameBytes } from "./scan";

// "http@" and "https@" (a store key's scheme part, src/core/url-model.ts UrlOrigin.fileKey) as little-endian words
const HTTP_AT: u64 = 0x4070747468;
const HTTPS_AT: u64 = 0x407370747468;

/** "xn--" as a little-endian word (an IDNA label's prefix). */
const XN_WORD: u32 = 0x2d2d6e78;

/**
 * Whether the key [key, key + length) is plain: `http://` or `https://`, then dot-separated labels of a-z 0-9
 * '-', none empty, none starting `xn--`, the last no number (all digits, or `0x` and hex digits). The rule of
 * src/core/url-model.ts isPlainKey, byte for byte (test/url-model.test.ts holds the two equal). The host's
 * bytes 16 a step (the characters, the empty labels and each label start's `xn--` at once), then the last
 * label's; reads up to 15 bytes past the key (its callers' scratch has room). Per new key of a chunk while a
 * pack is held, mostly in a run's first tens of milliseconds, before V8 optimises the core's code: byte by
 * byte, the check cost 0.07-0.26 µs a key there (one URL per host, in-process, with and without it).
 * Worst case: the key's bytes once, plus one word per label.
 */
export function isPlainKey(key: usize, length: usize): bool {
  const end = key + length;
  const https = length > 8 && load<u8>(key + 4) == 0x73;
  const at = key + (https ? 8 : 7);
  if (at >= end) return false;
  if (load<u8>(key) != 0x68 || load<u8>(key + 1) != 0x74 || load<u8>(key + 2) != 0x74 || load<u8>(key + 3) != 0x70) return false;
  if (load<u8>(at - 3) != 0x3a || load<u8>(at - 2) != 0x2f || load<u8>(at - 1) != 0x2f) return false;
  const hostLength = end - at;
  let lastLabel = at;
  let afterDot: u32 = 1; // the host's first byte starts a label, as a byte after a dot does
  for (let offset: usize = 0; offset < hostLength; offset += 16) {
    const chunk = v128.load(at + offset);
    const left = hostLength - offset;
    const inKey: u32 = left >= 16 ? 0xffff : (<u32>1 << <u32>left) - 1;
    const dots = <u32>i8x16.bitmask(i8x16.eq(chunk, i8x16.splat(0x2e))) & inKey;
    const allowed = <u32>i8x16.bitmask(v128.or(
      v128.or(i8x16.le_u(i8x16.sub(chunk, i8x16.splat(0x61)), i8x16.splat(25)), i8x16.le_u(i8x16.sub(chunk, i8x16.splat(0x30)), i8x16.splat(9))),
      v128.or(i8x16.eq(chunk, i8x16.splat(0x2d)), i8x16.eq(chunk, i8x16.splat(0x2e))),
    ));
    if ((~allowed & inKey) != 0) return false; // a byte no label may hold
    const labelStarts = ((dots << 1) | afterDot) & inKey;
    if ((labelStarts & dots) != 0) return false; // an empty label: a dot where a label starts
    let idna = labelStarts & <u32>i8x16.bitmask(i8x16.eq(chunk, i8x16.splat(0x78)));
    while (idna != 0) {
      const labelStart = at + offset + <usize>ctz(idna);
      if (labelStart + 4 <= end && load<u32>(labelStart) == XN_WORD) return false; // xn--
      idna &= idna - 1;
    }
    if (dots != 0) lastLabel = at + offset + <usize>(32 - clz(dots));
    afterDot = (dots >> 15) & 1;
  }
  if (lastLabel == end) return false; // an empty last label (the key ends with a dot)
  // the last label: no number (WHATWG would read the host as an IPv4 address)
  let digitsOnly = true;
  let hex = lastLabel + 1 < end && load<u8>(lastLabel) == 0x30 && load<u8>(lastLabel + 1) == 0x78;
  for (let i = lastLabel; i < end; i++) {
    const c = <u32>load<u8>(i);
    const digit = c >= 0x30 && c <= 0x39;
    if (!digit) digitsOnly = false;
    if (i >= lastLabel + 2 && !(digit || (c >= 0x61 && c <= 0x66))) hex = false;
  }
  return !digitsOnly && !hex;
}

/** One byte into an FNV-1a state (src/core/pack/layout.ts keyHash, the pack index's hash). */
@inline function fnvStep(hash: u32, byte: u32): u32 {
  return (hash ^ byte) * 0x01000193;
}

/** The FNV-1a state after `length` bytes of `word` (little-endian), from `hash`. */
function fnvOfWord(hash: u32, word: u64, length: u32): u32 {
  for (let i: u32 = 0; i < length; i++) hash = fnvStep(hash, <u32>((word >> (<u64>i * 8)) & 0xff));
  return hash;
}

/** FNV-1a's offset basis, and its state after a store key's scheme part ("http@", "https@"): computed once, at start. */
const FNV_BASIS: u32 = 0x811c9dc5;
const HTTP_AT_HASH: u32 = fnvOfWord(FNV_BASIS, HTTP_AT, 5);
const HTTPS_AT_HASH: u32 = fnvOfWord(FNV_BASIS, HTTPS_AT, 6);

/** The index's origin record of the key `prefix` (prefixLength bytes of a word, their hash prefixHash) + [host, host + hostLength), or -1 (as src/core/pack/pack.ts originIndex). */
function packOrigin(record: usize, prefix: u64, prefixLength: u32, prefixHash: u32, host: usize, hostLength: u32): i32 {
  // FNV-1a, as src/core/pack/layout.ts keyHash: four bytes a step (one load; the steps are the same)
  let hash = prefixHash;
  let i: u32 = 0;
  for (; i + 4 <= hostLength; i += 4) {
    const word = load<u32>(host + i);
    hash = fnvStep(fnvStep(fnvStep(fnvStep(hash, word & 0xff), (word >> 8) & 0xff), (word >> 16) & 0xff), word >> 24);
  }
  for (; i < hostLength; i++) hash = fnvStep(hash, <u32>load<u8>(host + i));
  const index = record + <usize>load<u32>(record + PACK_RECORD_INDEX);
  const buckets = index + <usize>load<u32>(record + PACK_RECORD_BUCKETS);
  const bucket = hash & (load<u32>(record + PACK_RECORD_BUCKET_COUNT) - 1);
  const from = load<u32>(buckets + <usize>bucket * 4);
  const to = load<u32>(buckets + <usize>bucket * 4 + 4);
  if (to > load<u32>(record + PACK_RECORD_ORIGIN_COUNT)) return -1;
  const origins = index + <usize>load<u32>(record + PACK_RECORD_ORIGINS);
  const strings = index + <usize>load<u32>(record + PACK_RECORD_STRINGS);
  const stringBytes = <u64>load<u32>(record + PACK_RECORD_STRING_BYTES);
  const length = prefixLength + hostLength;
  for (let i = from; i < to; i++) {
    const at = origins + <usize>i * ORIGIN_BYTES;
    if (load<u32>(at) != hash || load<u32>(at + 8) != length) continue;
    const offset = load<u32>(at + 4);
    if (<u64>offset + <u64>length > stringBytes) continue;
    const key = strings + <usize>offset;
    let same = true;
    for (let j: u32 = 0; j < prefixLength && same; j++) same = <u32>load<u8>(key + j) == <u32>((prefix >> (<u64>j * 8)) & 0xff);
    if (same && sameBytes(key + prefixLength, host, <usize>hostLength)) return <i32>i;
  }
  return -1;
}

/** Compares [a, a + aLength) with [b, b + bLength) as bytes (the first difference, else the lengths'). */
function compareBytes(a: usize, aLength: u32, b: usize, bLength: u32): i32 {
  const shared = min(aLength, bLength);
  for (let i: u32 = 0; i < shared; i++) {
    const difference = <i32>load<u8>(a + i) - <i32>load<u8>(b + i);
    if (difference != 0) return difference;
  }
  return <i32>aLength - <i32>bLength;
}

/**
 * The slot that answers the plain key [key, key + length) from the pack held at `record`, or -1 (the host
 * resolves the key): its origin's, written when the pack was held (resolvePackOrigins). Counts what it
 * answers (PACK_RECORD_*_MET). Per new key of a chunk, while a pack is held.
 */
export function packSlotOf(record: usize, key: usize, length: u32, slots: usize): i32 {
  if (!isPlainKey(key, <usize>length)) return -1;
  const skip: u32 = load<u8>(key + 4) == 0x73 ? 8 : 7;
  const kinds = load<u32>(record + PACK_RECORD_KINDS);
  // a plain key's origin has no port: its store key, then its host (as src/node/pack/source.ts packOriginOf)
  let origin: i32 = -1;
  if ((kinds & PACK_KIND_STORE) != 0) origin = packOrigin(record, skip == 8 ? HTTPS_AT : HTTP_AT, skip - 2, skip == 8 ? HTTPS_AT_HASH : HTTP_AT_HASH, key + skip, length - skip);
  if (origin < 0 && (kinds & PACK_KIND_HOST) != 0) origin = packOrigin(record, 0, 0, FNV_BASIS, key + skip, length - skip);
  if (origin < 0) return -1;
  const answer = load<u32>(record + <usize>load<u32>(record + PACK_RECORD_ORIGIN_SLOTS) + <usize>origin * 4);
  if (answer == 0) return -1;
  const slot = answer - 1;
  if (slot == load<u32>(record + PACK_RECORD_DISALLOW_SLOT)) {
    store<u32>(record + PACK_RECORD_DISALLOW_MET, load<u32>(record + PACK_RECORD_DISALLOW_MET) + 1);
  } else if (slot == load<u32>(record + PACK_RECORD_ALLOW_SLOT)) {
    store<u32>(record + PACK_RECORD_ALLOW_MET, load<u32>(record + PACK_RECORD_ALLOW_MET) + 1);
  } else {
    if ((load<u32>(slots + <usize>slot * SLOT_SIZE + SLOT_FLAGS) & SLOT_FLAG_PACKED) == 0) return -1; // emptied since
    store<u32>(record + PACK_RECORD_RULES_MET, load<u32>(record + PACK_RECORD_RULES_MET) + 1);
  }
  return <i32>slot;
}

/**
 * Writes, once when the pack is held (its record complete, its blobs' slots made), the slot that answers each
 * origin (PACK_RECORD_ORIGIN_SLOTS): its newest capture's fixed slot (every URL allowed or disallowed), or its
 * body's rules for the agent (the agent's own token's blob, else the star groups'; PACK_RECORD_BODY_SLOTS,
 * written first, body by body); 0 where the index is out of range or the blob has no slot (the host resolves
 * those origins, and refuses the pack). Two passes in the index's order: bodies, then origins, so that the
 * scan's look-up per key reads one word where it read a capture, a body's tokens and a blob's slot, each cold.
 * Linear in the origins, plus a binary search of each body's tokens.
 */
export function resolvePackOrigins(record: usize): void {
  const index = record + <usize>load<u32>(record + PACK_RECORD_INDEX);
  const bodySlots = record + <usize>load<u32>(record + PACK_RECORD_BODY_SLOTS);
  const originSlots = record + <usize>load<u32>(record + PACK_RECORD_ORIGIN_SLOTS);
  const blobSlots = record + <usize>load<u32>(record + PACK_RECORD_BLOB_SLOTS);
  const blobCount = load<u32>(record + PACK_RECORD_BLOB_COUNT);
  const bodyCount = load<u32>(record + PACK_RECORD_BODY_COUNT);
  for (let body: u32 = 0; body < bodyCount; body++) {
    const blob = agentBlob(record, index, body);
    store<u32>(bodySlots + <usize>body * 4, blob < blobCount ? load<u32>(blobSlots + <usize>blob * 4) : 0);
  }
  const origins = index + <usize>load<u32>(record + PACK_RECORD_ORIGINS);
  const captures = index + <usize>load<u32>(record + PACK_RECORD_CAPTURES);
  const captureCount = <u64>load<u32>(record + PACK_RECORD_CAPTURE_COUNT);
  const originCount = load<u32>(record + PACK_RECORD_ORIGIN_COUNT);
  for (let origin: u32 = 0; origin < originCount; origin++) {
    const originAt = origins + <usize>origin * ORIGIN_BYTES;
    const first = load<u32>(originAt + 12);
    const count = load<u32>(originAt + 16);
    let answer: u32 = 0;
    if (count != 0 && <u64>first + <u64>count <= captureCount) {
      // the newest capture: its effect, else its body's rules
      const capture = captures + <usize>(first + count - 1) * CAPTURE_BYTES;
      const effect = <u32>load<u16>(capture + 12);
      const body = load<i32>(capture + 8);
      if (effect == EFFECT_DISALLOW_ALL) answer = load<u32>(record + PACK_RECORD_DISALLOW_SLOT) + 1;
      else if (effect == EFFECT_ALLOW_ALL || body < 0) answer = load<u32>(record + PACK_RECORD_ALLOW_SLOT) + 1;
      else if (<u32>body < bodyCount) answer = load<u32>(bodySlots + <usize>body * 4);
    }
    store<u32>(originSlots + <usize>origin * 4, answer);
  }
}

/** The blob of a body (< the body count) for the record's agent: its own token's, else the star groups'; 0xffffffff for an index out of range. */
function agentBlob(record: usize, index: usize, body: u32): u32 {
  const bodyAt = index + <usize>load<u32>(record + PACK_RECORD_BODIES) + <usize>body * BODY_BYTES;
  const firstToken = load<u32>(bodyAt + 16);
  const tokenCount = load<u32>(bodyAt + 20);
  if (<u64>firstToken + <u64>tokenCount > <u64>load<u32>(record + PACK_RECORD_TOKEN_COUNT)) return 0xffffffff;
  // the body's tokens are sorted by their bytes: the agent's own, else the star groups' blob
  let blob = load<u32>(bodyAt + 24);
  const tokens = index + <usize>load<u32>(record + PACK_RECORD_TOKENS);
  const strings = index + <usize>load<u32>(record + PACK_RECORD_STRINGS);
  const stringBytes = <u64>load<u32>(record + PACK_RECORD_STRING_BYTES);
  const agent = record + <usize>load<u32>(record + PACK_RECORD_AGENT);
  const agentLength = load<u32>(record + PACK_RECORD_AGENT_LENGTH);
  let low = <i64>firstToken;
  let high = <i64>firstToken + <i64>tokenCount - 1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    const entry = tokens + <usize>middle * TOKEN_BYTES;
    const offset = load<u32>(entry);
    const tokenLength = load<u32>(entry + 4);
    if (<u64>offset + <u64>tokenLength > stringBytes) return 0xffffffff;
    const compared = compareBytes(strings + <usize>offset, tokenLength, agent, agentLength);
    if (compared == 0) {
      blob = load<u32>(entry + 8);
      break;
    }
    if (compared < 0) low = middle + 1;
    else high = middle - 1;
  }
  return blob;
}
