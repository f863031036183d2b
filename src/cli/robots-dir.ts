// --robots-dir: the robots.txt of a URL's host is <dir>/<host>.txt (<host>:<port>.txt first when the URL
// names a port). Compiled matchers are cached, least recently used out.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseRobots, asciiLowerCase, type RobotsMode } from '../robots.js';
import type { RobotsMatcher } from '../matcher.js';
import { fileError } from './common.js';

/** What a URL gets when its host has no robots file (or the URL names no host). */
export type MissingPolicy = 'allow' | 'disallow';

/** Host and port of an absolute URL's bytes (ASCII lower-cased), or null for a relative URL or an odd host. */
export function urlHost(line: Uint8Array): { host: string; port: string | null } | null {
  const text = latin1.decode(line);
  let rest: string;
  const scheme = /^[A-Za-z][A-Za-z0-9+.-]*:\/\//.exec(text);
  if (scheme !== null) rest = text.slice(scheme[0].length);
  else if (text.startsWith('//')) rest = text.slice(2);
  else return null;
  const end = rest.search(/[/?#;\r]/);
  let authority = end < 0 ? rest : rest.slice(0, end);
  const at = authority.lastIndexOf('@');
  if (at >= 0) authority = authority.slice(at + 1);
  let host = authority;
  let port: string | null = null;
  const portMatch = /^(.*?)(?::(\d*))?$/.exec(authority.startsWith('[') ? authority.replace(/^(\[[^\]]*\])/, '$1') : authority);
  if (portMatch !== null) {
    host = portMatch[1];
    port = portMatch[2] !== undefined && portMatch[2] !== '' ? portMatch[2] : null;
  }
  host = asciiLowerCase(host);
  if (host === '' || !/^[a-z0-9._~%!$&'()*+,=\[\]:-]+$/.test(host) || host === '.' || host === '..') return null;
  return { host, port };
}

const latin1 = new TextDecoder('latin1');

/**
 * The robots.txt bytes of a host in a --robots-dir: <dir>/<host>:<port>.txt first when a port is given, then
 * <dir>/<host>.txt; null when there is none. A file that exists but cannot be read is an error naming it.
 */
export function readRobotsFileFor(directory: string, host: string, port: string | null): Uint8Array | null {
  const names = port === null ? [`${host}.txt`] : [`${host}:${port}.txt`, `${host}.txt`];
  for (const name of names) {
    const path = join(directory, name);
    try {
      return readFileSync(path);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENAMETOOLONG') continue;
      throw fileError(path, 'robots file', error);
    }
  }
  return null;
}

/**
 * A map bounded by a byte budget: get() refreshes an entry, set() evicts least recently used entries until
 * the total of sizeOf(entry) (plus a per-key cost) fits. One per --robots-dir run.
 */
export class LruCache<V> {
  private readonly entries = new Map<string, { value: V; bytes: number }>();
  private totalBytes = 0;
  /** Entries evicted so far. */
  evictions = 0;

  constructor(readonly maxBytes: number, private readonly sizeOf: (value: V) => number) {}

  get(key: string): V | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.value;
  }

  set(key: string, value: V): void {
    const old = this.entries.get(key);
    if (old !== undefined) {
      this.totalBytes -= old.bytes;
      this.entries.delete(key);
    }
    const bytes = this.sizeOf(value) + KEY_COST_BYTES + key.length * 2;
    this.entries.set(key, { value, bytes });
    this.totalBytes += bytes;
    for (const [oldest, entry] of this.entries) {
      if (this.totalBytes <= this.maxBytes || oldest === key) break;
      this.entries.delete(oldest);
      this.totalBytes -= entry.bytes;
      this.evictions++;
    }
  }

  get size(): number {
    return this.entries.size;
  }

  /** Bytes accounted for the entries now cached. */
  get bytes(): number {
    return this.totalBytes;
  }
}

/** Rough cost of one cache entry besides its value (map entry, key, record). */
const KEY_COST_BYTES = 128;

/** Default budget of compiled matchers kept by --robots-dir. */
export const DEFAULT_CACHE_BYTES = 64 << 20;

/** Finds, parses and compiles the robots.txt of each host on demand. */
export class RobotsDirectory {
  readonly cache: LruCache<RobotsMatcher>;
  private readonly missingMatcher: RobotsMatcher;
  /** URLs answered by the missing policy because they name no host. */
  noHostCount = 0;
  /** Robots files read and compiled (a host evicted and met again is compiled again). */
  compiled = 0;
  /** Host look-ups that found no robots file. */
  missingLookups = 0;

  constructor(
    private readonly directory: string,
    private readonly agents: readonly string[],
    private readonly mode: RobotsMode,
    private readonly maxBytes: number,
    missing: MissingPolicy,
    cacheBytes = DEFAULT_CACHE_BYTES,
  ) {
    // a missing host costs only its key: the shared missing-policy matcher is not counted
    this.cache = new LruCache(cacheBytes, (matcher) => (matcher === this.missingMatcher ? 0 : matcher.blob.length + matcher.blob.length));
    const missingBody = missing === 'allow' ? '' : 'User-agent: *\nDisallow: *\n';
    this.missingMatcher = parseRobots(missingBody, { mode }).matcher(agents);
  }

  /** The matcher for one URL line. Called once per input line: cached per host. */
  matcherFor(line: Uint8Array): RobotsMatcher {
    const where = urlHost(line);
    if (where === null) {
      this.noHostCount++;
      return this.missingMatcher;
    }
    const key = where.port === null ? where.host : `${where.host}:${where.port}`;
    const cached = this.cache.get(key);
    if (cached !== undefined) return cached;
    const body = readRobotsFileFor(this.directory, where.host, where.port);
    let matcher = this.missingMatcher;
    if (body !== null) {
      matcher = parseRobots(body, { mode: this.mode, maxBytes: this.maxBytes }).matcher(this.agents);
      this.compiled++;
    } else {
      this.missingLookups++;
    }
    this.cache.set(key, matcher);
    return matcher;
  }
}
