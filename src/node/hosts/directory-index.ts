// A robots directory's listing, read once: which names are regular files, which are something else (a
// FIFO, a socket, a device, a folder), and which the listing could not type (a symbolic link). A many-host
// source asks it before touching a file, so that a host without a file costs no system call, a regular file
// is read without a last read of 0 to find its end, and a FIFO named `<host>.txt` is refused by name instead
// of hanging the run on open. Listing costs about a microsecond and a half a name, so a folder is listed only
// once the hosts asked for (and announced: expect) are at least a quarter of the names its size suggests: a
// store of a million origins asked for ten hosts is never listed (each look-up is then 'unsure': opened and
// looked at). The listing is a snapshot: when the folder changes after it (its mtime moves), names it does not
// hold are looked for on disk again, and it is listed anew once that costs little beside the time gone by.
// Per directory source, one; looked up once per host.
import { opendirSync, statSync, type Dirent } from 'node:fs';

/** What the listing says of a name. */
export type ListedKind =
  /** not in the folder (as of a fresh listing): no file to read */
  | 'absent'
  /** a regular file: read it; a short read is its end */
  | 'regular'
  /** open it and look (a symbolic link, a type the file system did not give, or a listing gone stale) */
  | 'unsure'
  /** a folder: refused by name */
  | 'directory'
  /** a FIFO, socket or device: refused by name, never opened (a FIFO's open would wait for a writer) */
  | 'special';

/** Listings of folders with more entries than this are dropped: every name is then 'unsure' (opened as before). */
const MAX_INDEXED_ENTRIES = 4_000_000;
/**
 * A folder's size in bytes per name, at least, on the common file systems (ext4 and xfs: 8 to 12 bytes of
 * record and the name; tmpfs: 20; btrfs: twice the name): its size over this is at least its names.
 */
const FOLDER_BYTES_PER_NAME = 20;
/** A folder of at most this many names (by its size) is listed on first use: it costs a few milliseconds. */
const ALWAYS_LISTED_NAMES = 4096;
/** Else it is listed once the hosts asked for and announced are at least this share of its names. */
const LISTED_AT_SHARE = 4;
/** How often (ms) the folder's mtime is looked at while names are looked up. */
const RECHECK_MS = 250;
/** A stale listing is read again once the time since the last one is this many times what the last one took. */
const RELIST_AFTER_COST = 20;

/** A 32-bit FNV-1a hash of a name's UTF-16 code units, never 0 (0 marks an empty place). */
function nameHash(name: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < name.length; i++) hash = Math.imul(hash ^ name.charCodeAt(i), 0x01000193);
  return (hash ^ (hash >>> 16)) | 1;
}

/**
 * The names of regular files as 32-bit hashes in an open-addressed table (4 to 8 bytes a name, however long):
 * a hit may be a collision with another name, which only costs an open that finds nothing.
 */
class NameHashes {
  private readonly table: Uint32Array;
  private readonly mask: number;
  constructor(hashes: Uint32Array, count: number) {
    let capacity = 16;
    while (capacity < count * 2) capacity *= 2;
    this.table = new Uint32Array(capacity);
    this.mask = capacity - 1;
    for (let i = 0; i < count; i++) {
      const hash = hashes[i];
      let at = hash & this.mask;
      while (this.table[at] !== 0 && this.table[at] !== hash) at = (at + 1) & this.mask;
      this.table[at] = hash;
    }
  }
  has(name: string): boolean {
    const hash = nameHash(name) >>> 0;
    for (let at = hash & this.mask; ; at = (at + 1) & this.mask) {
      const held = this.table[at];
      if (held === 0) return false;
      if (held === hash) return true;
    }
  }
}

interface Listing {
  regular: NameHashes;
  /** Names that are not regular files (or could not be typed), with what they are. */
  others: Map<string, 'unsure' | 'directory' | 'special'>;
  /** A name of a store's origin file (`http@...`, `https@...`) is in the folder. */
  originFiles: boolean;
  /** The folder's mtime (ms) seen just before it was listed. */
  mtimeMs: number;
  /** When it was listed, and how long that took (performance.now ms). */
  listedAt: number;
  costMs: number;
}

function kindOf(entry: Dirent): 'regular' | 'unsure' | 'directory' | 'special' {
  if (entry.isFile()) return 'regular';
  if (entry.isSymbolicLink()) return 'unsure';
  if (entry.isDirectory()) return 'directory';
  if (entry.isFIFO() || entry.isSocket() || entry.isCharacterDevice() || entry.isBlockDevice()) return 'special';
  return 'unsure'; // a type the file system did not say
}

/**
 * Lists a folder: null when it cannot be listed or holds more than MAX_INDEXED_ENTRIES names, 'origin files'
 * when stopAtOriginFile and a store's origin file name came before the listing's end (the listing is dropped).
 */
function list(directory: string, stopAtOriginFile: boolean): Listing | null | 'origin files' {
  const started = performance.now();
  let mtimeMs: number;
  let listing;
  try {
    mtimeMs = statSync(directory).mtimeMs;
    listing = opendirSync(directory, { bufferSize: 1024 });
  } catch {
    return null;
  }
  let hashes = new Uint32Array(1024);
  let count = 0;
  const others = new Map<string, 'unsure' | 'directory' | 'special'>();
  let originFiles = false;
  try {
    for (let entry = listing.readSync(); entry !== null; entry = listing.readSync()) {
      if (count + others.size >= MAX_INDEXED_ENTRIES) return null;
      const name = entry.name;
      if (!originFiles && name.startsWith('http') && /^https?@/.test(name)) {
        if (stopAtOriginFile) return 'origin files';
        originFiles = true;
      }
      const kind = kindOf(entry);
      if (kind !== 'regular') {
        others.set(name, kind);
        continue;
      }
      if (count === hashes.length) {
        const more = new Uint32Array(hashes.length * 2);
        more.set(hashes);
        hashes = more;
      }
      hashes[count++] = nameHash(name) >>> 0;
    }
  } catch {
    return null;
  } finally {
    listing.closeSync();
  }
  return { regular: new NameHashes(hashes, count), others, originFiles, mtimeMs, listedAt: performance.now(), costMs: performance.now() - started };
}

/** One robots directory's listing (see the header). Made once per source; the folder is listed when that pays. */
export class DirectoryIndex {
  /** undefined: not listed yet; null: cannot be listed (or too large): every name is 'unsure'. */
  private listing: Listing | null | undefined = undefined;
  private stale = false;
  private checkedAt = 0;
  /** Names the folder's size suggests (at most), read on first use; and the look-ups asked for and announced. */
  private estimatedNames = -1;
  private wanted = 0;
  /** Whether the folder holds a store's origin files, once known. */
  private originFiles: boolean | null = null;

  constructor(private readonly directory: string) {}

  /** Announces look-ups to come (a many-host matcher's new hosts of a chunk): a folder is listed sooner when many come. */
  expect(lookups: number): void {
    this.wanted += lookups;
  }

  /** What the folder holds under `name` (a file name, no '/'). Per look-up: no system call, but a stat of the folder every RECHECK_MS. */
  lookup(name: string): ListedKind {
    if (this.listing === undefined) {
      this.wanted++;
      if (!this.listingPays()) return 'unsure';
    }
    const listing = this.current();
    if (listing === null) return 'unsure';
    const other = listing.others.get(name);
    if (other !== undefined) return other;
    if (listing.regular.has(name)) return 'regular';
    return this.stale ? 'unsure' : 'absent';
  }

  /**
   * Whether the folder holds a store's origin files (a store written by robotstxt fetch): from its listing.
   * Before it is listed, its names are read until an origin file's comes (a store: said at once; the listing
   * is left for later, when it pays) or the names end (no store: the listing is then made of that read).
   */
  get holdsOriginFiles(): boolean {
    if (this.originFiles === null) {
      if (this.listing === undefined && !this.listingPays()) {
        const found = list(this.directory, true);
        if (found === 'origin files') {
          this.originFiles = true;
          return true;
        }
        this.listing = found;
        this.checkedAt = performance.now();
      }
      const listing = this.current();
      this.originFiles = listing !== null && listing.originFiles;
    }
    return this.originFiles;
  }

  /** Whether listing the folder now costs less than the look-ups it saves (see the header). */
  private listingPays(): boolean {
    if (this.estimatedNames < 0) {
      try {
        this.estimatedNames = Math.ceil(statSync(this.directory).size / FOLDER_BYTES_PER_NAME);
      } catch {
        this.estimatedNames = 0; // not a folder: listing fails at once, every name is then 'unsure'
      }
    }
    return this.estimatedNames <= ALWAYS_LISTED_NAMES || this.wanted * LISTED_AT_SHARE >= this.estimatedNames;
  }

  private current(): Listing | null {
    if (this.listing === undefined) {
      this.listing = list(this.directory, false) as Listing | null;
      this.checkedAt = performance.now();
      return this.listing;
    }
    const now = performance.now();
    if (this.listing === null || now - this.checkedAt < RECHECK_MS) return this.listing;
    this.checkedAt = now;
    if (!this.stale) {
      let mtimeMs: number;
      try {
        mtimeMs = statSync(this.directory).mtimeMs;
      } catch {
        mtimeMs = NaN;
      }
      this.stale = mtimeMs !== this.listing.mtimeMs;
    }
    if (this.stale && now - this.listing.listedAt >= RELIST_AFTER_COST * this.listing.costMs) {
      this.listing = list(this.directory, false) as Listing | null;
      this.stale = false;
    }
    return this.listing;
  }
}
