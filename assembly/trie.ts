// The compiled trie currently bound (one per instance at a time) and the primitives both matchers share:
// edge look-up and the generation stamps used to deduplicate node sets.
import { HEADER_FLAGS, HEADER_GENERATION, HEADER_NODE_COUNT, HEADER_LITERAL_OFFSET, HEADER_AUTOMATON_NODE_COUNT, HEADER_NODES_OFFSET, HEADER_LABELS_OFFSET, HEADER_RULE_SLOTS_OFFSET, HEADER_RULES_OFFSET, HEADER_PATTERNS_OFFSET, FLAG_RFC_MODE, FLAG_NO_LITERAL_INDEX } from "../src/core/constants";
import { NODE_FIRST_CHILD, NODE_STAMP, NODE_SIZE, NODE_IN_AUTOMATON, NODE_RULE_SLOT, RULE_SLOT_SIZE, NO_NODE, edgeCountOf, flagsOf } from "./layout";
import { bindLiteralIndex } from "./literal";

/** Up to this many children are found by one 16-byte vector compare of their labels; more: binary search. */
const VECTOR_SEARCH_MAX_EDGES: u32 = 16;
/** Node stamps are u16: after this many generations every stamp of the blob is cleared (O(nodes) per 65,535). */
const MAX_GENERATION: u32 = 0xffff;

export let blobBase: usize = 0;
export let nodesBase: usize = 0;
export let labelsBase: usize = 0;
export let ruleSlotsBase: usize = 0;
export let rulesBase: usize = 0;
export let blobNodeCount: u32 = 0;
export let rfcMode = false;
/**
 * True when the bound blob has a literal index (assembly/literal.ts): its patterns without '*' are answered
 * by it, and the trie holds only the others.
 */
export let splitLiteral = false;
/** Nodes the automaton works on; 0 when it is not needed (split, and no pattern has a '*'). */
export let automatonNodeCount: u32 = 0;
/** True when some pattern of the bound blob has a '*' (else a path is one walk down the trie: match.ts). */
export let blobHasStars = false;
/** Literal pattern bytes from which the compiler builds a literal index (below, the trie alone is faster to match and small). */
const LITERAL_INDEX_MIN_BYTES: usize = 16384;
/** 0: a literal index for large literal parts (default), 1: always, 2: never. Applies to blobs compiled after it is set (tests and A/B runs). */
let literalIndexMode: u32 = 0;
export function setLiteralIndexMode(mode: u32): void {
  literalIndexMode = mode;
}

/** Whether compileRules builds a literal index for literal patterns of this many bytes (flags: the compile's; FLAG_NO_LITERAL_INDEX says never). */
export function wantLiteralIndex(literalBytes: usize, flags: i32): bool {
  if ((flags & FLAG_NO_LITERAL_INDEX) != 0) return false;
  return literalIndexMode == 1 || (literalIndexMode == 0 && literalBytes >= LITERAL_INDEX_MIN_BYTES);
}
/**
 * Node stamps live in the blob, so the counter they are compared with does too (HEADER_GENERATION): many
 * blobs can be bound in turn, each keeps its own count, and a wrap-around clears only that blob's stamps.
 */
let generation: u32 = 0;

/** Binds a compiled blob (see assembly/compile.ts for its layout). */
export function bindBlob(blob: usize): void {
  blobBase = blob;
  nodesBase = blob + <usize>load<u32>(blob + HEADER_NODES_OFFSET);
  labelsBase = blob + <usize>load<u32>(blob + HEADER_LABELS_OFFSET);
  ruleSlotsBase = blob + <usize>load<u32>(blob + HEADER_RULE_SLOTS_OFFSET);
  rulesBase = blob + <usize>load<u32>(blob + HEADER_RULES_OFFSET);
  blobNodeCount = load<u32>(blob + HEADER_NODE_COUNT);
  rfcMode = (load<i32>(blob + HEADER_FLAGS) & FLAG_RFC_MODE) != 0;
  const wildNodes = (flagsOf(nodesBase) & NODE_IN_AUTOMATON) != 0 ? load<u32>(blob + HEADER_AUTOMATON_NODE_COUNT) : 0;
  blobHasStars = wildNodes != 0;
  const literalOffset = load<u32>(blob + HEADER_LITERAL_OFFSET);
  splitLiteral = literalOffset != 0;
  automatonNodeCount = splitLiteral ? wildNodes : blobNodeCount;
  bindLiteralIndex(splitLiteral ? blob + <usize>literalOffset : 0, rulesBase, blob + <usize>load<u32>(blob + HEADER_PATTERNS_OFFSET));
  generation = load<u32>(blob + HEADER_GENERATION);
}

@inline export function nodeAddress(index: u32): usize {
  return nodesBase + <usize>index * NODE_SIZE;
}

/** The rule slot of a node (layout.ts); only meaningful when the node has NODE_HAS_RULE or NODE_HAS_END_RULE. */
@inline export function ruleSlotOf(node: usize): usize {
  return ruleSlotsBase + <usize>load<u32>(node + NODE_RULE_SLOT) * RULE_SLOT_SIZE;
}

/** A fresh stamp value: nodes stamped with it are "in the set being built". Clears all stamps on wrap-around. */
export function nextGeneration(): u32 {
  generation++;
  if (generation > MAX_GENERATION) {
    for (let n: u32 = 0; n < blobNodeCount; n++) store<u16>(nodeAddress(n) + NODE_STAMP, 0);
    generation = 1;
  }
  store<u32>(blobBase + HEADER_GENERATION, generation);
  return generation;
}

/** Stamps a node with the current generation; false when it already had it (already in the set). */
@inline export function stampNode(index: u32, stamp: u32): bool {
  const address = nodeAddress(index) + NODE_STAMP;
  if (<u32>load<u16>(address) == stamp) return false;
  store<u16>(address, <u16>stamp);
  return true;
}

/**
 * The literal child of a node for byte c, or NO_NODE. The children are consecutive nodes with sorted labels:
 * up to 16 are compared at once (the labels array has 16 readable bytes after its end), more by binary search.
 */
export function childFor(index: u32, c: i32): u32 {
  const node = nodeAddress(index);
  const count = edgeCountOf(node);
  if (count == 0) return NO_NODE;
  const first = load<u32>(node + NODE_FIRST_CHILD);
  const labels = labelsBase + <usize>first;
  if (count <= VECTOR_SEARCH_MAX_EDGES) {
    const hits = i8x16.bitmask(i8x16.eq(v128.load(labels), i8x16.splat(<i8>c))) & ((1 << count) - 1);
    return hits == 0 ? NO_NODE : first + ctz(hits);
  }
  let low: u32 = 0;
  let high = count;
  while (low < high) {
    const middle = (low + high) >>> 1;
    const label = <i32>load<u8>(labels + <usize>middle);
    if (label == c) return first + middle;
    if (label < c) low = middle + 1;
    else high = middle;
  }
  return NO_NODE;
}
