// The only export surface of the WebAssembly core. Only integers cross: addresses, lengths, counts.
// Memory map: regions chosen by the host, drawn in src/core/wasm/frame.ts.
import { RESULT_VERDICT, RESULT_ALLOW_RULE, RESULT_DISALLOW_RULE, FLAG_RFC_MODE, RULE_REF_SIZE, LINES_RESULT_OUTPUT_LENGTH, LINES_RESULT_INPUT_STOP } from "../src/core/constants";
import { bindScratch, matchUrl, bestAllowRule, bestDisallowRule } from "./match";
import { bindAutomaton, setStateLimit, dfaResets, dfaStateCount, automatonIsLarge, setExplaining } from "./dfa";
import { bindBlob, automatonNodeCount, setLiteralIndexMode } from "./trie";
import { normalizeGooglePattern, normalizeRfc } from "./escape";
import { writePath } from "./path";
import { alignUp, ensureCapacity } from "./layout";
import { matchLine, matchLineByAutomaton, matchLineByNfa, matchLinePair, matchSpan, findLf, automatonAnswers, setBulkUsesNfa, overflowed, clearOverflow, storeRuleRef } from "./bulk";
import { formatLine } from "./format";
export { compileRobots, compileRobotsFromRecords, selectGroups, selectGroupsFromRecords } from "./select";
export { bomLength } from "./groups";
export { answerUrlFromBody } from "./direct";
export { tokenizeLines } from "./lines";
export { formatTextLines, formatJsonlLines, countLines, countLineEndBytes } from "./format";
export { readLogChunk, urlLinesOfTargets, unescapeLogField } from "./log";
export { isPlainKey as isPlainOriginKey, resolvePackOrigins } from "./pack-hosts";
export { hostKeyOf as originKeyOf, scanLineHosts, groupLinesByEntry, slotGroups, matchGroups, splitLinesByHost, findHostSlot, rememberHost, rehashHostTable } from "./hosts";

/** First address the host may use (16-aligned). Called once per instance. */
export function heapBase(): usize {
  return alignUp(__heap_base, 16);
}

/** Grows memory so that [0, endAddress) exists. Called by the host before it writes a batch. */
export function reserve(endAddress: usize): void {
  ensureCapacity(endAddress);
}

/** memmove inside linear memory (the host moves blobs into their heap blocks with it). */
export function copyBytes(dst: usize, src: usize, length: usize): void {
  memory.copy(dst, src, length);
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
/** Pair walks of lines (walkLinePair): 0 = for large automata (default), 1 = always, 2 = never (tests and A/B). */
let pairWalks: u32 = 0;

/**
 * The bulk engine's settings, for tests and A/B runs (each 0 by default), set once and kept: nfa 1 answers
 * bulk calls by the trie NFA instead of the automaton; automatonStateLimit caps the automaton's states (0:
 * none); pairWalks 0 walks lines in pairs for large automata, 1 always, 2 never; literalIndex 0 builds a
 * literal index for large literal rule sets, 1 for every pattern without '*', 2 never (for matchers compiled
 * after the call).
 */
export function configureBulkEngine(nfa: i32, automatonStateLimit: u32, pairWalksMode: u32, literalIndex: u32): void {
  setBulkUsesNfa(nfa != 0);
  setStateLimit(automatonStateLimit);
  pairWalks = pairWalksMode;
  setLiteralIndexMode(literalIndex);
}

/**
 * Binds a blob and its automaton region (dfaPtr 0: none yet, bulk calls use the NFA; a region with a zero
 * header is laid out, else its states are kept). Called by the host whenever the active matcher changes.
 */
export function bindMatcher(blobPtr: usize, dfaPtr: usize, dfaBytes: usize): void {
  bindBlob(blobPtr);
  bindAutomaton(dfaPtr, dfaBytes);
}

/** Automaton statistics (benchmarks): states in the bound automaton, and layouts so far (resets x 2^32 + states). */
export function automatonStats(): u64 {
  return (<u64>dfaResets << 32) | <u64>dfaStateCount();
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

/**
 * Bulk: one verdict byte per LF-separated line of input[inputPtr, inputPtr + inputLen), which the host
 * follows with an LF sentinel byte at inputPtr + inputLen and 16 readable bytes. A final line without LF
 * counts; a final LF does not start another line. With outputPtr != 0 it also writes the text output for
 * each line (format.ts; at most inputLen + 12 x lines + 8 bytes: LINES_RESULT_OUTPUT_LENGTH). With rulesPtr != 0
 * (explain mode) it writes each line's rule reference there. With stopOnOverflow, it stops after a line
 * that filled the automaton region (so that the host can give it a larger one) and LINES_RESULT_INPUT_STOP
 * says where to go on. Writes the LINES_RESULT_* record at resultPtr; returns the number of lines done.
 */
export function matchLines(scratchPtr: usize, inputPtr: usize, inputLen: usize, verdictsPtr: usize, outputPtr: usize, filter: i32, rulesPtr: usize, stopOnOverflow: bool, resultPtr: usize): u32 {
  bindScratch(scratchPtr);
  clearOverflow();
  const end = inputPtr + inputLen;
  const explain = rulesPtr != 0;
  const automaton = automatonAnswers(explain);
  const pairs = !explain && automaton && automatonNodeCount != 0 && (pairWalks == 1 || (pairWalks == 0 && automatonIsLarge()));
  if (automaton) setExplaining(explain);
  let p = inputPtr;
  let out = outputPtr;
  let count: u32 = 0;
  while (p < end) {
    let next: usize;
    let done: u32 = 1;
    const second = pairs ? findLf(p) + 1 : end;
    if (second < end) {
      next = matchLinePair(p, second, verdictsPtr + count, verdictsPtr + count + 1);
      done = 2;
    } else {
      next = automaton ? matchLineByAutomaton(p, verdictsPtr + count) : matchLineByNfa(p, verdictsPtr + count);
      if (explain) storeRuleRef(rulesPtr + <usize>count * RULE_REF_SIZE);
    }
    if (outputPtr != 0) {
      // a line ends at the LF before the next line's start
      if (done == 2) {
        out = formatLine(out, p, second - 1, <u32>load<u8>(verdictsPtr + count), filter);
        out = formatLine(out, second, next - 1, <u32>load<u8>(verdictsPtr + count + 1), filter);
      } else {
        out = formatLine(out, p, next - 1, <u32>load<u8>(verdictsPtr + count), filter);
      }
    }
    count += done;
    p = next;
    if (overflowed && stopOnOverflow) break;
  }
  setExplaining(false);
  store<u32>(resultPtr + LINES_RESULT_OUTPUT_LENGTH, <u32>(out - outputPtr));
  store<u32>(resultPtr + LINES_RESULT_INPUT_STOP, <u32>(p < end ? p : end));
  return count;
}

/** Bulk: count URLs given as u32 offsets[count + 1] into bytesPtr (URL i = [offsets[i], offsets[i+1])). */
export function matchOffsets(scratchPtr: usize, offsetsPtr: usize, count: u32, bytesPtr: usize, verdictsPtr: usize): void {
  bindScratch(scratchPtr);
  let start = bytesPtr + <usize>load<u32>(offsetsPtr);
  for (let i: u32 = 0; i < count; i++) {
    const stop = bytesPtr + <usize>load<u32>(offsetsPtr + <usize>(i + 1) * 4);
    store<u8>(verdictsPtr + i, <u8>matchSpan(start, stop));
    start = stop;
  }
}
