// Vector scans shared by the line scan (index.ts) and the automaton's skip states (dfa.ts), the
// word-at-a-time byte test (bulk.ts findLf, compile.ts) and byte compare (hosts.ts, literal.ts, pack-hosts.ts).

/** The high bit of each zero byte of word (and nothing else set below the first one): word ^ splat(b) finds b. */
@inline export function zeroBytesOf(word: u64): u64 {
  return (word - 0x0101010101010101) & ~word & 0x8080808080808080;
}

/**
 * Address of the first byte at or after p equal to any of eight needles (splatted), 16 bytes a step. The
 * caller guarantees one such byte within readable memory (an LF sentinel, or LF among the needles).
 */
@inline export function findAnyOf8(p: usize, a: v128, b: v128, c: v128, d: v128, e: v128, f: v128, g: v128, h: v128): usize {
  while (true) {
    const chunk = v128.load(p);
    const hits = v128.or(
      v128.or(v128.or(i8x16.eq(chunk, a), i8x16.eq(chunk, b)), v128.or(i8x16.eq(chunk, c), i8x16.eq(chunk, d))),
      v128.or(v128.or(i8x16.eq(chunk, e), i8x16.eq(chunk, f)), v128.or(i8x16.eq(chunk, g), i8x16.eq(chunk, h))),
    );
    const mask = i8x16.bitmask(hits);
    if (mask != 0) return p + <usize>ctz(mask);
    p += 16;
  }
}

/**
 * True when [a, a + length) and [b, b + length) hold the same bytes: 8 bytes a step at any alignment (the
 * library's memory.compare goes byte by byte unless both addresses share their alignment, and a key's
 * bytes rarely share a line's), the last 1-7 bytes as the word that ends them (read again, never past the
 * end). Every key compare of the many-host scan, the pack's index and the literal index goes through here.
 */
@inline export function sameBytes(a: usize, b: usize, length: usize): bool {
  if (length < 8) {
    for (let i: usize = 0; i < length; i++) if (load<u8>(a + i) != load<u8>(b + i)) return false;
    return true;
  }
  const last = length - 8;
  for (let i: usize = 0; i < last; i += 8) if (load<u64>(a + i) != load<u64>(b + i)) return false;
  return load<u64>(a + last) == load<u64>(b + last);
}
