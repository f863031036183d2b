// Bulk verdicts for the bound matcher: one line (LF-separated input with an LF sentinel) or one span at a
// time, by the automaton (dfa.ts) with the literal index (literal.ts) where the blob has one, and by the
// trie NFA (match.ts) where the automaton cannot answer (rfc mode, no region, overflow, tests).
//
// Explain mode (jsonl output, RobotsMatcher bulk explain) also reports the deciding rule of each line: the
// automaton's states carry their best rules; a blob with a literal index is explained by the NFA, which
// adds the index's rules to its own (match.ts).
import {
  CHAR_LF, CHAR_CR, CHAR_SLASH, CHAR_QUESTION, CHAR_SEMICOLON, CHAR_COLON, CHAR_HASH, CHAR_NUL,
  VERDICT_UNSET, VERDICT_ALLOWED, VERDICT_DISALLOWED, RULE_PATTERN_LENGTH, RULE_SIZE, HEADER_PATTERNS_OFFSET,
  RULE_REF_RECORD, RULE_REF_PATTERNS, RULE_REF_VALUE,
} from "../src/core/constants";
import { matchUrl, matchPath, bestAllowRule, bestDisallowRule } from "./match";
import {
  resetDfa, beginWalk, feedByte, walkLine, walkSpan, walkStop, walkLinePair, pairStopB, pairAllowA, pairDisallowA,
  pairAllowB, pairDisallowB, pairOverflow, bestAllowPriority, bestDisallowPriority, dfaDisabled, STOP_OVERFLOW,
  walkAllowRule, walkDisallowRule, setExplaining,
} from "./dfa";
import { automatonNodeCount, splitLiteral, rfcMode, rulesBase, blobBase } from "./trie";
import { walkLiteralLine, walkLiteralSpan, walkLiteralRoot, literalAllowPriority, literalDisallowPriority } from "./literal";
import { findPathStart, PATH_IS_ROOT } from "./path";
import { findAnyOf8, zeroBytesOf } from "./scan";
import { NO_RULE } from "./layout";

/** Tests: bulk calls use the NFA (both engines are compared). */
export let bulkUsesNfa = false;
export function setBulkUsesNfa(value: bool): void {
  bulkUsesNfa = value;
}

/** Set when the automaton filled up since the last clearOverflow (a URL was answered by the NFA, the region flushed). */
export let overflowed = false;
export function clearOverflow(): void {
  overflowed = false;
}

/** Explain mode: the deciding rule of the last line (compiled rule index, NO_RULE when no rule decided). */
export let decidingRule: i32 = NO_RULE;

/** Writes the rule reference (RULE_REF_*) of the last explained line: the deciding rule record and its blob's patterns. */
export function storeRuleRef(ref: usize): void {
  if (decidingRule == NO_RULE) {
    store<u32>(ref + RULE_REF_RECORD, 0);
    store<u32>(ref + RULE_REF_PATTERNS, 0);
    store<u32>(ref + RULE_REF_VALUE, 0);
  } else {
    store<u32>(ref + RULE_REF_RECORD, <u32>(rulesBase + <usize>decidingRule * RULE_SIZE));
    store<u32>(ref + RULE_REF_PATTERNS, <u32>(blobBase + <usize>load<u32>(blobBase + HEADER_PATTERNS_OFFSET)));
  }
}

/** Whether lines go through the automaton (else the NFA) for the bound matcher. */
@inline export function automatonAnswers(explain: bool): bool {
  return !bulkUsesNfa && !dfaDisabled && !rfcMode && !(explain && splitLiteral);
}

/** First LF at or after p; the caller guarantees one (the sentinel). Eight bytes at a time. */
@inline export function findLf(p: usize): usize {
  while (true) {
    const zeroBytes = zeroBytesOf(load<u64>(p) ^ 0x0a0a0a0a0a0a0a0a);
    if (zeroBytes != 0) return p + <usize>(ctz(zeroBytes) >> 3);
    p += 8;
  }
}

/** The URL of a line: without a final CR (CRLF input). */
@inline export function urlEndOfLine(lineStart: usize, lineStop: usize): usize {
  return lineStop > lineStart && load<u8>(lineStop - 1) == CHAR_CR ? lineStop - 1 : lineStop;
}

// Kinds of bytes while looking for the path start in a line (a 256-byte table).
const HOST_PATH: u32 = 1; // '/', '?', ';'
const HOST_COLON: u32 = 2;
const HOST_CR: u32 = 3;
const HOST_ROOT: u32 = 4; // '#', NUL, LF: the path is "/"
const hostKinds = memory.data(256);
store<u8>(hostKinds + CHAR_SLASH, <u8>HOST_PATH);
store<u8>(hostKinds + CHAR_QUESTION, <u8>HOST_PATH);
store<u8>(hostKinds + CHAR_SEMICOLON, <u8>HOST_PATH);
store<u8>(hostKinds + CHAR_COLON, <u8>HOST_COLON);
store<u8>(hostKinds + CHAR_CR, <u8>HOST_CR);
store<u8>(hostKinds + CHAR_HASH, <u8>HOST_ROOT);
store<u8>(hostKinds + CHAR_NUL, <u8>HOST_ROOT);
store<u8>(hostKinds + CHAR_LF, <u8>HOST_ROOT);

/** First byte at or after p that can end the scheme or host: ':' '/' '?' ';' '#' NUL LF CR (16 bytes a step). */
@inline function nextHostStop(p: usize): usize {
  return findAnyOf8(p,
    i8x16.splat(<i8>CHAR_COLON), i8x16.splat(<i8>CHAR_SLASH), i8x16.splat(<i8>CHAR_QUESTION), i8x16.splat(<i8>CHAR_SEMICOLON),
    i8x16.splat(<i8>CHAR_HASH), i8x16.splat(0), i8x16.splat(<i8>CHAR_LF), i8x16.splat(<i8>CHAR_CR));
}

// "https://" and "http://" as little-endian words (a line has at least 16 readable bytes after its start).
const HTTPS_SCHEME_WORD: u64 = 0x2f2f3a7370747468;
const HTTP_SCHEME_WORD: u64 = 0x002f2f3a70747468;
const SEVEN_BYTES: u64 = 0x00ffffffffffffff;

/** Where a line's path starts (0: the path is "/"), and where the scan stopped (for the line end search). */
let hostScanStop: usize = 0;
@inline function pathStartOf(p: usize): usize {
  let schemeSeen = false;
  const head = load<u64>(p);
  // the usual schemes at once (what the scan below would find: the first ':' followed by "//")
  if (head == HTTPS_SCHEME_WORD) { p += 8; schemeSeen = true; }
  else if ((head & SEVEN_BYTES) == HTTP_SCHEME_WORD) { p += 7; schemeSeen = true; }
  else if (load<u8>(p) == CHAR_SLASH && load<u8>(p + 1) == CHAR_SLASH) p += 2;
  while (true) {
    p = nextHostStop(p);
    const kind = <u32>load<u8>(hostKinds + <usize>load<u8>(p));
    if (kind == HOST_PATH) { hostScanStop = p; return p; }
    if (kind == HOST_COLON) {
      if (!schemeSeen && load<u8>(p + 1) == CHAR_SLASH && load<u8>(p + 2) == CHAR_SLASH) { schemeSeen = true; p += 3; }
      else p++;
      continue;
    }
    if (kind == HOST_CR && load<u8>(p + 1) != CHAR_LF) { p++; continue; }
    hostScanStop = p;
    return 0;
  }
}

/** The verdict of the last automaton walk and literal walk together: the longest rule wins, allow on a tie. */
@inline function verdictOf(allow: i32, disallow: i32): u32 {
  return max(disallow, literalDisallowPriority) > max(allow, literalAllowPriority) ? VERDICT_DISALLOWED : VERDICT_ALLOWED;
}

@inline function combinedVerdict(): u32 {
  return verdictOf(bestAllowPriority, bestDisallowPriority);
}

/** Verdict of the path "/" (no path in the URL); VERDICT_UNSET when the automaton overflowed. */
function rootVerdict(): u32 {
  beginWalk();
  if (automatonNodeCount != 0 && feedByte(CHAR_SLASH)) walkSpan(0, 0);
  if (walkStop == STOP_OVERFLOW) return VERDICT_UNSET;
  if (splitLiteral) walkLiteralRoot();
  return combinedVerdict();
}

/** Explain mode, after an automaton walk: the rule behind the verdict (no literal index: see automatonAnswers). */
@inline function automatonDecidingRule(verdict: u32): i32 {
  if (verdict == VERDICT_DISALLOWED) return walkDisallowRule;
  return bestAllowPriority > 0 ? walkAllowRule : NO_RULE;
}

/** The NFA for one URL; in explain mode also its deciding rule (a priority-0 allow decides nothing). */
function nfaVerdict(urlPtr: usize, urlEnd: usize): u32 {
  return nfaDecision(matchUrl(urlPtr, urlEnd));
}

/** Explain mode: the deciding rule of the NFA's last match (a priority-0 allow decides nothing). */
function nfaDecision(verdict: u32): u32 {
  if (verdict == VERDICT_DISALLOWED) decidingRule = bestDisallowRule;
  else decidingRule = bestAllowRule != NO_RULE && load<i32>(rulesBase + <usize>bestAllowRule * RULE_SIZE + RULE_PATTERN_LENGTH) > 0 ? bestAllowRule : NO_RULE;
  return verdict;
}

/** NFA for one URL after the automaton overflowed, then a fresh automaton for the URLs after it. */
function fallbackVerdict(urlPtr: usize, urlEnd: usize): u32 {
  const verdict = nfaVerdict(urlPtr, urlEnd);
  resetDfa();
  overflowed = true;
  return verdict;
}

/**
 * Google mode, automaton: the line at p (input followed by an LF sentinel). Writes the verdict (and
 * decidingRule), returns the next line's start. The caller checked automatonAnswers and set explaining.
 */
export function matchLineByAutomaton(p: usize, verdictPtr: usize): usize {
  const lineStart = p;
  const pathStart = pathStartOf(p);
  let stop = hostScanStop;
  let verdict: u32;
  if (pathStart == 0) {
    verdict = rootVerdict();
  } else {
    beginWalk();
    const leadingSlash = load<u8>(pathStart) != CHAR_SLASH;
    if (automatonNodeCount != 0) {
      let walking = true;
      if (leadingSlash) walking = feedByte(CHAR_SLASH);
      stop = walking ? walkLine(pathStart) : pathStart;
    }
    if (walkStop == STOP_OVERFLOW) {
      verdict = VERDICT_UNSET;
    } else {
      if (splitLiteral) {
        const literalStop = walkLiteralLine(pathStart, leadingSlash);
        if (literalStop > stop) stop = literalStop;
      }
      verdict = combinedVerdict();
    }
  }
  if (verdict == VERDICT_UNSET) {
    const lineEnd = findLf(lineStart);
    store<u8>(verdictPtr, <u8>fallbackVerdict(lineStart, urlEndOfLine(lineStart, lineEnd)));
    return lineEnd + 1;
  }
  decidingRule = automatonDecidingRule(verdict);
  store<u8>(verdictPtr, <u8>verdict);
  return (load<u8>(stop) == CHAR_LF ? stop : findLf(stop)) + 1;
}

/**
 * The line at p (input followed by an LF sentinel) by whichever engine answers the bound matcher; writes its
 * verdict at verdictPtr (and decidingRule in explain mode) and returns the next line's start.
 */
export function matchLine(p: usize, verdictPtr: usize, explain: bool): usize {
  if (automatonAnswers(explain)) {
    setExplaining(explain);
    const next = matchLineByAutomaton(p, verdictPtr);
    setExplaining(false);
    return next;
  }
  return matchLineByNfa(p, verdictPtr);
}

/** The line at p by the trie NFA (both modes); writes its verdict and decidingRule, returns the next line's start. */
export function matchLineByNfa(p: usize, verdictPtr: usize): usize {
  // in google mode with the path found by the vector scan (the same path as findPathStart)
  const pathStart: usize = rfcMode ? 0 : pathStartOf(p);
  const stop = findLf(rfcMode ? p : hostScanStop);
  const urlEnd = urlEndOfLine(p, stop);
  store<u8>(verdictPtr, <u8>(rfcMode ? nfaVerdict(p, urlEnd) : nfaDecision(matchPath(pathStart == 0 ? PATH_IS_ROOT : pathStart, urlEnd))));
  return stop + 1;
}

/** Whether the line at p has a path starting with '/' (pair walks take only those); sets the path start. */
let pairPath: usize = 0;
@inline function pairablePath(p: usize): bool {
  pairPath = pathStartOf(p);
  return pairPath != 0 && load<u8>(pairPath) == CHAR_SLASH;
}

/**
 * Google mode, automaton, verdicts only: the lines at pA and pB walked as a pair (walkLinePair), so that
 * their chains of table look-ups overlap. Lines whose path does not start with '/' go one by one, and so
 * do both after an overflow. Writes the verdicts at verdictA and verdictB; returns the start of the line
 * after pB.
 */
export function matchLinePair(pA: usize, pB: usize, verdictA: usize, verdictB: usize): usize {
  if (!pairablePath(pA)) {
    matchLineByAutomaton(pA, verdictA);
    return matchLineByAutomaton(pB, verdictB);
  }
  const pathA = pairPath;
  if (!pairablePath(pB)) {
    matchLineByAutomaton(pA, verdictA);
    return matchLineByAutomaton(pB, verdictB);
  }
  const pathB = pairPath;
  walkLinePair(pathA, pathB);
  if (pairOverflow) {
    resetDfa();
    overflowed = true;
    matchLineByAutomaton(pA, verdictA);
    return matchLineByAutomaton(pB, verdictB);
  }
  // without a literal index its priorities stay 0 and verdictOf is the automaton's verdict
  let stopB = pairStopB;
  if (splitLiteral) walkLiteralLine(pathA, false);
  store<u8>(verdictA, <u8>verdictOf(pairAllowA, pairDisallowA));
  if (splitLiteral) stopB = max(stopB, walkLiteralLine(pathB, false));
  store<u8>(verdictB, <u8>verdictOf(pairAllowB, pairDisallowB));
  return (load<u8>(stopB) == CHAR_LF ? stopB : findLf(stopB)) + 1;
}

/** One URL span [urlPtr, urlEnd) by the automaton (both modes; LF and CR are ordinary bytes here). */
export function matchSpan(urlPtr: usize, urlEnd: usize): u32 {
  if (rfcMode || bulkUsesNfa || dfaDisabled) return nfaVerdict(urlPtr, urlEnd); // the NFA normalises rfc paths in its own buffer
  const pathStart = findPathStart(urlPtr, urlEnd);
  if (pathStart == PATH_IS_ROOT) {
    const verdict = rootVerdict();
    return verdict == VERDICT_UNSET ? fallbackVerdict(urlPtr, urlEnd) : verdict;
  }
  beginWalk();
  const leadingSlash = load<u8>(pathStart) != CHAR_SLASH;
  if (automatonNodeCount != 0) {
    let walking = true;
    if (leadingSlash) walking = feedByte(CHAR_SLASH);
    if (walking) walkSpan(pathStart, urlEnd);
    if (walkStop == STOP_OVERFLOW) return fallbackVerdict(urlPtr, urlEnd);
  }
  if (splitLiteral) walkLiteralSpan(pathStart, urlEnd, leadingSlash);
  return combinedVerdict();
}
