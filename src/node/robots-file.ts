// Reading robots.txt files from disk: the one reader every command and source uses. It reads at most the
// bytes that will be parsed (the size limit plus one, so that a longer file is known to be cut), never the
// whole of a huge file, /dev/zero or a FIFO that never ends.
import { closeSync, constants as fsConstants, fstatSync, mkdirSync, openSync, readSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { RobotsError } from '../core/errors.js';
import { DEFAULT_MAX_BYTES } from '../core/constants.js';
import { MAX_COMPILE_BYTES } from '../core/engine.js';
import { parseRobots, type RobotsReading, type RobotsTxt } from '../core/robots.js';

/** The error for a file that cannot be read: "cannot read <what> '<path>': <reason>". */
export function fileError(path: string, what: string, error: unknown): RobotsError {
  const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
  return new RobotsError('FILE_UNREADABLE', `cannot read ${what} '${path}': ${describeErrno(reason)}`, { cause: error });
}

/**
 * Errors of a look-up that mean "there is no such file": none by that name, a name the file system refuses
 * (too long, a character it cannot hold), a path through something that is not a directory. A host the file
 * system cannot name is a host without a file: its URLs get the missing policy, and the run goes on.
 */
const NO_SUCH_FILE_CODES = new Set(['ENOENT', 'ENAMETOOLONG', 'ENOTDIR', 'EINVAL', 'EILSEQ']);

/** True when an error of a file look-up (or a fileError made of one) means the file does not exist. */
export function meansNoSuchFile(error: unknown): boolean {
  const cause = error instanceof RobotsError ? error.cause : error;
  return NO_SUCH_FILE_CODES.has((cause as NodeJS.ErrnoException | undefined)?.code ?? '');
}

/** A file that cannot be written (a report, a store file), named, as a FILE_UNWRITABLE RobotsError. */
export function fileWriteError(path: string, what: string, error: unknown): RobotsError {
  const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
  return new RobotsError('FILE_UNWRITABLE', `cannot write ${what} '${path}': ${code === 'ENOENT' ? 'no such directory' : describeErrno(code)}`);
}

/** A file system error code in plain words (the code kept in parentheses for the ones not listed). Per error. */
export function describeErrno(code: string): string {
  switch (code) {
    case 'ENOSPC': return 'no space left on device';
    case 'EDQUOT': return 'disk quota exceeded';
    case 'EROFS': return 'read-only file system';
    case 'ENOENT': return 'no such file';
    case 'EACCES': case 'EPERM': return 'permission denied';
    case 'EISDIR': return 'is a directory';
    case 'ENOTDIR': return 'a part of the path is not a directory';
    case 'ENAMETOOLONG': return 'file name too long';
    case 'EMFILE': case 'ENFILE': return 'too many open files';
    case 'EIO': return 'input/output error';
    case 'ELOOP': return 'too many symbolic links';
    case 'EINVAL': return 'not a file this command can use';
    default: return /^E[A-Z]+$/.test(code) ? `system error ${code}` : code;
  }
}

/**
 * The robots.txt at path read as the reference's robots_main reads it (`robotstxt test`, one case or a
 * batch): the whole file, or its first maxBytes when maxBytes > 0. A file read whole that is larger than one
 * compile takes is INPUT_TOO_LARGE naming the file (bytesToRead's rule), never answered from its first part.
 * Called once per file.
 */
export function readRobotsLikeRobotsMain(path: string, reading: RobotsReading): RobotsTxt {
  // (the read stops one byte past the limit, and parseRobots applies the rule)
  try {
    return parseRobots(readFileBounded(path, readLimit(reading.maxBytes)), reading);
  } catch (error) {
    if (error instanceof RobotsError && error.code === 'INPUT_TOO_LARGE') throw new RobotsError('INPUT_TOO_LARGE', `robots file '${path}': ${error.message}`);
    throw error;
  }
}

/** Bytes read for a size limit: the limit plus one (0 = no limit: up to what the core can compile, plus one). */
export function readLimit(maxBytes: number): number {
  return (maxBytes > 0 ? maxBytes : MAX_COMPILE_BYTES) + 1;
}

const CHUNK = 1 << 16;

/**
 * A buffer that file reads reuse (a many-host source reads thousands of files): it grows to the largest file
 * read so far (up to the read limit) and is never zero-filled again. A body read into it is valid until the
 * next read.
 */
export class ReadBuffer {
  bytes: Uint8Array;
  constructor(initialBytes = CHUNK) {
    this.bytes = new Uint8Array(initialBytes);
  }
  /** Makes the buffer at least `bytes` long (growing by half at least, but never past `limit`), keeping its first `keep` bytes. */
  ensure(bytes: number, limit: number, keep = 0): Uint8Array {
    if (this.bytes.length < bytes) {
      const bigger = new Uint8Array(Math.max(bytes, Math.min(limit, Math.ceil(this.bytes.length * 1.5))));
      if (keep > 0) bigger.set(this.bytes.subarray(0, keep));
      this.bytes = bigger;
    }
    return this.bytes;
  }
}

/**
 * What a reader knows of a file before opening it: nothing ('any': read until a read gives nothing), that it
 * is a regular file ('regular', from a directory listing: a short read is its end), that it must be looked
 * at first ('check': opened without blocking and refused unless it is a regular file), or that it is a file
 * of a store, which this program writes ('own': as 'check', and never read through a symbolic link), or
 * that a folder's listing said it is a regular file, not a link ('listed': opened without blocking, read as
 * 'regular' without asking its size; a file swapped for a FIFO since fails its read and is said, a device is
 * read up to the limit).
 */
export type FileKind = 'any' | 'regular' | 'check' | 'own' | 'listed';

/** The error for a file that is a folder, FIFO, socket or device where a regular file is read (FILE_UNREADABLE, naming it). */
/**
 * The one check that a folder given is a readable directory (a robots folder, a store, a history folder):
 * FILE_UNREADABLE about `option` (its API name; the command line says its flag) when it is not. Once per folder given.
 */
export function requireDirectory(path: string, option: string): void {
  let isDirectory = false;
  try {
    isDirectory = statSync(path).isDirectory();
  } catch {
    isDirectory = false;
  }
  if (!isDirectory) throw RobotsError.about('FILE_UNREADABLE', { name: option }, (said) => `${said} '${path}' is not a readable directory`);
}

/** True when the bytes start a gzip stream (1f 8b): how a .gz log or a .warc.gz is told from plain text, whatever its name. The one test of the magic. */
export function isGzip(bytes: Uint8Array): boolean {
  return bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b;
}

export function notRegularFile(path: string, what: string, directory: boolean): RobotsError {
  return new RobotsError('FILE_UNREADABLE', `cannot read ${what} '${path}': ${directory ? 'is a directory' : 'not a regular file (a pipe, a device or a socket)'}`);
}

/**
 * Reads at most `limit` bytes of the file at path into a new buffer (or into `into`, returning a view of
 * it, valid until its next use). A missing file is an error naming it (FILE_UNREADABLE). Called once per
 * robots file.
 */
export function readFileBounded(path: string, limit: number, what = 'robots file', into: ReadBuffer | null = null, kind: FileKind = 'any'): Uint8Array {
  let fd: number;
  try {
    // (opened without blocking when it must be looked at first: a FIFO never holds the run on its open)
    fd = openSync(path, kind === 'check' || kind === 'own' || kind === 'listed' ? fsConstants.O_RDONLY | (fsConstants.O_NONBLOCK ?? 0) | (kind === 'own' ? fsConstants.O_NOFOLLOW ?? 0 : 0) : 'r');
  } catch (error) {
    if (kind === 'own' && (error as NodeJS.ErrnoException).code === 'ELOOP') throw new RobotsError('FILE_UNREADABLE', `cannot read ${what} '${path}': it is a symbolic link (a store's files are never read through links)`, { cause: error });
    throw fileError(path, what, error);
  }
  try {
    // a new buffer is sized by the file's size (up to the limit); a reused one is read into as it is, and
    // the file read until a read gives nothing (a read that returns 0 costs less than asking for the size),
    // or, for a file known to be regular, until a read gives less than asked for
    let size = 0;
    if (into === null || kind === 'check' || kind === 'own') {
      try {
        const stat = fstatSync(fd);
        if ((kind === 'check' || kind === 'own') && !stat.isFile()) throw notRegularFile(path, what, stat.isDirectory());
        size = stat.isFile() ? stat.size : 0;
      } catch (error) {
        if (error instanceof RobotsError) throw error;
        throw fileError(path, what, error);
      }
    }
    const regular = size > 0 || kind === 'regular' || kind === 'listed';
    // a regular file: its size (up to the limit); anything else (a pipe, /dev/zero): read until the limit
    const first = size > 0 ? Math.min(size + 1, limit) : Math.min(CHUNK, limit);
    const target = into ?? new ReadBuffer(first);
    let buffer = target.ensure(first, limit);
    let length = 0;
    while (length < limit) {
      if (length === buffer.length) buffer = target.ensure(Math.min(limit, buffer.length * 2), limit, length);
      let read: number;
      const wanted = Math.min(buffer.length, limit) - length;
      try {
        // (reading a directory fails here: EISDIR)
        read = readSync(fd, buffer, length, wanted, null);
      } catch (error) {
        throw fileError(path, what, error);
      }
      if (read === 0) break;
      length += read;
      // a regular file that gave less than asked for has ended (no second read to learn it)
      if (regular && read < wanted) break;
    }
    return buffer.subarray(0, length);
  } finally {
    closeSync(fd);
  }
}

/**
 * The whole of a file a user names that must be a regular file of at most `limit` bytes (a crawler range
 * file, a JSON config): a FIFO, a device (/dev/zero) or a directory is refused before a byte is read, never
 * waited on (it is opened without blocking, then checked), and so is a larger file, from its size, without
 * reading it. Errors name the file (FILE_UNREADABLE, or INPUT_TOO_LARGE). Called once per file.
 */
export function readRegularFile(path: string, limit: number, what: string): Uint8Array {
  let fd: number;
  try {
    fd = openSync(path, fsConstants.O_RDONLY | (fsConstants.O_NONBLOCK ?? 0));
  } catch (error) {
    throw fileError(path, what, error);
  }
  try {
    let size: number;
    try {
      const stat = fstatSync(fd);
      if (!stat.isFile()) throw notRegularFile(path, what, stat.isDirectory());
      size = stat.size;
    } catch (error) {
      if (error instanceof RobotsError) throw error;
      throw fileError(path, what, error);
    }
    const tooLarge = (bytes: string): RobotsError => new RobotsError('INPUT_TOO_LARGE', `cannot read ${what} '${path}': ${bytes} bytes, more than the ${limit} a ${what} may have`);
    if (size > limit) throw tooLarge(String(size));
    const buffer = new Uint8Array(Math.min(size, limit) + 1);
    let length = 0;
    while (length < buffer.length) {
      let read: number;
      try {
        read = readSync(fd, buffer, length, buffer.length - length, null);
      } catch (error) {
        throw fileError(path, what, error);
      }
      if (read === 0) break;
      length += read;
    }
    if (length > limit) throw tooLarge(`more than ${limit}`); // it grew while read
    return buffer.subarray(0, length);
  } finally {
    closeSync(fd);
  }
}

/**
 * The robots.txt bytes of a file that may not exist: null when there is none (meansNoSuchFile: no such
 * file, a name the file system refuses); any other failure is an error naming it. Reads at most `limit`
 * bytes (see readLimit) into `into` when given (the bytes are then valid until the next call with it).
 * kind: see FileKind. A file of unknown kind is opened straight away (no stat first) while most files exist;
 * once most of them do not, it is asked for with a stat first, which costs less than the exception of a
 * failed open.
 */
export function readRobotsFileIfExists(path: string, limit: number, into: ReadBuffer | null = null, kind: FileKind = 'any'): Uint8Array | null {
  if (kind !== 'regular' && missRatio.misses * 2 > missRatio.lookups) {
    let stat;
    try {
      stat = statSync(path, { throwIfNoEntry: false });
    } catch (error) {
      if (meansNoSuchFile(error)) return countLookup(null);
      throw fileError(path, 'robots file', error);
    }
    if (stat === undefined) return countLookup(null);
  }
  try {
    return countLookup(readFileBounded(path, limit, 'robots file', into, kind));
  } catch (error) {
    if (meansNoSuchFile(error)) return countLookup(null);
    throw error;
  }
}
/** Recent look-ups and misses (halved now and then, so the choice follows the input). */
const missRatio = { lookups: 0, misses: 0 };

function countLookup(found: Uint8Array | null): Uint8Array | null {
  missRatio.lookups++;
  if (found === null) missRatio.misses++;
  if (missRatio.lookups >= 1024) {
    missRatio.lookups >>= 1;
    missRatio.misses >>= 1;
  }
  return found;
}

/** The default read limit (500 KiB plus one byte). */
export const DEFAULT_READ_LIMIT = readLimit(DEFAULT_MAX_BYTES);

/**
 * Makes a directory and its missing parents one at a time. (Node's recursive mkdir never returns on some
 * paths, such as /proc/x on Linux; this stops at the first component that cannot be made, with its error.)
 */
export function makeDirectory(directory: string): void {
  const missing: string[] = [];
  for (let path = resolve(directory); ; path = dirname(path)) {
    if (statSync(path, { throwIfNoEntry: false }) !== undefined) break;
    missing.push(path);
    if (dirname(path) === path || missing.length > 256) break;
  }
  for (const path of missing.reverse()) {
    try {
      mkdirSync(path);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
}
