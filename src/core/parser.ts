// robots.txt bytes -> lines -> (key, value, line number) events for a handler. Never decodes a charset,
// never throws on any body. Mirrors the reference's observable rules (docs/specification.md sections 1-3);
// the per-byte part, key classification included, runs in the WebAssembly core (assembly/lines.ts).
import {
  LINE_NUMBER, LINE_KEY_START, LINE_KEY_END, LINE_VALUE_START, LINE_VALUE_END, LINE_FLAGS, LINE_RECORD_SIZE, LINE_FLAG_TRUNCATED,
  LINE_FLAG_NUL, LINE_FLAG_MISSING_COLON, LINE_FLAG_NO_SEPARATOR, LINE_FLAG_EMPTY_KEY, LINE_FLAG_TYPO, LINE_FLAG_GLOBAL_AGENT,
  LINE_KEY_KIND, LINE_GROUP, LINE_TOKEN_END, KEY_USER_AGENT, KEY_ALLOW, KEY_DISALLOW, KEY_SITEMAP,
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

/**
 * What the parser says of a user-agent line besides its value: its group, the length of its product token
 * (GoogleOnly: the longest leading run of [A-Za-z_-]; the reference compares only that), and whether it names
 * every crawler (`*`).
 */
export interface UserAgentFacts {
  group: number;
  tokenLength: number;
  global: boolean;
}

/**
 * Receives the parser's events in file order. Implemented by RobotsTxt's collector, lint and tests. `group`:
 * the group the line belongs to, numbered from 0 in file order (a user-agent line after a rule opens the
 * next one); -1 for a rule before any user-agent line, which the reference ignores.
 */
export interface RobotsParseHandler {
  userAgent(line: number, value: Uint8Array, facts: UserAgentFacts): void;
  allow(line: number, value: Uint8Array, group: number): void;
  disallow(line: number, value: Uint8Array, group: number): void;
  sitemap(line: number, value: Uint8Array): void;
  unknown(line: number, key: Uint8Array, value: Uint8Array): void;
  notice(line: number, code: ParseNoticeCode): void;
}


/**
 * Splits body into lines (LF, CR and CRLF each end one; line numbers from 1; text after the last line end is
 * a final line) and emits each line's event. The caller applies any size limit before calling.
 * Called once per robots.txt. The per-byte work (line ends, comment, NUL, whitespace, key/value split) is
 * done by the WebAssembly core in one pass (assembly/lines.ts); this classifies keys and emits events.
 */
export function parseRobotsBody(body: Uint8Array, mode: RobotsMode, handler: RobotsParseHandler): void {
  const { records, bom } = core().bodies.tokenizeLines(body, mode === 'google');
  if (bom > 0) handler.notice(1, 'bom');
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
      case KEY_USER_AGENT: {
        const tokenLength = records[r + (LINE_TOKEN_END >> 2)] - records[r + (LINE_VALUE_START >> 2)];
        handler.userAgent(lineNumber, value, { group: records[r + (LINE_GROUP >> 2)], tokenLength, global: (flags & LINE_FLAG_GLOBAL_AGENT) !== 0 });
        break;
      }
      case KEY_ALLOW: handler.allow(lineNumber, value, records[r + (LINE_GROUP >> 2)]); break;
      case KEY_DISALLOW: handler.disallow(lineNumber, value, records[r + (LINE_GROUP >> 2)]); break;
      case KEY_SITEMAP: handler.sitemap(lineNumber, value); break;
      default: handler.unknown(lineNumber, body.subarray(keyStart, records[r + (LINE_KEY_END >> 2)]), value);
    }
  }
}
