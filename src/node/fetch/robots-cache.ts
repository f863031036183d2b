// RobotsCache: what a crawler keeps to answer "may I fetch this URL?" for URLs of any origin. Each origin
// (scheme, host, port) is fetched once while fresh (single-flight: concurrent asks share one fetch), with
// bounded concurrency overall and per host, conditional requests when a body is kept, and the documented rules
// for failures (fetch-rules.ts). Optionally backed by a RobotsStore on disk, which outlives the process.
import pLimit, { type LimitFunction } from 'p-limit';
import type { Agent } from 'undici';
import { RobotsError } from '../../core/errors.js';
import { ALLOW_ALL, DISALLOW_ALL, type MissingPolicy, type RobotsSource, type RobotsHost } from '../hosts/index.js';
import { parseRobots, readingPart, type RobotsTxt, type AgentQuery } from '../../core/robots.js';
import { VERDICT_ALLOWED, VERDICT_DISALLOWED } from '../../core/constants.js';
import { LruCache } from '../../core/lru-cache.js';
import {
  DEFAULT_MAX_AGE_MS, DEFAULT_RETRY_MS, effectOfStored, isFresh, isFromFuture, recordAfterFetch, recordAsOf,
  type FetchOutcome, type Freshness, type OriginRecord, type RobotsEffect,
} from '../../core/fetch-rules.js';
import { FETCH_OPTION_NAMES, HostLimits, fetchOrigin, fetchSettings, robotsAgent, robotsOriginOf, robotsOriginFrom, type FetchRobotsOptions, type FetchSettings, type RobotsFetchResult, type RobotsOrigin } from './robots-fetch.js';
import { RobotsStore, type StoreWriteResult } from '../store/index.js';
import { originOf } from '../../core/url-model.js';
import { urlArgument, urlsArgument, optionsArgument, describe, wholeNumberArgument } from '../../core/arguments.js';

/** Options of a RobotsCache: the fetch options, and freshness, limits and storage. */
export interface RobotsCacheOptions extends Omit<FetchRobotsOptions, 'previous' | 'dispatcher'> {
  /** A store directory (or RobotsStore) that keeps records and bodies across runs; default none (memory only). */
  store?: RobotsStore | string | null;
  /** Versions of each origin a store given as a directory keeps (default DEFAULT_KEPT_VERSIONS; 0 to MAX_KEPT_VERSIONS). */
  keepVersions?: number;
  /** How long a fetched answer is used, in ms (default 24 hours; 0 to 365 days). Cache-Control max-age may shorten it. */
  maxAgeMs?: number;
  /** How soon a failed fetch is tried again, in ms (default 1 hour, at most maxAgeMs; 0 to 365 days). */
  retryMs?: number;
  /** Fetches at once, overall (default 32; 1 to 4096). */
  concurrency?: number;
  /** Requests at once to one host (host:port; each redirect hop counts for the host it goes to) (default 2; 1 to 4096). */
  perHostConcurrency?: number;
  /** Memory for kept bodies and parsed files (default 64 MiB; least recently used out, read again from the store). */
  memoryBytes?: number;
  /** The verdict of URLs with no http(s) origin in checkUrls (default allow, like check's --missing). */
  missing?: MissingPolicy;
}

/** What a RobotsCache knows of one origin. */
export interface RobotsCacheEntry {
  /** The origin (`scheme://host[:port]`) and its store key. */
  origin: string;
  key: string;
  /** What the crawler remembers of it (outcome of the last fetch, kept answer, validators, failures). */
  record: OriginRecord;
  /** What its URLs get now: the rules, allow all, or disallow all. */
  effect: RobotsEffect;
  /** The kept robots.txt, parsed (null unless effect is rules). */
  robots: RobotsTxt | null;
  /**
   * Where this answer came from: a fetch made for it, the memory of this cache, the store, or a fetch the
   * targets policy refused (nothing was sent: its URLs are disallowed for this run, and nothing is stored).
   */
  source: 'fetch' | 'memory' | 'store' | 'refused';
  /** A fetch written to a store: the change of its versions (null: none) and what the store mended (notes). */
  stored?: StoreWriteResult;
}

/** Refused origins remembered in one run (each a few hundred bytes). */
const REFUSALS_KEPT = 100_000;

/** Counters of a RobotsCache. */
export interface RobotsCacheStats {
  /** Fetches made, by outcome. */
  fetches: Record<FetchOutcome, number>;
  /** Answers from memory and from the store without a fetch. */
  fromMemory: number;
  fromStore: number;
  /** Origins checkUrls could not answer by their rules (see onError): their URLs were disallowed. */
  failedOrigins: number;
  /** Stored records dated in the future (a clock set wrong, a run with --now ahead): stale, fetched again. */
  futureRecords: number;
  /** Fetches the targets policy refused (an internal address from content, or a redirect to one): unreachable. */
  refusedByTargets: number;
}

interface Kept {
  record: OriginRecord;
  body: Uint8Array | null;
  /** The parsed body: its matchers per agent query are kept by it (the last MAX_KEPT_MATCHERS queries). */
  robots: RobotsTxt | null;
}

const DAY_MS = 24 * 3600 * 1000;
/** Bytes a kept record costs besides its texts: its object and the cache's entry. */
const RECORD_COST_BYTES = 640;
const recordTextLength = (record: OriginRecord): number =>
  record.origin.length + record.url.length + record.finalUrl.length + (record.etag?.length ?? 0) + (record.lastModified?.length ?? 0) + (record.error?.length ?? 0);

/**
 * Answers URLs of any origin by that origin's robots.txt, fetched on demand. Made once per crawler (or
 * command run); its methods are called per URL (isAllowed) or per batch (checkUrls). Call close() at the end.
 */
export class RobotsCache {
  private readonly settings: FetchSettings;
  private readonly freshness: Freshness;
  private readonly store: RobotsStore | null;
  private readonly agent: Agent;
  private readonly limit: LimitFunction;
  private readonly hostLimits: HostLimits;
  private readonly missing: MissingPolicy;
  private readonly kept: LruCache<Kept>;
  private readonly inFlight = new Map<string, Promise<RobotsCacheEntry>>();
  /** Origins the targets policy refused in this run (never stored), with whether they came from content; the oldest let go past REFUSALS_KEPT. */
  private readonly refusals = new Map<string, { entry: RobotsCacheEntry; fromContent: boolean }>();
  private readonly counters: RobotsCacheStats = { fetches: { 'ok': 0, 'not-modified': 0, 'not-found': 0, 'unreachable': 0 }, fromMemory: 0, fromStore: 0, failedOrigins: 0, futureRecords: 0, refusedByTargets: 0 };
  /** Called when checkUrls cannot answer an origin by its rules (its URLs are then disallowed). */
  onError: ((origin: string, error: RobotsError) => void) | null = null;
  /** Called after every fetch (the fetch command shows progress with it). */
  onFetch: ((result: RobotsFetchResult, entry: RobotsCacheEntry) => void) | null = null;

  constructor(options: RobotsCacheOptions = {}) {
    optionsArgument(options, [...FETCH_OPTION_NAMES.filter((name) => name !== 'previous' && name !== 'dispatcher'), 'store', 'maxAgeMs', 'retryMs', 'concurrency', 'perHostConcurrency', 'memoryBytes', 'missing', 'keepVersions'], 'RobotsCache options');
    this.settings = fetchSettings(options);
    const maxAgeMs = wholeNumberArgument('maxAgeMs', options.maxAgeMs, DEFAULT_MAX_AGE_MS, 0, 365 * DAY_MS);
    const retryMs = wholeNumberArgument('retryMs', options.retryMs, Math.min(DEFAULT_RETRY_MS, maxAgeMs), 0, 365 * DAY_MS);
    this.freshness = { maxAgeMs, retryMs };
    const concurrency = wholeNumberArgument('concurrency', options.concurrency, 32, 1, 4096);
    const perHost = wholeNumberArgument('perHostConcurrency', options.perHostConcurrency, 2, 1, 4096);
    const memoryBytes = wholeNumberArgument('memoryBytes', options.memoryBytes, 64 << 20, 1 << 20, 2 ** 40);
    this.missing = options.missing ?? 'allow';
    if (this.missing !== 'allow' && this.missing !== 'disallow') throw new RobotsError('INVALID_ARGUMENT', `missing must be allow or disallow, got ${String(options.missing)}`);
    const store = options.store;
    if (store !== undefined && store !== null && typeof store !== 'string' && !(store instanceof RobotsStore)) throw new RobotsError('INVALID_ARGUMENT', `store must be a directory path or a RobotsStore, got ${describe(store)}`);
    this.store = store === undefined || store === null ? null : typeof store === 'string' ? new RobotsStore(store, { keepVersions: options.keepVersions }) : store;
    this.agent = robotsAgent(this.settings, perHost);
    this.limit = pLimit(concurrency);
    this.hostLimits = new HostLimits(perHost);
    // what an entry costs in the process (measured: 100,000 records of 200 bytes of text take 1,260 bytes
    // each of RSS, with the cache's own entry): the record's object and texts, and a parsed file, about 4
    // bytes per body byte besides the body (see audit)
    this.kept = new LruCache<Kept>(memoryBytes, (kept) => RECORD_COST_BYTES + 2 * recordTextLength(kept.record) + (kept.body?.length ?? 0) * 5);
  }

  /** Requests waiting for a slot of the host they go to (--per-host), now: the fetch command shows them. */
  get waitingForHosts(): number {
    return this.hostLimits.waiting;
  }

  /** Counters so far. */
  get stats(): RobotsCacheStats {
    return { ...this.counters, fetches: { ...this.counters.fetches } };
  }

  /**
   * What is known of the origin of `target` (a URL, origin or host name), fetched first when nothing fresh is
   * kept (in memory or in the store). Concurrent calls for one origin share one fetch. `force`: fetch even
   * when fresh. `fromContent`: the target comes from a log line or a URL list, not from the user (under the
   * default targets policy an internal address is then not fetched: see FetchRobotsOptions.targets).
   */
  async entry(target: string, force = false, fromContent = false): Promise<RobotsCacheEntry> {
    return this.entryOf({ ...robotsOriginOf(target, this.settings.defaultScheme), fromContent }, force);
  }

  /**
   * Each origin's entry (fetched, or fresh from memory or the store), `concurrency` origins in flight (twice
   * that many waiting on a host's slot at most), handed to onEntry in input order; onDone after each, in any
   * order (the count done: for progress). robotstxt fetch's run, once.
   */
  async entriesInOrder(origins: readonly RobotsOrigin[], options: { force?: boolean; concurrency: number; onEntry: (entry: RobotsCacheEntry, index: number) => void; onDone?: (done: number) => void }): Promise<void> {
    const entries: (RobotsCacheEntry | null)[] = new Array<RobotsCacheEntry | null>(origins.length).fill(null);
    let next = 0;
    let handed = 0;
    let done = 0;
    const lane = async (): Promise<void> => {
      while (next < origins.length) {
        const index = next++;
        entries[index] = await this.entryOf(origins[index], options.force === true);
        done++;
        while (handed < entries.length && entries[handed] !== null) {
          options.onEntry(entries[handed] as RobotsCacheEntry, handed);
          entries[handed++] = null;
        }
        options.onDone?.(done);
      }
    };
    await Promise.all(Array.from({ length: Math.min(origins.length, Math.max(1, options.concurrency * 2)) }, lane));
  }

  /** True when `agents` may fetch `url` (an absolute http(s) URL), by its own origin's robots.txt. Per URL. */
  async isAllowed(url: string | URL, agents: AgentQuery): Promise<boolean> {
    const text = urlArgument(url, 'url');
    const origin = originOf(text);
    if (origin === null) throw new RobotsError('INVALID_ARGUMENT', `url is not an http(s) URL with a host: ${JSON.stringify(text.slice(0, 200))}`);
    const entry = await this.entryOf(robotsOriginFrom(origin), false);
    return this.verdictOf(entry, agents, [text])[0] === VERDICT_ALLOWED;
  }

  /**
   * Verdict bytes (1 allowed, 2 disallowed), in input order, of URLs of any origins: each origin is fetched
   * at most once (concurrently, within the limits), then its URLs are matched in one batch. A URL with no
   * http(s) origin gets the missing policy. Per batch.
   */
  async checkUrls(urls: readonly (string | URL)[], agents: AgentQuery): Promise<Uint8Array> {
    const texts = urlsArgument(urls, 'urls');
    const verdicts = new Uint8Array(texts.length);
    const byOrigin = new Map<string, { origin: RobotsOrigin; indices: number[] }>();
    texts.forEach((url, index) => {
      // no http(s) origin: the missing policy
      const origin = originOf(url);
      if (origin === null) {
        verdicts[index] = this.missing === 'allow' ? VERDICT_ALLOWED : VERDICT_DISALLOWED;
        return;
      }
      let group = byOrigin.get(origin.origin);
      if (group === undefined) byOrigin.set(origin.origin, group = { origin: robotsOriginFrom(origin), indices: [] });
      group.indices.push(index);
    });
    await Promise.all([...byOrigin.values()].map(async ({ origin, indices }) => {
      let answers: Uint8Array;
      try {
        const entry = await this.entryOf(origin, false);
        answers = this.verdictOf(entry, agents, indices.map((index) => texts[index]));
      } catch (error) {
        // one origin that cannot be answered (its body does not compile, the store cannot be written)
        // leaves the others answered: its URLs are disallowed, as for an unreachable robots.txt
        if (!(error instanceof RobotsError) || error.code === 'INVALID_ARGUMENT') throw error;
        this.counters.failedOrigins++;
        this.onError?.(origin.origin, error);
        answers = new Uint8Array(indices.length).fill(VERDICT_DISALLOWED);
      }
      indices.forEach((index, i) => { verdicts[index] = answers[i]; });
    }));
    return verdicts;
  }

  /**
   * A source for MultiHostMatcher (check --fetch): an origin's body, ALLOW_ALL or DISALLOW_ALL, fetched from
   * that origin (its own scheme and port) when stale. Its origins come from content (the URL lines being
   * answered): under the default targets policy an internal address is not fetched (unreachable, saying why),
   * unless `named` says the user named it.
   */
  hostSource(named: ReadonlySet<string> = new Set()): RobotsSource {
    return async (host: RobotsHost) => {
      const entry = await this.entryOf({ ...robotsOriginFrom(host), fromContent: !named.has(host.origin) }, false);
      if (entry.effect === 'allow-all') return ALLOW_ALL;
      if (entry.effect === 'disallow-all') return DISALLOW_ALL;
      return this.kept.get(entry.origin)?.body ?? ALLOW_ALL;
    };
  }

  /** Closes the connection pool and the parsed files kept (their matchers' WebAssembly memory goes back). Called once, at the end. */
  async close(): Promise<void> {
    for (const kept of this.kept.values()) kept.robots?.close();
    this.kept.clear();
    await this.agent.close();
  }

  private verdictOf(entry: RobotsCacheEntry, agents: AgentQuery, urls: string[]): Uint8Array {
    if (entry.effect !== 'rules') return new Uint8Array(urls.length).fill(entry.effect === 'allow-all' ? VERDICT_ALLOWED : VERDICT_DISALLOWED);
    this.kept.get(entry.origin); // (the origin is used: least recently used last)
    return (entry.robots as RobotsTxt).matcher(agents).checkBatch(urls);
  }

  private entryOf(origin: RobotsOrigin, force: boolean): Promise<RobotsCacheEntry> {
    const now = this.settings.now();
    // refused once in this run, refused again (the same settings, the same addresses): asked of nobody
    const refused = this.refusals.get(origin.origin);
    if (refused !== undefined && (!refused.fromContent || origin.fromContent === true)) return Promise.resolve(refused.entry);
    if (!force) {
      const inMemory = this.kept.get(origin.origin);
      if (inMemory !== undefined && isFresh(inMemory.record, now, this.freshness)) {
        this.counters.fromMemory++;
        return Promise.resolve(this.entryFrom(origin, inMemory, 'memory', now));
      }
    }
    const running = this.inFlight.get(origin.origin);
    if (running !== undefined) return running;
    const started = this.limit(() => this.load(origin, force)).finally(() => this.inFlight.delete(origin.origin));
    this.inFlight.set(origin.origin, started);
    return started;
  }

  /** From the store when fresh there, else fetched (conditionally when a body is kept), recorded and stored. */
  private async load(origin: RobotsOrigin, force: boolean): Promise<RobotsCacheEntry> {
    let previous = this.kept.get(origin.origin) ?? null;
    if (previous === null && this.store !== null) {
      let record: OriginRecord | null;
      try {
        record = this.store.record(origin.key);
      } catch (error) {
        // a record that is not one (cut by hand, another program's file): fetched again and replaced
        if (!(error instanceof RobotsError)) throw error;
        record = null;
      }
      // the store keeps one robots.txt per origin (its file key); a record naming another origin is not this one's
      if (record !== null && record.origin === origin.origin) {
        if (isFromFuture(record, this.settings.now())) this.counters.futureRecords++;
        record = recordAsOf(record, this.settings.now());
        const body = record.kept === 'body' ? this.store.body(origin.key, this.settings.maxBytes) : null;
        previous = this.keep(origin, record, body);
        if (!force && isFresh(record, this.settings.now(), this.freshness)) {
          this.counters.fromStore++;
          return this.entryFrom(origin, previous, 'store', this.settings.now());
        }
      }
    }
    const result = await fetchOrigin(origin, this.settings, this.agent, previous?.record ?? null, this.hostLimits);
    if (result.refusedByTargets) {
      // a refusal is no fetch outcome: nothing was asked of the origin, so nothing is recorded or stored (another
      // run with other --targets, or one naming the origin, fetches it); this run answers its URLs as disallowed
      this.counters.refusedByTargets++;
      const refused = recordAfterFetch(null, result, this.settings.mode);
      const entry = this.entryFrom(origin, { record: refused, body: null, robots: null }, 'refused', this.settings.now());
      this.refusals.set(origin.origin, { entry, fromContent: origin.fromContent === true });
      if (this.refusals.size > REFUSALS_KEPT) this.refusals.delete(this.refusals.keys().next().value as string);
      this.onFetch?.(result, entry);
      return entry;
    }
    this.counters.fetches[result.outcome]++;
    const record = recordAfterFetch(previous?.record ?? null, result, this.settings.mode);
    const body = result.outcome === 'ok' ? result.body : record.kept === 'body' ? previous?.body ?? null : null;
    const stored = this.store?.write(origin.key, record, result.outcome === 'ok' ? result.body : null) ?? null;
    const kept = this.keep(origin, record, body, result.outcome === 'ok' ? result.robots : previous?.robots ?? null);
    const entry = this.entryFrom(origin, kept, 'fetch', this.settings.now());
    if (stored !== null) entry.stored = stored;
    this.onFetch?.(result, entry);
    return entry;
  }

  private keep(origin: RobotsOrigin, record: OriginRecord, body: Uint8Array | null, robots: RobotsTxt | null = null): Kept {
    const parsed = record.kept !== 'body' || body === null ? null : robots ?? parseRobots(body, readingPart(this.settings));
    const kept: Kept = { record, body: parsed === null ? null : body, robots: parsed };
    this.kept.set(origin.origin, kept);
    return kept;
  }

  private entryFrom(origin: RobotsOrigin, kept: Kept, source: RobotsCacheEntry['source'], now: number): RobotsCacheEntry {
    const effect = effectOfStored(kept.record, now, kept.robots !== null);
    return { origin: origin.origin, key: origin.key, record: kept.record, effect, robots: effect === 'rules' ? kept.robots : null, source };
  }
}
