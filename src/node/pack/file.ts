// A pack file opened in Node: its header and index read and checked at open, and its data area's checksum
// too (streamed through one small buffer: a pack up to WHOLE_CHECK_BYTES is refused before anything is
// answered from it); then each body or blob read where asked, straight into the array that keeps it (a many-host
// matcher's block in its memory). Memory: the index, and what the readers keep, whatever the pack's size. A
// pack is not read whole into memory: on this machine's kernel each new page costs more than the read itself
// (docs/performance.md, "Packs"), and a run uses the blobs of one agent, about a quarter of the data.
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { crc32 as zlibCrc32 } from 'node:zlib';
import { RobotsError } from '../../core/errors.js';
import { RobotsPack, type PackStorage } from '../../core/pack/index.js';
import { fileError } from '../robots-file.js';

const crc32 = (bytes: Uint8Array, crc: number): number => zlibCrc32(bytes, crc);
/** Packs up to this size have their whole data checked at open (about 1.1 s per GiB here); larger ones each piece when first read. */
export const WHOLE_CHECK_BYTES = 1 << 30;
const CHECK_BUFFER_BYTES = 1 << 18;

/** A file read where asked (the index once, at open; then each body or blob as it is needed): exact reads, no page cache. */
class FileStorage implements PackStorage {
  /** Each read gives a new array (RobotsPack keeps it without a copy). */
  readonly fresh = true;
  constructor(private readonly fd: number, readonly size: number, private readonly name: string) {}

  read(offset: number, length: number): Uint8Array {
    const bytes = new Uint8Array(length);
    this.readInto(offset, bytes);
    return bytes;
  }

  readInto(offset: number, target: Uint8Array): void {
    const length = target.length;
    if (offset < 0 || offset + length > this.size) throw new RobotsError('PACK_INVALID', `${this.name} is damaged: a read past its end (rebuild it with robotstxt pack)`);
    let read = 0;
    try {
      while (read < length) {
        const got = readSync(this.fd, target, read, length - read, offset + read);
        if (got === 0) break;
        read += got;
      }
    } catch (error) {
      throw fileError(this.name, 'pack', error);
    }
    if (read < length) throw new RobotsError('PACK_INVALID', `${this.name} is cut: it ended while being read (rebuild it with robotstxt pack)`);
  }

  checksum(offset: number, length: number, crc: (bytes: Uint8Array, crc: number) => number): number {
    const buffer = new Uint8Array(Math.min(CHECK_BUFFER_BYTES, Math.max(1, length)));
    let sum = 0;
    for (let at = 0; at < length; at += buffer.length) {
      const piece = buffer.subarray(0, Math.min(buffer.length, length - at));
      this.readInto(offset + at, piece);
      sum = crc(piece, sum);
    }
    return sum;
  }

  close(): void {
    try { closeSync(this.fd); } catch { /* closed */ }
  }
}

/** A pack opened from a file, and how to give its file back. */
export interface OpenedPack {
  pack: RobotsPack;
  close(): void;
}

/**
 * Opens a pack file (its header, index and, up to WHOLE_CHECK_BYTES, its whole data checked; then read where
 * asked). A file that is no pack, is cut or damaged, or was packed by another version is refused
 * (PACK_INVALID, one sentence naming it); a file that cannot be read, FILE_UNREADABLE. Once per run (a second
 * open of the same path in a thread reuses the first). dataCheckOwed: the whole data's check (up to
 * WHOLE_CHECK_BYTES) is left to the reader (RobotsPack.verifyData, or agentBlobsInto as it reads them for a matcher that holds: one
 * read of them instead of two).
 */
export function openPackFile(path: string, options: { dataCheckOwed?: boolean } = {}): OpenedPack {
  const owed = options.dataCheckOwed === true;
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (error) {
    throw fileError(path, 'pack', error);
  }
  let size: number;
  let key: string;
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) throw new RobotsError('FILE_UNREADABLE', `cannot read pack '${path}': ${stat.isDirectory() ? 'is a directory' : 'not a regular file'}`);
    size = stat.size;
    // (the same file as opened before: a pack rebuilt under the same name is a new file, opened anew)
    key = `${path}\0${stat.dev}:${stat.ino}:${stat.mtimeMs}:${size}${owed ? '\0owed' : ''}`;
  } catch (error) {
    closeSync(fd);
    if (error instanceof RobotsError) throw error;
    throw fileError(path, 'pack', error);
  }
  const known = openedFiles.get(key);
  if (known !== undefined) {
    closeSync(fd);
    return known;
  }
  const storage = new FileStorage(fd, size, `'${path}'`);
  let result: OpenedPack;
  try {
    result = { pack: RobotsPack.open(storage, { name: `'${path}'`, crc32, verifyData: size > WHOLE_CHECK_BYTES ? false : owed ? 'owed' : true }), close: () => { openedFiles.delete(key); storage.close(); } };
  } catch (error) {
    storage.close();
    throw error;
  }
  openedFiles.set(key, result);
  return result;
}

/** Packs this thread has open, by path and file identity: a second open of one (check's own check, then its matcher) reuses it. */
const openedFiles = new Map<string, OpenedPack>();
