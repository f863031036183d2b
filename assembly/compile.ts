// Compiles one rule list (the rules that apply to one agent query) into a position-independent blob:
// a trie over the normalised patterns in which '*' is an edge of its own and a final '$' marks "end rule".
// Priority of a rule = byte length of its normalised pattern = its depth in the trie (+1 for a final '$').
import {
  RULE_INPUT_KIND, RULE_INPUT_LINE, RULE_INPUT_VALUE_PTR, RULE_INPUT_VALUE_LEN, RULE_INPUT_SIZE,
  RULE_KIND, RULE_LINE, RULE_PATTERN_OFFSET, RULE_PATTERN_LENGTH, RULE_SOURCE_INDEX, RULE_DERIVED, RULE_SIZE,
  RULE_KIND_ALLOW, FLAG_RFC_MODE, BLOB_MAGIC, HEADER_MAGIC, HEADER_FLAGS, HEADER_NODE_COUNT, HEADER_RULE_COUNT,
  HEADER_NODES_OFFSET, HEADER_EDGE_BYTES_OFFSET, HEADER_EDGE_TARGETS_OFFSET, HEADER_RULES_OFFSET,
  HEADER_PATTERNS_OFFSET, HEADER_TOTAL_LENGTH, HEADER_EDGE_COUNT, HEADER_LITERAL_OFFSET, HEADER_AUTOMATON_NODE_COUNT, HEADER_GENERATION, HEADER_SIZE, CHAR_SLASH, CHAR_DOLLAR, CHAR_ASTERISK,
} from "../src/constants";
import { normalizeGooglePattern, normalizeRfc } from "./escape";
import {
  NODE_EDGE_INDEX, NODE_EDGE_COUNT, NODE_FLAGS, NODE_STAR_CHILD, NODE_ALLOW_RULE, NODE_DISALLOW_RULE,
  NODE_ALLOW_END_RULE, NODE_DISALLOW_END_RULE, NODE_STAMP, NODE_SIZE, NODE_HAS_RULE, NODE_HAS_END_RULE, NODE_IS_STAR,
  NODE_IN_AUTOMATON, NO_RULE, NO_NODE, ensureCapacity, alignUp,
} from "./layout";
import { buildLiteralTrie, literalTrieBound } from "./literal";
import { wantLiteralTrie } from "./trie";

// Build-time sibling lists, TMP_NODE_SIZE bytes per node, kept apart from the final node records.
const TMP_FIRST_CHILD: usize = 0; // i32, -1 = none
const TMP_NEXT_SIBLING: usize = 4; // i32, -1 = none
const TMP_LABEL: usize = 8; // u32 byte value
const TMP_PARENT: usize = 12; // u32 (the root's is 0)
const TMP_NODE_SIZE: usize = 16;

const INDEX_HTM_LENGTH: usize = 10; // "/index.htm"

let nodesPtr: usize = 0;
let tmpPtr: usize = 0;
let nodeCount: u32 = 0;

// A new node as two 16-byte vectors: edge index 0, edge count 0, flags 0, no star child, four rules NO_RULE,
// stamp 0 (the layout in layout.ts, which these words follow: checked below); and its build-time record:
// no child, no sibling, label 0, then the parent.
const NEW_NODE_LOW = i32x4(0, 0, NO_NODE, NO_RULE);
const NEW_NODE_HIGH = i32x4(NO_RULE, NO_RULE, NO_RULE, 0);
const NEW_TMP = i32x4(-1, -1, 0, 0);
assert(NODE_EDGE_INDEX == 0 && NODE_EDGE_COUNT == 4 && NODE_FLAGS == 6 && NODE_STAR_CHILD == 8 && NODE_ALLOW_RULE == 12 &&
  NODE_DISALLOW_RULE == 16 && NODE_ALLOW_END_RULE == 20 && NODE_DISALLOW_END_RULE == 24 && NODE_STAMP == 28 && NODE_SIZE == 32);
assert(TMP_FIRST_CHILD == 0 && TMP_NEXT_SIBLING == 4 && TMP_LABEL == 8 && TMP_PARENT == 12 && TMP_NODE_SIZE == 16);

function newNode(parent: u32): u32 {
  const index = nodeCount++;
  const node = nodesPtr + <usize>index * NODE_SIZE;
  v128.store(node, NEW_NODE_LOW);
  v128.store(node + 16, NEW_NODE_HIGH);
  v128.store(tmpPtr + <usize>index * TMP_NODE_SIZE, i32x4.replace_lane(NEW_TMP, 3, <i32>parent));
  return index;
}

/** The literal child of parent for byte label, created (in sorted sibling order) when missing. */
function literalChild(parent: u32, label: i32): u32 {
  const parentTmp = tmpPtr + <usize>parent * TMP_NODE_SIZE;
  let previous: i32 = -1;
  let current = load<i32>(parentTmp + TMP_FIRST_CHILD);
  while (current >= 0) {
    const currentTmp = tmpPtr + <usize>current * TMP_NODE_SIZE;
    const currentLabel = load<i32>(currentTmp + TMP_LABEL);
    if (currentLabel == label) return <u32>current;
    if (currentLabel > label) break;
    previous = current;
    current = load<i32>(currentTmp + TMP_NEXT_SIBLING);
  }
  const child = newNode(parent);
  const childTmp = tmpPtr + <usize>child * TMP_NODE_SIZE;
  store<i32>(childTmp + TMP_LABEL, label);
  store<i32>(childTmp + TMP_NEXT_SIBLING, current);
  if (previous < 0) store<i32>(parentTmp + TMP_FIRST_CHILD, child);
  else store<i32>(tmpPtr + <usize>previous * TMP_NODE_SIZE + TMP_NEXT_SIBLING, child);
  return child;
}

function starChild(parent: u32): u32 {
  const parentNode = nodesPtr + <usize>parent * NODE_SIZE;
  let child = load<u32>(parentNode + NODE_STAR_CHILD);
  if (child == NO_NODE) {
    child = newNode(parent);
    store<u32>(parentNode + NODE_STAR_CHILD, child);
    store<u16>(nodesPtr + <usize>child * NODE_SIZE + NODE_FLAGS, <u16>NODE_IS_STAR);
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
  const address = nodesPtr + <usize>node * NODE_SIZE;
  const flags = <u32>load<u16>(address + NODE_FLAGS);
  if (flags & NODE_IN_AUTOMATON) return false;
  store<u16>(address + NODE_FLAGS, <u16>(flags | NODE_IN_AUTOMATON));
  automatonNodes++;
  return true;
}

/** Marks node and its ancestors up to the first one already marked (the way to a '*'). */
function markWayTo(node: u32): void {
  while (markInAutomaton(node) && node != 0) node = load<u32>(tmpPtr + <usize>node * TMP_NODE_SIZE + TMP_PARENT);
}

// The previous rule's path (its pattern without a final '$') and the node reached after each of its bytes
// (u32 per byte at pathNodes): the next rule reuses the nodes of the bytes both share (consecutive rules of
// a file usually share a prefix), and looks children up only after them.
let previousPath: usize = 0;
let previousPathLength: usize = 0;
let pathNodes: usize = 0;

/** Inserts one rule; when a node already holds a rule of the same kind, the earlier line keeps it. */
function insertRule(ruleIndex: i32, kind: i32, pattern: usize, patternLength: usize): void {
  const endRule = patternLength > 0 && <i32>load<u8>(pattern + patternLength - 1) == CHAR_DOLLAR;
  const pathLength = endRule ? patternLength - 1 : patternLength;
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
  const record = nodesPtr + <usize>node * NODE_SIZE;
  const field = endRule
    ? (kind == RULE_KIND_ALLOW ? NODE_ALLOW_END_RULE : NODE_DISALLOW_END_RULE)
    : (kind == RULE_KIND_ALLOW ? NODE_ALLOW_RULE : NODE_DISALLOW_RULE);
  if (load<i32>(record + field) == NO_RULE) store<i32>(record + field, ruleIndex);
  store<u16>(record + NODE_FLAGS, load<u16>(record + NODE_FLAGS) | <u16>(endRule ? NODE_HAS_END_RULE : NODE_HAS_RULE));
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

function writeRule(rulesPtr: usize, index: u32, kind: i32, line: u32, patternOffset: usize, patternLength: usize, source: u32, derived: u32): void {
  const rule = rulesPtr + <usize>index * RULE_SIZE;
  store<i32>(rule + RULE_KIND, kind);
  store<u32>(rule + RULE_LINE, line);
  store<u32>(rule + RULE_PATTERN_OFFSET, <u32>patternOffset);
  store<u32>(rule + RULE_PATTERN_LENGTH, <u32>patternLength);
  store<u32>(rule + RULE_SOURCE_INDEX, source);
  store<u32>(rule + RULE_DERIVED, derived);
}

/**
 * Compiles ruleCount input records at inputPtr (RULE_INPUT_* layout, values anywhere in memory) using the
 * memory from workPtr upwards (grown as needed). Returns the address of the blob (its length is in its
 * header). Cost: O(total pattern bytes x 256) in the worst case of sibling-list inserts; linear in practice.
 */
export function compileRules(inputPtr: usize, ruleCount: u32, flags: i32, workPtr: usize): usize {
  const rfcMode = (flags & FLAG_RFC_MODE) != 0;
  let rawTotal: usize = 0;
  for (let i: u32 = 0; i < ruleCount; i++) rawTotal += load<u32>(inputPtr + <usize>i * RULE_INPUT_SIZE + RULE_INPUT_VALUE_LEN);

  // 1. normalise every pattern (and add the index.htm allow rules) into [patterns | rules]
  const patternsPtr = alignUp(workPtr, 8);
  const patternsBound = rawTotal * 6 + <usize>ruleCount + 8;
  const rulesPtr = alignUp(patternsPtr + patternsBound, 8);
  ensureCapacity(rulesPtr + <usize>ruleCount * 2 * RULE_SIZE);
  let patternsLength: usize = 0;
  let longestPattern: usize = 0;
  let compiledRuleCount: u32 = 0;
  for (let i: u32 = 0; i < ruleCount; i++) {
    const input = inputPtr + <usize>i * RULE_INPUT_SIZE;
    const kind = load<i32>(input + RULE_INPUT_KIND);
    const line = load<u32>(input + RULE_INPUT_LINE);
    const value = <usize>load<u32>(input + RULE_INPUT_VALUE_PTR);
    const valueLength = <usize>load<u32>(input + RULE_INPUT_VALUE_LEN);
    const pattern = patternsPtr + patternsLength;
    const length = rfcMode ? normalizeRfc(value, valueLength, pattern, false) : normalizeGooglePattern(value, valueLength, pattern);
    writeRule(rulesPtr, compiledRuleCount++, kind, line, patternsLength, length, i, 0);
    longestPattern = max(longestPattern, length);
    patternsLength += length;
    // GoogleOnly: an allow rule for ".../index.htm*" also allows ".../" exactly.
    if (!rfcMode && kind == RULE_KIND_ALLOW) {
      const prefixLength = indexHtmPrefixLength(pattern, length);
      if (prefixLength > 0) {
        memory.copy(patternsPtr + patternsLength, pattern, prefixLength);
        store<u8>(patternsPtr + patternsLength + prefixLength, CHAR_DOLLAR);
        writeRule(rulesPtr, compiledRuleCount++, kind, line, patternsLength, prefixLength + 1, i, 1);
        patternsLength += prefixLength + 1;
      }
    }
  }

  // 2. build the trie: final node records and build-time sibling lists
  const nodeBound = patternsLength + 1;
  tmpPtr = alignUp(rulesPtr + <usize>compiledRuleCount * RULE_SIZE, 16);
  pathNodes = alignUp(tmpPtr + nodeBound * TMP_NODE_SIZE, 8);
  const blobPtr = alignUp(pathNodes + (longestPattern + 1) * 4, 16);
  nodesPtr = blobPtr + HEADER_SIZE;
  ensureCapacity(nodesPtr + nodeBound * NODE_SIZE);
  nodeCount = 0;
  automatonNodes = 0;
  previousPathLength = 0;
  newNode(0);
  for (let r: u32 = 0; r < compiledRuleCount; r++) {
    const rule = rulesPtr + <usize>r * RULE_SIZE;
    insertRule(<i32>r, load<i32>(rule + RULE_KIND), patternsPtr + <usize>load<u32>(rule + RULE_PATTERN_OFFSET), <usize>load<u32>(rule + RULE_PATTERN_LENGTH));
  }

  // 3. edges: each node's literal children, sorted by byte, contiguous
  const edgeBytesPtr = nodesPtr + <usize>nodeCount * NODE_SIZE;
  const edgeBound = <usize>nodeCount; // fewer edges than nodes
  const edgeTargetsPtr = alignUp(edgeBytesPtr + edgeBound, 4);
  ensureCapacity(edgeTargetsPtr + edgeBound * 4);
  let edgeCount: u32 = 0;
  for (let n: u32 = 0; n < nodeCount; n++) {
    const node = nodesPtr + <usize>n * NODE_SIZE;
    store<u32>(node + NODE_EDGE_INDEX, edgeCount);
    let child = load<i32>(tmpPtr + <usize>n * TMP_NODE_SIZE + TMP_FIRST_CHILD);
    let count: u32 = 0;
    while (child >= 0) {
      const childTmp = tmpPtr + <usize>child * TMP_NODE_SIZE;
      store<u8>(edgeBytesPtr + edgeCount, <u8>load<u32>(childTmp + TMP_LABEL));
      store<u32>(edgeTargetsPtr + <usize>edgeCount * 4, <u32>child);
      edgeCount++;
      count++;
      child = load<i32>(childTmp + TMP_NEXT_SIBLING);
    }
    store<u16>(node + NODE_EDGE_COUNT, <u16>count);
  }

  // 4. rules and patterns after the edges, then the literal trie; header last
  const finalRulesPtr = alignUp(edgeTargetsPtr + <usize>edgeCount * 4, 8);
  const finalPatternsPtr = finalRulesPtr + <usize>compiledRuleCount * RULE_SIZE;
  const literalPtr = alignUp(finalPatternsPtr + patternsLength, 16);
  const withLiteralTrie = wantLiteralTrie(nodeCount, automatonNodes);
  const literalBound = withLiteralTrie ? literalTrieBound(nodeCount) : 0;
  ensureCapacity(literalPtr + literalBound);
  memory.copy(finalRulesPtr, rulesPtr, <usize>compiledRuleCount * RULE_SIZE);
  memory.copy(finalPatternsPtr, patternsPtr, patternsLength);
  const literalLength = withLiteralTrie ? buildLiteralTrie(nodesPtr, edgeBytesPtr, edgeTargetsPtr, finalRulesPtr, nodeCount, literalPtr, alignUp(literalPtr + literalBound, 16)) : 0;
  const blobEnd = alignUp(literalPtr + literalLength, 8);
  store<u32>(blobPtr + HEADER_MAGIC, BLOB_MAGIC);
  store<u32>(blobPtr + HEADER_FLAGS, flags);
  store<u32>(blobPtr + HEADER_NODE_COUNT, nodeCount);
  store<u32>(blobPtr + HEADER_RULE_COUNT, compiledRuleCount);
  store<u32>(blobPtr + HEADER_NODES_OFFSET, <u32>(nodesPtr - blobPtr));
  store<u32>(blobPtr + HEADER_EDGE_BYTES_OFFSET, <u32>(edgeBytesPtr - blobPtr));
  store<u32>(blobPtr + HEADER_EDGE_TARGETS_OFFSET, <u32>(edgeTargetsPtr - blobPtr));
  store<u32>(blobPtr + HEADER_RULES_OFFSET, <u32>(finalRulesPtr - blobPtr));
  store<u32>(blobPtr + HEADER_PATTERNS_OFFSET, <u32>(finalPatternsPtr - blobPtr));
  store<u32>(blobPtr + HEADER_TOTAL_LENGTH, <u32>(blobEnd - blobPtr));
  store<u32>(blobPtr + HEADER_EDGE_COUNT, edgeCount);
  store<u32>(blobPtr + HEADER_LITERAL_OFFSET, withLiteralTrie ? <u32>(literalPtr - blobPtr) : 0);
  store<u32>(blobPtr + HEADER_AUTOMATON_NODE_COUNT, automatonNodes);
  store<u32>(blobPtr + HEADER_GENERATION, 0);
  return blobPtr;
}
