// robotstxt fetch: fills a robots.txt store from URLs, hosts or access logs; refreshes only what is stale.
import { DEFAULT_MAX_BYTES } from '../core/constants.js';
import { RobotsCache, type RobotsCacheEntry } from '../node/fetch/index.js';
import { robotsOriginOf, type RobotsOrigin } from '../node/fetch/index.js';
import { RobotsStore, type StoreWriteResult } from '../node/store/index.js';
import type { RobotsEffect } from '../core/fetch-rules.js';
import { LogLineReader } from '../node/logs/index.js';
import { RobotsError } from '../core/errors.js';
import { peakMemoryMiB, terminalSafe } from './common.js';
import { parseCommand, usageError, type Command, type CommandSpec, type OptionTable } from './command-spec.js';
import { MODE_OPTION, LOG_FIELD_OPTION, LOG_FORMATS_HELP, AGENT_OPTION, maxBytesOption, withHelp, requires, logFieldValues, agentValues, readingOf } from './shared-options.js';
import { FETCH_OPTIONS, fetchCacheOptions, fetchedSummary, storeSummary, forEachInLanes } from './fetch-options.js';
import { forEachChunk, chunkLines } from '../node/logs/index.js';
import { CRAWLER_RANGE_SOURCES } from '../node/verify/index.js';
import { flagWords } from './option-words.js';

/** fetch's own options, in the order --help lists them (the shared fetch options follow them). */
const FETCH_COMMAND_OWN_OPTIONS = {
  'crawler-ranges': { type: 'boolean', requires: ['store'], help: 'fetch the crawler vendors\' IP range files (see above)' },
  'ranges-url': { type: 'string', multiple: true, value: '<id>=<url>', requires: ['crawler-ranges'], help: 'with --crawler-ranges: fetch that file from this URL instead (a mirror; repeatable)' },
  urls: { type: 'string', multiple: true, value: '<file>', excludes: ['crawler-ranges'], help: 'URLs or host names, one per line (repeatable)' },
  log: { type: 'string', multiple: true, value: '<file>', excludes: ['crawler-ranges'], help: 'access log lines (formats below) (repeatable)' },
  'log-field': requires(LOG_FIELD_OPTION, ['log']),
  host: { type: 'string', value: '<name>', requires: ['log'], help: 'the host of --log requests whose line names none (no vhost field, host key or\nabsolute target)' },
  force: { type: 'boolean', help: 'fetch every origin, fresh or not' },
  'fail-on-change': { type: 'string', value: '<urls-file>', requires: ['store'], help: 'with --store: exit 1 when an origin\'s robots.txt changed in this run (a new\nversion in the store) and the change flips the verdict of a URL of the file for one\nof the agents of --agent (absolute URLs of that origin, or paths starting with /);\nthe flips are printed on stderr' },
  agent: requires({ ...AGENT_OPTION, help: 'with --fail-on-change: the crawlers whose verdicts count (repeatable; default *)' }, ['fail-on-change']),
  format: { type: 'string', choices: ['text', 'jsonl'], fallback: 'text', excludes: ['crawler-ranges'], help: 'text (default) or one JSON object per origin with the record' },
  stats: { type: 'boolean', help: 'at the end, a line on stderr with the peak memory of the run' },
  mode: withHelp(MODE_OPTION, 'how statuses are read (google: 429 is a server error; rfc: it is a 4xx)'),
  'max-bytes': maxBytesOption(DEFAULT_MAX_BYTES, 'keep at most N decoded bytes of each body ({range}; 0 = 16 MiB,\nthe most one compile takes: a longer body is cut there)'),
} as const satisfies OptionTable;

/** What fetch states about itself: its options (src/cli/command-spec.ts), usage, help and docs come from it. */
export const FETCH_SPEC = {
  name: 'fetch',
  options: { ...FETCH_COMMAND_OWN_OPTIONS, ...FETCH_OPTIONS },
  positionals: { shown: '[<url-or-host>... | -]', min: 0, max: Infinity },
  otherForms: ['robotstxt fetch --crawler-ranges --store <dir> [options]'],
  description: `Fetches the robots.txt of every origin (scheme, host, port) named by the arguments, the lines of --urls
files or standard input ('-', or nothing when input is piped), and the requests of --log access logs (the
vhost field, an absolute request target, or --host). Each origin once; with --store, only what is stale
there. Statuses are read as Google and RFC 9309 say: 2xx the rules, 3xx followed up to 5 hops, 4xx allow
all (429: a server error), 5xx, 429, timeouts and network errors disallow all (a kept copy is used while
they last; after 30 days with none, allow all).

Writes one line per origin, in input order:
  <effect><TAB><origin><TAB><source><TAB><outcome> <status> [(<detail>)]
effect: rules, allow-all or disallow-all; source: fetched, or fresh (in the store, not fetched again).
At the end, a summary per outcome on stderr (and progress while it runs, on a terminal).

With --crawler-ranges, fetches instead the IP range files crawler vendors publish (Google, Bing, OpenAI,
Anthropic, Perplexity, Apple, Common Crawl) into <dir>/crawler-ranges/, for audit --verify: one line per
file, <outcome><TAB><id><TAB><source><TAB><status> <prefixes> prefixes [(<error>)]; fresh files (24h, or
--max-age) are not fetched again; exit 1 when a file could not be fetched and none is kept. Offline, download
them where you can and give them to audit --verify --crawler-ranges:
${CRAWLER_RANGE_SOURCES.map((source) => `  ${source.id.padEnd(38)} ${source.url}`).join('\n')}`,
  notes: LOG_FORMATS_HELP,
  examples: [
    'robotstxt fetch --store ./robots example.com https://shop.example/a/page',
    'robotstxt fetch --store ./robots --log access.log --host www.example.com',
    'robotstxt fetch --crawler-ranges --store ./robots',
    'cut -f2 frontier.tsv | robotstxt fetch --store ./robots --concurrency 200 --timeout-ms 5000 -',
  ],
} as const satisfies CommandSpec;

/** robotstxt fetch. */
export const COMMAND: Command = { spec: FETCH_SPEC, run: (args, io) => runFetch(args, io.out, io.err), streams: () => true };

/** An input that named no origin: where it was, and why. */
interface BadInput {
  where: string;
  why: string;
}

export async function runFetch(args: string[], out: (text: string) => void, stderr: (text: string) => void): Promise<number> {
  const { values, positionals } = parseCommand(FETCH_SPEC, args);
  const reading = readingOf(values);
  const format = values.format;
  const options = fetchCacheOptions(values, reading);
  // (--crawler-ranges requires --store)
  if (values['crawler-ranges']) return runRangeFetch(values.store as string, values['ranges-url'], values.force, positionals, options, out, stderr);
  const logs = values.log;
  const urlFiles = values.urls;
  const defaultHost = values.host;
  const logFields = logFieldValues(values['log-field']);
  const readStdin = positionals.includes('-') || (positionals.length === 0 && urlFiles.length === 0 && logs.length === 0 && process.stdin.isTTY !== true);
  if (positionals.length === 0 && urlFiles.length === 0 && logs.length === 0 && !readStdin) throw usageError('fetch needs URLs or hosts: arguments, --urls <file>, --log <file>, or piped input (see robotstxt fetch --help)');

  // the origins, first seen first; inputs that name none are reported
  const origins = new Map<string, RobotsOrigin>();
  const bad: BadInput[] = [];
  // an origin named in the arguments is fetched as named; one from a list or a log is content (see --targets)
  const add = (text: string, where: string, fromContent = true): void => {
    try {
      const origin = { ...robotsOriginOf(text, options.defaultScheme), fromContent };
      const known = origins.get(origin.origin);
      if (known === undefined) origins.set(origin.origin, origin);
      else if (!fromContent) known.fromContent = false;
    } catch (error) {
      if (!(error instanceof RobotsError)) throw error;
      bad.push({ where, why: error.message });
    }
  };
  // an argument you typed that names no origin is a usage error before anything is fetched (a list's line is reported)
  positionals.forEach((arg, index) => {
    if (arg === '-') return;
    add(arg, `argument ${index + 1}`, false);
    if (bad.length > 0) throw usageError(`${bad[0].where}: ${bad[0].why}`);
  });
  const eachLine = async (path: string | undefined, what: string, onLine: (line: string, number: number) => void): Promise<void> => {
    let number = 0;
    await forEachChunk(path, what, (chunk) => {
      for (const line of chunkLines(chunk)) onLine(line, ++number);
    });
  };
  const urlLine = (name: string) => (line: string, number: number): void => {
    const text = line.trim();
    if (text !== '' && !text.startsWith('#')) add(Buffer.from(text, 'latin1').toString('utf8'), `${name}:${number}`);
  };
  if (readStdin) await eachLine(undefined, 'URL file', urlLine('stdin'));
  for (const file of urlFiles) await eachLine(file, 'URL file', urlLine(file));
  for (const log of logs) {
    // read in bulk, as audit reads (a blank line is nothing; a line of spaces is no access log line, as in check and audit)
    const logReader = new LogLineReader({ fields: logFields });
    let number = 0;
    await forEachChunk(log, 'log file', (chunk) => {
      for (const entry of logReader.readChunk(chunk, { withHost: true, defaultHost: defaultHost ?? null })) {
        number++;
        if (entry === 'header' || entry === 'blank') continue;
        const where = `${log}:${number}`;
        if (entry === null) {
          bad.push({ where, why: 'not an access log line' });
          continue;
        }
        // the request's URL line as check --log and audit make it (relative targets: http://<host>)
        if (entry.urlHost === 'none') bad.push({ where, why: 'the line names no host (give --host)' });
        // log text is bytes: UTF-8 as a client reads it; a relative target of a line without a host is --host's, which the user named
        else add(Buffer.from(entry.url).toString('utf8'), where, entry.urlHost !== 'default');
      }
    });
  }

  // nothing to fetch is an error, never "0 origin(s)" and exit 0
  if (origins.size === 0) {
    const named = bad.length === 0 ? 'the input named none' : `${bad.length} input(s) named none: ${bad.slice(0, 3).map((b) => `${b.where} (${b.why})`).join(', ')}${bad.length > 3 ? ', ...' : ''}`;
    throw usageError(`no origin to fetch: ${named} (give URLs or hosts: arguments, --urls <file>, --log <file>, or piped input)`);
  }
  const store = values.store === undefined ? null : new RobotsStore(values.store, { keepVersions: values['keep-versions'] });
  const watched = values['fail-on-change'];
  const watchedLines = watched === undefined ? null : await (await import('../node/history/index.js')).readUrlFile(watched);
  if (watched !== undefined && store?.keepVersions === 0) throw usageError('--fail-on-change needs the store to keep versions (--keep-versions 1 or more)');
  // the change each origin's fetch made to the store's versions in this run (with the bytes before and after)
  const changes: (StoreWriteResult['change'])[] = [];
  const cache = new RobotsCache({ ...options, store });
  const started = performance.now();
  const list = [...origins.values()];
  const results: (string | null)[] = new Array<string | null>(list.length).fill(null);
  const effects: Record<RobotsEffect, number> = { 'rules': 0, 'allow-all': 0, 'disallow-all': 0 };
  let done = 0;
  let printed = 0;
  const showProgress = process.stderr.isTTY === true && list.length > 1;
  let lastProgress = 0;
  const force = values.force;
  try {
    await forEachInLanes(list, options.concurrency ?? 32, async (origin, index) => {
      const entry = await cache.entry(origin.origin, force, origin.fromContent === true);
      changes[index] = entry.stored?.change ?? null;
      effects[entry.effect]++;
      results[index] = format === 'jsonl' ? jsonLine(entry) : textLine(entry);
      done++;
      while (printed < results.length && results[printed] !== null) {
        out(results[printed] as string);
        results[printed++] = '';
      }
      if (showProgress && performance.now() - lastProgress > 200) {
        lastProgress = performance.now();
        const waiting = cache.waitingForHosts;
        stderr(`\rrobotstxt fetch: ${done} of ${list.length} origins, ${fetchedSummary(cache.stats.fetches)}${waiting > 0 ? `, ${waiting} waiting for a host's slot (--per-host)` : ''}\x1b[K`);
      }
    });
  } finally {
    await cache.close();
  }
  if (showProgress) stderr('\r\x1b[K');
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  const { fromStore, fromMemory } = cache.stats;
  stderr(`robotstxt fetch: ${list.length} origin(s) in ${seconds} s: ${storeSummary(cache.stats, fromStore + fromMemory)}; effect: ${effects.rules} rules, ${effects['allow-all']} allow-all, ${effects['disallow-all']} disallow-all\n`);
  if (values.stats) stderr(`robotstxt fetch: stats: ${list.length} origins in ${seconds} s, peak memory ${peakMemoryMiB().toFixed(1)} MiB\n`);
  if (bad.length > 0) stderr(`robotstxt fetch: ${bad.length} input(s) named no origin: ${bad.slice(0, 10).map((b) => `${b.where} (${b.why})`).join(', ')}${bad.length > 10 ? ', ...' : ''}\n`);
  if (watchedLines === null || store === null) return 0;
  // --fail-on-change: the change each origin's fetch made in this run, over the URLs of the file (compared as
  // the bytes were before and after, whatever --keep-versions drops)
  const { changeFlips, flipLine, urlLinesOf, linesOfOtherOrigins } = await import('../node/history/index.js');
  const agents = values.agent.length > 0 ? agentValues(values.agent) : ['*'];
  let flips = 0;
  list.forEach((origin, index) => {
    const change = changes[index];
    if (change === null || change === undefined || change.before === null) return;
    const lines = urlLinesOf(origin.origin, watchedLines);
    if (lines.length === 0) return;
    for (const flip of changeFlips(change, agents, lines, reading)) {
      const said = `robotstxt fetch: ${origin.origin} changed (${flip.before.firstSeen} -> ${flip.after.firstSeen}), ${flip.agent}: `;
      for (const url of flip.newlyDisallowed) { flips++; stderr(said + terminalSafe(flipLine('newly disallowed', url)) + '\n'); }
      for (const url of flip.newlyAllowed) { flips++; stderr(said + terminalSafe(flipLine('newly allowed', url)) + '\n'); }
    }
  });
  // a watched URL of an origin this run did not fetch is said, never passed over in silence
  const unwatched = linesOfOtherOrigins(watchedLines, new Set(list.map((origin) => origin.origin)));
  if (unwatched.length > 0) stderr(`robotstxt fetch: --fail-on-change: ${unwatched.length} line(s) of ${watched} name no origin this run fetched, so no change of theirs was looked for: ${unwatched.slice(0, 5).map((entry) => `line ${entry.line} (${terminalSafe(entry.text.slice(0, 200))})`).join(', ')}${unwatched.length > 5 ? ', ...' : ''}\n`);
  if (flips === 0) return 0;
  stderr(`robotstxt fetch: --fail-on-change: ${flips} verdict(s) of ${watched} changed\n`);
  return 1;
}


function textLine(entry: RobotsCacheEntry): string {
  const record = entry.record;
  const detail = record.error !== null ? ` (${record.error})` : record.hops > 0 ? ` (${record.hops} redirect${record.hops > 1 ? 's' : ''} to ${record.finalUrl})` : '';
  const notes = entry.stored?.notes ?? [];
  const mended = notes.length === 0 ? '' : ` (store: ${terminalSafe(notes.join('; '))})`;
  return `${entry.effect}\t${entry.origin}\t${entry.source === 'fetch' ? 'fetched' : entry.source === 'refused' ? 'refused' : 'fresh'}\t${record.outcome} ${record.status === 0 ? '-' : record.status}${detail}${mended}\n`;
}

function jsonLine(entry: RobotsCacheEntry): string {
  const record = entry.record;
  return JSON.stringify({
    origin: entry.origin, key: entry.key, effect: entry.effect, source: entry.source === 'fetch' ? 'fetched' : entry.source === 'refused' ? 'refused' : 'fresh',
    outcome: record.outcome, status: record.status, error: record.error, hops: record.hops, finalUrl: record.finalUrl,
    checkedAt: new Date(record.checkedAt).toISOString(), kept: record.kept, failures: record.failures,
    failingSince: record.failingSince === null ? null : new Date(record.failingSince).toISOString(),
    ...(entry.stored !== undefined && entry.stored.notes.length > 0 ? { storeNotes: entry.stored.notes } : {}),
  }) + '\n';
}

/** fetch --crawler-ranges: the vendors' range files into <store>/crawler-ranges/. */
async function runRangeFetch(store: string, rangeUrls: readonly string[], force: boolean, positionals: string[], options: ReturnType<typeof fetchCacheOptions>, out: (text: string) => void, stderr: (text: string) => void): Promise<number> {
  if (positionals.length > 0) throw usageError('--crawler-ranges fetches only the range files: give no URLs or hosts');
  const urls = new Map<string, string>();
  for (const pair of rangeUrls) {
    const at = pair.indexOf('=');
    const url = pair.slice(at + 1);
    if (at <= 0 || !/^https?:\/\/[^\s]+$/.test(url)) throw usageError(`--ranges-url must be <id>=<http(s) URL>, got '${pair}'`);
    urls.set(pair.slice(0, at), url);
  }
  const { fetchCrawlerRanges } = await import('../node/fetch/index.js');
  const { fetchSettings } = await import('../node/fetch/index.js');
  const settings = fetchSettings({ userAgent: options.userAgent, timeoutMs: options.timeoutMs, targets: options.targets, now: options.now, optionWords: flagWords });
  let results;
  try {
    results = await fetchCrawlerRanges(store, settings, { urls, force, maxAgeMs: options.maxAgeMs });
  } catch (error) {
    if (error instanceof RobotsError && error.code === 'INVALID_ARGUMENT') throw usageError(`--ranges-url: ${error.message}`);
    throw error;
  }
  for (const r of results) {
    const detail = r.error === null ? '' : ` (${r.error}${r.kept ? '; the file fetched before is kept' : ''})`;
    out(`${r.outcome}\t${r.id}\t${r.source}\t${r.status === 0 ? '-' : r.status} ${r.prefixes} prefixes${detail}\n`);
  }
  const failed = results.filter((r) => r.outcome === 'failed');
  stderr(`robotstxt fetch: ${results.length} crawler range files: ${results.filter((r) => r.source === 'fetched' && r.outcome === 'ok').length} fetched, ${results.filter((r) => r.source === 'fresh').length} fresh in the store, ${failed.length} failed\n`);
  return failed.some((r) => !r.kept) ? 1 : 0;
}
