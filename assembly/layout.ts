// Layout of the compiled matcher's trie nodes, private to the core (the host only reads the blob header
// and rule records, whose offsets live in src/constants.ts).
//
// Node record, NODE_SIZE bytes, node 0 is the root (the empty pattern prefix):
//   +0  u32 edgeIndex      first literal edge in the edge arrays
//   +4  u16 edgeCount      literal edges, sorted by byte
//   +6  u16 flags          NODE_HAS_RULE | NODE_HAS_END_RULE | NODE_IS_STAR | NODE_IN_AUTOMATON
//   +8  u32 starChild      node reached by '*' (0 = none; the root is nobody's child)
//   +12 i32 allowRule      allow rule whose pattern ends here (-1 = none)
//   +16 i32 disallowRule
//   +20 i32 allowEndRule   allow rule whose pattern is this prefix followed by a final '$'
//   +24 i32 disallowEndRule
//   +28 u32 stamp          last URL generation that put this star node on the active list (mutable)
export const NODE_EDGE_INDEX: usize = 0;
export const NODE_EDGE_COUNT: usize = 4;
export const NODE_FLAGS: usize = 6;
export const NODE_STAR_CHILD: usize = 8;
export const NODE_ALLOW_RULE: usize = 12;
export const NODE_DISALLOW_RULE: usize = 16;
export const NODE_ALLOW_END_RULE: usize = 20;
export const NODE_DISALLOW_END_RULE: usize = 24;
export const NODE_STAMP: usize = 28;
export const NODE_SIZE: usize = 32;

export const NODE_HAS_RULE: u32 = 1;
export const NODE_HAS_END_RULE: u32 = 2;
/** The node is reached through '*': it stays active (self-loop) until the end of the path. */
export const NODE_IS_STAR: u32 = 4;
/**
 * The node is a '*' node, lies under one, or has one below it: the bulk automaton works on these nodes only.
 * Every rule of a pattern without '*' is also answered by the literal trie (assembly/literal.ts).
 */
export const NODE_IN_AUTOMATON: u32 = 8;

export const NO_RULE: i32 = -1;
export const NO_NODE: u32 = 0;

/** Grows linear memory so that [0, endAddress) is addressable; traps when the engine refuses. */
export function ensureCapacity(endAddress: usize): void {
  const neededPages = <i32>((endAddress + 0xffff) >>> 16);
  const havePages = memory.size();
  if (neededPages > havePages && memory.grow(neededPages - havePages) < 0) unreachable();
}

@inline export function alignUp(address: usize, alignment: usize): usize {
  return (address + alignment - 1) & ~(alignment - 1);
}
