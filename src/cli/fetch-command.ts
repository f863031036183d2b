// robotstxt fetch: fills a robots.txt store from URLs, hosts or access logs; refreshes only what is stale. The
// options and the handler; the origins are read by the library (readOrigins), the lines and --fail-on-change
// said by fetch-lines.ts, the range files fetched by fetch-ranges.ts.
import { DEFAULT_MAX_BYTES } from '../core/constants.js';
import { RobotsCache, readOrigins } from '../node/fetch/index.js';
import { RobotsStore, type StoreWriteResult } from '../node/store/index.js';
import type { RobotsEffect } from '../core/fetch-rules.js';
import { RobotsError } from '../core/errors.js';
import { peakMemoryMiB } from './common.js';
import { parseCommand, usageError, type Command, type CommandSpec, type OptionTable } from './command-spec.js';
import { MODE_OPTION, LOG_FIELD_OPTION, LOG_FORMATS_HELP, AGENT_OPTION, maxBytesOption, withHelp, requires } from './shared-options.js';
import { FETCH_OPTIONS, fetchedSummary, storeSummary } from './fetch-options.js';
import { planFetch } from './fetch-plan.js';
import { CRAWLER_RANGE_SOURCES } from '../node/verify/index.js';
import { flagWords } from './option-words.js';
import { jsonLine, saidFlips, textLine } from './fetch-lines.js';
import { runRangeFetch, runSignatureKeysFetch } from './fetch-ranges.js';

/** fetch's own options, in the order --help lists them (the shared fetch options follow them). */
const FETCH_COMMAND_OWN_OPTIONS = {
  'crawler-ranges': { type: 'boolean', requires: ['store'], help: 'fetch the crawler vendors\' IP range files (see above)' },
  'signature-keys': { type: 'boolean', requires: ['store'], excludes: ['crawler-ranges', 'urls', 'fail-on-change', 'format'], help: 'fetch the key directories of signing agents (Web Bot Auth) that the signed\nrequests of --log files name, or the agents given (origins or hosts), into\n<dir>/signature-keys/ for audit --verify (see above)' },
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
  otherForms: ['robotstxt fetch --crawler-ranges --store <dir> [options]', 'robotstxt fetch --signature-keys --store <dir> [--log <file>]... [<agent>...] [options]'],
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
them where you can and give them to audit --verify --crawler-ranges.

With --signature-keys, fetches instead the key directories of signing agents (Web Bot Auth: each agent's
<origin>/.well-known/http-message-signatures-directory) named by the Signature-Agent of the signed requests
of --log files (JSON lines; see audit --help) or given as arguments, into <dir>/signature-keys/<host>.json
for audit --verify; a directory that changed keeps its versions under history/<host>/ with their times.
One line per agent, <outcome><TAB><host><TAB><source><TAB><status> <keys> keys [(<error>)]; exit 1 when
one could not be fetched and none is kept. The range files' URLs:
${CRAWLER_RANGE_SOURCES.map((source) => `  ${source.id.padEnd(38)} ${source.url}`).join('\n')}`,
  notes: LOG_FORMATS_HELP,
  examples: [
    'robotstxt fetch --store ./robots example.com https://shop.example/a/page',
    'robotstxt fetch --store ./robots --log access.log --host www.example.com',
    'robotstxt fetch --crawler-ranges --store ./robots',
    'robotstxt fetch --signature-keys --store ./robots --log access.json',
    'cut -f2 frontier.tsv | robotstxt fetch --store ./robots --concurrency 200 --timeout-ms 5000 -',
  ],
} as const satisfies CommandSpec;

/** robotstxt fetch. */
export const COMMAND: Command = { spec: FETCH_SPEC, run: (args, io) => runFetch(args, io.out, io.err), streams: () => true };

/** robotstxt fetch: the origins read, each fetched or found fresh (lines in input order), the summary, --fail-on-change. Once per run. */
export async function runFetch(args: string[], out: (text: string) => void, stderr: (text: string) => void): Promise<number> {
  const plan = planFetch(parseCommand(FETCH_SPEC, args), process.stdin.isTTY === true);
  const { options, reading } = plan;
  if (plan.ranges !== null) return runRangeFetch(plan.ranges.store, plan.ranges.urls, plan.force, options, out, stderr);
  if (plan.signatureKeys !== null) return runSignatureKeysFetch(plan.signatureKeys, plan.fields, plan.force, options, out, stderr);
  // the origins, first seen first; an argument that names none is a usage error before anything is read, a line that names none is reported
  let read: Awaited<ReturnType<typeof readOrigins>>;
  try {
    read = await readOrigins(plan.inputs, { defaultScheme: options.defaultScheme, defaultHost: plan.defaultHost, fields: plan.fields, optionWords: flagWords });
  } catch (error) {
    if (error instanceof RobotsError && error.code === 'INVALID_ARGUMENT') throw usageError(error.message);
    throw error;
  }
  const { origins: list, unread: bad } = read;
  // nothing to fetch is an error, never "0 origin(s)" and exit 0
  if (list.length === 0) {
    const named = bad.length === 0 ? 'the input named none' : `${bad.length} input(s) named none: ${bad.slice(0, 3).map((b) => `${b.where} (${b.why})`).join(', ')}${bad.length > 3 ? ', ...' : ''}`;
    throw usageError(`no origin to fetch: ${named} (give URLs or hosts: arguments, --urls <file>, --log <file>, or piped input)`);
  }
  const store = plan.store === null ? null : new RobotsStore(plan.store, { keepVersions: plan.keepVersions });
  const watchedLines = plan.watch === null ? null : await (await import('../node/history/index.js')).readUrlFile(plan.watch.file);
  if (plan.watch !== null && store?.keepVersions === 0) throw usageError('--fail-on-change needs the store to keep versions (--keep-versions 1 or more)');
  // the change each origin's fetch made to the store's versions in this run (with the bytes before and after)
  const changes: (StoreWriteResult['change'])[] = [];
  const effects: Record<RobotsEffect, number> = { 'rules': 0, 'allow-all': 0, 'disallow-all': 0 };
  const cache = new RobotsCache({ ...options, store });
  const started = performance.now();
  const showProgress = process.stderr.isTTY === true && list.length > 1;
  let lastProgress = 0;
  try {
    await cache.entriesInOrder(list, {
      force: plan.force, concurrency: options.concurrency ?? 32,
      onEntry: (entry, index) => {
        changes[index] = entry.stored?.change ?? null;
        effects[entry.effect]++;
        out(plan.format === 'jsonl' ? jsonLine(entry) : textLine(entry));
      },
      onDone: (done) => {
        if (!showProgress || performance.now() - lastProgress <= 200) return;
        lastProgress = performance.now();
        const waiting = cache.waitingForHosts;
        stderr(`\rrobotstxt fetch: ${done} of ${list.length} origins, ${fetchedSummary(cache.stats.fetches)}${waiting > 0 ? `, ${waiting} waiting for a host's slot (--per-host)` : ''}\x1b[K`);
      },
    });
  } finally {
    await cache.close();
  }
  if (showProgress) stderr('\r\x1b[K');
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  const { fromStore, fromMemory } = cache.stats;
  stderr(`robotstxt fetch: ${list.length} origin(s) in ${seconds} s: ${storeSummary(cache.stats, fromStore + fromMemory)}; effect: ${effects.rules} rules, ${effects['allow-all']} allow-all, ${effects['disallow-all']} disallow-all\n`);
  if (plan.stats) stderr(`robotstxt fetch: stats: ${list.length} origins in ${seconds} s, peak memory ${peakMemoryMiB().toFixed(1)} MiB\n`);
  if (bad.length > 0) stderr(`robotstxt fetch: ${bad.length} input(s) named no origin: ${bad.slice(0, 10).map((b) => `${b.where} (${b.why})`).join(', ')}${bad.length > 10 ? ', ...' : ''}\n`);
  if (watchedLines === null || store === null || plan.watch === null) return 0;
  return saidFlips(list, changes, plan.watch.file, watchedLines, plan.watch.agents, reading, stderr);
}
