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

// "http@" and "https@" (a store key's scheme part, src/core/url-model.ts UrlOrigin.fileKey) as little-endian words
const HTTP_AT: u64 = 0x4070747468;
const HTTPS_AT: u64 = 0x407370747468;

/**
 * Whether the key [key, key + length) is plain: `http://` or `https://`, then dot-separated labels of a-z 0-9
 * '-', none empty, none starting `xn--`, the last no number (all digits, or `0x` and hex digits). The rule of
 * src/core/url-model.ts isPlainKey, byte for byte. One pass over the key.
 */
export function isPlainKey(key: usize, length: usize): bool {
  const end = key + length;
  const https = length > 8 && load<u8>(key + 4) == 0x73;
  const at = key + (https ? 8 : 7);
  if (at >= end) return false;
  if (load<u8>(key) != 0x68 || load<u8>(key + 1) != 0x74 || load<u8>(key + 2) != 0x74 || load<u8>(key + 3) != 0x70) return false;
  if (load<u8>(at - 3) != 0x3a || load<u8>(at - 2) != 0x2f || load<u8>(at - 1) != 0x2f) return false;
  let labelStart = at;
  let digitsOnly = true;
  for (let i = at; i <= end; i++) {
    const c: u32 = i == end ? 0x2e : <u32>load<u8>(i);
    if (c == 0x2e) {
      if (i == labelStart) return false; // an empty label
      if (labelStart + 4 <= end && load<u8>(labelStart) == 0x78 && load<u8>(labelStart + 1) == 0x6e && load<u8>(labelStart + 2) == 0x2d && load<u8>(labelStart + 3) == 0x2d) return false; // xn--
      if (i == end) {
        // the last label: no number (WHATWG would read the host as an IPv4 address)
        if (digitsOnly) return false;
        if (labelStart + 1 < end && load<u8>(labelStart) == 0x30 && load<u8>(labelStart + 1) == 0x78) {
          let hex = true;
          for (let j = labelStart + 2; j < end; j++) {
            const d = <u32>load<u8>(j);
            if (!((d >= 0x30 && d <= 0x39) || (d >= 0x61 && d <= 0x66))) {
              hex = false;
              break;
            }
          }
          if (hex) return false;
        }
        return true;
      }
      labelStart = i + 1;
      digitsOnly = true;
      continue;
    }
    if (c >= 0x30 && c <= 0x39) continue;
    if (!((c >= 0x61 && c <= 0x7a) || c == 0x2d)) return false;
    digitsOnly = false;
  }
  return false;
}

/** The index's origin record of the key `prefix` (prefixLength bytes of a word) + [host, host + hostLength), or -1 (as src/core/pack/pack.ts originIndex). */
function packOrigin(record: usize, prefix: u64, prefixLength: u32, host: usize, hostLength: u32): i32 {
  let hash: u32 = 0x811c9dc5; // FNV-1a, as src/core/pack/layout.ts keyHash
  for (let i: u32 = 0; i < prefixLength; i++) hash = (hash ^ <u32>((prefix >> (<u64>i * 8)) & 0xff)) * 0x01000193;
  for (let i: u32 = 0; i < hostLength; i++) hash = (hash ^ <u32>load<u8>(host + i)) * 0x01000193;
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
    for (let j: u32 = 0; j < hostLength && same; j++) same = load<u8>(key + prefixLength + j) == load<u8>(host + j);
    if (same) return <i32>i;
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
  if ((kinds & PACK_KIND_STORE) != 0) origin = packOrigin(record, skip == 8 ? HTTPS_AT : HTTP_AT, skip - 2, key + skip, length - skip);
  if (origin < 0 && (kinds & PACK_KIND_HOST) != 0) origin = packOrigin(record, 0, 0, key + skip, length - skip);
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
