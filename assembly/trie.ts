// The compiled trie currently bound (one per instance at a time) and the primitives both matchers share:
// edge look-up and the generation stamps used to deduplicate node sets.
import { HEADER_FLAGS, HEADER_GENERATION, HEADER_NODE_COUNT, HEADER_LITERAL_OFFSET, HEADER_AUTOMATON_NODE_COUNT, HEADER_NODES_OFFSET, HEADER_EDGE_BYTES_OFFSET, HEADER_EDGE_TARGETS_OFFSET, HEADER_RULES_OFFSET, FLAG_RFC_MODE } from "../src/constants";
import { NODE_EDGE_INDEX, NODE_EDGE_COUNT, NODE_FLAGS, NODE_STAMP, NODE_SIZE, NODE_IN_AUTOMATON, NO_NODE } from "./layout";
import { bindLiteralTrie } from "./literal";

const LINEAR_SEARCH_MAX_EDGES: u32 = 8;

export let blobBase: usize = 0;
export let nodesBase: usize = 0;
export let edgeBytesBase: usize = 0;
export let edgeTargetsBase: usize = 0;
export let rulesBase: usize = 0;
export let blobNodeCount: u32 = 0;
export let rfcMode = false;
/**
 * True when the bound matcher answers patterns without '*' by the literal trie (assembly/literal.ts) and
 * the automaton works on NODE_IN_AUTOMATON nodes only; false: the automaton works on every node.
 */
export let splitLiteral = false;
/** Nodes the automaton works on; 0 when it is not needed (split, and no pattern has a '*'). */
export let automatonNodeCount: u32 = 0;
/** Literal-only nodes above which the split pays off (below, the whole automaton stays in the caches). */
const SPLIT_MIN_LITERAL_NODES: u32 = 16384;
/** 0: split when the literal part is large (default), 1: always, 2: never (tests and A/B runs). */
let literalTrieMode: u32 = 0;
export function setLiteralTrieMode(mode: u32): void {
  literalTrieMode = mode;
}

/** Whether compileRules builds a literal trie: for large literal parts, or always when a test forces it. */
export function wantLiteralTrie(nodeCount: u32, automatonNodes: u32): bool {
  return literalTrieMode == 1 || nodeCount - automatonNodes > SPLIT_MIN_LITERAL_NODES;
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
  edgeBytesBase = blob + <usize>load<u32>(blob + HEADER_EDGE_BYTES_OFFSET);
  edgeTargetsBase = blob + <usize>load<u32>(blob + HEADER_EDGE_TARGETS_OFFSET);
  rulesBase = blob + <usize>load<u32>(blob + HEADER_RULES_OFFSET);
  blobNodeCount = load<u32>(blob + HEADER_NODE_COUNT);
  rfcMode = (load<i32>(blob + HEADER_FLAGS) & FLAG_RFC_MODE) != 0;
  const wildNodes = (<u32>load<u16>(nodesBase + NODE_FLAGS) & NODE_IN_AUTOMATON) != 0 ? load<u32>(blob + HEADER_AUTOMATON_NODE_COUNT) : 0;
  const literalOffset = load<u32>(blob + HEADER_LITERAL_OFFSET);
  splitLiteral = literalOffset != 0 && literalTrieMode != 2;
  automatonNodeCount = splitLiteral ? wildNodes : blobNodeCount;
  bindLiteralTrie(blob + <usize>literalOffset);
  generation = load<u32>(blob + HEADER_GENERATION);
}

@inline export function nodeAddress(index: u32): usize {
  return nodesBase + <usize>index * NODE_SIZE;
}

/** A fresh stamp value: nodes stamped with it are "in the set being built". Clears all stamps on wrap-around. */
export function nextGeneration(): u32 {
  generation++;
  if (generation == 0) {
    for (let n: u32 = 0; n < blobNodeCount; n++) store<u32>(nodeAddress(n) + NODE_STAMP, 0);
    generation = 1;
  }
  store<u32>(blobBase + HEADER_GENERATION, generation);
  return generation;
}

/** Stamps a node with the current generation; false when it already had it (already in the set). */
@inline export function stampNode(index: u32, stamp: u32): bool {
  const address = nodeAddress(index) + NODE_STAMP;
  if (load<u32>(address) == stamp) return false;
  store<u32>(address, stamp);
  return true;
}

/** The literal child of a node for byte c, or NO_NODE: linear scan of up to 8 sorted edges, else binary search. */
export function childFor(index: u32, c: i32): u32 {
  const node = nodeAddress(index);
  const count = <u32>load<u16>(node + NODE_EDGE_COUNT);
  if (count == 0) return NO_NODE;
  const first = load<u32>(node + NODE_EDGE_INDEX);
  if (count <= LINEAR_SEARCH_MAX_EDGES) {
    for (let k: u32 = 0; k < count; k++) {
      const label = <i32>load<u8>(edgeBytesBase + <usize>(first + k));
      if (label == c) return load<u32>(edgeTargetsBase + <usize>(first + k) * 4);
      if (label > c) return NO_NODE;
    }
    return NO_NODE;
  }
  let low = first;
  let high = first + count;
  while (low < high) {
    const middle = (low + high) >>> 1;
    const label = <i32>load<u8>(edgeBytesBase + <usize>middle);
    if (label == c) return load<u32>(edgeTargetsBase + <usize>middle * 4);
    if (label < c) low = middle + 1;
    else high = middle;
  }
  return NO_NODE;
}
