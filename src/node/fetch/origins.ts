// The origins a fetch is asked for, from what a user gives: arguments, URL files (or standard input) and access
// logs, first seen first. The one reader of them, for robotstxt fetch and audit --fetch: an origin named in the
// arguments (or a log line's host given as the default host) is the caller's own; one read from a list or a log
// is content, which the targets rule keeps from internal addresses.
import { RobotsError, LIBRARY_OPTION_WORDS, type OptionWords } from '../../core/errors.js';
import { robotsOriginOf, type RobotsOrigin } from './robots-fetch.js';
import { LogLineReader, forEachChunk, chunkLines, type LogFieldNames } from '../logs/index.js';

/** An input that named no origin: where it was (`argument 2`, `urls.txt:7`, `access.log:12`), and why. */
export interface UnreadOrigin {
  where: string;
  why: string;
}

/** What a fetch is asked to read origins from. */
export interface OriginInputs {
  /** Named by the caller: each must name an origin (the first that does not is INVALID_ARGUMENT, before any file is read). */
  args?: readonly string[];
  /** Read standard input as a URL list. */
  stdin?: boolean;
  urlFiles?: readonly string[];
  logs?: readonly string[];
}

/**
 * The origins of the inputs, first seen first (each once; one the caller named is not content, wherever it was
 * also read), and every input line that named none, with why. URL list lines: trimmed, blank and `#` lines
 * skipped, read as UTF-8. Log lines: each request's URL as check --log and audit make it (a relative target is
 * `http://<defaultHost>`; a line with neither host is unread). Once per run.
 */
export async function readOrigins(inputs: OriginInputs, options: { defaultScheme?: 'https' | 'http'; defaultHost?: string | null; fields?: LogFieldNames; optionWords?: OptionWords } = {}): Promise<{ origins: RobotsOrigin[]; unread: UnreadOrigin[] }> {
  const origins = new Map<string, RobotsOrigin>();
  const unread: UnreadOrigin[] = [];
  const add = (text: string, where: string, fromContent: boolean): boolean => {
    try {
      const origin = { ...robotsOriginOf(text, options.defaultScheme), fromContent };
      const known = origins.get(origin.origin);
      if (known === undefined) origins.set(origin.origin, origin);
      else if (!fromContent) known.fromContent = false;
      return true;
    } catch (error) {
      if (!(error instanceof RobotsError)) throw error;
      unread.push({ where, why: error.message });
      return false;
    }
  };
  (inputs.args ?? []).forEach((arg, index) => {
    if (arg === '-') return;
    if (!add(arg, `argument ${index + 1}`, false)) throw new RobotsError('INVALID_ARGUMENT', `argument ${index + 1}: ${unread[0].why}`);
  });
  const urlList = async (path: string | undefined, name: string): Promise<void> => {
    let number = 0;
    await forEachChunk(path, 'URL file', (chunk) => {
      for (const line of chunkLines(chunk)) {
        number++;
        const text = line.trim();
        if (text !== '' && !text.startsWith('#')) add(Buffer.from(text, 'latin1').toString('utf8'), `${name}:${number}`, true);
      }
    });
  };
  if (inputs.stdin === true) await urlList(undefined, 'stdin');
  for (const file of inputs.urlFiles ?? []) await urlList(file, file);
  for (const log of inputs.logs ?? []) {
    // read in bulk, as audit reads (a blank line is nothing; a line of spaces is no access log line, as in check and audit)
    const reader = new LogLineReader({ fields: options.fields });
    let number = 0;
    await forEachChunk(log, 'log file', (chunk) => {
      for (const entry of reader.readChunk(chunk, { withHost: true, defaultHost: options.defaultHost ?? null })) {
        number++;
        if (entry === 'header' || entry === 'blank') continue;
        const where = `${log}:${number}`;
        if (entry === null) unread.push({ where, why: 'not an access log line' });
        else if (entry.urlHost === 'none') unread.push({ where, why: `the line names no host (give ${(options.optionWords ?? LIBRARY_OPTION_WORDS)({ name: 'defaultHost' })})` });
        // log text is bytes: UTF-8 as a client reads it; a relative target of a line without a host is the default host's, which the caller named
        else add(Buffer.from(entry.url).toString('utf8'), where, entry.urlHost !== 'default');
      }
    });
  }
  return { origins: [...origins.values()], unread };
}
