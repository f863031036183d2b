// The sizes and limits of the WebAssembly core's memory, in one place: how much of a body is read, the
// largest input of one call, the slack the core reads past an input, and how automaton regions are sized.
import { RobotsError } from '../errors.js';

/** Rounds up to a multiple of `to`. */
export const align = (value: number, to: number): number => Math.ceil(value / to) * to;

/** Bytes the core may read past the LF sentinel (its line-end search reads 8 bytes at a time). */
export const SENTINEL_SLACK = 16;
/** Largest robots.txt body compiled in one piece: its trie must fit the 32-bit memory with room to spare. */
export const MAX_COMPILE_BYTES = 16 << 20;
/** Largest input of one matching call (a chunk of lines, or one line). */
export const MAX_BATCH_BYTES = 256 << 20;
/** The work area output is written in, a piece at a time (copied out after each): the area written is memory kept. */
export const OUTPUT_PIECE_BYTES = 1 << 20;

/**
 * The one rule for how much of a robots.txt body is read, for every reader (parseRobots, the many-host
 * matcher, the batch tester, files, the store, fetches): with a size limit (maxBytes 1 to MAX_COMPILE_BYTES)
 * the first maxBytes bytes, the rest cut as crawlers cut it (a body-truncated diagnostic says so); with none
 * (maxBytes 0: the whole body, as robots_main reads it) the whole body, and a body larger than one compile
 * takes is INPUT_TOO_LARGE, never answered from a part.
 */
export function bytesToRead(length: number, maxBytes: number): number {
  if (maxBytes > 0) return Math.min(length, maxBytes);
  if (length > MAX_COMPILE_BYTES) throw bodyTooLarge(length);
  return length;
}

/** The INPUT_TOO_LARGE error of a body read whole that is larger than one compile takes (bytesToRead). */
export function bodyTooLarge(length: number): RobotsError {
  // a reader bounded at MAX_COMPILE_BYTES + 1 (readLimit) knows only that the body is longer
  const size = length > MAX_COMPILE_BYTES + 1 ? `${length} bytes` : `more than ${MAX_COMPILE_BYTES} bytes`;
  return new RobotsError('INPUT_TOO_LARGE', `a robots.txt body of ${size} is larger than one compile takes whole (16 MiB): give a size limit (such as the 512000 bytes crawlers read) to read its first part`);
}

/** The INPUT_TOO_LARGE error of an input past a limit of the core (one wording everywhere). */
export function tooLarge(what: string, bytes: number, limit: number): RobotsError {
  return new RobotsError('INPUT_TOO_LARGE', `${what} of ${bytes} bytes is larger than the ${limit}-byte limit of one WebAssembly call`);
}

const AUTOMATON_CAP_BASE_BYTES = 1 << 20;
const AUTOMATON_FIRST_BASE_BYTES = 32 << 10;
/** Largest automaton region of any matcher. */
export const AUTOMATON_MAX_BYTES = 64 << 20;
/** Growth factor of an automaton region that filled up. */
export const AUTOMATON_GROWTH = 4;

/** Largest automaton region of a matcher: room for many states, bounded (flushed when full). */
export function automatonCapBytes(blobLength: number): number {
  return align(Math.min(AUTOMATON_MAX_BYTES, AUTOMATON_CAP_BASE_BYTES + 16 * blobLength), 65536);
}

/** First automaton region of a matcher: small (most matchers need few states); grown x4 when it fills up. */
export function automatonFirstBytes(blobLength: number): number {
  return Math.min(automatonCapBytes(blobLength), align(AUTOMATON_FIRST_BASE_BYTES + 4 * blobLength, 16384));
}
