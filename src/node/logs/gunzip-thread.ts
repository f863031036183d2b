// A gzip file inflated on a thread of its own, ahead of its reader: the reader's thread answers a window of
// lines while the next is inflated. (Inflated on the main thread by a zlib stream, each 256 KiB piece needed
// the main thread between two pieces, so little was inflated while a window was answered: a .gz input took
// 1.13-1.26x a plain file's time.) The thread runs a small script of its own (node:fs, node:zlib): no
// bundle to find at run time. Its output comes as pieces of PIECE_BYTES, at most PIECES_AHEAD of them not yet
// taken (memory: those pieces, whatever the file's size). Used for gzip files of GZIP_THREAD_MIN_BYTES or
// more (line-reader.ts).
import { Worker } from 'node:worker_threads';
import { Readable } from 'node:stream';

/** Bytes of inflated output in one piece sent to the reader. */
const PIECE_BYTES = 4 << 20;
/** Pieces' worth of bytes the thread may have inflated that the reader has not taken yet. */
const PIECES_AHEAD = 3;

const SCRIPT = `
const { parentPort, workerData } = require('node:worker_threads');
const { createGunzip } = require('node:zlib');
const { read } = require('node:fs');
const { fd, head, pieceBytes, ahead } = workerData;
const gunzip = createGunzip({ chunkSize: 1 << 18 });
let outstanding = 0; // bytes sent that the reader has not taken
const limit = ahead * pieceBytes;
let raw = head.length;
let piece = new Uint8Array(pieceBytes);
let filled = 0;
const send = () => {
  if (filled === 0) return;
  const out = filled === piece.length ? piece : piece.slice(0, filled);
  outstanding += out.length;
  parentPort.postMessage({ bytes: out, raw }, [out.buffer]);
  piece = new Uint8Array(pieceBytes);
  filled = 0;
};
gunzip.on('data', (chunk) => {
  let at = 0;
  while (at < chunk.length) {
    const n = Math.min(chunk.length - at, piece.length - filled);
    piece.set(chunk.subarray(at, at + n), filled);
    filled += n;
    at += n;
    if (filled === piece.length) send();
  }
  if (outstanding >= limit) gunzip.pause();
});
gunzip.on('end', () => { send(); parentPort.postMessage({ end: true, raw }); parentPort.close(); });
gunzip.on('error', (error) => { parentPort.postMessage({ error: error.message, code: error.code }); parentPort.close(); });
parentPort.on('message', (taken) => { outstanding -= taken; if (outstanding < limit) gunzip.resume(); });
// the file read on from where the reader's first bytes left it (never closed here: the reader owns the fd)
const pump = () => read(fd, Buffer.allocUnsafe(1 << 20), 0, 1 << 20, null, (error, count, bytes) => {
  if (error) { parentPort.postMessage({ error: error.message, code: error.code }); parentPort.close(); return; }
  if (count === 0) { gunzip.end(); return; }
  raw += count;
  if (gunzip.write(bytes.subarray(0, count))) pump();
  else gunzip.once('drain', pump);
});
gunzip.write(head);
pump();
`;

/**
 * The inflated bytes of a gzip file (fd, after its first bytes `head`, already read), as a stream in paused
 * mode inflated by a thread; onRaw is told the compressed bytes read so far. An error of the file or of its
 * data comes as the stream's error (the message zlib gave). Destroying the stream ends the thread; `exited`
 * resolves when it has ended (the fd may be closed then, not before: the thread reads it). Once per gzip
 * file read.
 */
export function gunzipOnThread(fd: number, head: Uint8Array, onRaw: (bytes: number) => void): { stream: Readable; exited: Promise<void> } {
  const worker = new Worker(SCRIPT, { eval: true, workerData: { fd, head, pieceBytes: PIECE_BYTES, ahead: PIECES_AHEAD } });
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  let ended = false;
  const stream = new Readable({
    highWaterMark: PIECE_BYTES,
    read() { /* pieces come as the thread sends them; each taken gives it one more (see below) */ },
    destroy(error, callback) {
      if (!ended) void worker.terminate();
      callback(error);
    },
  });
  // the thread is told each time the reader takes bytes: it stays at most PIECES_AHEAD pieces ahead
  const read = stream.read.bind(stream);
  stream.read = (size?: number) => {
    const taken = read(size) as Buffer | null;
    if (taken !== null && taken.length > 0 && !ended) worker.postMessage(taken.length);
    return taken;
  };
  worker.on('message', (message: { bytes?: Uint8Array; raw: number; end?: boolean; error?: string; code?: string }) => {
    if (message.error !== undefined) {
      ended = true;
      stream.destroy(Object.assign(new Error(message.error), { code: message.code }));
      return;
    }
    onRaw(message.raw);
    if (message.bytes !== undefined) stream.push(Buffer.from(message.bytes.buffer, message.bytes.byteOffset, message.bytes.length));
    if (message.end === true) {
      ended = true;
      stream.push(null);
    }
  });
  worker.on('error', (error) => stream.destroy(error));
  return { stream, exited };
}
