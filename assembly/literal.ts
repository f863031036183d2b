// The literal trie: every pattern without '*' (a final '$' allowed) in a path-compressed trie laid out in
// depth-first order, so that the bulk walk descends a large literal rule set (the usual shape of a
// 10,000-rule robots.txt) touching one small record per branch instead of one automaton state per byte.
// Patterns with a '*' are answered by the automaton (dfa.ts), which skips every node that cannot lead to
// a '*'; the verdict takes the larger priority of both walks (a rule both see counts once: max).
//
// Record (4-aligned, at a byte offset from the literal trie's start; the root is at offset 0):
//   +0  i32 allow          best allow priority of the prefix rules on the way here, this node included
//   +4  i32 disallow
//   +8  i32 endAllow       the same, plus the rule "<this prefix>$": the priorities when the path ends here
//   +12 i32 endDisallow
//   +16 u16 runLength      bytes that follow the edge label on the way into this node (a chain of trie
//                          nodes without rules and with one child each, compressed)
//   +18 u16 edgeCount      children, labels sorted
//   +20 u8  run[runLength], then the child index: up to 16 children, u8 labels[edgeCount]; more, a u8[256]
//           table of (child position + 1) by byte; then padding to 4, u32 children[edgeCount] (record offsets)
// Labels that end a path (LF, CR, '#', NUL) are left out: no path can continue through them.
//
// Worst case per path byte: one child look-up (a 16-byte vector compare up to 16 children, else one table
// load) or one byte of a run comparison; a walk never goes back, so a URL costs
// O(path length) whatever the number of rules.
import { CHAR_LF, CHAR_CR, CHAR_HASH, CHAR_NUL, CHAR_SLASH, RULE_PATTERN_LENGTH, RULE_SIZE } from "../src/constants";
import {
  NODE_FIRST_CHILD, NODE_RULE_SLOT, NODE_SIZE, NODE_HAS_RULE, NODE_HAS_END_RULE, RULE_SLOT_ALLOW, RULE_SLOT_DISALLOW,
  RULE_SLOT_ALLOW_END, RULE_SLOT_DISALLOW_END, RULE_SLOT_SIZE, NO_RULE, alignUp, ensureCapacity, edgeCountOf, flagsOf,
} from "./layout";

const RECORD_ALLOW: usize = 0;
const RECORD_DISALLOW: usize = 4;
const RECORD_END_ALLOW: usize = 8;
const RECORD_END_DISALLOW: usize = 12;
const RECORD_RUN_LENGTH: usize = 16;
const RECORD_EDGE_COUNT: usize = 18;
const RECORD_RUN: usize = 20;
const MAX_RUN_LENGTH: u32 = 0xffff;
const VECTOR_SEARCH_MAX_EDGES: u32 = 16;
/** Readable bytes the builder leaves after the last record (label vector loads may read past a record). */
export const LITERAL_TRIE_SLACK: usize = 16;

// Build stack entries (build-time scratch, above the trie being written)
const ENTRY_NODE: usize = 0; // first trie node of the chain (the one the edge label leads to)
const ENTRY_SLOT: usize = 4; // where the parent wants this record's offset
const ENTRY_ALLOW: usize = 8; // the parent's priorities
const ENTRY_DISALLOW: usize = 12;
const ENTRY_SIZE: usize = 16;

@inline function endsPath(label: u32): bool {
  return label == CHAR_LF || label == CHAR_CR || label == CHAR_HASH || label == CHAR_NUL;
}

/** Worst-case size of the literal trie of a trie with nodeCount nodes (for the caller's capacity). */
export function literalTrieBound(nodeCount: u32): usize {
  // per node: header 20, one run or label byte, one child offset, alignment 3; a 256-byte child table for
  // at most one node in 17 (each has more than 16 children); plus the slack
  return <usize>nodeCount * 28 + (<usize>nodeCount / 17 + 1) * 256 + LITERAL_TRIE_SLACK + 16;
}

/**
 * Writes the literal trie of the trie whose node records start at nodes (labels at labels, rule slots at
 * ruleSlots, rules at rules; layout.ts) at out; uses [stackPtr, stackPtr + nodeCount x 16) as scratch.
 * Returns its length in bytes. Cost: O(nodes).
 */
export function buildLiteralTrie(nodes: usize, labels: usize, ruleSlots: usize, rules: usize, nodeCount: u32, out: usize, stackPtr: usize): usize {
  ensureCapacity(stackPtr + <usize>nodeCount * ENTRY_SIZE + ENTRY_SIZE);
  let used: usize = 0;
  let depth: usize = 0;
  // the root: no label, no run
  store<u32>(stackPtr + ENTRY_NODE, 0);
  store<u32>(stackPtr + ENTRY_SLOT, 0);
  store<i32>(stackPtr + ENTRY_ALLOW, 0);
  store<i32>(stackPtr + ENTRY_DISALLOW, 0);
  depth = 1;
  let isRoot = true;
  while (depth > 0) {
    depth--;
    const entry = stackPtr + depth * ENTRY_SIZE;
    let node = load<u32>(entry + ENTRY_NODE);
    const slot = <usize>load<u32>(entry + ENTRY_SLOT);
    let allow = load<i32>(entry + ENTRY_ALLOW);
    let disallow = load<i32>(entry + ENTRY_DISALLOW);
    const record = out + used;
    if (slot != 0) store<u32>(slot, <u32>used);
    // follow the chain of rule-less single-child nodes, writing its labels as the run
    let runLength: u32 = 0;
    if (!isRoot) {
      while (runLength < MAX_RUN_LENGTH) {
        const address = nodes + <usize>node * NODE_SIZE;
        if ((flagsOf(address) & (NODE_HAS_RULE | NODE_HAS_END_RULE)) != 0) break;
        const only = onlyChild(address, labels);
        if (only < 0) break;
        store<u8>(record + RECORD_RUN + <usize>runLength, load<u8>(labels + <usize>only));
        runLength++;
        node = <u32>only;
      }
    }
    isRoot = false;
    const address = nodes + <usize>node * NODE_SIZE;
    const flags = flagsOf(address);
    const ruleSlot = ruleSlots + <usize>load<u32>(address + NODE_RULE_SLOT) * RULE_SLOT_SIZE;
    if (flags & NODE_HAS_RULE) {
      allow = max(allow, priorityOf(rules, load<i32>(ruleSlot + RULE_SLOT_ALLOW)));
      disallow = max(disallow, priorityOf(rules, load<i32>(ruleSlot + RULE_SLOT_DISALLOW)));
    }
    let endAllow = allow;
    let endDisallow = disallow;
    if (flags & NODE_HAS_END_RULE) {
      endAllow = max(endAllow, priorityOf(rules, load<i32>(ruleSlot + RULE_SLOT_ALLOW_END)));
      endDisallow = max(endDisallow, priorityOf(rules, load<i32>(ruleSlot + RULE_SLOT_DISALLOW_END)));
    }
    store<i32>(record + RECORD_ALLOW, allow);
    store<i32>(record + RECORD_DISALLOW, disallow);
    store<i32>(record + RECORD_END_ALLOW, endAllow);
    store<i32>(record + RECORD_END_DISALLOW, endDisallow);
    store<u16>(record + RECORD_RUN_LENGTH, <u16>runLength);
    // children: labels, then their record offsets (filled in when each child is written)
    const first = load<u32>(address + NODE_FIRST_CHILD);
    const count = edgeCountOf(address);
    const recordLabels = record + RECORD_RUN + <usize>runLength;
    let kept: u32 = 0;
    for (let e: u32 = 0; e < count; e++) if (!endsPath(<u32>load<u8>(labels + <usize>(first + e)))) kept++;
    const wide = kept > VECTOR_SEARCH_MAX_EDGES;
    if (wide) memory.fill(recordLabels, 0, 256);
    let position: u32 = 0;
    for (let e: u32 = 0; e < count; e++) {
      const label = <u32>load<u8>(labels + <usize>(first + e));
      if (endsPath(label)) continue;
      if (wide) store<u8>(recordLabels + <usize>label, <u8>(position + 1));
      else store<u8>(recordLabels + <usize>position, <u8>label);
      position++;
    }
    store<u16>(record + RECORD_EDGE_COUNT, <u16>kept);
    const children = alignUp(recordLabels + (wide ? 256 : <usize>kept), 4);
    used = children + <usize>kept * 4 - out;
    // push the children last to first, so the first child is written next (depth-first order)
    let k = kept;
    for (let e = <i32>count - 1; e >= 0; e--) {
      const child = first + <u32>e;
      if (endsPath(<u32>load<u8>(labels + <usize>child))) continue;
      k--;
      const pushed = stackPtr + depth * ENTRY_SIZE;
      store<u32>(pushed + ENTRY_NODE, child);
      store<u32>(pushed + ENTRY_SLOT, <u32>(children + <usize>k * 4));
      store<i32>(pushed + ENTRY_ALLOW, allow);
      store<i32>(pushed + ENTRY_DISALLOW, disallow);
      depth++;
    }
  }
  memory.fill(out + used, 0, LITERAL_TRIE_SLACK);
  return alignUp(used + LITERAL_TRIE_SLACK, 8);
}

/** A node's only followable child, or -1 (none, or more than one). */
function onlyChild(address: usize, labels: usize): i32 {
  const first = load<u32>(address + NODE_FIRST_CHILD);
  const count = edgeCountOf(address);
  let found: i32 = -1;
  for (let child = first; child < first + count; child++) {
    if (endsPath(<u32>load<u8>(labels + <usize>child))) continue;
    if (found >= 0) return -1;
    found = <i32>child;
  }
  return found;
}

@inline function priorityOf(rules: usize, rule: i32): i32 {
  return rule == NO_RULE ? 0 : load<i32>(rules + <usize>rule * RULE_SIZE + RULE_PATTERN_LENGTH);
}

// ---- the walk ----
let literalBase: usize = 0;
/** Priorities found by the last walkLiteral (0 = no rule). */
export let literalAllowPriority: i32 = 0;
export let literalDisallowPriority: i32 = 0;
const rootPath = memory.data<u8>([<u8>CHAR_SLASH]);

/** Binds the literal trie at base (from the blob header); no rule found until the next walk. */
export function bindLiteralTrie(base: usize): void {
  literalBase = base;
  literalAllowPriority = 0;
  literalDisallowPriority = 0;
}

/** The record of the child of record for byte c, or 0 (the root is nobody's child). */
@inline function childOf(record: usize, c: u32): usize {
  const count = <u32>load<u16>(record + RECORD_EDGE_COUNT);
  const labels = record + RECORD_RUN + <usize>load<u16>(record + RECORD_RUN_LENGTH);
  if (count <= VECTOR_SEARCH_MAX_EDGES) {
    const hits = i8x16.bitmask(i8x16.eq(v128.load(labels), i8x16.splat(<i8>c))) & ((1 << count) - 1);
    if (hits == 0) return 0;
    return literalBase + <usize>load<u32>(alignUp(labels + <usize>count, 4) + (<usize>ctz(hits) << 2));
  }
  const position = <usize>load<u8>(labels + <usize>c);
  if (position == 0) return 0;
  return literalBase + <usize>load<u32>(alignUp(labels + 256, 4) + ((position - 1) << 2));
}

/** True when the length bytes at p equal the run of record (8 bytes a step; never reads 8 bytes past a mismatch). */
@inline function runMatches(record: usize, p: usize, length: usize): bool {
  const run = record + RECORD_RUN;
  let i: usize = 0;
  for (; i + 8 <= length; i += 8) {
    if (load<u64>(p + i) != load<u64>(run + i)) return false;
  }
  for (; i < length; i++) {
    if (load<u8>(p + i) != load<u8>(run + i)) return false;
  }
  return true;
}

@inline function stopAt(record: usize, atEnd: bool): void {
  literalAllowPriority = load<i32>(record + (atEnd ? RECORD_END_ALLOW : RECORD_ALLOW));
  literalDisallowPriority = load<i32>(record + (atEnd ? RECORD_END_DISALLOW : RECORD_DISALLOW));
}

/**
 * Walks the path from p through the literal trie and sets literalAllowPriority / literalDisallowPriority.
 * leadingSlash: the path starts with '?' or ';' and is matched as if a '/' came first. Lines mode: the path
 * ends at LF, CR LF, '#' or NUL (the input has an LF sentinel and 16 readable bytes after it); span mode: at
 * `end`, '#' or NUL, and LF and CR are ordinary bytes. Returns where the walk stopped.
 */
@inline function walkLiteralImpl(p: usize, end: usize, lines: bool, leadingSlash: bool): usize {
  let record = literalBase;
  let c: u32 = CHAR_SLASH;
  let virtual = leadingSlash;
  while (true) {
    if (!virtual) {
      if (!lines && p >= end) break;
      c = <u32>load<u8>(p);
      if (c == CHAR_HASH || c == CHAR_NUL) break;
      if (lines && (c == CHAR_LF || (c == CHAR_CR && load<u8>(p + 1) == CHAR_LF))) break;
      p++;
    }
    virtual = false;
    const child = childOf(record, c);
    if (child == 0) {
      stopAt(record, false);
      return p;
    }
    const runLength = <usize>load<u16>(child + RECORD_RUN_LENGTH);
    if (runLength != 0) {
      // a run ends inside the path or differs: the path went past this record without reaching the child
      if ((!lines && p + runLength > end) || !runMatches(child, p, runLength)) {
        stopAt(record, false);
        return p;
      }
      p += runLength;
    }
    record = child;
  }
  stopAt(record, true);
  return p;
}

/** Lines mode walk (see walkLiteralImpl). */
export function walkLiteralLine(p: usize, leadingSlash: bool): usize {
  return walkLiteralImpl(p, <usize>-1, true, leadingSlash);
}

/** Span mode walk of [p, end) (see walkLiteralImpl). */
export function walkLiteralSpan(p: usize, end: usize, leadingSlash: bool): usize {
  return walkLiteralImpl(p, end, false, leadingSlash);
}

/** The priorities of the path "/" (a URL without a path). */
export function walkLiteralRoot(): void {
  walkLiteralImpl(rootPath, rootPath + 1, false, false);
}
