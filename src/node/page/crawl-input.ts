// What crawls produce, read page by page for robotstxt pages: JSON lines ({"url", "headers", "html"}, or
// without html) and WARC files (read with warcio, Webrecorder's reader; Common Crawl and Webrecorder write
// them; .warc.gz with a gzip member per record too). Every record is given back: a page, a record that is not
// a page (a request, metadata, a dns: response: said by its type) or one that could not be read (said with
// its number and why). Memory: one record's head (headers and the first headBytes of its body) at a time.
import { createReadStream } from 'node:fs';
import { LineReader, CHUNK_BYTES } from '../logs/index.js';
import { originOf } from '../../core/url-model.js';
import { RobotsError } from '../../core/errors.js';
import { fileError } from '../robots-file.js';
import { DEFAULT_HEAD_BYTES } from './html-head.js';
import type { WarcRecordRead } from '../warc/index.js';

/** A page of a crawl: its URL, response headers (repeats kept), HTML (the first bytes read, or null) and status. */
export interface CrawledPage {
  kind: 'page';
  /** Where it is in its input: the line number of JSON lines, the record number of a WARC file (1-based). */
  input: number;
  url: string;
  headers: [string, string][];
  html: string | Uint8Array | null;
  status: number | null;
}

/** A record that could not be read as a page: its number and why (said, counted, never judged). */
export interface UnreadRecord {
  kind: 'unread';
  /** Its line or record number; null for a damaged stretch of a WARC file (its offsets are in the error). */
  input: number | null;
  url: string | null;
  error: string;
}

/** A WARC record that is no page (warcinfo, request, metadata, ...; a response that is no HTTP): its type. */
export interface SkippedRecord {
  kind: 'skipped';
  input: number;
  type: string;
}

/** One record of a crawl input. */
export type CrawlRecord = CrawledPage | UnreadRecord | SkippedRecord;

/** The input forms robotstxt pages reads. */
export type CrawlFormat = 'jsonl' | 'warc';

/** The form of an input: as stated, or by its name (.warc, .warc.gz) and else JSON lines. Per input. */
export function crawlFormatOf(path: string | undefined, stated: CrawlFormat | 'auto'): CrawlFormat {
  if (stated !== 'auto') return stated;
  return path !== undefined && /\.warc(\.gz)?$/i.test(path) ? 'warc' : 'jsonl';
}

/** Reads a crawl input (a file, or standard input for undefined or `-`) record by record. Once per input. */
export function readCrawl(path: string | undefined, format: CrawlFormat, headBytes = DEFAULT_HEAD_BYTES): AsyncGenerator<CrawlRecord> {
  return format === 'warc' ? warcRecords(path, headBytes) : jsonLines(path);
}

const utf8 = new TextDecoder('utf-8');
const CHAR_LF = 0x0a;

/** The records of JSON lines: one object per line; blank lines are no records. */
async function* jsonLines(path: string | undefined): AsyncGenerator<CrawlRecord> {
  const reader = await LineReader.open(path, 'crawl export');
  const buffer = new Uint8Array(CHUNK_BYTES);
  let lineNumber = 0;
  try {
    for (let chunk = await reader.next(buffer); chunk !== null; chunk = await reader.next(buffer)) {
      let start = 0;
      while (start < chunk.length) {
        let end = chunk.indexOf(CHAR_LF, start);
        if (end < 0) end = chunk.length;
        lineNumber++;
        const text = utf8.decode(chunk.subarray(start, end)).trim();
        start = end + 1;
        if (text === '') continue;
        yield pageOfJson(text, lineNumber);
      }
    }
  } finally {
    await reader.close();
  }
}

/** One JSON line as a page, or why it is none. */
function pageOfJson(text: string, input: number): CrawlRecord {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { kind: 'unread', input, url: null, error: `line ${input} is no JSON (${(error as Error).message})` };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { kind: 'unread', input, url: null, error: `line ${input} is no JSON object` };
  const record = value as Record<string, unknown>;
  const url = record.url;
  if (typeof url !== 'string') return { kind: 'unread', input, url: null, error: `line ${input} has no "url" string` };
  if (originOf(url) === null) return { kind: 'unread', input, url, error: /^\s*https?:\/\//i.test(url) ? `line ${input}: "url" has a host no URL parser takes` : `line ${input}: "url" is no http:// or https:// URL` };
  const headers = headersOfJson(record.headers);
  if (typeof headers === 'string') return { kind: 'unread', input, url, error: `line ${input}: ${headers}` };
  const html = record.html ?? null;
  if (html !== null && typeof html !== 'string') return { kind: 'unread', input, url, error: `line ${input}: "html" is no string` };
  const status = record.status ?? null;
  if (status !== null && !(Number.isInteger(status) && (status as number) >= 100 && (status as number) <= 999)) return { kind: 'unread', input, url, error: `line ${input}: "status" is no HTTP status` };
  return { kind: 'page', input, url, headers, html, status: status as number | null };
}

/** "headers" as pairs: an object (a value or a list per name), a list of [name, value] pairs or of {name, value}; or why not. */
function headersOfJson(value: unknown): [string, string][] | string {
  if (value === undefined || value === null) return [];
  const pairs: [string, string][] = [];
  if (Array.isArray(value)) {
    for (const item of value) {
      const pair = Array.isArray(item) ? item : typeof item === 'object' && item !== null ? [(item as Record<string, unknown>).name, (item as Record<string, unknown>).value] : null;
      if (pair === null || pair.length !== 2 || typeof pair[0] !== 'string' || typeof pair[1] !== 'string') return '"headers" holds an item that is no [name, value] pair nor {"name", "value"} of strings';
      pairs.push([pair[0], pair[1]]);
    }
    return pairs;
  }
  if (typeof value !== 'object') return '"headers" is no object nor list';
  for (const [name, one] of Object.entries(value as Record<string, unknown>)) {
    const values = Array.isArray(one) ? one : [one];
    for (const item of values) {
      if (typeof item !== 'string') return `header "${name}" has a value that is no string`;
      pairs.push([name, item]);
    }
  }
  return pairs;
}

/** The types of WARC records that hold a page: a response (HTTP), a revisit (its headers), a resource (a page without HTTP). */
const PAGE_TYPES = new Set(['response', 'revisit', 'resource']);

/** A content type whose body is read for meta tags (none stated: read, as a browser sniffs). */
function isHtml(contentType: string | null | undefined): boolean {
  return contentType === null || contentType === undefined || contentType === '' || /html/i.test(contentType);
}

/** Bytes read from a WARC file at a time. */
const WARC_READ_BYTES = 1 << 20;

/**
 * The records of a WARC file, read by src/node/warc/ (bounded: a record's header, its kept bytes; a damaged
 * gzip member, a wrong Content-Length, bytes that are no record are said with their offsets, and reading
 * goes on). Every record comes back as a page, a record that is no page, or unread with why.
 */
async function* warcRecords(path: string | undefined, headBytes: number): AsyncGenerator<CrawlRecord> {
  const { readWarc } = await import('../warc/index.js');
  const name = path ?? '-';
  const stream = path === undefined || path === '-' ? process.stdin : createReadStream(path, { highWaterMark: WARC_READ_BYTES });
  const opened = new Promise<void>((resolve, reject) => {
    if (stream === process.stdin) resolve();
    else stream.once('open', () => resolve()).once('error', reject);
  });
  try {
    await opened;
  } catch (error) {
    throw fileError(name, 'WARC file', error);
  }
  try {
    // one byte more than read: htmlMetas then says the page was cut
    for await (const item of readWarc(stream as AsyncIterable<Uint8Array>, { payloadBytes: headBytes + 1 })) {
      if (item.kind === 'record') yield warcPage(item.record, name);
      else if (item.kind === 'unread') {
        yield { kind: 'unread', input: item.number, url: item.targetUri, error: `WARC record ${item.number} of '${name}' (${item.targetUri ?? item.type ?? `at byte ${item.offset}`}) cannot be read (${item.reason})` };
      } else {
        yield { kind: 'unread', input: null, url: null, error: `'${name}' is damaged from byte ${item.from}${item.to === null ? ' to its end' : ` to byte ${item.to}`} (${item.reason}): any record there is not read` };
      }
    }
  } catch (error) {
    if (error instanceof RobotsError) throw error;
    throw new RobotsError('FILE_UNREADABLE', `cannot read WARC file '${name}': ${(error as Error).message}`);
  } finally {
    if (stream !== process.stdin) stream.destroy();
  }
}

/** A WARC record as a page, or why it is none. */
function warcPage(record: WarcRecordRead, name: string): CrawlRecord {
  const input = record.number;
  const type = record.type ?? '(no WARC-Type)';
  const url = record.targetUri;
  if (!PAGE_TYPES.has(type)) return { kind: 'skipped', input, type };
  if (url === null) return { kind: 'unread', input, url: null, error: `WARC record ${input} of '${name}' (${type}) has no WARC-Target-URI` };
  if (originOf(url) === null) return { kind: 'skipped', input, type: `${type} of no http(s) URL` };
  const http = record.http;
  if (type !== 'resource' && http === null) return { kind: 'skipped', input, type: `${type} without HTTP headers` };
  const headers: [string, string][] = http === null ? [] : http.headers;
  const contentType = http === null ? record.contentType : headers.find(([header]) => header.toLowerCase() === 'content-type')?.[1];
  const html = type !== 'revisit' && isHtml(contentType) ? record.payload : null;
  return { kind: 'page', input, url, headers, html, status: http?.status ?? null };
}
