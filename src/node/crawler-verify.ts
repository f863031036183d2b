// Is a request that claims to be a vendor's crawler really from that vendor? The vendors publish how to
// tell: the IP ranges their crawlers use (JSON files) and, for some, reverse DNS names confirmed by a
// forward lookup. One table of vendors below; range files read with ipaddr.js; DNS through node:dns (or a
// resolver the caller gives: tests use a fake one). Used by audit --verify, once per request (cached per
// vendor and address).
import { existsSync, readdirSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import dns from 'node:dns/promises';
import ipaddr from 'ipaddr.js';
import pLimit from 'p-limit';
import { RobotsError } from '../core/errors.js';
import { asciiLowerCase } from '../core/robots.js';
import { readRegularFile } from './robots-file.js';

/** The largest crawler range file read or kept (Google's largest is tens of KB). */
export const MAX_RANGE_FILE_BYTES = 8 << 20;

/** How a request's claim to be a vendor's crawler came out. */
export type Verification = 'verified' | 'failed' | 'unknown';

/** One published file of IP ranges. */
export interface CrawlerRangeSource {
  /** The file's name in a store (`<store>/crawler-ranges/<id>.json`) and in --ranges-url. */
  id: string;
  url: string;
  /** Names the vendor published it under before (a file saved then, and every guide since, has one of them). */
  formerNames?: readonly string[];
}

/** A crawler vendor: which crawler names claim it, where its ranges are published, which DNS names it uses. */
export interface CrawlerVendor {
  id: string;
  name: string;
  /** True when a crawler name (lower case, as audit names a crawler) claims to be this vendor's. */
  claims: (name: string) => boolean;
  ranges: readonly CrawlerRangeSource[];
  /** Reverse DNS names of its crawlers end with one of these (after a dot), confirmed by a forward lookup. */
  dnsSuffixes: readonly string[];
}

const GOOGLE_RANGES = 'https://developers.google.com/static/crawling/ipranges/';
const oneOf = (...names: string[]) => (name: string): boolean => names.includes(name);

/**
 * The vendors whose crawlers can be verified, with their published ranges and DNS names (each vendor's
 * crawler documentation: Google's "Verifying Googlebot and other Google crawlers", Bing's "Verifying
 * Bingbot", OpenAI's "Overview of OpenAI Crawlers", Anthropic's crawler help page, Perplexity's "Perplexity
 * Crawlers", Apple's "About Applebot", Common Crawl's CCBot page, Yandex's and Baidu's help pages).
 */
export const CRAWLER_VENDORS: readonly CrawlerVendor[] = [
  {
    id: 'google', name: 'Google',
    // Googlebot and kin, AdsBot-Google, Storebot-Google, GoogleOther, Google-InspectionTool, FeedFetcher-Google, ...
    claims: (name) => name.startsWith('googlebot') || name.startsWith('google-') || name.startsWith('googleother') || name.endsWith('-google') || name === 'googleproducer',
    ranges: [
      // moved on 2026-03-31 from /static/search/apis/ipranges/ (where googlebot.json was the common crawlers'
      // file; the old URLs now answer 200 with no prefixes), with user-triggered-agents.json new
      { id: 'google-common-crawlers', url: `${GOOGLE_RANGES}common-crawlers.json`, formerNames: ['googlebot.json'] },
      { id: 'google-special-crawlers', url: `${GOOGLE_RANGES}special-crawlers.json` },
      { id: 'google-user-triggered-fetchers', url: `${GOOGLE_RANGES}user-triggered-fetchers.json` },
      { id: 'google-user-triggered-fetchers-google', url: `${GOOGLE_RANGES}user-triggered-fetchers-google.json` },
      { id: 'google-user-triggered-agents', url: `${GOOGLE_RANGES}user-triggered-agents.json` },
    ],
    dnsSuffixes: ['googlebot.com', 'google.com', 'googleusercontent.com'],
  },
  {
    id: 'bing', name: 'Microsoft Bing',
    claims: (name) => name === 'bingbot' || name === 'adidxbot' || name === 'bingpreview' || name === 'microsoftpreview' || name.startsWith('msnbot'),
    ranges: [{ id: 'bingbot', url: 'https://www.bing.com/toolbox/bingbot.json' }],
    dnsSuffixes: ['search.msn.com'],
  },
  {
    id: 'openai', name: 'OpenAI',
    claims: oneOf('gptbot', 'oai-searchbot', 'chatgpt-user'),
    ranges: [
      { id: 'openai-gptbot', url: 'https://openai.com/gptbot.json' },
      { id: 'openai-searchbot', url: 'https://openai.com/searchbot.json' },
      { id: 'openai-chatgpt-user', url: 'https://openai.com/chatgpt-user.json' },
    ],
    dnsSuffixes: [],
  },
  {
    id: 'anthropic', name: 'Anthropic',
    claims: oneOf('claudebot', 'claude-user', 'claude-searchbot', 'claude-web', 'anthropic-ai'),
    ranges: [{ id: 'anthropic-bots', url: 'https://claude.com/crawling/bots.json' }],
    dnsSuffixes: [],
  },
  {
    id: 'perplexity', name: 'Perplexity',
    claims: oneOf('perplexitybot', 'perplexity-user'),
    ranges: [
      { id: 'perplexity-bot', url: 'https://www.perplexity.ai/perplexitybot.json' },
      { id: 'perplexity-user', url: 'https://www.perplexity.ai/perplexity-user.json' },
    ],
    dnsSuffixes: [],
  },
  {
    id: 'apple', name: 'Apple',
    claims: (name) => name.startsWith('applebot'),
    ranges: [{ id: 'applebot', url: 'https://search.developer.apple.com/applebot.json' }],
    dnsSuffixes: ['applebot.apple.com'],
  },
  {
    id: 'commoncrawl', name: 'Common Crawl',
    claims: oneOf('ccbot'),
    ranges: [{ id: 'commoncrawl-ccbot', url: 'https://index.commoncrawl.org/ccbot.json' }],
    dnsSuffixes: [],
  },
  { id: 'yandex', name: 'Yandex', claims: (name) => name.startsWith('yandex'), ranges: [], dnsSuffixes: ['yandex.ru', 'yandex.net', 'yandex.com'] },
  { id: 'baidu', name: 'Baidu', claims: (name) => name === 'baiduspider' || name.startsWith('baiduspider-'), ranges: [], dnsSuffixes: ['baidu.com', 'baidu.jp'] },
];

/** Every range file of the table, by id. */
export const CRAWLER_RANGE_SOURCES: readonly CrawlerRangeSource[] = CRAWLER_VENDORS.flatMap((vendor) => vendor.ranges);

/** The vendor a crawler's name claims (audit's name for it, any case), or null. Per crawler. */
export function vendorOfCrawler(name: string): CrawlerVendor | null {
  const lower = asciiLowerCase(name);
  return CRAWLER_VENDORS.find((vendor) => vendor.claims(lower)) ?? null;
}

/** The published file name of a source (`gptbot.json`). */
export const publishedName = (source: CrawlerRangeSource): string => basename(new URL(source.url).pathname);

/**
 * The range source a file name stands for: `<id>.json` (as fetch --crawler-ranges stores it), the published
 * file's name (`gptbot.json`), or a name the vendor published it under before (`googlebot.json`).
 */
export function rangeSourceOfFile(fileName: string): CrawlerRangeSource | null {
  const name = asciiLowerCase(fileName);
  return CRAWLER_RANGE_SOURCES.find((source) => `${source.id}.json` === name)
    ?? CRAWLER_RANGE_SOURCES.find((source) => publishedName(source) === name)
    ?? CRAWLER_RANGE_SOURCES.find((source) => source.formerNames?.includes(name) === true)
    ?? null;
}

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

/** One vendor's ranges: IPv4 and IPv6 intervals, and the service labels of the prefixes that have some. */
class VendorRanges {
  readonly v4 = new IntervalSet<number>();
  readonly v6 = new IntervalSet<bigint>();
  readonly labels = new LabelledPrefixes();
  files: string[] = [];
  /** Ids of the range files read: a vendor's ranges exclude an address only when all of its files were read. */
  readonly sources = new Set<string>();
  has(address: Address): boolean {
    return address.v6 ? this.v6.has(address.value) : this.v4.has(address.value);
  }
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

/** Options of a CrawlerVerifier. */
export interface CrawlerVerifierOptions {
  /**
   * Range files or folders of them (file names as rangeSourceOfFile reads them), or `<name>=<file>` for a
   * file saved under another name: name a source (`googlebot.json`, `google-common-crawlers`) or a vendor
   * (`google`: a file that is none of its published ones).
   */
  rangeFiles?: readonly string[];
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
  /** Files of a folder that name no range source are reported here. */
  warn?: (text: string) => void;
}

/** The default DNS probe: a Googlebot address whose PTR (crawl-66-249-66-1.googlebot.com) resolves back to it. */
export const DEFAULT_DNS_PROBE = '66.249.66.1';

/** Why a verdict is unknown (counted per request, for the report). */
type UnknownReason = 'ranges-incomplete' | 'no-ranges' | 'dns-unusable' | 'dns-error' | 'no-address' | 'no-method';

/** A verdict, why it is unknown when it is, and the services of the most specific labelled prefix of a verified address. */
interface Classified {
  verdict: Verification;
  reason: UnknownReason | null;
  services: readonly string[] | null;
}

/** What a vendor's verification could rest on, for the report: per vendor claimed in the log. */
export interface VendorCoverage {
  vendor: string;
  name: string;
  /** The range files read. */
  files: string[];
  /** The vendor's published range files not read (by published name), when some were read or it publishes some. */
  missing: string[];
  /** Requests claiming the vendor, by verdict, and the unknown ones that are unknown because files were missing. */
  requests: number;
  unknownMissingFiles: number;
}

/** Verdicts kept per vendor and address; then the table starts again (memory stays bounded). */
const VERDICT_CACHE = 200_000;

/**
 * Classifies requests by claimed vendor and client address: verified (in the vendor's ranges, or confirmed
 * by DNS), failed (all of the vendor's range files read and none has the address, or DNS that names
 * another owner: an impostor) or unknown (no method for that vendor, not all of its range files read, no
 * usable address, DNS that did not answer, or a resolver that failed its check). One per audit.
 */
export class CrawlerVerifier {
  private readonly ranges = new Map<string, VendorRanges>();
  private readonly verdicts = new Map<string, Classified>();
  private readonly resolver: DnsResolver;
  private readonly dnsTimeoutMs: number;
  private readonly dnsProbe: string;
  private readonly limit: ReturnType<typeof pLimit>;
  readonly dns: boolean;
  /** The resolver's check: null until made (on the first DNS need), then whether it passed and why not. */
  private probe: Promise<string | null> | null = null;
  private probeProblem: string | null | undefined = undefined;
  /** Requests classified per claimed vendor, and those unknown for want of some of its files. */
  private readonly claimed = new Map<string, { requests: number; unknownMissingFiles: number; dnsUnusable: number }>();

  constructor(options: CrawlerVerifierOptions = {}) {
    this.dns = options.dns === true;
    this.resolver = options.resolver ?? systemResolver;
    this.dnsTimeoutMs = options.dnsTimeoutMs ?? 5_000;
    this.dnsProbe = options.dnsProbe ?? DEFAULT_DNS_PROBE;
    if (parseAddress(this.dnsProbe) === null) throw new RobotsError('INVALID_ARGUMENT', `dnsProbe must be an IP address, got ${JSON.stringify(this.dnsProbe)}`);
    this.limit = pLimit(options.dnsConcurrency ?? 32);
    for (const path of options.rangeFiles ?? []) this.loadPath(path, options.warn ?? (() => undefined));
    for (const vendorRanges of this.ranges.values()) {
      vendorRanges.v4.seal();
      vendorRanges.v6.seal();
    }
  }

  /** The range files read, per vendor id, and whether all of the vendor's files were (for reports). */
  get loaded(): { vendor: string; files: string[]; complete: boolean }[] {
    return [...this.ranges].map(([vendor, ranges]) => ({ vendor, files: ranges.files, complete: this.complete(CRAWLER_VENDORS.find((v) => v.id === vendor) as CrawlerVendor) }));
  }

  /** True when every range file the vendor publishes was read. */
  private complete(vendor: CrawlerVendor): boolean {
    const ranges = this.ranges.get(vendor.id);
    return ranges !== undefined && vendor.ranges.length > 0 && vendor.ranges.every((source) => ranges.sources.has(source.id));
  }

  /**
   * Per vendor claimed by a request so far: the files read, the published files missing, the requests, and
   * those left unknown because files were missing. For the report.
   */
  coverage(): VendorCoverage[] {
    return [...this.claimed].map(([id, counts]) => {
      const vendor = CRAWLER_VENDORS.find((v) => v.id === id) as CrawlerVendor;
      const ranges = this.ranges.get(id);
      return {
        vendor: id, name: vendor.name, files: ranges?.files ?? [],
        missing: vendor.ranges.filter((source) => ranges?.sources.has(source.id) !== true).map(publishedName),
        requests: counts.requests, unknownMissingFiles: counts.unknownMissingFiles,
      };
    });
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
      this.loadFile(named[2], target.source, target.vendor);
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
      this.loadFile(path, source, vendorOfSource(source));
      return;
    }
    const names = readdirSync(path).filter((name) => name.endsWith('.json')).sort();
    for (const name of names) {
      const source = rangeSourceOfFile(name);
      if (source === null) {
        if (!name.endsWith('.meta.json')) warn(`robotstxt: ${join(path, name)}: names no vendor's range file: skipped (name it <vendor or file>=<path> to read it)\n`);
        continue;
      }
      this.loadFile(join(path, name), source, vendorOfSource(source));
    }
  }

  private loadFile(path: string, source: CrawlerRangeSource | null, vendor: CrawlerVendor): void {
    const text = Buffer.from(readRegularFile(path, MAX_RANGE_FILE_BYTES, 'crawler range file')).toString('utf8');
    let ranges = this.ranges.get(vendor.id);
    if (ranges === undefined) {
      ranges = new VendorRanges();
      this.ranges.set(vendor.id, ranges);
    }
    ranges.files.push(path);
    if (source !== null) ranges.sources.add(source.id);
    for (const prefix of readRangeFile(text, path)) {
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
  }

  /** True when ranges were loaded for some vendor (audit --verify without --verify dns needs some). */
  get hasRanges(): boolean {
    return this.ranges.size > 0;
  }

  private key(vendor: CrawlerVendor, client: string): string {
    return `${vendor.id} ${client}`;
  }

  /** True when classify needs a DNS answer that prepare has not fetched yet. */
  needsDns(vendor: CrawlerVendor, client: string): boolean {
    if (!this.dns || vendor.dnsSuffixes.length === 0 || this.verdicts.has(this.key(vendor, client))) return false;
    const address = parseAddress(client);
    return address !== null && this.ranges.get(vendor.id)?.has(address) !== true;
  }

  /**
   * Looks up, at most dnsConcurrency at once, what classify will need for these requests; before the first
   * lookup, checks the resolver on the probe address. Per chunk of lines.
   */
  async prepare(claims: readonly { vendor: CrawlerVendor; client: string }[]): Promise<void> {
    const wanted = new Map<string, { vendor: CrawlerVendor; client: string }>();
    for (const claim of claims) if (this.needsDns(claim.vendor, claim.client)) wanted.set(this.key(claim.vendor, claim.client), claim);
    if (wanted.size === 0) return;
    this.probe ??= this.checkResolver();
    this.probeProblem = await this.probe;
    if (this.probeProblem !== null) return; // classify answers by the ranges alone (see classified)
    await Promise.all([...wanted.values()].map((claim) => this.limit(async () => {
      this.remember(this.key(claim.vendor, claim.client), await this.confirmedByDns(claim.vendor, claim.client));
    })));
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

  private remember(key: string, classified: Classified): void {
    if (this.verdicts.size >= VERDICT_CACHE) this.verdicts.clear();
    this.verdicts.set(key, classified);
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
   * Forward-confirmed reverse DNS: a PTR name under one of the vendor's suffixes whose addresses include the
   * client's. No such name: failed (when the PTR answer came or said there is none: the resolver passed its
   * check); DNS errors: unknown.
   */
  private async confirmedByDns(vendor: CrawlerVendor, client: string): Promise<Classified> {
    const address = parseAddress(client) as Address;
    const unknown: Classified = { verdict: 'unknown', reason: 'dns-error', services: null };
    let names: string[];
    try {
      names = await this.withDeadline(this.resolver.reverse(client.trim().replace(/^\[(.*)\]$/, '$1')));
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      return code === 'ENOTFOUND' || code === 'ENODATA' ? { verdict: 'failed', reason: null, services: null } : unknown;
    }
    for (const raw of names) {
      const name = asciiLowerCase(raw.replace(/\.$/, ''));
      if (!vendor.dnsSuffixes.some((suffix) => name.endsWith(`.${suffix}`))) continue;
      let addresses: string[];
      try {
        addresses = await this.withDeadline(this.resolver.lookup(name));
      } catch {
        return unknown;
      }
      if (addresses.some((text) => { const other = parseAddress(text); return other !== null && other.v6 === address.v6 && other.value === address.value; })) return { verdict: 'verified', reason: null, services: null };
    }
    return { verdict: 'failed', reason: null, services: null };
  }

  /**
   * A request's claim: the vendor its crawler names (null: nothing to verify, unknown) and its client
   * address. Synchronous: DNS answers come from prepare (one not prepared is unknown). Per request.
   */
  classify(vendor: CrawlerVendor | null, client: string | null): Verification {
    return this.classifyWithServices(vendor, client).verdict;
  }

  /** classify, with the services of the most specific labelled prefix of a verified address (JAFAR), or null. Per request. */
  classifyWithServices(vendor: CrawlerVendor | null, client: string | null): { verdict: Verification; services: readonly string[] | null } {
    if (vendor === null) return { verdict: 'unknown', services: null };
    const classified = this.classified(vendor, client);
    const counts = this.claimed.get(vendor.id) ?? this.claimed.set(vendor.id, { requests: 0, unknownMissingFiles: 0, dnsUnusable: 0 }).get(vendor.id) as { requests: number; unknownMissingFiles: number; dnsUnusable: number };
    counts.requests++;
    if (classified.reason === 'ranges-incomplete' || classified.reason === 'no-ranges') counts.unknownMissingFiles++;
    if (classified.reason === 'dns-unusable') counts.dnsUnusable++;
    return { verdict: classified.verdict, services: classified.services };
  }

  private classified(vendor: CrawlerVendor, client: string | null): Classified {
    if (client === null || client === '') return { verdict: 'unknown', reason: 'no-address', services: null };
    const key = this.key(vendor, client);
    const known = this.verdicts.get(key);
    if (known !== undefined) return known;
    const address = parseAddress(client);
    if (address === null) return { verdict: 'unknown', reason: 'no-address', services: null };
    const ranges = this.ranges.get(vendor.id);
    if (ranges?.has(address) === true) {
      const verified: Classified = { verdict: 'verified', reason: null, services: ranges.labels.servicesOf(address) };
      this.remember(key, verified);
      return verified;
    }
    const byDns = this.dns && vendor.dnsSuffixes.length > 0;
    // a DNS answer prepare did not fetch (with a resolver that passed its check)
    if (byDns && typeof this.probeProblem !== 'string') return { verdict: 'unknown', reason: 'dns-error', services: null };
    // an address outside some of a vendor's files may be in another (GPTBot's file says nothing of ChatGPT-User);
    // with a resolver that failed its check, what DNS alone would have told is unknown
    const classified: Classified = this.complete(vendor) ? { verdict: 'failed', reason: null, services: null }
      : { verdict: 'unknown', reason: byDns ? 'dns-unusable' : vendor.ranges.length === 0 ? 'no-method' : ranges === undefined ? 'no-ranges' : 'ranges-incomplete', services: null };
    this.remember(key, classified);
    return classified;
  }
}
