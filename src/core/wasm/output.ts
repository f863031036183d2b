// Output the core writes a piece at a time (a chunk's text or jsonl lines), gathered for the caller.
import { OUTPUT_PIECE_BYTES, SENTINEL_SLACK } from './limits.js';
import type { CoreFrame } from './frame.js';

/** Byte arrays joined into one (no Buffer: this module runs in every runtime). */
function concatBytes(pieces: Uint8Array[]): Uint8Array {
  const joined = new Uint8Array(pieces.reduce((sum, piece) => sum + piece.length, 0));
  let at = 0;
  for (const piece of pieces) {
    joined.set(piece, at);
    at += piece.length;
  }
  return joined;
}

/**
 * The buffer to give as `into` next time: the same one when the output fitted it, else one 1.25x the output
 * that did not (a new buffer per chunk would cost its pages every time). Once per chunk, by each owner of a
 * reused output buffer (check on its own thread, worker threads).
 */
export function nextOutputBuffer(into: Uint8Array, output: Uint8Array): Uint8Array {
  return output.buffer === into.buffer || output.length <= into.length ? into : new Uint8Array(Math.ceil(output.length * 1.25));
}

/**
 * Output made a piece at a time (each piece a view of wasm memory, copied at once): into `into` while it has
 * room (the result is then a view of it), else joined into a new buffer. For matching.ts's formatJsonl and
 * hosts-engine.ts's formatText, once per chunk.
 */
export class OutputPieces {
  private readonly pieces: Uint8Array[] = [];
  private used = 0;
  private fits: boolean;
  constructor(private readonly into: Uint8Array | null) {
    this.fits = into !== null;
  }
  add(piece: Uint8Array): void {
    const into = this.into as Uint8Array;
    if (this.fits && this.used + piece.length <= into.length) {
      into.set(piece, this.used);
      this.pieces.push(into.subarray(this.used, this.used + piece.length));
      this.used += piece.length;
    } else {
      this.fits = false;
      this.pieces.push(piece.slice());
    }
  }
  result(): Uint8Array {
    if (this.fits) return (this.into as Uint8Array).subarray(0, this.used);
    return this.pieces.length === 1 ? this.pieces[0] : concatBytes(this.pieces);
  }
}

/**
 * Text output (assembly/format.ts) of `lineCount` lines of a chunk in memory (line starts as offsets from
 * inputPtr, u32 at lineStartsPtr; verdicts at verdictsPtr), written a piece of about OUTPUT_PIECE_BYTES at a
 * time in the work area and gathered (OutputPieces). For hosts-engine's chunks, once per chunk.
 */
export function formatTextInPieces(frame: CoreFrame, inputPtr: number, lineStartsPtr: number, inputLength: number, lineCount: number, verdictsPtr: number, filter: number, into: Uint8Array | null): Uint8Array {
  const output = new OutputPieces(into);
  const outputPtr = frame.workPtr;
  const startsAt = lineStartsPtr >>> 2;
  const startOf = (line: number): number => (line < lineCount ? frame.memoryWords()[startsAt + line] : inputLength + 1);
  // a line's text is at most its bytes and 12 more
  const pieceBytes = (first: number, stop: number): number => startOf(stop) - startOf(first) + 12 * (stop - first);
  for (let first = 0; first < lineCount;) {
    // the most lines from `first` on whose text fits a piece (one line at least), by binary search
    let low = first + 1;
    let high = lineCount;
    while (low < high) {
      const middle = (low + high + 1) >>> 1;
      if (pieceBytes(first, middle) <= OUTPUT_PIECE_BYTES) low = middle;
      else high = middle - 1;
    }
    frame.reserve(outputPtr + pieceBytes(first, low) + SENTINEL_SLACK);
    const length = frame.exports.formatTextLines(inputPtr + startOf(first), low - first, verdictsPtr + first, outputPtr, filter, 0);
    output.add(frame.memoryBytes().subarray(outputPtr, outputPtr + length));
    first = low;
  }
  return output.result();
}
