// URL -> the path the reference matches: path, params and query, no fragment, always starting with '/'.
import { CHAR_SLASH, CHAR_QUESTION, CHAR_SEMICOLON, CHAR_HASH, CHAR_COLON, CHAR_NUL } from "../src/core/constants";

/** Returned by findPathStart when the matched path is just "/". */
export const PATH_IS_ROOT: usize = 0;

@inline function isPathStart(c: i32): bool {
  return c == CHAR_SLASH || c == CHAR_QUESTION || c == CHAR_SEMICOLON;
}

/**
 * Finds where the path begins in url[urlPtr, urlEnd): the address of its first byte ('/', '?' or ';'),
 * or PATH_IS_ROOT when the path is "/" (no path character, or a '#' before it). A NUL ends the URL.
 * One left-to-right pass: a leading "//" is skipped; a "://" before the first of "/?;" ends the scheme.
 * The path then runs from the returned address to the first '#' or NUL (see isPathEnd).
 */
export function findPathStart(urlPtr: usize, urlEnd: usize): usize {
  let p = urlPtr;
  if (urlEnd - urlPtr >= 2 && load<u8>(p) == CHAR_SLASH && load<u8>(p + 1) == CHAR_SLASH) p += 2;
  while (p < urlEnd) {
    const c = <i32>load<u8>(p);
    if (isPathStart(c)) return p;
    if (c == CHAR_HASH || c == CHAR_NUL) return PATH_IS_ROOT;
    if (c == CHAR_COLON && p + 2 < urlEnd && load<u8>(p + 1) == CHAR_SLASH && load<u8>(p + 2) == CHAR_SLASH) {
      // "://" ends the scheme; the host runs to the first of "/?;".
      p += 3;
      while (p < urlEnd) {
        const h = <i32>load<u8>(p);
        if (isPathStart(h)) return p;
        if (h == CHAR_HASH || h == CHAR_NUL) return PATH_IS_ROOT;
        p++;
      }
      return PATH_IS_ROOT;
    }
    p++;
  }
  return PATH_IS_ROOT;
}

/** True for the bytes that end the matched path: '#' (fragment) and NUL. */
@inline export function isPathEnd(c: i32): bool {
  return c == CHAR_HASH || c == CHAR_NUL;
}

/**
 * Writes the matched path of url[urlPtr, urlPtr + urlLen) at dst (at most urlLen + 1 bytes) and returns
 * its length. Used by tests, explain() and rfc mode; the bulk matcher walks the URL in place instead.
 */
export function writePath(urlPtr: usize, urlLen: usize, dst: usize): usize {
  const urlEnd = urlPtr + urlLen;
  const start = findPathStart(urlPtr, urlEnd);
  store<u8>(dst, CHAR_SLASH);
  if (start == PATH_IS_ROOT) return 1;
  let out = dst;
  let p = start;
  if (load<u8>(p) == CHAR_SLASH) p++;
  out++;
  while (p < urlEnd) {
    const c = <i32>load<u8>(p);
    if (isPathEnd(c)) break;
    store<u8>(out++, <u8>c);
    p++;
  }
  return out - dst;
}
