// robots.txt versions kept outside the store (audit --robots-history <dir>): the files a site had, each named
// by the time it took effect, per host in the layout of --robots-dir:
//
//   <dir>/<host>/<time>.txt          (or <dir>/<host>:<port>/<time>.txt, looked for first when the URL names a port)
//
// <time> is an ISO 8601 UTC time: 2026-11-12T10:00:00Z, 2026-11-12T10-00-00Z (no colons: valid on Windows),
// 20261112T100000Z, or a date (2026-11-12: its midnight UTC). A version is in force from its time until the
// next one's. A request is judged by the version in force when it was made; RFC 9309 and Google let a crawler
// keep a copy for up to 24 hours, so a request within 24 hours after a change may follow either version
// (versionsAt gives both). Hosts' versions are read on first use and kept within HISTORY_CACHE_BYTES.
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { RobotsError } from '../../core/errors.js';
import { describe } from '../../core/arguments.js';
import { parseRobots, type RobotsReading, type RobotsTxt } from '../../core/robots.js';
import type { UrlOrigin } from '../../core/url-model.js';
import { readFileBounded, readLimit, describeErrno, requireDirectory } from '../robots-file.js';
import { HISTORY_MARK, readStoredVersions, storeFileName, versionsFolder } from '../store/index.js';
import { storedVersionBody, NO_RULES_KNOWN } from '../hosts/index.js';
import { LruCache } from '../../core/lru-cache.js';
import { NO_HELD_FILES, ParsedRobotsCache, type HeldFiles } from '../../core/parsed-robots-cache.js';

/** How long a crawler may keep using a copy of robots.txt (RFC 9309 2.4, Google): 24 hours. */
export const CACHE_WINDOW_MS = 24 * 3600 * 1000;
/** Memory for the versions kept parsed (least recently used out, parsed again when met again). */
const HISTORY_CACHE_BYTES = 16 << 20;
/**
 * What a parsed version costs as an audit uses it: its object model, its matcher and the deciding rules it
 * explained, its usage policy, with their compiled bytes. Measured by parsing 2,000 versions like those of
 * bench/history.ts (20 to 100 rules, 1.5 KB on average) and asking each for decidingRules and usagePolicy:
 * about 12 KB of JavaScript heap and 40 KB of WebAssembly memory each (process.memoryUsage after a collection).
 */
const parsedVersionCost = (robots: RobotsTxt): number => robots.bytesRead * 32 + 8192;
/**
 * Memory for the hosts' version tables (each version's times, file and names, before it is parsed), least
 * recently used hosts out and listed again when met again: a history of thousands of hosts with hundreds of
 * versions each is not held whole. A version's entry costs about 770 bytes of JavaScript heap (measured: one
 * host of 20,000 versions listed, heapUsed after a collection).
 */
const VERSION_TABLES_BYTES = 32 << 20;
const versionTableCost = (versions: RobotsVersion[]): number => versions.length * 770 + 256;

/** One version of a host's robots.txt: when it took effect (ms and as written in ISO form), its file, its rules. */
export interface RobotsVersion {
  from: number;
  /** Its time as ISO 8601 (`2026-11-12T10:00:00.000Z`). */
  label: string;
  host: string;
  file: string;
  /** `host label`: the same string for the same version however often it is read again (counts are kept by it). */
  key: string;
  /** `host@label`: how reports name the file (its rules are `name line N`). */
  name: string;
  /** Its rules, parsed on first use and kept within the history's byte budget (read again when met again). */
  readonly robots: RobotsTxt;
}

/**
 * Parsed versions within a byte budget, least recently used out, and the versions of each host (their times
 * and files) within VERSION_TABLES_BYTES: memory stays bounded with thousands of hosts of hundreds of
 * versions, and a request parses only the versions it is judged by.
 */
class VersionCache {
  /** Parsed versions (one cache of parsed files: dropped ones are closed, or held while requests wait for them; see ParsedRobotsCache). */
  private readonly parsed = new ParsedRobotsCache<RobotsTxt>(HISTORY_CACHE_BYTES, (robots) => robots, parsedVersionCost, (robots) => {
    for (const version of this.owners.get(robots) ?? []) version.parsed = null;
    this.owners.delete(robots);
  });

  /** From now on, versions dropped from the cache stay open until closeDropped (a reader that judges requests in batches). Once. */
  holdDropped(): void {
    this.parsed.holdDropped();
  }
  /** The versions that hold each parsed file (one file may be several versions': a body seen again, one body of many origins); their references are cleared when the cache drops it. */
  private readonly owners = new WeakMap<RobotsTxt, Set<{ parsed: RobotsTxt | null }>>();

  /** Gives back the memory of the versions dropped since the last call (their compiled matchers). After each judged batch. */
  closeDropped(): void {
    this.parsed.closeDropped();
  }

  /** True when the versions dropped and not closed yet cost more than a quarter of HISTORY_CACHE_BYTES: their requests should be judged now. */
  get mustCloseDropped(): boolean {
    return this.parsed.mustCloseDropped;
  }
  private readonly hosts = new LruCache<RobotsVersion[]>(VERSION_TABLES_BYTES, versionTableCost);

  constructor(private readonly options: RobotsReading) {}

  /** A host's versions, made by `read` on first use and again after its table was dropped (VERSION_TABLES_BYTES). Per change of host in a log. */
  versionsOf(name: string, read: () => RobotsVersion[]): RobotsVersion[] {
    let versions = this.hosts.get(name);
    if (versions === undefined) {
      versions = read();
      this.hosts.set(name, versions);
    }
    return versions;
  }

  /** A version whose rules are parsed from `body()` when first asked for, and again after they were dropped. */
  version(from: number, label: string, host: string, file: string, body: () => Uint8Array | string): RobotsVersion {
    return new LazyVersion(from, label, host, file, body, this);
  }

  /** The rules of a version: from the cache, or parsed and cached. Called by LazyVersion when it holds none. */
  parse(version: LazyVersion): RobotsTxt {
    const id = version.file === '' ? `${version.key} (stand-in)` : version.file;
    let robots = this.parsed.get(id);
    if (robots === undefined) {
      robots = parseRobots(version.body(), this.options);
      this.parsed.set(id, robots);
    }
    const holders = this.owners.get(robots);
    if (holders === undefined) this.owners.set(robots, new Set([version]));
    else holders.add(version);
    return robots;
  }
}

/**
 * A version of a history: its times and file, and its rules once parsed (kept on it until the cache drops
 * them: a request per log line asks, with no cache look-up). One small object per version (a history keeps
 * those of VERSION_TABLES_BYTES of hosts), its methods on the prototype.
 */
class LazyVersion implements RobotsVersion {
  readonly key: string;
  readonly name: string;
  parsed: RobotsTxt | null = null;

  constructor(readonly from: number, readonly label: string, readonly host: string, readonly file: string, readonly body: () => Uint8Array | string, private readonly cache: VersionCache) {
    this.key = `${host} ${label}`;
    this.name = `${host}@${label}`;
  }

  get robots(): RobotsTxt {
    return this.parsed ??= this.cache.parse(this);
  }
}

/** The versions that govern a request: the one in force, and the one before it when the change is less than 24 h old. */
export interface VersionsAt {
  current: RobotsVersion | null;
  previous: RobotsVersion | null;
}

/** A history file name's time in ms, or null when the name is not a time (`.txt` removed first). */
export function historyTime(name: string): number | null {
  const match = /^(\d{4})-?(\d{2})-?(\d{2})(?:T(\d{2})[:-]?(\d{2})(?:[:-]?(\d{2})(?:\.(\d{1,9}))?)?Z)?$/.exec(name);
  if (match === null) return null;
  const [, year, month, day, hour = '00', minute = '00', second = '00', fraction = '0'] = match;
  const ms = Date.UTC(Number(year), Number(month) - 1, Number(day), Number(hour), Number(minute), Number(second), Math.floor(Number(`0.${fraction}`) * 1000));
  const check = new Date(ms);
  // a date that does not exist (2026-02-30) is not a time
  if (check.getUTCFullYear() !== Number(year) || check.getUTCMonth() !== Number(month) - 1 || check.getUTCDate() !== Number(day) || Number(hour) > 23 || Number(minute) > 59 || Number(second) > 59) return null;
  return ms;
}

/** Of versions sorted oldest first: the one in force at timeMs, and the one before it when that change is less than 24 h old. */
export function versionsAtTime(versions: readonly RobotsVersion[], timeMs: number): VersionsAt {
  let low = 0;
  let high = versions.length; // the first version later than timeMs
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (versions[middle].from <= timeMs) low = middle + 1;
    else high = middle;
  }
  // the answers are made once per version and window (a request per log line asks: no object per request)
  let answers = ANSWERS.get(versions);
  if (answers === undefined) {
    answers = versions.flatMap((version, i) => [{ current: version, previous: null }, { current: version, previous: i > 0 ? versions[i - 1] : null }]);
    ANSWERS.set(versions, answers);
  }
  if (low === 0) return NO_VERSION;
  const windowed = low > 1 && timeMs - versions[low - 1].from < CACHE_WINDOW_MS;
  return answers[2 * (low - 1) + (windowed ? 1 : 0)];
}

/** versionsAtTime's answers per versions list (see there). */
const ANSWERS = new WeakMap<readonly RobotsVersion[], VersionsAt[]>();
const NO_VERSION: VersionsAt = Object.freeze({ current: null, previous: null });

/**
 * What both kinds of history share: the cache of versions, the last origin asked about (most requests of a log
 * are of the host before them), and the answer per request. A kind says how an origin's versions are read.
 */
abstract class History {
  protected readonly cache: VersionCache;
  private lastOrigin: UrlOrigin | null = null;
  private lastVersions: RobotsVersion[] = [];
  private readonly afterBatch: (() => void) | null;

  constructor(options: HistoryOptions) {
    this.cache = new VersionCache(options.reading);
    if (options.afterBatch !== undefined && typeof options.afterBatch !== 'function') throw new RobotsError('INVALID_ARGUMENT', `afterBatch must be a function, got ${describe(options.afterBatch)}`);
    this.afterBatch = options.afterBatch ?? null;
  }

  /** An origin's versions, oldest first. */
  protected abstract versionsOf(origin: UrlOrigin): RobotsVersion[];

  /** The version in force at timeMs, and the one before it when that change is less than 24 h before timeMs. Per request. */
  versionsAt(origin: UrlOrigin, timeMs: number): VersionsAt {
    if (origin !== this.lastOrigin) {
      this.lastVersions = this.versionsOf(origin);
      this.lastOrigin = origin;
    }
    return versionsAtTime(this.lastVersions, timeMs);
  }

  /** The version in force at timeMs (null before the first), without the 24-hour rule: what a program asks of one time. */
  versionAt(origin: UrlOrigin, timeMs: number): RobotsVersion | null {
    return this.versionsAt(origin, timeMs).current;
  }

  /**
   * For a reader that judges requests in batches (RobotsAudit calls it once, when given this history): versions
   * dropped from the cache then stay open until closeDropped, so that requests waiting to be judged by them can
   * be. Without it a version's rules are closed when the cache drops them (`version.robots` parses them again).
   */
  holdDropped(): void {
    this.cache.holdDropped();
  }

  /** Closes the parsed versions dropped from the cache since the last call (after holdDropped; the audit calls it after each judged batch). */
  closeDropped(): void {
    this.cache.closeDropped();
    this.afterBatch?.();
  }

  /** True when versions dropped from the cache wait past their bound: the audit judges its pending requests now (then closeDropped). Per request. */
  get mustCloseDropped(): boolean {
    return this.cache.mustCloseDropped;
  }
}

/**
 * The current copies of a store's origins, as rulesOfDirectory reads them (DirectoryRules is one): an
 * origin's file (null: no robots.txt; NO_RULES_KNOWN: never fetched), from a cache that closes what it drops
 * unless held (holdDropped: until closeDropped, as a history's versions).
 */
export interface CurrentCopies extends HeldFiles {
  robotsFor(origin: UrlOrigin): RobotsTxt | null | typeof NO_RULES_KNOWN;
}

/** Current copies of none (diff --store reads versions alone): an origin without versions has no robots.txt. */
export const NO_CURRENT_COPIES: CurrentCopies = Object.freeze({ ...NO_HELD_FILES, robotsFor: () => null });

/**
 * The versions a store keeps (robotstxt fetch --store: src/node/store/store.ts), as audit --store reads them
 * when the store has any: each origin's versions from the time a fetch first saw each; an origin without
 * versions (fetched before versions were kept) has its current copy as its one version, in force throughout.
 * Origins' versions are read on first use and kept within HISTORY_CACHE_BYTES. One per audit run.
 */
export class StoreHistory extends History {
  /**
   * options.warn: told (once per origin) of an index of versions that is not one: that origin is judged by
   * its current copy, as a store without versions is.
   */
  /** The rules of an origin whose current copy is no robots.txt (every URL allowed): one file for all of them. */
  private noRobotsTxt: RobotsTxt | null = null;

  constructor(private readonly directory: string, private readonly options: HistoryOptions & { current: CurrentCopies; warn?: (sentence: string) => void }) {
    super(options);
  }

  /** Versions dropped, and the current copies' files dropped, stay open until closeDropped (see History#holdDropped). */
  override holdDropped(): void {
    super.holdDropped();
    this.options.current.holdDropped();
  }

  override closeDropped(): void {
    this.options.current.closeDropped();
    super.closeDropped();
  }

  override get mustCloseDropped(): boolean {
    return super.mustCloseDropped || this.options.current.mustCloseDropped;
  }

  /** True when some origin of a store directory has more than one version (then audit judges requests by version). Once per run. */
  static hasVersions(directory: string): boolean {
    return existsSync(join(directory, HISTORY_MARK));
  }

  protected versionsOf(origin: UrlOrigin): RobotsVersion[] {
    return this.cache.versionsOf(origin.fileKey, () => this.read(origin));
  }

  private read(origin: UrlOrigin): RobotsVersion[] {
    let stored: ReturnType<typeof readStoredVersions>;
    try {
      stored = readStoredVersions(this.directory, origin.fileKey);
    } catch (error) {
      if (!(error instanceof RobotsError) || error.code !== 'FILE_UNREADABLE') throw error;
      this.options.warn?.(`${error.message}: ${origin.origin} is judged by its current copy`);
      stored = null;
    }
    if (stored === null) {
      // no versions kept: the current copy (as without versions) holds throughout; an origin never fetched has
      // no version (its requests: no rules known)
      const { current } = this.options;
      if (current.robotsFor(origin) === NO_RULES_KNOWN) return [];
      const label = 'the current copy (no versions kept)';
      // its file asked of the current copies at each use: their cache may have dropped (and closed) it since
      const noRobotsTxt = (): RobotsTxt => (this.noRobotsTxt ??= parseRobots('', this.options.reading));
      return [{ from: -8.64e15, label, host: origin.hostKey, file: '', key: `${origin.hostKey} ${label}`, name: `${origin.hostKey}@${label}`, get robots() {
        const robots = current.robotsFor(origin);
        return robots === null || robots === NO_RULES_KNOWN ? noRobotsTxt() : robots;
      } }];
    }
    const folder = join(this.directory, versionsFolder(storeFileName(origin.fileKey)));
    // one version (one fetch, or nothing changed since): nothing says when it began, so it holds throughout
    const single = stored.versions.length === 1;
    return stored.versions.map((version) => {
      const file = version.body === null ? '' : join(folder, version.body);
      const body = (): Uint8Array | string => storedVersionBody(this.directory, origin.fileKey, version, this.options.reading.maxBytes);
      const from = single ? -8.64e15 : Date.parse(version.firstSeen);
      const label = single ? `${new Date(Date.parse(version.firstSeen)).toISOString()} (its only version)` : new Date(from).toISOString();
      return this.cache.version(from, label, origin.hostKey, file, body);
    });
  }
}

/** One capture of an origin as CapturedHistory reads it: when it was seen (null: not said), what identifies its rules, and its body. */
export interface OriginCapture {
  time: number | null;
  /** Equal for captures of the same rules (a body's index, an effect): consecutive ones are one version, seen again. */
  same: string;
  body: () => Uint8Array | string;
}

/**
 * The versions an origin's captures give (a pack's: audit --pack, src/node/pack/), as a store's give its own:
 * consecutive captures of the same rules are one version, from the first of them; an origin captured once has
 * that one version in force throughout; an origin without captures, none (its requests: no rules known).
 * Captures are read by `capturesOf` on first use; parsed versions share the cache by `same` (origins whose
 * bodies are one body parse it once). One per audit run.
 */
export class CapturedHistory extends History {
  constructor(private readonly capturesOf: (origin: UrlOrigin) => readonly OriginCapture[], options: HistoryOptions) {
    super(options);
  }

  protected versionsOf(origin: UrlOrigin): RobotsVersion[] {
    return this.cache.versionsOf(origin.fileKey, () => {
      const captures = this.capturesOf(origin);
      const firsts = captures.filter((capture, i) => i === 0 || capture.same !== captures[i - 1].same);
      return firsts.map((capture) => {
        const single = firsts.length === 1;
        const from = single || capture.time === null ? -8.64e15 : capture.time;
        const seen = capture.time === null ? 'a capture of no time' : new Date(capture.time).toISOString();
        const label = single ? `${seen} (its only version)` : seen;
        return this.cache.version(from, label, origin.hostKey, capture.same, capture.body);
      });
    });
  }
}

/** How a history parses its versions, and what runs after each judged batch. */
export interface HistoryOptions {
  /** How the versions are read (the mode, and how much of each body). */
  reading: RobotsReading;
  /**
   * Called after each judged batch, once the versions it dropped are closed: where a caller that owns its
   * process may govern the JavaScript heap. A log whose requests each meet another version parses a version
   * per request, and V8 let the heap grow to four times what lived; robotstxt audit collects garbage here
   * once the heap holds 32 MiB more than lived (src/cli/heap-governor.ts). Default: nothing (V8's schedule).
   */
  afterBatch?: () => void;
}

/** The versions of each host in a history folder, read on first use. One per audit run. */
export class RobotsHistory extends History {
  private readonly limit: number;

  constructor(private readonly directory: string, options: HistoryOptions) {
    super(options);
    requireDirectory(directory, 'historyDirectory');
    this.limit = readLimit(options.reading.maxBytes);
  }

  /** A host's versions, oldest first ([] when the history has no folder for it): <host>:<port> first when the URL names a port. */
  protected versionsOf(origin: UrlOrigin): RobotsVersion[] {
    const names = origin.port !== null ? [origin.hostKey, origin.host] : [origin.host];
    for (const [i, name] of names.entries()) {
      const versions = this.cache.versionsOf(name, () => this.read(name));
      if (versions.length > 0 || i === names.length - 1) return versions;
    }
    return [];
  }

  /** The versions in <dir>/<name>/, oldest first (bodies read when first judged by); a file whose name is not a time is an error naming it. */
  private read(name: string): RobotsVersion[] {
    if (name === '' || name === '.' || name === '..' || /[/\\\0]/.test(name)) return [];
    const folder = join(this.directory, name);
    let entries: string[];
    try {
      entries = readdirSync(folder);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENOTDIR' || code === 'ENAMETOOLONG' || code === 'EINVAL') return [];
      throw new RobotsError('FILE_UNREADABLE', `robots.txt history folder '${folder}' cannot be read: ${describeErrno(code ?? String(error))}`);
    }
    const versions: RobotsVersion[] = [];
    for (const entry of entries) {
      const time = entry.endsWith('.txt') ? historyTime(entry.slice(0, -4)) : null;
      if (time === null) throw new RobotsError('FILE_UNREADABLE', `robots.txt history file '${join(folder, entry)}' is not named by the time it took effect (<time>.txt, such as 2026-11-12T10-00-00Z.txt)`);
      const file = join(folder, entry);
      versions.push(this.cache.version(time, new Date(time).toISOString(), name, file, () => readFileBounded(file, this.limit, 'robots.txt history file', null, 'check')));
    }
    versions.sort((a, b) => a.from - b.from);
    for (let i = 1; i < versions.length; i++) {
      if (versions[i].from === versions[i - 1].from) throw new RobotsError('FILE_UNREADABLE', `robots.txt history files '${versions[i - 1].file}' and '${versions[i].file}' name the same time`);
    }
    return versions;
  }
}
