// robots.txt bytes -> line records: the per-byte part of the parser (src/parse/parser.ts does the rest).
// One pass: line ends (LF, CR, CR LF), the first '#', NUL and ':' of each line, then per line the
// whitespace strip and the key/value split, exactly as REFERENCE-BEHAVIOUR.md sections 1 and 2 say.
import {
  CHAR_LF, CHAR_CR, CHAR_HASH, CHAR_NUL, CHAR_COLON, CHAR_SPACE, CHAR_TAB, CHAR_VT, CHAR_FF, MAX_LINE_BYTES,
  LINE_NUMBER, LINE_KEY_START, LINE_KEY_END, LINE_VALUE_START, LINE_VALUE_END, LINE_FLAGS, LINE_RECORD_SIZE,
  LINE_FLAG_TRUNCATED, LINE_FLAG_NUL, LINE_FLAG_MISSING_COLON, LINE_FLAG_NO_SEPARATOR, LINE_FLAG_EMPTY_KEY,
} from "../src/constants";

@inline function isWhitespace(c: i32): bool {
  return c == CHAR_SPACE || c == CHAR_TAB || c == CHAR_LF || c == CHAR_VT || c == CHAR_FF || c == CHAR_CR;
}

@inline function isBlank(c: i32): bool {
  return c == CHAR_SPACE || c == CHAR_TAB;
}

let recordsEnd: usize = 0;

@inline function emit(lineNumber: i32, keyStart: i32, keyEnd: i32, valueStart: i32, valueEnd: i32, flags: i32): void {
  store<i32>(recordsEnd + LINE_NUMBER, lineNumber);
  store<i32>(recordsEnd + LINE_KEY_START, keyStart);
  store<i32>(recordsEnd + LINE_KEY_END, keyEnd);
  store<i32>(recordsEnd + LINE_VALUE_START, valueStart);
  store<i32>(recordsEnd + LINE_VALUE_END, valueEnd);
  store<i32>(recordsEnd + LINE_FLAGS, flags);
  recordsEnd += LINE_RECORD_SIZE;
}

/** One line [start, end) with its first '#', NUL and ':' (-1 when absent); offsets relative to base. */
function tokenizeLine(base: usize, lineNumber: i32, start: i32, end: i32, hashAt: i32, nulAt: i32, colonAt: i32, google: bool): void {
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
    if (flags != 0) emit(lineNumber, -1, -1, -1, -1, flags);
    return;
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
    if (keyEnd < 0) {
      emit(lineNumber, -1, -1, -1, -1, flags | LINE_FLAG_NO_SEPARATOR);
      return;
    }
    valueStart = keyEnd;
    while (isBlank(load<u8>(base + <usize>valueStart))) valueStart++;
    for (let i = valueStart; i < end; i++) {
      if (isBlank(load<u8>(base + <usize>i))) {
        emit(lineNumber, -1, -1, -1, -1, flags | LINE_FLAG_NO_SEPARATOR);
        return;
      }
    }
    flags |= LINE_FLAG_MISSING_COLON;
  }
  while (keyEnd > start && isWhitespace(load<u8>(base + <usize>(keyEnd - 1)))) keyEnd--;
  if (keyEnd == start) {
    emit(lineNumber, -1, -1, -1, -1, flags | LINE_FLAG_EMPTY_KEY);
    return;
  }
  while (valueStart < end && isWhitespace(load<u8>(base + <usize>valueStart))) valueStart++;
  emit(lineNumber, start, keyEnd, valueStart, end, flags);
}

/**
 * Tokenizes body[from, length) (from = after the BOM) into line records at recordsPtr (at most one per line:
 * (lines + 1) x LINE_RECORD_SIZE bytes). Line numbers start at 1. Returns the number of records.
 */
export function tokenizeLines(bodyPtr: usize, length: i32, from: i32, google: bool, recordsPtr: usize): i32 {
  recordsEnd = recordsPtr;
  let lineNumber = 0;
  let lineStart = from;
  let hashAt = -1;
  let nulAt = -1;
  let colonAt = -1;
  for (let i = from; i < length; i++) {
    const c = <i32>load<u8>(bodyPtr + <usize>i);
    if (c > CHAR_COLON) continue;
    if (c == CHAR_LF || c == CHAR_CR) {
      tokenizeLine(bodyPtr, ++lineNumber, lineStart, i, hashAt, nulAt, colonAt, google);
      // CR LF is one line end; CR CR LF is two (the second CR ends an empty line and its LF belongs to it)
      if (c == CHAR_CR && i + 1 < length && load<u8>(bodyPtr + <usize>(i + 1)) == CHAR_LF) i++;
      lineStart = i + 1;
      hashAt = -1;
      nulAt = -1;
      colonAt = -1;
    } else if (c == CHAR_COLON) {
      if (colonAt < 0) colonAt = i;
    } else if (c == CHAR_HASH) {
      if (hashAt < 0) hashAt = i;
    } else if (c == CHAR_NUL) {
      if (nulAt < 0) nulAt = i;
    }
  }
  tokenizeLine(bodyPtr, ++lineNumber, lineStart, length, hashAt, nulAt, colonAt, google);
  return <i32>((recordsEnd - recordsPtr) / LINE_RECORD_SIZE);
}
