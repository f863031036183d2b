// Which crawlers each vendor has, and which of its published IP range files (and DNS names) covers which
// crawler: the one table that audit's verification (src/node/verify/verify.ts) and its crawler kinds
// (categories.ts: user-triggered fetchers) read. No I/O; loaded with audit.
import { basename } from 'node:path';
import { asciiLowerCase } from '../../core/robots.js';

/**
 * How a request's claim to be a crawler came out: verified (its address is in a file that covers the
 * crawler, or DNS confirms it), impostor (every file covering the crawler was read and none holds the
 * address, or DNS names another owner), unknown (no published method, no usable address, DNS that did not
 * answer) or not-checked (a file covering the crawler is missing, stale or failed validation).
 */
export type Verification = 'verified' | 'impostor' | 'unknown' | 'not-checked';

/** The verdicts, in the order reports show them. */
export const VERIFICATIONS: readonly Verification[] = ['verified', 'impostor', 'unknown', 'not-checked'];

/** One published file of IP ranges. */
export interface CrawlerRangeSource {
  /** The file's name in a store (`<store>/crawler-ranges/<id>.json`) and in --ranges-url. */
  id: string;
  url: string;
  /** Names the vendor published it under before (a file saved then, and every guide since, has one of them). */
  formerNames?: readonly string[];
  /** True for ranges of fetchers acting for a person (user-triggered fetchers, an assistant's egress), not of crawlers. */
  userDirected?: boolean;
}

/** A crawler vendor: where its ranges are published, which DNS names its crawlers use, and its crawler families. */
export interface CrawlerVendor {
  id: string;
  name: string;
  ranges: readonly CrawlerRangeSource[];
  /** Reverse DNS names of its crawlers end with one of these (after a dot), confirmed by a forward lookup. */
  dnsSuffixes: readonly string[];
  /** Its crawlers, by the files that cover them; the last one that claims a name wins nothing: the first does. */
  families: readonly CrawlerFamily[];
}

/** Crawlers a vendor publishes the same way: the range files (and DNS names) that cover them and no others. */
export interface CrawlerFamily {
  /** `google-common`, `openai-gptbot`, ... (reports name it). */
  id: string;
  /** What it is, for reports: "Googlebot and Google's common crawlers". */
  name: string;
  vendor: CrawlerVendor;
  /** True when a crawler name (lower case, as audit names a crawler) is of this family. */
  claims: (name: string) => boolean;
  /** The files that cover it: an address in one verifies, an address in none of them (all read) is an impostor's. */
  covering: readonly CrawlerRangeSource[];
  /** Reverse DNS names of this family's crawlers (the vendor's when it does not say). */
  dnsSuffixes: readonly string[];
  /** True for fetchers that load a page because a person asked (they ignore robots.txt by design: never violators). */
  userTriggered: boolean;
}

const GOOGLE_RANGES = 'https://developers.google.com/static/crawling/ipranges/';
const oneOf = (...names: string[]) => (name: string): boolean => names.includes(name);

interface FamilyRow { id: string; name: string; claims: (name: string) => boolean; covering: readonly string[]; dnsSuffixes?: readonly string[]; userTriggered?: true }
interface VendorRow { id: string; name: string; ranges: readonly CrawlerRangeSource[]; dnsSuffixes: readonly string[]; families: readonly FamilyRow[] }

/** Google's crawlers and fetchers (its "Overview of Google crawlers and fetchers" and the pages it links). */
const GOOGLE_COMMON = oneOf('googlebot', 'googlebot-image', 'googlebot-news', 'googlebot-video', 'storebot-google', 'google-inspectiontool', 'googleother', 'googleother-image', 'googleother-video', 'google-cloudvertexbot', 'google-extended');
const GOOGLE_SPECIAL = oneOf('apis-google', 'adsbot-google', 'adsbot-google-mobile', 'adsbot-google-mobile-apps', 'mediapartners-google', 'google-safety');
const GOOGLE_USER_TRIGGERED = oneOf('feedfetcher-google', 'googleproducer', 'google-read-aloud', 'google-site-verification', 'google-notebooklm', 'google-pinpoint', 'google-cws', 'google-gemininotebook');
const GOOGLE_ANY = (name: string): boolean => name.startsWith('googlebot') || name.startsWith('google-') || name.startsWith('googleother') || name.endsWith('-google') || name === 'googleproducer';
const GOOGLE_USER_FILES = ['google-user-triggered-fetchers', 'google-user-triggered-fetchers-google', 'google-user-triggered-agents'];

/**
 * The vendors whose crawlers can be verified, their published ranges and DNS names, and which file covers
 * which crawler (each vendor's crawler documentation: Google's "Verifying Googlebot and other Google
 * crawlers" with its common, special-case and user-triggered lists and their reverse DNS masks, Bing's
 * "Verifying Bingbot", OpenAI's "Overview of OpenAI Crawlers" (a file per bot), Anthropic's crawler help
 * page, Perplexity's "Perplexity Crawlers" (a file per bot), Apple's "About Applebot", Common Crawl's CCBot
 * page, Yandex's and Baidu's help pages). A crawler name of a vendor that none of its families lists is
 * judged by all of the vendor's files.
 */
const VENDOR_TABLE: readonly VendorRow[] = [
  {
    id: 'google', name: 'Google',
    ranges: [
      // moved on 2026-03-31 from /static/search/apis/ipranges/ (where googlebot.json was the common crawlers'
      // file; the old URLs now answer 200 with no prefixes), with user-triggered-agents.json new
      { id: 'google-common-crawlers', url: `${GOOGLE_RANGES}common-crawlers.json`, formerNames: ['googlebot.json'] },
      { id: 'google-special-crawlers', url: `${GOOGLE_RANGES}special-crawlers.json` },
      { id: 'google-user-triggered-fetchers', url: `${GOOGLE_RANGES}user-triggered-fetchers.json`, userDirected: true },
      { id: 'google-user-triggered-fetchers-google', url: `${GOOGLE_RANGES}user-triggered-fetchers-google.json`, userDirected: true },
      { id: 'google-user-triggered-agents', url: `${GOOGLE_RANGES}user-triggered-agents.json`, userDirected: true },
    ],
    dnsSuffixes: ['googlebot.com', 'google.com', 'googleusercontent.com'],
    families: [
      // crawl-*.googlebot.com, geo-crawl-*.geo.googlebot.com
      { id: 'google-common', name: "Googlebot and Google's common crawlers", claims: GOOGLE_COMMON, covering: ['google-common-crawlers'], dnsSuffixes: ['googlebot.com'] },
      // rate-limited-proxy-*.google.com
      { id: 'google-special', name: "Google's special-case crawlers", claims: GOOGLE_SPECIAL, covering: ['google-special-crawlers'], dnsSuffixes: ['google.com'] },
      // *.gae.googleusercontent.com, google-proxy-*.google.com
      { id: 'google-user-triggered', name: "Google's user-triggered fetchers", claims: GOOGLE_USER_TRIGGERED, covering: GOOGLE_USER_FILES, dnsSuffixes: ['google.com', 'googleusercontent.com'], userTriggered: true },
      { id: 'google-other', name: "Google's other crawlers", claims: GOOGLE_ANY, covering: ['google-common-crawlers', 'google-special-crawlers', ...GOOGLE_USER_FILES] },
    ],
  },
  {
    id: 'bing', name: 'Microsoft Bing',
    ranges: [{ id: 'bingbot', url: 'https://www.bing.com/toolbox/bingbot.json' }],
    dnsSuffixes: ['search.msn.com'],
    families: [{ id: 'bing', name: 'Bingbot and Bing\'s crawlers', claims: (name) => name === 'bingbot' || name === 'adidxbot' || name === 'bingpreview' || name === 'microsoftpreview' || name.startsWith('msnbot'), covering: ['bingbot'] }],
  },
  {
    id: 'openai', name: 'OpenAI',
    ranges: [
      { id: 'openai-gptbot', url: 'https://openai.com/gptbot.json' },
      { id: 'openai-searchbot', url: 'https://openai.com/searchbot.json' },
      { id: 'openai-chatgpt-user', url: 'https://openai.com/chatgpt-user.json', userDirected: true },
    ],
    dnsSuffixes: [],
    families: [
      { id: 'openai-gptbot', name: 'GPTBot', claims: oneOf('gptbot'), covering: ['openai-gptbot'] },
      { id: 'openai-searchbot', name: 'OAI-SearchBot', claims: oneOf('oai-searchbot'), covering: ['openai-searchbot'] },
      { id: 'openai-chatgpt-user', name: 'ChatGPT-User', claims: oneOf('chatgpt-user'), covering: ['openai-chatgpt-user'], userTriggered: true },
    ],
  },
  {
    id: 'anthropic', name: 'Anthropic',
    ranges: [{ id: 'anthropic-bots', url: 'https://claude.com/crawling/bots.json' }],
    dnsSuffixes: [],
    families: [
      { id: 'anthropic', name: "Anthropic's bots", claims: oneOf('claudebot', 'claude-searchbot', 'claude-web', 'anthropic-ai'), covering: ['anthropic-bots'] },
      { id: 'anthropic-user', name: 'Claude-User', claims: oneOf('claude-user'), covering: ['anthropic-bots'], userTriggered: true },
    ],
  },
  {
    id: 'perplexity', name: 'Perplexity',
    ranges: [
      { id: 'perplexity-bot', url: 'https://www.perplexity.ai/perplexitybot.json' },
      { id: 'perplexity-user', url: 'https://www.perplexity.ai/perplexity-user.json', userDirected: true },
    ],
    dnsSuffixes: [],
    families: [
      { id: 'perplexity-bot', name: 'PerplexityBot', claims: oneOf('perplexitybot'), covering: ['perplexity-bot'] },
      { id: 'perplexity-user', name: 'Perplexity-User', claims: oneOf('perplexity-user'), covering: ['perplexity-user'], userTriggered: true },
    ],
  },
  {
    id: 'apple', name: 'Apple',
    ranges: [{ id: 'applebot', url: 'https://search.developer.apple.com/applebot.json' }],
    dnsSuffixes: ['applebot.apple.com'],
    families: [{ id: 'apple', name: 'Applebot', claims: (name) => name.startsWith('applebot'), covering: ['applebot'] }],
  },
  {
    id: 'commoncrawl', name: 'Common Crawl',
    ranges: [{ id: 'commoncrawl-ccbot', url: 'https://index.commoncrawl.org/ccbot.json' }],
    dnsSuffixes: [],
    families: [{ id: 'commoncrawl', name: 'CCBot', claims: oneOf('ccbot'), covering: ['commoncrawl-ccbot'] }],
  },
  { id: 'yandex', name: 'Yandex', ranges: [], dnsSuffixes: ['yandex.ru', 'yandex.net', 'yandex.com'], families: [{ id: 'yandex', name: 'YandexBot and Yandex\'s crawlers', claims: (name) => name.startsWith('yandex'), covering: [] }] },
  { id: 'baidu', name: 'Baidu', ranges: [], dnsSuffixes: ['baidu.com', 'baidu.jp'], families: [{ id: 'baidu', name: 'Baiduspider', claims: (name) => name === 'baiduspider' || name.startsWith('baiduspider-'), covering: [] }] },
];

/** The vendor table, with each family linked to its vendor and its covering files (built once, at load). */
export const CRAWLER_VENDORS: readonly CrawlerVendor[] = VENDOR_TABLE.map((row) => {
  const families: CrawlerFamily[] = [];
  const vendor: CrawlerVendor = { id: row.id, name: row.name, ranges: row.ranges, dnsSuffixes: row.dnsSuffixes, families };
  for (const family of row.families) {
    const covering = family.covering.map((id) => row.ranges.find((source) => source.id === id) as CrawlerRangeSource);
    families.push({ id: family.id, name: family.name, vendor, claims: family.claims, covering, dnsSuffixes: family.dnsSuffixes ?? row.dnsSuffixes, userTriggered: family.userTriggered === true });
  }
  return vendor;
});

/** Every range file of the table, by id. */
export const CRAWLER_RANGE_SOURCES: readonly CrawlerRangeSource[] = CRAWLER_VENDORS.flatMap((vendor) => vendor.ranges);

/** The crawler family a crawler's name claims (audit's name for it, any case), or null. Per crawler. */
export function familyOfCrawler(name: string): CrawlerFamily | null {
  const lower = asciiLowerCase(name);
  for (const vendor of CRAWLER_VENDORS) {
    const family = vendor.families.find((candidate) => candidate.claims(lower));
    if (family !== undefined) return family;
  }
  return null;
}

/** The vendor a crawler's name claims (audit's name for it, any case), or null. Per crawler. */
export function vendorOfCrawler(name: string): CrawlerVendor | null {
  return familyOfCrawler(name)?.vendor ?? null;
}

const publishedNames = new Map<CrawlerRangeSource, string>();
/** The published file name of a source (`gptbot.json`). Per verified request (audit's `from`): read once per file. */
export function publishedName(source: CrawlerRangeSource): string {
  let name = publishedNames.get(source);
  if (name === undefined) publishedNames.set(source, name = basename(new URL(source.url).pathname));
  return name;
}

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

/**
 * User-triggered fetchers of vendors that publish no ranges for them (the vendors say they ignore robots.txt
 * by design): Mistral's MistralAI-User, Meta's Meta-ExternalFetcher, Amazon's Amzn-User, Kagi's
 * kagi-fetcher. The others are the table's families marked userTriggered.
 */
const OTHER_USER_TRIGGERED: ReadonlySet<string> = new Set(['mistralai-user', 'meta-externalfetcher', 'amzn-user', 'kagi-fetcher']);

/** True for a user-triggered fetcher's name (any case): a family of the table marked so, or one of OTHER_USER_TRIGGERED. Per crawler. */
export function isUserTriggeredFetcher(name: string): boolean {
  const lower = asciiLowerCase(name);
  return OTHER_USER_TRIGGERED.has(lower) || familyOfCrawler(lower)?.userTriggered === true;
}
