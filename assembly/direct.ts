// Direct answers: a few paths answered straight from a robots.txt body, with no compiled matcher. The body
// is tokenized and its groups selected exactly as a compile does (select.ts), then every rule that applies
// is normalised (compile.ts's normalizeRuleValue and writeIndexHtmRule) and matched against each path on
// its own, as the reference does while it parses. A host that answers ten URLs and is not met again pays
// one tokenize pass instead of a compile: on a real crawl most hosts are such hosts (src/node/hosts.ts decides).
// Google mode only (rfc mode compiles).
//
// Verdicts are the compiled matcher's (property-tested against it and the model): the longest matching
// pattern of each kind, the earlier line on ties (rules come in file order), allow on equal priority, and a
// priority of 0 never decides.
//
// Worst case, stated: the tokenize pass (linear in the body), then per rule and path one comparison. Every
// comparison is charged (one unit per byte, or per 8 bytes compared at once); once the charge passes
// max(8 x body bytes, DIRECT_MIN_WORK), the call gives up (returns false) and the caller compiles instead:
// a direct answer never costs much more than the compile it avoids. A '*' pattern is matched segment by
// segment (the leftmost place of each segment between stars, the last one at the path's end when the
// pattern ends in '$'): at most |pattern| x |path| byte reads, charged as they go, plus one pass over the
// path per segment.
import {
  RULE_INPUT_KIND, RULE_INPUT_LINE, RULE_INPUT_VALUE_PTR, RULE_INPUT_VALUE_LEN, RULE_INPUT_SIZE, RULE_KIND_ALLOW, MAX_LINE_BYTES,
  RULE_REF_RECORD, RULE_REF_PATTERNS, RULE_REF_VALUE, RULE_REF_VALUE_LINE, RULE_REF_VALUE_LENGTH, RULE_REF_VALUE_KIND,
  RULE_REF_VALUE_DERIVED, RULE_REF_SIZE,
  CHAR_ASTERISK, CHAR_SLASH, CHAR_DOLLAR, CHAR_PERCENT, VERDICT_ALLOWED, VERDICT_DISALLOWED,
} from "../src/core/constants";
import { selectRules, selectedRules } from "./select";
import { normalizeRuleValue, writeIndexHtmRule } from "./compile";
import { ensureCapacity, alignUp, patternKeyLength } from "./layout";
import { writePath } from "./path";
import { zeroBytesOf } from "./scan";
import { findLf, urlEndOfLine } from "./bulk";

/**
 * The work a direct answer may spend, in units of one comparison step (a byte compared alone, or 8 bytes
 * compared at once): DIRECT_WORK_PER_BYTE per body byte, and at least DIRECT_MIN_WORK. A compile costs
 * about that much per body byte (tokenize, normalise, index or trie).
 */
const DIRECT_WORK_PER_BYTE: u64 = 8;
const DIRECT_MIN_WORK: u64 = 1 << 20;

// A path record, PATH_SIZE bytes: where its bytes are (the path as the matcher sees it: '/' first, up to
// the fragment), and the best rule of each kind so far.
const PATH_START: usize = 0; // u32 address
const PATH_LENGTH: usize = 4; // u32
const PATH_ALLOW: usize = 8; // i32 priority of the longest matching allow pattern, -1 = none
const PATH_DISALLOW: usize = 12; // i32, the same for disallow
const PATH_LINE: usize = 16; // u32: the line's index in the chunk (its verdict's place)
const PATH_ALLOW_RULE: usize = 20; // u32: the rule behind PATH_ALLOW (its index among the selected rules | DERIVED_RULE when its index.htm rule matched)
const PATH_DISALLOW_RULE: usize = 24; // u32, the same for PATH_DISALLOW
const PATH_KEY: usize = 32; // u64: the path's first 8 bytes (zero-padded) as a big-endian number (sortPaths)
const PATH_SIZE: usize = 40;
/** Marks a rule tag whose index.htm rule (not its own pattern) matched. */
const DERIVED_RULE: u32 = 0x80000000;
/** Readable bytes after each path and pattern (8-byte loads may read past the end). */
const SLACK: usize = 16;

let work: u64 = 0;
let workLimit: u64 = 0;

/**
 * Index of the first byte where a[0, n) and b[0, n) differ, or n (8 bytes a step; both have SLACK readable
 * bytes after them). Charged one unit plus one per 8 bytes compared.
 */
@inline function commonPrefix(a: usize, b: usize, n: usize): usize {
  let i: usize = 0;
  let at = n;
  while (i < n) {
    const difference = load<u64>(a + i) ^ load<u64>(b + i);
    if (difference != 0) {
      at = min(i + <usize>(ctz(difference) >> 3), n);
      break;
    }
    i += 8;
  }
  work += 1 + <u64>(i >> 3);
  return at;
}

/**
 * Where segment [seg, seg + segLength) first occurs in path[from, end), or -1 (-2: the work limit was passed).
 * 16 places a step: a place is a candidate when the path has the segment's first byte there and its last
 * byte segLength - 1 further (two vector compares), and only candidates are compared whole. Reads up to 15
 * bytes past `end` (the path's SLACK). Charged one unit per place, plus each candidate's comparison.
 */
function findSegment(path: usize, from: usize, end: usize, seg: usize, segLength: usize): isize {
  if (segLength == 0) return <isize>from;
  if (end - from < segLength) return -1;
  const last = end - segLength;
  work += <u64>(last - from + 1);
  const first = i8x16.splat(<i8>load<u8>(seg));
  const final = i8x16.splat(<i8>load<u8>(seg + segLength - 1));
  for (let at = from; at <= last; at += 16) {
    let candidates = i8x16.bitmask(v128.and(i8x16.eq(v128.load(path + at), first), i8x16.eq(v128.load(path + at + segLength - 1), final)));
    const places = last - at + 1;
    if (places < 16) candidates &= (<u32>1 << <u32>places) - 1;
    while (candidates != 0) {
      const candidate = at + <usize>ctz(candidates);
      if (commonPrefix(path + candidate, seg, segLength) == segLength) return <isize>candidate;
      candidates &= candidates - 1;
    }
    if (work > workLimit) return -2;
  }
  return -1;
}

/** The next '*' in pattern[from, end), or end. */
function nextStar(pattern: usize, from: usize, end: usize): usize {
  while (from < end && <i32>load<u8>(pattern + from) != CHAR_ASTERISK) from++;
  return from;
}

/**
 * Whether a normalised pattern with a '*' (the first at firstStar, key: its length without a final '$')
 * matches the start of a path (the whole path when anchored): 1 yes, 0 no, -1 the work limit was passed.
 */
function starPatternMatches(pattern: usize, key: usize, anchored: bool, firstStar: usize, path: usize, pathLength: usize): i32 {
  // the bytes before the first '*' are a prefix of the path
  if (pathLength < firstStar || commonPrefix(pattern, path, firstStar) != firstStar) return 0;
  let at = firstStar; // path offset matched so far
  let star = firstStar;
  while (true) {
    const segStart = star + 1;
    star = nextStar(pattern, segStart, key);
    const segLength = star - segStart;
    work += 1 + <u64>(segLength >> 3);
    if (star == key) {
      // the last segment: anywhere after `at`, or with '$' exactly at the path's end
      if (!anchored) {
        const found = findSegment(path, at, pathLength, pattern + segStart, segLength);
        return found == -2 ? -1 : found >= 0 ? 1 : 0;
      }
      if (pathLength - at < segLength) return 0;
      return commonPrefix(path + pathLength - segLength, pattern + segStart, segLength) == segLength ? 1 : 0;
    }
    const found = findSegment(path, at, pathLength, pattern + segStart, segLength);
    if (found < 0) return found == -2 ? -1 : 0;
    at = <usize>found + segLength;
  }
}

/**
 * Records a matching pattern of a kind for a path, with its rule tag: the longer one wins (equal: the
 * earlier line, already there: rules come in file order, a rule's index.htm rule right after it).
 */
@inline function recordMatch(record: usize, kind: i32, priority: i32, rule: u32): void {
  const allow = kind == RULE_KIND_ALLOW;
  const field = record + (allow ? PATH_ALLOW : PATH_DISALLOW);
  if (priority > load<i32>(field)) {
    store<i32>(field, priority);
    store<u32>(record + (allow ? PATH_ALLOW_RULE : PATH_DISALLOW_RULE), rule);
  }
}

/** Lexicographic order of two byte strings (unsigned bytes; a proper prefix first): <0, 0 or >0. Charged. */
function compareBytes(a: usize, aLength: usize, b: usize, bLength: usize): i32 {
  const shorter = min(aLength, bLength);
  const same = commonPrefix(a, b, shorter);
  if (same < shorter) return <i32>load<u8>(a + same) - <i32>load<u8>(b + same);
  return aLength < bLength ? -1 : aLength > bLength ? 1 : 0;
}

@inline function pathStart(record: usize): usize {
  return <usize>load<u32>(record + PATH_START);
}

@inline function pathLengthOf(record: usize): usize {
  return <usize>load<u32>(record + PATH_LENGTH);
}

/**
 * Whether path record a sorts before b: their first 8 bytes as one big-endian number (PATH_KEY: a shorter
 * path is padded with zero bytes, which orders it before the longer paths it starts, as bytes do), then the
 * bytes. Charged one unit, plus compareBytes's charge on a tie.
 */
@inline function pathBefore(a: usize, b: usize): bool {
  const keyA = load<u64>(a + PATH_KEY);
  const keyB = load<u64>(b + PATH_KEY);
  work += 1;
  if (keyA != keyB) return keyA < keyB;
  const lengthA = pathLengthOf(a);
  const lengthB = pathLengthOf(b);
  // equal keys of two paths of 8 bytes or more: their first 8 bytes are equal
  const skip: usize = lengthA >= 8 && lengthB >= 8 ? 8 : 0;
  return compareBytes(pathStart(a) + skip, lengthA - skip, pathStart(b) + skip, lengthB - skip) < 0;
}

/** Paths sorted by insertion (fewer, cheaper steps than merging at this size). */
const INSERTION_SORT_MAX: u32 = 48;

/**
 * Sorts the path records by path, so that the paths a pattern's literal prefix starts are one run: their
 * addresses (u32) by insertion up to INSERTION_SORT_MAX paths (O(n^2) steps, n small), else by a stable
 * bottom-up merge sort (O(n log n) comparisons), then the records moved once. Scratch: count x (8 +
 * PATH_SIZE) bytes.
 */
function sortPaths(pathsPtr: usize, count: u32, scratch: usize): void {
  let from = scratch;
  let to = scratch + <usize>count * 4;
  for (let k: u32 = 0; k < count; k++) store<u32>(from + <usize>k * 4, <u32>(pathsPtr + <usize>k * PATH_SIZE));
  if (count <= INSERTION_SORT_MAX) {
    for (let k: u32 = 1; k < count; k++) {
      const moving = <usize>load<u32>(from + <usize>k * 4);
      let at = k;
      while (at > 0) {
        const before = <usize>load<u32>(from + <usize>(at - 1) * 4);
        if (!pathBefore(moving, before)) break;
        store<u32>(from + <usize>at * 4, <u32>before);
        at--;
      }
      store<u32>(from + <usize>at * 4, <u32>moving);
    }
  } else {
    for (let width: u32 = 1; width < count; width <<= 1) {
      for (let left: u32 = 0; left < count; left += width << 1) {
        const middle = min(left + width, count);
        const right = min(left + (width << 1), count);
        let i = left;
        let j = middle;
        let k = left;
        // runs already in order (input sorted by host is often sorted by path too): one comparison, one copy
        if (middle < right && !pathBefore(<usize>load<u32>(from + <usize>middle * 4), <usize>load<u32>(from + <usize>(middle - 1) * 4))) {
          memory.copy(to + <usize>left * 4, from + <usize>left * 4, <usize>(right - left) * 4);
          continue;
        }
        while (i < middle && j < right) {
          const a = <usize>load<u32>(from + <usize>i * 4);
          const b = <usize>load<u32>(from + <usize>j * 4);
          if (pathBefore(b, a)) {
            store<u32>(to + <usize>k * 4, <u32>b);
            j++;
          } else {
            store<u32>(to + <usize>k * 4, <u32>a);
            i++;
          }
          k++;
        }
        if (i < middle) memory.copy(to + <usize>k * 4, from + <usize>i * 4, <usize>(middle - i) * 4);
        else if (j < right) memory.copy(to + <usize>k * 4, from + <usize>j * 4, <usize>(right - j) * 4);
      }
      const swap = from;
      from = to;
      to = swap;
    }
  }
  // the records in sorted order after the address lists, then back in place (a word at a time)
  const sorted = scratch + <usize>count * 8;
  for (let k: u32 = 0; k < count; k++) {
    const record = <usize>load<u32>(from + <usize>k * 4);
    const into = sorted + <usize>k * PATH_SIZE;
    for (let w: usize = 0; w < PATH_SIZE; w += 8) store<u64>(into + w, load<u64>(record + w));
  }
  memory.copy(pathsPtr, sorted, <usize>count * PATH_SIZE);
}

/** The first sorted path in [low, high) that is not below prefix[0, length): the paths that start with it follow from there. */
function firstPathFrom(pathsPtr: usize, low: u32, high: u32, prefix: usize, length: usize): u32 {
  while (low < high) {
    const middle = (low + high) >>> 1;
    const record = pathsPtr + <usize>middle * PATH_SIZE;
    if (compareBytes(pathStart(record), pathLengthOf(record), prefix, length) < 0) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** Whether a path starts with prefix[0, length). */
@inline function startsWith(record: usize, prefix: usize, length: usize): bool {
  return pathLengthOf(record) >= length && commonPrefix(prefix, pathStart(record), length) == length;
}

/**
 * One normalised pattern against the sorted paths: only the run of paths that start with its bytes before
 * the first '*' (found by binary search) can match. False when the work limit was passed.
 */
function matchPattern(kind: i32, rule: u32, pattern: usize, length: usize, pathsPtr: usize, pathCount: u32): bool {
  const key = patternKeyLength(pattern, length);
  const anchored = key != length;
  const firstStar = nextStar(pattern, 0, key);
  work += 1 + <u64>(key >> 3);
  const priority = <i32>length;
  for (let i = firstPathFrom(pathsPtr, 0, pathCount, pattern, firstStar); i < pathCount; i++) {
    const record = pathsPtr + <usize>i * PATH_SIZE;
    if (!startsWith(record, pattern, firstStar)) break;
    if (firstStar == key) {
      // no '*': the prefix is the pattern (with '$': the whole path)
      if (!anchored || pathLengthOf(record) == key) recordMatch(record, kind, priority, rule);
      continue;
    }
    const matched = starPatternMatches(pattern, key, anchored, firstStar, pathStart(record), pathLengthOf(record));
    if (matched < 0) return false;
    if (matched == 1) recordMatch(record, kind, priority, rule);
    if (work > workLimit) return false;
  }
  return work <= workLimit;
}

/** The second bytes of the paths (every path starts with '/'): a 256-bit set. */
let secondBytes: usize = 0;
/** Sorted paths that are just "/" (they come first). */
let rootPaths: u32 = 0;
/** The most paths one direct answer takes; more: compile. */
const MAX_DIRECT_PATHS: u32 = 0xffff;

/**
 * Filters of the paths' first 4, 8 and 16 bytes: bit hash(those bytes) is set for each path at least that
 * long (filterBytes each, at prefixFilters + 0, 1 and 2 x filterBytes). A rule whose pattern starts with 4
 * (8, 16) bytes whose bit is clear matches no path. The 16-byte filter is the one that tells the rules of a
 * large file apart: its paths share their first directory with the host's URLs ("/wp-admin/..."), and the
 * rest of them only from the 9th byte on. Each filter has 128 bits per path (a rule passes one by chance
 * about once in 128), from 512 to MAX_FILTER_BITS: a call with one path clears 200 bytes, not kilobytes.
 */
let prefixFilters: usize = 0;
const MAX_FILTER_BITS: u32 = 8192;
let filterBytes: usize = 0;
/** 64 - log2(bits per filter): a hash's top bits pick its bit. */
let filterShift: u64 = 0;
/** Sorted paths shorter than 4, 8 and 16 bytes. */
let shorterThan4: u32 = 0;
let shorterThan8: u32 = 0;
let shorterThan16: u32 = 0;

@inline function prefixBit(word: u64): u32 {
  return <u32>((word * 0x9e3779b97f4a7c15) >>> filterShift);
}

/** The filter bit of 16 bytes (two words). */
@inline function prefixBit16(first: u64, second: u64): u32 {
  return prefixBit(first ^ (second * 0xff51afd7ed558ccd));
}

@inline function setBit(filter: usize, bit: u32): void {
  store<u8>(filter + <usize>(bit >>> 3), <u8>(<u32>load<u8>(filter + <usize>(bit >>> 3)) | (<u32>1 << (bit & 7))));
}

@inline function hasBit(filter: usize, bit: u32): bool {
  return (<u32>load<u8>(filter + <usize>(bit >>> 3)) & (<u32>1 << (bit & 7))) != 0;
}

/** Bytes the second-byte set and the prefix filters take at most (see indexPaths). */
const PATH_INDEX_BYTES: usize = 32 + 3 * <usize>(MAX_FILTER_BITS / 8);

/** Fills the second-byte set (at table), the prefix filters after it, and the path counts above, for sorted paths. */
function indexPaths(pathsPtr: usize, pathCount: u32, table: usize): void {
  let bits: u32 = 512;
  while (bits < MAX_FILTER_BITS && bits < pathCount * 128) bits <<= 1;
  filterBytes = <usize>(bits >> 3);
  filterShift = 64 - <u64>ctz(bits);
  memory.fill(table, 0, 32 + 3 * filterBytes);
  secondBytes = table;
  prefixFilters = table + 32;
  shorterThan4 = 0;
  shorterThan8 = 0;
  shorterThan16 = 0;
  rootPaths = 0;
  for (let k: u32 = 0; k < pathCount; k++) {
    const record = pathsPtr + <usize>k * PATH_SIZE;
    const length = pathLengthOf(record);
    const start = pathStart(record);
    if (length < 2) rootPaths++;
    else setBit(secondBytes, <u32>load<u8>(start + 1));
    if (length < 16) shorterThan16++;
    if (length < 8) shorterThan8++;
    if (length < 4) {
      shorterThan4++;
      continue;
    }
    const word = load<u64>(start);
    setBit(prefixFilters, prefixBit(word & 0xffffffff));
    if (length >= 8) setBit(prefixFilters + filterBytes, prefixBit(word));
    if (length >= 16) setBit(prefixFilters + 2 * filterBytes, prefixBit16(word, load<u64>(start + 8)));
  }
}

/** The bytes of word that normalisation changes or that are '*': '%', '*' and bytes >= 0x80 (their high bits). */
@inline function changedBytes(word: u64): u64 {
  return (word & 0x8080808080808080) | zeroBytesOf(word ^ 0x2525252525252525) | zeroBytesOf(word ^ 0x2a2a2a2a2a2a2a2a);
}

/**
 * Whether no path can match a rule, read from its raw value alone (no normalisation). A value whose first n
 * bytes normalisation keeps as they are (no '%', '*' or byte >= 0x80; a '$' counts only when it is not the
 * value's last byte: the value is longer than n) matches only paths that start with them, and so does its
 * index.htm rule ("<dir>/$") when "<dir>/" is at least as long; a shorter one matches only a path that
 * short, so allow rules are filtered only when no path is shorter than n. Checked: n = 16, then 8, then 4, against
 * the prefix filters, then "/x" against the set of second bytes.
 */
@inline function cannotMatch(input: usize, kind: i32): bool {
  const valueLength = <usize>load<u32>(input + RULE_INPUT_VALUE_LEN);
  if (valueLength < 2) return false;
  const value = <usize>load<u32>(input + RULE_INPUT_VALUE_PTR);
  if (<i32>load<u8>(value) != CHAR_SLASH) return false;
  const allow = kind == RULE_KIND_ALLOW;
  if (valueLength > 8) {
    const word = load<u64>(value);
    const changed = changedBytes(word);
    if (valueLength > 16 && changed == 0 && (!allow || shorterThan16 == 0)) {
      const second = load<u64>(value + 8);
      if (changedBytes(second) == 0) return !hasBit(prefixFilters + 2 * filterBytes, prefixBit16(word, second));
    }
    if (changed == 0 && (!allow || shorterThan8 == 0)) return !hasBit(prefixFilters + filterBytes, prefixBit(word));
    if ((changed & 0xffffffff) == 0 && (!allow || shorterThan4 == 0)) return !hasBit(prefixFilters, prefixBit(word & 0xffffffff));
  } else if (valueLength > 4) {
    const word = <u64>load<u32>(value);
    if (changedBytes(word | 0x2020202000000000) == 0 && (!allow || shorterThan4 == 0)) return !hasBit(prefixFilters, prefixBit(word));
  }
  const second = <i32>load<u8>(value + 1);
  if (second == CHAR_PERCENT || second == CHAR_ASTERISK || second >= 0x80 || (second == CHAR_DOLLAR && valueLength == 2)) return false;
  if (allow && rootPaths > 0) return false;
  return !hasBit(secondBytes, <u32>second);
}

/**
 * Google mode: matches the rules of body[bodyPtr, bodyPtr + bodyLen) that apply to an agent query (agentsPtr:
 * [count u32][length u32, bytes]...) against pathCount path records at pathsPtr (sorted), filling in their best
 * priorities. Uses memory from workPtr up. Returns false when the work limit was passed (the records are
 * then incomplete: compile instead).
 */
function matchRulesAgainstPaths(bodyPtr: usize, bodyLen: usize, agentsPtr: usize, pathsPtr: usize, pathCount: u32, workPtr: usize): bool {
  workLimit = max(<u64>bodyLen * DIRECT_WORK_PER_BYTE, DIRECT_MIN_WORK);
  const ruleCount = selectRules(bodyPtr, bodyLen, agentsPtr, 0, workPtr);
  const rules = selectedRules;
  // a value is at most one line (MAX_LINE_BYTES in google mode): its pattern at most 3x, then the derived rule
  const table = alignUp(rules + <usize>ruleCount * RULE_INPUT_SIZE, 16);
  const pattern = table + PATH_INDEX_BYTES;
  const derived = pattern + 3 * <usize>MAX_LINE_BYTES + SLACK;
  ensureCapacity(derived + 3 * <usize>MAX_LINE_BYTES + 2 * SLACK);
  indexPaths(pathsPtr, pathCount, table);
  for (let r: u32 = 0; r < ruleCount; r++) {
    const input = rules + <usize>r * RULE_INPUT_SIZE;
    const kind = load<i32>(input + RULE_INPUT_KIND);
    if (cannotMatch(input, kind)) continue;
    const length = normalizeRuleValue(input, false, pattern);
    memory.fill(pattern + length, 0, SLACK);
    if (!matchPattern(kind, r, pattern, length, pathsPtr, pathCount)) return false;
    const derivedLength = writeIndexHtmRule(kind, false, pattern, length, derived);
    if (derivedLength > 0) {
      memory.fill(derived + derivedLength, 0, SLACK);
      if (!matchPattern(kind, r | DERIVED_RULE, derived, derivedLength, pathsPtr, pathCount)) return false;
    }
  }
  return true;
}

/** The verdict of a path record: the longer match wins, ties go to allow, priority 0 never decides. */
@inline function verdictOfPath(record: usize): u32 {
  const allow = load<i32>(record + PATH_ALLOW);
  const disallow = load<i32>(record + PATH_DISALLOW);
  if (allow > 0 || disallow > 0) return disallow > allow ? VERDICT_DISALLOWED : VERDICT_ALLOWED;
  return VERDICT_ALLOWED;
}

/** Writes the path of url[urlPtr, urlEnd) at dst with its record; returns the address after its bytes and slack. */
function addPath(record: usize, line: u32, urlPtr: usize, urlEnd: usize, dst: usize): usize {
  ensureCapacity(dst + (urlEnd - urlPtr) + 1 + SLACK);
  const length = writePath(urlPtr, urlEnd - urlPtr, dst);
  memory.fill(dst + length, 0, SLACK);
  store<u32>(record + PATH_START, <u32>dst);
  store<u32>(record + PATH_LENGTH, <u32>length);
  store<i32>(record + PATH_ALLOW, -1);
  store<i32>(record + PATH_DISALLOW, -1);
  store<u32>(record + PATH_LINE, line);
  store<u32>(record + PATH_ALLOW_RULE, 0);
  store<u32>(record + PATH_DISALLOW_RULE, 0);
  store<u64>(record + PATH_KEY, bswap<u64>(load<u64>(dst)));
  return alignUp(dst + length + SLACK, 8);
}

/**
 * Explain mode: the rule reference (RULE_REF_*) of a path record whose rules were matched: the raw value of
 * the deciding rule in the body (the one the compiled matcher names: the longest match of the deciding kind,
 * the earlier line on ties; a priority-0 allow decides nothing), or none.
 */
function storeDirectRuleRef(record: usize, ref: usize): void {
  store<u32>(ref + RULE_REF_RECORD, 0);
  store<u32>(ref + RULE_REF_PATTERNS, 0);
  const disallowed = verdictOfPath(record) == VERDICT_DISALLOWED;
  if (!disallowed && load<i32>(record + PATH_ALLOW) <= 0) {
    store<u32>(ref + RULE_REF_VALUE, 0);
    return;
  }
  const tag = load<u32>(record + (disallowed ? PATH_DISALLOW_RULE : PATH_ALLOW_RULE));
  const input = selectedRules + <usize>(tag & ~DERIVED_RULE) * RULE_INPUT_SIZE;
  store<u32>(ref + RULE_REF_VALUE, load<u32>(input + RULE_INPUT_VALUE_PTR));
  store<u32>(ref + RULE_REF_VALUE_LINE, load<u32>(input + RULE_INPUT_LINE));
  store<u16>(ref + RULE_REF_VALUE_LENGTH, <u16>load<u32>(input + RULE_INPUT_VALUE_LEN));
  store<u8>(ref + RULE_REF_VALUE_KIND, <u8>load<i32>(input + RULE_INPUT_KIND));
  store<u8>(ref + RULE_REF_VALUE_DERIVED, (tag & DERIVED_RULE) != 0 ? 1 : 0);
}

/**
 * Google mode: the verdicts of `count` lines of a chunk (line i starts at inputPtr + lineStarts[i], and its
 * index is orderPtr[first + k]) straight from a robots.txt body: verdicts go to verdictsPtr + i, and with
 * rulesPtr != 0 (explain mode) rule references to rulesPtr + i x RULE_REF_SIZE (they point into the body).
 * Returns false, with nothing written, when the work limit was passed or the lines are more than
 * MAX_DIRECT_PATHS (the caller compiles the body).
 */
export function answerLinesFromBody(bodyPtr: usize, bodyLen: usize, agentsPtr: usize, inputPtr: usize, lineStartsPtr: usize, orderPtr: usize, first: u32, count: u32, verdictsPtr: usize, rulesPtr: usize, workPtr: usize): bool {
  if (count > MAX_DIRECT_PATHS) return false;
  const pathsPtr = alignUp(workPtr, 16);
  const sortScratch = pathsPtr + <usize>count * PATH_SIZE;
  let bytes = sortScratch + <usize>count * (8 + PATH_SIZE);
  ensureCapacity(bytes);
  for (let k: u32 = 0; k < count; k++) {
    const i = load<u32>(orderPtr + <usize>(first + k) * 4);
    const line = inputPtr + <usize>load<u32>(lineStartsPtr + <usize>i * 4);
    bytes = addPath(pathsPtr + <usize>k * PATH_SIZE, i, line, urlEndOfLine(line, findLf(line)), bytes);
  }
  work = 0;
  sortPaths(pathsPtr, count, sortScratch);
  if (!matchRulesAgainstPaths(bodyPtr, bodyLen, agentsPtr, pathsPtr, count, bytes)) return false;
  for (let k: u32 = 0; k < count; k++) {
    const record = pathsPtr + <usize>k * PATH_SIZE;
    const line = <usize>load<u32>(record + PATH_LINE);
    store<u8>(verdictsPtr + line, <u8>verdictOfPath(record));
    if (rulesPtr != 0) storeDirectRuleRef(record, rulesPtr + line * RULE_REF_SIZE);
  }
  return true;
}

/**
 * Google mode: the verdict (VERDICT_*) of one URL [urlPtr, urlPtr + urlLen) straight from a robots.txt body,
 * or 0 when the work limit was passed (compile instead). For a matcher's first URL (src/core/matcher.ts).
 */
export function answerUrlFromBody(bodyPtr: usize, bodyLen: usize, agentsPtr: usize, urlPtr: usize, urlLen: usize, workPtr: usize): u32 {
  const record = alignUp(workPtr, 16);
  work = 0;
  const after = addPath(record, 0, urlPtr, urlPtr + urlLen, record + PATH_SIZE);
  if (!matchRulesAgainstPaths(bodyPtr, bodyLen, agentsPtr, record, 1, after)) return 0;
  return verdictOfPath(record);
}
