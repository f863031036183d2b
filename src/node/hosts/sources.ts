// Where robots.txt bodies come from, for MultiHostMatcher and check: a source is a function from an origin
// to its body (or ALLOW_ALL / DISALLOW_ALL, what a fetch found; null, nothing known). Two sources are made
// here: robotsFromDirectory (a folder of <host>.txt files, or a store written by robotstxt fetch) and
// robotsFromMap. RobotsCache (src/node/fetch/) makes a third, a fetching one. This module names the types
// they share, so that the many-host matcher and the fetcher need not import each other.
import { join } from 'node:path';
import { DEFAULT_MAX_BYTES } from '../../core/constants.js';
import { RobotsError } from '../../core/errors.js';
import { readLimit, readRobotsFileIfExists, readFileBounded, notRegularFile, ReadBuffer } from '../robots-file.js';
import { DirectoryIndex } from './directory-index.js';
import { readStoredRecord, storeFileName, storedVersionsFolder, type StoredVersion } from '../store/index.js';
import { effectOfStored, recordAsOf } from '../../core/fetch-rules.js';
import { hostOrOriginOf, type UrlOrigin } from '../../core/url-model.js';
import { describe, optionsArgument, maxBytesArgument } from '../../core/arguments.js';
import type { HeldData } from '../../core/engine.js';

export type { HeldData };

/**
 * An origin as a source is asked for it (src/core/url-model.ts): the scheme, host and port an HTTP client
 * contacts for the URL. `origin` is the cache key; `key` (`host` or `host:port`) names files by host.
 */
export interface RobotsHost extends UrlOrigin {
  /** `host` or `host:port` (the same as hostKey): how a robots directory names files by host. */
  key: string;
}

/** A source's answer for a host whose URLs are all allowed (a store's 4xx outcome: no robots.txt there). */
export const ALLOW_ALL: unique symbol = Symbol('robots: allow all');
/** A source's answer for a host whose URLs are all disallowed (a store's unreachable outcome: 5xx, timeouts). */
export const DISALLOW_ALL: unique symbol = Symbol('robots: disallow all');

/**
 * A source's answer of rules compiled already for the matcher's agent query and mode (a pack's blob:
 * src/node/pack/): read into the matcher's memory as they are, no compile, and kept once for every origin
 * whose answer has the same key. Made by the pack's source only, which knows the query. Per origin met.
 */
export class CompiledRules {
  /**
   * key: the rules' identity in their source (origins of one body share it: one copy in the matcher);
   * length: their bytes; fill: writes them into a target of that length (it may throw: a damaged pack);
   * place: which blob they are of the data the source may give at once (SourceTraits.heldData), when it gives any.
   */
  constructor(readonly key: number, readonly length: number, readonly fill: (target: Uint8Array) => void, readonly place: { data: HeldData; blob: number } | null = null) {}
}

/**
 * A robots.txt body as a source gives it; null: nothing is known of the host (the missing policy applies);
 * ALLOW_ALL / DISALLOW_ALL: what a fetch found (see src/core/fetch-rules.ts); CompiledRules: a pack's.
 */
export type RobotsSourceAnswer = Uint8Array | ArrayBuffer | DataView | string | null | typeof ALLOW_ALL | typeof DISALLOW_ALL | CompiledRules;

/**
 * Where a MultiHostMatcher gets a host's robots.txt: called once per host while the host stays cached.
 * May return a promise (a fetcher); synchronous sources (directories, maps) are faster.
 */
export type RobotsSource = (host: RobotsHost) => RobotsSourceAnswer | Promise<RobotsSourceAnswer>;

/**
 * What the package's own sources tell the many-host matcher, under a symbol on the source function (a user's
 * function has none: it is asked once per host while the host stays cached, and told nothing).
 * - askedAgainCheaply: it answers again cheaply and alike (a directory, a Map): a host met once may be
 *   answered from a body that is not kept, and asked for again when it comes back;
 * - expect(hosts): that many hosts will be asked for next (a chunk's new hosts): a directory is listed once
 *   that pays (src/node/hosts/directory-index.ts);
 * - heldData: data the source can give at once (a pack's rules for the agent: each body's
 *   blob for it), in which the compiled rules it hands out lie (CompiledRules.place): a matcher whose budget
 *   holds them twice over reads them once, when
 *   it opens, and answers every origin where its rules lie (with the data's index, the core answers the
 *   origins of plain keys itself, without asking the source);
 * - checkData(): checks the source's data whole (a pack opened with its check owed): called when the matcher
 *   opens, unless it holds them (the whole data checked as they are read), so that a damaged pack is refused before any
 *   answer.
 */
export interface SourceTraits {
  askedAgainCheaply: boolean;
  expect?(hosts: number): void;
  heldData?: HeldData;
  checkData?(): void;
}
const SOURCE_TRAITS: unique symbol = Symbol('robots source traits');

/** The traits a source carries (see SourceTraits), or null for a user's function. Once per matcher. */
export function sourceTraits(source: RobotsSource): SourceTraits | null {
  return (source as { [SOURCE_TRAITS]?: SourceTraits })[SOURCE_TRAITS] ?? null;
}

/** A source with the traits the package's own sources tell the matcher (see SourceTraits). Once per source. */
export function withTraits(source: RobotsSource, traits: SourceTraits): RobotsSource {
  return Object.assign(source, { [SOURCE_TRAITS]: traits });
}

/** A verdict for every URL of a host: what a missing robots.txt (or a line naming no host) gets. */
export type FullVerdict = 'allow' | 'disallow';
/**
 * What URLs get whose host has no robots.txt (the source knows nothing of it): a verdict, or `error` (the
 * call fails with NO_ROBOTS naming the origin: for users who need every origin known, such as a store's).
 */
export type MissingPolicy = FullVerdict | 'error';

/**
 * What a reader of rules answers for an origin whose rules are not known (no file in the folder, a file that
 * could not be read, an origin the store never fetched), where null says that no robots.txt applies (every URL
 * allowed: a stored 4xx). audit counts such requests as "no rules known", never as allowed.
 */
export const NO_RULES_KNOWN: unique symbol = Symbol('robots: no rules known');

/** Bodies of the fixed slots (every URL allowed, every URL disallowed); audit parses the same stand-ins. */
export const FULL_VERDICT_BODY: Record<FullVerdict, string> = { allow: '', disallow: 'User-agent: *\nDisallow: /\n' };
/** The body a stored version stands for: its file (at most maxBytes + 1 read), or the stand-in of its effect. Per version parsed. */
export function storedVersionBody(directory: string, key: string, version: StoredVersion, maxBytes: number): Uint8Array | string {
  if (version.effect === 'rules' && version.body !== null) return readFileBounded(join(storedVersionsFolder(directory, key), version.body), readLimit(maxBytes), 'stored robots.txt version', null, 'own');
  return version.effect === 'disallow-all' ? FULL_VERDICT_BODY.disallow : FULL_VERDICT_BODY.allow;
}

/** The RobotsHost a source is asked with (one object shape for every origin: sources stay fast). */
export function robotsHostOf(origin: UrlOrigin): RobotsHost {
  return 'key' in origin ? origin as RobotsHost : { scheme: origin.scheme, host: origin.host, port: origin.port, origin: origin.origin, hostKey: origin.hostKey, fileKey: origin.fileKey, key: origin.hostKey };
}

/**
 * A source that reads, for an origin, the store's files (`<fileKey>.txt`, else the effect of
 * `<fileKey>.json`, written by robotstxt fetch: src/node/store/store.ts), else the files a user names by
 * host: `<host>:<port>.txt` when the origin has a port that is not its scheme's default, then `<host>.txt`
 * (those answer both http and https). A host file with a record from before origins were kept apart
 * (`<host>.json`) counts when that record's origin is this one. With none of these, nothing is known (null).
 * At most maxBytes (+1) of a body is read; a file that exists but cannot be read is an error naming it,
 * while a name the file system refuses (a host of hundreds of bytes) is a host without a file. Keys never
 * hold '/', '\\' or NUL (src/core/url-model.ts), so no file outside the directory is read.
 */
export function robotsFromDirectory(directory: string, options: { maxBytes?: number; now?: number } = {}): RobotsSource {
  optionsArgument(options, ['maxBytes', 'now'], 'robotsFromDirectory options');
  if (typeof directory !== 'string' || directory === '') throw new RobotsError('INVALID_ARGUMENT', `directory must be a non-empty string, got ${describe(directory)}`);
  const limit = readLimit(maxBytesArgument(options.maxBytes, DEFAULT_MAX_BYTES));
  const buffer = new ReadBuffer();
  const prefix = join(directory, '/'); // keys hold no '/': a plain concatenation stays in the directory
  const now = options.now ?? Date.now();
  // the folder is listed once (on first use): a name it does not hold costs no system call, a regular file is
  // read with one read, and a FIFO or a folder by a host's name is refused by name (src/node/hosts/directory-index.ts)
  const index = new DirectoryIndex(directory);
  const readListed = (name: string): Uint8Array | null => {
    const kind = index.lookup(name);
    if (kind === 'absent') return null;
    if (kind === 'directory' || kind === 'special') throw notRegularFile(`${prefix}${name}`, 'robots file', kind === 'directory');
    return readRobotsFileIfExists(`${prefix}${name}`, limit, buffer, kind === 'regular' ? 'regular' : 'check');
  };
  const stored = (key: string, host: RobotsHost, bodyPresent: boolean, legacy: boolean): RobotsSourceAnswer => {
    if (index.lookup(`${storeFileName(key)}.json`) === 'absent') return null;
    const read = readStoredRecord(directory, key);
    if (read === null || (legacy && read.origin !== host.origin)) return null;
    const effect = effectOfStored(recordAsOf(read, now), now, bodyPresent);
    return effect === 'allow-all' ? ALLOW_ALL : effect === 'disallow-all' ? DISALLOW_ALL : null;
  };
  return withTraits((host) => {
    // origin files (a store's) are looked for only in a directory that has some
    if (index.holdsOriginFiles) {
      const originBody = readListed(`${storeFileName(host.fileKey)}.txt`);
      const originRecord = stored(host.fileKey, host, originBody !== null, false);
      if (originRecord !== null) return originRecord; // allow all, disallow all, or a record whose body is gone
      if (originBody !== null) return originBody;
    }
    if (host.port !== null) {
      const withPort = readListed(`${host.hostKey}.txt`);
      if (withPort !== null) return withPort;
    }
    const byHost = readListed(`${host.host}.txt`);
    if (byHost !== null) return byHost;
    return stored(host.hostKey, host, false, true);
  }, { askedAgainCheaply: true, expect: (hosts) => index.expect(hosts) });
}

/**
 * A source from a Map whose keys are origins (`https://example.com:8080`: that origin only) or hosts
 * (`example.com`, `example.com:8080`: both schemes), canonicalised as URLs are (case, IDN, trailing dot):
 * an origin key first, then `host:port`, then `host`. A key that names no host, or two keys naming the same
 * origin or host, throw INVALID_ARGUMENT: a wrong key never leaves its host's URLs unanswered. Made once.
 */
export function robotsFromMap(bodies: ReadonlyMap<string, Uint8Array | ArrayBuffer | string>): RobotsSource {
  if (!(bodies instanceof Map)) throw new RobotsError('INVALID_ARGUMENT', `bodies must be a Map of origin or host keys to robots.txt bodies, got ${describe(bodies)}`);
  const canonical = new Map<string, Uint8Array | ArrayBuffer | string>();
  for (const [key, body] of bodies) {
    const named = hostOrOriginOf(key, 'robotsFromMap key');
    const canonicalKey = named.scheme === null ? named.hostKey : `${named.scheme}://${named.hostKey}`;
    if (canonical.has(canonicalKey)) throw new RobotsError('INVALID_ARGUMENT', `robotsFromMap keys ${JSON.stringify(key)} and another name the same ${named.scheme === null ? 'host' : 'origin'} (${canonicalKey})`);
    if (!(typeof body === 'string' || body instanceof Uint8Array || body instanceof ArrayBuffer)) throw new RobotsError('INVALID_ARGUMENT', `robotsFromMap body of ${JSON.stringify(key)} must be a string, Uint8Array or ArrayBuffer, got ${describe(body)}`);
    canonical.set(canonicalKey, body);
  }
  return withTraits((host) => canonical.get(host.origin) ?? (host.port !== null ? canonical.get(host.hostKey) : undefined) ?? canonical.get(host.host) ?? null, { askedAgainCheaply: true });
}
