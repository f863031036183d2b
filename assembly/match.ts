// The matcher: walks one URL's path once through a compiled trie, keeping every pattern prefix that can
// still match as an active node, and records the longest allow and disallow rule (earliest line on ties).
//
// Worst case, stated: O(L x A) steps for a path of L bytes, where A <= number of trie nodes (<= total
// normalised pattern bytes + 1) is the number of simultaneously active nodes; each step costs one edge
// look-up (binary search over at most 256 sorted edges). Nodes reached through '*' stay active to the end
// of the path and are deduplicated by a per-URL stamp, so no node is ever active twice: no backtracking,
// no exponential blow-up. `/*a*a*a*a*a*a*a*a*a*a*b` has 21 nodes: a 64 KiB path costs at most 64 Ki x 21 steps.
// Typical robots.txt groups keep 1-3 nodes active and stop at the first byte no pattern continues with.
import {
  RULE_KIND, RULE_LINE, RULE_PATTERN_LENGTH, RULE_SIZE, RULE_KIND_ALLOW, VERDICT_ALLOWED, VERDICT_DISALLOWED, CHAR_SLASH,
} from "../src/core/constants";
import {
  NODE_STAR_CHILD, NODE_SIZE, NODE_HAS_RULE, NODE_HAS_END_RULE, RULE_SLOT_ALLOW, RULE_SLOT_DISALLOW,
  RULE_SLOT_ALLOW_END, RULE_SLOT_DISALLOW_END, NO_RULE, NO_NODE, ensureCapacity, alignUp, flagsOf,
} from "./layout";
import { findPathStart, isPathEnd, writePath, PATH_IS_ROOT } from "./path";
import { nodesBase, rulesBase, blobNodeCount, rfcMode, blobHasStars, splitLiteral, childFor, nextGeneration, stampNode, ruleSlotOf } from "./trie";
import { walkLiteralSpan, walkLiteralRoot, literalAllowRule, literalDisallowRule } from "./literal";
import { normalizeRfc } from "./escape";

// ---- per-URL state, in the scratch area after the blob's work lists ----
let activeList: usize = 0; // nodes reached through literal edges at the current position
let nextList: usize = 0;
let starList: usize = 0; // nodes reached through '*': active until the end of the path
let activeCount: u32 = 0;
let nextCount: u32 = 0;
let starCount: u32 = 0;
let rfcPathBuffer: usize = 0;
let rfcBufferCapacity: usize = 0;
let generation: u32 = 0;

// ---- per-URL result ----
export let bestAllowRule: i32 = NO_RULE;
export let bestDisallowRule: i32 = NO_RULE;
let bestAllowPriority: i32 = -1;
let bestDisallowPriority: i32 = -1;
let bestAllowLine: u32 = 0;
let bestDisallowLine: u32 = 0;

/** Lays out the NFA's work lists in scratch (3 lists of one u32 per node, then the rfc path buffer). */
export function bindScratch(scratch: usize): usize {
  const listBytes = <usize>blobNodeCount * 4;
  activeList = alignUp(scratch, 8);
  nextList = activeList + listBytes;
  starList = nextList + listBytes;
  rfcPathBuffer = starList + listBytes;
  rfcBufferCapacity = 0;
  ensureCapacity(rfcPathBuffer);
  return rfcPathBuffer;
}

@inline function recordRule(ruleIndex: i32): void {
  const rule = rulesBase + <usize>ruleIndex * RULE_SIZE;
  const priority = load<i32>(rule + RULE_PATTERN_LENGTH);
  const line = load<u32>(rule + RULE_LINE);
  if (load<u16>(rule + RULE_KIND) == RULE_KIND_ALLOW) {
    if (priority > bestAllowPriority || (priority == bestAllowPriority && line < bestAllowLine)) {
      bestAllowPriority = priority;
      bestAllowLine = line;
      bestAllowRule = ruleIndex;
    }
  } else if (priority > bestDisallowPriority || (priority == bestDisallowPriority && line < bestDisallowLine)) {
    bestDisallowPriority = priority;
    bestDisallowLine = line;
    bestDisallowRule = ruleIndex;
  }
}

/** Records the rules of a node's rule slot (allowField, disallowField: RULE_SLOT_* offsets). */
@inline function recordRules(node: usize, allowField: usize, disallowField: usize): void {
  const slot = ruleSlotOf(node);
  const allow = load<i32>(slot + allowField);
  if (allow != NO_RULE) recordRule(allow);
  const disallow = load<i32>(slot + disallowField);
  if (disallow != NO_RULE) recordRule(disallow);
}

/** A star node becomes active: record its rules (the '*' may match nothing) and follow '**' chains. */
function activateStar(index: u32): void {
  while (index != NO_NODE) {
    const node = nodesBase + <usize>index * NODE_SIZE;
    if (!stampNode(index, generation)) return;
    store<u32>(starList + <usize>starCount * 4, index);
    starCount++;
    if (flagsOf(node) & NODE_HAS_RULE) recordRules(node, RULE_SLOT_ALLOW, RULE_SLOT_DISALLOW);
    index = load<u32>(node + NODE_STAR_CHILD);
  }
}

/** A literal node is reached after consuming a byte: record its rules, activate its '*' child. */
@inline function enterNode(index: u32): void {
  const node = nodesBase + <usize>index * NODE_SIZE;
  if (flagsOf(node) & NODE_HAS_RULE) recordRules(node, RULE_SLOT_ALLOW, RULE_SLOT_DISALLOW);
  const star = load<u32>(node + NODE_STAR_CHILD);
  if (star != NO_NODE) activateStar(star);
  store<u32>(nextList + <usize>nextCount * 4, index);
  nextCount++;
}

@inline function swapLists(): void {
  const list = activeList;
  activeList = nextList;
  nextList = list;
  activeCount = nextCount;
  nextCount = 0;
}

/** Consumes one path byte; returns false when no pattern can match any more. */
function step(c: i32): bool {
  const stars = starCount; // stars activated during this step start consuming at the next byte
  for (let i: u32 = 0; i < activeCount; i++) {
    const child = childFor(load<u32>(activeList + <usize>i * 4), c);
    if (child != NO_NODE) enterNode(child);
  }
  for (let i: u32 = 0; i < stars; i++) {
    const child = childFor(load<u32>(starList + <usize>i * 4), c);
    if (child != NO_NODE) enterNode(child);
  }
  swapLists();
  return (activeCount | starCount) != 0;
}

/** The path ended: rules with a final '$' match on the nodes active now. */
function finishPath(): void {
  for (let i: u32 = 0; i < activeCount; i++) {
    const node = nodesBase + <usize>load<u32>(activeList + <usize>i * 4) * NODE_SIZE;
    if (flagsOf(node) & NODE_HAS_END_RULE) recordRules(node, RULE_SLOT_ALLOW_END, RULE_SLOT_DISALLOW_END);
  }
  for (let i: u32 = 0; i < starCount; i++) {
    const node = nodesBase + <usize>load<u32>(starList + <usize>i * 4) * NODE_SIZE;
    if (flagsOf(node) & NODE_HAS_END_RULE) recordRules(node, RULE_SLOT_ALLOW_END, RULE_SLOT_DISALLOW_END);
  }
}

function beginUrl(): void {
  bestAllowRule = NO_RULE;
  bestDisallowRule = NO_RULE;
  bestAllowPriority = -1;
  bestDisallowPriority = -1;
  generation = nextGeneration();
  activeCount = 0;
  nextCount = 0;
  starCount = 0;
  enterNode(0);
  swapLists();
}

/** The reference's decision for one rule set: the longer match wins, ties go to allow, priority 0 never decides. */
@inline function decide(): u32 {
  if (bestAllowPriority > 0 || bestDisallowPriority > 0) {
    return bestDisallowPriority > bestAllowPriority ? VERDICT_DISALLOWED : VERDICT_ALLOWED;
  }
  return VERDICT_ALLOWED;
}

/** "/robots.txt" byte for byte: RFC 9309 allows it implicitly (rfc mode only). */
function isRobotsTxtPath(path: usize, length: usize): bool {
  if (length != 11) return false;
  return load<u64>(path) == 0x2e73746f626f722f && // "/robots." little-endian
    load<u8>(path + 8) == 0x74 && load<u8>(path + 9) == 0x78 && load<u8>(path + 10) == 0x74;
}

function matchUrlRfc(urlPtr: usize, urlEnd: usize): u32 {
  const urlLength = urlEnd - urlPtr;
  const needed = urlLength * 4 + 8;
  if (needed > rfcBufferCapacity) {
    ensureCapacity(rfcPathBuffer + needed);
    rfcBufferCapacity = needed;
  }
  const rawPath = rfcPathBuffer;
  const rawLength = writePath(urlPtr, urlLength, rawPath);
  const path = rfcPathBuffer + urlLength + 1;
  const pathLength = normalizeRfc(rawPath, rawLength, path, true);
  if (isRobotsTxtPath(path, pathLength)) {
    // RFC 9309 allows /robots.txt itself: no rule decides
    bestAllowRule = NO_RULE;
    bestDisallowRule = NO_RULE;
    return VERDICT_ALLOWED;
  }
  walkNormalizedPath(path, pathLength);
  if (splitLiteral) {
    walkLiteralSpan(path, path + pathLength, false);
    recordLiteralRules();
  }
  return decide();
}

/** The NFA over an rfc-normalised path (the rules it finds are recorded). */
function walkNormalizedPath(path: usize, pathLength: usize): void {
  for (let p: usize = 0; p < pathLength; p++) {
    if (!step(<i32>load<u8>(path + p))) return;
  }
  finishPath();
}

/** A blob with a literal index, after its look-up: adds the literal rules found to the trie's (longer wins, then earlier line). */
function recordLiteralRules(): void {
  if (literalAllowRule != NO_RULE) recordRule(literalAllowRule);
  if (literalDisallowRule != NO_RULE) recordRule(literalDisallowRule);
}

/** The simple matcher: url[urlPtr, urlEnd) against the bound blob through the trie NFA; returns a VERDICT_* value. */
export function matchUrl(urlPtr: usize, urlEnd: usize): u32 {
  if (rfcMode) {
    beginUrl();
    return matchUrlRfc(urlPtr, urlEnd);
  }
  return matchPath(findPathStart(urlPtr, urlEnd), urlEnd);
}

/**
 * Google mode: the NFA for a URL whose path starts at start (findPathStart's answer: PATH_IS_ROOT or the
 * address of its '/', '?' or ';') and whose bytes end at urlEnd.
 */
export function matchPath(start: usize, urlEnd: usize): u32 {
  if (blobHasStars) walkNfa(start, urlEnd);
  else walkPath(start, urlEnd);
  if (splitLiteral) {
    if (start == PATH_IS_ROOT) walkLiteralRoot();
    else walkLiteralSpan(start, urlEnd, load<u8>(start) != CHAR_SLASH);
    recordLiteralRules();
  }
  return decide();
}

/** The NFA over a Google-mode path (see matchPath); records the rules it finds. */
function walkNfa(start: usize, urlEnd: usize): void {
  beginUrl();
  // The path always starts with '/': a path beginning with '?' or ';' gets one in front.
  if (!step(CHAR_SLASH)) return;
  for (let p = pathBytesStart(start, urlEnd); ; p++) {
    const c = pathByte(p, urlEnd);
    if (c < 0) break;
    if (!step(c)) return;
  }
  finishPath();
}

/** Where the path's bytes after its leading '/' start (the '/' itself is stepped first, real or not); urlEnd for "/". */
@inline function pathBytesStart(start: usize, urlEnd: usize): usize {
  if (start == PATH_IS_ROOT) return urlEnd;
  return load<u8>(start) == CHAR_SLASH ? start + 1 : start;
}

/** The path byte at p, or -1 where the path ends (urlEnd, or '#' / NUL / line end: isPathEnd). */
@inline function pathByte(p: usize, urlEnd: usize): i32 {
  if (p >= urlEnd) return -1;
  const c = <i32>load<u8>(p);
  return isPathEnd(c) ? -1 : c;
}

/**
 * matchPath for a blob without '*' patterns: at most one node is ever active, so the path is one walk down
 * the trie (the same rules recorded in the same order as the NFA would, without its lists and stamps).
 */
function walkPath(start: usize, urlEnd: usize): void {
  bestAllowRule = NO_RULE;
  bestDisallowRule = NO_RULE;
  bestAllowPriority = -1;
  bestDisallowPriority = -1;
  let node = nodesBase;
  if (flagsOf(node) & NODE_HAS_RULE) recordRules(node, RULE_SLOT_ALLOW, RULE_SLOT_DISALLOW);
  // the path always starts with '/': a path beginning with '?' or ';' gets one in front
  let index = childFor(0, CHAR_SLASH);
  if (index == NO_NODE) return;
  node = nodesBase + <usize>index * NODE_SIZE;
  if (flagsOf(node) & NODE_HAS_RULE) recordRules(node, RULE_SLOT_ALLOW, RULE_SLOT_DISALLOW);
  for (let p = pathBytesStart(start, urlEnd); ; p++) {
    const c = pathByte(p, urlEnd);
    if (c < 0) break;
    index = childFor(index, c);
    if (index == NO_NODE) return;
    node = nodesBase + <usize>index * NODE_SIZE;
    if (flagsOf(node) & NODE_HAS_RULE) recordRules(node, RULE_SLOT_ALLOW, RULE_SLOT_DISALLOW);
  }
  if (flagsOf(node) & NODE_HAS_END_RULE) recordRules(node, RULE_SLOT_ALLOW_END, RULE_SLOT_DISALLOW_END);
}
