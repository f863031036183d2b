// robotstxt check: one verdict line per input URL line, streamed, in order, none dropped.
import { readFileSync, statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { CHAR_LF, OUTPUT_ALL, OUTPUT_ONLY_ALLOWED, OUTPUT_ONLY_DISALLOWED } from '../constants.js';
import { parseLogLine } from '../log.js';
import { parseCommandArgs, usageError, loadRobots, modeOption, maxBytesOption } from './common.js';
import { LineReader, CHUNK_BYTES, writeAll, chunkLines } from './lines.js';
import { RobotsDirectory, type MissingPolicy } from './robots-dir.js';
import type { RobotsMatcher } from '../matcher.js';

export const CHECK_HELP = `Usage: robotstxt check (--robots <file> | --robots-dir <dir>) --agent <token> [--agent <token>]...
                       [--mode google|rfc] [--max-bytes N] [--missing allow|disallow] [--threads N]
                       [<urls-file> | -]

Reads one URL per line (LF or CRLF) from <urls-file> or standard input and writes exactly one line
per input line, in order:
  allowed<TAB><url>      or      disallowed<TAB><url>
Empty and malformed lines are answered as the reference answers them (an empty URL is the path "/").

Options:
  --robots <file>         the robots.txt to apply to every URL
  --robots-dir <dir>      per URL, <dir>/<host>.txt (host lower-cased; <host>:<port>.txt first when the
                          URL names a port)
  --missing allow|disallow  verdict for URLs whose host has no file in --robots-dir, and for relative
                          URLs there (default allow, as for a missing robots.txt)
  --agent <token>         product token to check, e.g. Googlebot; repeat to pool several groups
  --mode google|rfc       google (default): the reference's verdicts; rfc: RFC 9309
  --max-bytes N           read at most N bytes of each robots file (default 512000, 0 = all)
  --cache-mb N            memory for compiled robots files with --robots-dir (default 64; least recently
                          used hosts are dropped and compiled again when met again)
  --only allowed|disallowed  print just the URLs with that verdict, one per line (a filter, like grep)
  --format text|jsonl     text (default): verdict<TAB>url; jsonl: one JSON object per URL with the deciding
                          rule: {"input":N,"url":...,"verdict":...,"rule":{"kind","line","pattern"}|null}
  --log                   input lines are access log lines (common, combined, vhost_combined); the request
                          target is the URL. Lines that are not log lines are reported on stderr with their
                          line numbers and skipped. With --robots-dir the host is the vhost field, or --host.
  --host <name>           the host of --log requests without a vhost field (for --robots-dir)
  --stats                 at the end, one line on stderr: lines, seconds, URLs/s, peak memory
  --threads N             threads matching URLs with --robots (default: available cores): this one and
                          N - 1 workers; 1 = no workers. Output order is kept. Inputs of one chunk
                          (1 MiB) or less never start workers.

Examples:
  robotstxt check --robots robots.txt --agent Googlebot urls.txt
  zcat urls.gz | robotstxt check --robots robots.txt --agent Googlebot-Image --agent Googlebot -
  robotstxt check --robots-dir ./robots --agent Bingbot --missing disallow urls.txt
  robotstxt check --robots robots.txt --agent Googlebot --only disallowed urls.txt > blocked.txt
  robotstxt check --robots robots.txt --agent Googlebot --log --format jsonl access.log`;

const OPTIONS = {
  robots: { type: 'string' },
  'robots-dir': { type: 'string' },
  agent: { type: 'string', multiple: true },
  mode: { type: 'string' },
  'max-bytes': { type: 'string' },
  missing: { type: 'string' },
  threads: { type: 'string' },
  'cache-mb': { type: 'string' },
  stats: { type: 'boolean' },
  only: { type: 'string' },
  format: { type: 'string' },
  log: { type: 'boolean' },
  host: { type: 'string' },
} as const;

export async function runCheck(args: string[], stdout: NodeJS.WritableStream, stderr: (text: string) => void): Promise<number> {
  const { values, positionals } = parseCommandArgs(args, OPTIONS, 'check');
  const agents = (values.agent as string[] | undefined) ?? [];
  if (agents.length === 0) throw usageError('check needs at least one --agent <token> (see robotstxt check --help)');
  const robotsFile = values.robots as string | undefined;
  const robotsDir = values['robots-dir'] as string | undefined;
  if ((robotsFile === undefined) === (robotsDir === undefined)) throw usageError('check needs exactly one of --robots <file> or --robots-dir <dir>');
  if (positionals.length > 1) throw usageError(`check takes at most one <urls-file>, got ${positionals.length}`);
  const mode = modeOption(values.mode);
  const maxBytes = maxBytesOption(values['max-bytes']);
  const missing = values.missing ?? 'allow';
  if (missing !== 'allow' && missing !== 'disallow') throw usageError(`--missing must be allow or disallow, got '${String(missing)}'`);
  if (robotsDir === undefined && values.missing !== undefined) throw usageError('--missing applies only with --robots-dir');
  if (robotsDir === undefined && values['cache-mb'] !== undefined) throw usageError('--cache-mb applies only with --robots-dir');
  const cacheText = String(values['cache-mb'] ?? '64');
  if (!/^\d+$/.test(cacheText) || Number(cacheText) < 1) throw usageError(`--cache-mb must be a whole number >= 1, got '${cacheText}'`);
  if (robotsDir !== undefined) {
    let isDirectory = false;
    try { isDirectory = statSync(robotsDir).isDirectory(); } catch { isDirectory = false; }
    if (!isDirectory) throw usageError(`--robots-dir '${robotsDir}' is not a readable directory`);
  }

  const threads = threadsOption(values.threads);
  const only = values.only;
  if (only !== undefined && only !== 'allowed' && only !== 'disallowed') throw usageError(`--only must be allowed or disallowed, got '${String(only)}'`);
  const filter = only === 'allowed' ? OUTPUT_ONLY_ALLOWED : only === 'disallowed' ? OUTPUT_ONLY_DISALLOWED : OUTPUT_ALL;
  const format = values.format ?? 'text';
  if (format !== 'text' && format !== 'jsonl') throw usageError(`--format must be text or jsonl, got '${String(format)}'`);
  const fromLog = values.log === true;
  if (values.host !== undefined && !fromLog) throw usageError('--host applies only with --log');

  const matcher: RobotsMatcher | null = robotsFile !== undefined ? loadRobots(robotsFile, mode, maxBytes).matcher(agents) : null;
  const directory = robotsDir !== undefined ? new RobotsDirectory(robotsDir, agents, mode, maxBytes, missing as MissingPolicy, Number(cacheText) << 20) : null;
  const started = performance.now();
  const reader = await LineReader.open(positionals[0], 'URL file');
  const output = stdout as NodeJS.WritableStream & import('node:stream').Writable;
  let lines = 0;
  if (format === 'jsonl' || fromLog) {
    const resolve = (url: Uint8Array): RobotsMatcher => (matcher !== null ? matcher : (directory as RobotsDirectory).matcherFor(url));
    lines = await checkLinesOneByOne(reader, resolve, { filter, jsonl: format === 'jsonl', fromLog, host: values.host as string | undefined, needsHost: directory !== null }, output, stderr);
  } else if (matcher !== null) {
    lines = await checkWithMatcher(matcher, reader, threads, output, stderr, filter);
  } else {
    const buffer = new Uint8Array(CHUNK_BYTES);
    for (let chunk = await reader.next(buffer); chunk !== null; chunk = await reader.next(buffer)) {
      const result = checkByHost(directory as RobotsDirectory, chunk, filter);
      lines += result.lines;
      await writeAll(output, result.output);
    }
  }
  if (values.stats === true) {
    const seconds = (performance.now() - started) / 1000;
    const peak = peakMemoryMiB();
    stderr(`robotstxt: stats: ${lines} lines in ${seconds.toFixed(3)} s (${(lines / seconds / 1e6).toFixed(2)} M lines/s), threads ${matcher !== null ? threads : 1}, peak memory ${peak.toFixed(1)} MiB\n`);
  }
  if (directory !== null && directory.noHostCount > 0) {
    stderr(`robotstxt: ${directory.noHostCount} line(s) named no host; answered as ${String(missing)}ed (--missing)\n`);
  }
  return 0;
}

/**
 * Peak resident memory of this process in MiB: VmHWM from /proc (Linux), else getrusage's maxRSS, which on
 * Linux also carries the high-water mark of the process that spawned this one (fork + exec keeps it).
 */
function peakMemoryMiB(): number {
  try {
    const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'));
    if (match !== null) return Number(match[1]) / 1024;
  } catch {
    // not Linux
  }
  return process.resourceUsage().maxRSS / 1024;
}

/** --threads N: a whole number >= 1; default: available cores. */
function threadsOption(value: unknown): number {
  if (value === undefined) return availableParallelism();
  const text = String(value);
  if (!/^\d+$/.test(text) || Number(text) < 1) throw usageError(`--threads must be a whole number >= 1, got '${text}'`);
  return Number(text);
}

/**
 * One matcher for every line: in-process, or on a worker pool started only when the input is more than one
 * chunk (small inputs never pay for threads). Output order is input order either way.
 */
async function checkWithMatcher(matcher: RobotsMatcher, reader: LineReader, threads: number, output: import('node:stream').Writable, stderr: (text: string) => void, filter: number): Promise<number> {
  const buffer = new Uint8Array(CHUNK_BYTES);
  const first = await reader.next(buffer);
  if (first === null) return 0;
  const firstCopy = threads > 1 ? first.slice() : first;
  const second = threads > 1 ? await reader.next(buffer) : null;
  let lines = 0;
  const here = async (chunk: Uint8Array): Promise<void> => {
    const result = matcher.checkLinesFormatted(chunk, filter);
    lines += result.verdicts.length;
    await writeAll(output, result.output);
  };
  if (second === null) {
    await here(firstCopy);
    if (threads > 1) return lines;
    for (let chunk = await reader.next(buffer); chunk !== null; chunk = await reader.next(buffer)) await here(chunk);
    return lines;
  }
  const { RobotsPool, checkChunksInOrder } = await import('../pool.js'); // loaded only when threads are used
  const pool = new RobotsPool({ threads: threads - 1 }); // this thread is the N-th
  const stats = { chunks: 0, recomputed: 0, matchedHere: 0 };
  // the two chunks read to decide go first, then the reader
  const pending = [firstCopy, second.slice()];
  const source = { next: async (target: Uint8Array) => (pending.length > 0 ? (pending.shift() as Uint8Array) : reader.next(target)) };
  try {
    for await (const { bytes, release, lines: count } of checkChunksInOrder(pool, matcher, source, filter, stats, CHUNK_BYTES, true)) {
      lines += count;
      await writeAll(output, bytes, release);
    }
  } finally {
    await pool.close();
  }
  if (stats.recomputed > 0) stderr(`robotstxt: ${stats.recomputed} batch(es) were matched again on the main thread after a worker failed\n`);
  return lines;
}

/** Runs of consecutive lines with the same host go to their matcher in one call each. */
function checkByHost(directory: RobotsDirectory, chunk: Uint8Array, filter: number): { output: Uint8Array; lines: number } {
  const parts: Uint8Array[] = [];
  let lines = 0;
  let runStart = 0;
  let runMatcher: RobotsMatcher | null = null;
  let lineStart = 0;
  while (lineStart < chunk.length) {
    let lineEnd = chunk.indexOf(CHAR_LF, lineStart);
    if (lineEnd < 0) lineEnd = chunk.length;
    const lineMatcher = directory.matcherFor(chunk.subarray(lineStart, lineEnd));
    lines++;
    if (lineMatcher !== runMatcher) {
      if (runMatcher !== null) parts.push(runMatcher.checkLinesFormatted(chunk.subarray(runStart, lineStart), filter).output);
      runMatcher = lineMatcher;
      runStart = lineStart;
    }
    lineStart = lineEnd + 1;
  }
  if (runMatcher !== null) parts.push(runMatcher.checkLinesFormatted(chunk.subarray(runStart), filter).output);
  return { output: Buffer.concat(parts), lines };
}

interface OneByOneOptions {
  filter: number;
  jsonl: boolean;
  fromLog: boolean;
  host: string | undefined;
  /** --robots-dir: a log request's URL needs a host to find its robots file. */
  needsHost: boolean;
}

const MAX_REPORTED_LOG_ERRORS = 20;
const utf8 = new TextDecoder();

/**
 * The general path: line by line in JavaScript, for --log (URLs from access log lines) and --format jsonl
 * (the deciding rule of each URL). URL bytes are kept as bytes (latin1 strings stand for them here).
 */
async function checkLinesOneByOne(reader: LineReader, matcherFor: (url: Uint8Array) => RobotsMatcher, options: OneByOneOptions, output: import('node:stream').Writable, stderr: (text: string) => void): Promise<number> {
  const buffer = new Uint8Array(CHUNK_BYTES);
  let lineNumber = 0;
  let malformed = 0;
  for (let chunk = await reader.next(buffer); chunk !== null; chunk = await reader.next(buffer)) {
    let out = '';
    for (const line of chunkLines(chunk)) {
      lineNumber++;
      let url = line;
      if (options.fromLog) {
        const request = parseLogLine(line);
        if (request === null) {
          if (malformed++ < MAX_REPORTED_LOG_ERRORS) stderr(`robotstxt: line ${lineNumber}: not an access log line with a request target: skipped\n`);
          continue;
        }
        url = request.target;
        if (options.needsHost && !/^[a-z][a-z0-9+.-]*:\/\//i.test(url)) {
          const host = request.vhost ?? options.host;
          url = host === undefined ? url : `http://${host}${url.startsWith('/') ? '' : '/'}${url}`;
        }
      }
      const bytes = Buffer.from(url, 'latin1');
      const matcher = matcherFor(bytes);
      let allowed: boolean;
      let rule: { kind: string; line: number; pattern: string } | null = null;
      if (options.jsonl) {
        const explanation = matcher.explain(bytes);
        allowed = explanation.allowed;
        if (explanation.rule !== null) rule = { kind: explanation.rule.kind, line: explanation.rule.line, pattern: explanation.rule.pattern };
      } else {
        allowed = matcher.isAllowed(bytes);
      }
      if (options.filter === OUTPUT_ONLY_ALLOWED && !allowed) continue;
      if (options.filter === OUTPUT_ONLY_DISALLOWED && allowed) continue;
      if (options.jsonl) out += JSON.stringify({ input: lineNumber, url: utf8.decode(bytes), verdict: allowed ? 'allowed' : 'disallowed', rule }) + '\n';
      else out += options.filter === OUTPUT_ALL ? `${allowed ? 'allowed' : 'disallowed'}\t${url}\n` : `${url}\n`;
    }
    await writeAll(output, Buffer.from(out, options.jsonl ? 'utf8' : 'latin1'));
  }
  if (malformed > MAX_REPORTED_LOG_ERRORS) stderr(`robotstxt: ${malformed - MAX_REPORTED_LOG_ERRORS} more lines were not access log lines\n`);
  if (malformed > 0) stderr(`robotstxt: ${malformed} of ${lineNumber} input lines were not access log lines\n`);
  return lineNumber;
}
