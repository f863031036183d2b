// The only export surface of the WebAssembly core. Only integers cross: addresses, lengths, counts.
// Memory map (regions chosen by the host in src/wasm/core.ts, see the diagram there):
//   | static data | matcher blob | automaton region (dfa.ts) | batch input + LF sentinel | verdicts | output | scratch |
import {
  CHAR_LF, CHAR_CR, CHAR_TAB, CHAR_SLASH, CHAR_QUESTION, CHAR_SEMICOLON, CHAR_COLON, CHAR_HASH, CHAR_NUL,
  VERDICT_UNSET, VERDICT_ALLOWED, VERDICT_DISALLOWED, RESULT_VERDICT, RESULT_ALLOW_RULE, RESULT_DISALLOW_RULE,
  OUTPUT_ALL, OUTPUT_ONLY_ALLOWED, OUTPUT_ONLY_DISALLOWED, FLAG_RFC_MODE,
} from "../src/constants";
import { bindScratch, matchUrl, bestAllowRule, bestDisallowRule } from "./match";
import { resetDfa, setStateLimit, dfaResets, dfaStateCount, beginWalk, feedByte, walkLine, walkSpan, walkStop, walkLinePair, pairStopA, pairStopB, pairAllowA, pairDisallowA, pairAllowB, pairDisallowB, pairOverflow, automatonIsLarge, bestAllowPriority, bestDisallowPriority, dfaDisabled, STOP_OVERFLOW } from "./dfa";
import { bindBlob, rfcMode, automatonNodeCount, splitLiteral, setLiteralTrieMode } from "./trie";
import { walkLiteralLine, walkLiteralSpan, walkLiteralRoot, literalAllowPriority, literalDisallowPriority } from "./literal";
import { normalizeGooglePattern, normalizeRfc } from "./escape";
import { writePath, findPathStart, PATH_IS_ROOT } from "./path";
import { alignUp, ensureCapacity } from "./layout";
import { findAnyOf8 } from "./scan";
export { compileRules } from "./compile";
export { tokenizeLines } from "./lines";

/** First address the host may use (16-aligned). Called once per instance. */
export function heapBase(): usize {
  return alignUp(__heap_base, 16);
}

/** Grows memory so that [0, endAddress) exists. Called by the host before it writes a batch. */
export function reserve(endAddress: usize): void {
  ensureCapacity(endAddress);
}

/** Normalises one allow/disallow value as the given mode does (tests and explain). Writes <= 3 x length bytes. */
export function normalizePattern(srcPtr: usize, srcLen: usize, dstPtr: usize, flags: i32): usize {
  return (flags & FLAG_RFC_MODE) != 0 ? normalizeRfc(srcPtr, srcLen, dstPtr, false) : normalizeGooglePattern(srcPtr, srcLen, dstPtr);
}

/** Writes the path the reference matches for one URL (<= length + 1 bytes); returns its length. */
export function extractPath(urlPtr: usize, urlLen: usize, dstPtr: usize): usize {
  return writePath(urlPtr, urlLen, dstPtr);
}

// ---- the bound matcher ----
let dfaRegion: usize = 0;
let dfaCapacity: usize = 0;
/** 1: bulk calls use the NFA (tests compare both engines). */
let bulkUsesNfa = false;
/** Pair walks of lines (walkLinePair): 0 = for large automata (default), 1 = always, 2 = never (tests and A/B). */
let pairWalks: u32 = 0;

/** Tests and benchmarks: 0 = walk lines in pairs for large automata, 1 = always, 2 = never. */
export function setPairWalks(mode: u32): void {
  pairWalks = mode;
}

/**
 * Tests and benchmarks: 0 = literal trie for large literal rule sets, 1 = always (compileRules then builds one
 * for every matcher compiled after this call), 2 = never used (applies at the next loadMatcher).
 */
export function setLiteralTrie(mode: u32): void {
  setLiteralTrieMode(mode);
}

/** Binds a blob and sizes its automaton region. Called by the host whenever the active matcher changes. */
export function loadMatcher(blobPtr: usize, dfaPtr: usize, dfaBytes: usize): void {
  bindBlob(blobPtr);
  dfaRegion = dfaPtr;
  dfaCapacity = dfaBytes;
  ensureCapacity(dfaPtr + dfaBytes);
  resetDfa(dfaPtr, dfaBytes);
}

/** Automaton statistics (benchmarks): states in the active automaton, and resets so far (x 2^20 + states). */
export function automatonStats(): u64 {
  return (<u64>dfaResets << 32) | <u64>dfaStateCount();
}

/** Chooses the bulk engine: 0 = automaton (default), 1 = trie NFA; and caps the automaton's states (0 = none). Tests only. */
export function useNfaForBulk(value: i32, automatonStateLimit: u32): void {
  bulkUsesNfa = value != 0;
  setStateLimit(automatonStateLimit);
}

/** One URL with its deciding rules (explain, isAllowed), by the NFA: writes RESULT_* fields; returns the verdict. */
export function matchOne(scratchPtr: usize, urlPtr: usize, urlLen: usize, resultPtr: usize): u32 {
  bindScratch(scratchPtr);
  const verdict = matchUrl(urlPtr, urlPtr + urlLen);
  store<i32>(resultPtr + RESULT_VERDICT, verdict);
  store<i32>(resultPtr + RESULT_ALLOW_RULE, bestAllowRule);
  store<i32>(resultPtr + RESULT_DISALLOW_RULE, bestDisallowRule);
  return verdict;
}

/** The verdict of the last automaton walk and literal walk together: the longest rule wins, allow on a tie. */
@inline function verdictOf(allow: i32, disallow: i32): u32 {
  return max(disallow, literalDisallowPriority) > max(allow, literalAllowPriority) ? VERDICT_DISALLOWED : VERDICT_ALLOWED;
}

@inline function combinedVerdict(): u32 {
  return verdictOf(bestAllowPriority, bestDisallowPriority);
}

/** First LF at or after p; the caller guarantees one (the sentinel). Eight bytes at a time. */
@inline function findLf(p: usize): usize {
  while (true) {
    const word = load<u64>(p) ^ 0x0a0a0a0a0a0a0a0a;
    const zeroBytes = (word - 0x0101010101010101) & ~word & 0x8080808080808080;
    if (zeroBytes != 0) return p + <usize>(ctz(zeroBytes) >> 3);
    p += 8;
  }
}

// Kinds of bytes while looking for the path start in a line (a 256-byte table).
const HOST_PLAIN: u32 = 0;
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

/** Verdict of the path "/" (no path in the URL); VERDICT_UNSET when the automaton overflowed. */
function rootVerdict(): u32 {
  beginWalk();
  if (automatonNodeCount != 0 && feedByte(CHAR_SLASH)) walkSpan(0, 0);
  if (walkStop == STOP_OVERFLOW) return VERDICT_UNSET;
  if (splitLiteral) walkLiteralRoot();
  return combinedVerdict();
}

/** NFA for one URL after the automaton overflowed, then a fresh automaton for the URLs after it. */
function fallbackVerdict(urlPtr: usize, urlEnd: usize): u32 {
  const verdict = matchUrl(urlPtr, urlEnd);
  resetDfa(dfaRegion, dfaCapacity);
  return verdict;
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


/** Google mode, one line at p (input followed by an LF sentinel): writes the verdict, returns the next line's start. */
function matchLineGoogle(p: usize, verdictPtr: usize): usize {
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
  store<u8>(verdictPtr, <u8>verdict);
  return (load<u8>(stop) == CHAR_LF ? stop : findLf(stop)) + 1;
}

let groupLines: u32 = 0;

/**
 * Google mode, the line at p and the one after it walked as a pair (walkLinePair). Writes their verdicts
 * from verdictPtr on and returns the start of the line after them; groupLines says how many were taken
 * (1 when p holds the last line). Lines whose path does not start with '/' go one by one.
 */
function matchLinePair(p: usize, end: usize, verdictPtr: usize): usize {
  const pathA = pathStartOf(p);
  const lineEndA = findLf(hostScanStop);
  const q = lineEndA + 1;
  if (q >= end || pathA == 0 || load<u8>(pathA) != CHAR_SLASH) {
    groupLines = 1;
    return matchLineGoogle(p, verdictPtr);
  }
  const pathB = pathStartOf(q);
  if (pathB == 0 || load<u8>(pathB) != CHAR_SLASH) {
    matchLineGoogle(p, verdictPtr);
    groupLines = 2;
    return matchLineGoogle(q, verdictPtr + 1);
  }
  walkLinePair(pathA, pathB);
  if (pairOverflow) {
    resetDfa(dfaRegion, dfaCapacity);
    matchLineGoogle(p, verdictPtr);
    groupLines = 2;
    return matchLineGoogle(q, verdictPtr + 1);
  }
  // without a literal trie its priorities stay 0 and verdictOf is the automaton's verdict
  let stopB = pairStopB;
  if (splitLiteral) walkLiteralLine(pathA, false);
  store<u8>(verdictPtr, <u8>verdictOf(pairAllowA, pairDisallowA));
  if (splitLiteral) stopB = max(stopB, walkLiteralLine(pathB, false));
  store<u8>(verdictPtr + 1, <u8>verdictOf(pairAllowB, pairDisallowB));
  groupLines = 2;
  return (load<u8>(stopB) == CHAR_LF ? stopB : findLf(stopB)) + 1;
}

/** One URL span [urlPtr, urlEnd) by the automaton (both modes; LF and CR are ordinary bytes here). */
function matchSpan(urlPtr: usize, urlEnd: usize, scratchPtr: usize): u32 {
  if (rfcMode) return matchUrl(urlPtr, urlEnd); // the NFA normalises into its own buffer (rfc mode is not the hot path)
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

@inline function lineEndOf(p: usize, end: usize): usize {
  while (p < end && load<u8>(p) != CHAR_LF) p++;
  return p;
}

/** The URL of a line: without a final CR (CRLF input). */
@inline function urlEndOfLine(lineStart: usize, lineStop: usize): usize {
  return lineStop > lineStart && load<u8>(lineStop - 1) == CHAR_CR ? lineStop - 1 : lineStop;
}

// Verdict prefixes of the command line's output, stored as little-endian words.
const ALLOWED_WORD: u64 = 0x096465776f6c6c61; // "allowed\t"
const DISALLOW_WORD: u64 = 0x776f6c6c61736964; // "disallow"
const ED_SHORT: u16 = 0x6465; // "ed"

let outputLength: usize = 0;

/** Bytes written by the last matchLines call with an output pointer. */
export function lastOutputLength(): usize {
  return outputLength;
}

/** Copies length bytes 8 at a time; may read and write up to 7 bytes past the end (the host leaves slack). */
@inline function copyWords(destination: usize, source: usize, length: usize): void {
  for (let i: usize = 0; i < length; i += 8) store<u64>(destination + i, load<u64>(source + i));
}

/** Writes one output line for [lineStart, lineStop) (lineStop = its LF or the end); returns the new output end. */
@inline function formatLine(out: usize, lineStart: usize, lineStop: usize, verdict: u32, filter: i32): usize {
  const urlStop = urlEndOfLine(lineStart, lineStop);
  if (filter == OUTPUT_ALL) {
    if (verdict == VERDICT_ALLOWED) {
      store<u64>(out, ALLOWED_WORD);
      out += 8;
    } else {
      store<u64>(out, DISALLOW_WORD);
      store<u16>(out + 8, ED_SHORT);
      store<u8>(out + 10, CHAR_TAB);
      out += 11;
    }
  } else if (filter == OUTPUT_ONLY_ALLOWED ? verdict != VERDICT_ALLOWED : verdict != VERDICT_DISALLOWED) {
    return out;
  }
  const length = urlStop - lineStart;
  copyWords(out, lineStart, length);
  out += length;
  store<u8>(out, CHAR_LF);
  return out + 1;
}

/**
 * Bulk: one verdict byte per LF-separated line of input[inputPtr, inputPtr + inputLen), which the host
 * follows with an LF sentinel byte at inputPtr + inputLen and 16 readable bytes. A final line without LF
 * counts; a final LF does not start another line. With outputPtr != 0 it also writes the command line's
 * output for each line (`allowed<TAB><url>\n`, `disallowed<TAB><url>\n`, or only the URLs of one verdict
 * with a filter; at most inputLen + 12 x lines + 8 bytes, see lastOutputLength). Returns the line count.
 */
export function matchLines(scratchPtr: usize, inputPtr: usize, inputLen: usize, verdictsPtr: usize, outputPtr: usize, filter: i32): u32 {
  bindScratch(scratchPtr);
  const end = inputPtr + inputLen;
  const fast = !bulkUsesNfa && !dfaDisabled && !rfcMode;
  let p = inputPtr;
  let out = outputPtr;
  let count: u32 = 0;
  if (fast && automatonNodeCount != 0 && (pairWalks == 1 || (pairWalks == 0 && automatonIsLarge()))) {
    while (p < end) {
      const groupStart = p;
      p = matchLinePair(p, end, verdictsPtr + count);
      if (outputPtr != 0) {
        let q = groupStart;
        for (let k: u32 = 0; k < groupLines; k++) {
          const next = findLf(q) + 1;
          out = formatLine(out, q, next - 1, <u32>load<u8>(verdictsPtr + count + k), filter);
          q = next;
        }
      }
      count += groupLines;
    }
    outputLength = out - outputPtr;
    return count;
  }
  while (p < end) {
    const verdictPtr = verdictsPtr + count++;
    let next: usize;
    if (fast) {
      next = matchLineGoogle(p, verdictPtr);
    } else {
      const stop = lineEndOf(p, end);
      const urlEnd = urlEndOfLine(p, stop);
      store<u8>(verdictPtr, <u8>(bulkUsesNfa || dfaDisabled ? matchUrl(p, urlEnd) : matchSpan(p, urlEnd, scratchPtr)));
      next = stop + 1;
    }
    if (outputPtr != 0) out = formatLine(out, p, next - 1, <u32>load<u8>(verdictPtr), filter);
    p = next;
  }
  outputLength = out - outputPtr;
  return count;
}

/** Bulk: count URLs given as u32 offsets[count + 1] into bytesPtr (URL i = [offsets[i], offsets[i+1])). */
export function matchOffsets(scratchPtr: usize, offsetsPtr: usize, count: u32, bytesPtr: usize, verdictsPtr: usize): void {
  bindScratch(scratchPtr);
  const useNfa = bulkUsesNfa || dfaDisabled;
  let start = bytesPtr + <usize>load<u32>(offsetsPtr);
  for (let i: u32 = 0; i < count; i++) {
    const stop = bytesPtr + <usize>load<u32>(offsetsPtr + <usize>(i + 1) * 4);
    store<u8>(verdictsPtr + i, <u8>(useNfa ? matchUrl(start, stop) : matchSpan(start, stop, scratchPtr)));
    start = stop;
  }
}


