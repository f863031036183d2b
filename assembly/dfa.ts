// The bulk matcher: a deterministic automaton built lazily from the compiled trie (subset construction on
// demand, as URLs need states), so each path byte costs one table look-up. The trie NFA in match.ts stays
// the reference it is tested against, and the fallback when the automaton's memory budget runs out.
//
// The automaton works on every trie node, or, when the literal index answers the patterns without '*'
// (splitLiteral, large literal rule sets), only on the nodes that are, lie under or lead to a '*' node: a
// walk then dies as soon as no '*' pattern can match, and the number of states no longer grows with the
// literal rules. Two lines can be walked as a pair (walkLinePair) so that their look-up chains overlap.
//
// States are sets of trie nodes (literal nodes reached at this byte + every '*' node reached so far); a
// state's priorities are the best allow/disallow rule priorities of its nodes (those with a final '$'
// apart). Bytes are mapped to classes: one per byte that labels a trie edge, one for all other bytes,
// and two stop classes (END: LF '#' NUL; CR) whose table entries send the walk to the slow path.
//
// Region layout (at dfaPtr, capacity bytes; one region per matcher, kept while the matcher is cached):
//   | header | classOf u8[256] | classByte u8[256] | entryOffsetOf u16[256] | set buffer u32[nodes] | hash u32[pow2] | rows | node-set arena u32[...] |
// The header keeps what the walk's globals are derived from, so that a region is bound again (bindAutomaton)
// without losing its states: a host switch costs a few loads, not a rebuild. A region whose header is zero
// (fresh from the host) is laid out on first bind. Everything inside is named by offsets: the host may move
// a region (heap compaction) between calls.
// A state is one row of ROW_HEADER_WORDS header words (its priorities, skip bytes and node set) followed by
// one transition entry per byte class; a state is named by its row's byte offset from `table`, so the walk
// never divides nor shifts: entry address = entries + entryOffsetOf[byte] + state. Entries: the row offset
// of a plain state, or with ENTRY_SPECIAL set: the row of a state with rules or skip bytes, or one of the
// markers below. Worst case per path byte: one transition computation, O(set size x log(edges)); the number
// of states is bounded by the region (then: flush and NFA fallback).
import { CHAR_LF, CHAR_CR, CHAR_HASH, CHAR_NUL, RULE_PATTERN_LENGTH, RULE_LINE, RULE_SIZE, AUTOMATON_OVERFLOWS, AUTOMATON_HEADER_SIZE } from "../src/core/constants";
import {
  NODE_FIRST_CHILD, NODE_STAR_CHILD, RULE_SLOT_ALLOW, RULE_SLOT_DISALLOW, RULE_SLOT_ALLOW_END, RULE_SLOT_DISALLOW_END,
  NODE_HAS_RULE, NODE_HAS_END_RULE, NODE_IS_STAR, NODE_IN_AUTOMATON, NO_NODE, NO_RULE, alignUp, edgeCountOf, flagsOf,
} from "./layout";
import { findAnyOf8 } from "./scan";
import { labelsBase, blobNodeCount, automatonNodeCount, splitLiteral, rulesBase, nodeAddress, childFor, nextGeneration, stampNode, ruleSlotOf } from "./trie";

const ENTRY_SPECIAL: u32 = 0x80000000;
const ENTRY_UNKNOWN: u32 = 0xffffffff;
const ENTRY_END: u32 = 0xfffffffe;
const ENTRY_CR: u32 = 0xfffffffd;
const ENTRY_DEAD: u32 = 0xfffffffc;
/** Returned by the slow path when the walk stops (see walkStop). */
const WALK_STOPPED: u32 = 0xffffffff;

const CLASS_END: u32 = 0;
const CLASS_CR: u32 = 1;
const CLASS_OTHER: u32 = 2;
const FIRST_LITERAL_CLASS: u32 = 3;

// Row header (byte offsets from the row start)
const STATE_ALLOW: usize = 0; // best allow priority of its nodes (0 = none)
const STATE_DISALLOW: usize = 4;
const STATE_END_ALLOW: usize = 8; // best allow priority of rules ending in '$' here
const STATE_END_DISALLOW: usize = 12;
const STATE_SKIP_COUNT: usize = 16; // > 0: every byte but these (and the stop bytes) loops back here
const STATE_SKIP_BYTES: usize = 20; // up to MAX_SKIP_BYTES exit bytes
const STATE_SET_OFFSET: usize = 24; // u32 index into the arena of the state's node set
const STATE_SET_LENGTH: usize = 28;
// In the arena, the node set of a state follows its deciding rules (for explain mode, by priority then line):
const SET_ALLOW_RULE: usize = 0; // words before the node set: best allow rule of its nodes (NO_RULE = none)
const SET_DISALLOW_RULE: usize = 1;
const SET_END_ALLOW_RULE: usize = 2; // best allow rule ending in '$' at its nodes
const SET_END_DISALLOW_RULE: usize = 3;
const SET_RULE_WORDS: u32 = 4;
const ROW_HEADER_WORDS: u32 = 8;
const MAX_SKIP_BYTES: u32 = 4;
const ARENA_WORDS_PER_STATE: usize = 12;
const MIN_STATES: u32 = 64;

// Region header (byte offsets from the region start)
const REGION_READY: usize = 0; // REGION_MAGIC once laid out; 0 = fresh
const REGION_CAPACITY: usize = 4; // the capacity it was laid out for
const REGION_CLASS_COUNT: usize = 8;
const REGION_HASH_SIZE: usize = 12;
const REGION_MAX_STATES: usize = 16;
const REGION_STATE_COUNT: usize = 20;
const REGION_ARENA_USED: usize = 24;
const REGION_OVERFLOWS: usize = AUTOMATON_OVERFLOWS;
const REGION_DISABLED: usize = 32; // 1: too small for MIN_STATES, bulk calls use the NFA
const REGION_HEADER_SIZE: usize = AUTOMATON_HEADER_SIZE;
const REGION_MAGIC: u32 = 0x52444641; // "RDFA"

/** Why the last walk stopped. */
export const STOP_END: u32 = 0; // the path ended (LF, CR LF, '#', NUL, or the span's end)
export const STOP_DEAD: u32 = 1; // no pattern can match any more: the verdict is known
export const STOP_OVERFLOW: u32 = 2; // the region is full: the caller uses the NFA for this URL
export let walkStop: u32 = STOP_END;
export let bestAllowPriority: i32 = 0;
export let bestDisallowPriority: i32 = 0;

let classOf: usize = 0;
/** u16[256]: the byte offset of each byte's class entry in a row's entries (class x 4), so the walk never shifts. */
let entryOffsetOf: usize = 0;
let classByte: usize = 0;
let classCount: u32 = 0;
let setBuffer: usize = 0;
let hashTable: usize = 0;
let hashMask: u32 = 0;
let maxStates: u32 = 0;
let stateCount: u32 = 0;
/** Rows start here; a row's byte offset from here names a state. */
let table: usize = 0;
/** Words per row: header + one entry per class. */
let rowWords: u32 = 0;
let arena: usize = 0;
let arenaWords: u32 = 0;
let arenaUsed: u32 = 0;
let row: u32 = 0;
/** The bound region (its header); 0 when the bound matcher has none. */
let region: usize = 0;
/** Set when the region cannot hold even a small automaton (or there is none): bulk calls use the NFA. */
export let dfaDisabled = false;
/** Statistics for benchmarks: states now, resets since instantiation. */
export let dfaResets: u32 = 0;
/** Tests only: caps the number of states (0 = no cap) so that overflow and the NFA fallback run constantly. */
export let stateLimit: u32 = 0;
export function setStateLimit(limit: u32): void {
  stateLimit = limit;
}
export function dfaStateCount(): u32 {
  return stateCount;
}

/**
 * Binds the region at dfaPtr (capacity bytes) to the bound blob: laid out afresh when its header is zero (or
 * was laid out for another capacity), else its states are taken up where they were. dfaPtr 0: no region
 * (bulk calls use the NFA). Called whenever the active matcher changes.
 */
export function bindAutomaton(dfaPtr: usize, capacity: usize): void {
  region = dfaPtr;
  if (dfaPtr == 0) {
    dfaDisabled = true;
    return;
  }
  if (load<u32>(dfaPtr + REGION_READY) != REGION_MAGIC || <usize>load<u32>(dfaPtr + REGION_CAPACITY) != capacity) {
    store<u32>(dfaPtr + REGION_OVERFLOWS, 0);
    layOut(dfaPtr, capacity);
    return;
  }
  dfaDisabled = load<u32>(dfaPtr + REGION_DISABLED) != 0;
  if (dfaDisabled) return;
  classCount = load<u32>(dfaPtr + REGION_CLASS_COUNT);
  const hashSize = load<u32>(dfaPtr + REGION_HASH_SIZE);
  maxStates = load<u32>(dfaPtr + REGION_MAX_STATES);
  stateCount = load<u32>(dfaPtr + REGION_STATE_COUNT);
  arenaUsed = load<u32>(dfaPtr + REGION_ARENA_USED);
  locateTables(dfaPtr, capacity, hashSize);
}

/** The walk's addresses inside the region, from its start and sizes. */
function locateTables(dfaPtr: usize, capacity: usize, hashSize: u32): void {
  classOf = dfaPtr + REGION_HEADER_SIZE;
  classByte = classOf + 256;
  entryOffsetOf = classByte + 256;
  setBuffer = alignUp(entryOffsetOf + 512, 8);
  hashMask = hashSize - 1;
  hashTable = alignUp(setBuffer + <usize>blobNodeCount * 4, 8);
  rowWords = ROW_HEADER_WORDS + classCount;
  table = hashTable + <usize>hashSize * 4;
  arena = table + <usize>maxStates * <usize>rowWords * 4;
  arenaWords = <u32>((dfaPtr + capacity - arena) / 4);
}

/** Forgets every state of the bound region (it filled up): counted in its header, laid out again. */
export function resetDfa(): void {
  store<u32>(region + REGION_OVERFLOWS, load<u32>(region + REGION_OVERFLOWS) + 1);
  layOut(region, <usize>load<u32>(region + REGION_CAPACITY));
}

/** Lays out the region at dfaPtr for the bound blob, with only the start state. */
function layOut(dfaPtr: usize, capacity: usize): void {
  dfaResets++;
  store<u32>(dfaPtr + REGION_READY, REGION_MAGIC);
  store<u32>(dfaPtr + REGION_CAPACITY, <u32>capacity);
  classOf = dfaPtr + REGION_HEADER_SIZE;
  classByte = classOf + 256;
  memory.fill(classOf, <u8>CLASS_OTHER, 256);
  store<u8>(classOf + CHAR_LF, <u8>CLASS_END);
  store<u8>(classOf + CHAR_HASH, <u8>CLASS_END);
  store<u8>(classOf + CHAR_NUL, <u8>CLASS_END);
  store<u8>(classOf + CHAR_CR, <u8>CLASS_CR);
  classCount = FIRST_LITERAL_CLASS;
  // one class per byte that labels an edge between two automaton nodes
  for (let n: u32 = 0; n < blobNodeCount; n++) {
    const node = nodeAddress(n);
    if (!inAutomaton(n)) continue;
    const first = load<u32>(node + NODE_FIRST_CHILD);
    const count = edgeCountOf(node);
    for (let child = first; child < first + count; child++) {
      if (!inAutomaton(child)) continue;
      const label = <usize>load<u8>(labelsBase + <usize>child);
      if (<u32>load<u8>(classOf + label) == CLASS_OTHER) {
        store<u8>(classByte + <usize>classCount, <u8>label);
        store<u8>(classOf + label, <u8>classCount);
        classCount++;
      }
    }
  }
  store<u8>(classByte + <usize>CLASS_OTHER, 0x01);
  for (let b: usize = 1; b < 256; b++) {
    if (<u32>load<u8>(classOf + b) == CLASS_OTHER) { store<u8>(classByte + <usize>CLASS_OTHER, <u8>b); break; }
  }
  entryOffsetOf = classByte + 256;
  for (let b: usize = 0; b < 256; b++) store<u16>(entryOffsetOf + (b << 1), <u16>(<u32>load<u8>(classOf + b) << 2));
  setBuffer = alignUp(entryOffsetOf + 512, 8);
  const fixed = setBuffer + <usize>blobNodeCount * 4 - dfaPtr;
  rowWords = ROW_HEADER_WORDS + classCount;
  const perState = <usize>rowWords * 4 + 8 + ARENA_WORDS_PER_STATE * 4;
  const room = capacity > fixed + 64 ? capacity - fixed - 64 : 0;
  let count = <u32>(room / perState);
  dfaDisabled = count < MIN_STATES;
  store<u32>(dfaPtr + REGION_DISABLED, dfaDisabled ? 1 : 0);
  if (dfaDisabled) return;
  let hashSize: u32 = 1;
  while (hashSize < count * 2) hashSize <<= 1;
  if (<usize>hashSize * 4 + <usize>count * (perState - 8) > room) hashSize >>= 1;
  if (hashSize < count) count = hashSize;
  maxStates = stateLimit > 0 && stateLimit < count ? stateLimit : count;
  store<u32>(dfaPtr + REGION_CLASS_COUNT, classCount);
  store<u32>(dfaPtr + REGION_HASH_SIZE, hashSize);
  store<u32>(dfaPtr + REGION_MAX_STATES, maxStates);
  locateTables(dfaPtr, capacity, hashSize);
  memory.fill(hashTable, 0, <usize>hashSize * 4);
  arenaUsed = 0;
  stateCount = 0;
  // state 0: the root and the '*' nodes right under it (before the first path byte)
  const stamp = nextGeneration();
  let length: u32 = 0;
  length = addWithStars(0, stamp, length);
  createState(length);
}

/** Whether the automaton works on this node (all nodes, unless the literal index answers the literal ones). */
@inline function inAutomaton(index: u32): bool {
  return !splitLiteral || (flagsOf(nodeAddress(index)) & NODE_IN_AUTOMATON) != 0;
}

@inline function pushNode(index: u32, stamp: u32, length: u32): u32 {
  if (stampNode(index, stamp)) {
    store<u32>(setBuffer + <usize>length * 4, index);
    length++;
  }
  return length;
}

/** Adds a node reached by a literal byte and the chain of '*' nodes that can follow it without a byte. */
function addWithStars(index: u32, stamp: u32, length: u32): u32 {
  length = pushNode(index, stamp, length);
  let star = load<u32>(nodeAddress(index) + NODE_STAR_CHILD);
  while (star != NO_NODE) {
    length = pushNode(star, stamp, length);
    star = load<u32>(nodeAddress(star) + NODE_STAR_CHILD);
  }
  return length;
}

function sortSet(length: u32): void {
  // Shell sort: sets are usually a handful of nodes; hostile rule sets stay O(n^1.5).
  let gap = length >>> 1;
  while (gap > 0) {
    for (let i = gap; i < length; i++) {
      const value = load<u32>(setBuffer + <usize>i * 4);
      let j = i;
      while (j >= gap && load<u32>(setBuffer + <usize>(j - gap) * 4) > value) {
        store<u32>(setBuffer + <usize>j * 4, load<u32>(setBuffer + <usize>(j - gap) * 4));
        j -= gap;
      }
      store<u32>(setBuffer + <usize>j * 4, value);
    }
    gap >>>= 1;
  }
}

function hashSet(length: u32): u32 {
  let hash: u32 = 0x811c9dc5;
  for (let i: u32 = 0; i < length; i++) hash = (hash ^ load<u32>(setBuffer + <usize>i * 4)) * 0x01000193;
  return hash ^ (hash >>> 15);
}

function sameSet(rowOffset: u32, length: u32): bool {
  const record = table + <usize>rowOffset;
  if (load<u32>(record + STATE_SET_LENGTH) != length) return false;
  const set = arena + <usize>load<u32>(record + STATE_SET_OFFSET) * 4;
  for (let i: u32 = 0; i < length; i++) {
    if (load<u32>(set + <usize>i * 4) != load<u32>(setBuffer + <usize>i * 4)) return false;
  }
  return true;
}

/**
 * A state made only of '*' nodes stays itself on every byte that labels none of their edges. When those
 * labels are few (<= MAX_SKIP_BYTES) the walk can jump to the next such byte (or stop byte) with a vector
 * scan. Returns how many exit bytes were stored (0 = not a skip state).
 */
function skipBytesOf(record: usize, length: u32): u32 {
  let count: u32 = 0;
  for (let i: u32 = 0; i < length; i++) {
    const node = nodeAddress(load<u32>(setBuffer + <usize>i * 4));
    if ((flagsOf(node) & NODE_IS_STAR) == 0) return 0;
    const first = load<u32>(node + NODE_FIRST_CHILD);
    const edges = edgeCountOf(node);
    for (let e: u32 = 0; e < edges; e++) {
      const label = load<u8>(labelsBase + <usize>(first + e));
      let known = false;
      for (let k: u32 = 0; k < count; k++) if (load<u8>(record + STATE_SKIP_BYTES + <usize>k) == label) known = true;
      if (known) continue;
      if (count == MAX_SKIP_BYTES) return 0;
      store<u8>(record + STATE_SKIP_BYTES + <usize>count, label);
      count++;
    }
  }
  // pad with a byte already in the set so the scan can always compare four needles
  for (let k = count; k < MAX_SKIP_BYTES; k++) store<u8>(record + STATE_SKIP_BYTES + <usize>k, count > 0 ? load<u8>(record + STATE_SKIP_BYTES) : CHAR_LF);
  return count == 0 ? MAX_SKIP_BYTES + 1 : count; // no edges at all: only stop bytes leave it
}

@inline function rulePriority(rule: i32): i32 {
  return rule == NO_RULE ? 0 : load<i32>(rulesBase + <usize>rule * RULE_SIZE + RULE_PATTERN_LENGTH);
}

/**
 * The rule that would decide between two of the same kind, as the NFA (match.ts) picks it: the higher
 * priority, then the earlier line. Rules of priority 0 never decide and are left out. NO_RULE loses.
 */
function betterRule(best: i32, candidate: i32): i32 {
  if (candidate == NO_RULE) return best;
  const priority = rulePriority(candidate);
  if (priority == 0) return best;
  if (best == NO_RULE) return candidate;
  const bestPriority = rulePriority(best);
  if (priority != bestPriority) return priority > bestPriority ? candidate : best;
  const line = load<u32>(rulesBase + <usize>candidate * RULE_SIZE + RULE_LINE);
  return line < load<u32>(rulesBase + <usize>best * RULE_SIZE + RULE_LINE) ? candidate : best;
}

// ---- explain mode: the deciding rules of the walk, besides the priorities (bulk jsonl output) ----
/** Best allow and disallow rules met by the walk (explain mode only; NO_RULE = none with priority > 0). */
export let walkAllowRule: i32 = NO_RULE;
export let walkDisallowRule: i32 = NO_RULE;
/** Set by the caller for explain walks: the rare paths (slowEntry, finishPath) then record rules too. */
export let explaining = false;
export function setExplaining(value: bool): void {
  explaining = value;
}

/** Takes a state's rules into walkAllowRule / walkDisallowRule (end: the rules ending in '$'). */
function recordStateRules(rowOffset: u32, end: bool): void {
  const rules = arena + <usize>(load<u32>(table + <usize>rowOffset + STATE_SET_OFFSET) - SET_RULE_WORDS) * 4;
  walkAllowRule = betterRule(walkAllowRule, load<i32>(rules + (end ? SET_END_ALLOW_RULE : SET_ALLOW_RULE) * 4));
  walkDisallowRule = betterRule(walkDisallowRule, load<i32>(rules + (end ? SET_END_DISALLOW_RULE : SET_DISALLOW_RULE) * 4));
}

/** Makes a state of the set in setBuffer (sorted by the caller for lookups); returns its row offset or -1 when full. */
function createState(length: u32): i32 {
  if (stateCount >= maxStates || arenaUsed + SET_RULE_WORDS + length > arenaWords) return -1;
  const rowOffset = stateCount++ * rowWords * 4;
  const record = table + <usize>rowOffset;
  const rules = arena + <usize>arenaUsed * 4;
  arenaUsed += SET_RULE_WORDS;
  store<u32>(record + STATE_SET_OFFSET, arenaUsed);
  store<u32>(record + STATE_SET_LENGTH, length);
  memory.copy(arena + <usize>arenaUsed * 4, setBuffer, <usize>length * 4);
  arenaUsed += length;
  store<u32>(region + REGION_STATE_COUNT, stateCount);
  store<u32>(region + REGION_ARENA_USED, arenaUsed);
  let allow: i32 = 0, disallow: i32 = 0, endAllow: i32 = 0, endDisallow: i32 = 0;
  let allowRule = NO_RULE, disallowRule = NO_RULE, endAllowRule = NO_RULE, endDisallowRule = NO_RULE;
  for (let i: u32 = 0; i < length; i++) {
    const node = nodeAddress(load<u32>(setBuffer + <usize>i * 4));
    const flags = flagsOf(node);
    const slot = ruleSlotOf(node);
    if (flags & NODE_HAS_RULE) {
      allow = max(allow, rulePriority(load<i32>(slot + RULE_SLOT_ALLOW)));
      disallow = max(disallow, rulePriority(load<i32>(slot + RULE_SLOT_DISALLOW)));
      allowRule = betterRule(allowRule, load<i32>(slot + RULE_SLOT_ALLOW));
      disallowRule = betterRule(disallowRule, load<i32>(slot + RULE_SLOT_DISALLOW));
    }
    if (flags & NODE_HAS_END_RULE) {
      endAllow = max(endAllow, rulePriority(load<i32>(slot + RULE_SLOT_ALLOW_END)));
      endDisallow = max(endDisallow, rulePriority(load<i32>(slot + RULE_SLOT_DISALLOW_END)));
      endAllowRule = betterRule(endAllowRule, load<i32>(slot + RULE_SLOT_ALLOW_END));
      endDisallowRule = betterRule(endDisallowRule, load<i32>(slot + RULE_SLOT_DISALLOW_END));
    }
  }
  store<i32>(rules + SET_ALLOW_RULE * 4, allowRule);
  store<i32>(rules + SET_DISALLOW_RULE * 4, disallowRule);
  store<i32>(rules + SET_END_ALLOW_RULE * 4, endAllowRule);
  store<i32>(rules + SET_END_DISALLOW_RULE * 4, endDisallowRule);
  store<i32>(record + STATE_ALLOW, allow);
  store<i32>(record + STATE_DISALLOW, disallow);
  store<u32>(record + STATE_SKIP_COUNT, skipBytesOf(record, length));
  store<i32>(record + STATE_END_ALLOW, endAllow);
  store<i32>(record + STATE_END_DISALLOW, endDisallow);
  const entries = record + <usize>ROW_HEADER_WORDS * 4;
  store<u32>(entries + <usize>CLASS_END * 4, ENTRY_END);
  store<u32>(entries + <usize>CLASS_CR * 4, ENTRY_CR);
  for (let k = CLASS_OTHER; k < classCount; k++) store<u32>(entries + <usize>k * 4, ENTRY_UNKNOWN);
  let slot = hashSet(length) & hashMask;
  while (load<u32>(hashTable + <usize>slot * 4) != 0) slot = (slot + 1) & hashMask;
  store<u32>(hashTable + <usize>slot * 4, rowOffset + 1);
  return <i32>rowOffset;
}

@inline function entryAddress(rowOffset: u32, cls: u32): usize {
  return table + <usize>rowOffset + ((<usize>ROW_HEADER_WORDS + <usize>cls) << 2);
}

/** The table entry for (state row, class), computing the next state on first use; ENTRY_DEAD + walkStop on overflow. */
function computeEntry(rowOffset: u32, cls: u32): u32 {
  const record = table + <usize>rowOffset;
  const set = arena + <usize>load<u32>(record + STATE_SET_OFFSET) * 4;
  const setLength = load<u32>(record + STATE_SET_LENGTH);
  const c = <i32>load<u8>(classByte + <usize>cls);
  const stamp = nextGeneration();
  let length: u32 = 0;
  for (let i: u32 = 0; i < setLength; i++) {
    const index = load<u32>(set + <usize>i * 4);
    if (flagsOf(nodeAddress(index)) & NODE_IS_STAR) length = pushNode(index, stamp, length);
    if (cls != CLASS_OTHER) {
      const child = childFor(index, c);
      if (child != NO_NODE && inAutomaton(child)) length = addWithStars(child, stamp, length);
    }
  }
  let entry: u32;
  if (length == 0) {
    entry = ENTRY_DEAD;
  } else {
    sortSet(length);
    let slot = hashSet(length) & hashMask;
    let found: i32 = -1;
    while (true) {
      const value = load<u32>(hashTable + <usize>slot * 4);
      if (value == 0) break;
      if (sameSet(value - 1, length)) { found = <i32>(value - 1); break; }
      slot = (slot + 1) & hashMask;
    }
    if (found < 0) found = createState(length);
    if (found < 0) {
      walkStop = STOP_OVERFLOW;
      return ENTRY_DEAD;
    }
    const next = table + <usize>found;
    entry = <u32>found;
    if (load<i32>(next + STATE_ALLOW) > 0 || load<i32>(next + STATE_DISALLOW) > 0 || load<u32>(next + STATE_SKIP_COUNT) > 0) entry |= ENTRY_SPECIAL;
  }
  store<u32>(entryAddress(rowOffset, cls), entry);
  return entry;
}

function recordState(rowOffset: u32): void {
  const record = table + <usize>rowOffset;
  bestAllowPriority = max(bestAllowPriority, load<i32>(record + STATE_ALLOW));
  bestDisallowPriority = max(bestDisallowPriority, load<i32>(record + STATE_DISALLOW));
  if (explaining) recordStateRules(rowOffset, false);
}

@inline function finishPath(rowOffset: u32): void {
  const record = table + <usize>rowOffset;
  bestAllowPriority = max(bestAllowPriority, load<i32>(record + STATE_END_ALLOW));
  bestDisallowPriority = max(bestDisallowPriority, load<i32>(record + STATE_END_DISALLOW));
  if (explaining) recordStateRules(rowOffset, true);
  walkStop = STOP_END;
}

/** Index of the first byte at or after p that is a stop byte (LF, CR, '#', NUL) or one of the state's exit bytes. */
@inline function skipScan(p: usize, record: usize): usize {
  const exits = load<u32>(record + STATE_SKIP_BYTES);
  return findAnyOf8(p,
    i8x16.splat(<i8>(exits & 0xff)), i8x16.splat(<i8>((exits >>> 8) & 0xff)), i8x16.splat(<i8>((exits >>> 16) & 0xff)), i8x16.splat(<i8>(exits >>> 24)),
    i8x16.splat(<i8>CHAR_LF), i8x16.splat(<i8>CHAR_CR), i8x16.splat(<i8>CHAR_HASH), i8x16.splat(0));
}

/**
 * Resolves a special entry for byte c at p: computes unknown transitions, treats LF/CR as data where they
 * do not end the URL, records a rule state's priorities, and in a skip state jumps ahead. Returns the next
 * row, or WALK_STOPPED; sets skipTo (the next byte to read) when it jumped.
 */
let skipTo: usize = 0;

/** Entering a state with rules or skip bytes at p: record its priorities, jump ahead in a skip state. */
@inline function enterSpecial(next: u32, p: usize): void {
  const record = table + <usize>next;
  bestAllowPriority = max(bestAllowPriority, load<i32>(record + STATE_ALLOW));
  bestDisallowPriority = max(bestDisallowPriority, load<i32>(record + STATE_DISALLOW));
  if (explaining) recordStateRules(next, false);
  skipTo = p != 0 && load<u32>(record + STATE_SKIP_COUNT) > 0 ? skipScan(p + 1, record) : 0;
}

function slowEntry(current: u32, c: u32, entry: u32, p: usize, lines: bool): u32 {
  while (true) {
    if (entry == ENTRY_UNKNOWN) {
      entry = computeEntry(current, <u32>load<u8>(classOf + <usize>c));
      if (walkStop == STOP_OVERFLOW) return WALK_STOPPED;
      continue;
    }
    if (entry == ENTRY_END || entry == ENTRY_CR) {
      const endsUrl = entry == ENTRY_END ? (c != CHAR_LF || lines) : (lines && load<u8>(p + 1) == CHAR_LF);
      if (endsUrl) {
        finishPath(current);
        return WALK_STOPPED;
      }
      // LF or CR inside a URL given by offsets: an ordinary byte (no pattern can contain it)
      entry = load<u32>(entryAddress(current, CLASS_OTHER));
      if (entry == ENTRY_UNKNOWN) entry = computeEntry(current, CLASS_OTHER);
      if (walkStop == STOP_OVERFLOW) return WALK_STOPPED;
      continue;
    }
    if (entry == ENTRY_DEAD) {
      walkStop = STOP_DEAD;
      return WALK_STOPPED;
    }
    const next = entry & ~ENTRY_SPECIAL;
    enterSpecial(next, p);
    return next;
  }
}

/** Starts a URL: state 0 (before any byte), priorities cleared. */
export function beginWalk(): void {
  bestAllowPriority = 0;
  bestDisallowPriority = 0;
  walkAllowRule = NO_RULE;
  walkDisallowRule = NO_RULE;
  walkStop = STOP_END;
  row = 0;
  recordState(0);
}

/** Feeds one byte that is not in the input (the '/' put in front of a path starting with '?' or ';'). */
export function feedByte(c: u32): bool {
  let entry = load<u32>(entryAddress(row, <u32>load<u8>(classOf + <usize>c)));
  if (entry & ENTRY_SPECIAL) {
    entry = slowEntry(row, c, entry, 0, false);
    if (entry == WALK_STOPPED) return false;
  }
  row = entry; // a skip found while feeding is ignored: the next walk starts at the next real byte anyway
  return true;
}

/**
 * Walks path bytes from p until the path ends or no pattern can match (walkStop says which); returns where
 * it stopped. Lines: the input is followed by an LF sentinel and 16 readable bytes, `end` is never reached
 * first. Spans: [p, end) is one URL in which LF and CR are ordinary bytes.
 */
@inline function walkImpl(p: usize, end: usize, lines: bool): usize {
  let current = row;
  const entries = table + <usize>ROW_HEADER_WORDS * 4;
  const offsets = entryOffsetOf;
  while (p < end) {
    const c = <u32>load<u8>(p);
    let entry = load<u32>(entries + <usize>load<u16>(offsets + (<usize>c << 1)) + <usize>current);
    if (entry & ENTRY_SPECIAL) {
      if (entry < ENTRY_DEAD) {
        // a state with rules or skip bytes: the common special case, handled here
        entry &= ~ENTRY_SPECIAL;
        enterSpecial(entry, p);
      } else {
        if (lines && entry == ENTRY_END && c == CHAR_LF) {
          finishPath(current);
          row = current;
          return p;
        }
        entry = slowEntry(current, c, entry, p, lines);
        if (entry == WALK_STOPPED) {
          row = current;
          return p;
        }
      }
      if (skipTo != 0) {
        current = entry;
        p = lines ? skipTo : min(skipTo, end);
        continue;
      }
    }
    current = entry;
    p++;
  }
  row = current;
  finishPath(current);
  return p;
}

/** Lines mode walk (see walkImpl). */
export function walkLine(p: usize): usize {
  return walkImpl(p, <usize>-1, true);
}

/** Span mode walk (see walkImpl). */
export function walkSpan(p: usize, end: usize): usize {
  return walkImpl(p, end, false);
}

// ---- pair walks: two lines at once, each in its own locals, so that the two chains of dependent table
// look-ups (one load waits for the one before it) overlap in the processor. Lines mode only.
/** Results of walkLinePair: each lane's stop address and priorities; overflow when the region filled up. */
export let pairStopA: usize = 0;
export let pairStopB: usize = 0;
export let pairAllowA: i32 = 0;
export let pairDisallowA: i32 = 0;
export let pairAllowB: i32 = 0;
export let pairDisallowB: i32 = 0;
export let pairOverflow = false;

/** A special entry met at p in lines mode (see walkImpl): the next row or WALK_STOPPED; sets skipTo. */
@inline function specialStep(current: u32, c: u32, entry: u32, p: usize): u32 {
  skipTo = 0;
  walkStop = STOP_END;
  if (entry < ENTRY_DEAD) {
    entry &= ~ENTRY_SPECIAL;
    enterSpecial(entry, p);
    return entry;
  }
  if (entry == ENTRY_END && c == CHAR_LF) {
    finishPath(current);
    return WALK_STOPPED;
  }
  return slowEntry(current, c, entry, p, true);
}

/** The lane that has not stopped walks on alone from row `current` at p; returns where it stopped. */
function finishAlone(current: u32, allow: i32, disallow: i32, p: usize): usize {
  row = current;
  bestAllowPriority = allow;
  bestDisallowPriority = disallow;
  walkStop = STOP_END;
  const stop = walkLine(p);
  pairOverflow = walkStop == STOP_OVERFLOW;
  return stop;
}

/**
 * Walks the lines at pA and pB from state 0 (both start with '/') until both stop; results in pair*.
 * When one stops first, the other finishes alone (walkLine).
 */
export function walkLinePair(pA: usize, pB: usize): void {
  const entries = table + <usize>ROW_HEADER_WORDS * 4;
  const offsets = entryOffsetOf;
  beginWalk();
  const start = row;
  let currentA = start, currentB = start;
  let allowA = bestAllowPriority, disallowA = bestDisallowPriority;
  let allowB = allowA, disallowB = disallowA;
  pairOverflow = false;
  while (true) {
    const cA = <u32>load<u8>(pA);
    const cB = <u32>load<u8>(pB);
    const entryA = load<u32>(entries + <usize>load<u16>(offsets + (<usize>cA << 1)) + <usize>currentA);
    const entryB = load<u32>(entries + <usize>load<u16>(offsets + (<usize>cB << 1)) + <usize>currentB);
    if (((entryA | entryB) & ENTRY_SPECIAL) == 0) {
      currentA = entryA;
      currentB = entryB;
      pA++;
      pB++;
      continue;
    }
    if (entryA & ENTRY_SPECIAL) {
      bestAllowPriority = allowA;
      bestDisallowPriority = disallowA;
      const next = specialStep(currentA, cA, entryA, pA);
      allowA = bestAllowPriority;
      disallowA = bestDisallowPriority;
      if (next == WALK_STOPPED) {
        pairStopA = pA;
        pairAllowA = allowA;
        pairDisallowA = disallowA;
        if (walkStop == STOP_OVERFLOW) { pairOverflow = true; return; }
        // B goes on alone from the byte it has not taken yet
        pairStopB = finishAlone(currentB, allowB, disallowB, pB);
        pairAllowB = bestAllowPriority;
        pairDisallowB = bestDisallowPriority;
        return;
      }
      currentA = next;
      pA = skipTo != 0 ? skipTo : pA + 1;
    } else {
      currentA = entryA;
      pA++;
    }
    if (entryB & ENTRY_SPECIAL) {
      bestAllowPriority = allowB;
      bestDisallowPriority = disallowB;
      const next = specialStep(currentB, cB, entryB, pB);
      allowB = bestAllowPriority;
      disallowB = bestDisallowPriority;
      if (next == WALK_STOPPED) {
        pairStopB = pB;
        pairAllowB = allowB;
        pairDisallowB = disallowB;
        if (walkStop == STOP_OVERFLOW) { pairOverflow = true; return; }
        pairStopA = finishAlone(currentA, allowA, disallowA, pA);
        pairAllowA = bestAllowPriority;
        pairDisallowA = bestDisallowPriority;
        return;
      }
      currentB = next;
      pB = skipTo != 0 ? skipTo : pB + 1;
    } else {
      currentB = entryB;
      pB++;
    }
  }
}

/** Automaton nodes above which pair walks pay off (large automata: look-ups that miss the caches). */
export function automatonIsLarge(): bool {
  return automatonNodeCount > 4096;
}
