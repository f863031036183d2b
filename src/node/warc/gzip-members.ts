// The bytes of a WARC file as its records are framed in: plain, or gzip member by member (a .warc.gz holds a
// member per record, as the WARC standard asks; a file gzipped whole is one member). Members are inflated
// with pako's zlib port, one at a time, so that each member's end (its CRC and length checked) is known and
// a damaged or cut member is said with its offset, never passed over in silence: the reading then resumes at
// the next member that inflates to a WARC record. Memory: one output buffer, and at most RESYNC_WINDOW raw
// bytes of the member being read (to look for the next member in after damage).
import { ZStream, zlibInflateInit2, zlibInflate, Z_STREAM_END, Z_OK, Z_BUF_ERROR, Z_NO_FLUSH } from 'pako';
import { isGzip } from '../robots-file.js';

/** What the framer is given: bytes, the end of a gzip member (checked), or a stretch of the file that is damaged. */
export type WarcPiece =
  | { kind: 'data'; bytes: Uint8Array }
  /** A gzip member begins at raw offset `at` (its bytes follow); the first piece of every .warc.gz. */
  | { kind: 'member-start'; at: number }
  /** The gzip member ended whole (CRC and length checked). */
  | { kind: 'member-end' }
  /** Raw bytes from `from` to `to` (null: to the end of the file) could not be read; reading resumes at `to`. */
  | { kind: 'damaged'; from: number; to: number | null; reason: string };

/** Decompressed bytes asked of pako per call. */
const OUTPUT_BYTES = 1 << 16;
/** Raw bytes of a member kept to look for the next member in after damage (older bytes are let go). */
const RESYNC_WINDOW = 16 << 20;
/** Raw bytes a candidate member may take before it shows its first bytes; past this it is no member. */
const CANDIDATE_PROBE_BYTES = 64 << 10;
const GZIP_WINDOW_BITS = 16 + 15;
const WARC_START = [0x57, 0x41, 0x52, 0x43, 0x2f]; // WARC/


/**
 * The pieces of a WARC file's bytes: plain bytes as they come, or the members of a gzip file inflated one by
 * one with their ends and any damage said. Once per file.
 */
export async function* warcPieces(source: AsyncIterable<Uint8Array>): AsyncGenerator<WarcPiece> {
  const chunks = source[Symbol.asyncIterator]();
  let first = await chunks.next();
  while (first.done !== true && first.value.length === 0) first = await chunks.next();
  if (first.done === true) return;
  // one byte is not enough to tell: read a second chunk when the first has one byte
  let head = first.value;
  if (head.length < 2) {
    const second = await chunks.next();
    if (second.done !== true) head = concat([head, second.value]);
  }
  if (!isGzip(head)) {
    yield { kind: 'data', bytes: head };
    for (let next = await chunks.next(); next.done !== true; next = await chunks.next()) if (next.value.length > 0) yield { kind: 'data', bytes: next.value };
    return;
  }
  yield* new GzipMembers(chunks).pieces(head);
}

/** Inflates gzip members one by one (see warcPieces). */
class GzipMembers {
  /** Raw offset of the first byte of `pending`. */
  private pendingOffset = 0;
  /** Raw bytes not yet given to the inflater. */
  private pending: Uint8Array = new Uint8Array(0);
  private ended = false;
  private readonly output = new Uint8Array(OUTPUT_BYTES);

  constructor(private readonly chunks: AsyncIterator<Uint8Array>) {}

  /** More raw bytes into pending; false at the end of the file. */
  private async more(): Promise<boolean> {
    if (this.ended) return false;
    for (;;) {
      const next = await this.chunks.next();
      if (next.done === true) {
        this.ended = true;
        return false;
      }
      if (next.value.length === 0) continue;
      this.pending = this.pending.length === 0 ? next.value : concat([this.pending, next.value]);
      return true;
    }
  }

  async *pieces(first: Uint8Array): AsyncGenerator<WarcPiece> {
    this.pending = first;
    for (;;) {
      while (this.pending.length < 2 && (await this.more()));
      if (this.pending.length === 0) return;
      if (!isGzip(this.pending)) {
        // what follows a member is no member: damage up to the next member that holds a WARC record
        yield* this.resync(this.pendingOffset, 'not a gzip member');
        continue;
      }
      yield* this.member();
    }
  }

  /** Inflates the member that starts at pending's first byte: its data, then its end or its damage. */
  private async *member(): AsyncGenerator<WarcPiece> {
    const start = this.pendingOffset;
    yield { kind: 'member-start', at: start };
    const strm = new ZStream();
    zlibInflateInit2(strm, GZIP_WINDOW_BITS);
    // the member's raw bytes, kept from its start (up to RESYNC_WINDOW) to look for a later member after damage
    const kept: Uint8Array[] = [];
    let keptBytes = 0;
    let keptFrom = start;
    const keep = (bytes: Uint8Array): void => {
      kept.push(bytes);
      keptBytes += bytes.length;
      while (keptBytes - kept[0].length >= RESYNC_WINDOW) {
        keptBytes -= kept[0].length;
        keptFrom += (kept.shift() as Uint8Array).length;
      }
    };
    for (;;) {
      const input = this.pending;
      const inputOffset = this.pendingOffset;
      strm.input = input;
      strm.next_in = 0;
      strm.avail_in = input.length;
      let status: number = Z_OK;
      while (strm.avail_in > 0 || status === Z_OK) {
        strm.output = this.output;
        strm.next_out = 0;
        strm.avail_out = OUTPUT_BYTES;
        status = zlibInflate(strm, Z_NO_FLUSH);
        const produced = OUTPUT_BYTES - strm.avail_out;
        // the bytes inflated before the damage is found are given too: the framer names the record they begin
        // (a damaged member's records are never taken: they are said unread)
        if (produced > 0) yield { kind: 'data', bytes: this.output.slice(0, produced) };
        if (status !== Z_OK && status !== Z_STREAM_END && status !== Z_BUF_ERROR) {
          // damaged: the next member is looked for from this one's second byte (kept bytes, then what follows)
          keep(input);
          const skip = Math.max(0, start + 1 - keptFrom);
          this.pending = concat(kept).subarray(skip);
          this.pendingOffset = keptFrom + skip;
          yield* this.resync(start, `a damaged gzip member (${strm.msg === '' ? `zlib status ${status}` : strm.msg})`);
          return;
        }
        if (status === Z_STREAM_END) {
          const end = inputOffset + strm.next_in;
          this.pending = input.subarray(strm.next_in);
          this.pendingOffset = end;
          yield { kind: 'member-end' };
          return;
        }
        if (status === Z_BUF_ERROR || (strm.avail_in === 0 && produced < OUTPUT_BYTES)) break; // needs more input
      }
      keep(input);
      this.pending = new Uint8Array(0);
      this.pendingOffset = inputOffset + input.length;
      if (!(await this.more())) {
        yield { kind: 'damaged', from: start, to: null, reason: 'the file ends inside a gzip member (cut short?)' };
        return;
      }
    }
  }

  /**
   * Looks for the next gzip member that inflates to the start of a WARC record, from pending's first byte on,
   * and says the raw bytes from `from` to it as damaged. Reads on as needed.
   */
  private async *resync(from: number, reason: string): AsyncGenerator<WarcPiece> {
    let at = 0;
    for (;;) {
      // the next 1f 8b 08 in pending, at or after `at`
      let candidate = -1;
      for (let i = at; i + 2 < this.pending.length; i++) {
        if (this.pending[i] === 0x1f && this.pending[i + 1] === 0x8b && this.pending[i + 2] === 0x08) {
          candidate = i;
          break;
        }
      }
      if (candidate < 0) {
        // keep the last two bytes (a magic cut by the chunk's end), let the rest go
        const keepFrom = Math.max(0, this.pending.length - 2);
        this.pendingOffset += keepFrom;
        this.pending = this.pending.subarray(keepFrom);
        at = 0;
        if (!(await this.more())) {
          this.pendingOffset += this.pending.length;
          this.pending = new Uint8Array(0);
          yield { kind: 'damaged', from, to: null, reason: `${reason}; no WARC record follows` };
          return;
        }
        continue;
      }
      const verdict = await this.probe(candidate);
      if (verdict) {
        this.pendingOffset += candidate;
        this.pending = this.pending.subarray(candidate);
        yield { kind: 'damaged', from, to: this.pendingOffset, reason };
        return;
      }
      at = candidate + 1;
    }
  }

  /** True when a member starting at pending[at] inflates to `WARC/` (reading on, up to CANDIDATE_PROBE_BYTES). */
  private async probe(at: number): Promise<boolean> {
    for (;;) {
      const strm = new ZStream();
      zlibInflateInit2(strm, GZIP_WINDOW_BITS);
      const input = this.pending.subarray(at, at + CANDIDATE_PROBE_BYTES);
      strm.input = input;
      strm.next_in = 0;
      strm.avail_in = input.length;
      const out = new Uint8Array(WARC_START.length);
      strm.output = out;
      strm.next_out = 0;
      strm.avail_out = out.length;
      const status = zlibInflate(strm, Z_NO_FLUSH);
      const produced = out.length - strm.avail_out;
      if (status !== Z_OK && status !== Z_STREAM_END && status !== Z_BUF_ERROR) return false;
      for (let i = 0; i < produced; i++) if (out[i] !== WARC_START[i]) return false;
      if (produced === WARC_START.length) return true;
      if (status === Z_STREAM_END) return false; // a member of fewer bytes than a record's start
      // it needs more input than pending has: read on unless the probe has had its fill
      if (input.length >= CANDIDATE_PROBE_BYTES || !(await this.more())) return false;
    }
  }
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
  let length = 0;
  for (const part of parts) length += part.length;
  const out = new Uint8Array(length);
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}
