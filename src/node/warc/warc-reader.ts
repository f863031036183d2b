// WARC files read record by record, bounded and never silent. The framing (version line, header block,
// Content-Length bytes of block, CRLF CRLF) is checked here, with a bound on every part a file could make
// huge: a record's header (MAX_WARC_HEADER_BYTES), the bytes of its block kept (its HTTP header and the head
// of its payload), the bytes kept to re-read from when a Content-Length proves wrong (REPLAY_BYTES). Header
// syntax and chunked transfer coding are warcio's (Webrecorder's reader); gzip members are gzip-members.ts's;
// Content-Encoding is the fetchers' decoder. Every record is given back read, or unread with its reason, and
// every stretch of the file that holds no record it could read is said with its offsets: nothing is dropped.
// A record is never judged from another record's bytes: it is given only once its end is where its
// Content-Length says, and, in a .warc.gz, once its gzip member has ended whole (CRC checked).
import { AsyncIterReader, HeadersMultiMap, StatusAndHeadersParser } from 'warcio';
import { decodeContent } from '../content-encoding.js';
import { warcPieces, type WarcPiece } from './gzip-members.js';

/** The most bytes of a record's WARC header block read; a longer one makes the record unread. */
export const MAX_WARC_HEADER_BYTES = 256 << 10;
/** The most bytes of an HTTP header block (of a response or revisit record) read. */
export const MAX_HTTP_HEADER_BYTES = 256 << 10;
/** The most bytes kept after a possible record start inside a block, to re-read from when the block's Content-Length proves wrong. */
const REPLAY_BYTES = 8 << 20;
/** Records (and their reasons) held until their gzip member ends whole; past this they are given unchecked. */
const HELD_RECORDS = 16;

/** A record as read: its WARC headers, its HTTP status and headers (response, revisit), and its payload's head, decoded. */
export interface WarcRecordRead {
  /** Its number in the file (1-based; every record start met is numbered, read or not). */
  number: number;
  /** Where it begins: its byte in a plain file; its gzip member's byte in a .warc.gz. */
  offset: number;
  /** The WARC headers, case kept, repeats kept, in order. */
  warcHeaders: [string, string][];
  /** WARC-Type, WARC-Target-URI (angle brackets removed) and Content-Type, or null. */
  type: string | null;
  targetUri: string | null;
  contentType: string | null;
  /** The HTTP response head of a response or revisit record whose block is HTTP; null otherwise. */
  http: { statusLine: string; status: number | null; headers: [string, string][] } | null;
  /** The payload (a response's body, a resource's block), Transfer-Encoding and Content-Encoding undone: at most payloadBytes. */
  payload: Uint8Array;
  /** True when the payload is longer than payloadBytes (the rest is not read). */
  payloadTruncated: boolean;
}

/** What a WARC file gives: a record read, a record that could not be (with why), or a damaged stretch of the file. */
export type WarcItem =
  | { kind: 'record'; record: WarcRecordRead }
  /** A record met but not read: its number, offset, what its header said of it (when read that far), and why. */
  | { kind: 'unread'; number: number; offset: number; type: string | null; targetUri: string | null; reason: string }
  /** Bytes from `from` to `to` (null: the end of the file) held no record that could be read. */
  | { kind: 'damaged'; from: number; to: number | null; reason: string };

/** The options of readWarc. */
export interface WarcReadOptions {
  /** Decoded payload bytes kept per record (the rest is read past, not kept). */
  payloadBytes: number;
}

/**
 * The items of a WARC file (plain, or gzip member by member: told by its first bytes, not its name). Memory:
 * one record's header, the bytes of its block kept (HTTP header + 4 x payloadBytes + 64 KiB), REPLAY_BYTES,
 * and HELD_RECORDS decoded heads, whatever the file holds. Once per file.
 */
export async function* readWarc(source: AsyncIterable<Uint8Array>, options: WarcReadOptions): AsyncGenerator<WarcItem> {
  const framer = new WarcFramer(MAX_HTTP_HEADER_BYTES + 4 * options.payloadBytes + (64 << 10));
  // in a .warc.gz, items wait for their member's end (its CRC): a member found damaged makes its records unread
  const held: WarcItem[] = [];
  let gzip = false;
  const settle = async function* (outputs: FramerOutput[]): AsyncGenerator<WarcItem> {
    for (const output of outputs) {
      const item = output.kind === 'framed' ? await recordOf(output, options.payloadBytes) : output;
      if (!gzip) {
        yield item;
        continue;
      }
      held.push(item);
      if (held.length > HELD_RECORDS) yield held.shift() as WarcItem;
    }
  };
  for await (const piece of warcPieces(source)) {
    switch (piece.kind) {
      case 'data':
        yield* settle(framer.push(piece.bytes));
        break;
      case 'member-start':
        gzip = true;
        yield* settle(framer.memberStart(piece.at));
        break;
      case 'member-end':
        yield* settle(framer.memberEnd());
        yield* held.splice(0);
        break;
      case 'damaged': {
        const outputs = framer.damaged(piece);
        // what the damaged member held is not taken: its records are said unread
        for (const item of held.splice(0)) yield item.kind === 'record' ? { kind: 'unread', number: item.record.number, offset: item.record.offset, type: item.record.type, targetUri: item.record.targetUri, reason: `it lies in ${piece.reason} (from byte ${piece.from})` } : item;
        yield* settle(outputs);
        yield* held.splice(0);
        break;
      }
    }
  }
  yield* settle(framer.end());
  yield* held.splice(0);
}

/** A record whose framing held: its header bytes and the kept head of its block. */
interface FramedRecord {
  kind: 'framed';
  number: number;
  offset: number;
  header: Uint8Array;
  blockHead: Uint8Array;
  blockLength: number;
}

type FramerOutput = FramedRecord | Extract<WarcItem, { kind: 'unread' | 'damaged' }>;

const CR = 0x0d;
const LF = 0x0a;
const WARC_MAGIC = [0x57, 0x41, 0x52, 0x43, 0x2f]; // WARC/
/** A line that starts a record: LF, then `WARC/`. */
const WARC_LINE = [LF, ...WARC_MAGIC];
const latin1 = new TextDecoder('latin1');

/**
 * The framing of WARC records over a stream of bytes, pushed chunk by chunk (synchronous; linear in the bytes
 * pushed, but for bytes re-read after a wrong Content-Length: at most REPLAY_BYTES per record, and no more in
 * all than the file's bytes). States: seek (blank lines before a record), header, block, trailer (CRLF CRLF),
 * resync (looking for the next line that starts `WARC/`, after a record that could not be framed or bytes
 * that are no record).
 */
class WarcFramer {
  private state: 'seek' | 'header' | 'block' | 'trailer' | 'resync' = 'seek';
  /** Offset of the next byte pushed, in the (decompressed) stream. */
  private position = 0;
  /** Where the current gzip member began (raw offset), or null in a plain file. */
  private memberOffset: number | null = null;
  /** The last bytes consumed (at most WARC_LINE.length), to find a `WARC/` line cut by a chunk's end. */
  private readonly recent = new Uint8Array(WARC_LINE.length);
  private recentLength = 1;
  private records = 0;
  // the record being framed
  private number = 0;
  private offset = 0;
  private header = new Uint8Array(1024);
  private headerLength = 0;
  private blockLength = 0;
  private blockLeft = 0;
  private blockHead: Uint8Array = new Uint8Array(0);
  private blockHeadLength = 0;
  private trailerSeen = 0;
  private targetUri: string | null = null;
  // a line starting `WARC/` inside the block: the bytes from its W kept, to re-read when the Content-Length is wrong
  private replay: Uint8Array[] | null = null;
  private replayBytes = 0;
  private replayOverflow = false;
  /** Where the first line starting `WARC/` inside the block is (stream offset), kept or not. */
  private replayFrom: number | null = null;
  /** Bytes that may still be re-read, in all (the file's bytes so far, less what was re-read). */
  private replayBudget = 0;
  /** Where the stretch being passed over that belongs to no record (bytes that are no record) began, or null. */
  private garbageFrom: number | null = null;
  private outputs: FramerOutput[] = [];

  constructor(private readonly blockKeep: number) {
    this.recent[0] = LF; // the file's start is a line's start
  }

  /** Offset of a record or stretch as people read it: the byte in a plain file, the gzip member in a .warc.gz. */
  private here(): number {
    return this.memberOffset ?? this.position;
  }

  push(bytes: Uint8Array): FramerOutput[] {
    this.replayBudget += bytes.length;
    this.consume(bytes);
    return this.take();
  }

  /** A gzip member begins at raw offset `at`: a record may start at its first byte. */
  memberStart(at: number): FramerOutput[] {
    this.memberOffset = at;
    this.closeGarbage();
    if (this.state === 'resync') this.state = 'seek';
    this.atLineStart();
    return this.take();
  }

  /** The gzip member ended whole: a record cannot run on into the next one. */
  memberEnd(): FramerOutput[] {
    while (this.inRecord()) this.abandon(this.state === 'header' ? 'its WARC header runs past the end of its gzip member' : `its block runs past the end of its gzip member (its Content-Length ${this.blockLength} is wrong, or the member was cut)`);
    return this.take();
  }

  /** A damaged stretch of a .warc.gz: the record being framed lies in it; reading resumes at a member start. */
  damaged(piece: Extract<WarcPiece, { kind: 'damaged' }>): FramerOutput[] {
    if (this.inRecord()) this.abandon(`it lies in ${piece.reason} (from byte ${piece.from})`, false);
    this.garbageFrom = null; // the damaged stretch says it
    this.outputs.push({ kind: 'damaged', from: piece.from, to: piece.to, reason: piece.reason });
    this.state = 'seek';
    this.atLineStart();
    return this.take();
  }

  /** The end of the file: a record not framed whole is said cut short (and what its block held read again). */
  end(): FramerOutput[] {
    while (this.inRecord()) this.abandon('the file ends inside it: cut short?');
    if (this.garbageFrom !== null) this.outputs.push({ kind: 'damaged', from: this.garbageFrom, to: null, reason: 'no WARC record starts there' });
    this.garbageFrom = null;
    return this.take();
  }

  private inRecord(): boolean {
    return this.state === 'header' || this.state === 'block' || this.state === 'trailer';
  }

  /**
   * The record being framed cannot end where its Content-Length says: it is said unread, and (reread) the
   * bytes from the first line inside its block that starts `WARC/` are read again, for a Content-Length that
   * ran past the next record; when those were too many to keep, their stretch is said. Else reading goes on
   * looking for the next such line.
   */
  private abandon(reason: string, reread = true): void {
    const replay = this.replay;
    const replayBytes = this.replayBytes;
    const replayFrom = this.replayFrom;
    const trailerSeen = this.state === 'trailer' ? this.trailerSeen : 0;
    const number = this.number;
    this.unread(reason);
    if (reread && replay !== null && replayBytes > 0) {
      // back to the W of that line, and read again from there
      this.replayBudget -= replayBytes + trailerSeen;
      this.position -= replayBytes + trailerSeen;
      this.atLineStart();
      this.state = 'seek';
      for (const part of replay) this.consume(part);
      this.consume(TRAILER.subarray(0, trailerSeen));
      return;
    }
    if (reread && replayFrom !== null) {
      // a record may begin inside the block, too far back to be read again: its stretch is said
      this.outputs.push({ kind: 'damaged', from: this.memberOffset ?? replayFrom, to: this.here(), reason: `record ${number}'s Content-Length ran on over what may be other records (more than ${REPLAY_BYTES >> 20} MiB to read again)` });
    }
    this.state = 'resync';
  }

  private take(): FramerOutput[] {
    const outputs = this.outputs;
    this.outputs = [];
    return outputs;
  }

  private atLineStart(): void {
    this.recent[0] = LF;
    this.recentLength = 1;
  }

  private unread(reason: string): void {
    // what the header said of the record, as far as it was read
    const text = latin1.decode(this.header.subarray(0, this.headerLength));
    const field = (name: string): string | null => new RegExp(`^${name}[ \\t]*:[ \\t]*<?([^\\r\\n>]*)>?[ \\t]*\\r?\\n`, 'im').exec(text)?.[1]?.trim() || null;
    this.outputs.push({ kind: 'unread', number: this.number, offset: this.offset, type: field('warc-type'), targetUri: this.targetUri ?? field('warc-target-uri'), reason });
    this.replay = null;
    this.replayBytes = 0;
    this.replayFrom = null;
  }

  private closeGarbage(): void {
    if (this.garbageFrom !== null) this.outputs.push({ kind: 'damaged', from: this.garbageFrom, to: this.here(), reason: 'no WARC record starts there' });
    this.garbageFrom = null;
  }

  /** Frames the bytes (re-entered with kept bytes when a Content-Length proves wrong). */
  private consume(bytes: Uint8Array): void {
    let at = 0;
    while (at < bytes.length) {
      switch (this.state) {
        case 'seek': {
          // blank lines between records are passed over; anything else begins a record (or bytes that are none)
          const from = at;
          while (at < bytes.length && (bytes[at] === CR || bytes[at] === LF)) at++;
          this.advance(bytes, from, at);
          if (at < bytes.length) this.beginRecord();
          break;
        }
        case 'header':
          at = this.headerBytes(bytes, at);
          break;
        case 'block':
          at = this.blockBytes(bytes, at);
          break;
        case 'trailer':
          at = this.trailerBytes(bytes, at);
          break;
        case 'resync':
          at = this.resyncBytes(bytes, at);
          break;
      }
    }
  }

  /** Bytes from..to of `bytes` consumed: the position moves on, the recent bytes follow. */
  private advance(bytes: Uint8Array, from: number, to: number): void {
    if (to <= from) return;
    this.position += to - from;
    const keep = this.recent.length;
    if (to - from >= keep) {
      this.recent.set(bytes.subarray(to - keep, to));
      this.recentLength = keep;
      return;
    }
    const count = to - from;
    const old = Math.min(this.recentLength, keep - count);
    this.recent.copyWithin(0, this.recentLength - old, this.recentLength);
    this.recent.set(bytes.subarray(from, to), old);
    this.recentLength = old + count;
  }

  private beginRecord(): void {
    this.number = ++this.records;
    this.offset = this.here();
    this.headerLength = 0;
    this.targetUri = null;
    this.state = 'header';
  }

  /** Header bytes up to its blank line; the version line's `WARC/` checked byte by byte. */
  private headerBytes(bytes: Uint8Array, from: number): number {
    let at = from;
    while (at < bytes.length) {
      const byte = bytes[at];
      if (this.headerLength < WARC_MAGIC.length && byte !== WARC_MAGIC[this.headerLength]) {
        // no record starts here: the stretch up to the next `WARC/` line is said, and holds no record number
        this.advance(bytes, from, at);
        this.records--;
        this.garbageFrom ??= this.offset;
        this.state = 'resync';
        return at;
      }
      if (this.headerLength === MAX_WARC_HEADER_BYTES) {
        this.advance(bytes, from, at);
        this.unread(`its WARC header runs past ${MAX_WARC_HEADER_BYTES / 1024} KiB`);
        this.state = 'resync';
        return at;
      }
      if (this.headerLength === this.header.length) {
        const grown = new Uint8Array(Math.min(MAX_WARC_HEADER_BYTES, this.header.length * 2));
        grown.set(this.header);
        this.header = grown;
      }
      this.header[this.headerLength++] = byte;
      at++;
      // the blank line that ends the header: CRLF CRLF (LF LF is taken too)
      if (byte === LF && (endsWith(this.header, this.headerLength, [CR, LF, CR, LF]) || endsWith(this.header, this.headerLength, [LF, LF]))) {
        this.advance(bytes, from, at);
        this.headerDone();
        return at;
      }
    }
    this.advance(bytes, from, at);
    return at;
  }

  /** The header is whole: its Content-Length says how long the block is. */
  private headerDone(): void {
    const text = latin1.decode(this.header.subarray(0, this.headerLength));
    const firstLine = text.slice(0, text.indexOf('\n')).trim();
    this.targetUri = /^warc-target-uri[ \t]*:[ \t]*<?([^\r\n>]*)>?[ \t]*$/im.exec(text)?.[1]?.trim() ?? null;
    if (!/^WARC\/\d+\.\d+$/.test(firstLine)) {
      this.unread(`its first line is no WARC version (${JSON.stringify(firstLine.slice(0, 40))})`);
      this.state = 'resync';
      return;
    }
    const lengths = [...text.matchAll(/^content-length[ \t]*:[ \t]*([^\r\n]*)$/gim)].map((match) => match[1].trim());
    if (lengths.length !== 1 || !/^\d{1,15}$/.test(lengths[0])) {
      this.unread(lengths.length === 0 ? 'it has no Content-Length' : lengths.length > 1 ? 'it has more than one Content-Length' : `its Content-Length ${JSON.stringify(lengths[0].slice(0, 40))} is no byte count`);
      this.state = 'resync';
      return;
    }
    this.blockLength = Number(lengths[0]);
    this.blockLeft = this.blockLength;
    this.blockHead = new Uint8Array(Math.min(this.blockKeep, this.blockLength));
    this.blockHeadLength = 0;
    this.replay = null;
    this.replayBytes = 0;
    this.replayOverflow = false;
    this.replayFrom = null;
    this.trailerSeen = 0;
    this.state = this.blockLength === 0 ? 'trailer' : 'block';
  }

  /** Block bytes: the head kept, the rest read past; the first line inside it that starts `WARC/` is kept from (replay). */
  private blockBytes(bytes: Uint8Array, from: number): number {
    const to = Math.min(bytes.length, from + this.blockLeft);
    const part = bytes.subarray(from, to);
    if (this.blockHeadLength < this.blockHead.length) {
      const kept = Math.min(part.length, this.blockHead.length - this.blockHeadLength);
      this.blockHead.set(part.subarray(0, kept), this.blockHeadLength);
      this.blockHeadLength += kept;
    }
    if (this.replay !== null) this.keepReplay(part);
    else if (!this.replayOverflow) {
      const start = warcLineStart(this.recent.subarray(0, this.recentLength), part);
      if (start !== null) {
        this.replayFrom = this.position + start;
        this.replay = [];
        this.replayBytes = 0;
        // a W already consumed (the line was cut by the chunk's end) is taken from the recent bytes
        if (start < 0) this.keepReplay(this.recent.subarray(this.recentLength + start, this.recentLength));
        this.keepReplay(part.subarray(Math.max(0, start)));
      }
    }
    this.blockLeft -= part.length;
    this.advance(bytes, from, to);
    if (this.blockLeft === 0) this.state = 'trailer';
    return to;
  }

  private keepReplay(part: Uint8Array): void {
    if (this.replay === null) return;
    if (this.replayBytes + part.length > Math.min(REPLAY_BYTES, this.replayBudget)) {
      this.replay = null;
      this.replayBytes = 0;
      this.replayOverflow = true;
      return;
    }
    this.replay.push(new Uint8Array(part)); // (a copy: part may be a Node Buffer, whose slice is a view)
    this.replayBytes += part.length;
  }

  /** The record's end: CRLF CRLF right after its block, or its Content-Length was wrong. */
  private trailerBytes(bytes: Uint8Array, from: number): number {
    let at = from;
    while (at < bytes.length && this.trailerSeen < TRAILER.length) {
      if (bytes[at] !== TRAILER[this.trailerSeen]) {
        this.advance(bytes, from, at);
        this.wrongLength(bytes.subarray(at));
        return bytes.length;
      }
      this.trailerSeen++;
      at++;
    }
    this.advance(bytes, from, at);
    if (this.trailerSeen === TRAILER.length) {
      this.outputs.push({ kind: 'framed', number: this.number, offset: this.offset, header: this.header.slice(0, this.headerLength), blockHead: this.blockHead.subarray(0, this.blockHeadLength), blockLength: this.blockLength });
      this.replay = null;
      this.replayFrom = null;
      this.state = 'seek';
    }
    return at;
  }

  /** The bytes after the block are not the record's end: the record is abandoned, and `rest` read on. */
  private wrongLength(rest: Uint8Array): void {
    this.abandon(`its Content-Length ${this.blockLength} does not end where the record ends (the bytes after its block are not CRLF CRLF)`);
    this.consume(rest);
  }

  /** Passes over bytes up to the next line that starts `WARC/`, where the next record is taken to begin. */
  private resyncBytes(bytes: Uint8Array, from: number): number {
    const part = bytes.subarray(from);
    const start = warcLineStart(this.recent.subarray(0, this.recentLength), part);
    if (start === null) {
      this.advance(bytes, from, bytes.length);
      return bytes.length;
    }
    if (start < 0) {
      // the line's first bytes were passed over (cut by the chunk's end): they are read again as a record's start
      const again = this.recent.slice(this.recentLength + start, this.recentLength);
      this.position += start;
      this.closeGarbage();
      this.atLineStart();
      this.state = 'seek';
      this.consume(again);
      return from;
    }
    this.advance(bytes, from, from + start);
    this.closeGarbage();
    this.atLineStart();
    this.state = 'seek';
    return from + start;
  }
}

const TRAILER = new Uint8Array([CR, LF, CR, LF]);

/**
 * Where the first line that starts `WARC/` begins, as the index of its W in `bytes`: negative when the W is
 * in `recent` (the bytes just before, at most WARC_LINE.length: a line cut by a chunk's end), null when there is
 * none. Linear: Buffer.indexOf over `bytes`, and a look at the few bytes around their start.
 */
function warcLineStart(recent: Uint8Array, bytes: Uint8Array): number | null {
  // across the seam: the recent bytes and the first few of `bytes`
  const seam = new Uint8Array(recent.length + Math.min(bytes.length, WARC_LINE.length));
  seam.set(recent);
  seam.set(bytes.subarray(0, seam.length - recent.length), recent.length);
  for (let i = 0; i + WARC_LINE.length <= seam.length; i++) {
    let match = true;
    for (let j = 0; j < WARC_LINE.length && match; j++) match = seam[i + j] === WARC_LINE[j];
    // a match wholly inside recent was looked at before; only one that reaches into `bytes` counts
    if (match && i + WARC_LINE.length > recent.length) return i + 1 - recent.length;
  }
  const at = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).indexOf('\nWARC/');
  return at < 0 ? null : at + 1;
}

function endsWith(bytes: Uint8Array, length: number, tail: readonly number[]): boolean {
  if (length < tail.length) return false;
  for (let i = 0; i < tail.length; i++) if (bytes[length - tail.length + i] !== tail[i]) return false;
  return true;
}

/** A framed record read: its headers parsed (warcio), its HTTP head, its payload decoded; or why it cannot be. */
async function recordOf(framed: FramedRecord, payloadBytes: number): Promise<WarcItem> {
  const unread = (reason: string, targetUri: string | null, type: string | null = null): WarcItem => ({ kind: 'unread', number: framed.number, offset: framed.offset, type, targetUri, reason });
  const parsed = await new StatusAndHeadersParser().parse(new AsyncIterReader([framed.header], null), { headersClass: HeadersMultiMap });
  if (parsed === null) return unread('its WARC header cannot be read', null);
  const warcHeaders: [string, string][] = [...(parsed.headers as HeadersMultiMap)].map(([name, value]) => [name, value]);
  const header = (name: string): string | null => warcHeaders.find(([key]) => key.toLowerCase() === name)?.[1]?.trim() ?? null;
  const type = header('warc-type');
  const rawUri = header('warc-target-uri');
  const targetUri = rawUri === null ? null : rawUri.replace(/^<(.*)>$/, '$1');
  const contentType = header('content-type');
  const complete = framed.blockHead.length === framed.blockLength;
  let http: WarcRecordRead['http'] = null;
  let payloadStart = 0;
  if ((type === 'response' || type === 'revisit') && startsWithHttp(framed.blockHead)) {
    const end = headerEnd(framed.blockHead, MAX_HTTP_HEADER_BYTES);
    if (end < 0) {
      if (framed.blockHead.length >= MAX_HTTP_HEADER_BYTES) return unread(`its HTTP header runs past ${MAX_HTTP_HEADER_BYTES / 1024} KiB`, targetUri, type);
      // a revisit may hold its HTTP header without the blank line after it
      if (type !== 'revisit' || !complete) return unread('its HTTP header does not end inside its block', targetUri, type);
    }
    const headBytes = framed.blockHead.subarray(0, end < 0 ? framed.blockHead.length : end);
    const head = await new StatusAndHeadersParser().parse(new AsyncIterReader([headBytes], null), { headersClass: HeadersMultiMap });
    if (head === null) return unread('its HTTP header cannot be read', targetUri, type);
    const statusLine = head.statusline;
    const status = /^HTTP\/\d(?:\.\d)?\s+(\d{3})(?:\s|$)/.exec(statusLine)?.[1];
    http = { statusLine, status: status === undefined ? null : Number(status), headers: [...(head.headers as HeadersMultiMap)].map(([name, value]) => [name, value]) };
    payloadStart = end < 0 ? framed.blockHead.length : end;
  }
  let payload = framed.blockHead.subarray(payloadStart);
  let truncated = !complete;
  if (http !== null) {
    const httpHeader = (name: string): string | null => http?.headers.find(([key]) => key.toLowerCase() === name)?.[1]?.trim() ?? null;
    const chunked = (httpHeader('transfer-encoding') ?? '').toLowerCase() === 'chunked';
    const source: AsyncIterable<Uint8Array> = chunked ? new AsyncIterReader([payload], null, true) : oneChunk(payload);
    // a block kept in part ends before its body does: an encoded body cut there is read as far as it goes
    const decoded = await decodeContent(source, httpHeader('content-encoding'), payloadBytes, { partial: !complete });
    if (decoded.error !== null) return unread(`its payload cannot be read: ${decoded.error}`, targetUri, type);
    payload = decoded.bytes;
    truncated ||= decoded.truncated;
  } else if (payload.length > payloadBytes) {
    payload = payload.subarray(0, payloadBytes);
    truncated = true;
  }
  return { kind: 'record', record: { number: framed.number, offset: framed.offset, warcHeaders, type, targetUri, contentType, http, payload: new Uint8Array(payload), payloadTruncated: truncated } };
}

function startsWithHttp(bytes: Uint8Array): boolean {
  return bytes.length >= 5 && bytes[0] === 0x48 && bytes[1] === 0x54 && bytes[2] === 0x54 && bytes[3] === 0x50 && bytes[4] === 0x2f; // HTTP/
}

/** Where an HTTP header block ends (after its blank line) within the first `limit` bytes, or -1. */
function headerEnd(bytes: Uint8Array, limit: number): number {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.length, limit));
  const crlf = buffer.indexOf('\r\n\r\n');
  const lf = buffer.indexOf('\n\n');
  if (crlf < 0 && lf < 0) return -1;
  if (crlf < 0) return lf + 2;
  if (lf < 0) return crlf + 4;
  return Math.min(crlf + 4, lf + 2);
}

async function* oneChunk(bytes: Uint8Array): AsyncGenerator<Uint8Array> {
  yield bytes;
}
