// robots.txt bytes -> line records: the per-byte part of the parser (src/core/parser.ts does the rest).
// One pass: line ends (LF, CR, CR LF), the first '#', NUL and ':' of each line, then per line the
// whitespace strip and the key/value split, exactly as docs/specification.md sections 1 and 2 say.
// Worst case, stated: linear in the body: each byte is compared in a 16-byte block (a block is loaded again
// only from a special byte on), and each line's trims and key compare look at its bytes at most twice.
import {
  CHAR_LF, CHAR_CR, CHAR_HASH, CHAR_NUL, CHAR_COLON, CHAR_SPACE, CHAR_TAB, MAX_LINE_BYTES,
  LINE_NUMBER, LINE_KEY_START, LINE_KEY_END, LINE_VALUE_START, LINE_VALUE_END, LINE_FLAGS, LINE_RECORD_SIZE,
  LINE_FLAG_TRUNCATED, LINE_FLAG_NUL, LINE_FLAG_MISSING_COLON, LINE_FLAG_NO_SEPARATOR, LINE_FLAG_EMPTY_KEY,
  LINE_FLAG_TYPO, LINE_KEY_KIND, LINE_GROUP, LINE_TOKEN_END, LINE_FLAG_GLOBAL_AGENT, KEY_UNKNOWN, KEY_USER_AGENT, KEY_ALLOW,
  KEY_DISALLOW, KEY_SITEMAP,
} from "../src/core/constants";
import { isRobotsWhitespace as isWhitespace, groupOfLine, resetGroups, isGlobalAgent, productTokenEnd } from "./groups";

/** Does key [start, end) start with text (lower-case ASCII), ignoring ASCII case? */
function hasPrefix(base: usize, start: i32, end: i32, text: string): bool {
  const length = text.length;
  if (end - start < length) return false;
  const chars = changetype<usize>(text);
  for (let i = 0; i < length; i++) {
    let c = <i32>load<u8>(base + <usize>(start + i));
    if (c >= 0x41 && c <= 0x5a) c |= 0x20;
    if (c != <i32>load<u16>(chars + (<usize>i << 1))) return false;
  }
  return true;
}

let keyIsTypo = false;

// The common keys as little-endian words of lower-case ASCII, compared with (8 key bytes | 0x20 each): that
// maps exactly the upper-case letters onto the lower-case ones, and '-' (0x2d) only onto itself (0x0d, a CR,
// cannot be inside a line).
const WORD_USER_AGE: u64 = 0x6567612d72657375; // "user-age"
const SHORT_NT: u16 = 0x746e; // "nt"
const WORD_DISALLOW: u64 = 0x776f6c6c61736964; // "disallow"
const WORD_ALLOW: u64 = 0x000000776f6c6c61; // "allow", 5 bytes
const WORD_SITEMAP: u64 = 0x0070616d65746973; // "sitemap", 7 bytes
const LOWER_CASE_BITS: u64 = 0x2020202020202020;

/** The key's kind by prefix, in the reference's order; sets keyIsTypo for the Google-only misspellings. */
function keyKind(base: usize, start: i32, end: i32, google: bool): i32 {
  keyIsTypo = false;
  // the usual spellings by one word compare (the line has 16 readable bytes after it: the host's slack)
  const length = end - start;
  const word = load<u64>(base + <usize>start) | LOWER_CASE_BITS;
  if (length >= 10 && word == WORD_USER_AGE && (load<u16>(base + <usize>start + 8) | 0x2020) == SHORT_NT) return KEY_USER_AGENT;
  if (length >= 8 && word == WORD_DISALLOW) return KEY_DISALLOW;
  if (length >= 5 && (word & 0xffffffffff) == WORD_ALLOW) return KEY_ALLOW;
  if (length >= 7 && (word & 0xffffffffffffff) == WORD_SITEMAP) return KEY_SITEMAP;
  const first = <i32>load<u8>(base + <usize>start) | 0x20;
  if (first == 0x75) { // u
    if (hasPrefix(base, start, end, "user-agent")) return KEY_USER_AGENT;
    if (google && (hasPrefix(base, start, end, "useragent") || hasPrefix(base, start, end, "user agent"))) { keyIsTypo = true; return KEY_USER_AGENT; }
  } else if (first == 0x61) { // a
    if (hasPrefix(base, start, end, "allow")) return KEY_ALLOW;
  } else if (first == 0x64) { // d
    if (hasPrefix(base, start, end, "disallow")) return KEY_DISALLOW;
    if (google && (hasPrefix(base, start, end, "dissallow") || hasPrefix(base, start, end, "dissalow") || hasPrefix(base, start, end, "disalow") ||
        hasPrefix(base, start, end, "diasllow") || hasPrefix(base, start, end, "disallaw"))) { keyIsTypo = true; return KEY_DISALLOW; }
  } else if (first == 0x73) { // s
    if (hasPrefix(base, start, end, "sitemap")) return KEY_SITEMAP;
    if (google && hasPrefix(base, start, end, "site-map")) { keyIsTypo = true; return KEY_SITEMAP; }
  }
  return KEY_UNKNOWN;
}

@inline function isBlank(c: i32): bool {
  return c == CHAR_SPACE || c == CHAR_TAB;
}

// ---- the cursor: one line at a time, pulled by its consumer ----
// startLines sets a body; each nextLine call reads on to the next line that yields something (a key and
// value, or a line the parser reports: a truncated, NUL, missing-colon, no-separator or empty-key line) and
// sets the line* fields below. Consumers: tokenizeLines (line records for the TypeScript parser) and the
// group selector (select.ts). No consumer is called from here.

/** The current line: its number (from 1), key and value (offsets from the body start; -1 when absent), LINE_FLAG_* bits, KEY_* kind and group (groups.ts; -1 before the first user-agent line). */
export let lineNumber: i32 = 0;
export let lineKeyStart: i32 = -1;
export let lineKeyEnd: i32 = -1;
export let lineValueStart: i32 = -1;
export let lineValueEnd: i32 = -1;
export let lineFlags: i32 = 0;
export let lineKind: i32 = KEY_UNKNOWN;
export let lineGroup: i32 = -1;

let cursorBody: usize = 0;
let cursorLength: i32 = 0;
let cursorGoogle = false;
/** The next byte to look at, the start of the line being read, its first '#', NUL and ':' (-1: none yet). */
let cursorAt: i32 = 0;
let cursorLineStart: i32 = 0;
let cursorHash: i32 = -1;
let cursorNul: i32 = -1;
let cursorColon: i32 = -1;
/** Lines started so far (the next line's number is this + 1), and whether the last line was read. */
let cursorLines: i32 = 0;
let cursorDone = true;

/** Sets the current line (with its group, groups.ts) and says it yields. */
@inline function yieldLine(number: i32, keyStart: i32, keyEnd: i32, valueStart: i32, valueEnd: i32, flags: i32, kind: i32 = KEY_UNKNOWN): bool {
  lineNumber = number;
  lineKeyStart = keyStart;
  lineKeyEnd = keyEnd;
  lineValueStart = valueStart;
  lineValueEnd = valueEnd;
  lineFlags = flags;
  lineKind = kind;
  lineGroup = groupOfLine(kind);
  return true;
}

/** One line [start, end) with its first '#', NUL and ':' (-1 when absent); offsets relative to base. True when it yields a line. */
function readLine(base: usize, number: i32, start: i32, end: i32, hashAt: i32, nulAt: i32, colonAt: i32, google: bool): bool {
  let flags = 0;
  if (google && end - start > MAX_LINE_BYTES) {
    end = start + MAX_LINE_BYTES;
    flags |= LINE_FLAG_TRUNCATED;
  }
  if (nulAt >= 0 && nulAt < end && (hashAt < 0 || nulAt < hashAt)) {
    end = nulAt;
    flags |= LINE_FLAG_NUL;
  } else if (hashAt >= 0 && hashAt < end) {
    end = hashAt;
  }
  while (start < end && isWhitespace(load<u8>(base + <usize>start))) start++;
  while (end > start && isWhitespace(load<u8>(base + <usize>(end - 1)))) end--;
  if (start == end) {
    return flags != 0 ? yieldLine(number, -1, -1, -1, -1, flags) : false;
  }
  let keyEnd = colonAt;
  let valueStart = keyEnd + 1;
  if (keyEnd < 0 || keyEnd >= end) {
    // GoogleOnly: "key value" with exactly two space/tab-separated tokens stands for "key: value".
    keyEnd = -1;
    if (google) {
      for (let i = start; i < end; i++) {
        if (isBlank(load<u8>(base + <usize>i))) { keyEnd = i; break; }
      }
    }
    if (keyEnd < 0) return yieldLine(number, -1, -1, -1, -1, flags | LINE_FLAG_NO_SEPARATOR);
    valueStart = keyEnd;
    while (isBlank(load<u8>(base + <usize>valueStart))) valueStart++;
    for (let i = valueStart; i < end; i++) {
      if (isBlank(load<u8>(base + <usize>i))) return yieldLine(number, -1, -1, -1, -1, flags | LINE_FLAG_NO_SEPARATOR);
    }
    flags |= LINE_FLAG_MISSING_COLON;
  }
  while (keyEnd > start && isWhitespace(load<u8>(base + <usize>(keyEnd - 1)))) keyEnd--;
  if (keyEnd == start) return yieldLine(number, -1, -1, -1, -1, flags | LINE_FLAG_EMPTY_KEY);
  while (valueStart < end && isWhitespace(load<u8>(base + <usize>valueStart))) valueStart++;
  const kind = keyKind(base, start, keyEnd, google);
  return yieldLine(number, start, keyEnd, valueStart, end, keyIsTypo ? flags | LINE_FLAG_TYPO : flags, kind);
}

/** Starts reading body[from, length) (from = after the BOM) line by line; line numbers start at 1, groups afresh. */
export function startLines(bodyPtr: usize, length: i32, from: i32, google: bool): void {
  cursorBody = bodyPtr;
  cursorLength = length;
  cursorGoogle = google;
  cursorAt = from;
  cursorLineStart = from;
  cursorHash = -1;
  cursorNul = -1;
  cursorColon = -1;
  cursorLines = 0;
  cursorDone = false;
  resetGroups();
}

/**
 * Reads on to the next line that yields (see the top of this section) and sets the line* fields; false once
 * the body is read. Line ends: LF, CR, CR LF; CR CR LF is two lines. 16 bytes a step between special bytes.
 */
export function nextLine(): bool {
  const body = cursorBody;
  const length = cursorLength;
  while (!cursorDone) {
    const i = nextSpecialByte(body, cursorAt, length);
    if (i >= length) {
      // the last line (it has no line end)
      cursorDone = true;
      if (readLine(body, ++cursorLines, cursorLineStart, length, cursorHash, cursorNul, cursorColon, cursorGoogle)) return true;
      break;
    }
    const c = <i32>load<u8>(body + <usize>i);
    cursorAt = i + 1;
    if (c == CHAR_LF || c == CHAR_CR) {
      const start = cursorLineStart;
      const hashAt = cursorHash;
      const nulAt = cursorNul;
      const colonAt = cursorColon;
      // CR LF is one line end; CR CR LF is two (the second CR ends an empty line and its LF belongs to it)
      if (c == CHAR_CR && i + 1 < length && load<u8>(body + <usize>(i + 1)) == CHAR_LF) cursorAt = i + 2;
      cursorLineStart = cursorAt;
      cursorHash = -1;
      cursorNul = -1;
      cursorColon = -1;
      if (readLine(body, ++cursorLines, start, i, hashAt, nulAt, colonAt, cursorGoogle)) return true;
    } else if (c == CHAR_COLON) {
      if (cursorColon < 0) cursorColon = i;
    } else if (c == CHAR_HASH) {
      if (cursorHash < 0) cursorHash = i;
    } else if (cursorNul < 0) {
      cursorNul = i; // NUL
    }
  }
  return false;
}

/**
 * Tokenizes body[from, length) (from = after the BOM) into line records at recordsPtr (at most one per line:
 * (lines + 1) x LINE_RECORD_SIZE bytes); a user-agent line's record also says where its product token ends
 * and whether it names every crawler. Returns the number of records.
 */
export function tokenizeLines(bodyPtr: usize, length: i32, from: i32, google: bool, recordsPtr: usize): i32 {
  let record = recordsPtr;
  startLines(bodyPtr, length, from, google);
  while (nextLine()) {
    let flags = lineFlags;
    let tokenEnd = lineValueStart;
    if (lineKind == KEY_USER_AGENT) {
      const value = bodyPtr + <usize>lineValueStart;
      const end = bodyPtr + <usize>lineValueEnd;
      tokenEnd = <i32>(productTokenEnd(value, end) - bodyPtr);
      if (isGlobalAgent(value, end)) flags |= LINE_FLAG_GLOBAL_AGENT;
    }
    store<i32>(record + LINE_NUMBER, lineNumber);
    store<i32>(record + LINE_KEY_START, lineKeyStart);
    store<i32>(record + LINE_KEY_END, lineKeyEnd);
    store<i32>(record + LINE_VALUE_START, lineValueStart);
    store<i32>(record + LINE_VALUE_END, lineValueEnd);
    store<i32>(record + LINE_FLAGS, flags);
    store<i32>(record + LINE_KEY_KIND, lineKind);
    store<i32>(record + LINE_GROUP, lineGroup);
    store<i32>(record + LINE_TOKEN_END, tokenEnd);
    record += LINE_RECORD_SIZE;
  }
  return <i32>((record - recordsPtr) / LINE_RECORD_SIZE);
}

/**
 * Offset of the first LF, CR, ':', '#' or NUL in body[i, length), or length: 16 bytes a step (the memory
 * after the body is readable: the host reserves room after it; bytes past length are ignored).
 */
@inline function nextSpecialByte(bodyPtr: usize, i: i32, length: i32): i32 {
  while (i < length) {
    const chunk = v128.load(bodyPtr + <usize>i);
    const hits = v128.or(
      v128.or(i8x16.eq(chunk, i8x16.splat(<i8>CHAR_LF)), i8x16.eq(chunk, i8x16.splat(<i8>CHAR_CR))),
      v128.or(v128.or(i8x16.eq(chunk, i8x16.splat(<i8>CHAR_COLON)), i8x16.eq(chunk, i8x16.splat(<i8>CHAR_HASH))), i8x16.eq(chunk, i8x16.splat(0))),
    );
    const mask = i8x16.bitmask(hits);
    if (mask != 0) return min(i + <i32>ctz(mask), length);
    i += 16;
  }
  return length;
}
