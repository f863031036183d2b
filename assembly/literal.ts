// The literal index: the patterns without '*' (a final '$' allowed) of a large rule set, in one hash table
// keyed by the pattern's bytes (without its final '$'). A literal pattern matches a path exactly when it is a
// prefix of it ('$': when it is the whole path), so a path's matching literal rules are found by hashing
// each prefix of the path whose length some key has, in one pass over the path. Patterns with a '*' stay in
// the trie and are answered by the automaton or the NFA; the verdict takes the longer rule of both.
//
// Building it is one hash and one insert per rule (no node per pattern byte): a robots.txt of 50,000 literal
// paths compiles at the speed it is tokenized, into about the size of its patterns plus 8 to 16 bytes a rule.
//
// Layout (8-aligned, offsets from the index's start):
//   +0  u32 capacity        table slots, a power of two (at least 3/2 x the keys: unsuccessful look-ups end at
//                           an empty slot after about 2 to 5 loads)
//   +4  u32 probeLimit      slots any key's look-up must visit at most (the longest insert run), >= 1
//   +8  u32 maxKeyLength    the longest key; lengths of keys are set in the bitset
//   +12 u32 tableOffset     from the index's start
//   +16 u64 seed            the hash's start value (random per process, from the host: keys cannot be made to collide)
//   +24 bitset              bit l set when some key is l bytes long (1 <= l <= maxKeyLength)
//   table: u64 slots, 0 = empty, else (tag << 32) | SLOT_ALLOW? | SLOT_END? | (rule index + 1)
// A key has at most four slots (allow, disallow, and both with a final '$'): the earliest rule of each kind
// keeps it, as in the trie (same bytes, same priority: the earlier line).
//
// Worst case, stated: a look-up costs one multiply per path byte, plus for each path prefix length that some
// key has (at most min(path length, maxKeyLength)) at most probeLimit slot loads; a slot whose 32-bit tag
// equals the prefix's is verified byte by byte (at most its key length). probeLimit is at most
// MAX_PROBE_LIMIT: a build whose keys cluster more (bad luck or crafted keys) retries with another seed, and
// then gives up (the compiler puts the literal rules in the trie instead). So a path of L bytes costs
// O(L x MAX_PROBE_LIMIT) slot loads whatever the rules.
import { CHAR_LF, CHAR_CR, CHAR_HASH, CHAR_NUL, CHAR_SLASH, RULE_KIND, RULE_KIND_ALLOW, RULE_PATTERN_OFFSET, RULE_PATTERN_LENGTH, RULE_SIZE } from "../src/core/constants";
import { NO_RULE, alignUp, ensureCapacity, patternKeyLength } from "./layout";
import { sameBytes } from "./scan";

const INDEX_CAPACITY: usize = 0;
const INDEX_PROBE_LIMIT: usize = 4;
const INDEX_MAX_KEY_LENGTH: usize = 8;
const INDEX_TABLE_OFFSET: usize = 12;
const INDEX_SEED: usize = 16;
const INDEX_BITSET: usize = 24;

const SLOT_RULE_MASK: u64 = 0x3fffffff;
const SLOT_ALLOW: u64 = 0x40000000;
const SLOT_END: u64 = 0x80000000;
/** Rule indexes the slots can hold (30 bits, minus the empty value). */
export const MAX_INDEXED_RULES: u32 = 0x3ffffffe;
/** The longest probe run a build accepts (see the worst case above). */
const MAX_PROBE_LIMIT: u32 = 128;
/** Seeds a build tries before it gives up. */
const BUILD_ATTEMPTS: u32 = 3;
/** Readable bytes the builder leaves after the index (as the old layouts did: nothing reads past it). */
export const LITERAL_INDEX_SLACK: usize = 16;

// ---- the hash: one multiply per byte (prefix hashes come out of one pass), a finaliser per probe ----
const STEP_MULTIPLIER: u64 = 0x9e3779b97f4a7c15;

@inline function hashStep(h: u64, c: u32): u64 {
  return (rotl<u64>(h, 5) ^ <u64>c) * STEP_MULTIPLIER;
}

@inline function finish(h: u64, length: usize): u64 {
  h ^= <u64>length;
  h ^= h >>> 33;
  h *= 0xff51afd7ed558ccd;
  h ^= h >>> 33;
  h *= 0xc4ceb9fe1a85ec53;
  h ^= h >>> 33;
  return h;
}

/**
 * Half of a seed from the host's random source (crypto.getRandomValues). Asked for on the first index
 * build of an instance, not at start-up: most processes never build an index, and the host's random
 * source costs milliseconds to load.
 */
@external("env", "randomSeedHalf")
declare function randomSeedHalf(): u32;

/** The seed new indexes start from: random on the first build, then stepped on each build and retry. */
let nextSeed: u64 = 0;
let seeded = false;

/** Bytes an index of keyCount keys at most maxKeyLength long may take (for the caller's capacity). */
export function literalIndexBound(keyCount: u32, maxKeyLength: usize): usize {
  return alignUp(INDEX_BITSET + (maxKeyLength >> 3) + 1, 8) + <usize>tableCapacity(keyCount) * 8 + LITERAL_INDEX_SLACK;
}

function tableCapacity(keyCount: u32): u32 {
  let capacity: u32 = 16;
  while (<u64>capacity * 2 < <u64>keyCount * 3) capacity <<= 1;
  return capacity;
}

/** The key length of a rule: its pattern without a final '$'. */
@inline function keyLengthOf(rule: usize, patterns: usize): usize {
  return patternKeyLength(patterns + <usize>load<u32>(rule + RULE_PATTERN_OFFSET), <usize>load<u32>(rule + RULE_PATTERN_LENGTH));
}

/**
 * Writes the index of the rules listed at list (u32 rule indexes, count of them, in rule order; each a
 * pattern without '*' whose key is 1 to maxKeyLength bytes) at out; rules and patterns: the compiled rule
 * records and patterns area. Returns its length, or 0 when every seed clustered too much (see above).
 * Cost: O(total key bytes) expected.
 */
export function buildLiteralIndex(rules: usize, patterns: usize, list: usize, count: u32, maxKeyLength: usize, out: usize): usize {
  const capacity = tableCapacity(count);
  const mask = <u64>(capacity - 1);
  const bitsetBytes = (maxKeyLength >> 3) + 1;
  const tableOffset = alignUp(INDEX_BITSET + bitsetBytes, 8);
  const table = out + tableOffset;
  const end = table + <usize>capacity * 8;
  ensureCapacity(end + LITERAL_INDEX_SLACK);
  if (!seeded) {
    nextSeed = ((<u64>randomSeedHalf() << 32) | <u64>randomSeedHalf()) | 1;
    seeded = true;
  }
  for (let attempt: u32 = 0; attempt < BUILD_ATTEMPTS; attempt++) {
    const seed = nextSeed;
    nextSeed = hashStep(nextSeed, attempt + 1) | 1; // the next build (or retry) starts elsewhere
    memory.fill(out, 0, end - out);
    let probeLimit: u32 = 1;
    let clustered = false;
    for (let i: u32 = 0; i < count && !clustered; i++) {
      const ruleIndex = load<u32>(list + <usize>i * 4);
      const rule = rules + <usize>ruleIndex * RULE_SIZE;
      const key = patterns + <usize>load<u32>(rule + RULE_PATTERN_OFFSET);
      const keyLength = keyLengthOf(rule, patterns);
      const flags = (load<u16>(rule + RULE_KIND) == RULE_KIND_ALLOW ? SLOT_ALLOW : 0) | (keyLength != <usize>load<u32>(rule + RULE_PATTERN_LENGTH) ? SLOT_END : 0);
      let h = seed;
      for (let k: usize = 0; k < keyLength; k++) h = hashStep(h, <u32>load<u8>(key + k));
      h = finish(h, keyLength);
      const tag = h >>> 32;
      store<u8>(out + INDEX_BITSET + (keyLength >> 3), <u32>load<u8>(out + INDEX_BITSET + (keyLength >> 3)) | (<u32>1 << <u32>(keyLength & 7)));
      for (let d: u32 = 0; ; d++) {
        if (d >= MAX_PROBE_LIMIT) { clustered = true; break; }
        const slotAddress = table + <usize>((h + <u64>d) & mask) * 8;
        const slot = load<u64>(slotAddress);
        if (slot == 0) {
          store<u64>(slotAddress, (tag << 32) | flags | (<u64>ruleIndex + 1));
          if (d + 1 > probeLimit) probeLimit = d + 1;
          break;
        }
        if ((slot >>> 32) != tag || (slot & (SLOT_ALLOW | SLOT_END)) != flags) continue;
        const held = rules + <usize>((slot & SLOT_RULE_MASK) - 1) * RULE_SIZE;
        // the same key and kind: the earlier rule keeps the slot
        if (keyLengthOf(held, patterns) == keyLength && sameBytes(patterns + <usize>load<u32>(held + RULE_PATTERN_OFFSET), key, keyLength)) break;
      }
    }
    if (clustered) continue;
    store<u32>(out + INDEX_CAPACITY, capacity);
    store<u32>(out + INDEX_PROBE_LIMIT, probeLimit);
    store<u32>(out + INDEX_MAX_KEY_LENGTH, <u32>maxKeyLength);
    store<u32>(out + INDEX_TABLE_OFFSET, <u32>tableOffset);
    store<u64>(out + INDEX_SEED, seed);
    memory.fill(end, 0, LITERAL_INDEX_SLACK);
    return end + LITERAL_INDEX_SLACK - out;
  }
  return 0;
}

// ---- the look-up ----
let indexBase: usize = 0;
let indexRules: usize = 0;
let indexPatterns: usize = 0;
let indexTable: usize = 0;
let indexMask: u64 = 0;
let indexProbeLimit: u64 = 0;
let indexMaxKeyLength: usize = 0;
let indexSeed: u64 = 0;
/** Priorities found by the last look-up (0 = no rule), and those rules (NO_RULE = none). */
export let literalAllowPriority: i32 = 0;
export let literalDisallowPriority: i32 = 0;
export let literalAllowRule: i32 = NO_RULE;
export let literalDisallowRule: i32 = NO_RULE;
const rootPath = memory.data<u8>([<u8>CHAR_SLASH, 0]);

/** Binds the literal index at base (0: none) of a blob whose rule records and patterns are at rules and patterns. */
export function bindLiteralIndex(base: usize, rules: usize, patterns: usize): void {
  indexBase = base;
  indexRules = rules;
  indexPatterns = patterns;
  literalAllowPriority = 0;
  literalDisallowPriority = 0;
  literalAllowRule = NO_RULE;
  literalDisallowRule = NO_RULE;
  if (base == 0) return;
  indexTable = base + <usize>load<u32>(base + INDEX_TABLE_OFFSET);
  indexMask = <u64>(load<u32>(base + INDEX_CAPACITY) - 1);
  indexProbeLimit = <u64>load<u32>(base + INDEX_PROBE_LIMIT);
  indexMaxKeyLength = <usize>load<u32>(base + INDEX_MAX_KEY_LENGTH);
  indexSeed = load<u64>(base + INDEX_SEED);
}

/** Whether the path's first length bytes (a '/' in front of path when virtualSlash) equal the key at key. */
@inline function prefixEquals(key: usize, path: usize, length: usize, virtualSlash: bool): bool {
  if (!virtualSlash) return sameBytes(key, path, length);
  return load<u8>(key) == CHAR_SLASH && sameBytes(key + 1, path, length - 1);
}

/** The slots of the prefix of `length` bytes with hash h: records the rules of its key that apply. */
function probe(h: u64, length: usize, atEnd: bool, path: usize, virtualSlash: bool): void {
  h = finish(h, length);
  const tag = h >>> 32;
  for (let d: u64 = 0; d < indexProbeLimit; d++) {
    const slot = load<u64>(indexTable + <usize>((h + d) & indexMask) * 8);
    if (slot == 0) return;
    if ((slot >>> 32) != tag) continue;
    const end = (slot & SLOT_END) != 0;
    if (end && !atEnd) continue;
    const ruleIndex = <i32>((slot & SLOT_RULE_MASK) - 1);
    const rule = indexRules + <usize>ruleIndex * RULE_SIZE;
    const patternLength = <usize>load<u32>(rule + RULE_PATTERN_LENGTH);
    if ((end ? patternLength - 1 : patternLength) != length) continue;
    if (!prefixEquals(indexPatterns + <usize>load<u32>(rule + RULE_PATTERN_OFFSET), path, length, virtualSlash)) continue;
    // prefixes come shortest first, so a later prefix's rule is longer; within one key its '$' rule (one
    // longer) may come before or after the other: the longer one stays
    if ((slot & SLOT_ALLOW) != 0) {
      if (<i32>patternLength > literalAllowPriority) {
        literalAllowPriority = <i32>patternLength;
        literalAllowRule = ruleIndex;
      }
    } else if (<i32>patternLength > literalDisallowPriority) {
      literalDisallowPriority = <i32>patternLength;
      literalDisallowRule = ruleIndex;
    }
  }
}

/** Whether the byte at p ends the path: lines mode LF, CR LF, '#', NUL; span mode also p >= end (LF and CR are ordinary). */
@inline function endsPathAt(p: usize, end: usize, lines: bool): bool {
  if (!lines && p >= end) return true;
  const c = <u32>load<u8>(p);
  if (c == CHAR_HASH || c == CHAR_NUL) return true;
  return lines && (c == CHAR_LF || (c == CHAR_CR && load<u8>(p + 1) == CHAR_LF));
}

/**
 * Looks the path at p up and sets literalAllowPriority / literalDisallowPriority and the rules. leadingSlash:
 * the path starts with '?' or ';' and is matched as if a '/' came first. Lines mode: the path ends at LF,
 * CR LF, '#' or NUL (the input has an LF sentinel and 16 readable bytes after it); span mode: at `end`,
 * '#' or NUL. Returns where the look-up stopped (at the path's end, or after the longest key's length).
 */
@inline function lookUpImpl(p: usize, end: usize, lines: bool, leadingSlash: bool): usize {
  literalAllowPriority = 0;
  literalDisallowPriority = 0;
  literalAllowRule = NO_RULE;
  literalDisallowRule = NO_RULE;
  const bits = indexBase + INDEX_BITSET;
  const path = p;
  let h = indexSeed;
  let length: usize = 0;
  // each path byte is tested once for the path's end: a probe needs to know whether its prefix is the whole path
  let ended = endsPathAt(p, end, lines);
  if (leadingSlash) {
    h = hashStep(h, CHAR_SLASH);
    length = 1;
    if ((load<u8>(bits) & 2) != 0) probe(h, 1, ended, path, true);
  }
  while (!ended) {
    if (length >= indexMaxKeyLength) return p; // no key is longer: nothing more can match
    h = hashStep(h, <u32>load<u8>(p));
    p++;
    length++;
    ended = endsPathAt(p, end, lines);
    if ((<u32>load<u8>(bits + (length >> 3)) & (1 << <u32>(length & 7))) != 0) probe(h, length, ended, path, leadingSlash);
  }
  return p;
}

/** Lines mode look-up (see lookUpImpl). */
export function walkLiteralLine(p: usize, leadingSlash: bool): usize {
  return lookUpImpl(p, <usize>-1, true, leadingSlash);
}

/** Span mode look-up of [p, end) (see lookUpImpl). */
export function walkLiteralSpan(p: usize, end: usize, leadingSlash: bool): usize {
  return lookUpImpl(p, end, false, leadingSlash);
}

/** The literal rules of the path "/" (a URL without a path). */
export function walkLiteralRoot(): void {
  lookUpImpl(rootPath, rootPath + 1, false, false);
}
