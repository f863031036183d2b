// The command line's output formats, written once for every path (one robots.txt or many hosts, plain URL
// lines or URLs taken from access logs, one thread or several):
//   text:  `allowed<TAB><url>` / `disallowed<TAB><url>`, or only the URLs of one verdict (--only);
//   jsonl: {"input":N,"url":"...","verdict":"allowed","rule":{"kind":"allow","line":N,"pattern":"..."}|null}
// URLs are written exactly: in jsonl a URL that is valid UTF-8 is a JSON string of its text; one that is not
// gets "urlEncoding":"latin1" and each of its bytes is one character (U+0000 to U+00FF).
import {
  JSONL_RESULT_LINES, JSONL_RESULT_INPUT_END,
  CHAR_LF, CHAR_CR, CHAR_TAB, VERDICT_ALLOWED, VERDICT_DISALLOWED, OUTPUT_ALL, OUTPUT_ONLY_ALLOWED,
  RULE_KIND, RULE_KIND_ALLOW, RULE_LINE, RULE_PATTERN_OFFSET, RULE_PATTERN_LENGTH, RULE_DERIVED, RULE_SIZE, RULE_REF_RECORD, RULE_REF_PATTERNS, RULE_REF_SIZE,
  RULE_REF_VALUE, RULE_REF_VALUE_LINE, RULE_REF_VALUE_LENGTH, RULE_REF_VALUE_KIND, RULE_REF_VALUE_DERIVED,
  RULE_INPUT_VALUE_PTR, RULE_INPUT_VALUE_LEN, RULE_INPUT_SIZE,
} from "../src/core/constants";
import { findLf, urlEndOfLine } from "./bulk";
import { normalizeRuleValue } from "./compile";

// Verdict prefixes of the text output, stored as little-endian words.
const ALLOWED_WORD: u64 = 0x096465776f6c6c61; // "allowed\t"
const DISALLOW_WORD: u64 = 0x776f6c6c61736964; // "disallow"
const ED_SHORT: u16 = 0x6465; // "ed"
const UNKNOWN_WORD: u64 = 0x096e776f6e6b6e75; // "unknown\t"

/** Copies length bytes 8 at a time; may read and write up to 7 bytes past the end (the host leaves slack). */
@inline function copyWords(destination: usize, source: usize, length: usize): void {
  for (let i: usize = 0; i < length; i += 8) store<u64>(destination + i, load<u64>(source + i));
}

/** True when a line with this verdict is written under the filter (OUTPUT_*). */
@inline export function passesFilter(verdict: u32, filter: i32): bool {
  return filter == OUTPUT_ALL || (filter == OUTPUT_ONLY_ALLOWED ? verdict == VERDICT_ALLOWED : verdict == VERDICT_DISALLOWED);
}

/**
 * Text: writes one output line for the line [lineStart, lineStop) (lineStop = its LF or the end) at out;
 * returns the new output end. At most (lineStop - lineStart) + 12 bytes, plus 8 bytes of copy slack.
 */
@inline export function formatLine(out: usize, lineStart: usize, lineStop: usize, verdict: u32, filter: i32): usize {
  if (!passesFilter(verdict, filter)) return out;
  const urlStop = urlEndOfLine(lineStart, lineStop);
  if (filter == OUTPUT_ALL) out = writeWord(out, verdict);

  const length = urlStop - lineStart;
  copyWords(out, lineStart, length);
  out += length;
  store<u8>(out, CHAR_LF);
  return out + 1;
}

/** Writes `allowed<TAB>` (VERDICT_ALLOWED), `disallowed<TAB>` (VERDICT_DISALLOWED) or `unknown<TAB>` (0) at out; returns the new end. */
@inline function writeWord(out: usize, word: u32): usize {
  if (word == VERDICT_ALLOWED) {
    store<u64>(out, ALLOWED_WORD);
    return out + 8;
  }
  if (word == VERDICT_DISALLOWED) {
    store<u64>(out, DISALLOW_WORD);
    store<u16>(out + 8, ED_SHORT);
    store<u8>(out + 10, CHAR_TAB);
    return out + 11;
  }
  store<u64>(out, UNKNOWN_WORD);
  return out + 8;
}

/**
 * Text for lineCount LF-separated lines from inputPtr (an LF sentinel after them), verdicts in input
 * order; returns the output length (at most input length + 12 x lines, plus 8 bytes of slack). With a
 * column (columnPtr not 0: a byte per line, 0 unknown, 1 allowed, 2 disallowed; check --usage), each line
 * is `<verdict><TAB><column word><TAB><url>` (at most input length + 23 x lines, plus the slack).
 */
export function formatTextLines(inputPtr: usize, lineCount: u32, verdictsPtr: usize, outputPtr: usize, filter: i32, columnPtr: usize): usize {
  let p = inputPtr;
  let out = outputPtr;
  for (let i: u32 = 0; i < lineCount; i++) {
    const stop = findLf(p);
    const verdict = <u32>load<u8>(verdictsPtr + <usize>i);
    if (columnPtr == 0) {
      out = formatLine(out, p, stop, verdict, filter);
    } else if (passesFilter(verdict, filter)) {
      if (filter == OUTPUT_ALL) out = writeWord(out, verdict);
      out = writeWord(out, <u32>load<u8>(columnPtr + <usize>i));
      const length = urlEndOfLine(p, stop) - p;
      copyWords(out, p, length);
      out += length;
      store<u8>(out, CHAR_LF);
      out++;
    }
    p = stop + 1;
  }
  return out - outputPtr;
}

/**
 * An upper bound of the robots.txt lines in [p, p + length): LF and CR bytes, plus one (lines end at LF, CR
 * or CR LF; a CR LF counts twice). 16 bytes a step (reads up to 15 bytes past the end). Sizes the tokenizer's records.
 */
export function countLineEndBytes(p: usize, length: usize): u32 {
  const end = p + length;
  let count: u32 = 1;
  while (p < end) {
    const chunk = v128.load(p);
    let mask = i8x16.bitmask(v128.or(i8x16.eq(chunk, i8x16.splat(<i8>CHAR_LF)), i8x16.eq(chunk, i8x16.splat(<i8>CHAR_CR))));
    const left = end - p;
    if (left < 16) mask &= (1 << <i32>left) - 1;
    count += <u32>popcnt(mask);
    p += 16;
  }
  return count;
}

/** LF-separated lines in [p, p + length) (a final line without LF counts), 16 bytes a step (may read 15 past the end). */
export function countLines(p: usize, length: usize): u32 {
  const end = p + length;
  let count: u32 = 0;
  while (p < end) {
    let mask = i8x16.bitmask(i8x16.eq(v128.load(p), i8x16.splat(<i8>CHAR_LF)));
    const left = end - p;
    if (left < 16) mask &= (1 << <i32>left) - 1;
    count += <u32>popcnt(mask);
    p += 16;
  }
  if (length > 0 && load<u8>(end - 1) != CHAR_LF) count++;
  return count;
}

// ---- jsonl ----

// The jsonl output's constant pieces, as bytes in a static area filled once when the module starts (the
// core never uses its runtime's allocator: memory past the statics belongs to the host).
const constantArea = memory.data(512);
let constantEnd: usize = constantArea;
/** Places an ASCII string in the constant area; returns its address (high 32 bits) and length (low 32). */
function constant(text: string): u64 {
  const at = constantEnd;
  for (let i = 0; i < text.length; i++) store<u8>(at + <usize>i, <u8>text.charCodeAt(i));
  constantEnd += <usize>text.length;
  return (<u64>at << 32) | <u64>text.length;
}
const INPUT_OPEN = constant("{\"input\":");
const URL_OPEN = constant(",\"url\":\"");
const URL_CLOSE = constant("\"");
const URL_CLOSE_LATIN1 = constant("\",\"urlEncoding\":\"latin1\"");
const ALLOWED_RULE = constant(",\"verdict\":\"allowed\",\"rule\":");
const DISALLOWED_RULE = constant(",\"verdict\":\"disallowed\",\"rule\":");
const NO_RULE_TEXT = constant("null");
const ALLOW_LINE = constant("{\"kind\":\"allow\",\"line\":");
const DISALLOW_LINE = constant("{\"kind\":\"disallow\",\"line\":");
const PATTERN_OPEN = constant(",\"pattern\":\"");
const PATTERN_CLOSE = constant("\"}");
const INDEX_HTML_CLOSE = constant("\",\"indexHtmRule\":true}");
const OBJECT_CLOSE = constant("}\n");
const UNICODE_ESCAPE = constant("\\u00");

/** Writes a constant placed by constant(); returns the new end. */
@inline function writeConstant(out: usize, placed: u64): usize {
  const length = <usize>(placed & 0xffffffff);
  memory.copy(out, <usize>(placed >> 32), length);
  return out + length;
}

/** Writes value in decimal; returns the new end. */
function writeDecimal(out: usize, value: u32): usize {
  let digits: usize = 1;
  for (let rest = value / 10; rest != 0; rest /= 10) digits++;
  let p = out + digits;
  do {
    p--;
    store<u8>(p, <u8>(0x30 + value % 10));
    value /= 10;
  } while (value != 0);
  return out + digits;
}

@inline function isContinuation(c: u32): bool {
  return (c & 0xc0) == 0x80;
}

/** Length of the valid UTF-8 sequence at p (p < end), or 0 when the bytes there are not one (WHATWG rules). */
function utf8SequenceLength(p: usize, end: usize): usize {
  const c = <u32>load<u8>(p);
  if (c < 0x80) return 1;
  if (c >= 0xc2 && c <= 0xdf) return p + 1 < end && isContinuation(load<u8>(p + 1)) ? 2 : 0;
  if (c >= 0xe0 && c <= 0xef) {
    if (p + 2 >= end) return 0;
    const c1 = <u32>load<u8>(p + 1);
    const low: u32 = c == 0xe0 ? 0xa0 : 0x80;
    const high: u32 = c == 0xed ? 0x9f : 0xbf;
    return c1 >= low && c1 <= high && isContinuation(load<u8>(p + 2)) ? 3 : 0;
  }
  if (c >= 0xf0 && c <= 0xf4) {
    if (p + 3 >= end) return 0;
    const c1 = <u32>load<u8>(p + 1);
    const low: u32 = c == 0xf0 ? 0x90 : 0x80;
    const high: u32 = c == 0xf4 ? 0x8f : 0xbf;
    return c1 >= low && c1 <= high && isContinuation(load<u8>(p + 2)) && isContinuation(load<u8>(p + 3)) ? 4 : 0;
  }
  return 0;
}

/** True when [p, end) is valid UTF-8 (16 bytes a step while they are ASCII). */
export function isUtf8(p: usize, end: usize): bool {
  while (p + 16 <= end && i8x16.bitmask(v128.load(p)) == 0) p += 16;
  while (p < end) {
    if (load<u8>(p) < 0x80) { p++; continue; }
    const length = utf8SequenceLength(p, end);
    if (length == 0) return false;
    p += length;
  }
  return true;
}

const HEX_DIGITS = "0123456789abcdef";

/**
 * The JSON string body of [p, end) (no quotes), as JSON.stringify writes it: '"' and '\' escaped, control
 * bytes as \b \t \n \f \r or \u00xx. utf8: bytes >= 0x80 are copied (valid UTF-8); else each such byte is the
 * character U+0080..U+00FF, written in UTF-8 (2 bytes). At most 6 bytes per input byte.
 */
function writeJsonStringBody(out: usize, p: usize, end: usize, utf8: bool): usize {
  const hex = changetype<usize>(HEX_DIGITS);
  while (p < end) {
    // 16 bytes at a time while none needs escaping (and, for latin1, none is >= 0x80); the output has room
    if (p + 16 <= end) {
      const chunk = v128.load(p);
      let special = v128.or(v128.or(i8x16.lt_u(chunk, i8x16.splat(0x20)), i8x16.eq(chunk, i8x16.splat(0x22))), i8x16.eq(chunk, i8x16.splat(0x5c)));
      if (!utf8) special = v128.or(special, i8x16.lt_s(chunk, i8x16.splat(0)));
      const mask = i8x16.bitmask(special);
      if (mask == 0) {
        v128.store(out, chunk);
        out += 16;
        p += 16;
        continue;
      }
      const plain = <usize>ctz(mask);
      if (plain > 0) {
        v128.store(out, chunk); // the bytes past `plain` are overwritten below
        out += plain;
        p += plain;
      }
    }
    const c = <u32>load<u8>(p++);
    if (c >= 0x20 && c != 0x22 && c != 0x5c && c < 0x80) {
      store<u8>(out++, <u8>c);
    } else if (c >= 0x80) {
      if (utf8) {
        store<u8>(out++, <u8>c);
      } else {
        store<u8>(out, <u8>(0xc0 | (c >> 6)));
        store<u8>(out + 1, <u8>(0x80 | (c & 0x3f)));
        out += 2;
      }
    } else if (c == 0x22 || c == 0x5c) {
      store<u8>(out, 0x5c);
      store<u8>(out + 1, <u8>c);
      out += 2;
    } else if (c == 0x08 || c == 0x09 || c == 0x0a || c == 0x0c || c == 0x0d) {
      store<u8>(out, 0x5c);
      store<u8>(out + 1, <u8>(c == 0x08 ? 0x62 : c == 0x09 ? 0x74 : c == 0x0a ? 0x6e : c == 0x0c ? 0x66 : 0x72)); // b t n f r
      out += 2;
    } else {
      out = writeConstant(out, UNICODE_ESCAPE);
      store<u8>(out, <u8>load<u16>(hex + ((<usize>c >> 4) << 1)));
      store<u8>(out + 1, <u8>load<u16>(hex + ((<usize>c & 15) << 1)));
      out += 2;
    }
  }
  return out;
}

/** Bytes one jsonl line may take at most, besides 6 per URL byte and 6 per pattern byte. */
const JSONL_LINE_OVERHEAD: usize = 160;

/** A rule input record for the raw value being normalised (normalizeRuleValue reads one). */
const rawValueInput = memory.data(RULE_INPUT_SIZE);

/**
 * jsonl for lineCount LF-separated lines from inputPtr (an LF sentinel after them), with their verdicts and
 * rule references (RULE_REF_SIZE each) in input order. Input numbers: numbersPtr[i] (u32), or firstNumber + i
 * when numbersPtr is 0. Writes into [outputPtr, outputEnd) and stops before a line that might not fit:
 * lastJsonlLines and lastJsonlInputEnd say how far it got. A rule named by its raw value (a direct answer)
 * is normalised at scratchPtr (JSONL_SCRATCH_BYTES) and printed as the compiled matcher prints its pattern.
 * Returns the output length.
 */
export function formatJsonlLines(inputPtr: usize, lineCount: u32, verdictsPtr: usize, rulesPtr: usize, numbersPtr: usize, firstNumber: u32, outputPtr: usize, outputEnd: usize, filter: i32, scratchPtr: usize, resultPtr: usize): usize {
  let p = inputPtr;
  let out = outputPtr;
  let i: u32 = 0;
  for (; i < lineCount; i++) {
    const stop = findLf(p);
    const verdict = <u32>load<u8>(verdictsPtr + <usize>i);
    if (!passesFilter(verdict, filter)) {
      p = stop + 1;
      continue;
    }
    const urlStop = urlEndOfLine(p, stop);
    const ref = rulesPtr + <usize>i * RULE_REF_SIZE;
    let rule = <usize>load<u32>(ref + RULE_REF_RECORD);
    const rawValue = rule == 0 ? <usize>load<u32>(ref + RULE_REF_VALUE) : 0;
    const named = rule != 0 || rawValue != 0;
    // GoogleOnly: an allow rule made by the index.htm rule (`<dir>/$`) is shown as the line's own pattern
    // (its source rule, the record just before it), flagged "indexHtmRule": the line named says what it says
    let derived = false;
    let kind: i32 = 0;
    let ruleLine: u32 = 0;
    let pattern: usize = 0;
    let patternLength: usize = 0;
    if (rule != 0) {
      derived = load<u16>(rule + RULE_DERIVED) == 1;
      if (derived) rule -= RULE_SIZE;
      kind = <i32>load<u16>(rule + RULE_KIND);
      ruleLine = load<u32>(rule + RULE_LINE);
      pattern = <usize>load<u32>(ref + RULE_REF_PATTERNS) + <usize>load<u32>(rule + RULE_PATTERN_OFFSET);
      patternLength = <usize>load<u32>(rule + RULE_PATTERN_LENGTH);
    } else if (rawValue != 0) {
      derived = load<u8>(ref + RULE_REF_VALUE_DERIVED) == 1;
      kind = <i32>load<u8>(ref + RULE_REF_VALUE_KIND);
      ruleLine = load<u32>(ref + RULE_REF_VALUE_LINE);
      store<u32>(rawValueInput + RULE_INPUT_VALUE_PTR, <u32>rawValue);
      store<u32>(rawValueInput + RULE_INPUT_VALUE_LEN, <u32>load<u16>(ref + RULE_REF_VALUE_LENGTH));
      pattern = scratchPtr;
      patternLength = normalizeRuleValue(rawValueInput, false, pattern);
    }
    if (out + JSONL_LINE_OVERHEAD + 6 * (urlStop - p) + 6 * patternLength > outputEnd) break;
    out = writeConstant(out, INPUT_OPEN);
    out = writeDecimal(out, numbersPtr != 0 ? load<u32>(numbersPtr + <usize>i * 4) : firstNumber + i);
    out = writeConstant(out, URL_OPEN);
    const utf8 = isUtf8(p, urlStop);
    out = writeJsonStringBody(out, p, urlStop, utf8);
    out = utf8 ? writeConstant(out, URL_CLOSE) : writeConstant(out, URL_CLOSE_LATIN1);
    out = verdict == VERDICT_ALLOWED ? writeConstant(out, ALLOWED_RULE) : writeConstant(out, DISALLOWED_RULE);
    if (!named) {
      out = writeConstant(out, NO_RULE_TEXT);
    } else {
      out = kind == RULE_KIND_ALLOW ? writeConstant(out, ALLOW_LINE) : writeConstant(out, DISALLOW_LINE);
      out = writeDecimal(out, ruleLine);
      out = writeConstant(out, PATTERN_OPEN);
      out = writeJsonStringBody(out, pattern, pattern + patternLength, isUtf8(pattern, pattern + patternLength));
      out = writeConstant(out, derived ? INDEX_HTML_CLOSE : PATTERN_CLOSE);
    }
    out = writeConstant(out, OBJECT_CLOSE);
    p = stop + 1;
  }
  store<u32>(resultPtr + JSONL_RESULT_LINES, i);
  store<u32>(resultPtr + JSONL_RESULT_INPUT_END, <u32>p);
  return out - outputPtr;
}
