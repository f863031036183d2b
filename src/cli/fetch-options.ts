// The fetch options that fetch, check --fetch and audit --fetch share: one parser, one help text.
import type { RobotsReading } from '../core/robots.js';
import { usageError, requiring, type OptionTable, type OptionValues } from './command-spec.js';
import type { RobotsCacheOptions, RobotsCacheStats } from '../node/fetch/index.js';
import { MAX_FETCH_BYTES, FETCH_TARGETS, type FetchTargets } from '../core/fetch-rules.js';
import { flagWords } from './option-words.js';

/** The fetch options (see src/cli/options.ts): what parses them and what --help says of them. */
export const FETCH_OPTIONS = {
  store: { type: 'string', value: '<dir>', help: 'the robots.txt store, one pair of files per origin: <scheme>@<host>[@port].txt,\nthe body as served, and .json, the record (outcome, fetch time, validators,\nfailures); made when missing' },
  'timeout-ms': { type: 'string', value: 'N', help: 'deadline of one robots.txt fetch: connect, wait for and read the answer of every\nhop ({range}); time queued for a host\'s slot (--per-host) is not counted', whole: { fallback: 10_000, min: 1, max: 600_000 } },
  concurrency: { type: 'string', value: 'N', help: 'fetches at once ({range})', whole: { fallback: 32, min: 1, max: 4096 } },
  'per-host': { type: 'string', value: 'N', help: 'requests at once to one host (host:port, each redirect hop its own) ({range})', whole: { fallback: 2, min: 1, max: 4096 } },
  'user-agent': { type: 'string', value: '<text>', help: 'the User-Agent header of fetches (default robotstxt-wasm/0.1 (+...))' },
  'max-age': { type: 'string', value: '<time>', help: 'how long a fetched robots.txt is used: N seconds, or Ns, Nm, Nh, Nd\n(default 24h; Cache-Control max-age may shorten it); failures are retried\nafter 1h (or --max-age when shorter)' },
  'keep-versions': { type: 'string', value: 'N', whole: { fallback: 50, min: 0, max: 10_000 }, help: 'versions of each origin\'s robots.txt the store keeps ({range}; 0: none), in\n<name>.versions/: a version is new when the body or the effect changes; with\nthem, audit --store judges each request by the version in force when it was made' },
  now: { type: 'string', value: '<ISO time>', help: 'judge freshness (and 30 days of failures) as of this time, for replays and tests' },
  scheme: { type: 'string', choices: ['https', 'http'], fallback: 'https', help: 'the scheme of hosts given without one (default https); URLs keep their own' },
  targets: { type: 'string', choices: FETCH_TARGETS, fallback: 'default', help: '\nwhich addresses fetches may reach: default, origins you name are fetched as\nnamed, while origins read from a log, a URL list or stdin may not be at a\nloopback, private or link-local address, and no redirect may lead from a public\naddress to one; public, no such address at all and redirects only to the same\nport; any, no check. A refused fetch or redirect makes the origin unreachable' },
} as const satisfies OptionTable;

/**
 * The fetch options as check and audit take them: with --fetch (--now also without it: it judges stored
 * records, with --robots-dir or --store). Their --store is their own.
 */
const { store: _store, ...FETCH_OPTIONS_BUT_STORE } = FETCH_OPTIONS;
export const FETCHING_OPTIONS = {
  ...requiring(FETCH_OPTIONS_BUT_STORE, ['fetch'], ['now']),
  now: { ...FETCH_OPTIONS.now, requires: ['robots-dir', 'store'] },
} as const satisfies OptionTable;

/** The fetch options check and audit take (all but --store, theirs), in --help's order: the section they list them in. */
export const FETCH_SECTION = Object.keys(FETCH_OPTIONS_BUT_STORE);

/** The parsed fetch options (of any command that takes them). */
type FetchValues = OptionValues<typeof FETCH_OPTIONS>;

const UNIT_MS: Record<string, number> = { '': 1000, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** --max-age: N seconds or N with a unit s, m, h, d; 0 to 365 days. */
export function durationOption(value: unknown, name: string): number | undefined {
  if (value === undefined) return undefined;
  const match = /^(\d{1,9})([smhd]?)$/.exec(String(value));
  const ms = match === null ? NaN : Number(match[1]) * UNIT_MS[match[2]];
  if (!Number.isFinite(ms) || ms > 365 * 86_400_000) throw usageError(`--${name} must be a duration of at most 365 days (N seconds, or Ns, Nm, Nh, Nd), got '${String(value)}'`);
  return ms;
}

/** --now: an ISO 8601 time; the clock then starts there and runs at the real pace. */
export function clockOption(value: unknown): { now: () => number; start: number } {
  if (value === undefined) return { now: Date.now, start: Date.now() };
  const text = String(value);
  const start = /^\d{4}-\d{2}-\d{2}(T[\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/.test(text) ? Date.parse(text) : NaN;
  if (!Number.isFinite(start)) throw usageError(`--now must be an ISO 8601 time such as 2026-01-31T12:00:00Z, got '${text}'`);
  const real = Date.now();
  return { now: () => start + (Date.now() - real), start };
}

/** The RobotsCache options of the parsed fetch options (store not included). */
export function fetchCacheOptions(values: FetchValues, { mode, maxBytes }: RobotsReading): RobotsCacheOptions & { now: () => number } {
  const userAgent = values['user-agent'];
  // what undici can send as a header value (tab, printable ASCII, Latin-1): anything else is refused at start
  if (userAgent !== undefined && (userAgent.trim() === '' || userAgent.length > 1024 || /[^\t\x20-\x7e\x80-\xff]/.test(userAgent))) throw usageError('--user-agent must be 1 to 1024 characters: tab, printable ASCII and Latin-1 only (no line breaks or control characters)');
  return {
    mode,
    maxBytes: maxBytes === 0 ? MAX_FETCH_BYTES : maxBytes,
    timeoutMs: values['timeout-ms'],
    concurrency: values.concurrency,
    perHostConcurrency: values['per-host'],
    userAgent,
    maxAgeMs: durationOption(values['max-age'], 'max-age'),
    defaultScheme: values.scheme,
    targets: values.targets as FetchTargets,
    now: clockOption(values.now).now,
    keepVersions: values['keep-versions'],
    optionWords: flagWords,
  };
}

/** "N fetched (a ok, b not-modified, c not-found, d unreachable)": the fetches of a run, for the stderr summaries. */
export function fetchedSummary(fetches: RobotsCacheStats['fetches']): string {
  const total = fetches.ok + fetches['not-modified'] + fetches['not-found'] + fetches.unreachable;
  return `${total} fetched (${fetches.ok} ok, ${fetches['not-modified']} not-modified, ${fetches['not-found']} not-found, ${fetches.unreachable} unreachable)`;
}

/**
 * "N fetched (...), F fresh in the store" and, when some were, the stored records dated in the future that
 * were fetched again: the store summary of fetch, check --fetch and audit --fetch (`fresh`: what each counts).
 */
export function storeSummary(stats: RobotsCacheStats, fresh: number): string {
  const future = stats.futureRecords > 0 ? `; ${stats.futureRecords} stored record(s) were dated in the future (a clock set ahead, or --now): stale, fetched again` : '';
  const refused = stats.refusedByTargets > 0 ? `; ${stats.refusedByTargets} refused by --targets (internal addresses: not fetched, not stored, their URLs disallowed in this run; --targets any, or naming the origin, fetches them)` : '';
  return `${fetchedSummary(stats.fetches)}, ${fresh} fresh in the store${refused}${future}`;
}

