// The core's readings of single URLs and patterns, for tests, explain and the URL model's checks: the path
// the reference matches, a pattern's normalised form, and the origin key the many-host scan reads.
import { CHAR_LF, MAX_HOST_KEY_BYTES } from '../constants.js';
import { align, SENTINEL_SLACK } from './limits.js';
import type { CoreFrame } from './frame.js';

/** Calls on one URL or pattern. Made once per core. */
export class UrlCalls {
  constructor(private readonly frame: CoreFrame) {}

  /** The normalised form of one allow/disallow value (flags: FLAG_RFC_MODE or 0). */
  normalizePattern(value: Uint8Array, flags: number): Uint8Array {
    const frame = this.frame;
    const srcPtr = frame.workPtr;
    const dstPtr = srcPtr + value.length;
    frame.reserve(dstPtr + value.length * 3 + 16);
    frame.memoryBytes().set(value, srcPtr);
    const length = frame.exports.normalizePattern(srcPtr, value.length, dstPtr, flags);
    return frame.memoryBytes().slice(dstPtr, dstPtr + length);
  }

  /** The path the reference matches for a URL. */
  extractPath(url: Uint8Array): Uint8Array {
    const frame = this.frame;
    const srcPtr = frame.workPtr;
    const dstPtr = srcPtr + url.length;
    frame.reserve(dstPtr + url.length + 16);
    frame.memoryBytes().set(url, srcPtr);
    const length = frame.exports.extractPath(srcPtr, url.length, dstPtr);
    return frame.memoryBytes().slice(dstPtr, dstPtr + length);
  }

  /**
   * The origin key the many-host scan reads from one URL line (assembly/hosts.ts hostKeyOf), one char per
   * byte, or null when the scan finds no http(s) URL. Tests compare it with the URL model.
   */
  originKey(line: Uint8Array): string | null {
    const frame = this.frame;
    const linePtr = frame.workPtr;
    const keyPtr = align(linePtr + line.length + 1 + SENTINEL_SLACK, 16);
    frame.reserve(keyPtr + MAX_HOST_KEY_BYTES + 64);
    const memory = frame.memoryBytes();
    memory.set(line, linePtr);
    memory[linePtr + line.length] = CHAR_LF;
    const length = frame.exports.originKeyOf(linePtr, keyPtr);
    return length < 0 ? null : String.fromCharCode(...frame.memoryBytes().subarray(keyPtr, keyPtr + length));
  }

  /** Whether the core reads an origin key as plain (assembly/pack-hosts.ts isPlainKey). Tests hold it to src/core/url-model.ts isPlainKey. */
  isPlainKey(key: Uint8Array): boolean {
    const frame = this.frame;
    const keyPtr = frame.workPtr;
    frame.reserve(keyPtr + key.length + 16);
    frame.memoryBytes().set(key, keyPtr);
    return frame.exports.isPlainOriginKey(keyPtr, key.length) !== 0;
  }
}
