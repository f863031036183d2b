// The one log reader of check --log, diff --log, audit and fetch --log: access log lines -> requests.
//
// Formats, recognised per line (a file may mix them):
//   Apache/nginx  common, combined (nginx's default `combined` is the same), vhost_combined, each with any
//                 fields after the User-Agent ($request_time, $http_x_forwarded_for, ...). Read by the
//                 WebAssembly core (assembly/log.ts), one pass per line.
//   JSON lines    one object per line ({...}); which keys hold the target, host, User-Agent, time, ... is
//                 configurable (LogFieldNames), with the usual names (nginx escape=json, GCP httpRequest.*,
//                 Caddy request.*) found by default.
//   CloudFront    standard (access) logs: W3C, tab-separated, `#Version` and `#Fields` header lines; the
//                 fields named by the last `#Fields` line, else CloudFront's documented 33-field order.
//   AWS ALB       Application Load Balancer access logs: `type time elb client:port ... "request" "user_agent" ...`.
// Anything else is malformed (null), reported by the callers with its line number. Each reader is linear in
// the line's length. Lines are strings of one char per byte (latin1), as logs carry bytes.
//
// Every request comes with its URL line, made by the core for every format (assembly/log.ts: escapes undone,
// `http://<host>` in front of a relative target, the line's host else the default host): whose robots.txt
// answers a request is that line's origin (the URL model), for check --log, diff --log, audit and fetch --log
// alike. One reader, LogLineReader, reads a chunk two ways from the same core call and the same reading of
// other formats: readChunk gives each line's request with its URL line (audit, fetch --log), its fields
// decoded to strings only when asked; readUrlLines gives only the URL lines, with no object per request
// (check --log, diff --log). ALB's escapes are undone by the core's rule, default ports dropped by the URL model.
import {
  LOG_VHOST_START, LOG_VHOST_END, LOG_CLIENT_START, LOG_CLIENT_END, LOG_TIME_START, LOG_TIME_END, LOG_METHOD_START,
  LOG_METHOD_END, LOG_STATUS, LOG_REFERER_START, LOG_REFERER_END, LOG_AGENT_START, LOG_AGENT_END,
  LOG_LINE_START, LOG_LINE_END, LOG_LINE_PARSED, LOG_LINE_RECORD_SIZE, LOG_LINE_URL_START, LOG_LINE_URL_END, LOG_LINE_URL_TARGET, LOG_LINE_URL_HOST,
  URL_HOST_SCHEME, URL_HOST_LINE, URL_HOST_DEFAULT, URL_HOST_NONE, CHAR_LF,
} from '../../core/constants.js';
import { readLogChunk, logUrlLines, unescapeLogField } from '../core-node.js';
import { DEFAULT_JSON_FIELDS, LOG_FIELD_NAMES, type LogFieldNames } from '../../core/log-fields.js';
import { RobotsError } from '../../core/errors.js';
import { originOf, withoutDefaultPort, type UrlOrigin } from '../../core/url-model.js';

/** Which format a log line was in. */
export type LogFormat = 'common' | 'combined' | 'vhost_combined' | 'json' | 'cloudfront' | 'alb';

/** One request from an access log line (read, never written: an Apache/nginx line's fields are read from its bytes when first asked). */
export interface LogRequest {
  readonly format: LogFormat;
  /**
   * The host the request was sent to, without a port, when the line says: the vhost field, a JSON host key,
   * CloudFront's x-host-header (else cs(Host)), or the host of an absolute request target (ALB).
   */
  readonly host: string | null;
  /** The same as host (its first name, kept for existing callers). */
  readonly vhost: string | null;
  readonly client: string;
  /** The time as written in the line. */
  readonly time: string;
  /** The time in milliseconds since 1970 (UTC), or null when it cannot be read. */
  readonly timeMs: number | null;
  readonly method: string;
  /** The request target as sent: usually a path with query, sometimes an absolute URL. */
  readonly target: string;
  readonly status: number | null;
  readonly referer: string | null;
  readonly userAgent: string | null;
  /**
   * The X-Forwarded-For header when the line carries it (a JSON key, CloudFront's x-forwarded-for, or a
   * quoted field after the User-Agent of an Apache/nginx line), else null. See clientAddress.
   */
  readonly forwardedFor: string | null;
  /**
   * A JSON line's Web Bot Auth headers (Signature, Signature-Input, Signature-Agent, RFC 9421) and the host as
   * the request named it (`@authority`, its port kept), when the line carries a signature; else null or absent
   * (the Apache/nginx text formats, CloudFront and ALB record no such headers).
   */
  readonly signed?: LoggedSignature | null;
}

/** The signature headers a log line recorded, and the request's authority (host and port as sent). */
export interface LoggedSignature {
  readonly signature: string | null;
  readonly signatureInput: string | null;
  readonly signatureAgent: string | null;
  readonly authority: string | null;
}

/** Whose host a request's URL line names: its own (an absolute target), the line's host field, the default host (--host), or none. */
export type UrlHostSource = 'scheme' | 'line' | 'default' | 'none';
const URL_HOST_SOURCES: UrlHostSource[] = [];
URL_HOST_SOURCES[URL_HOST_SCHEME] = 'scheme';
URL_HOST_SOURCES[URL_HOST_LINE] = 'line';
URL_HOST_SOURCES[URL_HOST_DEFAULT] = 'default';
URL_HOST_SOURCES[URL_HOST_NONE] = 'none';

/**
 * A request read from a log line, with its URL line: the target with escapes undone, `http://<host>` in front
 * of a relative one when hosts were asked for (latin-1 bytes, no LF). Kept as offsets into the chunk's URL
 * lines (no object per line but this one).
 */
export class LogEntry {
  /**
   * @param lines the URL lines of the chunk (latin-1 bytes), this one at [urlStart, urlEnd), its target from targetStart
   * @param rawTarget for a request read from another format (JSON, CloudFront, ALB): its target as it is (line breaks kept)
   */
  constructor(
    readonly request: LogRequest,
    private readonly lines: Buffer,
    private readonly urlStart: number,
    private readonly targetStart: number,
    private readonly urlEnd: number,
    /** Whose host the URL line names. */
    readonly urlHost: UrlHostSource,
    private readonly rawTarget: Buffer | null,
  ) {}

  /** The URL line (a view). */
  get url(): Uint8Array {
    return this.lines.subarray(this.urlStart, this.urlEnd);
  }

  /** The request target as its verdict is asked: escapes undone, as in request.target (a view). */
  get target(): Uint8Array {
    return this.rawTarget ?? this.lines.subarray(this.targetStart, this.urlEnd);
  }

  /** Byte length of target. */
  get targetLength(): number {
    return this.rawTarget?.length ?? this.urlEnd - this.targetStart;
  }

  /** Copies target into `into` at `at` (no view made); returns the end. For bulk calls made of many requests. */
  copyTarget(into: Uint8Array, at: number): number {
    if (this.rawTarget !== null) return at + this.rawTarget.copy(into, at);
    return at + this.lines.copy(into, at, this.targetStart, this.urlEnd);
  }

  /**
   * The origin whose robots.txt answers the request: the URL model's reading of its URL line (null when it
   * names no host). For a relative target, of its `http://<host>/` alone: the authority ends there either
   * way, and the model reads each such prefix once. The one rule for audit, audit --fetch and fetch --log.
   */
  origin(): UrlOrigin | null {
    if (this.urlHost === 'none') return null;
    return originOfLogBytes(this.lines, this.urlStart, this.urlHost === 'scheme' || this.rawTarget !== null ? this.urlEnd : this.targetStart);
  }
}

/** What a chunk reader gives per line: a request, a W3C header line, an empty line, or null (no access log line). */
export type LogLine = LogEntry | 'header' | 'blank' | null;

/** How URL lines are made: with `http://<host>` in front of relative targets (the line's host, else defaultHost), or the target alone. */
export interface UrlLineOptions {
  withHost: boolean;
  defaultHost: string | null;
}
const WITH_LINE_HOSTS: UrlLineOptions = { withHost: true, defaultHost: null };

/** URL lines of a chunk of log lines (readUrlLines): no object per request. */
export interface LogTargets {
  /** LF-ended URL lines, one per log line with a request target. */
  urls: Uint8Array;
  /** The input line number of each URL line. */
  numbers: Uint32Array;
  /** Input lines read. */
  lines: number;
  /** Input lines that were not access log lines with a target, and the numbers of the first of them. */
  malformed: number;
  malformedLines: number[];
  /** The index of the first URL line that names no host, or -1. */
  firstRelative: number;
}

/** Keys of a JSON lines log (dotted paths reach nested objects: `httpRequest.requestUrl`). */
export { DEFAULT_JSON_FIELDS, LOG_FIELD_NAMES, type LogFieldNames } from '../../core/log-fields.js';

/** CloudFront's documented field order, used when a file has no `#Fields` line. */
const CLOUDFRONT_FIELDS = [
  'date', 'time', 'x-edge-location', 'sc-bytes', 'c-ip', 'cs-method', 'cs(Host)', 'cs-uri-stem', 'sc-status',
  'cs(Referer)', 'cs(User-Agent)', 'cs-uri-query', 'cs(Cookie)', 'x-edge-result-type', 'x-edge-request-id',
  'x-host-header', 'cs-protocol', 'cs-bytes', 'time-taken', 'x-forwarded-for', 'ssl-protocol', 'ssl-cipher',
  'x-edge-response-result-type', 'cs-protocol-version', 'fle-status', 'fle-encrypted-fields', 'c-port',
  'time-to-first-byte', 'x-edge-detailed-result-type', 'sc-content-type', 'sc-content-len', 'sc-range-start', 'sc-range-end',
];
/** W3C extended log directives: header lines, not requests. */
const W3C_DIRECTIVE = /^#(?:Version|Fields|Software|Date|Remark|Start-Date|End-Date):/;
const W3C_DATE_LINE = /^\d{4}-\d{2}-\d{2}\t\d{2}:\d{2}:\d{2}\t/;
/** ALB: the connection type, then an ISO 8601 time. */
const ALB_LINE = /^(?:http|https|h2|grpcs|ws|wss) \d{4}-\d{2}-\d{2}T/;
const MONTHS: Record<string, number> = { Jan: 0, Feb: 1, Mar: 2, Apr: 3, May: 4, Jun: 5, Jul: 6, Aug: 7, Sep: 8, Oct: 9, Nov: 10, Dec: 11 };
const APACHE_TIME = /^(\d{2})\/(\w{3})\/(\d{4}):(\d{2}):(\d{2}):(\d{2})(?:\s+([+-])(\d{2})(\d{2}))?$/;

/** The largest time a Date holds (8.64e15 ms either side of 1970): times past it are no times. */
const MAX_DATE_MS = 8.64e15;
const withinDateRange = (ms: number | null): number | null => (ms === null || !Number.isFinite(ms) || Math.abs(ms) > MAX_DATE_MS ? null : ms);

/**
 * Milliseconds since 1970 of a log time: Apache's `17/May/2015:10:05:03 +0000`, ISO 8601 (a zone-less one is
 * UTC), or a number of seconds (or milliseconds, from 10^11 on) since 1970. Null when it is none of them.
 */
export function logTimeMs(text: string | number): number | null {
  if (typeof text === 'number') return withinDateRange(Number.isFinite(text) ? (Math.abs(text) < 1e11 ? text * 1000 : text) : null);
  const apache = APACHE_TIME.exec(text);
  if (apache !== null) {
    const month = MONTHS[apache[2]];
    if (month === undefined) return null;
    const utc = Date.UTC(Number(apache[3]), month, Number(apache[1]), Number(apache[4]), Number(apache[5]), Number(apache[6]));
    const offset = apache[7] === undefined ? 0 : (apache[7] === '-' ? -1 : 1) * (Number(apache[8]) * 60 + Number(apache[9])) * 60_000;
    return withinDateRange(utc - offset);
  }
  if (/^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?)?(Z|[+-]\d{2}:?\d{2})?$/.test(text)) {
    const zoned = /(Z|[+-]\d{2}:?\d{2})$/.test(text) || text.length === 10 ? text : `${text}Z`;
    const ms = Date.parse(zoned.replace(' ', 'T'));
    return Number.isNaN(ms) ? null : ms;
  }
  if (/^\d{9,13}(\.\d+)?$/.test(text)) return logTimeMs(Number(text));
  return null;
}

const asBuffer = (bytes: Uint8Array): Buffer => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);

/** Text of one char per byte with the log's escapes undone by the core (a backslash quotes the next byte). */
function unescapedText(text: string): string {
  return asBuffer(unescapeLogField(Buffer.from(text, 'latin1'))).toString('latin1');
}

/** Bytes of what follows an Apache/nginx line's User-Agent read for its X-Forwarded-For. */
const MAX_AFTER_AGENT_BYTES = 4096;

/**
 * The request of an Apache/nginx line the core has read, its fields decoded to strings only when first asked
 * (an audit reads the User-Agent, time and target of most lines and the rest of few): the line is
 * bytes[lineStart, lineEnd), its LOG_* offsets (relative to lineStart) in record from index `at`, its target
 * its URL line's from targetStart to urlEnd. One per request line of audit and fetch --log.
 */
class ApacheRequest implements LogRequest {
  // each field once read (undefined: not yet)
  private hostText: string | null | undefined = undefined;
  private clientText: string | undefined = undefined;
  private timeText: string | undefined = undefined;
  private timeMsValue: number | null | undefined = undefined;
  private methodText: string | undefined = undefined;
  private targetText: string | undefined = undefined;
  private refererText: string | null | undefined = undefined;
  private userAgentText: string | null | undefined = undefined;
  private forwardedForText: string | null | undefined = undefined;

  constructor(
    private readonly bytes: Buffer,
    private readonly lineStart: number,
    private readonly lineEnd: number,
    private readonly record: Int32Array,
    private readonly at: number,
    private readonly lines: Buffer,
    private readonly targetStart: number,
    private readonly urlEnd: number,
  ) {}

  private offset(field: number): number {
    return this.record[this.at + (field >> 2)];
  }

  /** A field's text (one char per byte), with the log's escapes undone when asked and it has a backslash. */
  private text(start: number, end: number, unescape = false): string {
    const from = this.lineStart + this.offset(start);
    const to = this.lineStart + this.offset(end);
    const text = this.bytes.toString('latin1', from, to);
    return unescape && text.includes('\\') ? unescapedText(text) : text;
  }

  /** A field of the combined format, '-' read as null. */
  private combinedField(start: number, end: number): string | null {
    if (this.offset(LOG_REFERER_START) < 0) return null;
    const text = this.text(start, end, true);
    return text === '-' ? null : text;
  }

  get format(): LogFormat {
    return this.offset(LOG_VHOST_START) >= 0 ? 'vhost_combined' : this.offset(LOG_REFERER_START) >= 0 ? 'combined' : 'common';
  }

  get host(): string | null {
    if (this.hostText === undefined) this.hostText = this.offset(LOG_VHOST_START) >= 0 ? this.text(LOG_VHOST_START, LOG_VHOST_END) : null;
    return this.hostText;
  }

  get vhost(): string | null {
    return this.host;
  }

  get client(): string {
    return (this.clientText ??= this.text(LOG_CLIENT_START, LOG_CLIENT_END));
  }

  get time(): string {
    return (this.timeText ??= this.text(LOG_TIME_START, LOG_TIME_END));
  }

  get timeMs(): number | null {
    if (this.timeMsValue === undefined) this.timeMsValue = logTimeMs(this.time);
    return this.timeMsValue;
  }

  get method(): string {
    return (this.methodText ??= this.text(LOG_METHOD_START, LOG_METHOD_END, true));
  }

  get target(): string {
    return (this.targetText ??= this.lines.toString('latin1', this.targetStart, this.urlEnd));
  }

  get status(): number | null {
    const status = this.offset(LOG_STATUS);
    return status < 0 ? null : status;
  }

  get referer(): string | null {
    if (this.refererText === undefined) this.refererText = this.combinedField(LOG_REFERER_START, LOG_REFERER_END);
    return this.refererText;
  }

  get userAgent(): string | null {
    if (this.userAgentText === undefined) this.userAgentText = this.combinedField(LOG_AGENT_START, LOG_AGENT_END);
    return this.userAgentText;
  }

  get forwardedFor(): string | null {
    if (this.forwardedForText === undefined) {
      // what follows the User-Agent (nginx's $request_time, "$http_x_forwarded_for", ...)
      const afterAgent = this.offset(LOG_REFERER_START) >= 0 ? this.lineStart + this.offset(LOG_AGENT_END) + 1 : this.lineEnd;
      this.forwardedForText = afterAgent < this.lineEnd ? firstQuotedField(this.bytes.toString('latin1', afterAgent, Math.min(this.lineEnd, afterAgent + MAX_AFTER_AGENT_BYTES))) : null;
    }
    return this.forwardedForText;
  }
}

/** A request as a plain record of its fields (read once): what the one-line readers give. */
function plainRequest(request: LogRequest): LogRequest {
  const { format, host, vhost, client, time, timeMs, method, target, status, referer, userAgent, forwardedFor, signed } = request;
  return { format, host, vhost, client, time, timeMs, method, target, status, referer, userAgent, forwardedFor, ...(signed === undefined ? {} : { signed }) };
}

/**
 * The text of the first `"..."` field of text (unquoted fields such as nginx's $request_time before it are
 * skipped), or null ('-', empty or none).
 */
function firstQuotedField(text: string): string | null {
  const match = /^(?:[ \t]+[^ \t"]+)*[ \t]+"([^"]*)"/.exec(text);
  return match === null || match[1] === '-' || match[1] === '' ? null : match[1];
}

/**
 * The client address a request came from: the line's client field, or with `forwarded`, the last address of
 * its X-Forwarded-For (the one the proxy in front of the server saw; the addresses before it are whatever
 * the client wrote, so only the last one is trusted), else the client field. Per request.
 */
export function clientAddress(request: LogRequest, from: 'remote' | 'forwarded'): string | null {
  if (from === 'forwarded' && request.forwardedFor !== null) {
    const last = request.forwardedFor.split(',').at(-1)?.trim() ?? '';
    if (last !== '' && last !== 'unknown') return last;
  }
  return request.client === '' || request.client === '-' ? null : request.client;
}

/** `%XX` escapes undone (bytes, as latin1 chars); others left as they are. */
function percentDecoded(text: string): string {
  if (!text.includes('%')) return text;
  return text.replace(/%([0-9A-Fa-f]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

/**
 * The host of an absolute http(s) URL target as an HTTP client reads it (the URL model; without its port),
 * and the target without an explicit default port (the URL model's withoutDefaultPort).
 */
function absoluteTarget(target: string): { target: string; host: string | null } {
  const host = originOfLogText(target)?.host ?? null;
  return host === null ? { target, host: null } : { target: withoutDefaultPort(target), host };
}

/**
 * Space-separated fields, a `"..."` field taken whole with the log's escapes undone by the core (the one
 * rule: a backslash quotes the next byte); null when a quote is not closed. ALB lines.
 */
function quotedFields(line: string): string[] | null {
  const fields: string[] = [];
  let at = 0;
  while (at < line.length) {
    if (line[at] === ' ') {
      at++;
      continue;
    }
    if (line[at] === '"') {
      let end = at + 1;
      let escaped = false;
      while (end < line.length && line[end] !== '"') {
        if (line[end] === '\\') {
          escaped = true;
          end += 2;
        } else end++;
      }
      if (end >= line.length) return null;
      const text = line.slice(at + 1, end);
      fields.push(escaped ? unescapedText(text) : text);
      at = end + 1;
    } else {
      let end = line.indexOf(' ', at);
      if (end < 0) end = line.length;
      fields.push(line.slice(at, end));
      at = end;
    }
  }
  return fields;
}

const orNull = (text: string | undefined): string | null => (text === undefined || text === '-' || text === '' ? null : text);

/** A request line `METHOD target[ protocol]` split; null when it is not one. */
function requestLine(text: string): { method: string; target: string } | null {
  const parts = text.split(' ');
  if (parts.length < 2 || parts.length > 3 || parts[0] === '' || parts[1] === '') return null;
  return { method: parts[0], target: parts[1] };
}

/** An AWS Application Load Balancer line, or null. */
function albRequest(line: string): LogRequest | null {
  const fields = quotedFields(line);
  // type time elb client:port target:port 3 times elb_status target_status received sent "request" "user_agent" ...
  if (fields === null || fields.length < 14) return null;
  const request = requestLine(fields[12]);
  if (request === null || request.target === '-') return null;
  const { target, host } = absoluteTarget(request.target);
  const status = /^\d{3}$/.test(fields[8]) ? Number(fields[8]) : null;
  return {
    format: 'alb', host, vhost: host, client: fields[3].replace(/:\d+$/, ''), time: fields[1], timeMs: logTimeMs(fields[1]),
    method: request.method, target, status, referer: null, userAgent: orNull(fields[13]), forwardedFor: null,
  };
}

/** A value at a dotted path of a parsed JSON object (a key with dots is tried whole first). */
function jsonValue(object: Record<string, unknown>, path: string): unknown {
  if (path in object) return object[path];
  let value: unknown = object;
  for (const part of path.split('.')) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<string, unknown>)[part];
  }
  return value;
}

/** A JSON string's UTF-8 bytes as one char per byte (the form every reader here gives). */
const asBytes = (text: string): string => Buffer.from(text, 'utf8').toString('latin1');

/**
 * Reads access log lines of every format above. One per log file (a CloudFront `#Fields` line applies to the
 * lines after it); cheap to create.
 */
export class LogLineReader {
  /** The W3C field names of the last `#Fields` line (else CloudFront's documented order) and their indexes. */
  private w3cIndex = new Map<string, number>(CLOUDFRONT_FIELDS.map((name, index) => [name, index]));
  private readonly jsonFields: Record<keyof LogFieldNames, readonly string[]>;

  /** fields: JSON keys that replace the default ones (DEFAULT_JSON_FIELDS) for those fields. */
  constructor(options: { fields?: LogFieldNames } = {}) {
    const fields = { ...DEFAULT_JSON_FIELDS };
    for (const [name, key] of Object.entries(options.fields ?? {})) {
      if (!(name in DEFAULT_JSON_FIELDS)) throw new RobotsError('INVALID_ARGUMENT', `unknown log field '${name}' (one of ${LOG_FIELD_NAMES.join(', ')})`);
      if (typeof key !== 'string' || key === '') throw new RobotsError('INVALID_ARGUMENT', `log field ${name}: a JSON key is needed`);
      fields[name as keyof LogFieldNames] = [key];
    }
    this.jsonFields = fields;
  }

  /**
   * One line (a string of one char per byte): its request, 'header' for a W3C header line (`#Fields: ...`),
   * or null when it is no access log line (a line holding a line break is none). For a few lines: parseLogLine,
   * RobotsAudit.addLine; files are read by readChunk.
   */
  read(line: string): LogRequest | 'header' | null {
    const entry = this.readLine(line, WITH_LINE_HOSTS);
    return entry === 'blank' ? null : entry === null || entry === 'header' ? entry : plainRequest(entry.request);
  }

  /** One line with its URL line (see readChunk). */
  readLine(line: string, urls: UrlLineOptions): LogLine {
    if (line.includes('\n')) return null;
    const read = this.readChunk(Buffer.from(line, 'latin1'), urls);
    return read.length === 0 ? 'blank' : read[0];
  }

  /**
   * Every line of a chunk of log lines (LF-separated; a CR ending a line is not part of it), in order: its
   * request with its URL line, 'header', null (no access log line), or 'blank' (an empty line: nothing, not
   * malformed). The Apache/nginx lines are read by the core in one call per 64 KiB; only the other lines
   * become strings, and their URL lines are made by the core in one call. Called once per chunk by audit
   * and fetch --log.
   */
  readChunk(chunk: Uint8Array, urls: UrlLineOptions = WITH_LINE_HOSTS): LogLine[] {
    const results: LogLine[] = [];
    const fields = LOG_LINE_RECORD_SIZE >> 2;
    const defaultHost = urls.defaultHost === null ? null : Buffer.from(urls.defaultHost, 'latin1');
    // lines of other formats, whose URL lines the core makes afterwards (one call)
    const others: { index: number; text: string }[] = [];
    for (let from = 0; from < chunk.length;) {
      // pieces of about 64 KiB (whole lines): the records of a piece take at most 88 bytes a line
      let to = chunk.indexOf(CHAR_LF, Math.min(chunk.length, from + CHUNK_PIECE_BYTES));
      to = to < 0 ? chunk.length : to + 1;
      const piece = asBuffer(chunk.subarray(from, to));
      const read = readLogChunk(piece, 1, { records: true, withHost: urls.withHost, defaultHost, maxOther: 0 });
      const records = read.records as Int32Array;
      const lines = asBuffer(read.urls);
      for (let at = 0; at < records.length; at += fields) {
        const start = records[at + (LOG_LINE_START >> 2)];
        const end = records[at + (LOG_LINE_END >> 2)];
        if (records[at + (LOG_LINE_PARSED >> 2)] === 1) {
          const urlEnd = records[at + (LOG_LINE_URL_END >> 2)];
          const targetStart = records[at + (LOG_LINE_URL_TARGET >> 2)];
          const request = new ApacheRequest(piece, start, end, records, at, lines, targetStart, urlEnd);
          results.push(new LogEntry(request, lines, records[at + (LOG_LINE_URL_START >> 2)], targetStart, urlEnd, URL_HOST_SOURCES[records[at + (LOG_LINE_URL_HOST >> 2)]], null));
        } else if (start === end) {
          results.push('blank');
        } else {
          others.push({ index: results.length, text: piece.toString('latin1', start, end) });
          results.push(null); // (its entry, once read)
        }
      }
      from = to;
    }
    if (others.length > 0) {
      const read = this.readOthers(others.map(({ text }) => text), urls.withHost, defaultHost);
      others.forEach(({ index }, i) => { results[index] = read[i]; });
    }
    return results;
  }

  /**
   * The lines the core did not read as Apache/nginx (JSON, W3C header or line, ALB, or none), each read as
   * its format and their URL lines made by the core in one call: an entry, 'header' or null per line, in
   * order. Once per chunk that has such lines (readChunk, readUrlLines).
   */
  private readOthers(texts: readonly string[], withHost: boolean, defaultHost: Buffer | null): (LogEntry | 'header' | null)[] {
    const read = texts.map((text) => this.readOtherFormat(text));
    const requests = read.filter((request): request is LogRequest => request !== null && request !== 'header');
    if (requests.length === 0) return read as ('header' | null)[];
    const targets = requests.map((request) => Buffer.from(request.target, 'latin1'));
    const made = logUrlLines(requests.map((request, i) => ({ target: targets[i], host: request.host === null ? null : Buffer.from(request.host, 'latin1') })), { withHost, defaultHost });
    const lines = asBuffer(made.urls);
    let i = 0;
    return read.map((request) => {
      if (request === null || request === 'header') return request;
      const urlStart = i === 0 ? 0 : made.ends[i - 1] + 1;
      const entry = new LogEntry(request, lines, urlStart, urlStart, made.ends[i], URL_HOST_SOURCES[made.hosts[i]], targets[i]);
      i++;
      return entry;
    });
  }

  /**
   * The URL lines of a chunk of log lines (the command line's bulk path: check --log and diff --log), with no
   * object per Apache/nginx request: those lines are read by the core in one call; the lines it does not know
   * are read as readChunk reads them (readOthers), and both are merged in input order. The first line is
   * number firstLineNumber; the numbers of the first maxMalformed lines that are no requests are kept.
   * Header lines and empty lines are neither URLs nor malformed. Once per chunk.
   */
  readUrlLines(chunk: Uint8Array, options: UrlLineOptions & { firstLineNumber: number; maxMalformed: number }): LogTargets {
    const { firstLineNumber, withHost } = options;
    const defaultHost = options.defaultHost === null ? null : Buffer.from(options.defaultHost, 'latin1');
    // the core lists the lines it cannot read; a chunk with more of them (a JSON, CloudFront or ALB log) is
    // read again with room for every line's number, which the first pass counted
    const coreOptions = { records: false, withHost, defaultHost };
    let fast = readLogChunk(chunk, firstLineNumber, { ...coreOptions, maxOther: OTHER_FORMAT_LINES });
    if (fast.other === 0) return { urls: fast.urls, numbers: fast.numbers, lines: fast.lines, malformed: 0, malformedLines: [], firstRelative: fast.firstRelative };
    if (fast.other > OTHER_FORMAT_LINES) fast = readLogChunk(chunk, firstLineNumber, { ...coreOptions, maxOther: fast.lines });
    // the lines the core could not read: where each starts and ends in the chunk (one pass)
    const numbers: number[] = [];
    const texts: string[] = [];
    let line = firstLineNumber;
    let start = 0;
    const wanted = fast.otherLines;
    while (numbers.length < wanted.length && start <= chunk.length) {
      let end = chunk.indexOf(CHAR_LF, start);
      if (end < 0) end = chunk.length;
      if (line === wanted[numbers.length]) {
        const stop = end > start && chunk[end - 1] === 0x0d ? end - 1 : end;
        numbers.push(line);
        texts.push(asBuffer(chunk).toString('latin1', start, stop));
      }
      line++;
      start = end + 1;
    }
    const read: { number: number; entry: LogEntry }[] = [];
    const malformedLines: number[] = [];
    let malformed = 0;
    this.readOthers(texts, withHost, defaultHost).forEach((entry, i) => {
      if (entry === 'header') return;
      if (entry === null || entry.targetLength === 0) {
        if (malformedLines.length < options.maxMalformed) malformedLines.push(numbers[i]);
        malformed++;
        return;
      }
      read.push({ number: numbers[i], entry });
    });
    if (read.length === 0) return { urls: fast.urls, numbers: fast.numbers, lines: fast.lines, malformed, malformedLines, firstRelative: fast.firstRelative };
    // merge the URL lines of both kinds by line number (each kind is in input order)
    const parts: Uint8Array[] = [];
    const merged: number[] = [];
    let firstRelative = -1;
    let fastAt = 0;
    let fastIndex = 0;
    let otherIndex = 0;
    while (fastIndex < fast.numbers.length || otherIndex < read.length) {
      const takeOther = fastIndex >= fast.numbers.length || (otherIndex < read.length && read[otherIndex].number < fast.numbers[fastIndex]);
      if (takeOther) {
        const { number, entry } = read[otherIndex++];
        parts.push(entry.url, LF);
        merged.push(number);
        if (firstRelative < 0 && entry.urlHost === 'none') firstRelative = merged.length - 1;
      } else {
        const end = fast.urls.indexOf(CHAR_LF, fastAt);
        parts.push(fast.urls.subarray(fastAt, end + 1));
        merged.push(fast.numbers[fastIndex]);
        if (firstRelative < 0 && fastIndex === fast.firstRelative) firstRelative = merged.length - 1;
        fastAt = end + 1;
        fastIndex++;
      }
    }
    return { urls: Buffer.concat(parts), numbers: Uint32Array.from(merged), lines: fast.lines, malformed, malformedLines, firstRelative };
  }

  /** A line the core did not read as Apache/nginx: JSON, a W3C header or line, ALB, or null. */
  private readOtherFormat(line: string): LogRequest | 'header' | null {
    const first = line.charCodeAt(0);
    if (first === 0x7b /* { */) return this.json(line);
    if (first === 0x23 /* # */) {
      if (!W3C_DIRECTIVE.test(line)) return null;
      if (line.startsWith('#Fields:')) this.setW3cFields(line.slice('#Fields:'.length).trim().split(/\s+/));
      return 'header';
    }
    if (W3C_DATE_LINE.test(line)) return this.w3c(line);
    if (ALB_LINE.test(line)) return albRequest(line);
    return null;
  }

  /** The field names of a `#Fields` line, each with its index (first one wins): a look-up per field costs one probe, whatever the header's length. */
  private setW3cFields(names: readonly string[]): void {
    this.w3cIndex = new Map();
    names.forEach((name, index) => { if (!this.w3cIndex.has(name)) this.w3cIndex.set(name, index); });
  }

  /** A CloudFront (W3C, tab-separated) line, read with the current field names. */
  private w3c(line: string): LogRequest | null {
    const values = line.replace(/\r$/, '').split('\t');
    const get = (name: string): string | undefined => {
      const index = this.w3cIndex.get(name);
      return index === undefined ? undefined : values[index];
    };
    const stem = get('cs-uri-stem');
    if (stem === undefined || stem === '' || stem === '-') return null;
    const query = orNull(get('cs-uri-query'));
    const date = get('date') ?? '';
    const time = `${date} ${get('time') ?? ''}`.trim();
    const host = orNull(get('x-host-header')) ?? orNull(get('cs(Host)'));
    const agent = orNull(get('cs(User-Agent)'));
    // CloudFront writes the User-Agent URL-encoded, sometimes twice (%2520 for a space)
    const decodedAgent = agent === null ? null : percentDecoded(agent.includes('%25') ? percentDecoded(agent) : agent);
    const status = get('sc-status');
    return {
      format: 'cloudfront', host, vhost: host, client: get('c-ip') ?? '', time, timeMs: logTimeMs(time.replace(' ', 'T')),
      method: get('cs-method') ?? '', target: query === null ? stem : `${stem}?${query}`,
      status: status !== undefined && /^\d{3}$/.test(status) ? Number(status) : null,
      referer: orNull(get('cs(Referer)')), userAgent: decodedAgent, forwardedFor: orNull(get('x-forwarded-for')),
    };
  }

  /** A JSON lines record, or null when the line is not a JSON object with a target. */
  private json(line: string): LogRequest | null {
    let object: unknown;
    try {
      object = JSON.parse(Buffer.from(line, 'latin1').toString('utf8'));
    } catch {
      return null;
    }
    if (object === null || typeof object !== 'object' || Array.isArray(object)) return null;
    const record = object as Record<string, unknown>;
    const get = (name: keyof LogFieldNames): unknown => {
      for (const key of this.jsonFields[name]) {
        const value = jsonValue(record, key);
        if (value !== undefined && value !== null && value !== '' && value !== '-') return value;
      }
      return undefined;
    };
    const text = (name: keyof LogFieldNames): string | null => {
      const value = get(name);
      return typeof value === 'string' ? asBytes(value) : typeof value === 'number' ? String(value) : null;
    };
    let target = text('target');
    if (target === null) return null;
    let method = text('method') ?? '';
    if (target.includes(' ')) {
      // a request line ("GET /path HTTP/1.1")
      const request = requestLine(target);
      if (request === null) return null;
      target = request.target;
      if (method === '') method = request.method;
    }
    const query = text('query');
    if (query !== null && !target.includes('?')) target = `${target}?${query.replace(/^\?/, '')}`;
    const absolute = absoluteTarget(target);
    const hostText = text('host');
    const host = hostText?.replace(/:\d+$/, '') ?? absolute.host;
    const rawTime = get('time');
    const time = typeof rawTime === 'string' || typeof rawTime === 'number' ? String(rawTime) : '';
    const status = Number(get('status'));
    const signature = text('signature');
    const signatureInput = text('signatureInput');
    return {
      format: 'json', host, vhost: host, client: text('client') ?? '', time,
      timeMs: typeof rawTime === 'number' ? logTimeMs(rawTime) : logTimeMs(time),
      method, target: absolute.target, status: Number.isInteger(status) && status >= 100 && status <= 999 ? status : null,
      referer: text('referer'), userAgent: text('userAgent'), forwardedFor: text('forwardedFor'),
      // only a signed line carries the record (an unsigned one stays as it was read before)
      ...(signature === null && signatureInput === null ? {} : { signed: { signature, signatureInput, signatureAgent: text('signatureAgent'), authority: hostText ?? absolute.host } }),
    };
  }
}

/** Parses one log line (a string of one char per byte) of any format above; null when it is no access log line with a request target. For a few lines; a file is read with one LogLineReader. */
export function parseLogLine(line: string): LogRequest | null {
  const request = new LogLineReader().read(line);
  return request === 'header' ? null : request;
}

/** Bytes of a chunk read by one call of the core's parseLogRecords (about 300 lines of a typical log). */
const CHUNK_PIECE_BYTES = 64 << 10;

/** Lines of other formats listed by the core's first pass over a chunk (Apache logs have none or a few). */
const OTHER_FORMAT_LINES = 4096;

const LF = Uint8Array.of(CHAR_LF);

/** The origin of a URL in a log's text (one char per byte, as logs carry bytes: UTF-8 decoded first, as a client reads it). Per JSON or ALB target. */
function originOfLogText(text: string): UrlOrigin | null {
  return /[\x80-\xff]/.test(text) ? originOf(Buffer.from(text, 'latin1')) : originOf(text);
}

/**
 * The origin of a URL line, bytes[start, end) (UTF-8 decoded by the URL model, as a client reads it). Most
 * lines of a log name the host of the line before (or the same default host): that prefix's origin again,
 * with no string made. Per request.
 */
function originOfLogBytes(bytes: Uint8Array, start: number, end: number): UrlOrigin | null {
  const last = lastOrigin.bytes;
  const length = end - start;
  if (length === last.length) {
    let at = 0;
    while (at < length && bytes[start + at] === last[at]) at++;
    if (at === length) return lastOrigin.origin;
  }
  const url = bytes.slice(start, end);
  const origin = originOf(url);
  lastOrigin.bytes = url;
  lastOrigin.origin = origin;
  return origin;
}
const lastOrigin: { bytes: Uint8Array; origin: UrlOrigin | null } = { bytes: new Uint8Array(0), origin: null };

/**
 * The error of a log line whose robots.txt cannot be known (no host field, no default host): audit and check --log
 * stop with it rather than answer such lines by a guess. `where` is `file:line` or `line N`.
 */
export function hostUnknownError(where: string, format: string | null): RobotsError {
  return RobotsError.about('HOST_UNKNOWN', { name: 'defaultHost' }, (option) => `${where}: the line names no host (a ${format ?? 'log'} line without a host field), so its robots.txt is unknown: give ${option}, or use a log whose lines carry the host (vhost_combined, CloudFront, ALB, or JSON with a host key)`);
}

