// Percent-normalisation of patterns (both modes) and of URL paths (rfc mode only).
// Works byte by byte on linear memory; never decodes a charset.
import {
  CHAR_PERCENT, CHAR_NON_ASCII, CHAR_0, CHAR_9, CHAR_UPPER_A, CHAR_UPPER_F, CHAR_LOWER_A, CHAR_LOWER_F,
  CHAR_UPPER_Z, CHAR_LOWER_Z, CHAR_HYPHEN, CHAR_DOT, CHAR_UNDERSCORE, CHAR_TILDE, CHAR_ASTERISK, CHAR_DOLLAR,
} from "../src/core/constants";

@inline export function isHexDigit(c: i32): bool {
  return (c >= CHAR_0 && c <= CHAR_9) || (c >= CHAR_UPPER_A && c <= CHAR_UPPER_F) || (c >= CHAR_LOWER_A && c <= CHAR_LOWER_F);
}

@inline function hexValue(c: i32): u32 {
  if (c <= CHAR_9) return c - CHAR_0;
  if (c <= CHAR_UPPER_F) return c - CHAR_UPPER_A + 10;
  return c - CHAR_LOWER_A + 10;
}

@inline function upperHexDigit(value: i32): u32 {
  return value < 10 ? CHAR_0 + value : CHAR_UPPER_A + value - 10;
}

@inline function toUpperHex(c: i32): u32 {
  return c >= CHAR_LOWER_A ? c - (CHAR_LOWER_A - CHAR_UPPER_A) : c;
}

/** RFC 3986 unreserved: ALPHA / DIGIT / "-" / "." / "_" / "~". */
@inline function isUnreserved(c: i32): bool {
  return (c >= CHAR_UPPER_A && c <= CHAR_UPPER_Z) || (c >= CHAR_LOWER_A && c <= CHAR_LOWER_Z) ||
    (c >= CHAR_0 && c <= CHAR_9) || c == CHAR_HYPHEN || c == CHAR_DOT || c == CHAR_UNDERSCORE || c == CHAR_TILDE;
}

@inline function writeEscaped(dst: usize, byte: i32): usize {
  store<u8>(dst, CHAR_PERCENT);
  store<u8>(dst + 1, upperHexDigit(byte >> 4));
  store<u8>(dst + 2, upperHexDigit(byte & 15));
  return dst + 3;
}

/** A valid escape at p: `%` and two hex digits before end (an invalid one is copied as it is, in both modes). */
@inline function isEscapeAt(p: usize, end: usize): bool {
  return <i32>load<u8>(p) == CHAR_PERCENT && p + 2 < end && isHexDigit(load<u8>(p + 1)) && isHexDigit(load<u8>(p + 2));
}

/** Writes byte c at dst, as `%HH` when escape (bytes >= 0x80 in both modes, `*` and `$` of URLs in rfc mode); returns the new end. */
@inline function writeByte(dst: usize, c: i32, escape: bool): usize {
  if (escape) return writeEscaped(dst, c);
  store<u8>(dst, <u8>c);
  return dst + 1;
}

/**
 * Google mode pattern normalisation: `%xy` (two hex digits) keeps its escape with upper-case hex digits,
 * every byte >= 0x80 becomes `%HH`, everything else (invalid escapes included) is copied.
 * Writes at most 3 * srcLen bytes at dst, and may write 16 more past them; returns the number written.
 */
export function normalizeGooglePattern(src: usize, srcLen: usize, dst: usize): usize {
  const start = dst;
  const end = src + srcLen;
  let p = src;
  while (p < end) {
    // 16 bytes at a time up to the first '%' or byte >= 0x80 (reads and writes up to 15 bytes past the
    // value's end: the caller leaves that room; the bytes written there are overwritten or ignored)
    const chunk = v128.load(p);
    const left = end - p;
    let special = i8x16.bitmask(v128.or(i8x16.eq(chunk, i8x16.splat(<i8>CHAR_PERCENT)), i8x16.lt_s(chunk, i8x16.splat(0))));
    if (left < 16) special |= <i32>(0xffff << <u32>left) & 0xffff;
    const plain = <usize>ctz(special | 0x10000);
    if (plain > 0) {
      v128.store(dst, chunk);
      const taken = min(plain, left);
      p += taken;
      dst += taken;
      continue;
    }
    const c = <i32>load<u8>(p);
    if (isEscapeAt(p, end)) {
      store<u8>(dst, CHAR_PERCENT);
      store<u8>(dst + 1, toUpperHex(load<u8>(p + 1)));
      store<u8>(dst + 2, toUpperHex(load<u8>(p + 2)));
      dst += 3;
      p += 3;
    } else {
      dst = writeByte(dst, c, c >= CHAR_NON_ASCII);
      p++;
    }
  }
  return dst - start;
}

/**
 * RFC 9309 normalisation, for patterns and (with encodeOperators) for URL paths: escapes of unreserved
 * characters are decoded (`%7E` -> `~`), other escapes get upper-case hex, bytes >= 0x80 become `%HH`.
 * With encodeOperators (URL side) a literal `*` or `$` becomes `%2A` / `%24`, so that a pattern can name
 * them only by their escapes, as RFC 9309 section 2.2.3 shows. Writes at most 3 * srcLen bytes.
 */
export function normalizeRfc(src: usize, srcLen: usize, dst: usize, encodeOperators: bool): usize {
  const start = dst;
  const end = src + srcLen;
  let p = src;
  while (p < end) {
    const c = <i32>load<u8>(p);
    if (isEscapeAt(p, end)) {
      const value = <i32>((hexValue(load<u8>(p + 1)) << 4) | hexValue(load<u8>(p + 2)));
      dst = writeByte(dst, value, !isUnreserved(value));
      p += 3;
    } else {
      dst = writeByte(dst, c, c >= CHAR_NON_ASCII || (encodeOperators && (c == CHAR_ASTERISK || c == CHAR_DOLLAR)));
      p++;
    }
  }
  return dst - start;
}
