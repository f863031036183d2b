// The URL model: the one place that says how this package reads a URL. Runtime-neutral (no node: module).
//
// A URL has two readings, and each has exactly one owner:
//   - its ORIGIN (scheme, host, port): whose robots.txt answers it. Read the way an HTTP client reads it,
//     with the WHATWG URL parser (Node's fetch, undici, browsers): leading and trailing C0 controls and
//     spaces trimmed, TAB/CR/LF removed, `\` as `/`, `http:host` and `http:\\host` accepted, the user info
//     before the last '@' dropped, the host percent-decoded, IDNA-mapped to its ASCII form, IPv4 forms
//     (`0x7f.1`) resolved, default ports dropped. Here: originOf(), originOfKey().
//   - its PATH: what the rules are matched against. That is the reference library's reading, byte for
//     byte (assembly/path.ts; docs/specification.md section 5), and is left as it is.
//
// Only http and https URLs have an origin with a robots.txt; anything else (other schemes, relative
// references, text that is no URL, hosts the WHATWG parser rejects) has none. One deviation from WHATWG,
// labelled: a host's single trailing dot is dropped (`example.com.` is answered by example.com's robots.txt;
// DNS resolves both to the same address). A second, labelled: a host (with its port) longer than
// MAX_HOST_KEY_BYTES (1024) names no origin (WHATWG takes any length; DNS names end at 253 bytes), so that the
// many-host scan, which keeps keys up to that length, and every other reader agree.
//
// The many-host scan in WebAssembly (assembly/hosts.ts hostKeyOf) only splits a line where WHATWG splits it
// and hands the authority here once per distinct spelling (originOfKey): it never decides a host itself.
// test/url-model.test.ts checks that split against the WHATWG parser on generated hostile URLs.
import { RobotsError } from './errors.js';
import { describe } from './arguments.js';
import { MAX_HOST_KEY_BYTES } from './constants.js';

/** An origin: the scheme, host and port whose robots.txt answers a URL. */
export interface UrlOrigin {
  /** `http` or `https`. */
  scheme: 'http' | 'https';
  /** The host as an HTTP client contacts it: lower case, IDN in xn-- form, IPv6 in brackets, no trailing dot. */
  host: string;
  /** The port when it is not the scheme's default (80, 443), else null. */
  port: string | null;
  /** `scheme://host[:port]`: the key of caches, stores and fetches. */
  origin: string;
  /** `host` or `host:port`: how a robots directory names files by host (`<hostKey>.txt`). */
  hostKey: string;
  /**
   * The store's file name stem for this origin: `https@example.com`, `http@example.com@8080`,
   * `https@[--1]` (an IPv6 host's ':' written '-'). Never '/', '\\', ':' or NUL: a valid file name on
   * Linux, macOS and Windows, inside the store's directory; '@' never stands in a host, so no host file
   * (`<host>.txt`) is mistaken for an origin file.
   */
  fileKey: string;
}

/** Origins resolved from keys and URLs, by their text (bounded; cleared when full). */
const resolved = new Map<string, UrlOrigin | null>();
const RESOLVED_LIMIT = 4096;
/** URLs longer than this are resolved every time (the cache holds at most 4096 x 2 KiB of text). */
const REMEMBERED_TEXT_LIMIT = 2048;

const utf8 = new TextDecoder('utf-8');

/**
 * A key that is already an origin's canonical form: `http(s)://` and dot-separated labels of a-z 0-9 '-'
 * with no `xn--` label (WHATWG checks punycode) and a last label that is no number (WHATWG reads
 * `a.1` and `a.0x1` as IPv4 addresses and rejects them). The core reads keys by the same rule
 * (assembly/pack-hosts.ts isPlainKey; test/url-model.test.ts holds the two equal).
 */
export function isPlainKey(key: string): boolean {
  const at = key.charCodeAt(4) === 0x73 ? 8 : 7; // after https:// or http://
  if (at >= key.length || !(key.startsWith('http://') || key.startsWith('https://'))) return false;
  let labelStart = at;
  let digitsOnly = true;
  for (let i = at; i <= key.length; i++) {
    const c = i === key.length ? 0x2e : key.charCodeAt(i);
    if (c === 0x2e) {
      if (i === labelStart) return false; // an empty label
      if (key.charCodeAt(labelStart + 2) === 0x2d && key.startsWith('xn--', labelStart)) return false;
      if (i === key.length) {
        // the last label: no number (WHATWG would read the host as an IPv4 address)
        if (digitsOnly) return false;
        if (key.charCodeAt(labelStart) === 0x30 && key.charCodeAt(labelStart + 1) === 0x78 && /^[0-9a-f]*$/.test(key.slice(labelStart + 2))) return false;
        return true;
      }
      labelStart = i + 1;
      digitsOnly = true;
      continue;
    }
    if (c >= 0x30 && c <= 0x39) continue;
    if (!((c >= 0x61 && c <= 0x7a) || c === 0x2d)) return false;
    digitsOnly = false;
  }
  return false;
}

/** An origin (see UrlOrigin); the store's file key is made when first asked for. */
class Origin implements UrlOrigin {
  private file: string | null = null;
  constructor(readonly scheme: 'http' | 'https', readonly host: string, readonly port: string | null, readonly origin: string, readonly hostKey: string) {}
  get fileKey(): string {
    return this.file ??= `${this.scheme}@${this.host.replaceAll(':', '-')}${this.port === null ? '' : `@${this.port}`}`;
  }
  /** `host` or `host:port` (the same as hostKey): what RobotsHost calls key. */
  get key(): string {
    return this.hostKey;
  }
  toJSON(): UrlOrigin {
    return { scheme: this.scheme, host: this.host, port: this.port, origin: this.origin, hostKey: this.hostKey, fileKey: this.fileKey };
  }
}

function fromParsed(url: URL): UrlOrigin | null {
  const scheme = url.protocol === 'https:' ? 'https' : url.protocol === 'http:' ? 'http' : null;
  if (scheme === null) return null;
  let host = url.hostname;
  // ID_TrailingDot: one trailing dot dropped (a deviation from WHATWG, which keeps it)
  if (host.length > 1 && host.endsWith('.')) host = host.slice(0, -1);
  if (host === '' || host === '.') return null;
  const port = url.port === '' ? null : url.port;
  const hostKey = port === null ? host : `${host}:${port}`;
  // ID_HostOver1024Bytes: no origin (see the header)
  if (hostKey.length > MAX_HOST_KEY_BYTES) return null;
  return new Origin(scheme, host, port, `${scheme}://${hostKey}`, hostKey);
}

function parsed(text: string): UrlOrigin | null {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return null;
  }
  return fromParsed(url);
}

function remember(text: string, origin: UrlOrigin | null): UrlOrigin | null {
  if (text.length > REMEMBERED_TEXT_LIMIT) return origin; // a long URL is not kept alive by the cache
  if (resolved.size >= RESOLVED_LIMIT) resolved.clear();
  resolved.set(text, origin);
  return origin;
}

/**
 * The origin of an absolute http(s) URL as an HTTP client reads it, or null when it has none (another
 * scheme, a relative reference, no host, a host the WHATWG parser rejects). Strings, URL objects and bytes
 * (UTF-8, as read from a file) are taken. Called per URL (fetch, the cache, audit): a URL whose authority is
 * plain costs a look-up of that authority; the many-host engine calls originOfKey once per distinct
 * authority instead.
 */
export function originOf(url: string | URL | Uint8Array): UrlOrigin | null {
  if (url instanceof URL) return fromParsed(url);
  const text = typeof url === 'string' ? url : utf8.decode(url);
  // no scheme: a text whose first byte after leading spaces and controls is not a letter is no absolute URL
  // (WHATWG fails it without a base), e.g. a log's relative request target; no parse, no exception
  if (NO_SCHEME.test(text)) return null;
  // the origin is decided by `scheme://authority` alone when the authority is plain and ends where every
  // reading ends it: parsed once per authority, not once per URL (an access log names a few hosts in
  // millions of URLs)
  const simple = SIMPLE_ORIGIN.exec(text);
  const key = simple === null ? text : simple[1];
  const known = resolved.get(key);
  if (known !== undefined) return known;
  return remember(key, parsed(simple === null ? text : `${key}/`));
}

/**
 * `http(s)://` and a non-empty authority of printable ASCII without space, `/`, `\`, `?` or `#`, followed by
 * `/`, `?`, `#` or the end: WHATWG then ends the authority at the same byte whatever follows (no tab or
 * newline can be removed from it, no backslash or missing slash changes where it starts or ends), so the
 * origin of the URL is that of `<prefix>/`. Anything else is parsed whole.
 */
/** A text that cannot start with a scheme (see originOf). */
const NO_SCHEME = /^[\x00-\x20]*[^A-Za-z\x00-\x20]/;
const SIMPLE_ORIGIN = /^(https?:\/\/[A-Za-z0-9\-._~!$&'()*+,;=:@%[\]]+)(?=[/?#]|$)/i;

/**
 * The origin of a key from the many-host scan (assembly/hosts.ts hostKeyOf: `http(s)://` and an authority
 * without user info, one char per byte), or null when the WHATWG parser rejects it. Called once per distinct
 * key. A plain key (see isPlainKey) is its own canonical origin: no other spelling of it can name it.
 */
export function originOfKey(key: string): UrlOrigin | null {
  if (isPlainKey(key)) {
    const https = key.charCodeAt(4) === 0x73;
    const host = key.slice(https ? 8 : 7);
    return new Origin(https ? 'https' : 'http', host, null, key, host);
  }
  let text = key;
  // bytes >= 0x80: the line's UTF-8, decoded as an HTTP client decodes it
  if (/[\x80-\xff]/.test(key)) text = utf8.decode(Uint8Array.from(key, (c) => c.charCodeAt(0)));
  return parsed(`${text}/`);
}

/**
 * What a robots source key, a map key or a command-line host names: an origin (`https://example.com:8080`:
 * that origin only), or a bare `host` / `host:port` (both schemes; the host canonicalised as in a URL).
 * Throws INVALID_ARGUMENT naming `what` when it names no host. Called once per key.
 */
export function hostOrOriginOf(input: unknown, what: string): { scheme: 'http' | 'https' | null; hostKey: string } {
  if (typeof input !== 'string') throw new RobotsError('INVALID_ARGUMENT', `${what} must be a string, got ${describe(input)}`);
  const text = input.trim();
  const bad = (): RobotsError => new RobotsError('INVALID_ARGUMENT', `${what} ${JSON.stringify(text.slice(0, 200))} names no http(s) origin or host`);
  if (text.includes('://')) {
    const origin = originOf(text);
    if (origin === null || !/^https?:\/\/[^/?#]+\/?$/i.test(text)) throw bad();
    return { scheme: origin.scheme, hostKey: origin.hostKey };
  }
  const port = /:(\d{1,5})$/.exec(text);
  const name = port === null ? text : text.slice(0, port.index);
  if (name === '' || /[/?#\\@:\s]/.test(name.replace(/^\[[0-9a-fA-F:.]+\]$/, ''))) throw bad();
  const origin = originOf(`http://${name}/`);
  if (origin === null || (port !== null && Number(port[1]) > 65535)) throw bad();
  return { scheme: null, hostKey: port === null ? origin.host : `${origin.host}:${Number(port[1])}` };
}

/**
 * True for a request target of /robots.txt itself: a path or an absolute URL, with or without a query (its
 * PATH reading, case as written). An audit counts such a request as the crawler reading the rules (RFC 9309
 * 2.3), never as a violation. Per audited request.
 */
export function isRobotsTxtTarget(target: string): boolean {
  const path = target.replace(/^[a-zA-Z][a-zA-Z0-9+.-]*:\/\/[^/?#]*/, '');
  const end = path.search(/[?#]/);
  return (end < 0 ? path : path.slice(0, end)) === '/robots.txt';
}

/** An authority that ends in its scheme's default port (ALB logs write `:443` and `:80` on every URL). */
const DEFAULT_PORT_AUTHORITY = /^(?:(https):\/\/[^/?#\\]*?:443|(http):\/\/[^/?#\\]*?:80)(?=[/?#\\]|$)/i;

/**
 * An absolute http(s) URL without an explicit default port (`https://a.example:443/p` -> `https://a.example/p`),
 * which never changes its origin; any other text as it is. The log reader's, per request target that names
 * a host (ALB and JSON logs).
 */
export function withoutDefaultPort(url: string): string {
  const withPort = DEFAULT_PORT_AUTHORITY.exec(url);
  if (withPort === null) return url;
  const cut = withPort[0].length - (withPort[1] !== undefined ? 4 : 3);
  return url.slice(0, cut) + url.slice(withPort[0].length);
}
