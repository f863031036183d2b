// robots.txt bytes -> lines -> (key, value, line number) events for a handler. Never decodes a charset,
// never throws on any body. Mirrors the reference's observable rules (docs/specification.md sections 1-3);
// the per-byte part, key classification included, runs in the WebAssembly core (assembly/lines.ts).
import {
  CHAR_LF, CHAR_CR, CHAR_SPACE, CHAR_TAB, CHAR_VT, CHAR_FF, LINE_NUMBER, LINE_KEY_START, LINE_KEY_END, LINE_VALUE_START,
  LINE_VALUE_END, LINE_FLAGS, LINE_RECORD_SIZE, LINE_FLAG_TRUNCATED, LINE_FLAG_NUL, LINE_FLAG_MISSING_COLON,
  LINE_FLAG_NO_SEPARATOR, LINE_FLAG_EMPTY_KEY, LINE_FLAG_TYPO, LINE_KEY_KIND, KEY_USER_AGENT, KEY_ALLOW, KEY_DISALLOW, KEY_SITEMAP,
} from './constants.js';
import { core } from './wasm/core.js';

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


const UTF8_BOM = [0xef, 0xbb, 0xbf];

/** Whitespace the reference strips: space, tab, LF, VT, FF, CR. */
export function isRobotsWhitespace(byte: number): boolean {
  return byte === CHAR_SPACE || byte === CHAR_TAB || byte === CHAR_LF || byte === CHAR_VT || byte === CHAR_FF || byte === CHAR_CR;
}


/** Bytes of the (possibly partial) UTF-8 BOM at the start of body: 0 to 3. */
export function bomLength(body: Uint8Array): number {
  let length = 0;
  while (length < UTF8_BOM.length && length < body.length && body[length] === UTF8_BOM[length]) length++;
  return length;
}

/**
 * Splits body into lines (LF, CR and CRLF each end one; line numbers from 1; text after the last line end is
 * a final line) and emits each line's event. The caller applies any size limit before calling.
 * Called once per robots.txt. The per-byte work (line ends, comment, NUL, whitespace, key/value split) is
 * done by the WebAssembly core in one pass (assembly/lines.ts); this classifies keys and emits events.
 */
export function parseRobotsBody(body: Uint8Array, mode: RobotsMode, handler: RobotsParseHandler): void {
  const bom = bomLength(body);
  if (bom > 0) handler.notice(1, 'bom');
  const records = core().tokenizeLines(body, bom, mode === 'google');
  const fields = LINE_RECORD_SIZE >> 2;
  for (let r = 0; r < records.length; r += fields) {
    const lineNumber = records[r + (LINE_NUMBER >> 2)];
    const flags = records[r + (LINE_FLAGS >> 2)];
    if (flags !== 0) {
      if (flags & LINE_FLAG_TRUNCATED) handler.notice(lineNumber, 'line-truncated');
      if (flags & LINE_FLAG_NUL) handler.notice(lineNumber, 'nul-byte');
      if (flags & LINE_FLAG_NO_SEPARATOR) handler.notice(lineNumber, 'no-separator');
      if (flags & LINE_FLAG_EMPTY_KEY) handler.notice(lineNumber, 'empty-key');
      if (flags & LINE_FLAG_MISSING_COLON) handler.notice(lineNumber, 'missing-colon');
    }
    const keyStart = records[r + (LINE_KEY_START >> 2)];
    if (keyStart < 0) continue;
    const value = body.subarray(records[r + (LINE_VALUE_START >> 2)], records[r + (LINE_VALUE_END >> 2)]);
    if (flags & LINE_FLAG_TYPO) handler.notice(lineNumber, 'typo-key');
    switch (records[r + (LINE_KEY_KIND >> 2)]) {
      case KEY_USER_AGENT: handler.userAgent(lineNumber, value); break;
      case KEY_ALLOW: handler.allow(lineNumber, value); break;
      case KEY_DISALLOW: handler.disallow(lineNumber, value); break;
      case KEY_SITEMAP: handler.sitemap(lineNumber, value); break;
      default: handler.unknown(lineNumber, body.subarray(keyStart, records[r + (LINE_KEY_END >> 2)]), value);
    }
  }
}
