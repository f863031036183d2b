// Output the core writes a piece at a time (a chunk's text or jsonl lines), gathered for the caller.

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
