// Layout of the compiled matcher's trie nodes, private to the core (the host only reads the blob header
// and rule records, whose offsets live in src/core/constants.ts).
//
// Nodes are numbered breadth-first, so that the literal children of a node are consecutive nodes; node 0
// is the root (the empty pattern prefix). Node record, NODE_SIZE bytes:
//   +0  u32 firstChild     first literal child; the children are firstChild .. firstChild + edgeCount - 1,
//                          sorted by label (the byte on the edge into each is labels[child], a u8 array)
//   +4  u32 starChild      node reached by '*' (0 = none; the root is nobody's child)
//   +8  u32 ruleSlot       rules ending here: RULE_SLOT_SIZE bytes at ruleSlots + ruleSlot x RULE_SLOT_SIZE
//                          (only when NODE_HAS_RULE or NODE_HAS_END_RULE is set)
//   +12 u16 edgesAndFlags  edgeCount (bits 0-8, at most 256) | flags << NODE_FLAGS_SHIFT
//   +14 u16 stamp          last generation that put this node in a set being built (mutable; trie.ts)
// Rule slot: four i32 rule indexes (NO_RULE = none): the allow and disallow rules whose pattern ends here,
// and those whose pattern is this prefix followed by a final '$'.
import { CHAR_DOLLAR } from "../src/core/constants";
export const NODE_FIRST_CHILD: usize = 0;
export const NODE_STAR_CHILD: usize = 4;
export const NODE_RULE_SLOT: usize = 8;
export const NODE_EDGES_AND_FLAGS: usize = 12;
export const NODE_STAMP: usize = 14;
export const NODE_SIZE: usize = 16;
export const NODE_EDGE_COUNT_MASK: u32 = 0x1ff;
export const NODE_FLAGS_SHIFT: u32 = 9;

export const RULE_SLOT_ALLOW: usize = 0;
export const RULE_SLOT_DISALLOW: usize = 4;
export const RULE_SLOT_ALLOW_END: usize = 8;
export const RULE_SLOT_DISALLOW_END: usize = 12;
export const RULE_SLOT_SIZE: usize = 16;

/** A node's literal edge count. */
@inline export function edgeCountOf(node: usize): u32 {
  return <u32>load<u16>(node + NODE_EDGES_AND_FLAGS) & NODE_EDGE_COUNT_MASK;
}

/** A node's NODE_* flags. */
@inline export function flagsOf(node: usize): u32 {
  return <u32>load<u16>(node + NODE_EDGES_AND_FLAGS) >> NODE_FLAGS_SHIFT;
}

export const NODE_HAS_RULE: u32 = 1;
export const NODE_HAS_END_RULE: u32 = 2;
/** The node is reached through '*': it stays active (self-loop) until the end of the path. */
export const NODE_IS_STAR: u32 = 4;
/**
 * The node is a '*' node, lies under one, or has one below it: the bulk automaton works on these nodes only.
 * With a literal index (assembly/literal.ts) the trie holds only the other patterns.
 */
export const NODE_IN_AUTOMATON: u32 = 8;

export const NO_RULE: i32 = -1;
export const NO_NODE: u32 = 0;

/** Called when linear memory cannot grow to endAddress: the host throws its INPUT_TOO_LARGE error (never returns). */
@external("env", "memoryExhausted")
declare function memoryExhausted(endAddress: usize): void;

/** Grows linear memory so that [0, endAddress) is addressable; the host's memoryExhausted when the engine refuses. */
export function ensureCapacity(endAddress: usize): void {
  const neededPages = <i32>((endAddress + 0xffff) >>> 16);
  const havePages = memory.size();
  if (neededPages <= havePages) return;
  // grown by an eighth at least (1 MiB at least): every growth is a call into the engine that also counts
  // as new external memory for the host's collector (a collection each few growths), while pages grown and
  // not yet written cost no memory; past the engine's limit, exactly what is needed
  const step = max(neededPages - havePages, max(havePages >> 3, 16));
  if (memory.grow(step) < 0 && memory.grow(neededPages - havePages) < 0) {
    memoryExhausted(endAddress);
    unreachable();
  }
}

/** The key of a pattern: its length without a final '$' (a '$' at the end anchors it; anywhere else it is a byte). */
@inline export function patternKeyLength(pattern: usize, length: usize): usize {
  return length > 0 && <i32>load<u8>(pattern + length - 1) == CHAR_DOLLAR ? length - 1 : length;
}

@inline export function alignUp(address: usize, alignment: usize): usize {
  return (address + alignment - 1) & ~(alignment - 1);
}
