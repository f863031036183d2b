// Compiles one rule list (the rules that apply to one agent query) into a position-independent blob:
// a trie over the normalised patterns in which '*' is an edge of its own and a final '$' marks "end rule".
// Priority of a rule = byte length of its normalised pattern = its depth in the trie (+1 for a final '$').
import {
  RULE_INPUT_KIND, RULE_INPUT_LINE, RULE_INPUT_VALUE_PTR, RULE_INPUT_VALUE_LEN, RULE_INPUT_SIZE,
  RULE_KIND, RULE_LINE, RULE_PATTERN_OFFSET, RULE_PATTERN_LENGTH, RULE_DERIVED, RULE_SIZE,
  RULE_KIND_ALLOW, FLAG_RFC_MODE, BLOB_MAGIC, HEADER_MAGIC, HEADER_FLAGS, HEADER_NODE_COUNT, HEADER_RULE_COUNT,
  HEADER_NODES_OFFSET, HEADER_LABELS_OFFSET, HEADER_RULE_SLOTS_OFFSET, HEADER_RULES_OFFSET,
  HEADER_PATTERNS_OFFSET, HEADER_TOTAL_LENGTH, HEADER_RULE_SLOT_COUNT, HEADER_LITERAL_OFFSET, HEADER_AUTOMATON_NODE_COUNT, HEADER_GENERATION, HEADER_SIZE, CHAR_SLASH, CHAR_DOLLAR, CHAR_ASTERISK,
} from "../src/core/constants";
import { normalizeGooglePattern, normalizeRfc } from "./escape";
import {
  NODE_FIRST_CHILD, NODE_STAR_CHILD, NODE_RULE_SLOT, NODE_EDGES_AND_FLAGS, NODE_SIZE, NODE_FLAGS_SHIFT,
  RULE_SLOT_ALLOW, RULE_SLOT_DISALLOW, RULE_SLOT_ALLOW_END, RULE_SLOT_DISALLOW_END, RULE_SLOT_SIZE,
  NODE_HAS_RULE, NODE_HAS_END_RULE, NODE_IS_STAR, NODE_IN_AUTOMATON, NO_RULE, NO_NODE, ensureCapacity, alignUp, patternKeyLength,
} from "./layout";
import { zeroBytesOf } from "./scan";
import { buildLiteralIndex, literalIndexBound, MAX_INDEXED_RULES } from "./literal";
import { wantLiteralIndex } from "./trie";

// Build-time node records, BUILD_SIZE bytes per node in the scratch area (the final records, numbered
// breadth-first, are written from them at the end: see layOutNodes):
const BUILD_FIRST_CHILD: usize = 0; // i32, -1 = none: the head of the sorted list of literal children
const BUILD_NEXT_SIBLING: usize = 4; // i32, -1 = none
const BUILD_LABEL: usize = 8; // u32 byte value
const BUILD_PARENT: usize = 12; // u32 (the root's is 0)
const BUILD_STAR_CHILD: usize = 16; // u32, NO_NODE = none
const BUILD_FLAGS: usize = 20; // u32 NODE_* flags
const BUILD_RULE_SLOT: usize = 24; // i32, -1 = none yet
const BUILD_SIZE: usize = 32;

const INDEX_HTM_LENGTH: usize = 10; // "/index.htm"
/** Readable bytes after the labels array (16-byte vector loads of a node's labels may read past the last). */
const LABELS_SLACK: usize = 16;

/** Whether pattern[0, length) has a '*' (8 bytes a step). */
export function hasAsterisk(pattern: usize, length: usize): bool {
  let i: usize = 0;
  for (; i + 8 <= length; i += 8) {
    if (zeroBytesOf(load<u64>(pattern + i) ^ 0x2a2a2a2a2a2a2a2a) != 0) return true;
  }
  for (; i < length; i++) {
    if (<i32>load<u8>(pattern + i) == CHAR_ASTERISK) return true;
  }
  return false;
}

let buildPtr: usize = 0;
let nodeCount: u32 = 0;
let ruleSlotsPtr: usize = 0;
let ruleSlotCount: u32 = 0;

// A new build record as two 16-byte vectors: no child, no sibling, label 0, then the parent; no star child,
// no flags, no rule slot (the layout above, which these words follow: checked below).
const NEW_BUILD_LOW = i32x4(-1, -1, 0, 0);
const NEW_BUILD_HIGH = i32x4(NO_NODE, 0, -1, 0);
const NEW_RULE_SLOT = i32x4(NO_RULE, NO_RULE, NO_RULE, NO_RULE);
assert(BUILD_FIRST_CHILD == 0 && BUILD_NEXT_SIBLING == 4 && BUILD_LABEL == 8 && BUILD_PARENT == 12 && BUILD_STAR_CHILD == 16 &&
  BUILD_FLAGS == 20 && BUILD_RULE_SLOT == 24 && BUILD_SIZE == 32);
assert(RULE_SLOT_ALLOW == 0 && RULE_SLOT_DISALLOW == 4 && RULE_SLOT_ALLOW_END == 8 && RULE_SLOT_DISALLOW_END == 12 && RULE_SLOT_SIZE == 16);

@inline function buildRecord(index: u32): usize {
  return buildPtr + <usize>index * BUILD_SIZE;
}

function newNode(parent: u32): u32 {
  const index = nodeCount++;
  const record = buildRecord(index);
  v128.store(record, i32x4.replace_lane(NEW_BUILD_LOW, 3, <i32>parent));
  v128.store(record + 16, NEW_BUILD_HIGH);
  return index;
}

/** The literal child of parent for byte label, created (in sorted sibling order) when missing. */
function literalChild(parent: u32, label: i32): u32 {
  const parentRecord = buildRecord(parent);
  let previous: i32 = -1;
  let current = load<i32>(parentRecord + BUILD_FIRST_CHILD);
  while (current >= 0) {
    const currentRecord = buildRecord(<u32>current);
    const currentLabel = load<i32>(currentRecord + BUILD_LABEL);
    if (currentLabel == label) return <u32>current;
    if (currentLabel > label) break;
    previous = current;
    current = load<i32>(currentRecord + BUILD_NEXT_SIBLING);
  }
  const child = newNode(parent);
  const childRecord = buildRecord(child);
  store<i32>(childRecord + BUILD_LABEL, label);
  store<i32>(childRecord + BUILD_NEXT_SIBLING, current);
  if (previous < 0) store<i32>(parentRecord + BUILD_FIRST_CHILD, child);
  else store<i32>(buildRecord(<u32>previous) + BUILD_NEXT_SIBLING, child);
  return child;
}

function starChild(parent: u32): u32 {
  const parentRecord = buildRecord(parent);
  let child = load<u32>(parentRecord + BUILD_STAR_CHILD);
  if (child == NO_NODE) {
    child = newNode(parent);
    store<u32>(parentRecord + BUILD_STAR_CHILD, child);
    store<u32>(buildRecord(child) + BUILD_FLAGS, NODE_IS_STAR);
  }
  return child;
}

/** Nodes marked NODE_IN_AUTOMATON so far. */
let automatonNodes: u32 = 0;

/**
 * Marks a node NODE_IN_AUTOMATON; false when it already was. Every node on the way of a pattern with a '*'
 * is one: the nodes before the '*' lead to it, the ones after lie under it (a node's prefix is shared by all
 * patterns through it).
 */
function markInAutomaton(node: u32): bool {
  const record = buildRecord(node);
  const flags = load<u32>(record + BUILD_FLAGS);
  if (flags & NODE_IN_AUTOMATON) return false;
  store<u32>(record + BUILD_FLAGS, flags | NODE_IN_AUTOMATON);
  automatonNodes++;
  return true;
}

/** Marks node and its ancestors up to the first one already marked (the way to a '*'). */
function markWayTo(node: u32): void {
  while (markInAutomaton(node) && node != 0) node = load<u32>(buildRecord(node) + BUILD_PARENT);
}

// The previous rule's path (its pattern without a final '$') and the node reached after each of its bytes
// (u32 per byte at pathNodes): the next rule reuses the nodes of the bytes both share (consecutive rules of
// a file usually share a prefix), and looks children up only after them.
let previousPath: usize = 0;
let previousPathLength: usize = 0;
let pathNodes: usize = 0;

/** The compiled rule records insertRule reads (set before the rules are inserted). */
let insertRulesPtr: usize = 0;

/** Inserts one rule; when a node already holds a rule of the same kind, the longer pattern keeps it, then the earlier line. */
function insertRule(ruleIndex: i32, kind: i32, pattern: usize, patternLength: usize): void {
  const pathLength = patternKeyLength(pattern, patternLength);
  const endRule = pathLength != patternLength;
  let shared: usize = 0;
  const limit = min(pathLength, previousPathLength);
  while (shared < limit && load<u8>(pattern + shared) == load<u8>(previousPath + shared)) shared++;
  let node: u32 = shared > 0 ? load<u32>(pathNodes + (shared - 1) * 4) : 0;
  // a '*' in the shared bytes: the way to it and the nodes after it were marked with the previous rule
  let afterStar = false;
  for (let i: usize = 0; i < shared; i++) {
    if (<i32>load<u8>(pattern + i) == CHAR_ASTERISK) { afterStar = true; break; }
  }
  for (let i = shared; i < pathLength; i++) {
    const c = <i32>load<u8>(pattern + i);
    // a run of '*' matches what one '*' matches: one star node for the run (the rule's priority is its
    // pattern's length, kept in its record), so a pattern of 500,000 stars costs one node, not a chain the
    // matcher walks per path byte
    if (c == CHAR_ASTERISK && i > 0 && <i32>load<u8>(pattern + i - 1) == CHAR_ASTERISK) {
      store<u32>(pathNodes + i * 4, node);
      continue;
    }
    if (c == CHAR_ASTERISK) {
      if (!afterStar) markWayTo(node);
      afterStar = true;
      node = starChild(node);
    } else {
      node = literalChild(node, c);
    }
    if (afterStar) markInAutomaton(node);
    store<u32>(pathNodes + i * 4, node);
  }
  previousPath = pattern;
  previousPathLength = pathLength;
  const record = buildRecord(node);
  let slot = load<i32>(record + BUILD_RULE_SLOT);
  if (slot < 0) {
    slot = <i32>ruleSlotCount;
    ruleSlotCount++;
    store<i32>(record + BUILD_RULE_SLOT, slot);
    v128.store(ruleSlotsPtr + <usize>slot * RULE_SLOT_SIZE, NEW_RULE_SLOT);
  }
  const field = ruleSlotsPtr + <usize>slot * RULE_SLOT_SIZE + (endRule
    ? (kind == RULE_KIND_ALLOW ? RULE_SLOT_ALLOW_END : RULE_SLOT_DISALLOW_END)
    : (kind == RULE_KIND_ALLOW ? RULE_SLOT_ALLOW : RULE_SLOT_DISALLOW));
  // one rule of a kind per node: the longer pattern (a run of '*' shares its node with a shorter run), and
  // among equal ones the earlier line
  const held = load<i32>(field);
  if (held == NO_RULE || <usize>load<u32>(insertRulesPtr + <usize>held * RULE_SIZE + RULE_PATTERN_LENGTH) < patternLength) store<i32>(field, ruleIndex);
  store<u32>(record + BUILD_FLAGS, load<u32>(record + BUILD_FLAGS) | (endRule ? NODE_HAS_END_RULE : NODE_HAS_RULE));
}

/**
 * Writes the final node records at nodesPtr and their labels at labelsPtr, numbering the nodes breadth-first
 * so that every node's literal children are consecutive (layout.ts); queuePtr: u32 per node of scratch (the
 * build index of each final node).
 */
function layOutNodes(nodesPtr: usize, labelsPtr: usize, queuePtr: usize): void {
  store<u32>(queuePtr, 0);
  store<u8>(labelsPtr, 0);
  let tail: u32 = 1;
  for (let head: u32 = 0; head < nodeCount; head++) {
    const record = buildRecord(load<u32>(queuePtr + <usize>head * 4));
    const firstChild = tail;
    let child = load<i32>(record + BUILD_FIRST_CHILD);
    while (child >= 0) {
      const childRecord = buildRecord(<u32>child);
      store<u32>(queuePtr + <usize>tail * 4, <u32>child);
      store<u8>(labelsPtr + <usize>tail, <u8>load<u32>(childRecord + BUILD_LABEL));
      tail++;
      child = load<i32>(childRecord + BUILD_NEXT_SIBLING);
    }
    const edgeCount = tail - firstChild;
    let star: u32 = NO_NODE;
    const buildStar = load<u32>(record + BUILD_STAR_CHILD);
    if (buildStar != NO_NODE) {
      star = tail;
      store<u32>(queuePtr + <usize>tail * 4, buildStar);
      store<u8>(labelsPtr + <usize>tail, 0);
      tail++;
    }
    const node = nodesPtr + <usize>head * NODE_SIZE;
    store<u32>(node + NODE_FIRST_CHILD, firstChild);
    store<u32>(node + NODE_STAR_CHILD, star);
    store<i32>(node + NODE_RULE_SLOT, max(load<i32>(record + BUILD_RULE_SLOT), 0));
    store<u32>(node + NODE_EDGES_AND_FLAGS, edgeCount | (load<u32>(record + BUILD_FLAGS) << NODE_FLAGS_SHIFT)); // the stamp (high half) starts at 0
  }
}

/** Length of the "<up to and including last '/'>" part when the part after the last '/' starts with "index.htm", else 0. */
function indexHtmPrefixLength(pattern: usize, length: usize): usize {
  let slash: isize = -1;
  for (let i: isize = <isize>length - 1; i >= 0; i--) {
    if (load<u8>(pattern + i) == CHAR_SLASH) { slash = i; break; }
  }
  if (slash < 0 || <usize>slash + INDEX_HTM_LENGTH > length) return 0;
  const tail = pattern + <usize>slash;
  // "/index.htm" compared byte by byte (case-sensitive, as the reference does)
  if (load<u8>(tail + 1) != 0x69 || load<u8>(tail + 2) != 0x6e || load<u8>(tail + 3) != 0x64 ||
      load<u8>(tail + 4) != 0x65 || load<u8>(tail + 5) != 0x78 || load<u8>(tail + 6) != 0x2e ||
      load<u8>(tail + 7) != 0x68 || load<u8>(tail + 8) != 0x74 || load<u8>(tail + 9) != 0x6d) return 0;
  return <usize>slash + 1;
}

/**
 * The normalised pattern of a RULE_INPUT_* record's value, written at dst (at most 3 x its length + 16
 * bytes): the one normalisation of rule values, for compiles and direct answers (direct.ts). Returns its length.
 */
export function normalizeRuleValue(input: usize, rfcMode: bool, dst: usize): usize {
  const value = <usize>load<u32>(input + RULE_INPUT_VALUE_PTR);
  const valueLength = <usize>load<u32>(input + RULE_INPUT_VALUE_LEN);
  return rfcMode ? normalizeRfc(value, valueLength, dst, false) : normalizeGooglePattern(value, valueLength, dst);
}

/**
 * GoogleOnly: an allow rule for ".../index.htm*" also allows ".../" exactly. Writes that derived pattern
 * ("<dir>/$") of a rule's normalised pattern at dst and returns its length, or 0 when the rule makes none.
 */
export function writeIndexHtmRule(kind: i32, rfcMode: bool, pattern: usize, length: usize, dst: usize): usize {
  if (rfcMode || kind != RULE_KIND_ALLOW) return 0;
  const prefixLength = indexHtmPrefixLength(pattern, length);
  if (prefixLength == 0) return 0;
  memory.copy(dst, pattern, prefixLength);
  store<u8>(dst + prefixLength, CHAR_DOLLAR);
  return prefixLength + 1;
}

function writeRule(rulesPtr: usize, index: u32, kind: i32, line: u32, patternOffset: usize, patternLength: usize, derived: u32): void {
  const rule = rulesPtr + <usize>index * RULE_SIZE;
  store<u16>(rule + RULE_KIND, <u16>kind);
  store<u32>(rule + RULE_LINE, line);
  store<u32>(rule + RULE_PATTERN_OFFSET, <u32>patternOffset);
  store<u32>(rule + RULE_PATTERN_LENGTH, <u32>patternLength);
  store<u16>(rule + RULE_DERIVED, <u16>derived);
}

/**
 * Compiles ruleCount input records at inputPtr (RULE_INPUT_* layout, values anywhere in memory) using the
 * memory from workPtr upwards (grown as needed). Returns the address of the blob (its length is in its
 * header). The blob is assembled where it is made: the patterns are written in place, and only the smaller
 * parts (rule records, the trie) are moved down once. Cost: linear in the pattern bytes, plus for the trie
 * O(trie pattern bytes x 256) in the worst case of sibling-list inserts (linear in practice).
 */
export function compileRules(inputPtr: usize, ruleCount: u32, flags: i32, workPtr: usize): usize {
  const rfcMode = (flags & FLAG_RFC_MODE) != 0;
  let rawTotal: usize = 0;
  for (let i: u32 = 0; i < ruleCount; i++) rawTotal += load<u32>(inputPtr + <usize>i * RULE_INPUT_SIZE + RULE_INPUT_VALUE_LEN);

  // the blob: | header | patterns | rules | literal index | nodes | rule slots | labels (+ slack) |
  const blobPtr = alignUp(workPtr, 16);
  // 1. normalise every pattern (and add the index.htm allow rules): patterns in place, rules in scratch
  const patternsPtr = blobPtr + HEADER_SIZE;
  const patternsBound = rawTotal * 6 + <usize>ruleCount + 32;
  const rulesScratch = alignUp(patternsPtr + patternsBound, 16);
  ensureCapacity(rulesScratch + <usize>ruleCount * 2 * RULE_SIZE);
  let patternsLength: usize = 0;
  let longestPattern: usize = 0;
  let compiledRuleCount: u32 = 0;
  for (let i: u32 = 0; i < ruleCount; i++) {
    const input = inputPtr + <usize>i * RULE_INPUT_SIZE;
    const kind = load<i32>(input + RULE_INPUT_KIND);
    const line = load<u32>(input + RULE_INPUT_LINE);
    const pattern = patternsPtr + patternsLength;
    const length = normalizeRuleValue(input, rfcMode, pattern);
    writeRule(rulesScratch, compiledRuleCount++, kind, line, patternsLength, length, 0);
    longestPattern = max(longestPattern, length);
    patternsLength += length;
    const derivedLength = writeIndexHtmRule(kind, rfcMode, pattern, length, patternsPtr + patternsLength);
    if (derivedLength > 0) {
      writeRule(rulesScratch, compiledRuleCount++, kind, line, patternsLength, derivedLength, 1);
      patternsLength += derivedLength;
    }
  }
  const rulesPtr = alignUp(patternsPtr + patternsLength, 8);
  const rulesBytes = <usize>compiledRuleCount * RULE_SIZE;
  memory.copy(rulesPtr, rulesScratch, rulesBytes);
  // every byte of a blob is written (the header's spare words and the gaps alignment leaves zeroed): the
  // same rules give the same bytes whatever memory held before (a pack is reproducible and carries nothing
  // of another body)
  memory.fill(blobPtr, 0, HEADER_SIZE);
  memory.fill(patternsPtr + patternsLength, 0, rulesPtr - (patternsPtr + patternsLength));

  // 2. the literal index (literal.ts) of the patterns without '*', when they are many: those rules then
  // stay out of the trie (it keeps the '*' patterns, the empty pattern and a lone '$'). It is built in
  // place after the rules; its list of rules lies past the largest index there could be.
  const indexPtr = alignUp(rulesPtr + rulesBytes, 16);
  memory.fill(rulesPtr + rulesBytes, 0, indexPtr - (rulesPtr + rulesBytes));
  const listPtr = alignUp(indexPtr + literalIndexBound(compiledRuleCount, longestPattern), 16);
  ensureCapacity(listPtr + <usize>compiledRuleCount * 4 + 16);
  let listCount: u32 = 0;
  let literalBytes: usize = 0;
  let longestKey: usize = 0;
  let trieBytes: usize = 0;
  for (let r: u32 = 0; r < compiledRuleCount; r++) {
    const rule = rulesPtr + <usize>r * RULE_SIZE;
    const pattern = patternsPtr + <usize>load<u32>(rule + RULE_PATTERN_OFFSET);
    const length = <usize>load<u32>(rule + RULE_PATTERN_LENGTH);
    const keyLength = patternKeyLength(pattern, length);
    if (keyLength == 0 || hasAsterisk(pattern, keyLength)) {
      trieBytes += length;
      continue;
    }
    store<u32>(listPtr + <usize>listCount * 4, r);
    listCount++;
    literalBytes += keyLength;
    longestKey = max(longestKey, keyLength);
  }
  let indexLength: usize = 0;
  if (listCount > 0 && compiledRuleCount <= MAX_INDEXED_RULES && wantLiteralIndex(literalBytes, flags)) {
    indexLength = buildLiteralIndex(rulesPtr, patternsPtr, listPtr, listCount, longestKey, indexPtr);
  }
  const indexed = indexLength > 0;
  if (!indexed) trieBytes += literalBytes + <usize>listCount; // a literal key's '$' included

  // 3. build the trie in build records (scratch), the rule slots beside them
  const nodeBound = trieBytes + 1;
  buildPtr = alignUp(listPtr + <usize>listCount * 4, 16);
  ruleSlotsPtr = buildPtr + nodeBound * BUILD_SIZE;
  pathNodes = ruleSlotsPtr + <usize>compiledRuleCount * RULE_SLOT_SIZE;
  const queuePtr = alignUp(pathNodes + (longestPattern + 1) * 4, 16);
  const trieScratch = alignUp(queuePtr + nodeBound * 4, 16);
  ensureCapacity(trieScratch);
  nodeCount = 0;
  ruleSlotCount = 0;
  automatonNodes = 0;
  previousPathLength = 0;
  newNode(0);
  insertRulesPtr = rulesPtr;
  let listed: u32 = 0;
  for (let r: u32 = 0; r < compiledRuleCount; r++) {
    if (indexed && listed < listCount && load<u32>(listPtr + <usize>listed * 4) == r) { listed++; continue; }
    const rule = rulesPtr + <usize>r * RULE_SIZE;
    insertRule(<i32>r, <i32>load<u16>(rule + RULE_KIND), patternsPtr + <usize>load<u32>(rule + RULE_PATTERN_OFFSET), <usize>load<u32>(rule + RULE_PATTERN_LENGTH));
  }

  // 4. the trie's final records, laid out in scratch and moved down after the index
  const trieBytesFinal = alignUp(<usize>nodeCount * NODE_SIZE + <usize>ruleSlotCount * RULE_SLOT_SIZE + <usize>nodeCount + LABELS_SLACK, 8);
  ensureCapacity(trieScratch + trieBytesFinal);
  const scratchSlots = trieScratch + <usize>nodeCount * NODE_SIZE;
  const scratchLabels = scratchSlots + <usize>ruleSlotCount * RULE_SLOT_SIZE;
  layOutNodes(trieScratch, scratchLabels, queuePtr);
  // (vector label loads may read past the last node's label: the slack, and the padding to 8 bytes, zeroed)
  memory.fill(scratchLabels + <usize>nodeCount, 0, trieScratch + trieBytesFinal - (scratchLabels + <usize>nodeCount));
  memory.copy(scratchSlots, ruleSlotsPtr, <usize>ruleSlotCount * RULE_SLOT_SIZE);
  const nodesPtr = alignUp(indexPtr + indexLength, 16);
  memory.fill(indexPtr + indexLength, 0, nodesPtr - (indexPtr + indexLength));
  memory.copy(nodesPtr, trieScratch, trieBytesFinal);
  const finalRuleSlotsPtr = nodesPtr + <usize>nodeCount * NODE_SIZE;
  const labelsPtr = finalRuleSlotsPtr + <usize>ruleSlotCount * RULE_SLOT_SIZE;
  const blobEnd = nodesPtr + trieBytesFinal;
  store<u32>(blobPtr + HEADER_MAGIC, BLOB_MAGIC);
  store<u32>(blobPtr + HEADER_FLAGS, flags & FLAG_RFC_MODE);
  store<u32>(blobPtr + HEADER_NODE_COUNT, nodeCount);
  store<u32>(blobPtr + HEADER_RULE_COUNT, compiledRuleCount);
  store<u32>(blobPtr + HEADER_NODES_OFFSET, <u32>(nodesPtr - blobPtr));
  store<u32>(blobPtr + HEADER_LABELS_OFFSET, <u32>(labelsPtr - blobPtr));
  store<u32>(blobPtr + HEADER_RULE_SLOTS_OFFSET, <u32>(finalRuleSlotsPtr - blobPtr));
  store<u32>(blobPtr + HEADER_RULES_OFFSET, <u32>(rulesPtr - blobPtr));
  store<u32>(blobPtr + HEADER_PATTERNS_OFFSET, <u32>(patternsPtr - blobPtr));
  store<u32>(blobPtr + HEADER_TOTAL_LENGTH, <u32>(blobEnd - blobPtr));
  store<u32>(blobPtr + HEADER_RULE_SLOT_COUNT, ruleSlotCount);
  store<u32>(blobPtr + HEADER_LITERAL_OFFSET, indexed ? <u32>(indexPtr - blobPtr) : 0);
  store<u32>(blobPtr + HEADER_AUTOMATON_NODE_COUNT, automatonNodes);
  store<u32>(blobPtr + HEADER_GENERATION, 0);
  return blobPtr;
}
