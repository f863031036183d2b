// Access log lines (Apache and nginx: common, combined, vhost_combined), read in one left-to-right pass
// per line, without backtracking: the cost of a line is linear in its length, whatever it holds.
//
//   [vhost[:port] ]client ident user [time] "request" status bytes[ "referer" "user agent"][ extra fields]
//
// The request is `method target[ protocol]` (escapes as the server wrote them; a backslash quotes the next
// byte); the target is the URL asked for. After the User-Agent, anything that starts with whitespace is
// allowed (nginx's $request_time, $http_x_forwarded_for, ...). The one place that reads this format, and the
// one place of the rules that turn a request into the URL line whose robots.txt answers it: escapes undone,
// and `http://<host>` in front of a target that names no scheme (the line's host, else the default host).
// Every reader of logs uses it: readLogChunk for a chunk of lines (records and URL lines), urlLinesOfTargets
// for requests the host read from other formats, unescapeLogField for a field the host shows.
import {
  LOG_RESULT_LINES, LOG_RESULT_OTHER, LOG_RESULT_URL_BYTES, LOG_RESULT_FIRST_RELATIVE,
  LOG_LINE_URL_START, LOG_LINE_URL_END, LOG_LINE_URL_TARGET, LOG_LINE_URL_HOST,
  URL_HOST_SCHEME, URL_HOST_LINE, URL_HOST_DEFAULT, URL_HOST_NONE,
  TARGET_ENTRY_TARGET, TARGET_ENTRY_TARGET_LENGTH, TARGET_ENTRY_HOST, TARGET_ENTRY_HOST_LENGTH, TARGET_ENTRY_URL_END, TARGET_ENTRY_URL_HOST, TARGET_ENTRY_SIZE,
  CHAR_SPACE, CHAR_TAB, CHAR_LF, CHAR_CR, CHAR_0, CHAR_9, CHAR_COLON, CHAR_SLASH, CHAR_HYPHEN,
  LOG_VHOST_START, LOG_VHOST_END, LOG_CLIENT_START, LOG_CLIENT_END, LOG_TIME_START, LOG_TIME_END,
  LOG_METHOD_START, LOG_METHOD_END, LOG_TARGET_START, LOG_TARGET_END, LOG_STATUS, LOG_REFERER_START,
  LOG_REFERER_END, LOG_AGENT_START, LOG_AGENT_END, LOG_LINE_START, LOG_LINE_END, LOG_LINE_PARSED, LOG_LINE_RECORD_SIZE,
} from "../src/core/constants";
import { findLf, urlEndOfLine } from "./bulk";

const CHAR_QUOTE: i32 = 0x22;
const CHAR_BACKSLASH: i32 = 0x5c;
const CHAR_OPEN_BRACKET: i32 = 0x5b;
const CHAR_CLOSE_BRACKET: i32 = 0x5d;

@inline function isDigit(c: i32): bool {
  return c >= CHAR_0 && c <= CHAR_9;
}

@inline function isBlank(c: i32): bool {
  return c == CHAR_SPACE || c == CHAR_TAB;
}

/**
 * The first byte at or after q, before end, equal to a or b; end when there is none. 16 bytes a step (the
 * bytes after a line are readable: the next lines, the LF sentinel and the host's slack).
 */
@inline function findEither(q: usize, end: usize, a: i32, b: i32): usize {
  while (q < end) {
    const chunk = v128.load(q);
    const mask = i8x16.bitmask(v128.or(i8x16.eq(chunk, i8x16.splat(<i8>a)), i8x16.eq(chunk, i8x16.splat(<i8>b))));
    if (mask != 0) return min(q + <usize>ctz(mask), end);
    q += 16;
  }
  return end;
}

/** End of the quoted field whose opening quote is at q (the address of its closing quote), or 0. */
function closingQuote(q: usize, end: usize): usize {
  q++;
  while (true) {
    q = findEither(q, end, CHAR_QUOTE, CHAR_BACKSLASH);
    if (q >= end) return 0;
    if (<i32>load<u8>(q) == CHAR_QUOTE) return q;
    q += 2; // a backslash quotes the byte after it
  }
}

/** Starts and ends of the fields before the time (offsets from the line start). */
const fieldStarts = memory.data(16);
const fieldEnds = memory.data(16);

/** Parses the line [p, end) into record (LOG_* fields, offsets from p); false when it is not an access log line with a request target. */
export function parseLogLineAt(p: usize, end: usize, record: usize): bool {
  // up to four space-separated fields before the '[' of the time: [vhost] client ident user
  const starts = fieldStarts;
  const ends = fieldEnds;
  let fields = 0;
  let q = p;
  while (true) {
    if (q >= end) return false;
    if (<i32>load<u8>(q) == CHAR_OPEN_BRACKET) break;
    if (fields == 4) return false;
    const start = q;
    q = findEither(q, end, CHAR_SPACE, CHAR_SPACE);
    if (q == start || q >= end) return false;
    store<u32>(starts + (<usize>fields << 2), <u32>(start - p));
    store<u32>(ends + (<usize>fields << 2), <u32>(q - p));
    fields++;
    q++; // one space
  }
  if (fields < 3) return false;
  const vhost = fields == 4;
  if (vhost) {
    // a ":port" suffix is not part of the host
    let hostEnd = p + <usize>load<u32>(ends);
    let digits = hostEnd;
    while (digits > p && isDigit(<i32>load<u8>(digits - 1))) digits--;
    if (digits < hostEnd && digits > p && <i32>load<u8>(digits - 1) == CHAR_COLON) hostEnd = digits - 1;
    store<i32>(record + LOG_VHOST_START, <i32>load<u32>(starts));
    store<i32>(record + LOG_VHOST_END, <i32>(hostEnd - p));
  } else {
    store<i32>(record + LOG_VHOST_START, -1);
    store<i32>(record + LOG_VHOST_END, -1);
  }
  const client: usize = vhost ? 4 : 0;
  store<i32>(record + LOG_CLIENT_START, <i32>load<u32>(starts + client));
  store<i32>(record + LOG_CLIENT_END, <i32>load<u32>(ends + client));
  // [time]
  const timeStart = q + 1;
  q = findEither(timeStart, end, CHAR_CLOSE_BRACKET, CHAR_CLOSE_BRACKET);
  if (q >= end || q == timeStart) return false;
  store<i32>(record + LOG_TIME_START, <i32>(timeStart - p));
  store<i32>(record + LOG_TIME_END, <i32>(q - p));
  q++;
  // "request": method SP target [SP protocol]
  if (q + 1 >= end || <i32>load<u8>(q) != CHAR_SPACE || <i32>load<u8>(q + 1) != CHAR_QUOTE) return false;
  const requestQuote = q + 1;
  const requestEnd = closingQuote(requestQuote, end);
  if (requestEnd == 0) return false;
  let spaces = 0;
  let firstSpace: usize = 0;
  let secondSpace: usize = requestEnd;
  for (let r = findEither(requestQuote + 1, requestEnd, CHAR_SPACE, CHAR_BACKSLASH); r < requestEnd; r = findEither(r + 1, requestEnd, CHAR_SPACE, CHAR_BACKSLASH)) {
    if (<i32>load<u8>(r) == CHAR_BACKSLASH) { r++; continue; }
    spaces++;
    if (spaces == 1) firstSpace = r;
    else if (spaces == 2) secondSpace = r;
  }
  if (spaces < 1 || spaces > 2 || secondSpace == firstSpace + 1) return false;
  store<i32>(record + LOG_METHOD_START, <i32>(requestQuote + 1 - p));
  store<i32>(record + LOG_METHOD_END, <i32>(firstSpace - p));
  store<i32>(record + LOG_TARGET_START, <i32>(firstSpace + 1 - p));
  store<i32>(record + LOG_TARGET_END, <i32>(secondSpace - p));
  // status (3 digits or '-') and bytes (digits or '-')
  q = requestEnd + 1;
  if (q >= end || <i32>load<u8>(q) != CHAR_SPACE) return false;
  q++;
  if (q + 3 <= end && isDigit(<i32>load<u8>(q)) && isDigit(<i32>load<u8>(q + 1)) && isDigit(<i32>load<u8>(q + 2))) {
    store<i32>(record + LOG_STATUS, (<i32>load<u8>(q) - CHAR_0) * 100 + (<i32>load<u8>(q + 1) - CHAR_0) * 10 + (<i32>load<u8>(q + 2) - CHAR_0));
    q += 3;
  } else if (q < end && <i32>load<u8>(q) == CHAR_HYPHEN) {
    store<i32>(record + LOG_STATUS, -1);
    q++;
  } else {
    return false;
  }
  if (q >= end || <i32>load<u8>(q) != CHAR_SPACE) return false;
  q++;
  if (q < end && <i32>load<u8>(q) == CHAR_HYPHEN) {
    q++;
  } else {
    const digits = q;
    while (q < end && isDigit(<i32>load<u8>(q))) q++;
    if (q == digits) return false;
  }
  store<i32>(record + LOG_REFERER_START, -1);
  store<i32>(record + LOG_REFERER_END, -1);
  store<i32>(record + LOG_AGENT_START, -1);
  store<i32>(record + LOG_AGENT_END, -1);
  // common format: only blanks may follow; combined: "referer" "user agent", then anything after a blank
  let rest = q;
  while (rest < end && isBlank(<i32>load<u8>(rest))) rest++;
  if (rest == end) return true;
  if (q + 1 >= end || <i32>load<u8>(q) != CHAR_SPACE || <i32>load<u8>(q + 1) != CHAR_QUOTE) return false;
  const refererEnd = closingQuote(q + 1, end);
  if (refererEnd == 0 || refererEnd + 2 >= end || <i32>load<u8>(refererEnd + 1) != CHAR_SPACE || <i32>load<u8>(refererEnd + 2) != CHAR_QUOTE) return false;
  const agentEnd = closingQuote(refererEnd + 2, end);
  if (agentEnd == 0 || (agentEnd + 1 < end && !isBlank(<i32>load<u8>(agentEnd + 1)))) return false;
  store<i32>(record + LOG_REFERER_START, <i32>(q + 2 - p));
  store<i32>(record + LOG_REFERER_END, <i32>(refererEnd - p));
  store<i32>(record + LOG_AGENT_START, <i32>(refererEnd + 3 - p));
  store<i32>(record + LOG_AGENT_END, <i32>(agentEnd - p));
  return true;
}

/** Copies [from, to) with the log's escapes undone (a backslash quotes the next byte); returns the new end. */
function copyUnescaped(out: usize, from: usize, to: usize): usize {
  while (from < to) {
    let c = load<u8>(from++);
    if (<i32>c == CHAR_BACKSLASH && from < to) c = load<u8>(from++);
    store<u8>(out++, c);
  }
  return out;
}

/** Copies [from, to) without CR and LF bytes (a target read from JSON may hold them; a URL line cannot); returns the new end. */
function copyWithoutLineBreaks(out: usize, from: usize, to: usize): usize {
  while (from < to) {
    const c = load<u8>(from++);
    if (<i32>c != CHAR_LF && <i32>c != CHAR_CR) store<u8>(out++, c);
  }
  return out;
}

/** A field with the log's escapes undone, at dstPtr (at most srcLen bytes); returns its length. For the fields the host shows (method, referer, User-Agent). */
export function unescapeLogField(srcPtr: usize, srcLen: usize, dstPtr: usize): usize {
  return copyUnescaped(dstPtr, srcPtr, srcPtr + srcLen) - dstPtr;
}

/** Whether [p, end) starts with `<scheme>://` (a letter, then letters, digits, + . -). */
function hasScheme(p: usize, end: usize): bool {
  let q = p;
  if (q >= end) return false;
  const first = <i32>load<u8>(q) | 0x20;
  if (first < 0x61 || first > 0x7a) return false;
  q++;
  while (q < end) {
    const c = <i32>load<u8>(q);
    const lower = c | 0x20;
    if ((lower >= 0x61 && lower <= 0x7a) || isDigit(c) || c == 0x2b || c == 0x2e || c == CHAR_HYPHEN) { q++; continue; }
    break;
  }
  return q + 2 < end && <i32>load<u8>(q) == CHAR_COLON && <i32>load<u8>(q + 1) == CHAR_SLASH && <i32>load<u8>(q + 2) == CHAR_SLASH;
}

const HTTP_PREFIX = "http://";

/** Where the last writeUrlLine put the target in the URL line, and whose host the line names (URL_HOST_*). */
let urlTargetAt: usize = 0;
let urlHost: u32 = URL_HOST_NONE;

/**
 * The URL line of a request at out (without its LF): the target (escapes undone when unescape) and, when
 * withHost and it names no scheme, `http://<host>` in front, with a '/' between when the target does not
 * start with one: the line's host [lineHost, lineHostEnd) when it has one, else the default host. Returns
 * the line's end; sets urlTargetAt and urlHost.
 */
@inline function writeUrlLine(out: usize, target: usize, targetEnd: usize, unescape: bool, withHost: bool, lineHost: usize, lineHostEnd: usize, defaultHost: usize, defaultHostEnd: usize): usize {
  urlHost = URL_HOST_NONE; // (also every line when no host is asked for: the target alone)
  if (!withHost) {
    // the target alone
  } else if (hasScheme(target, targetEnd)) {
    urlHost = URL_HOST_SCHEME;
  } else {
    let host = lineHost;
    let hostEnd = lineHostEnd;
    urlHost = URL_HOST_LINE;
    if (hostEnd <= host) {
      host = defaultHost;
      hostEnd = defaultHostEnd;
      urlHost = URL_HOST_DEFAULT;
    }
    if (hostEnd > host) {
      for (let i = 0; i < HTTP_PREFIX.length; i++) store<u8>(out + <usize>i, <u8>HTTP_PREFIX.charCodeAt(i));
      out += <usize>HTTP_PREFIX.length;
      memory.copy(out, host, hostEnd - host);
      out += hostEnd - host;
      if (target == targetEnd || <i32>load<u8>(target) != CHAR_SLASH) store<u8>(out++, <u8>CHAR_SLASH);
    } else {
      urlHost = URL_HOST_NONE;
    }
  }
  urlTargetAt = out;
  return unescape ? copyUnescaped(out, target, targetEnd) : copyWithoutLineBreaks(out, target, targetEnd);
}

/** Fields of one line when the host asks for no records. */
const scratchRecord = memory.data(LOG_LINE_RECORD_SIZE);

/**
 * Every line of a chunk (LF-separated, an LF sentinel after it; a CR before an LF is not part of the line)
 * read at once. For each Apache/nginx request line: its URL line (writeUrlLine: escapes undone, with the
 * line's host or the default host [defaultHostPtr, +defaultHostLen) in front of a relative target when
 * withHost), LF-ended, at urlsPtr, and its input line number (firstLineNumber + index) at numbersPtr. The
 * numbers of the first maxOther lines that are not such lines go to otherPtr (their format is the host's to
 * read: JSON, CloudFront, ALB, or none); an empty line is neither. With recordsPtr != 0, per line a LOG_LINE_RECORD_SIZE record there:
 * where the line is, whether it was read (LOG_LINE_PARSED), its LOG_* fields and where its URL line is
 * (LOG_LINE_URL_*). Writes the LOG_RESULT_* record at resultPtr. URL lines take at most
 * inputLen + (8 + defaultHostLen) x lines bytes. Returns the number of URL lines.
 */
export function readLogChunk(inputPtr: usize, inputLen: usize, firstLineNumber: u32, recordsPtr: usize, urlsPtr: usize, numbersPtr: usize, otherPtr: usize, maxOther: u32, withHost: bool, defaultHostPtr: usize, defaultHostLen: usize, resultPtr: usize): u32 {
  const end = inputPtr + inputLen;
  let p = inputPtr;
  let out = urlsPtr;
  let lines: u32 = 0;
  let urls: u32 = 0;
  let other: u32 = 0;
  let firstRelative: u32 = 0xffffffff;
  while (p < end) {
    const lineEnd = findLf(p);
    const stop = urlEndOfLine(p, lineEnd);
    const record = recordsPtr != 0 ? recordsPtr + <usize>lines * LOG_LINE_RECORD_SIZE : scratchRecord;
    const number = firstLineNumber + lines;
    lines++;
    const parsed = parseLogLineAt(p, stop, record);
    if (recordsPtr != 0) {
      store<i32>(record + LOG_LINE_START, <i32>(p - inputPtr));
      store<i32>(record + LOG_LINE_END, <i32>(stop - inputPtr));
      store<i32>(record + LOG_LINE_PARSED, parsed ? 1 : 0);
    }
    if (!parsed) {
      // an empty line (a CR alone included) is nothing: neither a URL line nor another format's line
      if (stop != p) {
        if (other < maxOther) store<u32>(otherPtr + <usize>other * 4, number);
        other++;
      }
      p = lineEnd + 1;
      continue;
    }
    const vhostStart = withHost ? load<i32>(record + LOG_VHOST_START) : -1;
    const lineHost = vhostStart >= 0 ? p + <usize>vhostStart : 0;
    const lineHostEnd = vhostStart >= 0 ? p + <usize>load<i32>(record + LOG_VHOST_END) : 0;
    const urlStart = out;
    out = writeUrlLine(out, p + <usize>load<i32>(record + LOG_TARGET_START), p + <usize>load<i32>(record + LOG_TARGET_END), true, withHost, lineHost, lineHostEnd, defaultHostPtr, defaultHostPtr + defaultHostLen);
    if (recordsPtr != 0) {
      store<u32>(record + LOG_LINE_URL_START, <u32>(urlStart - urlsPtr));
      store<u32>(record + LOG_LINE_URL_END, <u32>(out - urlsPtr));
      store<u32>(record + LOG_LINE_URL_TARGET, <u32>(urlTargetAt - urlsPtr));
      store<u32>(record + LOG_LINE_URL_HOST, urlHost);
    }
    if (urlHost == URL_HOST_NONE && firstRelative == 0xffffffff) firstRelative = urls;
    store<u8>(out++, <u8>CHAR_LF);
    store<u32>(numbersPtr + <usize>urls * 4, number);
    urls++;
    p = lineEnd + 1;
  }
  store<u32>(resultPtr + LOG_RESULT_LINES, lines);
  store<u32>(resultPtr + LOG_RESULT_OTHER, other);
  store<u32>(resultPtr + LOG_RESULT_URL_BYTES, <u32>(out - urlsPtr));
  store<u32>(resultPtr + LOG_RESULT_FIRST_RELATIVE, firstRelative);
  return urls;
}

/**
 * The URL lines of requests the host read from other formats (JSON, CloudFront, ALB): count TARGET_ENTRY_*
 * records at entriesPtr, each a target (no escapes to undo; CR and LF left out) and the line's host (or
 * none), made into LF-ended URL lines at outPtr by the same rule as readLogChunk's; each entry gets its
 * URL line's end and URL_HOST_*. Output: at most the targets' bytes + (8 + the longest host) x count.
 * Writes LOG_RESULT_URL_BYTES at resultPtr; returns count.
 */
export function urlLinesOfTargets(entriesPtr: usize, count: u32, outPtr: usize, withHost: bool, defaultHostPtr: usize, defaultHostLen: usize, resultPtr: usize): u32 {
  let out = outPtr;
  for (let i: u32 = 0; i < count; i++) {
    const entry = entriesPtr + <usize>i * TARGET_ENTRY_SIZE;
    const target = <usize>load<u32>(entry + TARGET_ENTRY_TARGET);
    const host = <usize>load<u32>(entry + TARGET_ENTRY_HOST);
    out = writeUrlLine(out, target, target + <usize>load<u32>(entry + TARGET_ENTRY_TARGET_LENGTH), false, withHost, host, host + <usize>load<u32>(entry + TARGET_ENTRY_HOST_LENGTH), defaultHostPtr, defaultHostPtr + defaultHostLen);
    store<u32>(entry + TARGET_ENTRY_URL_END, <u32>(out - outPtr));
    store<u32>(entry + TARGET_ENTRY_URL_HOST, urlHost);
    store<u8>(out++, <u8>CHAR_LF);
  }
  store<u32>(resultPtr + LOG_RESULT_URL_BYTES, <u32>(out - outPtr));
  return count;
}
