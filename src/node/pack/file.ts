// A pack file opened in Node: read whole when it fits the memory given (every checksum checked at once, with
// zlib's native CRC-32), else read where asked (the index whole at open; each body or blob when it is needed,
// checked when first read). Memory: the index, and the bodies the reader holds, whatever the pack's size.
import { closeSync, fstatSync, openSync, readFileSync, readSync } from 'node:fs';
import { crc32 as zlibCrc32 } from 'node:zlib';
import { RobotsError } from '../../core/errors.js';
import { RobotsPack, bytesStorage, type PackStorage } from '../../core/pack/index.js';
import { fileError } from '../robots-file.js';

const crc32 = (bytes: Uint8Array): number => zlibCrc32(bytes);

/** A file read where asked (the index once, at open; then each body or blob as it is needed): exact reads, no page cache. */
class FileStorage implements PackStorage {
  /** Each read gives a new array (RobotsPack keeps it without a copy). */
  readonly fresh = true;
  constructor(private readonly fd: number, readonly size: number, private readonly name: string) {}

  read(offset: number, length: number): Uint8Array {
    if (offset < 0 || offset + length > this.size) throw new RobotsError('PACK_INVALID', `${this.name} is damaged: a read past its end (rebuild it with robotstxt pack)`);
    const bytes = new Uint8Array(length);
    let read = 0;
    try {
      while (read < length) {
        const got = readSync(this.fd, bytes, read, length - read, offset + read);
        if (got === 0) break;
        read += got;
      }
    } catch (error) {
      throw fileError(this.name, 'pack', error);
    }
    if (read < length) throw new RobotsError('PACK_INVALID', `${this.name} is cut: it ended while being read (rebuild it with robotstxt pack)`);
    return bytes;
  }

  close(): void {
    try { closeSync(this.fd); } catch { /* closed */ }
  }
}

/** A pack opened from a file, and how to give its memory back. */
export interface OpenedPack {
  pack: RobotsPack;
  /** True when the file was read whole. */
  whole: boolean;
  close(): void;
}

/**
 * Opens a pack file: read whole when it is at most `memoryBytes`, else in pages (a page budget of a quarter of
 * memoryBytes, at least 1 MiB). A file that is no pack, is cut or damaged, or was packed by another version
 * is refused (PACK_INVALID, one sentence naming it); a file that cannot be read, FILE_UNREADABLE. Once per run.
 */
export function openPackFile(path: string, memoryBytes: number): OpenedPack {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (error) {
    throw fileError(path, 'pack', error);
  }
  let size: number;
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) throw new RobotsError('FILE_UNREADABLE', `cannot read pack '${path}': ${stat.isDirectory() ? 'is a directory' : 'not a regular file'}`);
    size = stat.size;
  } catch (error) {
    closeSync(fd);
    if (error instanceof RobotsError) throw error;
    throw fileError(path, 'pack', error);
  }
  const name = `'${path}'`;
  const key = `${path}\0${size <= memoryBytes ? 'whole' : 'paged'}`;
  const known = openedFiles.get(key);
  if (known !== undefined) {
    closeSync(fd);
    return known;
  }
  let result: OpenedPack;
  if (size <= memoryBytes) {
    let bytes: Uint8Array;
    try {
      bytes = readFileSync(fd);
    } catch (error) {
      throw fileError(path, 'pack', error);
    } finally {
      closeSync(fd);
    }
    result = { pack: RobotsPack.open(bytesStorage(bytes), { name, verifyData: true, crc32 }), whole: true, close: () => { openedFiles.delete(key); } };
  } else {
    const storage = new FileStorage(fd, size, name);
    try {
      result = { pack: RobotsPack.open(storage, { name, crc32 }), whole: false, close: () => { openedFiles.delete(key); storage.close(); } };
    } catch (error) {
      storage.close();
      throw error;
    }
  }
  openedFiles.set(key, result);
  return result;
}

/** Packs this thread has open, by path and how they were read: a second open of one (check's own check, then its matcher) reuses it. */
const openedFiles = new Map<string, OpenedPack>();

