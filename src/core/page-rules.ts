// The page's own rules: what a page lets a crawler index, follow and show, read from its response headers
// (X-Robots-Tag, Google's; Robots-Tag, draft-illyes-repext-03's Structured Field List) and from the robots
// meta tags of its HTML head (the tags are found by the caller: src/node/page/ reads the HTML with parse5).
// robots.txt controls crawling; these control indexing and serving, and are seen only when the page is
// crawled (judgePage). Any runtime; linear in the headers' and tags' length. Rules: docs/page-rules.md.
import { asciiLowerCase, productToken } from './robots.js';
import { contentSignalAfter, readContentSignal } from './usage.js';

/** Where a statement came from. */
export type PageRuleSource = 'header' | 'meta';

/** One rule as a page states it: `noindex`, `max-snippet` with `50`, scoped to a crawler or to all. */
export interface PageRuleStatement {
  /** The rule's name, lower case (`noindex`, `max-snippet`, `unavailable_after`, or an unknown one as written, lower-cased). */
  rule: string;
  /** Its value (`50`, `large`, a date), or null. */
  value: string | null;
  source: PageRuleSource;
  /** The product token it is scoped to (lower case), or null for every crawler. */
  agent: string | null;
  /** The header line or meta tag it was read from, as written (`X-Robots-Tag: googlebot: noindex`; past 256 characters, cut and its length said). */
  text: string;
}

/** A meta tag of a page's head: its name and content attributes, as written. */
export interface PageMeta {
  name: string;
  content: string;
}

/** What a page's rules let one crawler do. Fields not stated are the defaults (index, follow, ...). */
export interface PageRules {
  /** The crawler asked for (its product token). */
  agent: string;
  index: boolean;
  follow: boolean;
  /** Text snippets: allowed at all, and the most characters (null: no limit stated). */
  snippet: { allowed: boolean; maxChars: number | null };
  /** The largest image preview allowed (null: none stated, the search engine decides). */
  imagePreview: 'none' | 'standard' | 'large' | null;
  /** The most seconds of video preview (0: a static image only; null: no limit stated). */
  videoPreview: number | null;
  translate: boolean;
  imageIndex: boolean;
  /** indexifembedded: content embedded in another page (an iframe) may be indexed despite noindex. */
  indexIfEmbedded: boolean;
  /** The earliest unavailable_after date stated (ISO 8601), or null; `index` is false from then on. */
  unavailableAfter: string | null;
  /** AI statements some sites make: `noai`, `noimageai` (robots meta or header) and `<meta name="content-signal">`. */
  ai: { noai: boolean; noimageai: boolean; contentSignal: Record<string, string> };
  /** The statements that apply to this crawler (its own and every crawler's), in the order read. */
  rules: PageRuleStatement[];
  /** Statements this reader does not know, or whose value it cannot read (kept, never an error). */
  unknown: PageRuleStatement[];
}

/**
 * What the HTTP status of a crawled page means for indexing it (Google's documentation of HTTP status codes):
 * unknown (no status given: the page is judged by its rules alone), content (2xx: the page, judged by its
 * rules), no-content (204), not-modified (304: the copy crawled before stands), redirect (3xx: not the page;
 * its target may be indexed), client-error (4xx but 429: not indexed, dropped from the index), server-error
 * (429 and 5xx: retried later; this response is not indexed), invalid (no final status: 1xx, 600 and above).
 */
export type PageResponse = 'unknown' | 'content' | 'no-content' | 'not-modified' | 'redirect' | 'client-error' | 'server-error' | 'invalid';

/** The one reading of a crawled page's HTTP status (null: none given). Per page. */
export function pageResponseOf(status: number | null): PageResponse {
  if (status === null) return 'unknown';
  if (!Number.isInteger(status) || status < 200 || status > 599) return 'invalid';
  if (status === 204) return 'no-content';
  if (status < 300) return 'content';
  if (status === 304) return 'not-modified';
  if (status < 400) return 'redirect';
  if (status < 500 && status !== 429) return 'client-error';
  return 'server-error';
}

/** Why a response of each kind is or is not indexed, for people (the note of a page's answer). */
const RESPONSE_NOTE: Readonly<Record<PageResponse, string>> = {
  unknown: '',
  content: '',
  'no-content': 'answered 204 No Content: there is no content to index',
  'not-modified': '',
  redirect: 'answered with a redirect (3xx), which is not the page: its target may be indexed, this URL is not',
  'client-error': 'answered with a client error (4xx): the URL is not indexed, and dropped from the index if it was',
  'server-error': 'answered with a server error (5xx or 429): the crawler retries later; this response is not indexed (a page indexed before stays for a while)',
  invalid: 'answered with no final HTTP status: nothing to index',
};

/** What a page gives a crawler, with robots.txt: crawl (the reference's verdict) and whether its rules are seen. */
export interface PageAnswer extends PageRules {
  crawl: 'allowed' | 'disallowed';
  /** False when robots.txt disallows crawling: the page's rules are never seen (the URL may still be indexed from links). */
  seen: boolean;
  /** What the page's HTTP status means for indexing (pageResponseOf; `unknown` when no status was given). */
  response: PageResponse;
  /**
   * True when the page may appear in search results: seen, answered with content (or no status given) and
   * indexable by its rules; or not seen (indexable from links, without content).
   */
  indexable: boolean;
  /** A sentence for people: what the combination means. */
  note: string;
}

/** The rules of Google's robots meta tag and X-Robots-Tag specification (and repext-03), with whether they take a value. */
const KNOWN_RULES: Readonly<Record<string, 'flag' | 'value'>> = {
  all: 'flag', index: 'flag', follow: 'flag', noindex: 'flag', nofollow: 'flag', none: 'flag', nosnippet: 'flag',
  indexifembedded: 'flag', notranslate: 'flag', noimageindex: 'flag', noarchive: 'flag', nocache: 'flag',
  noai: 'flag', noimageai: 'flag',
  'max-snippet': 'value', 'max-image-preview': 'value', 'max-video-preview': 'value', unavailable_after: 'value',
};

/** repext-03: a recipient parses at least this many bytes of a Robots-Tag field; complete members before the cut are kept. */
export const ROBOTS_TAG_PARSE_LIMIT = 8192;

/** The largest header value or meta content read (the rest is not read: a page of megabytes of rules stays bounded). */
const MAX_VALUE_CHARS = 64 * 1024;

const isKnown = (name: string): boolean => Object.hasOwn(KNOWN_RULES, name);

/** `name: value` or `name` of one comma-separated part, name lower-cased. */
function ruleOf(part: string): { rule: string; value: string | null } {
  const colon = part.indexOf(':');
  if (colon < 0) return { rule: asciiLowerCase(part.trim()), value: null };
  return { rule: asciiLowerCase(part.slice(0, colon).trim()), value: part.slice(colon + 1).trim() };
}

/**
 * The statements of one X-Robots-Tag value or robots meta content: rules separated by commas, an
 * `unavailable_after:` date keeping its own commas and colons (up to the next part that is a rule), and, in a
 * header, a `token:` prefix that is no rule's name scoping the rules after it to that crawler.
 */
function statementsOfList(value: string, source: PageRuleSource, scope: string | null, text: string, header: boolean): PageRuleStatement[] {
  const parts = value.slice(0, MAX_VALUE_CHARS).split(',');
  const statements: PageRuleStatement[] = [];
  let agent = scope;
  for (let i = 0; i < parts.length; i++) {
    let part = parts[i].trim();
    if (part === '') continue;
    // a header's "googlebot: noindex": the crawler named before the first colon, when that name is no rule
    if (header) {
      const colon = part.indexOf(':');
      const head = colon < 0 ? '' : asciiLowerCase(part.slice(0, colon).trim());
      if (colon > 0 && !isKnown(head) && /^[a-z0-9_.-]+$/.test(head)) {
        agent = head;
        part = part.slice(colon + 1).trim();
        if (part === '') continue;
      }
    }
    const { rule, value: stated } = ruleOf(part);
    let ruleValue = stated;
    if (rule === 'unavailable_after' && ruleValue !== null && i + 1 < parts.length && pageRuleTime(ruleValue) === null) {
      // an RFC 850 or RFC 822/1123 date has one comma of its own, after the weekday: the next part belongs to
      // the date when the two together are one (never more than one part: a rule after the date stays a rule)
      const joined = `${ruleValue},${parts[i + 1]}`.trim();
      if (pageRuleTime(joined) !== null) {
        ruleValue = joined;
        i++;
      }
    }
    statements.push({ rule, value: ruleValue, source, agent, text });
  }
  return statements;
}

/**
 * The members of a Robots-Tag field (repext-03): an RFC 9651 List whose members are a crawler's token (`*`
 * for every crawler) with the rules as parameters (`*;nosnippet, ExampleBot;noindex`, `Bot;max-snippet=20`).
 * At most ROBOTS_TAG_PARSE_LIMIT bytes are parsed: a member cut by the limit is dropped, the complete ones kept.
 * A member that is no token with parameters is reported as unknown.
 */
function statementsOfRobotsTag(value: string, text: string): PageRuleStatement[] {
  let field = value;
  if (field.length > ROBOTS_TAG_PARSE_LIMIT) {
    const cut = field.lastIndexOf(',', ROBOTS_TAG_PARSE_LIMIT);
    field = cut < 0 ? '' : field.slice(0, cut);
  }
  const statements: PageRuleStatement[] = [];
  for (const raw of splitOutsideQuotes(field, ',')) {
    const member = raw.trim();
    if (member === '') continue;
    const [head, ...params] = splitOutsideQuotes(member, ';');
    const token = head.trim();
    if (!/^(\*|[A-Za-z][A-Za-z0-9_.:%*/!#$&'^`|~+-]*)$/.test(token)) {
      statements.push({ rule: asciiLowerCase(token), value: null, source: 'header', agent: null, text });
      continue;
    }
    const agent = token === '*' ? null : asciiLowerCase(token);
    for (const param of params) {
      const equals = param.indexOf('=');
      const rule = asciiLowerCase((equals < 0 ? param : param.slice(0, equals)).trim());
      let ruleValue = equals < 0 ? null : param.slice(equals + 1).trim();
      if (ruleValue !== null && ruleValue.startsWith('"') && ruleValue.endsWith('"') && ruleValue.length >= 2) ruleValue = ruleValue.slice(1, -1).replace(/\\(["\\])/g, '$1');
      if (ruleValue === '?1') ruleValue = null; // a Boolean true parameter is the flag itself
      if (rule !== '') statements.push({ rule, value: ruleValue, source: 'header', agent, text });
    }
  }
  return statements;
}

/** Splits at a separator outside double-quoted strings (RFC 9651 strings may hold it). */
function splitOutsideQuotes(text: string, separator: string): string[] {
  const out: string[] = [];
  let quoted = false;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '\\' && quoted) i++;
    else if (c === '"') quoted = !quoted;
    else if (c === separator && !quoted) {
      out.push(text.slice(start, i));
      start = i + 1;
    }
  }
  out.push(text.slice(start));
  return out;
}

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const ZONES: Readonly<Record<string, number>> = { ut: 0, utc: 0, gmt: 0, z: 0, est: -5, edt: -4, cst: -6, cdt: -5, mst: -7, mdt: -6, pst: -8, pdt: -7, cet: 1, cest: 2 };

/**
 * An unavailable_after date in the forms Google's specification names (RFC 822 and RFC 1123, RFC 850, ISO
 * 8601; a time without a zone is UTC), as ms since 1970; null when it is none of them (the rule is then
 * ignored, as the specification says, and reported as unknown). Parsed by hand: the same in every runtime.
 */
export function pageRuleTime(text: string): number | null {
  const value = text.trim();
  const iso = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?)?\s*(Z|[+-]\d{2}:?\d{2})?$/i.exec(value);
  if (iso !== null) return dateOf(+iso[1], +iso[2], +iso[3], +(iso[4] ?? 0), +(iso[5] ?? 0), +(iso[6] ?? 0), iso[7] === undefined ? 0 : Math.floor(Number(`0.${iso[7]}`) * 1000), zoneMinutes(iso[8] ?? 'Z'));
  // [Weekday,] DD Mon YYYY HH:MM[:SS] [zone] (RFC 822/1123), or [Weekday,] DD-Mon-YY HH:MM:SS zone (RFC 850)
  const rfc = /^(?:[A-Za-z]{3,9},?\s+)?(\d{1,2})[\s-]+([A-Za-z]{3})[a-z]*[\s-]+(\d{2}|\d{4})\s+(\d{1,2}):(\d{2})(?::(\d{2}))?\s*([A-Za-z]{1,5}|[+-]\d{4})?$/.exec(value);
  if (rfc === null) return null;
  const month = MONTHS.indexOf(asciiLowerCase(rfc[2]));
  if (month < 0) return null;
  let year = +rfc[3];
  if (rfc[3].length === 2) year += year < 50 ? 2000 : 1900;
  const zone = zoneMinutes(rfc[7] ?? 'GMT');
  return zone === null ? null : dateOf(year, month + 1, +rfc[1], +rfc[4], +rfc[5], +(rfc[6] ?? 0), 0, zone);
}

function zoneMinutes(zone: string): number | null {
  const offset = /^([+-])(\d{2}):?(\d{2})$/.exec(zone);
  if (offset !== null) return (offset[1] === '-' ? -1 : 1) * (+offset[2] * 60 + +offset[3]);
  const named = ZONES[asciiLowerCase(zone)];
  return named === undefined ? null : named * 60;
}

function dateOf(year: number, month: number, day: number, hour: number, minute: number, second: number, ms: number, zone: number | null): number | null {
  if (zone === null || month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 60) return null;
  const time = Date.UTC(year, month - 1, day, hour, minute, second, ms);
  if (new Date(time).getUTCDate() !== day) return null; // 31 June
  return time - zone * 60_000;
}

/** An HTTP header's name (RFC 9110 token). */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/**
 * One `Name: value` line as a header pair, or null when it is no header (no colon, or a name that is no
 * token). How robotstxt page --header and the Tester's page panel read headers typed by people. Per line.
 */
export function headerLine(text: string): [string, string] | null {
  const colon = text.indexOf(':');
  const name = colon < 0 ? '' : text.slice(0, colon).trim();
  return HEADER_NAME.test(name) ? [name, text.slice(colon + 1).trim()] : null;
}

/** A header as pairs: from [name, value] pairs (repeated names kept) or a record (a value per name, or several). */
export type PageHeaders = readonly (readonly [string, string])[] | Readonly<Record<string, string | readonly string[]>>;

function headerPairs(headers: PageHeaders): [string, string][] {
  if (Array.isArray(headers)) return headers.map(([name, value]) => [name, value]);
  return Object.entries(headers as Record<string, string | readonly string[]>).flatMap(([name, value]) => (typeof value === 'string' ? [[name, value] as [string, string]] : value.map((one) => [name, one] as [string, string])));
}

/** Characters of a header line or meta tag a statement names it by: beyond them the text is cut and its length said. */
const STATEMENT_TEXT_CHARS = 256;

/**
 * A header line or meta tag as its statements name it: as written, or its first STATEMENT_TEXT_CHARS
 * characters and its length (each of a line's statements names it: a 64 KiB line of 9,000 rules would be
 * written 9,000 times in a report).
 */
function statementText(text: string): string {
  return text.length <= STATEMENT_TEXT_CHARS ? text : `${text.slice(0, STATEMENT_TEXT_CHARS)}... (${text.length} characters)`;
}

/** Every statement of a page's headers and meta tags, whoever they address, in the order read. */
export function pageStatements(headers: PageHeaders, metas: readonly PageMeta[]): PageRuleStatement[] {
  const statements: PageRuleStatement[] = [];
  const add = (found: readonly PageRuleStatement[]): void => {
    for (const statement of found) statements.push(statement);
  };
  for (const [name, value] of headerPairs(headers)) {
    const lower = asciiLowerCase(name.trim());
    const text = statementText(`${name.trim()}: ${value.trim()}`);
    if (lower === 'x-robots-tag') add(statementsOfList(value, 'header', null, text, true));
    else if (lower === 'robots-tag') add(statementsOfRobotsTag(value, text));
  }
  for (const meta of metas) {
    const name = asciiLowerCase(meta.name.trim());
    if (name === 'content-signal' || name === '') continue; // read by pageRules for the AI statements
    const text = statementText(`<meta name="${meta.name}" content="${meta.content}">`);
    add(statementsOfList(meta.content, 'meta', name === 'robots' ? null : name, text, false));
  }
  return statements;
}

/** The largest image preview of two (none < standard < large). */
const PREVIEW_ORDER = ['none', 'standard', 'large'] as const;

/**
 * What a page's rules let one crawler (its product token) do: the statements for every crawler and for its
 * token, combined so that the more restrictive wins (Google: "In the case of conflicting robots rules, the
 * more restrictive rule applies"; repext: the union of the restrictive rules). nowMs: the time an
 * unavailable_after date is compared with. Per page and crawler.
 */
export function pageRules(input: { headers?: PageHeaders; metas?: readonly PageMeta[]; agent: string; nowMs?: number }): PageRules {
  const token = asciiLowerCase(productToken(input.agent) || input.agent);
  const nowMs = input.nowMs ?? Date.now();
  const all = pageStatements(input.headers ?? [], input.metas ?? []);
  const rules: PageRuleStatement[] = [];
  const unknown: PageRuleStatement[] = [];
  const answer: PageRules = {
    agent: input.agent, index: true, follow: true, snippet: { allowed: true, maxChars: null }, imagePreview: null, videoPreview: null,
    translate: true, imageIndex: true, indexIfEmbedded: false, unavailableAfter: null,
    ai: { noai: false, noimageai: false, contentSignal: {} }, rules, unknown,
  };
  let unavailableMs: number | null = null;
  for (const statement of all) {
    if (statement.agent !== null && statement.agent !== token) continue;
    const kind = KNOWN_RULES[statement.rule];
    if (kind === undefined || (kind === 'value' && statement.value === null)) {
      unknown.push(statement);
      continue;
    }
    const value = statement.value;
    let read = true;
    switch (statement.rule) {
      case 'noindex': answer.index = false; break;
      case 'nofollow': answer.follow = false; break;
      case 'none': answer.index = false; answer.follow = false; break;
      case 'nosnippet': answer.snippet = { allowed: false, maxChars: 0 }; break;
      case 'indexifembedded': answer.indexIfEmbedded = true; break;
      case 'notranslate': answer.translate = false; break;
      case 'noimageindex': answer.imageIndex = false; break;
      case 'noai': answer.ai.noai = true; break;
      case 'noimageai': answer.ai.noimageai = true; break;
      case 'max-snippet': {
        const chars = /^-?\d+$/.test(value ?? '') ? Number(value) : NaN;
        if (!Number.isSafeInteger(chars) || chars < -1) { read = false; break; }
        if (chars === 0) answer.snippet = { allowed: false, maxChars: 0 };
        else if (chars > 0 && answer.snippet.allowed) answer.snippet = { allowed: true, maxChars: Math.min(answer.snippet.maxChars ?? chars, chars) };
        break;
      }
      case 'max-image-preview': {
        const size = asciiLowerCase(value ?? '') as (typeof PREVIEW_ORDER)[number];
        if (!PREVIEW_ORDER.includes(size)) { read = false; break; }
        answer.imagePreview = answer.imagePreview === null || PREVIEW_ORDER.indexOf(size) < PREVIEW_ORDER.indexOf(answer.imagePreview) ? size : answer.imagePreview;
        break;
      }
      case 'max-video-preview': {
        const seconds = /^-?\d+$/.test(value ?? '') ? Number(value) : NaN;
        if (!Number.isSafeInteger(seconds) || seconds < -1) { read = false; break; }
        if (seconds >= 0) answer.videoPreview = Math.min(answer.videoPreview ?? seconds, seconds);
        break;
      }
      case 'unavailable_after': {
        const time = pageRuleTime(value ?? '');
        if (time === null) { read = false; break; }
        unavailableMs = unavailableMs === null ? time : Math.min(unavailableMs, time);
        break;
      }
      default: break; // all, index, follow, noarchive, nocache: no restriction to add (noarchive and nocache are retired)
    }
    (read ? rules : unknown).push(statement);
  }
  if (unavailableMs !== null) {
    answer.unavailableAfter = new Date(unavailableMs).toISOString();
    if (nowMs >= unavailableMs) answer.index = false;
  }
  // several content-signal tags: no over yes, as for robots.txt's Content-Signal lines (contentSignalAfter)
  const signals = new Map<string, string>();
  for (const meta of input.metas ?? []) {
    if (asciiLowerCase(meta.name.trim()) !== 'content-signal') continue;
    for (const [key, value] of readContentSignal(meta.content.slice(0, MAX_VALUE_CHARS)).values) {
      if (value === '') continue;
      const after = contentSignalAfter(signals.get(key), key, value);
      if (after !== null) signals.set(key, after);
    }
  }
  answer.ai.contentSignal = Object.fromEntries(signals);
  return answer;
}

/**
 * The answer for a URL: robots.txt's verdict (crawlAllowed) with the page's rules and its HTTP status (null:
 * none given). A disallowed URL is never crawled, so its rules and status are not seen (`seen: false`) and the
 * defaults stand: it may still be indexed from links, without its content (Google's robots.txt
 * introduction). A crawled URL is indexable when its status gives content (pageResponseOf) and its rules allow
 * it. Per page.
 */
export function judgePage(crawlAllowed: boolean, rules: PageRules, status: number | null = null): PageAnswer {
  if (!crawlAllowed) {
    const unseen = pageRules({ agent: rules.agent });
    const stated = rules.rules.some((rule) => rule.rule === 'noindex' || rule.rule === 'none');
    return {
      ...unseen, crawl: 'disallowed', seen: false, response: 'unknown', indexable: true,
      note: `robots.txt disallows crawling, so the page's own rules are never seen: the URL may still be indexed from links, without its content${stated ? ' (its noindex is not seen: allow crawling for it to be obeyed)' : ''}`,
    };
  }
  const response = pageResponseOf(status);
  if (response !== 'unknown' && response !== 'content' && response !== 'not-modified') {
    return { ...rules, crawl: 'allowed', seen: true, response, indexable: false, note: `crawling is allowed; the page ${RESPONSE_NOTE[response]}` };
  }
  const copy = response === 'not-modified' ? ' (304 Not Modified: the copy crawled before stands, and its own rules are not in this response)' : '';
  return {
    ...rules, crawl: 'allowed', seen: true, response, indexable: rules.index,
    note: (rules.index ? 'crawling is allowed and the page lets this crawler index it' : rules.unavailableAfter !== null && rules.rules.every((rule) => rule.rule !== 'noindex' && rule.rule !== 'none') ? `crawling is allowed; the page is unavailable after ${rules.unavailableAfter}` : 'crawling is allowed and the page tells this crawler not to index it') + copy,
  };
}
