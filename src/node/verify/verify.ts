// Is a request that claims to be a crawler really that crawler? The vendors publish how to tell: the IP
// ranges their crawlers use (JSON files, one per kind of crawler for some vendors) and, for some, reverse
// DNS names confirmed by a forward lookup. The table of src/node/crawlers/families.ts says which file covers which
// crawler (a Googlebot is judged by Google's common crawlers' file alone, a GPTBot by gptbot.json alone);
// range files read with ipaddr.js; DNS through node:dns (or a resolver the caller gives: tests use a fake one). Used by
// audit --verify, once per request (cached per crawler family and address).
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import dns from 'node:dns/promises';
import ipaddr from 'ipaddr.js';
import pLimit from 'p-limit';
import { RobotsError } from '../../core/errors.js';
import { asciiLowerCase } from '../../core/robots.js';
import { readRegularFile } from '../robots-file.js';
import { CRAWLER_RANGE_SOURCES, CRAWLER_VENDORS, publishedName, rangeSourceOfFile, type CrawlerFamily, type CrawlerRangeSource, type CrawlerVendor, type Verification } from '../crawlers/index.js';

export { CRAWLER_RANGE_SOURCES, CRAWLER_VENDORS, VERIFICATIONS, familyOfCrawler, publishedName, rangeSourceOfFile, vendorOfCrawler } from '../crawlers/index.js';
export type { CrawlerFamily, CrawlerRangeSource, CrawlerVendor, Verification } from '../crawlers/index.js';

/** The largest crawler range file read or kept (Google's largest is tens of KB). */
export const MAX_RANGE_FILE_BYTES = 8 << 20;


/** What `<name>=<file>` names: a range source (its id or published name) or a vendor (its id: a file of its that is none of its published ones). */
function rangeTargetOf(name: string): { source: CrawlerRangeSource | null; vendor: CrawlerVendor } | null {
  const lower = asciiLowerCase(name);
  const source = rangeSourceOfFile(lower.endsWith('.json') ? lower : `${lower}.json`);
  if (source !== null) return { source, vendor: vendorOfSource(source) };
  const vendor = CRAWLER_VENDORS.find((v) => v.id === lower);
  return vendor === undefined ? null : { source: null, vendor };
}

const vendorOfSource = (source: CrawlerRangeSource): CrawlerVendor => CRAWLER_VENDORS.find((v) => v.ranges.includes(source)) as CrawlerVendor;

/** An address as a number (IPv4 in [0, 2^32), IPv6 as a bigint), or null when it is no address. */
type Address = { v6: false; value: number } | { v6: true; value: bigint };

function parseAddress(text: string): Address | null {
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    parsed = ipaddr.process(text.trim().replace(/^\[(.*)\]$/, '$1'));
  } catch {
    return null;
  }
  return addressOf(parsed);
}

/** The number of a parsed address (one rule for addresses and for the starts of prefixes). */
function addressOf(parsed: ipaddr.IPv4 | ipaddr.IPv6): Address {
  const bytes = parsed.toByteArray();
  if (parsed.kind() === 'ipv4') return { v6: false, value: ((bytes[0] << 24) | (bytes[1] << 16) | (bytes[2] << 8) | bytes[3]) >>> 0 };
  let value = 0n;
  for (const byte of bytes) value = (value << 8n) | BigInt(byte);
  return { v6: true, value };
}

/** Sorted, merged intervals of one address family: a binary search per lookup (O(log ranges)). */
class IntervalSet<T extends number | bigint> {
  private starts: T[] = [];
  private ends: T[] = [];
  private pending: [T, T][] = [];
  add(start: T, end: T): void {
    this.pending.push([start, end]);
  }
  /** Sorts and merges what was added (once, after the files are read). */
  seal(): void {
    const all = [...this.starts.map((start, i): [T, T] => [start, this.ends[i]]), ...this.pending].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
    this.starts = [];
    this.ends = [];
    this.pending = [];
    for (const [start, end] of all) {
      const last = this.ends.length - 1;
      if (last >= 0 && start <= this.ends[last]) {
        if (end > this.ends[last]) this.ends[last] = end;
      } else {
        this.starts.push(start);
        this.ends.push(end);
      }
    }
  }
  get size(): number {
    return this.starts.length;
  }
  has(value: T): boolean {
    let low = 0;
    let high = this.starts.length - 1;
    while (low <= high) {
      const middle = (low + high) >> 1;
      if (value < this.starts[middle]) high = middle - 1;
      else if (value > this.ends[middle]) low = middle + 1;
      else return true;
    }
    return false;
  }
}

/** The most specific labelled prefix of an address (JAFAR: the largest prefix length wins), per family. */
class LabelledPrefixes {
  /** prefix length -> network start -> services. */
  private readonly v4 = new Map<number, Map<number, readonly string[]>>();
  private readonly v6 = new Map<number, Map<bigint, readonly string[]>>();
  size = 0;
  add(address: Address, bits: number, services: readonly string[]): void {
    if (address.v6) {
      const byStart = this.v6.get(bits) ?? this.v6.set(bits, new Map()).get(bits) as Map<bigint, readonly string[]>;
      byStart.set(address.value, services);
    } else {
      const byStart = this.v4.get(bits) ?? this.v4.set(bits, new Map()).get(bits) as Map<number, readonly string[]>;
      byStart.set(address.value, services);
    }
    this.size++;
  }
  /** The services of the longest labelled prefix holding the address, or null. */
  servicesOf(address: Address): readonly string[] | null {
    if (this.size === 0) return null;
    if (address.v6) {
      for (const bits of [...this.v6.keys()].sort((a, b) => b - a)) {
        const size = 1n << BigInt(128 - bits);
        const found = this.v6.get(bits)?.get((address.value / size) * size);
        if (found !== undefined) return found;
      }
      return null;
    }
    for (const bits of [...this.v4.keys()].sort((a, b) => b - a)) {
      const size = 2 ** (32 - bits);
      const found = this.v4.get(bits)?.get(Math.floor(address.value / size) * size);
      if (found !== undefined) return found;
    }
    return null;
  }
}

/** One file's ranges: IPv4 and IPv6 intervals, and the service labels of the prefixes that have some. */
class RangeSet {
  readonly v4 = new IntervalSet<number>();
  readonly v6 = new IntervalSet<bigint>();
  readonly labels = new LabelledPrefixes();
  has(address: Address): boolean {
    return address.v6 ? this.v6.has(address.value) : this.v4.has(address.value);
  }
}

/** A range file given to the verifier: what it stands for, and whether it can decide. */
interface LoadedFile {
  path: string;
  /** The published file it is (null: a file of the vendor named by `<vendor>=<path>`, which verifies but never completes a family). */
  source: CrawlerRangeSource | null;
  vendor: CrawlerVendor;
  /** Its ranges; null when it failed validation (then `problem` says why). */
  ranges: RangeSet | null;
  problem: string | null;
  /** When it was made (its creationTime, else the store's fetchedAt, else the file's time), ms since the epoch. */
  madeMs: number;
}

/** One prefix of a range file, with its JAFAR service labels (none: []). */
export interface RangePrefix {
  cidr: string;
  services: readonly string[];
}

/** The JAFAR major version this reader handles: a file of a later major version is not read (its schema may mean otherwise). */
const JAFAR_MAJOR = 1;

/**
 * The prefixes of a range file: `{"prefixes": [{"ipv4Prefix": ...} | {"ipv6Prefix": ...}]}` (Google, Bing,
 * OpenAI, Perplexity, Apple, Common Crawl; JAFAR, draft-illyes-webbotauth-jafar, with per-prefix `services`
 * or `service` labels and a `formatVersion`, whose major version past JAFAR_MAJOR is refused), else every
 * string of the JSON that is a CIDR prefix (other vendors' layouts). Throws RANGES_INVALID naming the file
 * when it is not JSON, of a later format, or holds no prefix (an "Action needed" page, a file emptied).
 */
export function readRangeFile(text: string, where: string): RangePrefix[] {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new RobotsError('RANGES_INVALID', `${where}: not JSON (${(error as Error).message})`);
  }
  const top = json !== null && typeof json === 'object' && !Array.isArray(json) ? json as Record<string, unknown> : null;
  const version = top?.formatVersion ?? top?.version;
  if (version !== undefined) {
    const major = Number(String(version).split('.')[0]);
    if (!Number.isInteger(major) || major > JAFAR_MAJOR) throw new RobotsError('RANGES_INVALID', `${where}: format version ${JSON.stringify(version)} is not one this reader knows (JAFAR ${JAFAR_MAJOR}.x): not read`);
  }
  const prefixes: RangePrefix[] = [];
  if (Array.isArray(top?.prefixes) && top.prefixes.some((entry) => entry !== null && typeof entry === 'object' && ('ipv4Prefix' in entry || 'ipv6Prefix' in entry))) {
    for (const entry of top.prefixes as Record<string, unknown>[]) {
      if (entry === null || typeof entry !== 'object') continue;
      const v4 = entry.ipv4Prefix;
      const v6 = entry.ipv6Prefix;
      // exactly one of the two (JAFAR: an object with both or neither is ignored)
      const cidr = typeof v4 === 'string' && v6 === undefined ? v4 : typeof v6 === 'string' && v4 === undefined ? v6 : null;
      if (cidr === null || !ipaddr.isValidCIDR(cidr.trim())) continue;
      const listed = Array.isArray(entry.services) ? entry.services : typeof entry.service === 'string' ? [entry.service] : [];
      prefixes.push({ cidr: cidr.trim(), services: listed.filter((label): label is string => typeof label === 'string') });
    }
  } else {
    const visit = (value: unknown, depth: number): void => {
      if (depth > 16) return;
      if (typeof value === 'string') {
        if (value.includes('/') && ipaddr.isValidCIDR(value.trim())) prefixes.push({ cidr: value.trim(), services: [] });
      } else if (Array.isArray(value)) {
        for (const item of value) visit(item, depth + 1);
      } else if (value !== null && typeof value === 'object') {
        for (const item of Object.values(value)) visit(item, depth + 1);
      }
    };
    visit(json, 0);
  }
  if (prefixes.length === 0) throw new RobotsError('RANGES_INVALID', `${where}: no IP prefix in it (expected {"prefixes": [{"ipv4Prefix": "a.b.c.d/n"}, ...]}; a vendor that moved its file may serve an empty one at the old address)`);
  return prefixes;
}

/** The CIDR prefixes of a range file (readRangeFile without the labels). */
export function prefixesOfRangeFile(text: string, where: string): string[] {
  return readRangeFile(text, where).map((prefix) => prefix.cidr);
}

/** Forward and reverse lookups (default: node:dns; tests give their own). */
export interface DnsResolver {
  /** The names of an address's PTR records. */
  reverse(address: string): Promise<string[]>;
  /** The addresses (IPv4 and IPv6) of a name. */
  lookup(name: string): Promise<string[]>;
}

/** node:dns as a DnsResolver. */
export const systemResolver: DnsResolver = {
  reverse: (address) => dns.reverse(address),
  lookup: async (name) => (await dns.lookup(name, { all: true, verbatim: true })).map((entry) => entry.address),
};

/** The largest age limit a number can set (100 years: a log of any year with today's files); past it, 'any'. */
export const MAX_RANGES_AGE_DAYS = 36_500;

/** Range files older than this many days do not decide impostors by default (they still verify: see rangesMaxAgeDays). */
export const DEFAULT_RANGES_MAX_AGE_DAYS = 30;

/** Options of a CrawlerVerifier. */
export interface CrawlerVerifierOptions {
  /**
   * Range files or folders of them (file names as rangeSourceOfFile reads them), or `<name>=<file>` for a
   * file saved under another name: name a source (`googlebot.json`, `google-common-crawlers`) or a vendor
   * (`google`: a file that is none of its published ones).
   */
  rangeFiles?: readonly string[];
  /**
   * A file made (by its creationTime, else the fetchedAt its store recorded, else its modification time)
   * more than this many days before or after a request is stale for it: an address in it still verifies,
   * but an address outside it is not-checked rather than an impostor's (vendors add and retire ranges).
   * 1 to 36,500; default 30; 'any': files of any age decide (an old log verified with today's files, on purpose).
   */
  rangesMaxAgeDays?: number | 'any';
  /** The time of requests that have none (ms since the epoch; default: now). */
  nowMs?: number;
  /** Also forward-confirmed reverse DNS, for vendors that publish DNS names. */
  dns?: boolean;
  resolver?: DnsResolver;
  /**
   * An address whose reverse DNS name is known to resolve back to it, asked before any DNS answer is
   * believed (default 66.249.66.1, a Googlebot address: crawl-66-249-66-1.googlebot.com). When the resolver
   * cannot confirm it (offline, a sandbox, a resolver that answers NXDOMAIN for everything), every answer
   * that would rest on DNS alone is unknown, and dnsCheck says why.
   */
  dnsProbe?: string;
  /** Deadline of one DNS lookup, ms (default 5,000). */
  dnsTimeoutMs?: number;
  /** DNS lookups at once (default 32). */
  dnsConcurrency?: number;
  /** Files of a folder that name no range source, and files that fail validation, are reported here, a sentence each (no prefix, no newline). */
  warn?: (sentence: string) => void;
}

/** The default DNS probe: a Googlebot address whose PTR (crawl-66-249-66-1.googlebot.com) resolves back to it. */
export const DEFAULT_DNS_PROBE = '66.249.66.1';

/** Why a verdict is unknown or not-checked (counted per request, for the report). */
type Reason = 'files' | 'dns-unusable' | 'dns-error' | 'no-address' | 'no-method';

/** A verdict, why it is unknown or not-checked, the services of the most specific labelled prefix of a verified address, and the file that holds the address. */
interface Classified {
  verdict: Verification;
  reason: Reason | null;
  services: readonly string[] | null;
  heldBy: CrawlerRangeSource | null;
}

/**
 * What is known of a family and address, whatever the request's time: in a covering file (verified), a
 * verdict of DNS, or outside the covering files (then the verdict depends on which files were fresh at the
 * request's time). heldBy: the file of the vendor that holds it.
 */
type Lookup =
  | { kind: 'verified'; services: readonly string[] | null; heldBy: CrawlerRangeSource | null }
  | { kind: 'dns'; verdict: Verification; reason: Reason | null; heldBy: CrawlerRangeSource | null }
  | { kind: 'outside'; heldBy: CrawlerRangeSource | null };

/** What a claim came out as, for audit: the verdict, the JAFAR services of a verified address, and the read range file of the vendor that holds the address (null: none, or DNS decided). */
export interface ClaimVerdict {
  verdict: Verification;
  services: readonly string[] | null;
  heldBy: CrawlerRangeSource | null;
}

/** What the verdicts of a crawler family's requests rested on, for the report: per family claimed in the log. */
export interface FamilyCoverage {
  family: string;
  /** What the family is ("Googlebot and Google's common crawlers"). */
  name: string;
  vendor: string;
  /** The covering range files read (paths). */
  files: string[];
  /** Its covering files not given (by published name). */
  missing: string[];
  /** Covering files given but older than the limit (path, age in whole days). */
  stale: { file: string; days: number }[];
  /** Covering files given that failed validation (path, why). */
  invalid: { file: string; reason: string }[];
  /** Requests claiming the family, and those not-checked for want of a file. */
  requests: number;
  notChecked: number;
}

/** Verdicts kept per family and address; then the table starts again (memory stays bounded). */
const VERDICT_CACHE = 200_000;

const DAY_MS = 86_400_000;

interface FamilyCounts { family: CrawlerFamily; requests: number; notChecked: number; dnsUnusable: number; stale: Map<string, number> }

/** The time a range file was made: its creationTime (Google's, JAFAR's), else null. */
function creationTimeOf(text: string): number | null {
  const match = /"creationTime"\s*:\s*"([^"]{1,64})"/.exec(text.slice(0, 4096));
  if (match === null) return null;
  const stamp = /[zZ]|[+-]\d\d:?\d\d$/.test(match[1]) ? match[1] : `${match[1]}Z`;
  const ms = Date.parse(stamp);
  return Number.isFinite(ms) ? ms : null;
}

/**
 * Classifies requests by claimed crawler family and client address (see Verification): an address is
 * verified by a file that covers the claimed crawler (or DNS), an impostor's when every covering file was
 * read, is fresh and holds none of it (or DNS names another owner), not-checked when a covering file is
 * missing, stale or invalid. The vendor's other files are read too, to say where an address is from (a
 * GPTBot from ChatGPT-User's ranges). One per audit.
 */
export class CrawlerVerifier {
  /** Files read, by source id; files of a vendor named `<vendor>=<path>`, by vendor id. */
  private readonly bySource = new Map<string, LoadedFile[]>();
  private readonly vendorFiles = new Map<string, LoadedFile[]>();
  private readonly lookups = new Map<string, Lookup>();
  private readonly resolver: DnsResolver;
  private readonly dnsTimeoutMs: number;
  private readonly dnsProbe: string;
  private readonly limit: ReturnType<typeof pLimit>;
  /** Days a range file may lie from a request and still decide impostors; null: any (files of any age decide, on purpose). */
  private readonly maxAgeDays: number | null;
  private readonly nowMs: number;
  readonly dns: boolean;
  /** The resolver's check: null until made (on the first DNS need), then whether it passed and why not. */
  private probe: Promise<string | null> | null = null;
  private probeProblem: string | null | undefined = undefined;
  /** Requests classified per claimed family, those not-checked for want of files (and the stale files by the most days apart), and those DNS could not tell. */
  private readonly claimed = new Map<string, FamilyCounts>();

  constructor(options: CrawlerVerifierOptions = {}) {
    this.dns = options.dns === true;
    this.resolver = options.resolver ?? systemResolver;
    this.dnsTimeoutMs = options.dnsTimeoutMs ?? 5_000;
    this.dnsProbe = options.dnsProbe ?? DEFAULT_DNS_PROBE;
    const maxAge = options.rangesMaxAgeDays ?? DEFAULT_RANGES_MAX_AGE_DAYS;
    if (maxAge !== 'any' && (!Number.isInteger(maxAge) || maxAge < 1 || maxAge > MAX_RANGES_AGE_DAYS)) throw new RobotsError('INVALID_ARGUMENT', `rangesMaxAgeDays must be a whole number of days from 1 to ${MAX_RANGES_AGE_DAYS}, or 'any', got ${String(maxAge)}`);
    this.maxAgeDays = maxAge === 'any' ? null : maxAge;
    this.nowMs = options.nowMs ?? Date.now();
    if (parseAddress(this.dnsProbe) === null) throw new RobotsError('INVALID_ARGUMENT', `dnsProbe must be an IP address, got ${JSON.stringify(this.dnsProbe)}`);
    this.limit = pLimit(options.dnsConcurrency ?? 32);
    for (const path of options.rangeFiles ?? []) this.loadPath(path, options.warn ?? (() => undefined));
  }

  /** The range files given, per vendor id (for reports). */
  get loaded(): { vendor: string; files: string[] }[] {
    const byVendor = new Map<string, string[]>();
    for (const file of [...this.bySource.values(), ...this.vendorFiles.values()].flat()) {
      const files = byVendor.get(file.vendor.id) ?? byVendor.set(file.vendor.id, []).get(file.vendor.id) as string[];
      files.push(file.path);
    }
    return [...byVendor].map(([vendor, files]) => ({ vendor, files }));
  }

  /** True when a file was made within the age limit of a time. */
  private freshAt(file: LoadedFile, atMs: number): boolean {
    return this.maxAgeDays === null || Math.abs(atMs - file.madeMs) <= this.maxAgeDays * DAY_MS;
  }

  /** The state of a published file at a time: read (a valid file made within the limit of it), stale, invalid or missing. */
  private sourceState(source: CrawlerRangeSource, atMs: number): 'read' | 'stale' | 'invalid' | 'missing' {
    const files = this.bySource.get(source.id) ?? [];
    if (files.length === 0) return 'missing';
    if (files.some((file) => file.ranges !== null && this.freshAt(file, atMs))) return 'read';
    return files.some((file) => file.ranges !== null) ? 'stale' : 'invalid';
  }

  /** True when every file that covers the family was read, valid and fresh at the time: an address outside them all is an impostor's. */
  private complete(family: CrawlerFamily, atMs: number): boolean {
    return family.covering.length > 0 && family.covering.every((source) => this.sourceState(source, atMs) === 'read');
  }

  /** Per crawler family claimed by a request so far: its covering files read, missing, stale (for some request) and invalid, its requests, and those not-checked. For the report. */
  coverage(): FamilyCoverage[] {
    return [...this.claimed.values()].map(({ family, requests, notChecked, stale }) => {
      const given = family.covering.flatMap((source) => this.bySource.get(source.id) ?? []);
      return {
        family: family.id, name: family.name, vendor: family.vendor.id,
        files: given.filter((file) => file.ranges !== null).map((file) => file.path),
        missing: family.covering.filter((source) => !this.bySource.has(source.id)).map(publishedName),
        stale: [...stale].map(([file, days]) => ({ file, days })),
        invalid: given.filter((file) => file.ranges === null && given.every((other) => other.source !== file.source || other.ranges === null)).map((file) => ({ file: file.path, reason: file.problem ?? '' })),
        requests, notChecked,
      };
    });
  }

  /** The age limit of range files, in days (reports quote it); null when any age is taken. */
  get rangesMaxAgeDays(): number | null {
    return this.maxAgeDays;
  }

  /**
   * DNS verification's state: null when it is not asked for or the resolver passed its check (or has not
   * been needed yet); else why DNS answers are not believed, and the requests left unknown because of it.
   */
  get dnsProblem(): { reason: string; unknown: number } | null {
    if (!this.dns || this.probeProblem === undefined || this.probeProblem === null) return null;
    let unknown = 0;
    for (const counts of this.claimed.values()) unknown += counts.dnsUnusable;
    return { reason: this.probeProblem, unknown };
  }

  private loadPath(path: string, warn: (text: string) => void): void {
    // <name>=<file>: a file saved under another name
    const named = /^([A-Za-z0-9._-]+)=(.+)$/.exec(path);
    if (named !== null && !existsSync(path)) {
      const target = rangeTargetOf(named[1]);
      if (target === null) throw new RobotsError('RANGES_INVALID', `${path}: '${named[1]}' names no vendor or range file (vendors: ${CRAWLER_VENDORS.filter((v) => v.ranges.length > 0).map((v) => v.id).join(', ')}; files: ${CRAWLER_RANGE_SOURCES.map(publishedName).join(', ')})`);
      this.loadFile(named[2], target.source, target.vendor, warn);
      return;
    }
    let isDirectory: boolean;
    try {
      isDirectory = statSync(path).isDirectory();
    } catch (error) {
      throw new RobotsError('FILE_UNREADABLE', `cannot read crawler ranges ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
    }
    if (!isDirectory) {
      const source = rangeSourceOfFile(basename(path));
      if (source === null) throw new RobotsError('RANGES_INVALID', `${path}: the file name names no vendor's range file (expected a published name such as ${CRAWLER_RANGE_SOURCES.map(publishedName).slice(0, 4).join(', ')}, ..., an id such as google-common-crawlers.json, or <vendor or file>=<path>)`);
      this.loadFile(path, source, vendorOfSource(source), warn);
      return;
    }
    const names = readdirSync(path).filter((name) => name.endsWith('.json')).sort();
    for (const name of names) {
      const source = rangeSourceOfFile(name);
      if (source === null) {
        if (!name.endsWith('.meta.json')) warn(`${join(path, name)}: names no vendor's range file: skipped (name it <vendor or file>=<path> to read it)`);
        continue;
      }
      this.loadFile(join(path, name), source, vendorOfSource(source), warn);
    }
  }

  /** When a file was made: its creationTime, else the fetchedAt of the `<id>.meta.json` beside it (a store's), else its modification time. */
  private madeAt(path: string, text: string, source: CrawlerRangeSource | null): number {
    const created = creationTimeOf(text);
    if (created !== null) return created;
    if (source !== null) {
      try {
        const meta = JSON.parse(readFileSync(join(dirname(path), `${source.id}.meta.json`), 'utf8')) as { fetchedAt?: unknown };
        const fetched = typeof meta.fetchedAt === 'string' ? Date.parse(meta.fetchedAt) : NaN;
        if (Number.isFinite(fetched)) return fetched;
      } catch {
        // no record beside it: the file's own time
      }
    }
    return statSync(path).mtimeMs;
  }

  private loadFile(path: string, source: CrawlerRangeSource | null, vendor: CrawlerVendor, warn: (text: string) => void): void {
    // unreadable (a FIFO, a device, too large, absent): an error; readable but not a range file: said, and what it covers is not-checked
    const text = Buffer.from(readRegularFile(path, MAX_RANGE_FILE_BYTES, 'crawler range file')).toString('utf8');
    const file: LoadedFile = { path, source, vendor, ranges: null, problem: null, madeMs: this.madeAt(path, text, source) };
    if (source === null) (this.vendorFiles.get(vendor.id) ?? this.vendorFiles.set(vendor.id, []).get(vendor.id) as LoadedFile[]).push(file);
    else (this.bySource.get(source.id) ?? this.bySource.set(source.id, []).get(source.id) as LoadedFile[]).push(file);
    let prefixes: RangePrefix[];
    try {
      prefixes = readRangeFile(text, path);
    } catch (error) {
      if (!(error instanceof RobotsError) || error.code !== 'RANGES_INVALID') throw error;
      file.problem = error.message.startsWith(`${path}: `) ? error.message.slice(path.length + 2) : error.message;
      warn(`${error.message}; the crawlers it covers are not checked`);
      return;
    }
    const ranges = new RangeSet();
    for (const prefix of prefixes) {
      let [parsed, bits] = ipaddr.parseCIDR(prefix.cidr);
      // an IPv4-mapped IPv6 prefix is an IPv4 one (addresses are read that way: ipaddr.process)
      if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress() && bits >= 96) [parsed, bits] = [(parsed as ipaddr.IPv6).toIPv4Address(), bits - 96];
      const address = addressOf(parsed);
      if (!address.v6) {
        const size = 2 ** (32 - bits);
        const start = Math.floor(address.value / size) * size;
        ranges.v4.add(start, start + size - 1);
        if (prefix.services.length > 0) ranges.labels.add({ v6: false, value: start }, bits, prefix.services);
      } else {
        const size = 1n << BigInt(128 - bits);
        const start = (address.value / size) * size;
        ranges.v6.add(start, start + size - 1n);
        if (prefix.services.length > 0) ranges.labels.add({ v6: true, value: start }, bits, prefix.services);
      }
    }
    ranges.v4.seal();
    ranges.v6.seal();
    file.ranges = ranges;
  }

  /** True when some range file was given (audit --verify without --verify dns needs some). */
  get hasRanges(): boolean {
    return this.bySource.size > 0 || this.vendorFiles.size > 0;
  }

  private key(family: CrawlerFamily, client: string): string {
    return `${family.id} ${client}`;
  }

  /** The first valid file of these sources (and then of the vendor's own unnamed files, when asked) that holds the address. */
  private holder(sources: readonly CrawlerRangeSource[], address: Address, vendor: CrawlerVendor | null): LoadedFile | null {
    for (const source of sources) {
      for (const file of this.bySource.get(source.id) ?? []) if (file.ranges?.has(address) === true) return file;
    }
    if (vendor !== null) for (const file of this.vendorFiles.get(vendor.id) ?? []) if (file.ranges?.has(address) === true) return file;
    return null;
  }

  /**
   * The range file read, of any vendor, that holds an address (null: none, or no usable address): where a request
   * whose identity a signature proved came from, when its own vendor's files do not hold it. Per signed request.
   */
  fileHolding(client: string | null): { name: string; vendor: string } | null {
    const address = client === null ? null : parseAddress(client);
    if (address === null) return null;
    for (const files of [...this.bySource.values(), ...this.vendorFiles.values()]) {
      for (const file of files) if (file.ranges?.has(address) === true) return { name: file.source === null ? file.path.replace(/^.*[\\/]/, '') : publishedName(file.source), vendor: file.vendor.id };
    }
    return null;
  }

  /** True when classify needs a DNS answer that prepare has not fetched yet. */
  needsDns(family: CrawlerFamily, client: string): boolean {
    if (!this.dns || family.dnsSuffixes.length === 0 || this.lookups.has(this.key(family, client))) return false;
    const address = parseAddress(client);
    return address !== null && this.holder(family.covering, address, family.vendor) === null;
  }

  /**
   * Looks up, at most dnsConcurrency at once, what classify will need for these requests; before the first
   * lookup, checks the resolver on the probe address. Per chunk of lines.
   */
  async prepare(claims: readonly { family: CrawlerFamily; client: string }[]): Promise<void> {
    const wanted = new Map<string, { family: CrawlerFamily; client: string }>();
    for (const claim of claims) if (this.needsDns(claim.family, claim.client)) wanted.set(this.key(claim.family, claim.client), claim);
    if (wanted.size === 0) return;
    this.probe ??= this.checkResolver();
    this.probeProblem = await this.probe;
    if (this.probeProblem !== null) return; // classify answers by the ranges alone (see classified)
    await Promise.all([...wanted.values()].map((claim) => this.limit(async () => {
      this.remember(this.key(claim.family, claim.client), { kind: 'dns', ...await this.confirmedByDns(claim.family, claim.client), heldBy: this.heldElsewhere(claim.family, claim.client) });
    })));
  }

  /** The vendor's other file (not covering the family) that holds the address, or null. */
  private heldElsewhere(family: CrawlerFamily, client: string): CrawlerRangeSource | null {
    const address = parseAddress(client);
    if (address === null) return null;
    return this.holder(family.vendor.ranges.filter((source) => !family.covering.includes(source)), address, null)?.source ?? null;
  }

  /** Null when the resolver gives the probe's PTR name and that name resolves back to it; else why not. */
  private async checkResolver(): Promise<string | null> {
    const probe = this.dnsProbe;
    let names: string[];
    try {
      names = await this.withDeadline(this.resolver.reverse(probe));
    } catch (error) {
      return `the resolver could not give the name of ${probe}, a known crawler address (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`;
    }
    if (names.length === 0) return `the resolver gave no name for ${probe}, a known crawler address`;
    const expected = parseAddress(probe) as Address;
    for (const name of names) {
      let addresses: string[];
      try {
        addresses = await this.withDeadline(this.resolver.lookup(name.replace(/\.$/, '')));
      } catch {
        continue;
      }
      if (addresses.some((text) => { const other = parseAddress(text); return other !== null && other.v6 === expected.v6 && other.value === expected.value; })) return null;
    }
    return `the name the resolver gave for ${probe}, a known crawler address, does not resolve back to it (${names[0]})`;
  }

  private remember(key: string, lookup: Lookup): void {
    if (this.lookups.size >= VERDICT_CACHE) this.lookups.clear();
    this.lookups.set(key, lookup);
  }

  private async withDeadline<T>(work: Promise<T>): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<never>((_, reject) => { timer = setTimeout(() => reject(new Error('DNS timeout')), this.dnsTimeoutMs); });
    try {
      return await Promise.race([work, deadline]);
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * Forward-confirmed reverse DNS: a PTR name under one of the family's suffixes whose addresses include
   * the client's. No such name: impostor (when the PTR answer came or said there is none: the resolver
   * passed its check); DNS errors: unknown.
   */
  private async confirmedByDns(family: CrawlerFamily, client: string): Promise<Omit<Classified, 'heldBy'>> {
    const address = parseAddress(client) as Address;
    const unknown = { verdict: 'unknown', reason: 'dns-error', services: null } as const;
    let names: string[];
    try {
      names = await this.withDeadline(this.resolver.reverse(client.trim().replace(/^\[(.*)\]$/, '$1')));
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      return code === 'ENOTFOUND' || code === 'ENODATA' ? { verdict: 'impostor', reason: null, services: null } : unknown;
    }
    for (const raw of names) {
      const name = asciiLowerCase(raw.replace(/\.$/, ''));
      if (!family.dnsSuffixes.some((suffix) => name.endsWith(`.${suffix}`))) continue;
      let addresses: string[];
      try {
        addresses = await this.withDeadline(this.resolver.lookup(name));
      } catch {
        return unknown;
      }
      if (addresses.some((text) => { const other = parseAddress(text); return other !== null && other.v6 === address.v6 && other.value === address.value; })) return { verdict: 'verified', reason: null, services: null };
    }
    return { verdict: 'impostor', reason: null, services: null };
  }

  /**
   * A request's claim: the crawler family its crawler names (null: nothing to verify, unknown), its client
   * address, and its time (ms; null: the verifier's now), which says which files were fresh for it.
   * Synchronous: DNS answers come from prepare (one not prepared is unknown). Per request.
   */
  classify(family: CrawlerFamily | null, client: string | null, atMs: number | null = null): Verification {
    return this.classifyClaim(family, client, atMs).verdict;
  }

  /** classify, with the services of the most specific labelled prefix of a verified address (JAFAR) and the vendor's file that holds the address. Per request. */
  classifyClaim(family: CrawlerFamily | null, client: string | null, atMs: number | null = null): ClaimVerdict {
    if (family === null) return { verdict: 'unknown', services: null, heldBy: null };
    const at = atMs ?? this.nowMs;
    const classified = this.classified(family, client, at);
    let counts = this.claimed.get(family.id);
    if (counts === undefined) {
      counts = { family, requests: 0, notChecked: 0, dnsUnusable: 0, stale: new Map() };
      this.claimed.set(family.id, counts);
    }
    counts.requests++;
    if (classified.reason === 'files') {
      counts.notChecked++;
      for (const source of family.covering) {
        if (this.sourceState(source, at) !== 'stale') continue;
        for (const file of this.bySource.get(source.id) ?? []) {
          if (file.ranges === null) continue;
          const days = Math.floor(Math.abs(at - file.madeMs) / DAY_MS);
          if (days > (counts.stale.get(file.path) ?? -1)) counts.stale.set(file.path, days);
        }
      }
    }
    if (classified.reason === 'dns-unusable') counts.dnsUnusable++;
    return { verdict: classified.verdict, services: classified.services, heldBy: classified.heldBy };
  }

  /** What is known of a family and address whatever the time (cached), or null for no usable address. */
  private lookup(family: CrawlerFamily, client: string): Lookup | null {
    const key = this.key(family, client);
    const known = this.lookups.get(key);
    if (known !== undefined) return known;
    const address = parseAddress(client);
    if (address === null) return null;
    const holder = this.holder(family.covering, address, family.vendor);
    // an address in another of the vendor's files: what it is (a GPTBot from ChatGPT-User's ranges), never a verified claim
    const lookup: Lookup = holder !== null ? { kind: 'verified', services: (holder.ranges as RangeSet).labels.servicesOf(address), heldBy: holder.source }
      : { kind: 'outside', heldBy: this.holder(family.vendor.ranges.filter((source) => !family.covering.includes(source)), address, null)?.source ?? null };
    this.remember(key, lookup);
    return lookup;
  }

  private classified(family: CrawlerFamily, client: string | null, atMs: number): Classified {
    const lookup = client === null || client === '' ? null : this.lookup(family, client);
    if (lookup === null) return { verdict: 'unknown', reason: 'no-address', services: null, heldBy: null };
    if (lookup.kind === 'verified') return { verdict: 'verified', reason: null, services: lookup.services, heldBy: lookup.heldBy };
    if (lookup.kind === 'dns') return { verdict: lookup.verdict, reason: lookup.reason, services: null, heldBy: lookup.heldBy };
    const heldBy = lookup.heldBy;
    const byDns = this.dns && family.dnsSuffixes.length > 0;
    // a DNS answer prepare did not fetch (with a resolver that passed its check)
    if (byDns && typeof this.probeProblem !== 'string') return { verdict: 'unknown', reason: 'dns-error', services: null, heldBy };
    if (this.complete(family, atMs)) return { verdict: 'impostor', reason: null, services: null, heldBy };
    // with a resolver that failed its check, what DNS alone would have told is unknown
    if (family.covering.length === 0) return { verdict: 'unknown', reason: byDns ? 'dns-unusable' : 'no-method', services: null, heldBy };
    return { verdict: 'not-checked', reason: 'files', services: null, heldBy };
  }
}
