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
import type { WARCRecord } from 'warcio';

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
  input: number;
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

/** The records of a WARC file. A file warcio cannot read on is said once, at the record where it stopped. */
async function* warcRecords(path: string | undefined, headBytes: number): AsyncGenerator<CrawlRecord> {
  const { WARCParser } = await import('warcio');
  const name = path ?? '-';
  const stream = path === undefined || path === '-' ? process.stdin : createReadStream(path);
  const opened = new Promise<void>((resolve, reject) => {
    if (stream === process.stdin) resolve();
    else stream.once('open', () => resolve()).once('error', reject);
  });
  try {
    await opened;
  } catch (error) {
    throw fileError(name, 'WARC file', error);
  }
  let input = 0;
  const parser = new WARCParser(endingSource(stream), { keepHeadersCase: true });
  // each record is given once the next one is parsed: warcio gives a record whose headers the file cut as a
  // record of what it had, and only the next parse finds the end, so the record is said to be cut, not judged
  let held: { read: CrawlRecord; label: string; cut: boolean } | null = null;
  const cutShort = (record: { read: CrawlRecord; label: string }): CrawlRecord => ({ kind: 'unread', input: record.read.input, url: record.read.kind === 'skipped' ? null : record.read.url, error: `WARC record ${record.read.input} of '${name}' (${record.label}) cannot be read (${new CutShort().message})` });
  try {
    while (true) {
      let record;
      try {
        record = await parser.parse();
      } catch (error) {
        if (error instanceof CutShort && held !== null) {
          yield held.cut ? held.read : cutShort(held);
          return;
        }
        if (held !== null) yield held.read;
        yield { kind: 'unread', input: input + 1, url: null, error: `WARC record ${input + 1} of '${name}' cannot be read (${(error as Error).message}): the rest of the file is not read` };
        return;
      }
      if (held !== null) yield held.read;
      held = null;
      if (record === null) return;
      input++;
      const label = record.warcTargetURI ?? record.warcType;
      try {
        const read = await warcPage(record, input, name, headBytes);
        // the rest of the record is read through now: a body the file cuts short is this record's error
        await record.skipFully();
        held = { read, label, cut: false };
      } catch (error) {
        const cut = error instanceof CutShort;
        held = { read: cut ? cutShort({ read: { kind: 'skipped', input, type: '' }, label }) : { kind: 'unread', input, url: record.warcTargetURI ?? null, error: `WARC record ${input} of '${name}' (${label}) cannot be read (${(error as Error).message})` }, label, cut };
      }
    }
  } catch (error) {
    if (error instanceof RobotsError) throw error;
    throw new RobotsError('FILE_UNREADABLE', `cannot read WARC file '${name}': ${(error as Error).message}`);
  } finally {
    if (stream !== process.stdin) stream.destroy();
  }
}

/** A WARC record as a page, or why it is none; its body's head read (the rest left). */
async function warcPage(record: WARCRecord, input: number, name: string, headBytes: number): Promise<CrawlRecord> {
  const type = record.warcType;
  const url = record.warcTargetURI ?? null;
  if (!PAGE_TYPES.has(type)) return { kind: 'skipped', input, type };
  if (url === null) return { kind: 'unread', input, url: null, error: `WARC record ${input} of '${name}' (${type}) has no WARC-Target-URI` };
  if (originOf(url) === null) return { kind: 'skipped', input, type: `${type} of no http(s) URL` };
  const http = record.httpHeaders;
  if (type !== 'resource' && http === null) return { kind: 'skipped', input, type: `${type} without HTTP headers` };
  const headers: [string, string][] = [];
  if (http !== null) for (const [header, value] of http.headers as Iterable<[string, string]>) headers.push([header, value]);
  const contentType = http === null ? record.warcContentType : headers.find(([header]) => header.toLowerCase() === 'content-type')?.[1];
  // one byte more than read: htmlMetas then says the page was cut
  const html = type !== 'revisit' && isHtml(contentType) ? await headOf(record.contentReader, headBytes + 1) : null;
  const status = http === null ? null : Number(http.statusCode);
  return { kind: 'page', input, url, headers, html, status: Number.isInteger(status) ? status : null };
}

/** The error of a WARC file that ends inside a record. */
class CutShort extends Error {
  constructor() {
    super('the file ends inside it: cut short?');
  }
}

/** Reads after the end of the input that mean warcio is waiting inside a record the file cut short. */
const READS_AFTER_END = 3;

/**
 * The file's chunks for warcio, ending in an error when it keeps reading past the end: warcio 2.4 asks an
 * ended source again and again when a file ends inside a record (a truncated download) and never returns.
 */
function endingSource(stream: AsyncIterable<Uint8Array>): AsyncIterable<Uint8Array> {
  return {
    [Symbol.asyncIterator](): AsyncIterator<Uint8Array> {
      const chunks = stream[Symbol.asyncIterator]();
      let ended = false;
      let readsAfterEnd = 0;
      return {
        async next(): Promise<IteratorResult<Uint8Array>> {
          if (ended) {
            if (++readsAfterEnd > READS_AFTER_END) throw new CutShort();
            return { done: true, value: undefined };
          }
          const next = await chunks.next();
          if (next.done === true) ended = true;
          return next;
        },
      };
    },
  };
}

/** The first `limit` bytes of a body (the rest is left to the parser, which skips it). */
async function headOf(body: AsyncIterable<Uint8Array> | Iterable<Uint8Array>, limit: number): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  let length = 0;
  for await (const chunk of body) {
    chunks.push(chunk.subarray(0, limit - length));
    length += Math.min(chunk.length, limit - length);
    if (length >= limit) break;
  }
  const head = new Uint8Array(length);
  let at = 0;
  for (const chunk of chunks) {
    head.set(chunk, at);
    at += chunk.length;
  }
  return head;
}
