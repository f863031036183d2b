// Many hosts in bulk: every line's origin key (http(s)://host[:port] as WHATWG splits it), looked up in
// a host table that maps keys to matcher slots; then the lines of a chunk grouped by slot (stable), and
// each group matched with its slot's matcher bound once. Random host order costs what sorted order costs:
// a group is walked with its matcher's automaton hot, and no state is lost between hosts (each slot keeps
// its own automaton region).
//
// The host (src/core/wasm/hosts-engine.ts) owns the policy: which slots exist, what a new key resolves to (its
// canonical name, its robots.txt, or "no host"), eviction, automaton regions. This file only reads the
// tables it is given (layouts in src/core/constants.ts) and writes per-line results.
//
// Cost per line: one scan of the scheme and authority, one hash of the key, one probe (plus a key compare);
// then the verdict of its matcher (bulk.ts). Per chunk: two passes over the lines for the grouping (by host
// entry, once; a round of it then costs its own groups).
import {
  CHAR_COLON, CHAR_SLASH, CHAR_BACKSLASH, CHAR_QUESTION, CHAR_HASH, CHAR_TAB, CHAR_CR, CHAR_LF, CHAR_SPACE, CHAR_0, CHAR_9,
  CHAR_UPPER_A, CHAR_UPPER_Z, CHAR_LOWER_A, CHAR_LOWER_Z, CHAR_DOT, CHAR_HYPHEN,
  HOSTS_CAPACITY, HOSTS_USED, HOSTS_KEY_BYTES_USED, HOSTS_KEY_BYTES_CAPACITY, HOSTS_HEADER_SIZE,
  HOST_ENTRY_HASH, HOST_ENTRY_KEY_OFFSET, HOST_ENTRY_KEY_LENGTH, HOST_ENTRY_SLOT, HOST_ENTRY_GENERATION, HOST_ENTRY_GROUP_STAMP, HOST_ENTRY_GROUP, HOST_ENTRY_SIZE,
  HOST_SLOT_PENDING, HOST_SLOT_NO_HOST, LINE_NO_HOST, MAX_HOST_KEY_BYTES, HOST_KEY_ALIAS,
  SLOT_BLOB_PTR, SLOT_AUTOMATON_PTR, SLOT_AUTOMATON_BYTES, SLOT_GENERATION, SLOT_LINES, SLOT_PIN_STAMP,
  SLOT_FLAGS, SLOT_SIZE, SLOT_FLAG_MISSING_POLICY, SLOT_FLAG_RAW,
  GROUP_SLOT, GROUP_START, GROUP_COUNT, GROUP_CURSOR, GROUP_ENTRY, GROUP_SIZE, RULE_REF_SIZE,
  RAW_BODY_MAGIC, RAW_BODY_LENGTH, RAW_BODY_START, HEADER_TOTAL_LENGTH,
  SCAN_RESULT_LINES, SCAN_RESULT_PENDING, SCAN_RESULT_RUNS, SCAN_RESULT_DISTINCT, GROUP_RESULT_NO_HOST_LINES, GROUP_RESULT_HOSTS, GROUP_RESULT_PLANS,
} from "../src/core/constants";
import { answerLinesFromBody } from "./direct";
import { compileRobots } from "./select";
import { bindBlob } from "./trie";
import { bindAutomaton, automatonIsLarge } from "./dfa";
import { bindScratch } from "./match";
import { matchLine, matchLinePair, automatonAnswers, findLf, storeRuleRef } from "./bulk";
import { packSlotOf } from "./pack-hosts";
import { sameBytes } from "./scan";

@inline function isAsciiLetter(c: i32): bool {
  return (c >= CHAR_LOWER_A && c <= CHAR_LOWER_Z) || (c >= CHAR_UPPER_A && c <= CHAR_UPPER_Z);
}

@inline function isSchemeByte(c: i32): bool {
  return isAsciiLetter(c) || (c >= CHAR_0 && c <= CHAR_9) || c == 0x2b || c == CHAR_DOT || c == CHAR_HYPHEN; // + . -
}

/** Bytes WHATWG removes wherever they stand in a URL: TAB and the line breaks (a line's LF ends it first). */
@inline function isRemovedByte(c: i32): bool {
  return c == CHAR_TAB || c == CHAR_CR;
}

/** Where a special scheme's authority ends (WHATWG): / \ ? # and the end of the line. */
@inline function endsAuthority(c: i32): bool {
  return c == CHAR_SLASH || c == CHAR_BACKSLASH || c == CHAR_QUESTION || c == CHAR_HASH || c == CHAR_LF;
}

/**
 * Where the last hostKeyOf stopped, for the "same authority as the line before" shortcut: the offset from
 * the line start of the byte that ended the authority, or 0 when the shortcut may not be used (the line
 * names no host, or its authority ended in bytes WHATWG would trim).
 */
let authorityEnd: usize = 0;

// "http://" and "https://" as the first bytes' words (any case once OR-ed with 0x20 where letters are)
const HTTP_WORD: u64 = 0x2f2f3a70747468; // "http://" (7 bytes)
const HTTPS_WORD: u64 = 0x2f2f3a7370747468; // "https://"
const SEVEN_BYTE_MASK: u64 = 0x00ffffffffffffff;
const HTTP_CASE: u64 = 0x20202020; // the four letters of "http"
const HTTPS_CASE: u64 = 0x2020202020; // and the "s"

/**
 * hostKeyOf's common case, 16 bytes a step: the line starts with `http://` or `https://` (any case) and its
 * authority, up to the first / \ ? # or line end, holds no '@' and no byte <= 0x20 (no user info, nothing
 * removed or trimmed) in at most MAX_HOST_KEY_BYTES: the key and authorityEnd hostKeyOf's loop would give.
 * Returns -1 for any other line (hostKeyOf's loop reads it). Reads up to 15 bytes past the line end (the
 * callers' chunks have SENTINEL_SLACK after their final LF).
 */
function plainHostKeyOf(p: usize, key: usize): i32 {
  const word = load<u64>(p);
  let k: usize;
  if (((word | HTTPS_CASE) == HTTPS_WORD)) k = 8;
  else if (((word | HTTP_CASE) & SEVEN_BYTE_MASK) == HTTP_WORD) k = 7;
  else return -1;
  const first = <i32>load<u8>(p + k);
  if (first == CHAR_SLASH || first == CHAR_BACKSLASH) return -1; // more slashes: the loop skips them
  store<u64>(key, k == 8 ? HTTPS_WORD : HTTP_WORD);
  let q = p + k;
  while (true) {
    const chunk = v128.load(q);
    const enders = i8x16.bitmask(v128.or(
      v128.or(i8x16.eq(chunk, i8x16.splat(<i8>CHAR_SLASH)), i8x16.eq(chunk, i8x16.splat(<i8>CHAR_BACKSLASH))),
      v128.or(v128.or(i8x16.eq(chunk, i8x16.splat(<i8>CHAR_QUESTION)), i8x16.eq(chunk, i8x16.splat(<i8>CHAR_HASH))), i8x16.eq(chunk, i8x16.splat(<i8>CHAR_LF))),
    ));
    const slow = i8x16.bitmask(v128.or(i8x16.eq(chunk, i8x16.splat(0x40)), i8x16.le_u(chunk, i8x16.splat(<i8>CHAR_SPACE))));
    const end = enders == 0 ? 16 : <i32>ctz(enders);
    if ((slow & ((1 << end) - 1)) != 0) return -1;
    if (k + <usize>end > <usize>MAX_HOST_KEY_BYTES) return -1;
    const upper = v128.and(i8x16.ge_u(chunk, i8x16.splat(<i8>CHAR_UPPER_A)), i8x16.le_u(chunk, i8x16.splat(<i8>CHAR_UPPER_Z)));
    v128.store(key + k, v128.or(chunk, v128.and(upper, i8x16.splat(0x20))));
    k += <usize>end;
    q += <usize>end;
    if (end < 16) break;
  }
  authorityEnd = q - p;
  return <i32>k;
}

/**
 * The origin key of the URL line at p (it ends at an LF), read the way the WHATWG URL parser (Node's fetch,
 * undici, browsers) reads it, into key: `http://` or `https://`, then the authority after its last '@' (the
 * user info dropped), ASCII lower-cased. The split is WHATWG's: leading C0 controls and spaces skipped, TAB
 * and CR removed anywhere, the scheme's letters case-insensitive, any run of '/' and '\' after `http:` or
 * `https:` skipped (`http:host`, `http:\\host`), the authority ending at the first / \ ? # or the line's end
 * (C0 controls and spaces trimmed there). ';' ends nothing. The host decides nothing else: the key goes to
 * the host (src/core/url-model.ts originOfKey), which resolves it with the WHATWG parser once per distinct key
 * (percent-decoding, IDNA, IPv4 forms, default ports), so the origin is the one an HTTP client contacts.
 * Returns the key's length, or -1 when the line is not an http(s) URL or its authority is longer than
 * MAX_HOST_KEY_BYTES (no DNS name is that long: 253 bytes, x3 when percent-encoded). Cost: one pass over
 * the scheme and authority. Worst case: MAX_HOST_KEY_BYTES + the line's leading junk.
 */
export function hostKeyOf(p: usize, key: usize): i32 {
  const fast = plainHostKeyOf(p, key);
  if (fast >= 0) return fast;
  authorityEnd = 0;
  let q = p;
  let c = <i32>load<u8>(q);
  while (c <= CHAR_SPACE && c != CHAR_LF) c = <i32>load<u8>(++q);
  if (!isAsciiLetter(c)) return -1;
  // the scheme: only http and https have a robots.txt
  let k: usize = 0;
  while (true) {
    c = <i32>load<u8>(q);
    if (isRemovedByte(c)) {
      q++;
      continue;
    }
    if (!isSchemeByte(c)) break;
    if (k == 5) return -1;
    store<u8>(key + k++, <u8>(c | 0x20));
    q++;
  }
  if (c != CHAR_COLON) return -1;
  q++;
  if (k != 4 && k != 5) return -1;
  if (load<u32>(key) != 0x70747468) return -1; // "http"
  if (k == 5 && load<u8>(key + 4) != 0x73) return -1; // "https"
  store<u8>(key + k++, <u8>CHAR_COLON);
  store<u8>(key + k++, <u8>CHAR_SLASH);
  store<u8>(key + k++, <u8>CHAR_SLASH);
  const hostStart = k;
  while (true) {
    c = <i32>load<u8>(q);
    if (c == CHAR_SLASH || c == CHAR_BACKSLASH || isRemovedByte(c)) q++;
    else break;
  }
  // the authority: [userinfo@]host[:port]; the host starts after the last '@' (user info of any length
  // is skipped: only the host after it must fit the key)
  let tooLong = false;
  while (true) {
    c = <i32>load<u8>(q);
    if (endsAuthority(c)) break;
    q++;
    if (isRemovedByte(c)) continue;
    if (c == 0x40) {
      k = hostStart; // '@': what came before is user info
      tooLong = false;
      continue;
    }
    if (k >= <usize>MAX_HOST_KEY_BYTES) {
      tooLong = true;
      continue;
    }
    store<u8>(key + k++, <u8>(c >= CHAR_UPPER_A && c <= CHAR_UPPER_Z ? c | 0x20 : c));
  }
  if (tooLong) return -1;
  let trimmed = false;
  if (c == CHAR_LF) {
    // the end of the line: WHATWG trims C0 controls and spaces there
    while (k > hostStart && <i32>load<u8>(key + k - 1) <= CHAR_SPACE) {
      k--;
      trimmed = true;
    }
  }
  // the shortcut is safe when the bytes before the end are no trimmed or removed bytes
  const last = <i32>load<u8>(q - 1);
  authorityEnd = trimmed || last <= CHAR_SPACE ? 0 : q - p;
  return <i32>k;
}

/**
 * True when the line at p starts with the previous line's bytes up to where its authority ended and its
 * own authority ends there too: its key is the previous line's (sorted input: most lines).
 */
@inline function sameAuthorityAsPrevious(p: usize, previousStart: usize, previousLength: usize): bool {
  return previousLength > 0 && endsAuthority(<i32>load<u8>(p + previousLength)) && sameBytes(p, previousStart, previousLength);
}

/**
 * A 32-bit hash of key bytes, 8 bytes a step (each word multiplied in and its high half folded down, so the
 * low bits the table's mask keeps depend on every byte); the last 1-7 bytes as the word that ends the key
 * (its bytes before them read again; the length is mixed in first, so keys that differ only there still
 * differ), or byte by byte for a key under 8 bytes. Reads no byte past the key. (Only this module's tables
 * and the threads' shares of hosts use it: nothing stored depends on its values.)
 */
function hashKey(key: usize, length: usize): u32 {
  let hash: u64 = 0x9e3779b97f4a7c15 ^ <u64>length;
  let i: usize = 0;
  for (; i + 8 <= length; i += 8) {
    hash = (hash ^ load<u64>(key + i)) * 0xff51afd7ed558ccd;
    hash ^= hash >> 32;
  }
  if (i < length) {
    let tail: u64 = 0;
    if (length >= 8) tail = load<u64>(key + length - 8);
    else for (let j = length; j > i; j--) tail = (tail << 8) | <u64>load<u8>(key + j - 1);
    hash = (hash ^ tail) * 0xc4ceb9fe1a85ec53;
  }
  hash ^= hash >> 29;
  return <u32>(hash ^ (hash >> 32));
}

@inline function entryAddress(table: usize, index: u32): usize {
  return table + HOSTS_HEADER_SIZE + <usize>index * HOST_ENTRY_SIZE;
}

@inline function slotAddress(slots: usize, slot: u32): usize {
  return slots + <usize>slot * SLOT_SIZE;
}

/**
 * The entry of key [key, key + length) in the table as a canonical name (entries flagged HOST_KEY_ALIAS do
 * not match): its index when present; else, in probeFree, where it would go (the first empty entry of its
 * probe run). Open addressing, linear probing.
 */
let probeFree: u32 = 0;
function probeKey(table: usize, key: usize, length: u32, hash: u32): i32 {
  const mask = load<u32>(table + HOSTS_CAPACITY) - 1;
  const keys = table + HOSTS_HEADER_SIZE + <usize>(mask + 1) * HOST_ENTRY_SIZE;
  let index = hash & mask;
  while (true) {
    const entry = entryAddress(table, index);
    if (load<u32>(entry + HOST_ENTRY_SLOT) == 0) {
      probeFree = index;
      return -1;
    }
    if (load<u32>(entry + HOST_ENTRY_HASH) == hash && load<u32>(entry + HOST_ENTRY_KEY_LENGTH) == length &&
        sameBytes(keys + <usize>load<u32>(entry + HOST_ENTRY_KEY_OFFSET), key, <usize>length)) return <i32>index;
    index = (index + 1) & mask;
  }
}

/**
 * The slot that answers a canonical host name [keyPtr, keyPtr + keyLen), or -1. The host looks a name up
 * as it is (a line's key that is its own canonical name) and with a NUL in front (names remembered for
 * other spellings: no key from a line starts with NUL).
 */
export function findHostSlot(table: usize, slots: usize, keyPtr: usize, keyLen: u32): i32 {
  const index = probeKey(table, keyPtr, keyLen, hashKey(keyPtr, <usize>keyLen));
  if (index < 0) return -1;
  const entry = entryAddress(table, <u32>index);
  const slotWord = load<u32>(entry + HOST_ENTRY_SLOT);
  if (slotWord == <u32>HOST_SLOT_PENDING || slotWord == <u32>HOST_SLOT_NO_HOST) return -1;
  return load<u32>(slotAddress(slots, slotWord - 1) + SLOT_GENERATION) == load<u32>(entry + HOST_ENTRY_GENERATION) ? <i32>(slotWord - 1) : -1;
}

/**
 * Makes key [keyPtr, keyPtr + keyLen) answer slot (its current generation): the host remembers a canonical
 * name this way, so that other spellings of it (a trailing dot, an IDN) find its matcher. Returns false when
 * the table has no room (nothing is remembered then).
 */
export function rememberHost(table: usize, slots: usize, keyPtr: usize, keyLen: u32, slot: u32): bool {
  const hash = hashKey(keyPtr, <usize>keyLen);
  let index = probeKey(table, keyPtr, keyLen, hash);
  if (index < 0) {
    const capacity = load<u32>(table + HOSTS_CAPACITY);
    const used = load<u32>(table + HOSTS_USED);
    const keyBytesUsed = load<u32>(table + HOSTS_KEY_BYTES_USED);
    if (used + 1 > capacity - (capacity >> 2) || keyBytesUsed + keyLen > load<u32>(table + HOSTS_KEY_BYTES_CAPACITY)) return false;
    index = <i32>probeFree;
    const entry = entryAddress(table, <u32>index);
    memory.copy(table + HOSTS_HEADER_SIZE + <usize>capacity * HOST_ENTRY_SIZE + <usize>keyBytesUsed, keyPtr, <usize>keyLen);
    store<u32>(entry + HOST_ENTRY_HASH, hash);
    store<u32>(entry + HOST_ENTRY_KEY_OFFSET, keyBytesUsed);
    store<u32>(entry + HOST_ENTRY_KEY_LENGTH, keyLen);
    store<u32>(table + HOSTS_USED, used + 1);
    store<u32>(table + HOSTS_KEY_BYTES_USED, keyBytesUsed + keyLen);
  }
  const entry = entryAddress(table, <u32>index);
  store<u32>(entry + HOST_ENTRY_SLOT, slot + 1);
  store<u32>(entry + HOST_ENTRY_GENERATION, load<u32>(slotAddress(slots, slot) + SLOT_GENERATION));
  return true;
}

/** Returned by scanLineHosts when the table or its key bytes filled up: the host makes room and scans again. */
export const SCAN_TABLE_FULL: i32 = -1;

/**
 * First pass over a chunk of LF-separated lines (an LF sentinel after them): per line its start (offset
 * from inputPtr, u32 at lineStartsPtr) and its host entry (u32 at entriesPtr: an entry index, or
 * LINE_NO_HOST). Keys not in the table are added with HOST_SLOT_PENDING and listed once at pendingPtr;
 * entries whose slot has been emptied since (another generation), and entries an earlier scan left pending
 * (their generation field holds that scan's stamp), are listed again. Slots met are stamped
 * (SLOT_PIN_STAMP = stamp). A new key (or one whose slot was emptied) that the pack held in the core answers
 * (pack: its record, 0: none; pack-hosts.ts) is resolved here, never pending. Writes the line count, the pending
 * entries, the runs of lines of one entry and the entries named (SCAN_RESULT_*). Returns the line count, or
 * SCAN_TABLE_FULL (nothing usable was written).
 */
export function scanLineHosts(inputPtr: usize, inputLen: usize, table: usize, slots: usize, stamp: u32, lineStartsPtr: usize, entriesPtr: usize, pendingPtr: usize, keyScratch: usize, resultPtr: usize, pack: usize): i32 {
  const end = inputPtr + inputLen;
  const capacity = load<u32>(table + HOSTS_CAPACITY);
  const mask = capacity - 1;
  const full = capacity - (capacity >> 2);
  const keys = table + HOSTS_HEADER_SIZE + <usize>capacity * HOST_ENTRY_SIZE;
  const keyCapacity = load<u32>(table + HOSTS_KEY_BYTES_CAPACITY);
  let used = load<u32>(table + HOSTS_USED);
  let keyBytesUsed = load<u32>(table + HOSTS_KEY_BYTES_USED);
  let pending: u32 = 0;
  let count: u32 = 0;
  let p = inputPtr;
  // the previous line's scheme and authority, and its entry: a line that starts with the same bytes, then
  // ends its authority, has the same host (sorted input: most lines)
  let previousStart: usize = 0;
  let previousLength: usize = 0;
  let previousLine: u32 = <u32>LINE_NO_HOST;
  let runs: u32 = 0;
  let distinct: u32 = 0;
  let runEntry: u32 = <u32>LINE_NO_HOST - 1; // no entry has this value
  while (p < end) {
    store<u32>(lineStartsPtr + <usize>count * 4, <u32>(p - inputPtr));
    if (sameAuthorityAsPrevious(p, previousStart, previousLength)) {
      store<u32>(entriesPtr + <usize>count * 4, previousLine);
      count++;
      p = findLf(p + previousLength) + 1;
      continue;
    }
    const length = hostKeyOf(p, keyScratch);
    let line: u32 = <u32>LINE_NO_HOST;
    if (length >= 0) {
      const hash = hashKey(keyScratch, <usize>length);
      let index = hash & mask;
      while (true) {
        const entry = entryAddress(table, index);
        const slotWord = load<u32>(entry + HOST_ENTRY_SLOT);
        if (slotWord == 0) {
          // a new key: answered from the pack held in the core when it can be, else added as pending
          if (used + 1 > full || keyBytesUsed + <u32>length > keyCapacity) return SCAN_TABLE_FULL;
          memory.copy(keys + <usize>keyBytesUsed, keyScratch, <usize>length);
          store<u32>(entry + HOST_ENTRY_HASH, hash);
          store<u32>(entry + HOST_ENTRY_KEY_OFFSET, keyBytesUsed);
          store<u32>(entry + HOST_ENTRY_KEY_LENGTH, <u32>length);
          keyBytesUsed += <u32>length;
          used++;
          distinct++;
          if (!resolveFromPack(pack, entry, keyScratch, <u32>length, slots, stamp)) {
            store<u32>(entry + HOST_ENTRY_SLOT, <u32>HOST_SLOT_PENDING);
            store<u32>(entry + HOST_ENTRY_GENERATION, stamp); // a pending entry: the scan that listed it
            store<u32>(pendingPtr + <usize>(pending++) * 4, index);
          }
          break;
        }
        if (load<u32>(entry + HOST_ENTRY_HASH) == hash && (load<u32>(entry + HOST_ENTRY_KEY_LENGTH) & ~HOST_KEY_ALIAS) == <u32>length &&
            sameBytes(keys + <usize>load<u32>(entry + HOST_ENTRY_KEY_OFFSET), keyScratch, <usize>length)) {
          if (slotWord == <u32>HOST_SLOT_PENDING) {
            // left pending by an earlier scan whose chunk was not finished: listed again, once per scan
            if (load<u32>(entry + HOST_ENTRY_GENERATION) != stamp) {
              store<u32>(entry + HOST_ENTRY_GENERATION, stamp);
              store<u32>(pendingPtr + <usize>(pending++) * 4, index);
              distinct++;
            }
          } else if (slotWord != <u32>HOST_SLOT_NO_HOST) {
            const slot = slotAddress(slots, slotWord - 1);
            if (load<u32>(slot + SLOT_GENERATION) == load<u32>(entry + HOST_ENTRY_GENERATION)) {
              if (load<u32>(slot + SLOT_PIN_STAMP) != stamp) distinct++;
              store<u32>(slot + SLOT_PIN_STAMP, stamp);
            } else if (resolveFromPack(pack, entry, keyScratch, <u32>length, slots, stamp)) {
              // its matcher was evicted: answered from the pack held in the core
              distinct++;
            } else {
              // its matcher was evicted: the host resolves the key again
              store<u32>(entry + HOST_ENTRY_SLOT, <u32>HOST_SLOT_PENDING);
              store<u32>(entry + HOST_ENTRY_GENERATION, stamp);
              store<u32>(pendingPtr + <usize>(pending++) * 4, index);
              distinct++;
            }
          }
          break;
        }
        index = (index + 1) & mask;
      }
      line = index;
      previousStart = p;
      previousLength = authorityEnd;
      previousLine = line;
    } else {
      previousLength = 0;
    }
    store<u32>(entriesPtr + <usize>count * 4, line);
    if (line != runEntry) {
      runs++;
      runEntry = line;
    }
    count++;
    p = findLf(p) + 1;
  }
  store<u32>(table + HOSTS_USED, used);
  store<u32>(table + HOSTS_KEY_BYTES_USED, keyBytesUsed);
  store<u32>(resultPtr + SCAN_RESULT_LINES, count);
  store<u32>(resultPtr + SCAN_RESULT_PENDING, pending);
  store<u32>(resultPtr + SCAN_RESULT_RUNS, runs);
  store<u32>(resultPtr + SCAN_RESULT_DISTINCT, distinct);
  return <i32>count;
}

/**
 * Points a table entry at the slot that answers its key from the pack held in the core (pack: its record, 0:
 * none; see pack-hosts.ts), pinned for this scan. Returns false when the pack cannot answer it (the host does).
 */
@inline function resolveFromPack(pack: usize, entry: usize, key: usize, length: u32, slots: usize, stamp: u32): bool {
  if (pack == 0) return false;
  const slot = packSlotOf(pack, key, length, slots);
  if (slot < 0) return false;
  const record = slotAddress(slots, <u32>slot);
  store<u32>(entry + HOST_ENTRY_SLOT, <u32>slot + 1);
  store<u32>(entry + HOST_ENTRY_GENERATION, load<u32>(record + SLOT_GENERATION));
  store<u32>(record + SLOT_PIN_STAMP, stamp);
  return true;
}

/**
 * Groups the lines of a chunk by host entry, once per chunk, keeping input order inside a group: GROUP_SIZE
 * records at groupsPtr (GROUP_ENTRY: the entry, or LINE_NO_HOST for the lines that name no host) and the line
 * indexes, group after group, at orderPtr. The groups of entries resolved already (cached hosts) and of lines
 * without a host come first, in order of first appearance; then one group per pending entry, in the order of
 * the pendingCount entries listed at pendingPtr (the scan's pending list), each of which is overwritten with
 * its group's index. The host resolves pending entries in that order, so once the entries before one are
 * resolved, so are the groups before its group: a round answers them (slotGroups, matchGroups), the cached
 * hosts' groups in the first round (before anything the scan pinned can be unpinned). Returns the number of
 * groups. Three passes over the lines; each group's entry is stamped (HOST_ENTRY_GROUP_STAMP) with the
 * chunk's stamp, so no table-sized array is cleared.
 */
export function groupLinesByEntry(lineCount: u32, entriesPtr: usize, table: usize, stamp: u32, groupsPtr: usize, orderPtr: usize, pendingPtr: usize, pendingCount: u32): u32 {
  let groups: u32 = 0;
  let noHostGroup: u32 = 0xffffffff;
  // the resolved entries' groups and the no-host group, counted as they come
  for (let i: u32 = 0; i < lineCount; i++) {
    const line = load<u32>(entriesPtr + <usize>i * 4);
    let group: u32;
    if (line == <u32>LINE_NO_HOST) {
      if (noHostGroup == 0xffffffff) {
        noHostGroup = groups++;
        newGroup(groupsPtr, noHostGroup, <u32>LINE_NO_HOST);
      }
      group = noHostGroup;
    } else {
      const entry = entryAddress(table, line);
      if (load<u32>(entry + HOST_ENTRY_SLOT) == <u32>HOST_SLOT_PENDING) continue;
      if (load<u32>(entry + HOST_ENTRY_GROUP_STAMP) != stamp) {
        store<u32>(entry + HOST_ENTRY_GROUP_STAMP, stamp);
        group = groups++;
        store<u32>(entry + HOST_ENTRY_GROUP, group);
        newGroup(groupsPtr, group, line);
      } else {
        group = load<u32>(entry + HOST_ENTRY_GROUP);
      }
    }
    const record = groupsPtr + <usize>group * GROUP_SIZE;
    store<u32>(record + GROUP_COUNT, load<u32>(record + GROUP_COUNT) + 1);
  }
  // the pending entries' groups, in the pending list's order, then their lines counted
  for (let k: u32 = 0; k < pendingCount; k++) {
    const at = pendingPtr + <usize>k * 4;
    const line = load<u32>(at);
    const entry = entryAddress(table, line);
    const group = groups++;
    store<u32>(entry + HOST_ENTRY_GROUP_STAMP, stamp);
    store<u32>(entry + HOST_ENTRY_GROUP, group);
    newGroup(groupsPtr, group, line);
    store<u32>(at, group);
  }
  if (pendingCount > 0) {
    for (let i: u32 = 0; i < lineCount; i++) {
      const line = load<u32>(entriesPtr + <usize>i * 4);
      if (line == <u32>LINE_NO_HOST) continue;
      const entry = entryAddress(table, line);
      if (load<u32>(entry + HOST_ENTRY_SLOT) != <u32>HOST_SLOT_PENDING) continue;
      const record = groupsPtr + <usize>load<u32>(entry + HOST_ENTRY_GROUP) * GROUP_SIZE;
      store<u32>(record + GROUP_COUNT, load<u32>(record + GROUP_COUNT) + 1);
    }
  }
  let start: u32 = 0;
  for (let g: u32 = 0; g < groups; g++) {
    const record = groupsPtr + <usize>g * GROUP_SIZE;
    store<u32>(record + GROUP_START, start);
    store<u32>(record + GROUP_CURSOR, start);
    start += load<u32>(record + GROUP_COUNT);
  }
  for (let i: u32 = 0; i < lineCount; i++) {
    const line = load<u32>(entriesPtr + <usize>i * 4);
    const group = line == <u32>LINE_NO_HOST ? noHostGroup : load<u32>(entryAddress(table, line) + HOST_ENTRY_GROUP);
    const record = groupsPtr + <usize>group * GROUP_SIZE;
    const at = load<u32>(record + GROUP_CURSOR);
    store<u32>(orderPtr + <usize>at * 4, i);
    store<u32>(record + GROUP_CURSOR, at + 1);
  }
  return groups;
}

@inline function newGroup(groupsPtr: usize, group: u32, entry: u32): void {
  const record = groupsPtr + <usize>group * GROUP_SIZE;
  store<u32>(record + GROUP_SLOT, 0);
  store<u32>(record + GROUP_COUNT, 0);
  store<u32>(record + GROUP_ENTRY, entry);
}

/**
 * Writes the slot of each group in [from, to) (a round, every entry in it resolved): the entry's slot, or
 * missingSlot for lines that name no host (no key, or a key resolved as naming none), ordered by slot. Lists
 * at plansPtr the groups the host must plan before the match (GROUP_RESULT_PLANS of them: a raw body's slot
 * (SLOT_FLAG_RAW), one with an automaton region, one whose lines reach planLines with the round's) and counts
 * the groups of hosts' matchers (GROUP_RESULT_HOSTS: neither fixedA nor fixedB, the fixed slots). Returns the
 * lines of the round that name no host (also at resultPtr + GROUP_RESULT_NO_HOST_LINES). Linear in the groups.
 */
export function slotGroups(groupsPtr: usize, from: u32, to: u32, table: usize, missingSlot: u32, resultPtr: usize, scratchPtr: usize, slotCount: u32, slots: usize, fixedA: u32, fixedB: u32, planLines: u32, plansPtr: usize): u32 {
  let noHost: u32 = 0;
  for (let g = from; g < to; g++) {
    const record = groupsPtr + <usize>g * GROUP_SIZE;
    const line = load<u32>(record + GROUP_ENTRY);
    const slotWord = line == <u32>LINE_NO_HOST ? <u32>HOST_SLOT_NO_HOST : load<u32>(entryAddress(table, line) + HOST_ENTRY_SLOT);
    if (slotWord == <u32>HOST_SLOT_NO_HOST) {
      noHost += load<u32>(record + GROUP_COUNT);
      store<u32>(record + GROUP_SLOT, missingSlot);
    } else {
      store<u32>(record + GROUP_SLOT, slotWord - 1);
    }
  }
  if (to - from > 1 && slotCount > 0) sortGroupsBySlot(groupsPtr, from, to, scratchPtr, slotCount);
  // the groups the host must look at before the match (in the order above): a raw body's (compiled when it
  // brings enough lines), a slot with an automaton region (grown when it filled up), one whose lines reach
  // planLines with this round's (it gets a region); every other group of a host's matcher only counts
  let hosts: u32 = 0;
  let plans: u32 = 0;
  for (let g = from; g < to; g++) {
    const record = groupsPtr + <usize>g * GROUP_SIZE;
    const slot = load<u32>(record + GROUP_SLOT);
    if (slot == fixedA || slot == fixedB) continue;
    hosts++;
    const slotRecord = slotAddress(slots, slot);
    if ((load<u32>(slotRecord + SLOT_FLAGS) & SLOT_FLAG_RAW) != 0 || load<u32>(slotRecord + SLOT_AUTOMATON_BYTES) != 0 ||
        <u64>load<u32>(slotRecord + SLOT_LINES) + <u64>load<u32>(record + GROUP_COUNT) >= <u64>planLines) store<u32>(plansPtr + <usize>(plans++) * 4, g);
  }
  store<u32>(resultPtr + GROUP_RESULT_NO_HOST_LINES, noHost);
  store<u32>(resultPtr + GROUP_RESULT_HOSTS, hosts);
  store<u32>(resultPtr + GROUP_RESULT_PLANS, plans);
  return noHost;
}

/**
 * Orders the round's group records by slot (stable; a counting sort in scratch: (slotCount + 1) words, then
 * the records): hosts answered by one matcher (a pack's origins of one body) are matched one after another,
 * its blob and automaton still in cache. O(groups + slots).
 */
function sortGroupsBySlot(groupsPtr: usize, from: u32, to: u32, scratchPtr: usize, slotCount: u32): void {
  const starts = scratchPtr;
  const out = (scratchPtr + <usize>(slotCount + 1) * 4 + 15) & ~<usize>15;
  memory.fill(starts, 0, <usize>(slotCount + 1) * 4);
  for (let g = from; g < to; g++) {
    const slot = load<u32>(groupsPtr + <usize>g * GROUP_SIZE + GROUP_SLOT);
    const at = starts + (<usize>slot + 1) * 4;
    store<u32>(at, load<u32>(at) + 1);
  }
  let sum: u32 = 0;
  for (let slot: u32 = 0; slot <= slotCount; slot++) {
    const at = starts + <usize>slot * 4;
    sum += load<u32>(at);
    store<u32>(at, sum);
  }
  for (let g = from; g < to; g++) {
    const record = groupsPtr + <usize>g * GROUP_SIZE;
    const at = starts + <usize>load<u32>(record + GROUP_SLOT) * 4;
    const index = load<u32>(at);
    store<u32>(at, index + 1);
    memory.copy(out + <usize>index * GROUP_SIZE, record, GROUP_SIZE);
  }
  memory.copy(groupsPtr + <usize>from * GROUP_SIZE, out, <usize>(to - from) * GROUP_SIZE);
}

/** Where touchGroup's loads go (a global, so that they are not optimised away). */
let touched: u32 = 0;
/** Rules touched before a group is matched: a compiled rule set's first bytes at most (its header, trie and literal index come first). */
const TOUCHED_RULES_BYTES: u32 = 16384;

/**
 * Loads one byte of each 64-byte line of a group's rules (its first TOUCHED_RULES_BYTES) and the first two
 * cache lines of each of its lines before the group is matched. In random host order a group's lines lie
 * scattered over the window and its rules are cold: the matcher's loads depend on one another and meet
 * those misses one after another, where these independent loads let them overlap. Measured on bench:pack's
 * crawl (--pack, --threads 1, 7 alternating pairs, medians): random host order 0.785 s against 0.908 s
 * without; sorted by host unchanged (0.409 s against 0.412 s). A block of 0: the rules not touched (the
 * group before had the same, in cache). Worst case: count + TOUCHED_RULES_BYTES / 64 loads a group.
 */
function touchGroup(inputPtr: usize, lineStartsPtr: usize, orderPtr: usize, start: u32, count: u32, block: usize): void {
  let sink: u32 = 0;
  const rulesBytes: usize = block == 0 ? 0 : <usize>min<u32>(load<u32>(block + HEADER_TOTAL_LENGTH), TOUCHED_RULES_BYTES);
  for (let offset: usize = 0; offset < rulesBytes; offset += 64) sink += <u32>load<u8>(block + offset);
  if (count > 1) {
    // (a line's second cache line: 60 bytes on, within the memory; lines are 40-60 bytes long mostly)
    const last = (<usize>memory.size() << 16) - 1;
    for (let k: u32 = 0; k < count; k++) {
      const line = inputPtr + <usize>load<u32>(lineStartsPtr + <usize>load<u32>(orderPtr + <usize>(start + k) * 4) * 4);
      sink += <u32>load<u8>(line) + <u32>load<u8>(min(line + 60, last));
    }
  }
  touched += sink;
}

/**
 * Matches the groups [firstGroup, groupCount) (a round; their slots written by slotGroups): each slot's
 * matcher (blob and automaton region) bound once, then its lines (starts at lineStartsPtr, offsets from
 * inputPtr; an LF sentinel after the chunk); the verdict of line i goes to verdictsPtr + i, and with rulesPtr
 * != 0 (explain mode) its rule reference to rulesPtr + i x RULE_REF_SIZE (none for the missing-policy slot).
 * Counts each slot's lines (SLOT_LINES). A slot holding a raw body (RAW_BODY_MAGIC) answers its lines straight
 * from it (direct.ts) for agentsPtr's query. Returns groupCount, or in explain mode the first raw group whose
 * direct answer passed its work limit (nothing written for it: the caller compiles its slot in place, then
 * calls again from there).
 */
export function matchGroups(inputPtr: usize, lineStartsPtr: usize, groupsPtr: usize, groupCount: u32, orderPtr: usize, slots: usize, verdictsPtr: usize, rulesPtr: usize, scratchPtr: usize, agentsPtr: usize, firstGroup: u32): u32 {
  const explain = rulesPtr != 0;
  let boundSlot: u32 = 0xffffffff; // the slot whose rules the matcher is bound to (none yet)
  for (let g = firstGroup; g < groupCount; g++) {
    const record = groupsPtr + <usize>g * GROUP_SIZE;
    const slotIndex = load<u32>(record + GROUP_SLOT);
    const slot = slotAddress(slots, slotIndex);
    const start = load<u32>(record + GROUP_START);
    const count = load<u32>(record + GROUP_COUNT);
    const block = <usize>load<u32>(slot + SLOT_BLOB_PTR);
    if (load<u32>(block) == RAW_BODY_MAGIC) {
      // a raw body (google mode): its lines straight from the body, or, past the direct answer's work limit,
      // by a compile in scratch for this group only (explain mode: the rules named must outlive the group,
      // so the caller compiles the slot instead); either uses the scratch the matcher was bound with
      boundSlot = 0xffffffff;
      const body = block + RAW_BODY_START;
      const bodyLength = <usize>load<u32>(block + RAW_BODY_LENGTH);
      const answered = answerLinesFromBody(body, bodyLength, agentsPtr, inputPtr, lineStartsPtr, orderPtr, start, count, verdictsPtr, rulesPtr, scratchPtr);
      if (!answered && explain) return g;
      store<u32>(slot + SLOT_LINES, load<u32>(slot + SLOT_LINES) + count);
      if (answered) continue;
      const blob = compileRobots(body, bodyLength, agentsPtr, 0, scratchPtr);
      bindBlob(blob);
      bindAutomaton(0, 0);
      bindScratch(blob + <usize>load<u32>(blob + HEADER_TOTAL_LENGTH));
      for (let k: u32 = 0; k < count; k++) {
        const i = load<u32>(orderPtr + <usize>(start + k) * 4);
        matchLine(inputPtr + <usize>load<u32>(lineStartsPtr + <usize>i * 4), verdictsPtr + <usize>i, false);
      }
      continue;
    }
    // (the rules of the group before, when they are the same: in cache, not touched again, the matcher still
    // bound to them; a pack's origins of one body are matched one after another)
    const sameRules = slotIndex == boundSlot;
    touchGroup(inputPtr, lineStartsPtr, orderPtr, start, count, sameRules ? 0 : block);
    boundSlot = slotIndex;
    if (!sameRules) {
      bindBlob(block);
      bindAutomaton(<usize>load<u32>(slot + SLOT_AUTOMATON_PTR), <usize>load<u32>(slot + SLOT_AUTOMATON_BYTES));
      bindScratch(scratchPtr);
    }
    const reportsRules = explain && (load<u32>(slot + SLOT_FLAGS) & SLOT_FLAG_MISSING_POLICY) == 0;
    const pairs = !explain && count > 1 && automatonAnswers(false) && automatonIsLarge();
    let k: u32 = 0;
    while (k < count) {
      const i = load<u32>(orderPtr + <usize>(start + k) * 4);
      const p = inputPtr + <usize>load<u32>(lineStartsPtr + <usize>i * 4);
      if (pairs && k + 1 < count) {
        const j = load<u32>(orderPtr + <usize>(start + k + 1) * 4);
        matchLinePair(p, inputPtr + <usize>load<u32>(lineStartsPtr + <usize>j * 4), verdictsPtr + <usize>i, verdictsPtr + <usize>j);
        k += 2;
        continue;
      }
      matchLine(p, verdictsPtr + <usize>i, explain);
      if (reportsRules) storeRuleRef(rulesPtr + <usize>i * RULE_REF_SIZE);
      else if (explain) memory.fill(rulesPtr + <usize>i * RULE_REF_SIZE, 0, RULE_REF_SIZE);
      k++;
    }
    store<u32>(slot + SLOT_LINES, load<u32>(slot + SLOT_LINES) + count);
  }
  return groupCount;
}

/**
 * Splits a chunk of lines (an LF sentinel after them) into shardCount shards by host, for threads that each
 * keep their own hosts: line i goes to shard hash(host key) % shardCount (lines without a host: shard 0; a
 * line with the scheme and authority of the line before it goes where that one went), its shard number at
 * shardOfLinePtr + i (u8). The shards' lines (each LF-ended, in input order) are laid out one shard after
 * another from outPtr (shard s from the sum of the sizes before it); their byte sizes go to shardSizesPtr
 * (u32 each). Returns the line count. Two passes over the input: the first
 * finds each line's shard and the sizes, the second copies. Worst case: linear in the input (one host key
 * read per change of authority, a line copied once); the output is as long as the input (plus a final LF).
 */
export function splitLinesByHost(inputPtr: usize, inputLen: usize, shardCount: u32, shardOfLinePtr: usize, shardSizesPtr: usize, outPtr: usize, keyScratch: usize): u32 {
  const end = inputPtr + inputLen;
  memory.fill(shardSizesPtr, 0, <usize>shardCount * 4);
  let count: u32 = 0;
  let p = inputPtr;
  let previousStart: usize = 0;
  let previousLength: usize = 0;
  let previousShard: u32 = 0;
  while (p < end) {
    let shard: u32;
    if (sameAuthorityAsPrevious(p, previousStart, previousLength)) {
      shard = previousShard;
    } else {
      const length = hostKeyOf(p, keyScratch);
      shard = length < 0 ? 0 : hashKey(keyScratch, <usize>length) % shardCount;
      previousStart = p;
      previousLength = length < 0 ? 0 : authorityEnd;
      previousShard = shard;
    }
    store<u8>(shardOfLinePtr + <usize>count, <u8>shard);
    const next = findLf(p) + 1;
    const sizeAt = shardSizesPtr + <usize>shard * 4;
    store<u32>(sizeAt, load<u32>(sizeAt) + <u32>(next - p));
    count++;
    p = next;
  }
  // each shard's write position (kept in the sizes' words meanwhile: start, then advanced), then the copy
  let offset: u32 = 0;
  for (let shard: u32 = 0; shard < shardCount; shard++) {
    const sizeAt = shardSizesPtr + <usize>shard * 4;
    const size = load<u32>(sizeAt);
    store<u32>(sizeAt, offset);
    offset += size;
  }
  p = inputPtr;
  for (let line: u32 = 0; line < count; line++) {
    const next = findLf(p) + 1;
    const at = shardSizesPtr + <usize>load<u8>(shardOfLinePtr + <usize>line) * 4;
    const position = load<u32>(at);
    memory.copy(outPtr + <usize>position, p, next - p);
    store<u32>(at, position + <u32>(next - p));
    p = next;
  }
  // the words now hold each shard's end: back to sizes
  let start: u32 = 0;
  for (let shard: u32 = 0; shard < shardCount; shard++) {
    const sizeAt = shardSizesPtr + <usize>shard * 4;
    const shardEnd = load<u32>(sizeAt);
    store<u32>(sizeAt, shardEnd - start);
    start = shardEnd;
  }
  return count;
}

/**
 * Copies the entries of table `from` that still name a matcher (a slot of their generation) into the empty
 * table `to` (its header set by the host): stale entries (evicted matchers), pending ones and names without
 * a host are left behind. The host rebuilds a full table this way instead of forgetting every host. Returns
 * the entries kept, or -1 when `to` cannot hold them.
 */
export function rehashHostTable(from: usize, to: usize, slots: usize): i32 {
  const capacity = load<u32>(from + HOSTS_CAPACITY);
  const fromKeys = from + HOSTS_HEADER_SIZE + <usize>capacity * HOST_ENTRY_SIZE;
  const toCapacity = load<u32>(to + HOSTS_CAPACITY);
  const toMask = toCapacity - 1;
  const toKeys = to + HOSTS_HEADER_SIZE + <usize>toCapacity * HOST_ENTRY_SIZE;
  const keyCapacity = load<u32>(to + HOSTS_KEY_BYTES_CAPACITY);
  let used: u32 = 0;
  let keyBytes: u32 = 0;
  for (let i: u32 = 0; i < capacity; i++) {
    const entry = entryAddress(from, i);
    const slotWord = load<u32>(entry + HOST_ENTRY_SLOT);
    if (slotWord == 0 || slotWord == <u32>HOST_SLOT_PENDING || slotWord == <u32>HOST_SLOT_NO_HOST) continue;
    if (load<u32>(slotAddress(slots, slotWord - 1) + SLOT_GENERATION) != load<u32>(entry + HOST_ENTRY_GENERATION)) continue;
    const lengthField = load<u32>(entry + HOST_ENTRY_KEY_LENGTH);
    const length = lengthField & ~HOST_KEY_ALIAS;
    if (used + 1 > toCapacity - (toCapacity >> 2) || keyBytes + length > keyCapacity) return -1;
    const hash = load<u32>(entry + HOST_ENTRY_HASH);
    let index = hash & toMask;
    while (load<u32>(entryAddress(to, index) + HOST_ENTRY_SLOT) != 0) index = (index + 1) & toMask;
    const target = entryAddress(to, index);
    memory.copy(toKeys + <usize>keyBytes, fromKeys + <usize>load<u32>(entry + HOST_ENTRY_KEY_OFFSET), <usize>length);
    store<u32>(target + HOST_ENTRY_HASH, hash);
    store<u32>(target + HOST_ENTRY_KEY_OFFSET, keyBytes);
    store<u32>(target + HOST_ENTRY_KEY_LENGTH, lengthField);
    store<u32>(target + HOST_ENTRY_SLOT, slotWord);
    store<u32>(target + HOST_ENTRY_GENERATION, load<u32>(entry + HOST_ENTRY_GENERATION));
    keyBytes += length;
    used++;
  }
  store<u32>(to + HOSTS_USED, used);
  store<u32>(to + HOSTS_KEY_BYTES_USED, keyBytes);
  return <i32>used;
}
