// Fetching one origin's robots.txt over HTTP with undici: manual redirects (at most 5 hops, loops detected),
// a deadline for the whole fetch (connect, headers and a body that trickles), Content-Encoding decoded with
// the size limit applied to the decoded bytes, and the status read by the rules in fetch-rules.ts.
// The body is kept as bytes, never decoded as text.
import { Agent, request, type Dispatcher } from 'undici';
import pLimit, { type LimitFunction } from 'p-limit';
import { lookup } from 'node:dns/promises';
import ipaddr from 'ipaddr.js';
import { decodeContent, type DecodedBody } from '../content-encoding.js';
import { DEFAULT_MAX_BYTES } from '../../core/constants.js';
import { RobotsError, LIBRARY_OPTION_WORDS, type OptionWords } from '../../core/errors.js';
import { MAX_HOST_KEY_BYTES } from '../../core/constants.js';
import { originOf, type UrlOrigin } from '../../core/url-model.js';
import { describe, optionsArgument, wholeNumberArgument } from '../../core/arguments.js';
import { parseRobots, readingPart, type RobotsTxt } from '../../core/robots.js';
import type { RobotsMode } from '../../core/parser.js';
import {
  MAX_REDIRECT_HOPS, cacheControlMaxAgeMs, outcomeOfStatus,
  type FetchFacts, type FetchOutcome, type OriginRecord, type RobotsEffect,
} from '../../core/fetch-rules.js';

/** Default User-Agent header of fetches (override it with your crawler's). */
export const DEFAULT_FETCH_USER_AGENT = 'robotstxt-wasm/0.1 (+https://www.npmjs.com/package/robotstxt-wasm)';
/** Default deadline of one fetch, redirects and body included. */
export const DEFAULT_TIMEOUT_MS = 10_000;
export { MAX_FETCH_BYTES, FETCH_TARGETS, type FetchTargets } from '../../core/fetch-rules.js';
import { FETCH_TARGETS, MAX_FETCH_BYTES, type FetchTargets } from '../../core/fetch-rules.js';

/** An origin as fetched and stored: `scheme://host[:port]`, its robots.txt URL, and the store's file key. */
export interface RobotsOrigin {
  /** `https://example.com`, `http://127.0.0.1:8080` (default ports left out). */
  origin: string;
  /** `<origin>/robots.txt`. */
  robotsUrl: string;
  /** The store's file name stem of the origin (`https@example.com`, `http@127.0.0.1@8080`: see src/core/url-model.ts). */
  key: string;
  /** `host` or `host:port`: how a robots directory names files by host. */
  hostKey: string;
  /**
   * True for an origin taken from content (a log line, a URL list, a page) rather than named by the user:
   * under the default targets policy it may not be an internal address (see FetchRobotsOptions.targets).
   */
  fromContent?: boolean;
}

/**
 * The origin whose robots.txt answers a URL, an origin or a bare host name (`example.com` and
 * `example.com:8080` mean `<defaultScheme>://...`), read by the URL model (src/core/url-model.ts) as an HTTP
 * client reads it. Called once per input URL or host; throws INVALID_ARGUMENT for anything that is not an
 * http(s) URL with a host.
 */
export function robotsOriginOf(input: string, defaultScheme: 'https' | 'http' = 'https'): RobotsOrigin {
  if (typeof input !== 'string') throw new RobotsError('INVALID_ARGUMENT', `a URL or host name must be a string, got ${describe(input)}`);
  const text = input.trim();
  // `http:0/x` reads as a URL (http://0.0.0.0/x, as new URL() and every other reader here read it) and as a
  // bare host:port (the host "http" on port 0): refused rather than read one way here and another elsewhere
  if (/^https?:\d+(?:[/?#]|$)/i.test(text)) throw new RobotsError('INVALID_ARGUMENT', `${JSON.stringify(text.slice(0, 200))} is ambiguous: a URL (${new URL(text).origin}/) or a host named ${JSON.stringify(text.split(':')[0])} with a port; write ${text.slice(0, text.indexOf(':'))}://<host>/ for a URL, or another host name`);
  // an http(s) scheme makes it a URL, read by the URL model; anything else without one is a host or host:port
  const bare = !/^https?:/i.test(text) && (!/^[a-zA-Z][a-zA-Z0-9+.-]*:/.test(text) || /^[^:/?#@\\]+:\d+(?:[/?#]|$)/.test(text));
  const candidate = bare ? `${defaultScheme}://${text}` : text;
  const origin = originOf(candidate);
  if (origin === null) {
    const quoted = JSON.stringify(text.slice(0, 200));
    let url: URL | null = null;
    try { url = new URL(candidate); } catch { /* not a URL at all */ }
    if (url === null) throw new RobotsError('INVALID_ARGUMENT', `not a URL or host name: ${quoted}`);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new RobotsError('INVALID_ARGUMENT', `only http and https URLs have a robots.txt to fetch: ${quoted}`);
    if (url.host.length > MAX_HOST_KEY_BYTES) throw new RobotsError('INVALID_ARGUMENT', `a host longer than ${MAX_HOST_KEY_BYTES} bytes names no origin: ${quoted}`);
    throw new RobotsError('INVALID_ARGUMENT', `no host in ${quoted}`);
  }
  return robotsOriginFrom(origin);
}

/** The fetch and store view of an origin the URL model gave: its robots.txt URL and store file key. Per origin. */
export function robotsOriginFrom(origin: UrlOrigin): RobotsOrigin {
  return { origin: origin.origin, robotsUrl: `${origin.origin}/robots.txt`, key: origin.fileKey, hostKey: origin.hostKey };
}

/** Options of fetchRobots and of the fetchers inside RobotsCache and the fetch command. */
export interface FetchRobotsOptions {
  /** The User-Agent header (default DEFAULT_FETCH_USER_AGENT). */
  userAgent?: string;
  /**
   * Deadline of one fetch, in ms (default 10,000; 1 to 600,000): the time it works, every hop's resolving,
   * connecting, waiting for and reading the answer; time queued for a host's slot (perHostConcurrency) is not counted.
   */
  timeoutMs?: number;
  /** Deadline of each TCP/TLS connect, in ms (default: timeoutMs, at most 10,000). */
  connectTimeoutMs?: number;
  /** Decoded body bytes kept (default 512,000 = 500 KiB; 1 to 16 MiB); the rest is ignored. */
  maxBytes?: number;
  /** `google` (default) or `rfc`: how statuses are read (429 differs) and how the body is parsed. */
  mode?: RobotsMode;
  /** `https` (default) or `http`: the scheme of bare host names. */
  defaultScheme?: 'https' | 'http';
  /** What was kept from the last fetch of this origin: its validators make the request conditional (304). */
  previous?: OriginRecord | null;
  /** The clock (ms since the epoch) for endedAt; default Date.now. */
  now?: () => number;
  /** An undici dispatcher to send through (default: one made for this fetch and closed after it). */
  dispatcher?: Dispatcher;
  /**
   * Which addresses a fetch may reach (default `default`): `default`, an origin taken from content (a log
   * line, a URL list: RobotsOrigin.fromContent) may not be a loopback, private, link-local or unique-local
   * address nor resolve to one, and a redirect may not lead from a public address to such an address (what
   * the caller names is fetched as named, so local servers work); `public`, no such address at all, and
   * redirects only to the same port; `any`, no check. A refused fetch or redirect makes the origin
   * unreachable, saying why, and sends nothing.
   */
  targets?: FetchTargets;
  /** How host names are resolved for the targets check (default node:dns lookup; tests inject one). */
  resolveHost?: (hostname: string) => Promise<string[]>;
  /** How a refused fetch's error names the option that refused it (default: its name here, `targets 'any'`; the command line gives its flags). */
  optionWords?: OptionWords;
}


/** The options fetchRobots takes (misspelt names are refused). */
export const FETCH_OPTION_NAMES: readonly string[] = ['userAgent', 'timeoutMs', 'connectTimeoutMs', 'maxBytes', 'mode', 'defaultScheme', 'previous', 'now', 'dispatcher', 'targets', 'resolveHost', 'optionWords'];

/** What fetching one origin's robots.txt gave. */
export interface RobotsFetchResult extends FetchFacts {
  /** The store key of the origin (`host` or `host:port`). */
  key: string;
  /** What the origin's URLs get from this fetch alone (a kept copy may change that: see RobotsCache). */
  effect: RobotsEffect;
  /** The decoded body (empty unless outcome is ok), at most maxBytes. */
  body: Uint8Array;
  /** True when the targets policy refused the fetch or one of its redirects (outcome unreachable; error says why). */
  refusedByTargets: boolean;
  /** Why the targets policy refused it, as a code and the address (null when it did not). */
  refusal: TargetRefusal | null;
  /** True when the body was longer than maxBytes (the rest was not read). */
  truncated: boolean;
  /** The body parsed in the fetch's mode; null unless outcome is ok. */
  robots: RobotsTxt | null;
  /** Milliseconds: the whole fetch, and until the final response's headers came (null if none came). */
  timings: { totalMs: number; headersMs: number | null };
}

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

/** The options checked and filled in (internal: shared by fetchRobots, RobotsCache and the command line). */
export interface FetchSettings {
  userAgent: string;
  timeoutMs: number;
  connectTimeoutMs: number;
  maxBytes: number;
  mode: RobotsMode;
  defaultScheme: 'https' | 'http';
  now: () => number;
  targets: FetchTargets;
  resolveHost: (hostname: string) => Promise<string[]>;
  /** How a refusal's error names options (the library's names, or the command line's flags). */
  optionWords: OptionWords;
}

/** Resolves a host name with node:dns (every address), as the targets check does by default. */
export async function resolveWithDns(hostname: string): Promise<string[]> {
  return (await lookup(hostname, { all: true, verbatim: true })).map((entry) => entry.address);
}

/** True for an address a public fetch must not reach: loopback, private, link-local, unique-local, unspecified, shared (CGNAT), reserved, multicast. */
export function isInternalAddress(address: string): boolean {
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    parsed = ipaddr.parse(address);
  } catch {
    return true; // not an address: never treated as public
  }
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  return parsed.range() !== 'unicast';
}

/** An internal address in words: `127.0.0.1 is a loopback address`, `db.lan resolves to 10.0.0.5, a private address`. */
function internalWhere(hostname: string, address: string): string {
  let range = 'internal';
  try {
    let parsed: ipaddr.IPv4 | ipaddr.IPv6 = ipaddr.parse(address);
    if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) parsed = (parsed as ipaddr.IPv6).toIPv4Address();
    range = parsed.range().replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);
  } catch { /* not an address: said as internal */ }
  const host = hostname.replace(/^\[(.*)\]$/, '$1');
  return host === address ? `${address} is a ${range} address` : `${hostname} resolves to ${address}, a ${range} address`;
}

/** The addresses a URL's host stands for: itself when it is an address, else what the resolver says. */
async function addressesOf(url: URL, settings: Pick<FetchSettings, 'resolveHost'>): Promise<string[]> {
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  if (ipaddr.isValid(host)) return [host];
  try {
    return await settings.resolveHost(host);
  } catch {
    return []; // unresolvable: the fetch itself reports it
  }
}

/**
 * Why a hop to `next` is refused under the targets policy, or null when it may go: `from` is the URL that
 * answered with the redirect (null for the first hop); fromContent: the first URL was read from content (a
 * log, a URL list), not named by the caller. The one rule of what every fetch may reach (robots.txt, range
 * files, pages), hop by hop. Per hop.
 */
export async function refusedTarget(next: URL, from: URL | null, settings: Pick<FetchSettings, 'targets' | 'resolveHost'>, fromContent: boolean): Promise<TargetRefusal | null> {
  if (settings.targets === 'any') return null;
  if (settings.targets === 'public' && from !== null && (next.port || (next.protocol === 'https:' ? '443' : '80')) !== (from.port || (from.protocol === 'https:' ? '443' : '80'))) {
    return { code: 'other-port', where: `${next.protocol}//${next.host}` };
  }
  if (settings.targets === 'default' && from === null && !fromContent) return null; // what the caller names is fetched as named
  const internal = (await addressesOf(next, settings)).find(isInternalAddress);
  if (internal === undefined) return null;
  const where = internalWhere(next.hostname, internal);
  if (settings.targets === 'public') return { code: from === null ? 'internal-fetch' : 'internal-redirect', where };
  if (from === null) return { code: 'internal-from-content', where };
  // default: refused only when the redirect comes from a public address
  const fromAddresses = await addressesOf(from as URL, settings);
  if (fromAddresses.length === 0 || fromAddresses.some(isInternalAddress)) return null;
  return { code: 'public-to-internal', where };
}

/** Why the targets policy refused a fetch or a redirect: a stable code, and the address or origin it is about. */
export interface TargetRefusal {
  readonly code: 'other-port' | 'internal-fetch' | 'internal-redirect' | 'internal-from-content' | 'public-to-internal';
  readonly where: string;
}

/** A refusal as a fetch's error says it (options in `say`'s words: the library's names, or the command line's flags). Per refusal. */
export function refusalSentence(refusal: TargetRefusal, say: OptionWords = LIBRARY_OPTION_WORDS): string {
  const { where } = refusal;
  switch (refusal.code) {
    case 'other-port': return `redirect to another port refused (${where}; ${say({ name: 'targets', value: 'public' })} allows the same port only)`;
    case 'internal-fetch': return `fetch to an internal address refused (${where}; ${say({ name: 'targets', value: 'public' })})`;
    case 'internal-redirect': return `redirect to an internal address refused (${where}; ${say({ name: 'targets', value: 'public' })})`;
    case 'internal-from-content': return `an origin from a log or URL list at an internal address, not fetched (${where}; name it yourself, or ${say({ name: 'targets', value: 'any' })})`;
    case 'public-to-internal': return `redirect from a public address to an internal one refused (${where}; ${say({ name: 'targets', value: 'any' })} allows it)`;
  }
}

/** Checks the ranges of fetch options (INVALID_ARGUMENT naming the option). Called once per fetcher. */
export function fetchSettings(options: FetchRobotsOptions): FetchSettings {
  const timeoutMs = wholeNumberArgument('timeoutMs', options.timeoutMs, DEFAULT_TIMEOUT_MS, 1, 600_000);
  const connectTimeoutMs = wholeNumberArgument('connectTimeoutMs', options.connectTimeoutMs, Math.min(timeoutMs, 10_000), 1, 600_000);
  const maxBytes = wholeNumberArgument('maxBytes', options.maxBytes, DEFAULT_MAX_BYTES, 1, MAX_FETCH_BYTES);
  const mode = options.mode ?? 'google';
  if (mode !== 'google' && mode !== 'rfc') throw new RobotsError('INVALID_ARGUMENT', `unknown mode "${String(mode)}" (expected google or rfc)`);
  const userAgent = options.userAgent ?? DEFAULT_FETCH_USER_AGENT;
  // what an HTTP header value may hold (RFC 9110: tab, visible ASCII, space, obs-text): undici refuses the rest
  if (typeof userAgent !== 'string' || userAgent.trim() === '' || userAgent.length > 1024 || /[^\t\x20-\x7e\x80-\xff]/.test(userAgent)) throw new RobotsError('INVALID_ARGUMENT', 'userAgent must be a non-empty string of at most 1024 characters: tab, printable ASCII and Latin-1 only (no line breaks or control characters)');
  const targets = options.targets ?? 'default';
  if (!FETCH_TARGETS.includes(targets)) throw new RobotsError('INVALID_ARGUMENT', `targets must be default, public or any, got ${String(options.targets)}`);
  if (options.resolveHost !== undefined && typeof options.resolveHost !== 'function') throw new RobotsError('INVALID_ARGUMENT', 'resolveHost must be a function');
  if (options.optionWords !== undefined && typeof options.optionWords !== 'function') throw new RobotsError('INVALID_ARGUMENT', 'optionWords must be a function');
  const defaultScheme = options.defaultScheme ?? 'https';
  if (defaultScheme !== 'https' && defaultScheme !== 'http') throw new RobotsError('INVALID_ARGUMENT', `defaultScheme must be https or http, got ${String(options.defaultScheme)}`);
  return { userAgent, timeoutMs, connectTimeoutMs, maxBytes, mode, defaultScheme, now: options.now ?? Date.now, targets, resolveHost: options.resolveHost ?? resolveWithDns, optionWords: options.optionWords ?? LIBRARY_OPTION_WORDS };
}

/** How long after the request's own deadline undici's timeouts would end it (see robotsAgent). */
const UNDICI_BACKSTOP_MS = 1000;

/**
 * An undici Agent for robots.txt fetches: the connect deadline, no connection kept long. One per fetcher.
 * The request's deadline (timeoutMs, the whole fetch with its redirects) is fetchOrigin's own timer; undici's
 * header and body timeouts are only a backstop a second after it, so that the two never race to name a
 * timeout (they did when equal: a loaded machine gave either wording).
 */
export function robotsAgent(settings: FetchSettings, connections = 4): Agent {
  return new Agent({
    connect: { timeout: settings.connectTimeoutMs },
    headersTimeout: settings.timeoutMs + UNDICI_BACKSTOP_MS,
    bodyTimeout: settings.timeoutMs + UNDICI_BACKSTOP_MS,
    keepAliveTimeout: 4_000,
    connections,
  });
}

/**
 * Fetches the robots.txt of the origin of `target` (a URL, an origin or a host name) and reads it by the
 * documented rules (Google's and RFC 9309's). Never throws for what a server does (that is an outcome); throws INVALID_ARGUMENT for a
 * bad target or option. For one-off use; a crawler keeps a RobotsCache.
 */
export async function fetchRobots(target: string, options: FetchRobotsOptions = {}): Promise<RobotsFetchResult> {
  const settings = fetchSettings(optionsArgument(options, FETCH_OPTION_NAMES, 'fetchRobots options'));
  const origin = robotsOriginOf(target, settings.defaultScheme);
  const dispatcher = options.dispatcher ?? robotsAgent(settings, 1);
  try {
    return await fetchOrigin(origin, settings, dispatcher, options.previous ?? null, null);
  } finally {
    if (options.dispatcher === undefined) await (dispatcher as Agent).close().catch(() => undefined);
  }
}

/**
 * Limits a fetcher shares between fetches: requests at once to one host, the host a request contacts
 * (`host:port` of each hop: a redirect to a shared host waits for that host's slot, not its origin's).
 */
export class HostLimits {
  private readonly limits = new Map<string, LimitFunction>();
  constructor(readonly perHost: number) {}
  /** Runs fn when fewer than perHost requests to host are running. */
  run<T>(host: string, fn: () => Promise<T>): Promise<T> {
    let limit = this.limits.get(host);
    if (limit === undefined) {
      limit = pLimit(this.perHost);
      this.limits.set(host, limit);
    }
    const own = limit;
    return own(fn).finally(() => {
      if (own.activeCount === 0 && own.pendingCount === 0) this.limits.delete(host);
    });
  }

  /** Requests waiting for a host's slot now (the fetch command's progress shows them). */
  get waiting(): number {
    let count = 0;
    for (const limit of this.limits.values()) count += limit.pendingCount;
    return count;
  }
}

/**
 * The clock of one fetch's deadline: it runs while the fetch works (resolving, connecting, waiting for and
 * reading answers, hop after hop) and stands still while it waits for a host's slot, so that time queued
 * behind other fetches to a shared host never counts against it. Made once per fetch.
 */
class FetchClock {
  private usedMs = 0;
  private since: number | null = null;
  private timer: ReturnType<typeof setTimeout> | undefined;
  constructor(private readonly limitMs: number, private readonly expire: () => void) {}

  /** Runs work on the clock. */
  async timed<T>(work: () => Promise<T>): Promise<T> {
    this.since = performance.now();
    this.timer = setTimeout(this.expire, Math.max(0, this.limitMs - this.usedMs));
    try {
      return await work();
    } finally {
      this.usedMs += performance.now() - this.since;
      this.since = null;
      clearTimeout(this.timer);
    }
  }

  stop(): void {
    clearTimeout(this.timer);
  }
}

/** One fetch of an origin (internal): redirects hop by hop, each hop's request within the host limit. */
export async function fetchOrigin(origin: RobotsOrigin, settings: FetchSettings, dispatcher: Dispatcher, previous: OriginRecord | null, hostLimits: HostLimits | null): Promise<RobotsFetchResult> {
  const started = performance.now();
  const controller = new AbortController();
  const clock = new FetchClock(settings.timeoutMs, () => controller.abort());
  const conditional = previous !== null && previous.kept === 'body' && (previous.etag !== null || previous.lastModified !== null);
  const visited = new Set<string>();
  let url = origin.robotsUrl;
  let hops = 0;
  let headersMs: number | null = null;
  const finish = (outcome: FetchOutcome, status: number, error: string | null, extra: Partial<RobotsFetchResult> = {}): RobotsFetchResult => {
    const body = extra.body ?? new Uint8Array(0);
    return {
      origin: origin.origin, url: origin.robotsUrl, key: origin.key, outcome, status, error, finalUrl: url, hops,
      etag: extra.etag ?? null, lastModified: extra.lastModified ?? null, cacheMaxAgeMs: extra.cacheMaxAgeMs ?? null,
      endedAt: settings.now(),
      effect: outcome === 'ok' || outcome === 'not-modified' ? 'rules' : outcome === 'not-found' ? 'allow-all' : 'disallow-all',
      body, truncated: extra.truncated ?? false, refusedByTargets: extra.refusedByTargets ?? false, refusal: extra.refusal ?? null,
      robots: outcome === 'ok' ? parseRobots(body, readingPart(settings)) : null,
      timings: { totalMs: performance.now() - started, headersMs },
    };
  };
  try {
    const fromContent = origin.fromContent === true;
    const refusedFirst = settings.targets === 'public' || (settings.targets === 'default' && fromContent) ? await clock.timed(() => refusedTarget(new URL(url), null, settings, fromContent)) : null;
    if (refusedFirst !== null) return finish('unreachable', 0, refusalSentence(refusedFirst, settings.optionWords), { refusedByTargets: true, refusal: refusedFirst });
    while (true) {
      visited.add(url);
      const headers: Record<string, string> = {
        'user-agent': settings.userAgent,
        'accept': 'text/plain, */*;q=0.5',
        'accept-encoding': 'gzip, deflate, br',
      };
      if (conditional && hops === 0) {
        if (previous.etag !== null) headers['if-none-match'] = previous.etag;
        if (previous.lastModified !== null) headers['if-modified-since'] = previous.lastModified;
      }
      const host = new URL(url).host;
      const send = (): Promise<{ response: Dispatcher.ResponseData; read: BodyRead | null }> => clock.timed(async () => {
        // reset: the connection closes after the answer (an origin's robots.txt is fetched once a day at
        // most: an idle connection per origin would only hold memory)
        const response = await request(url, { method: 'GET', headers, dispatcher, signal: controller.signal, reset: true });
        // a body not read to its end is destroyed, which undici reports as an 'error' event: expected here
        response.body.on('error', () => undefined);
        // the body is read inside the host limit too: a trickling body holds its host's slot
        const read = response.statusCode >= 200 && response.statusCode <= 299
          ? await decodeContent(response.body, header(response.headers, 'content-encoding'), settings.maxBytes, { release: () => response.body.destroy(), signal: controller.signal })
          : (response.body.destroy(), null);
        return { response, read };
      });
      // the deadline counts from when the request may go: a slot of its host (time queued for it is not the server's)
      const { response, read } = hostLimits === null ? await send() : await hostLimits.run(host, send);
      headersMs = headersMs ?? performance.now() - started;
      const status = response.statusCode;
      const meaning = outcomeOfStatus(status, settings.mode, conditional && hops === 0);
      if (meaning === 'redirect') {
        const location = header(response.headers, 'location');
        let next: URL | null = null;
        try { next = location === null ? null : new URL(location, url); } catch { next = null; }
        if (next === null || !REDIRECT_STATUSES.has(status)) return finish('not-found', status, `${status} without a Location to follow`);
        if (next.protocol !== 'http:' && next.protocol !== 'https:') return finish('not-found', status, `redirect to ${next.protocol} URL`);
        next.hash = '';
        // credentials in a Location are never sent on, printed or stored
        next.username = '';
        next.password = '';
        const refused = await clock.timed(() => refusedTarget(next as URL, new URL(url), settings, fromContent));
        if (refused !== null) return finish('unreachable', status, refusalSentence(refused, settings.optionWords), { refusedByTargets: true, refusal: refused });
        if (visited.has(next.href)) { url = next.href; return finish('not-found', status, 'redirect loop'); }
        if (hops === MAX_REDIRECT_HOPS) return finish('not-found', status, `more than ${MAX_REDIRECT_HOPS} redirects`);
        hops++;
        url = next.href;
        continue;
      }
      const cacheMaxAgeMs = cacheControlMaxAgeMs(header(response.headers, 'cache-control'));
      if (meaning === 'ok') {
        if (read === null || read.error !== null) return finish('unreachable', status, read?.error ?? 'no body');
        return finish('ok', status, null, { body: read.bytes, truncated: read.truncated, etag: header(response.headers, 'etag'), lastModified: header(response.headers, 'last-modified'), cacheMaxAgeMs });
      }
      if (meaning === 'not-modified') return finish('not-modified', status, null, { etag: header(response.headers, 'etag'), lastModified: header(response.headers, 'last-modified'), cacheMaxAgeMs });
      return finish(meaning, status, meaning === 'unreachable' ? (status === 206 ? 'HTTP 206 Partial Content to a request without a range: not a whole robots.txt' : `HTTP ${status}`) : null, { cacheMaxAgeMs: meaning === 'not-found' ? cacheMaxAgeMs : null });
    }
  } catch (error) {
    return finish('unreachable', 0, controller.signal.aborted ? `timeout after ${settings.timeoutMs} ms` : describeNetworkError(error));
  } finally {
    clock.stop();
  }
}

function header(headers: Dispatcher.ResponseData['headers'], name: string): string | null {
  const value = headers[name];
  if (value === undefined) return null;
  return Array.isArray(value) ? value.join(', ') : value;
}

/** A network failure in a few words (connection refused, DNS, reset, ...). */
function describeNetworkError(error: unknown): string {
  const code = (error as { code?: string }).code ?? (error as { cause?: { code?: string } }).cause?.code;
  switch (code) {
    case 'ECONNREFUSED': return 'connection refused';
    case 'ENOTFOUND': case 'EAI_AGAIN': return 'DNS: host not found';
    case 'ECONNRESET': return 'connection reset';
    case 'UND_ERR_CONNECT_TIMEOUT': return 'connect timeout';
    case 'UND_ERR_HEADERS_TIMEOUT': return 'timeout waiting for headers';
    case 'UND_ERR_BODY_TIMEOUT': return 'timeout reading the body';
    // undici refuses an informational answer the request did not ask for (an unsolicited 100 Continue before
    // the 200) as a "bad response": such an origin is unreachable, and the message says what was seen
    case 'UND_ERR_SOCKET': return (error as Error).message === 'bad response' ? 'the server sent an answer this client cannot read (an unrequested 1xx such as 100 Continue, or malformed HTTP)' : 'connection closed early';
    case 'UND_ERR_RES_CONTENT_LENGTH_MISMATCH': return 'body shorter than its Content-Length';
    case 'UND_ERR_HEADERS_OVERFLOW': return 'response headers too large';
    case 'UND_ERR_CLOSED': case 'UND_ERR_DESTROYED': case 'UND_ERR_ABORTED': return 'connection closed early';
    case 'UND_ERR_INVALID_ARG': return 'the request could not be made (invalid argument)';
    case 'UND_ERR_NOT_SUPPORTED': return 'the server answered in a way this client does not support';
    case 'ERR_ASSERTION': return 'the server\'s answer could not be read (malformed HTTP)';
    case 'EHOSTUNREACH': case 'ENETUNREACH': return 'host unreachable';
    case 'ETIMEDOUT': return 'connect timeout';
    case 'EPIPE': return 'connection closed early';
    default:
      if (code !== undefined && (/^ERR_(SSL|TLS)_/.test(code) || code.includes('CERT'))) return `TLS error (${code})`;
      if (code !== undefined && code.startsWith('HPE_')) return `malformed HTTP response (${code})`;
      if (code !== undefined && code.startsWith('UND_ERR_')) return `network error (${code})`;
      return code !== undefined ? `network error (${code})` : `network error: ${((error as Error).message ?? String(error)).slice(0, 200)}`;
  }
}

type BodyRead = DecodedBody;
