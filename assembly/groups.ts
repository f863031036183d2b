// The one home of the group rules (docs/specification.md section 6): which lines a group holds, which
// user-agent lines name every crawler, and the product token a user-agent line names. The tokenizer (lines.ts)
// applies them to every line it emits, for the line records of the TypeScript object model and for the
// compile's group selection (select.ts) alike, so the two can never disagree on a group.
import { CHAR_ASTERISK, CHAR_SPACE, CHAR_TAB, CHAR_LF, CHAR_VT, CHAR_FF, CHAR_CR, CHAR_HYPHEN, CHAR_UNDERSCORE, CHAR_UPPER_A, CHAR_UPPER_Z, CHAR_LOWER_A, CHAR_LOWER_Z, KEY_USER_AGENT, KEY_ALLOW, KEY_DISALLOW } from "../src/core/constants";

/** Whitespace the reference strips: space, tab, LF, VT, FF, CR. */
/** Bit c set for each whitespace byte c (TAB, LF, VT, FF, CR, SPACE: all below 33). */
const WHITESPACE_BITS: u64 = (<u64>1 << CHAR_SPACE) | (<u64>1 << CHAR_TAB) | (<u64>1 << CHAR_LF) | (<u64>1 << CHAR_VT) | (<u64>1 << CHAR_FF) | (<u64>1 << CHAR_CR);

@inline export function isRobotsWhitespace(c: i32): bool {
  // one compare and one bit test instead of six compares (per byte of every line's trims)
  return <u32>c <= <u32>CHAR_SPACE && ((WHITESPACE_BITS >> <u64>c) & 1) != 0;
}

/** Bytes of the (possibly partial) UTF-8 byte order mark at p: the longest prefix of EF BB BF, 0 to 3. */
export function bomLength(p: usize, length: usize): i32 {
  if (length < 1 || load<u8>(p) != 0xef) return 0;
  if (length < 2 || load<u8>(p + 1) != 0xbb) return 1;
  if (length < 3 || load<u8>(p + 2) != 0xbf) return 2;
  return 3;
}

/** A user-agent value naming every crawler: `*` alone, or followed by whitespace ("*bot" names none). */
export function isGlobalAgent(value: usize, end: usize): bool {
  return end > value && load<u8>(value) == CHAR_ASTERISK && (end == value + 1 || isRobotsWhitespace(<i32>load<u8>(value + 1)));
}

@inline function isTokenByte(c: i32): bool {
  return (c >= CHAR_LOWER_A && c <= CHAR_LOWER_Z) || (c >= CHAR_UPPER_A && c <= CHAR_UPPER_Z) || c == CHAR_HYPHEN || c == CHAR_UNDERSCORE;
}

/**
 * GoogleOnly: the product token of a user-agent value is its longest leading run of [A-Za-z_-]
 * ("Googlebot/2.1" -> "Googlebot"); where it ends (value itself when there is none).
 */
export function productTokenEnd(value: usize, end: usize): usize {
  let tokenEnd = value;
  while (tokenEnd < end && isTokenByte(<i32>load<u8>(tokenEnd))) tokenEnd++;
  return tokenEnd;
}

/** The group being read (-1: no user-agent line yet), and whether it has had a rule. */
let currentGroup: i32 = -1;
let currentHasRules = false;

/** Called before a body's first line. */
export function resetGroups(): void {
  currentGroup = -1;
  currentHasRules = false;
}

/**
 * The group of a line of this kind (KEY_*), read in file order: a user-agent line after a rule (or the first
 * one) opens the next group; allow and disallow lines belong to the open one (-1 before any user-agent line:
 * the reference ignores them); other lines do not end a group.
 */
export function groupOfLine(kind: i32): i32 {
  if (kind == KEY_USER_AGENT) {
    if (currentGroup < 0 || currentHasRules) {
      currentGroup++;
      currentHasRules = false;
    }
  } else if ((kind == KEY_ALLOW || kind == KEY_DISALLOW) && currentGroup >= 0) {
    currentHasRules = true;
  }
  return currentGroup;
}
