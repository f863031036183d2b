// --robots-dir: the robots.txt of a URL's host is <dir>/<host>.txt (<host>:<port>.txt first when the URL
// names a port). Compiled matchers are cached, least recently used out.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseRobots, asciiLowerCase, type RobotsMode } from '../robots.js';
import type { RobotsMatcher } from '../matcher.js';
import { RobotsError } from '../errors.js';

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

/** A small LRU map: get refreshes, set evicts the least recently used entry beyond maxEntries. */
export class LruCache<V> {
  private readonly entries = new Map<string, V>();
  constructor(readonly maxEntries: number) {}
  get(key: string): V | undefined {
    const value = this.entries.get(key);
    if (value !== undefined) {
      this.entries.delete(key);
      this.entries.set(key, value);
    }
    return value;
  }
  set(key: string, value: V): void {
    this.entries.delete(key);
    this.entries.set(key, value);
    while (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
  }
  get size(): number {
    return this.entries.size;
  }
}

/** Finds, parses and compiles the robots.txt of each host on demand. */
export class RobotsDirectory {
  private readonly cache: LruCache<RobotsMatcher>;
  private readonly missingMatcher: RobotsMatcher;
  /** URLs answered by the missing policy because they name no host. */
  noHostCount = 0;
  /** Hosts (with port) that had no robots file. */
  readonly missingHosts = new Set<string>();

  constructor(
    private readonly directory: string,
    private readonly agents: readonly string[],
    private readonly mode: RobotsMode,
    private readonly maxBytes: number,
    missing: MissingPolicy,
    maxCachedHosts = 10_000,
  ) {
    this.cache = new LruCache(maxCachedHosts);
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
    const candidates = where.port === null ? [`${where.host}.txt`] : [`${where.host}:${where.port}.txt`, `${where.host}.txt`];
    let matcher = this.missingMatcher;
    let found = false;
    for (const name of candidates) {
      const path = join(this.directory, name);
      let body: Uint8Array;
      try {
        body = readFileSync(path);
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code === 'ENOENT' || code === 'ENAMETOOLONG') continue;
        throw new RobotsError('FILE_UNREADABLE', `cannot read robots file '${path}': ${code === 'EACCES' ? 'permission denied' : code === 'EISDIR' ? 'is a directory' : String(code)}`);
      }
      matcher = parseRobots(body, { mode: this.mode, maxBytes: this.maxBytes }).matcher(this.agents);
      found = true;
      break;
    }
    if (!found) this.missingHosts.add(key);
    this.cache.set(key, matcher);
    return matcher;
  }
}
