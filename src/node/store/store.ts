// A robots.txt store on disk: the --robots-dir layout plus what a crawler remembers per origin.
//
//   <dir>/<key>.txt    the body the origin served (Content-Encoding decoded, at most the size limit), byte
//                      for byte; present while the kept answer is a body (RobotsStore.write removes it when
//                      the origin answers 4xx)
//   <dir>/<key>.json   the OriginRecord (fetch-rules.ts) as JSON, times as ISO 8601 strings, with
//                      "format": "robotstxt-wasm/store/1"
//
// <key> is the origin's file key (src/core/url-model.ts: `https@example.com`, `http@127.0.0.1@8080`; lower case,
// IDN in xn-- form, no trailing dot; never '/', '\', ':' or NUL, so valid on Windows too), so no file name
// leaves the directory, and http and https of one host are kept apart. A key longer than STORE_NAME_BYTES
// (a host of some 200 bytes or more, which any log line can name) is stored under its first bytes and a hash
// of the whole key (storeFileName): every origin has a name that fits, and its record names the origin. Every
// write goes to a temporary file of a short name in the same directory and is renamed over the old one: a
// crash or a concurrent run leaves each file whole (old or new). check --robots-dir reads the same files: a
// body when there is one, else the record's effect.
import { renameSync, rmSync, writeFileSync, readdirSync, existsSync, statSync, lstatSync } from 'node:fs';
import { join } from 'node:path';
import { randomBytes, createHash } from 'node:crypto';
import { RobotsError } from '../../core/errors.js';
import { wholeNumberArgument } from '../../core/arguments.js';
import { readFileBounded, readLimit, describeErrno, makeDirectory, meansNoSuchFile, requireDirectory } from '../robots-file.js';
import { effectOfStored, type OriginRecord, type FetchOutcome } from '../../core/fetch-rules.js';
import { HeldLock } from './origin-lock.js';

export const STORE_FORMAT = 'robotstxt-wasm/store/1';
/** A record is a few hundred bytes; more than this is not a record. */
const RECORD_LIMIT = 64 << 10;
const OUTCOMES: readonly FetchOutcome[] = ['ok', 'not-modified', 'not-found', 'unreachable'];

/**
 * Longest key stored under its own name: with `.json` it stays under the 255 bytes file systems take. A
 * longer key is named by its first STORE_NAME_PREFIX_BYTES and a hash of all of it (storeFileName).
 */
export const STORE_NAME_BYTES = 200;
const STORE_NAME_PREFIX_BYTES = 150;

/**
 * The file name (without extension) of a key (an origin's file key, or a `host` / `host:port` of a robots
 * directory) in a store: the key itself, or for a long one its first bytes, `~` and 40 hex digits of its
 * SHA-256 (no key of the URL model has `~`). The one naming rule for writing and reading; INVALID_ARGUMENT for
 * a key no URL gives ('/', '\\', NUL, '.', '..', empty). Per look-up.
 */
export function storeFileName(key: string): string {
  if (key === '' || key === '.' || key === '..' || /[/\\\0]/.test(key)) throw new RobotsError('INVALID_ARGUMENT', `not a host key for the store: ${JSON.stringify(key.slice(0, 80))}`);
  if (Buffer.byteLength(key) <= STORE_NAME_BYTES) return key;
  const prefix = Buffer.from(key).subarray(0, STORE_NAME_PREFIX_BYTES).toString('latin1').replace(/[^\x21-\x7e]/g, '_');
  return `${prefix}~${createHash('sha256').update(key).digest('hex').slice(0, 40)}`;
}

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());
/** A time to the second, as versions are timed: 2026-11-12T10:00:00Z. */
const secondIso = (ms: number): string => new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');
/** A time as a file name valid everywhere (no colons): 2026-11-12T10-00-00.000Z. */
const timeFileName = (ms: number): string => new Date(ms).toISOString().replace('.000Z', 'Z').replace(/:/g, '-');

/** A record as JSON text (one place for the file format). */
export function recordJson(record: OriginRecord): string {
  return JSON.stringify({
    format: STORE_FORMAT,
    ...record,
    checkedAt: iso(record.checkedAt),
    keptAt: iso(record.keptAt),
    failingSince: iso(record.failingSince),
  }, null, 2) + '\n';
}

/** A record from its JSON text; throws a RobotsError naming `path` when the text is not one. */
export function parseRecordJson(text: string, path: string): OriginRecord {
  const bad = (why: string): RobotsError => new RobotsError('FILE_UNREADABLE', `store record '${path}' is not valid: ${why}`);
  let value: Record<string, unknown>;
  try {
    value = JSON.parse(text) as Record<string, unknown>;
  } catch (error) {
    throw bad((error as Error).message);
  }
  if (value === null || typeof value !== 'object' || value.format !== STORE_FORMAT) throw bad(`"format" is not "${STORE_FORMAT}"`);
  const time = (name: string, nullable: boolean): number | null => {
    const field = value[name];
    if (field === null && nullable) return null;
    const ms = typeof field === 'string' ? Date.parse(field) : NaN;
    if (!Number.isFinite(ms)) throw bad(`"${name}" is not an ISO time`);
    return ms;
  };
  const text_ = (name: string, nullable: boolean): string | null => {
    const field = value[name];
    if (field === null && nullable) return null;
    if (typeof field !== 'string') throw bad(`"${name}" is not a string`);
    return field;
  };
  const count = (name: string, nullable: boolean): number | null => {
    const field = value[name];
    if (field === null && nullable) return null;
    if (typeof field !== 'number' || !Number.isInteger(field) || field < 0) throw bad(`"${name}" is not a whole number`);
    return field;
  };
  const outcome = value.outcome as FetchOutcome;
  if (!OUTCOMES.includes(outcome)) throw bad('"outcome" is not ok, not-modified, not-found or unreachable');
  const kept = value.kept;
  if (kept !== 'body' && kept !== 'allow-all' && kept !== 'none') throw bad('"kept" is not body, allow-all or none');
  const mode = value.mode;
  if (mode !== 'google' && mode !== 'rfc') throw bad('"mode" is not google or rfc');
  return {
    origin: text_('origin', false) as string,
    url: text_('url', false) as string,
    mode,
    checkedAt: time('checkedAt', false) as number,
    outcome,
    status: count('status', false) as number,
    error: text_('error', true),
    finalUrl: text_('finalUrl', false) as string,
    hops: count('hops', false) as number,
    kept,
    keptAt: time('keptAt', true),
    etag: text_('etag', true),
    lastModified: text_('lastModified', true),
    cacheMaxAgeMs: count('cacheMaxAgeMs', true),
    failingSince: time('failingSince', true),
    failures: count('failures', false) as number,
  };
}

/** The record of `key` in the store at `directory`, or null when there is none. Throws naming a bad file. */
export function readStoredRecord(directory: string, key: string): OriginRecord | null {
  const path = join(directory, `${storeFileName(key)}.json`);
  try {
    if (statSync(path, { throwIfNoEntry: false }) === undefined) return null;
  } catch (error) {
    if (meansNoSuchFile(error)) return null; // a name the file system refuses: no such record
    throw new RobotsError('FILE_UNREADABLE', `cannot read store record '${path}': ${describeErrno((error as NodeJS.ErrnoException).code ?? (error as Error).message)}`, { cause: error });
  }
  let bytes: Uint8Array;
  try {
    bytes = readFileBounded(path, RECORD_LIMIT + 1, 'store record', null, 'own');
  } catch (error) {
    if (meansNoSuchFile(error)) return null;
    throw error;
  }
  if (bytes.length > RECORD_LIMIT) throw new RobotsError('FILE_UNREADABLE', `store record '${path}' is not valid: longer than ${RECORD_LIMIT} bytes`);
  return parseRecordJson(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString('utf8'), path);
}

/** The versions file's format tag. */
export const VERSIONS_FORMAT = 'robotstxt-wasm/store-versions/1';
/** Versions kept per origin unless the store is told otherwise (RobotsStore keepVersions, fetch --keep-versions). */
export const DEFAULT_KEPT_VERSIONS = 50;
/** The most versions an origin may keep. */
export const MAX_KEPT_VERSIONS = 10_000;

/**
 * One version of an origin's robots.txt in the store: what it was (a body, or an effect without one), when a
 * fetch first saw it and last saw it, with the status and validators of the fetch that first brought it.
 * Versions live in `<dir>/<name>.versions/`: `index.json` ({format, origin, versions: [...]}, oldest first) and
 * one `<time>.txt` per version with a body; the store's current files stay where they are, so older readers
 * read the newest version as before.
 */
export interface StoredVersion {
  /** When a fetch first saw it (ISO 8601): the time it is taken to be in force from. */
  firstSeen: string;
  /** When a fetch last saw it (ISO 8601). */
  lastSeen: string;
  effect: 'rules' | 'allow-all' | 'disallow-all';
  /** The body's file in the versions folder (effect rules), else null. */
  body: string | null;
  /** SHA-256 of the body (hex), else null. */
  sha256: string | null;
  status: number;
  etag: string | null;
  lastModified: string | null;
}

/** An origin's versions as the store keeps them. */
export interface StoredVersions {
  format: string;
  origin: string;
  versions: StoredVersion[];
}

/** A file in the store's directory once some origin has more than one version (StoreHistory.hasVersions reads it). */
export const HISTORY_MARK = '.versions-changed';

/** The versions folder of an origin's store name. */
export const versionsFolder = (name: string): string => `${name}.versions`;

/**
 * The names a version's body file may have: its SHA-256 (the store names bodies by their bytes: two versions
 * share a file only when their bytes are equal), or the time of a store written before that. A plain name, so
 * a body named by an index never leaves the versions folder (an index from a CI cache, an archive or a shared
 * folder may say anything).
 */
const VERSION_BODY_NAME = /^(?:[0-9a-f]{64}|\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d(?:\.\d{3})?Z)\.txt$/;
const ISO_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d{3})?Z$/;

/** Why a version entry is not one (null: it is), for the error that names the index. */
function versionProblem(entry: unknown): string | null {
  if (entry === null || typeof entry !== 'object') return 'not an object';
  const version = entry as Record<string, unknown>;
  if (typeof version.firstSeen !== 'string' || !ISO_TIME.test(version.firstSeen)) return '"firstSeen" is not an ISO time';
  if (typeof version.lastSeen !== 'string' || !ISO_TIME.test(version.lastSeen)) return '"lastSeen" is not an ISO time';
  if (version.effect !== 'rules' && version.effect !== 'allow-all' && version.effect !== 'disallow-all') return '"effect" is not rules, allow-all or disallow-all';
  if (version.body !== null && (typeof version.body !== 'string' || !VERSION_BODY_NAME.test(version.body))) return `"body" is not the plain name of a body file: ${JSON.stringify(String(version.body).slice(0, 80))}`;
  if (version.effect === 'rules' && version.body === null) return 'a version of rules names no body';
  if (version.sha256 !== null && (typeof version.sha256 !== 'string' || !/^[0-9a-f]{64}$/.test(version.sha256))) return '"sha256" is not 64 hex digits';
  if (typeof version.status !== 'number' || !Number.isInteger(version.status)) return '"status" is not a whole number';
  for (const name of ['etag', 'lastModified']) if (version[name] !== null && typeof version[name] !== 'string') return `"${name}" is not a string`;
  return null;
}

/**
 * An origin's versions (oldest first) in a store directory, or null when none are kept (a store from before
 * versions). An index that is not one (not JSON, another format, an entry that is not a version, a body name
 * that is not a plain file name) is FILE_UNREADABLE naming it. Per origin read.
 */
export function readStoredVersions(directory: string, key: string): StoredVersions | null {
  const folder = join(directory, versionsFolder(storeFileName(key)));
  const kind = entryKind(folder);
  if (kind === 'absent') return null;
  if (kind !== 'directory') throw new RobotsError('FILE_UNREADABLE', `store versions folder '${folder}' is ${kind === 'link' ? 'a symbolic link' : 'not a folder'}: not read (a store's folders are never followed through links)`);
  const path = join(folder, 'index.json');
  if (!existsSync(path)) return null;
  const text = Buffer.from(readFileBounded(path, 16 << 20, 'store versions', null, 'own')).toString('utf8');
  const bad = (why: string): RobotsError => new RobotsError('FILE_UNREADABLE', `store versions '${path}' are not valid: ${why}`);
  let value: StoredVersions;
  try {
    value = JSON.parse(text) as StoredVersions;
  } catch (error) {
    throw bad((error as Error).message);
  }
  if (value === null || typeof value !== 'object' || value.format !== VERSIONS_FORMAT || !Array.isArray(value.versions)) throw bad(`"format" is not "${VERSIONS_FORMAT}"`);
  value.versions.forEach((entry, i) => {
    const problem = versionProblem(entry);
    if (problem !== null) throw bad(`version ${i + 1}: ${problem}`);
  });
  return value;
}

/** What is at a path, not following a link there: absent, a directory, a symbolic link, or something else. */
function entryKind(path: string): 'absent' | 'directory' | 'link' | 'other' {
  let stat;
  try {
    stat = lstatSync(path, { throwIfNoEntry: false });
  } catch (error) {
    if (meansNoSuchFile(error)) return 'absent';
    throw new RobotsError('FILE_UNREADABLE', `cannot read '${path}': ${describeErrno((error as NodeJS.ErrnoException).code ?? (error as Error).message)}`);
  }
  if (stat === undefined) return 'absent';
  return stat.isSymbolicLink() ? 'link' : stat.isDirectory() ? 'directory' : 'other';
}

/** The versions folder of a store key (its path), refusing one that is a link or no folder (readers of history). Per origin read. */
export function storedVersionsFolder(directory: string, key: string): string {
  const folder = join(directory, versionsFolder(storeFileName(key)));
  const kind = entryKind(folder);
  if (kind === 'link' || kind === 'other') throw new RobotsError('FILE_UNREADABLE', `store versions folder '${folder}' is ${kind === 'link' ? 'a symbolic link' : 'not a folder'}: not read (a store's folders are never followed through links)`);
  return folder;
}

/** What a fetch did to an origin's versions: the version in force before (null: none known) and after, each with its body (effect rules). */
export interface VersionChange {
  before: { version: StoredVersion; body: Uint8Array | null } | null;
  after: { version: StoredVersion; body: Uint8Array | null };
}

/** What RobotsStore.write did: the change of versions when there was one, and what it found wrong and mended (said on the origin's line). */
export interface StoreWriteResult {
  change: VersionChange | null;
  notes: string[];
}

/** How long a writer waits for another's lock on an origin by default (a lock is taken over only from a writer that is gone). */
export const DEFAULT_LOCK_WAIT_MS = 30_000;

/**
 * A store directory (made when missing). Used by RobotsCache, the fetch command and check/audit --fetch;
 * check --robots-dir reads it through robotsFromDirectory.
 */
export class RobotsStore {
  readonly directory: string;
  /** Versions kept per origin (0: none kept, the store as before versions). */
  readonly keepVersions: number;

  /** How long a write waits for another writer's lock on the same origin, in ms. */
  readonly lockWaitMs: number;
  /** The lock held by the write under way (each file written checks it is still this process's), or null. */
  private lock: HeldLock | null = null;

  constructor(directory: string, options: { keepVersions?: number; lockWaitMs?: number } = {}) {
    this.directory = directory;
    this.keepVersions = wholeNumberArgument('keepVersions', options.keepVersions, DEFAULT_KEPT_VERSIONS, 0, MAX_KEPT_VERSIONS);
    this.lockWaitMs = wholeNumberArgument('lockWaitMs', options.lockWaitMs, DEFAULT_LOCK_WAIT_MS, 0, 3_600_000);
    try {
      makeDirectory(directory);
    } catch (error) {
      throw new RobotsError('FILE_UNREADABLE', `cannot make store directory '${directory}': ${describeErrno((error as NodeJS.ErrnoException).code ?? (error as Error).message)}`);
    }
    requireDirectory(directory, 'storeDirectory');
  }

  /** The record of an origin key, null when none. Called once per origin per run. */
  record(key: string): OriginRecord | null {
    return readStoredRecord(this.directory, key);
  }

  /** The kept body of an origin key (at most maxBytes + 1 bytes read), null when none. */
  body(key: string, maxBytes: number): Uint8Array | null {
    const path = join(this.directory, `${storeFileName(key)}.txt`);
    if (!existsSync(path)) return null;
    return readFileBounded(path, readLimit(maxBytes), 'stored robots.txt', null, 'own');
  }

  /**
   * Saves a record and, when the fetch brought one, its body (each file written whole, then renamed into
   * place). A record that keeps no body removes the old body. Called once per fetch.
   */
  write(key: string, record: OriginRecord, body: Uint8Array | null): StoreWriteResult {
    const name = storeFileName(key);
    // an origin's files change together, whatever else writes the store at once (other fetch runs, check or
    // audit --fetch): under its lock, the version log is read and extended, and the body and record replaced
    return this.locked(name, () => {
      const notes: string[] = [];
      // a store written before versions: the copy in force until now is the first version
      const seed = this.keepVersions > 0 ? this.versionsOrSeed(key, name, notes) : null;
      if (body !== null) this.replace(`${name}.txt`, body);
      this.replace(`${name}.json`, recordJson(record));
      if (record.kept !== 'body') {
        this.lock?.check();
        rmSync(join(this.directory, `${name}.txt`), { force: true });
      }
      const change = seed === null ? null : this.keepVersion(key, name, record, body, seed);
      return { change, notes };
    });
  }

  /**
   * Runs `work` holding the lock of an origin's files (src/node/store/origin-lock.ts: taken over only from a
   * writer that is gone; every file written under it checks first that it is still this process's).
   */
  private locked<T>(name: string, work: () => T): T {
    const lock = HeldLock.take(join(this.directory, `${name}.lock`), name, this.lockWaitMs);
    this.lock = lock;
    try {
      return work();
    } finally {
      this.lock = null;
      lock.release();
    }
  }

  /**
   * The origin's versions before this write: its index; or, for an origin with no index yet, the copy then in
   * force (a store written before versions) as its first version; or none. A damaged index is set aside
   * (`index.json.damaged-<time>`), said in notes, and rebuilt from that copy. Under the origin's lock.
   */
  private versionsOrSeed(key: string, name: string, notes: string[]): StoredVersions {
    const folder = versionsFolder(name);
    // a versions folder that is a link (or no folder) is never written through: it is set aside, and the
    // versions begin again here
    const kind = entryKind(join(this.directory, folder));
    if (kind === 'link' || kind === 'other') {
      const aside = `${folder}.set-aside-${timeFileName(Date.now())}`;
      try {
        this.lock?.check();
        renameSync(join(this.directory, folder), join(this.directory, aside));
      } catch (error) {
        if (error instanceof RobotsError) throw error;
        throw new RobotsError('FILE_UNWRITABLE', `cannot set aside '${join(this.directory, folder)}': ${describeErrno((error as NodeJS.ErrnoException).code ?? (error as Error).message)}`);
      }
      notes.push(`the versions folder '${join(this.directory, folder)}' was ${kind === 'link' ? 'a symbolic link' : 'no folder'}: set aside as ${aside} (a store is never written through links), the versions begin again with the copy in force`);
    }
    let known: StoredVersions | null = null;
    try {
      known = readStoredVersions(this.directory, key);
    } catch (error) {
      if (!(error instanceof RobotsError) || error.code !== 'FILE_UNREADABLE') throw error;
      const aside = join(folder, `index.json.damaged-${timeFileName(Date.now())}`);
      try {
        renameSync(join(this.directory, folder, 'index.json'), join(this.directory, aside));
      } catch (renameError) {
        throw new RobotsError('FILE_UNWRITABLE', `cannot set aside '${join(this.directory, folder, 'index.json')}': ${describeErrno((renameError as NodeJS.ErrnoException).code ?? (renameError as Error).message)}`);
      }
      notes.push(`${error.message}: set aside as ${aside}, the versions begin again with the copy in force`);
    }
    if (known !== null) return known;
    const versions: StoredVersions = { format: VERSIONS_FORMAT, origin: '', versions: [] };
    let record: OriginRecord | null = null;
    try {
      record = readStoredRecord(this.directory, key);
    } catch (error) {
      if (!(error instanceof RobotsError)) throw error;
      notes.push(`${error.message}: not taken as a version`);
    }
    if (record === null) return versions;
    versions.origin = record.origin;
    const at = secondIso(record.keptAt ?? record.checkedAt);
    const copy = record.kept === 'body' ? this.body(key, 16 << 20) : null;
    const effect = effectOfStored(record, record.checkedAt, copy !== null);
    if (effect === 'rules' && copy === null) return versions;
    const sha256 = copy === null ? null : createHash('sha256').update(copy).digest('hex');
    if (copy !== null) this.keepBody(folder, sha256 as string, copy);
    versions.versions.push({ firstSeen: at, lastSeen: secondIso(record.checkedAt), effect, body: copy === null ? null : `${sha256}.txt`, sha256, status: record.status, etag: record.etag, lastModified: record.lastModified });
    return versions;
  }

  /** Writes a version's body file (named by its SHA-256) unless it is there. */
  private keepBody(folder: string, sha256: string, bytes: Uint8Array): void {
    makeDirectory(join(this.directory, folder));
    if (!existsSync(join(this.directory, folder, `${sha256}.txt`))) this.replace(join(folder, `${sha256}.txt`), bytes);
  }

  /**
   * Adds a version when what the origin's URLs get changed (another body, or another effect), else marks the
   * newest version seen again; the oldest versions past keepVersions go, with their bodies unless a version
   * kept has the same bytes. Returns the change (the version before, with its body, and the new one), or null.
   * Under the origin's lock; per write.
   */
  private keepVersion(key: string, name: string, record: OriginRecord, body: Uint8Array | null, known: StoredVersions): VersionChange | null {
    const folder = versionsFolder(name);
    const bodyPresent = record.kept === 'body';
    const effect = effectOfStored(record, record.checkedAt, bodyPresent);
    // the body in force: the one fetched now, else (304, a failure with a kept copy) the one kept
    const bodyBytes = effect !== 'rules' ? null : body ?? this.body(key, 16 << 20);
    const sha256 = bodyBytes === null ? null : createHash('sha256').update(bodyBytes).digest('hex');
    // versions are timed to the second (as HTTP dates are): a fetch run with --now T records T itself
    const at = secondIso(record.checkedAt);
    known.origin = record.origin;
    const newest = known.versions[known.versions.length - 1];
    let change: VersionChange | null = null;
    if (newest !== undefined && newest.effect === effect && newest.sha256 === sha256) {
      if (at > newest.lastSeen) newest.lastSeen = at;
    } else {
      makeDirectory(join(this.directory, folder));
      if (bodyBytes !== null) this.keepBody(folder, sha256 as string, bodyBytes);
      // the store's mark that some origin changed (audit --store then judges requests by version)
      if (known.versions.length > 0 && !existsSync(join(this.directory, HISTORY_MARK))) this.replace(HISTORY_MARK, 'an origin of this store has changed: an audit of this store judges each request by the version in force when it was made\n');
      const version: StoredVersion = { firstSeen: at, lastSeen: at, effect, body: bodyBytes === null ? null : `${sha256}.txt`, sha256, status: record.status, etag: record.etag, lastModified: record.lastModified };
      // the version before, with its bytes read now (it may be dropped below): what --fail-on-change compares
      change = { before: newest === undefined ? null : { version: newest, body: this.versionBody(folder, newest) }, after: { version, body: bodyBytes } };
      known.versions.push(version);
      while (known.versions.length > this.keepVersions) {
        const dropped = known.versions.shift() as StoredVersion;
        if (dropped.body !== null && !known.versions.some((kept) => kept.body === dropped.body)) rmSync(join(this.directory, folder, dropped.body), { force: true });
      }
    }
    this.replace(join(folder, 'index.json'), JSON.stringify(known, null, 2) + '\n');
    return change;
  }

  /** A version's body bytes (effect rules), or null; a body file gone or unreadable is null too. */
  private versionBody(folder: string, version: StoredVersion): Uint8Array | null {
    if (version.body === null) return null;
    try {
      return readFileBounded(join(this.directory, folder, version.body), 16 << 20, 'stored robots.txt version', null, 'own');
    } catch {
      return null;
    }
  }

  /** Writes a file of the store whole (written beside it, then renamed into place). */
  writeFile(name: string, data: Uint8Array | string): void {
    this.replace(name, data);
  }

  /** The file names of the records there (origin keys; a long key's hashed name, see storeFileName). */
  keys(): string[] {
    return readdirSync(this.directory).filter((name) => name.endsWith('.json') && !name.startsWith('.')).map((name) => name.slice(0, -5));
  }

  private replace(name: string, data: Uint8Array | string): void {
    // a short name whatever the key's length (a long host's name plus a suffix passed 255 bytes)
    const temporary = join(this.directory, `.tmp-${process.pid}-${randomBytes(6).toString('hex')}`);
    try {
      writeFileSync(temporary, data);
      // under an origin's lock: still this process's (a writer stopped for long finds it lost, and fails)
      this.lock?.check();
      renameSync(temporary, join(this.directory, name));
    } catch (error) {
      rmSync(temporary, { force: true });
      if (error instanceof RobotsError) throw error;
      throw new RobotsError('FILE_UNWRITABLE', `cannot write '${join(this.directory, name)}': ${describeErrno((error as NodeJS.ErrnoException).code ?? (error as Error).message)}`);
    }
  }
}
