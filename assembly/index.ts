// The only export surface of the WebAssembly core. Only integers cross: addresses, lengths, counts.
// Memory map (all regions chosen by the host in src/wasm/, see the diagram there):
//   | static data | < heapBase: nothing of ours | matcher blob | scratch | batch input | verdicts | output |
import {
  CHAR_LF, CHAR_CR, CHAR_TAB, VERDICT_ALLOWED, VERDICT_DISALLOWED, RESULT_VERDICT, RESULT_ALLOW_RULE,
  RESULT_DISALLOW_RULE, OUTPUT_ALL, OUTPUT_ONLY_ALLOWED, OUTPUT_ONLY_DISALLOWED, FLAG_RFC_MODE,
} from "../src/constants";
import { bindMatcher, matchUrl, bestAllowRule, bestDisallowRule } from "./match";
import { normalizeGooglePattern, normalizeRfc } from "./escape";
import { writePath } from "./path";
import { alignUp, ensureCapacity } from "./layout";
export { compileRules } from "./compile";

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

/** One URL with its deciding rules (explain, isAllowed): writes RESULT_* fields at resultPtr; returns the verdict. */
export function matchOne(blobPtr: usize, scratchPtr: usize, urlPtr: usize, urlLen: usize, resultPtr: usize): u32 {
  bindMatcher(blobPtr, scratchPtr);
  const verdict = matchUrl(urlPtr, urlPtr + urlLen);
  store<i32>(resultPtr + RESULT_VERDICT, verdict);
  store<i32>(resultPtr + RESULT_ALLOW_RULE, bestAllowRule);
  store<i32>(resultPtr + RESULT_DISALLOW_RULE, bestDisallowRule);
  return verdict;
}

@inline function lineEnd(p: usize, end: usize): usize {
  while (p < end && load<u8>(p) != CHAR_LF) p++;
  return p;
}

/** The URL of a line: without a final CR (CRLF input). */
@inline function urlEndOfLine(lineStart: usize, lineStop: usize): usize {
  return lineStop > lineStart && load<u8>(lineStop - 1) == CHAR_CR ? lineStop - 1 : lineStop;
}

/**
 * Bulk: one verdict byte per LF-separated line of input[inputPtr, inputPtr + inputLen). A final line without
 * LF counts; a final LF does not start another line. Returns the number of lines (= verdicts written).
 */
export function matchLines(blobPtr: usize, scratchPtr: usize, inputPtr: usize, inputLen: usize, verdictsPtr: usize): u32 {
  bindMatcher(blobPtr, scratchPtr);
  const end = inputPtr + inputLen;
  let p = inputPtr;
  let count: u32 = 0;
  while (p < end) {
    const stop = lineEnd(p, end);
    store<u8>(verdictsPtr + count, <u8>matchUrl(p, urlEndOfLine(p, stop)));
    count++;
    p = stop + 1;
  }
  return count;
}

/** Bulk: count URLs given as u32 offsets[count + 1] into bytesPtr (URL i = [offsets[i], offsets[i+1])). */
export function matchOffsets(blobPtr: usize, scratchPtr: usize, offsetsPtr: usize, count: u32, bytesPtr: usize, verdictsPtr: usize): void {
  bindMatcher(blobPtr, scratchPtr);
  let start = bytesPtr + <usize>load<u32>(offsetsPtr);
  for (let i: u32 = 0; i < count; i++) {
    const stop = bytesPtr + <usize>load<u32>(offsetsPtr + <usize>(i + 1) * 4);
    store<u8>(verdictsPtr + i, <u8>matchUrl(start, stop));
    start = stop;
  }
}

// Verdict prefixes of the command line's output, stored as little-endian words.
const ALLOWED_WORD: u64 = 0x096465776f6c6c61; // "allowed\t"
const DISALLOW_WORD: u64 = 0x776f6c6c61736964; // "disallow"
const ED_TAB_SHORT: u16 = 0x6465; // "ed"

/**
 * Writes the command line's output for lines already matched by matchLines: `allowed<TAB><url>\n` or
 * `disallowed<TAB><url>\n` per line, or, with a filter, just the URLs of one verdict (one per line).
 * Needs at most inputLen + 12 x lines bytes at outputPtr. Returns the number of bytes written.
 */
export function formatLines(inputPtr: usize, inputLen: usize, verdictsPtr: usize, outputPtr: usize, filter: i32): usize {
  const end = inputPtr + inputLen;
  let p = inputPtr;
  let out = outputPtr;
  let index: usize = 0;
  while (p < end) {
    const stop = lineEnd(p, end);
    const urlStop = urlEndOfLine(p, stop);
    const verdict = <i32>load<u8>(verdictsPtr + index++);
    let keep = true;
    if (filter == OUTPUT_ALL) {
      if (verdict == VERDICT_ALLOWED) {
        store<u64>(out, ALLOWED_WORD);
        out += 8;
      } else {
        store<u64>(out, DISALLOW_WORD);
        store<u16>(out + 8, ED_TAB_SHORT);
        store<u8>(out + 10, CHAR_TAB);
        out += 11;
      }
    } else {
      keep = filter == OUTPUT_ONLY_ALLOWED ? verdict == VERDICT_ALLOWED : verdict == VERDICT_DISALLOWED;
    }
    if (keep) {
      const length = urlStop - p;
      memory.copy(out, p, length);
      out += length;
      store<u8>(out++, CHAR_LF);
    }
    p = stop + 1;
  }
  return out - outputPtr;
}
