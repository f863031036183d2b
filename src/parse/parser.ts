// robots.txt bytes -> lines -> (key, value, line number) events for a handler. Never decodes a charset,
// never throws on any body. Mirrors the reference's observable rules (REFERENCE-BEHAVIOUR.md sections 1-3).
import {
  CHAR_LF, CHAR_CR, CHAR_NUL, CHAR_HASH, CHAR_COLON, CHAR_SPACE, CHAR_TAB, CHAR_VT, CHAR_FF, MAX_LINE_BYTES,
} from '../constants.js';

/** Parsing mode: `google` gives the reference's verdicts; `rfc` follows RFC 9309 strictly where they differ. */
export type RobotsMode = 'google' | 'rfc';

/** What the parser reports about a line it accepted with a Google-only leniency, repaired or ignored. */
export type ParseNoticeCode =
  | 'bom' // a (possibly partial) UTF-8 byte order mark was skipped
  | 'line-truncated' // GoogleOnly: bytes past 16,663 on a line were dropped
  | 'nul-byte' // a NUL byte ended the line's content
  | 'missing-colon' // GoogleOnly: "key value" accepted without a colon
  | 'no-separator' // a line with text but no key/value separator: ignored
  | 'empty-key' // a separator with nothing before it: ignored
  | 'typo-key'; // GoogleOnly: a misspelt key accepted (dissallow, useragent, site-map, ...)

/** Receives the parser's events in file order. Implemented by RobotsTxt's collector, lint and tests. */
export interface RobotsParseHandler {
  userAgent(line: number, value: Uint8Array): void;
  allow(line: number, value: Uint8Array): void;
  disallow(line: number, value: Uint8Array): void;
  sitemap(line: number, value: Uint8Array): void;
  unknown(line: number, key: Uint8Array, value: Uint8Array): void;
  notice(line: number, code: ParseNoticeCode): void;
}

export type KeyKind = 'user-agent' | 'allow' | 'disallow' | 'sitemap' | 'unknown';

const ascii = (text: string): Uint8Array => new TextEncoder().encode(text);

interface KeyPrefix {
  kind: KeyKind;
  prefix: Uint8Array;
  /** GoogleOnly: accepted only in google mode. */
  typo: boolean;
}

// Order matters: the first matching prefix wins, as in the reference.
const KEY_PREFIXES: readonly KeyPrefix[] = [
  { kind: 'user-agent', prefix: ascii('user-agent'), typo: false },
  { kind: 'user-agent', prefix: ascii('useragent'), typo: true },
  { kind: 'user-agent', prefix: ascii('user agent'), typo: true },
  { kind: 'allow', prefix: ascii('allow'), typo: false },
  { kind: 'disallow', prefix: ascii('disallow'), typo: false },
  { kind: 'disallow', prefix: ascii('dissallow'), typo: true },
  { kind: 'disallow', prefix: ascii('dissalow'), typo: true },
  { kind: 'disallow', prefix: ascii('disalow'), typo: true },
  { kind: 'disallow', prefix: ascii('diasllow'), typo: true },
  { kind: 'disallow', prefix: ascii('disallaw'), typo: true },
  { kind: 'sitemap', prefix: ascii('sitemap'), typo: false },
  { kind: 'sitemap', prefix: ascii('site-map'), typo: true },
];

const UTF8_BOM = [0xef, 0xbb, 0xbf];

/** Whitespace the reference strips: space, tab, LF, VT, FF, CR. */
export function isRobotsWhitespace(byte: number): boolean {
  return byte === CHAR_SPACE || byte === CHAR_TAB || byte === CHAR_LF || byte === CHAR_VT || byte === CHAR_FF || byte === CHAR_CR;
}

const lowerAscii = (byte: number): number => (byte >= 0x41 && byte <= 0x5a ? byte | 0x20 : byte);

/** Classifies a key by ASCII case-insensitive prefix. */
export function classifyKey(key: Uint8Array, mode: RobotsMode): { kind: KeyKind; typo: boolean } {
  for (const candidate of KEY_PREFIXES) {
    if (candidate.typo && mode !== 'google') continue;
    const prefix = candidate.prefix;
    if (key.length < prefix.length) continue;
    let same = true;
    for (let i = 0; i < prefix.length; i++) {
      if (lowerAscii(key[i]) !== prefix[i]) { same = false; break; }
    }
    if (same) return { kind: candidate.kind, typo: candidate.typo };
  }
  return { kind: 'unknown', typo: false };
}

/** Bytes of the (possibly partial) UTF-8 BOM at the start of body: 0 to 3. */
export function bomLength(body: Uint8Array): number {
  let length = 0;
  while (length < UTF8_BOM.length && length < body.length && body[length] === UTF8_BOM[length]) length++;
  return length;
}

/** Parses one line's bytes [start, end) and emits at most one event. */
function parseLine(body: Uint8Array, lineNumber: number, start: number, end: number, mode: RobotsMode, handler: RobotsParseHandler): void {
  if (mode === 'google' && end - start > MAX_LINE_BYTES) {
    end = start + MAX_LINE_BYTES;
    handler.notice(lineNumber, 'line-truncated');
  }
  for (let i = start; i < end; i++) {
    const byte = body[i];
    if (byte === CHAR_HASH) { end = i; break; }
    if (byte === CHAR_NUL) { end = i; handler.notice(lineNumber, 'nul-byte'); break; }
  }
  while (start < end && isRobotsWhitespace(body[start])) start++;
  while (end > start && isRobotsWhitespace(body[end - 1])) end--;
  if (start === end) return;

  let keyEnd = -1;
  let valueStart = -1;
  for (let i = start; i < end; i++) {
    if (body[i] === CHAR_COLON) { keyEnd = i; valueStart = i + 1; break; }
  }
  let missingColon = false;
  if (keyEnd < 0) {
    // GoogleOnly: "key value" with exactly two space/tab-separated tokens stands for "key: value".
    if (mode !== 'google') { handler.notice(lineNumber, 'no-separator'); return; }
    for (let i = start; i < end; i++) {
      if (body[i] === CHAR_SPACE || body[i] === CHAR_TAB) { keyEnd = i; break; }
    }
    if (keyEnd < 0) { handler.notice(lineNumber, 'no-separator'); return; }
    valueStart = keyEnd;
    while (body[valueStart] === CHAR_SPACE || body[valueStart] === CHAR_TAB) valueStart++;
    for (let i = valueStart; i < end; i++) {
      if (body[i] === CHAR_SPACE || body[i] === CHAR_TAB) { handler.notice(lineNumber, 'no-separator'); return; }
    }
    missingColon = true;
  }
  let keyStart = start;
  while (keyEnd > keyStart && isRobotsWhitespace(body[keyEnd - 1])) keyEnd--;
  if (keyEnd === keyStart) { handler.notice(lineNumber, 'empty-key'); return; }
  while (valueStart < end && isRobotsWhitespace(body[valueStart])) valueStart++;
  const key = body.subarray(keyStart, keyEnd);
  const value = body.subarray(valueStart, end);
  if (missingColon) handler.notice(lineNumber, 'missing-colon');
  const { kind, typo } = classifyKey(key, mode);
  if (typo) handler.notice(lineNumber, 'typo-key');
  switch (kind) {
    case 'user-agent': handler.userAgent(lineNumber, value); break;
    case 'allow': handler.allow(lineNumber, value); break;
    case 'disallow': handler.disallow(lineNumber, value); break;
    case 'sitemap': handler.sitemap(lineNumber, value); break;
    default: handler.unknown(lineNumber, key, value);
  }
}

/**
 * Splits body into lines (LF, CR and CRLF each end one; line numbers from 1; text after the last line end is
 * a final line) and emits each line's event. The caller applies any size limit before calling.
 * Called once per robots.txt; O(body length).
 */
export function parseRobotsBody(body: Uint8Array, mode: RobotsMode, handler: RobotsParseHandler): void {
  const bom = bomLength(body);
  if (bom > 0) handler.notice(1, 'bom');
  let lineNumber = 0;
  let lineStart = bom;
  let lastWasCarriageReturn = false;
  for (let i = bom; i < body.length; i++) {
    const byte = body[i];
    if (byte !== CHAR_LF && byte !== CHAR_CR) continue;
    // The LF of a CRLF pair ends nothing by itself.
    if (!(byte === CHAR_LF && lastWasCarriageReturn && i === lineStart)) parseLine(body, ++lineNumber, lineStart, i, mode, handler);
    lineStart = i + 1;
    lastWasCarriageReturn = byte === CHAR_CR;
  }
  parseLine(body, ++lineNumber, lineStart, body.length, mode, handler);
}
