// Is a request that claims to be a vendor's crawler really from that vendor? The vendors publish how to
// tell: the IP ranges their crawlers use (JSON files) and, for some, reverse DNS names confirmed by a
// forward lookup. One table of vendors below; range files read with ipaddr.js; DNS through node:dns (or a
// resolver the caller gives: tests use a fake one). Used by audit --verify, once per request (cached per
// vendor and address).
import { readdirSync, statSync } from 'node:fs';
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
      { id: 'google-common-crawlers', url: `${GOOGLE_RANGES}common-crawlers.json` },
      { id: 'google-special-crawlers', url: `${GOOGLE_RANGES}special-crawlers.json` },
      { id: 'google-user-triggered-fetchers', url: `${GOOGLE_RANGES}user-triggered-fetchers.json` },
      { id: 'google-user-triggered-fetchers-google', url: `${GOOGLE_RANGES}user-triggered-fetchers-google.json` },
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

/** The range source a file name stands for: `<id>.json`, or the published file's own name (`gptbot.json`). */
export function rangeSourceOfFile(fileName: string): CrawlerRangeSource | null {
  const name = asciiLowerCase(fileName);
  return CRAWLER_RANGE_SOURCES.find((source) => `${source.id}.json` === name) ?? CRAWLER_RANGE_SOURCES.find((source) => basename(new URL(source.url).pathname) === name) ?? null;
}

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

/** One vendor's ranges: IPv4 and IPv6 intervals. */
class VendorRanges {
  readonly v4 = new IntervalSet<number>();
  readonly v6 = new IntervalSet<bigint>();
  files: string[] = [];
  /** Ids of the range files read: a vendor's ranges exclude an address only when all of its files were read. */
  readonly sources = new Set<string>();
  has(address: Address): boolean {
    return address.v6 ? this.v6.has(address.value) : this.v4.has(address.value);
  }
}

/**
 * The prefixes of a range file: `{"prefixes": [{"ipv4Prefix": ...} | {"ipv6Prefix": ...}]}` (Google, Bing,
 * OpenAI, Perplexity, Apple, Common Crawl), else every string of the JSON that is a CIDR prefix (other
 * vendors' layouts). Throws RANGES_INVALID naming the file when it is not JSON or holds no prefix.
 */
export function prefixesOfRangeFile(text: string, where: string): string[] {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new RobotsError('RANGES_INVALID', `${where}: not JSON (${(error as Error).message})`);
  }
  const prefixes: string[] = [];
  const visit = (value: unknown, depth: number): void => {
    if (depth > 16) return;
    if (typeof value === 'string') {
      if (value.includes('/') && ipaddr.isValidCIDR(value.trim())) prefixes.push(value.trim());
    } else if (Array.isArray(value)) {
      for (const item of value) visit(item, depth + 1);
    } else if (value !== null && typeof value === 'object') {
      for (const item of Object.values(value)) visit(item, depth + 1);
    }
  };
  visit(json, 0);
  if (prefixes.length === 0) throw new RobotsError('RANGES_INVALID', `${where}: no IP prefix in it (expected {"prefixes": [{"ipv4Prefix": "a.b.c.d/n"}, ...]})`);
  return prefixes;
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
  /** Range files or folders of them (file names as rangeSourceOfFile reads them). */
  rangeFiles?: readonly string[];
  /** Also forward-confirmed reverse DNS, for vendors that publish DNS names. */
  dns?: boolean;
  resolver?: DnsResolver;
  /** Deadline of one DNS lookup, ms (default 5,000). */
  dnsTimeoutMs?: number;
  /** DNS lookups at once (default 32). */
  dnsConcurrency?: number;
  /** Files of a folder that name no range source are reported here. */
  warn?: (text: string) => void;
}

/** Verdicts kept per vendor and address; then the table starts again (memory stays bounded). */
const VERDICT_CACHE = 200_000;

/**
 * Classifies requests by claimed vendor and client address: verified (in the vendor's ranges, or confirmed
 * by DNS), failed (all of the vendor's range files read and none has the address, or DNS that names
 * another owner: an impostor) or unknown (no method for that vendor, not all of its range files read, no
 * usable address, or DNS that did not answer). One per audit.
 */
export class CrawlerVerifier {
  private readonly ranges = new Map<string, VendorRanges>();
  private readonly verdicts = new Map<string, Verification>();
  private readonly resolver: DnsResolver;
  private readonly dnsTimeoutMs: number;
  private readonly limit: ReturnType<typeof pLimit>;
  readonly dns: boolean;

  constructor(options: CrawlerVerifierOptions = {}) {
    this.dns = options.dns === true;
    this.resolver = options.resolver ?? systemResolver;
    this.dnsTimeoutMs = options.dnsTimeoutMs ?? 5_000;
    this.limit = pLimit(options.dnsConcurrency ?? 32);
    for (const path of options.rangeFiles ?? []) this.loadPath(path, options.warn ?? (() => undefined));
    for (const vendorRanges of this.ranges.values()) {
      vendorRanges.v4.seal();
      vendorRanges.v6.seal();
    }
  }

  /** The range files read, per vendor id, and whether all of the vendor's files were (for reports). */
  get loaded(): { vendor: string; files: string[]; complete: boolean }[] {
    return [...this.ranges].map(([vendor, ranges]) => ({ vendor, files: ranges.files, complete: (CRAWLER_VENDORS.find((v) => v.id === vendor) as CrawlerVendor).ranges.every((source) => ranges.sources.has(source.id)) }));
  }

  private loadPath(path: string, warn: (text: string) => void): void {
    let isDirectory: boolean;
    try {
      isDirectory = statSync(path).isDirectory();
    } catch (error) {
      throw new RobotsError('FILE_UNREADABLE', `cannot read crawler ranges ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
    }
    if (!isDirectory) {
      const source = rangeSourceOfFile(basename(path));
      if (source === null) throw new RobotsError('RANGES_INVALID', `${path}: the file name names no vendor's range file (expected one of ${CRAWLER_RANGE_SOURCES.map((s) => `${s.id}.json`).join(', ')}, or the published file's own name)`);
      this.loadFile(path, source);
      return;
    }
    const names = readdirSync(path).filter((name) => name.endsWith('.json')).sort();
    for (const name of names) {
      const source = rangeSourceOfFile(name);
      if (source === null) {
        if (!name.endsWith('.meta.json')) warn(`robotstxt: ${join(path, name)}: names no vendor's range file: skipped\n`);
        continue;
      }
      this.loadFile(join(path, name), source);
    }
  }

  private loadFile(path: string, source: CrawlerRangeSource): void {
    const text = Buffer.from(readRegularFile(path, MAX_RANGE_FILE_BYTES, 'crawler range file')).toString('utf8');
    const vendor = CRAWLER_VENDORS.find((v) => v.ranges.includes(source)) as CrawlerVendor;
    let ranges = this.ranges.get(vendor.id);
    if (ranges === undefined) {
      ranges = new VendorRanges();
      this.ranges.set(vendor.id, ranges);
    }
    ranges.files.push(path);
    ranges.sources.add(source.id);
    for (const prefix of prefixesOfRangeFile(text, path)) {
      let [parsed, bits] = ipaddr.parseCIDR(prefix);
      // an IPv4-mapped IPv6 prefix is an IPv4 one (addresses are read that way: ipaddr.process)
      if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress() && bits >= 96) [parsed, bits] = [(parsed as ipaddr.IPv6).toIPv4Address(), bits - 96];
      const address = addressOf(parsed);
      if (!address.v6) {
        const size = 2 ** (32 - bits);
        const start = Math.floor(address.value / size) * size;
        ranges.v4.add(start, start + size - 1);
      } else {
        const size = 1n << BigInt(128 - bits);
        const start = (address.value / size) * size;
        ranges.v6.add(start, start + size - 1n);
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

  /** Looks up, at most dnsConcurrency at once, what classify will need for these requests. Per chunk of lines. */
  async prepare(claims: readonly { vendor: CrawlerVendor; client: string }[]): Promise<void> {
    const wanted = new Map<string, { vendor: CrawlerVendor; client: string }>();
    for (const claim of claims) if (this.needsDns(claim.vendor, claim.client)) wanted.set(this.key(claim.vendor, claim.client), claim);
    await Promise.all([...wanted.values()].map((claim) => this.limit(async () => {
      this.remember(this.key(claim.vendor, claim.client), await this.confirmedByDns(claim.vendor, claim.client));
    })));
  }

  private remember(key: string, verdict: Verification): void {
    if (this.verdicts.size >= VERDICT_CACHE) this.verdicts.clear();
    this.verdicts.set(key, verdict);
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
   * client's. No such name: failed (when the PTR answer came or said there is none); DNS errors: unknown.
   */
  private async confirmedByDns(vendor: CrawlerVendor, client: string): Promise<Verification> {
    const address = parseAddress(client) as Address;
    let names: string[];
    try {
      names = await this.withDeadline(this.resolver.reverse(client.trim().replace(/^\[(.*)\]$/, '$1')));
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      return code === 'ENOTFOUND' || code === 'ENODATA' ? 'failed' : 'unknown';
    }
    for (const raw of names) {
      const name = asciiLowerCase(raw.replace(/\.$/, ''));
      if (!vendor.dnsSuffixes.some((suffix) => name.endsWith(`.${suffix}`))) continue;
      let addresses: string[];
      try {
        addresses = await this.withDeadline(this.resolver.lookup(name));
      } catch {
        return 'unknown';
      }
      if (addresses.some((text) => { const other = parseAddress(text); return other !== null && other.v6 === address.v6 && other.value === address.value; })) return 'verified';
    }
    return 'failed';
  }

  /**
   * A request's claim: the vendor its crawler names (null: nothing to verify, unknown) and its client
   * address. Synchronous: DNS answers come from prepare (one not prepared is unknown). Per request.
   */
  classify(vendor: CrawlerVendor | null, client: string | null): Verification {
    if (vendor === null || client === null || client === '') return 'unknown';
    const key = this.key(vendor, client);
    const known = this.verdicts.get(key);
    if (known !== undefined) return known;
    const address = parseAddress(client);
    if (address === null) return 'unknown';
    const ranges = this.ranges.get(vendor.id);
    if (ranges?.has(address) === true) {
      this.remember(key, 'verified');
      return 'verified';
    }
    if (this.dns && vendor.dnsSuffixes.length > 0) return 'unknown'; // a DNS answer prepare did not fetch
    // an address outside some of a vendor's files may be in another (GPTBot's file says nothing of ChatGPT-User)
    const verdict = ranges !== undefined && vendor.ranges.every((source) => ranges.sources.has(source.id)) ? 'failed' : 'unknown';
    this.remember(key, verdict);
    return verdict;
  }
}
