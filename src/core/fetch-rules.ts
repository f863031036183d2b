// The documented rules (Google's and RFC 9309's) for getting a robots.txt over HTTP, in one place: what an HTTP status means, what a crawler
// keeps between fetches, when a kept copy is stale, and what URLs get while the file cannot be fetched.
// Sources: RFC 9309 2.3.1.2-2.3.1.4 and 2.4; Google's "How Google interprets the robots.txt specification"
// (HTTP status codes, redirects, errors, caching). Every rule below has a test named after it in
// test/fetch.test.ts.
import { MAX_COMPILE_BYTES } from './wasm/limits.js';
import type { RobotsMode } from './parser.js';

/** At most this many redirects are followed (RFC 9309 2.3.1.2; Google: "at least five hops ... then 404"). */
export const MAX_REDIRECT_HOPS = 5;
/** Freshness of a fetched robots.txt (RFC 9309 2.4: "SHOULD NOT use the cached version for more than 24 hours"). */
export const DEFAULT_MAX_AGE_MS = 24 * 3600 * 1000;
/** A failed fetch is tried again after this long (or max-age when shorter): Google retries 5xx "fairly frequently". */
export const DEFAULT_RETRY_MS = 3600 * 1000;
/** Unreachable for this long with nothing cached: allow all (RFC 9309 2.3.1.4 "for example, 30 days"; Google: 30 days). */
export const UNREACHABLE_ALLOW_AFTER_MS = 30 * 24 * 3600 * 1000;

/**
 * What one fetch gave:
 * - `ok`: a 2xx body (its rules apply);
 * - `not-modified`: 304 to a conditional request (the kept copy is still the file);
 * - `not-found`: 4xx (429 too in `rfc` mode), too many redirects, a redirect loop or a redirect that cannot be
 *   followed: no robots.txt, allow all;
 * - `unreachable`: 5xx, 429 (`google` mode), a timeout, a DNS or connection error, an invalid response or
 *   body: disallow all, unless a copy is kept.
 */
export type FetchOutcome = 'ok' | 'not-modified' | 'not-found' | 'unreachable';

/** What URLs of an origin get: the rules of its robots.txt, everything allowed, or everything disallowed. */
export type RobotsEffect = 'rules' | 'allow-all' | 'disallow-all';

/** What a status code means before redirects are followed: a final outcome, or a redirect to follow. */
export function outcomeOfStatus(status: number, mode: RobotsMode, conditional: boolean): FetchOutcome | 'redirect' {
  // 206 Partial Content to a request that asked for no range: a part is not a whole robots.txt (its rules
  // would be cut anywhere), so it is read like a server error
  if (status === 206) return 'unreachable';
  if (status >= 200 && status <= 299) return 'ok';
  if (status === 304 && conditional) return 'not-modified';
  // 3xx: followed when it names a Location (the caller checks), else like a robots.txt that is not there
  if (status >= 300 && status <= 399) return 'redirect';
  // GoogleOnly: 429 Too Many Requests is a server error for Google; RFC 9309 puts all of 4xx in "unavailable"
  if (status === 429) return mode === 'rfc' ? 'not-found' : 'unreachable';
  // 4xx, 401 and 403 included (Google: "This includes 401 and 403"): no robots.txt, allow all
  if (status >= 400 && status <= 499) return 'not-found';
  // 5xx, and anything that is not an HTTP status (1xx as a final answer, 600+): a server error
  return 'unreachable';
}

/**
 * What a crawler remembers about one origin between fetches (the store writes it as JSON next to the body).
 * Times are milliseconds since the epoch.
 */
export interface OriginRecord {
  /** `scheme://host[:port]`, the origin whose URLs the rules answer. */
  origin: string;
  /** The robots.txt URL first asked for. */
  url: string;
  /** The mode the statuses were read in (429 differs). */
  mode: RobotsMode;
  /** When the last fetch ended. */
  checkedAt: number;
  /** The last fetch's outcome. */
  outcome: FetchOutcome;
  /** The last HTTP status (of the last hop), 0 when no response came. */
  status: number;
  /** Why the last fetch failed or found nothing (timeout, connection refused, redirect loop, ...); null when it did not. */
  error: string | null;
  /** The URL the last fetch ended at, after redirects. */
  finalUrl: string;
  /** Redirects the last fetch followed. */
  hops: number;
  /** What the last successful fetch (2xx or 4xx) gave: a body (kept beside), allow all, or nothing yet. */
  kept: 'body' | 'allow-all' | 'none';
  /** When what is kept was last fetched or confirmed (304); null when nothing is kept. */
  keptAt: number | null;
  /** Validators of the kept body, sent on the next fetch (If-None-Match, If-Modified-Since). */
  etag: string | null;
  lastModified: string | null;
  /** Cache-Control max-age of the kept answer, in ms; null when it gave none. */
  cacheMaxAgeMs: number | null;
  /** Start of the current run of failed fetches (unreachable), null when the last fetch did not fail. */
  failingSince: number | null;
  /** Failed fetches in a row. */
  failures: number;
}

/** The facts of one fetch that the record keeps (a subset of the fetch result). */
export interface FetchFacts {
  origin: string;
  url: string;
  outcome: FetchOutcome;
  status: number;
  error: string | null;
  finalUrl: string;
  hops: number;
  etag: string | null;
  lastModified: string | null;
  cacheMaxAgeMs: number | null;
  /** When the fetch ended. */
  endedAt: number;
}

/** The record after a fetch, from the one before it (null: first fetch of the origin). The one place records change. */
export function recordAfterFetch(previous: OriginRecord | null, facts: FetchFacts, mode: RobotsMode): OriginRecord {
  const base = {
    origin: facts.origin, url: facts.url, mode, checkedAt: facts.endedAt, outcome: facts.outcome, status: facts.status,
    error: facts.error, finalUrl: facts.finalUrl, hops: facts.hops,
  };
  switch (facts.outcome) {
    case 'ok':
      return { ...base, kept: 'body', keptAt: facts.endedAt, etag: facts.etag, lastModified: facts.lastModified, cacheMaxAgeMs: facts.cacheMaxAgeMs, failingSince: null, failures: 0 };
    case 'not-found':
      return { ...base, kept: 'allow-all', keptAt: facts.endedAt, etag: null, lastModified: null, cacheMaxAgeMs: facts.cacheMaxAgeMs, failingSince: null, failures: 0 };
    case 'not-modified':
      // 304: the kept body is confirmed; validators and max-age as the server now says, else as before
      if (previous === null || previous.kept !== 'body') {
        // a 304 with no body kept cannot be used: treat as a server answer we cannot read
        return { ...base, outcome: 'unreachable', error: '304 Not Modified without a kept copy', kept: 'none', keptAt: null, etag: null, lastModified: null, cacheMaxAgeMs: null, failingSince: previous?.failingSince ?? facts.endedAt, failures: (previous?.failures ?? 0) + 1 };
      }
      return { ...base, kept: 'body', keptAt: facts.endedAt, etag: facts.etag ?? previous.etag, lastModified: facts.lastModified ?? previous.lastModified, cacheMaxAgeMs: facts.cacheMaxAgeMs ?? previous.cacheMaxAgeMs, failingSince: null, failures: 0 };
    case 'unreachable':
      // the kept copy stays (used while refreshes fail); the run of failures goes on or starts now
      return {
        ...base,
        kept: previous?.kept ?? 'none', keptAt: previous?.keptAt ?? null,
        etag: previous?.etag ?? null, lastModified: previous?.lastModified ?? null, cacheMaxAgeMs: previous?.cacheMaxAgeMs ?? null,
        failingSince: previous?.failingSince ?? facts.endedAt, failures: (previous?.failures ?? 0) + 1,
      };
  }
}

/**
 * What URLs of the origin get now:
 * - a kept body: its rules, also while fetches fail (Google: "may be cached longer ... due to timeouts or 5xx");
 * - a kept 4xx: allow all;
 * - nothing kept and failing: disallow all (RFC 9309 2.3.1.4), until 30 days of failures, then allow all
 *   (Google: "If unavailable, Google assumes that there are no crawl restrictions").
 */
export function effectOf(record: OriginRecord, now: number): RobotsEffect {
  if (record.kept === 'body') return 'rules';
  if (record.kept === 'allow-all') return 'allow-all';
  const failingSince = record.failingSince ?? Math.min(record.checkedAt, now);
  return now - failingSince >= UNREACHABLE_ALLOW_AFTER_MS ? 'allow-all' : 'disallow-all';
}

/**
 * The effect of a stored record whose kept body may be gone (deleted by hand): without it nothing usable is
 * kept, so an origin last found unreachable is disallowed and any other allowed. The one rule for the
 * store's readers (RobotsCache, the fetch command, check --store / --robots-dir).
 */
export function effectOfStored(record: OriginRecord, now: number, bodyPresent: boolean): RobotsEffect {
  const effect = effectOf(record, now);
  if (effect === 'rules' && !bodyPresent) return record.outcome === 'unreachable' ? 'disallow-all' : 'allow-all';
  return effect;
}

/** A record checked more than this after `now` is from the future: clocks of two machines may differ by less. */
export const FUTURE_TOLERANCE_MS = 5 * 60_000;

/**
 * True when a record was checked after `now` (past FUTURE_TOLERANCE_MS): a clock set wrong, a run with --now
 * in the future, a file edited by hand. Such a record is stale (isFresh), fetched again on the next run that
 * may fetch, and its readers say so; its effect meanwhile is what it records. Per record read.
 */
export function isFromFuture(record: OriginRecord, now: number): boolean {
  return record.checkedAt > now + FUTURE_TOLERANCE_MS;
}

/**
 * A record read from a store, its kept and failing times clamped to `now` (a time in the future would count
 * the 30 days of failures from then). Its check time is left as written: isFresh reads it. Once per record read.
 */
export function recordAsOf(record: OriginRecord, now: number): OriginRecord {
  if ((record.keptAt ?? 0) <= now && (record.failingSince ?? 0) <= now) return record;
  const clamp = (ms: number | null): number | null => (ms === null ? null : Math.min(ms, now));
  return { ...record, keptAt: clamp(record.keptAt), failingSince: clamp(record.failingSince) };
}

/** Freshness settings: how long a fetched answer is used, and how soon a failed fetch is tried again. */
export interface Freshness {
  maxAgeMs: number;
  retryMs: number;
}

/**
 * True while the record need not be fetched again: an answer for maxAgeMs (or its Cache-Control max-age when
 * shorter), a failure for retryMs (or maxAgeMs when shorter); never a record from the future (isFromFuture).
 */
export function isFresh(record: OriginRecord, now: number, freshness: Freshness): boolean {
  if (isFromFuture(record, now)) return false; // never fresh until then: stale now
  const age = Math.max(0, now - record.checkedAt);
  if (record.outcome === 'unreachable') return age < Math.min(freshness.retryMs, freshness.maxAgeMs);
  const lifetime = record.cacheMaxAgeMs === null ? freshness.maxAgeMs : Math.min(record.cacheMaxAgeMs, freshness.maxAgeMs);
  return age < lifetime;
}

/** Cache-Control max-age in ms (no-store, no-cache: 0); null when the header gives none. */
export function cacheControlMaxAgeMs(header: string | null): number | null {
  if (header === null) return null;
  const lower = header.toLowerCase();
  if (/(?:^|,)\s*(?:no-store|no-cache)\s*(?:,|$)/.test(lower)) return 0;
  const match = /(?:^|,)\s*max-age\s*=\s*"?(\d{1,10})"?\s*(?:,|$)/.exec(lower);
  return match === null ? null : Number(match[1]) * 1000;
}

/** The folder of a store that holds the crawler vendors' IP range files (written by fetch --crawler-ranges, read by audit --verify). */
export const RANGES_FOLDER = 'crawler-ranges';
/** The folder of a store that holds the signing agents' keys (robotstxt fetch --signature-keys; audit --verify reads it). */
export const SIGNATURE_KEYS_FOLDER = 'signature-keys';

/**
 * Largest body limit a fetch accepts (the decoded bytes kept are at most this): 16 MiB, the most one compile
 * takes (MAX_COMPILE_BYTES), so that a fetched body is always cut at its limit, as crawlers cut it.
 */
export const MAX_FETCH_BYTES = MAX_COMPILE_BYTES;

/** Which addresses fetches may reach: see FetchRobotsOptions.targets (src/node/fetch/robots-fetch.ts). */
export type FetchTargets = 'default' | 'public' | 'any';
export const FETCH_TARGETS: readonly FetchTargets[] = ['default', 'public', 'any'];
