// A body's Content-Encoding undone, bounded: identity, gzip (x-gzip), deflate (zlib or raw) and br, with
// node's zlib; at most maxBytes decoded bytes kept, and no more read once they are there. The one decoder of
// bodies: robots.txt fetches, pages fetched by robotstxt page, and the pages of WARC records.
import { pipeline } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate, createInflateRaw } from 'node:zlib';

/** What decoding a body gave. */
export interface DecodedBody {
  /** The decoded bytes, at most maxBytes. */
  bytes: Uint8Array;
  /** True when there was more than maxBytes (or the compressed input was cut at its bound): the rest was not read. */
  truncated: boolean;
  /** Why the body cannot be used (an encoding not known, a broken stream); null when it can. */
  error: string | null;
}

/** The encodings decoded (Content-Encoding values, lower case); identity and an empty value mean none. */
export const DECODED_ENCODINGS: readonly string[] = ['identity', 'gzip', 'x-gzip', 'deflate', 'br'];

/** A Content-Encoding value as one name (lower case, trimmed): `gzip`, `identity` for none. Per body. */
export function encodingName(encoding: string | null | undefined): string {
  const name = (encoding ?? '').trim().toLowerCase();
  return name === '' ? 'identity' : name;
}

/**
 * Reads a body's chunks, decoding its Content-Encoding, keeping at most maxBytes decoded bytes and reading no
 * further once it has them: a decompression bomb costs at most maxBytes plus one output chunk. Compressed input
 * is read up to 4 x maxBytes + 64 KiB (a stream that decodes to almost nothing is cut there). An encoding other
 * than DECODED_ENCODINGS (or a list of several) is an error, read no further: the body is never taken as its
 * compressed bytes. `release` is called when the chunks are left unread (an HTTP body is destroyed then);
 * `signal` ends the read; `partial`: the chunks are the body's first bytes only, so a stream that ends early
 * is the body cut, not broken. Per body.
 */
export async function decodeContent(body: AsyncIterable<Uint8Array>, encoding: string | null | undefined, maxBytes: number, options: { release?: () => void; signal?: AbortSignal; partial?: boolean } = {}): Promise<DecodedBody> {
  const name = encodingName(encoding);
  const release = options.release ?? ((): void => undefined);
  const parts: Uint8Array[] = [];
  let length = 0;
  let truncated = false;
  const take = (chunk: Uint8Array): boolean => {
    const room = maxBytes - length;
    if (chunk.length > room) {
      if (room > 0) parts.push(chunk.subarray(0, room));
      length = maxBytes;
      truncated = true;
      return false;
    }
    parts.push(chunk);
    length += chunk.length;
    return true;
  };
  const done = (error: string | null): DecodedBody => ({ bytes: parts.length === 1 ? parts[0] : Buffer.concat(parts, length), truncated, error });
  if (name === 'identity') {
    for await (const chunk of body) if (!take(chunk)) break;
    if (truncated) release();
    return done(null);
  }
  if (!DECODED_ENCODINGS.includes(name)) {
    release();
    return done(`unsupported Content-Encoding '${name.slice(0, 40)}'`);
  }
  const rawLimit = 4 * maxBytes + (64 << 10);
  let raw = 0;
  const chunks = body[Symbol.asyncIterator]();
  const first = await chunks.next();
  if (first.done === true) return done(null); // an empty body, whatever its encoding says
  const firstChunk = first.value;
  const decoder = name === 'gzip' || name === 'x-gzip' ? createGunzip()
    : name === 'br' ? createBrotliDecompress()
    : looksLikeZlib(firstChunk) ? createInflate() : createInflateRaw();
  let cut = false;
  async function* rawChunks(): AsyncGenerator<Uint8Array> {
    let chunk: Uint8Array | null = firstChunk;
    while (chunk !== null) {
      raw += chunk.length;
      if (raw > rawLimit) {
        cut = true;
        return;
      }
      yield chunk;
      const next = await chunks.next();
      chunk = next.done === true ? null : next.value;
    }
  }
  const decoded = pipeline(rawChunks, decoder, () => undefined);
  try {
    for await (const chunk of decoded) {
      if (options.signal?.aborted === true) throw new Error('aborted');
      if (!take(chunk as Uint8Array)) break;
    }
  } catch (error) {
    if (options.signal?.aborted === true) throw error;
    if (cut || (options.partial === true && isCutShort(error))) {
      truncated = true; // the compressed input was cut at its bound (or given in part): what was decoded is kept
      return done(null);
    }
    const code = (error as { code?: string }).code ?? '';
    if (code.startsWith('Z_') || code.startsWith('ERR_')) return done(`broken ${name} body (${(error as Error).message})`);
    throw error;
  } finally {
    decoder.destroy();
    release();
  }
  if (cut) truncated = true;
  return done(null);
}

/** A zlib stream header: CM 8 and a valid check (RFC 1950); else HTTP "deflate" is taken as raw deflate. */
function looksLikeZlib(bytes: Uint8Array): boolean {
  return bytes.length >= 2 && (bytes[0] & 0x0f) === 8 && ((bytes[0] << 8) | bytes[1]) % 31 === 0;
}

/** True for zlib's error of an input that ends before its stream does (gzip, deflate, br). */
function isCutShort(error: unknown): boolean {
  const code = (error as { code?: string }).code ?? '';
  return code === 'Z_BUF_ERROR' || /unexpected end/i.test((error as Error).message ?? '');
}
