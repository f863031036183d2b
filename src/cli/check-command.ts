// robotstxt check: one verdict line per input URL line, streamed, in order, none dropped.
import { openedPack } from './pack-option.js';
import { availableParallelism } from 'node:os';
import { DEFAULT_CACHE_BYTES, MAX_CACHE_BYTES } from '../core/constants.js';
import { maxThreads } from '../node/threads/index.js';
import { isUsageCategory } from '../core/usage.js';
import { agentsAsCrawlers } from '../core/crawlers.js';
import { asciiLowerCase, parseRobots, productToken, type RobotsTxt } from '../core/robots.js';
import type { RobotsMatcher } from '../core/matcher.js';
import { loadRobotsInput, peakMemoryMiB, terminalSafe, warnAboutAgents, warnings } from './common.js';
import { RobotsError } from '../core/errors.js';
import { parseCommand, usageError, type Command, type CommandSpec, type OptionTable } from './command-spec.js';
import { AGENT_OPTION, MODE_OPTION, MAX_BYTES_OPTION, LOG_FIELD_OPTION, LOG_FORMATS_HELP, requires, agentValues, logFieldValues, readingOf } from './shared-options.js';
import { LineReader } from '../node/logs/index.js';
import { runCheck as checkInput, type CheckPlan, type CheckOutcome } from '../node/check/index.js';
import { minCacheMbForThreads, workerOverheadMb, HostsThreadsPace, HOSTS_THREADS_AFTER_MS } from '../node/check/index.js';
import { FETCHING_OPTIONS, FETCH_SECTION, clockOption, fetchCacheOptions, storeSummary } from './fetch-options.js';
import type { RobotsCache } from '../node/fetch/index.js';
import { requireDirectory } from '../node/robots-file.js';

/** Largest --cache-mb: what one WebAssembly instance can address for its cache (MAX_CACHE_BYTES, 3 GiB). */
const MAX_CACHE_MB = MAX_CACHE_BYTES / 1048576;

/** check's own options, in the order --help lists them (its fetch options follow in their own section). */
const CHECK_OWN_OPTIONS = {
  robots: { type: 'string', value: '<file>', help: 'the robots.txt to apply to every URL' },
  'robots-dir': { type: 'string', value: '<dir>', help: 'per URL, <dir>/<host>.txt (host lower-cased, an IDN in its xn-- form, one\ntrailing dot dropped; <host>:<port>.txt first when the URL names a port)\nA host with no .txt but a .json record of robotstxt fetch gets the record\'s\noutcome: allow all (4xx), or disallow all (unreachable; allow all after 30 days)' },
  store: { type: 'string', value: '<dir>', help: 'a store filled by robotstxt fetch (the same files as --robots-dir)' },
  pack: { type: 'string', value: '<file>', help: 'a pack made by robotstxt pack: per URL, its origin\'s robots.txt as --robots-dir\nreads it, compiled already (one agent asks no compile); its mode and --max-bytes\nare the pack\'s' },
  fetch: { type: 'boolean', requires: ['store'], help: 'with --store: fetch what the store lacks or has stale, before its URLs are\nanswered (one thread; fetch options below apply)' },
  missing: { type: 'string', choices: ['allow', 'disallow', 'error'], fallback: 'allow', requires: ['robots-dir', 'store', 'pack'], help: 'URLs whose host has no file in --robots-dir, no record in --store (never\nfetched) or no entry in --pack: allow (default, as for a missing robots.txt), disallow, or error (the\nrun stops, naming the origin). The first such origins are named on stderr.' },
  'no-host': { type: 'string', choices: ['allow', 'disallow', 'error'], requires: ['robots-dir', 'store', 'pack'], help: 'lines that name no host (no http:// or https://, a host no URL parser\ntakes) with --robots-dir or --store: default what --missing says (allow when\nit says error); error stops the run at the first, naming its line. They are\ncounted and the first named on stderr.' },
  agent: AGENT_OPTION,
  'as-crawler': { type: 'boolean', requires: ['robots'], help: 'answer each agent as its crawler behaves (as audit does), not as its product\ntoken alone (the reference, the default): Googlebot-Image, -News and -Video\nfollow the Googlebot group when the file has none of their own; AdsBot-Google\nand AdsBot-Google-Mobile ignore * (no group of their own: every URL allowed).\nEither way, where the two readings differ for the file, stderr says so.' },
  mode: MODE_OPTION,
  'max-bytes': MAX_BYTES_OPTION,
  'cache-mb': {
    type: 'string', value: 'N', whole: { fallback: DEFAULT_CACHE_BYTES >> 20, min: 1, max: MAX_CACHE_MB }, requires: ['robots-dir', 'store', 'pack'],
    help: `memory for compiled robots files with --robots-dir, all threads together,
and for the input being answered ({range}: what one
WebAssembly instance addresses); least recently used hosts are dropped and
read again when met again. Input is answered in windows of 1/8 of the cache
(8 MiB by default; 1/32 with jsonl; 2 to 16 MiB, 1 to 16 MiB for jsonl with
workers), its lines grouped by host: a host with up to 64 lines is answered
straight from its file, one with more is compiled once. For input in random
order over far more hosts than fit, sort it by host first
(e.g. sort -t/ -k3,3).`,
  },
  usage: { type: 'string', value: '<purpose>', requires: ['robots'], excludes: ['only', 'log'], help: 'add a purpose\'s AI usage verdict to each line (train-ai, search, ai-input, or any\nContent-Usage category): its Content-Usage category and the Content-Signal of\nthe same purpose (ai-train, search, ai-input), the more restrictive winning, as\naudit counts: verdict<TAB>usage<TAB>url, usage allowed, disallowed or unknown\n(always unknown where the crawl is disallowed); jsonl: a "usage" field\n{"category","verdict","line","source"}. One thread. See robotstxt usage.' },
  only: { type: 'string', choices: ['allowed', 'disallowed'], help: 'print just the URLs with that verdict, one per line (a filter, like grep)' },
  format: { type: 'string', choices: ['text', 'jsonl'], fallback: 'text', help: 'text (default): verdict<TAB>url; jsonl: one JSON object per URL with the deciding\nrule: {"input":N,"url":...,"verdict":...,"rule":{"kind","line","pattern"}|null}' },
  log: { type: 'boolean', help: 'input lines are access log lines (formats below); the request target is the URL.\nLines that are not log lines are reported on stderr with their line numbers and\nskipped. With --robots-dir the host is the line\'s (vhost field, host key, ...),\nor --host.' },
  'log-field': requires(LOG_FIELD_OPTION, ['log']),
  host: { type: 'string', value: '<name>', requires: ['log'], help: 'the host of --log requests whose line names none (for --robots-dir)' },
  stats: { type: 'boolean', help: 'at the end, one line on stderr: lines, seconds, URLs/s, the threads that ran,\npeak memory, and with --robots-dir the hosts compiled, answered from their\nfile without a compile, missing, evicted and cached, and the window' },
  threads: {
    type: 'string', value: 'N', whole: { fallback: availableParallelism(), min: 1, max: maxThreads(), machine: 'default the available cores (1 with --robots-dir); 1 to 4 per core', here: `default ${availableParallelism()}, the cores; 1 with --robots-dir; 1 to ${maxThreads()}` },
    help: `threads answering URLs ({range}):
this one and N - 1 workers, started only once the input is long enough: 64 MiB
with --robots; with --robots-dir once the work to come, at the pace this thread
has answered alone, would take ${HOSTS_THREADS_AFTER_MS / 1000} s (ROBOTSTXT_HOSTS_THREADS_AFTER_MS, in ms;
0: at once), and workers whose windows come no faster than this thread's alone
are let go. With --robots-dir threads take buckets of hosts as they get free,
each with its own share of --cache-mb, after ${workerOverheadMb('text')} MiB per worker (${workerOverheadMb('jsonl')} with
jsonl): --threads 2 needs --cache-mb ${minCacheMbForThreads(2, 'text')}, or ${minCacheMbForThreads(2, 'jsonl')} with jsonl.
Output order is kept. When fewer threads run than --threads asks, stderr says so
and why.`,
  },
} as const satisfies OptionTable;

/** What check states about itself: its options (src/cli/command-spec.ts), usage, help and docs come from it. */
export const CHECK_SPEC = {
  name: 'check',
  options: { ...CHECK_OWN_OPTIONS, ...FETCHING_OPTIONS },
  positionals: { shown: '[<urls-file> | -]', min: 0, max: 1, error: (count: number) => `check takes at most one <urls-file>, got ${count}` },
  oneOf: [['robots', 'robots-dir', 'store', 'pack']],
  required: ['agent'],
  sections: [{ title: 'Fetch options (with --fetch; --now also judges stored records without it):', names: FETCH_SECTION }],
  description: `Reads one URL per line (LF or CRLF) from <urls-file> or standard input and writes exactly one line
per input line, in order:
  allowed<TAB><url>      or      disallowed<TAB><url>
Empty and malformed lines are answered as the reference answers them (an empty URL is the path "/").`,
  notes: LOG_FORMATS_HELP,
  examples: [
    'robotstxt check --robots robots.txt --agent Googlebot urls.txt',
    'zcat urls.gz | robotstxt check --robots robots.txt --agent Googlebot-Image --agent Googlebot -',
    'robotstxt check --robots-dir ./robots --agent Bingbot --missing disallow urls.txt',
    'robotstxt check --robots robots.txt --agent Googlebot --only disallowed urls.txt > blocked.txt',
    'robotstxt check --robots robots.txt --agent Googlebot --log --format jsonl access.log',
    'robotstxt check --store ./robots --fetch --agent Googlebot --only allowed frontier.txt',
  ],
} as const satisfies CommandSpec;

/** robotstxt check. */
/**
 * ROBOTSTXT_HOSTS_THREADS_AFTER_MS: with --robots-dir and --threads N, the work to come (ms, at the pace one
 * thread has answered so far) after which workers start (default HOSTS_THREADS_AFTER_MS; 0: at once, as tests
 * and users who know their run is long want). Read once per run; a value that is not a whole number of
 * milliseconds up to an hour is a usage error naming the variable.
 */
function hostsThreadsPaceOf(env: NodeJS.ProcessEnv): HostsThreadsPace {
  const text = env.ROBOTSTXT_HOSTS_THREADS_AFTER_MS;
  if (text === undefined || text === '') return new HostsThreadsPace(HOSTS_THREADS_AFTER_MS);
  const ms = Number(text);
  if (!/^\d+$/.test(text) || ms > 3_600_000) throw usageError(`ROBOTSTXT_HOSTS_THREADS_AFTER_MS must be a whole number of milliseconds from 0 to 3600000, got ${JSON.stringify(text.slice(0, 40))}`);
  return new HostsThreadsPace(ms);
}

export const COMMAND: Command = { spec: CHECK_SPEC, run: (args, io) => runCheck(args, io.stdout, io.err), streams: () => true, lineFilter: true };

export async function runCheck(args: string[], stdout: NodeJS.WritableStream, stderr: (text: string) => void): Promise<number> {
  const { values, given, positionals } = parseCommand(CHECK_SPEC, args);
  const agents = agentValues(values.agent);
  warnAboutAgents(agents, stderr);
  const robotsFile = values.robots;
  if (robotsFile === '-' && (positionals[0] === undefined || positionals[0] === '-')) throw usageError('--robots - reads the robots.txt from standard input: give the URLs as a file (standard input can be read once)');
  const storeDir = values.store;
  const packFile = values.pack;
  const robotsDir = values['robots-dir'] ?? storeDir ?? (packFile !== undefined ? '' : undefined);
  const fetching = values.fetch;
  if (fetching && given.has('threads') && values.threads !== 1) throw usageError('--fetch runs in one thread (--threads 1)');
  let reading = readingOf(values);
  if (packFile !== undefined) {
    // the pack is opened (and checked) here: its reading is the run's (a damaged pack stops the run before any output);
    // kept open: the matcher of this thread reads the same, once
    reading = (await openedPack(packFile, values, given)).reading;
  }
  const { mode, maxBytes } = reading;
  const missing = values.missing;
  const noHost = values['no-host'] ?? (missing === 'error' ? 'allow' : missing);
  const cacheMb = values['cache-mb'];
  if (fetching) new (await import('../node/store/index.js')).RobotsStore(robotsDir as string); // made when missing
  if (robotsDir !== undefined && packFile === undefined) requireDirectory(robotsDir, 'robotsDirectory');

  // one thread by default with a robots directory, where a second thread was measured slower on the
  // development machine (many-host work is bound by memory latency there, and the cache is split between
  // the threads: see bench/RESULTS.md); --threads N asks for them
  const threads = given.has('threads') || robotsDir === undefined ? values.threads : 1;
  const only = values.only;
  const format = values.format;
  if (robotsDir !== undefined && threads > 1 && cacheMb < minCacheMbForThreads(threads, format)) {
    throw usageError(`--threads ${threads} with --robots-dir${format === 'jsonl' ? ' and --format jsonl' : ''} needs --cache-mb ${minCacheMbForThreads(threads, format)} or more (each worker thread's own memory is paid from it), got ${cacheMb}`);
  }
  const fromLog = values.log;
  const logFields = logFieldValues(values['log-field']);

  if (values.usage !== undefined) {
    if (!isUsageCategory(values.usage)) throw usageError(`--usage must name a category such as train-ai or search (a lower-case key), got '${values.usage}'`);
    const robots = await loadRobotsInput(robotsFile as string, reading, stderr);
    const { runUsageCheck } = await import('../node/check/index.js');
    const started = values.stats ? performance.now() : 0;
    try {
      const asked = agentsRead(robots, agents, values['as-crawler'], stderr);
      const outcome = await runUsageCheck(positionals[0], asked === null ? ALLOW_ALL.matcher('*') : robots.matcher(asked), robots.usagePolicy(asked ?? agents), values.usage, format, stdout as NodeJS.WritableStream & import('node:stream').Writable);
      if (values.stats) stderr(`robotstxt: stats: ${outcome.lines} lines in ${((performance.now() - started) / 1000).toFixed(3)} s, threads 1, peak memory ${peakMemoryMiB().toFixed(1)} MiB\n`);
    } finally {
      robots.close();
    }
    return 0;
  }

  const target: CheckPlan['target'] = robotsFile !== undefined
    ? { kind: 'robots', matcher: matcherRead(await loadRobotsInput(robotsFile, reading, stderr), agents, values['as-crawler'], stderr) }
    : { kind: 'hosts', spec: { directory: robotsDir as string, pack: packFile ?? null, agents, mode, maxBytes, cacheBytes: cacheMb * 1048576, missing, noHost, now: clockOption(values.now).start } };
  const started = values.stats ? performance.now() : 0; // perf_hooks loads on first use: only for --stats
  // many hosts: windows grouped by host are filled whatever the size of the input's reads (one robots.txt:
  // each line answered as soon as the producer stops writing)
  const reader = await LineReader.open(positionals[0], 'URL file', { fillsWindows: target.kind === 'hosts' });
  const plan: CheckPlan = { target, threads, format, only: only ?? 'all', log: fromLog ? { defaultHost: values.host ?? null, reader: new (await import('../node/logs/index.js')).LogLineReader({ fields: logFields }) } : null, inputBytes: reader.knownSize, hostsThreadsPace: hostsThreadsPaceOf(process.env) };
  let cache: RobotsCache | null = null;
  if (fetching) {
    // bodies in memory only while they are compiled: the matcher keeps the compiled form
    const options = fetchCacheOptions(values, reading);
    // the HTTP client is loaded only when a run fetches (start-up stays at node's floor otherwise)
    const { RobotsCache: Cache } = await import('../node/fetch/index.js');
    cache = new Cache({ ...options, store: robotsDir as string, memoryBytes: 8 << 20 });
    plan.hostSource = { source: cache.hostSource(), concurrency: options.concurrency ?? 32 };
  }
  let outcome: CheckOutcome;
  try {
    outcome = await checkInput(reader, plan, stdout as NodeJS.WritableStream & import('node:stream').Writable, warnings(stderr));
  } catch (error) {
    // a pack's compiled rules are matched as they are: a pack the core cannot match (edited with its
    // checksums made again, or written by other software) is named, never taken for a fault of the input
    if (packFile !== undefined && error instanceof RobotsError && error.code === 'WASM_TRAP') throw new RobotsError('PACK_INVALID', `'${terminalSafe(packFile)}' holds compiled rules the core cannot match (${error.message}): rebuild it with robotstxt pack`);
    throw error;
  } finally {
    await reader.close();
    await cache?.close();
  }
  if (cache !== null) {
    const { fromStore } = cache.stats;
    stderr(`robotstxt: robots.txt: ${storeSummary(cache.stats, fromStore)}\n`);
  }
  if (outcome.malformed > 0 && outcome.malformed === outcome.lines) {
    // no line was a request: the input is no access log (a binary file, another format), never an empty answer with exit 0
    throw new RobotsError('USAGE', `not an access log: none of the ${outcome.lines} line(s) of ${positionals[0] === undefined || positionals[0] === '-' ? 'standard input' : terminalSafe(positionals[0])} is a request line of a format check --log reads (see robotstxt check --help)`);
  }
  if (outcome.malformed > 0) stderr(`robotstxt: ${outcome.malformed} of ${outcome.lines} input lines were not access log lines\n`);
  if ((outcome.hosts?.cutBodies ?? 0) > 0) {
    // the files named (their origins), not compiles counted: a host compiled again is one file
    const named = outcome.cutOrigins.length > 0 ? `${outcome.cutOrigins.map(terminalSafe).join(', ')}${outcome.cutOrigins.length >= 5 ? ' and maybe more' : ''}` : 'files read by the worker threads';
    stderr(`robotstxt: warning: robots.txt longer than ${maxBytes} bytes, read only up to there (--max-bytes, as Google's crawler reads files): ${named}; --max-bytes 0 reads files whole, as robotstxt test does\n`);
  }
  if (outcome.noHostLines > 0) {
    stderr(`robotstxt: ${outcome.noHostLines} line(s) named no host (${listed('line', outcome.noHostExamples, outcome.noHostLines)}): answered as ${String(noHost)}ed (--no-host ${String(noHost)}; URLs need http:// or https:// and a host)\n`);
  }
  const missingHosts = outcome.hosts?.missing ?? 0;
  if (missingHosts > 0) {
    const names = outcome.missingOrigins.length > 0 ? ` (${listed('', outcome.missingOrigins, missingHosts)})` : '';
    if (packFile !== undefined) stderr(`robotstxt: ${missingHosts} origin(s) have no entry in the pack ${terminalSafe(packFile)}${terminalSafe(names)}: their URLs were answered as ${String(missing)}ed (--missing ${String(missing)}${missing === 'allow' ? '; --missing disallow or error for hosts whose rules must be known' : ''})\n`);
    else if (storeDir !== undefined) stderr(`robotstxt: ${missingHosts} origin(s) have no record in the store, never fetched${names}: their URLs were answered as ${String(missing)}ed (--missing ${String(missing)}; fetch them first with robotstxt fetch --store, or add --fetch)\n`);
    else stderr(`robotstxt: ${missingHosts} host(s) have no robots.txt file in ${terminalSafe(robotsDir as string)}${terminalSafe(names)}: their URLs were answered as ${String(missing)}ed (--missing ${String(missing)}${missing === 'allow' ? '; --missing disallow or error for hosts whose rules must be known' : ''})\n`);
  }
  if (given.has('threads') && outcome.fewerThreads !== null) stderr(`robotstxt: --threads ${threads}: 1 thread ran, as ${outcome.fewerThreads}\n`);
  if (values.stats) stderr(statsLine(outcome, (performance.now() - started) / 1000, cacheMb, packFile !== undefined));
  return 0;
}

/** A file with no rules: the answer for agents that no group applies to (AdsBot read as its crawler, with no group of its own). */
const ALLOW_ALL = parseRobots('');

/**
 * The agents a file is asked for, in the reading asked (asCrawler: as each crawler behaves; else the product
 * tokens given, as the reference), saying on stderr where the two readings differ for this file. Returns the
 * agents to ask (the given ones when the readings agree or the token reading is asked), or null when no group
 * applies to any of them (every URL allowed). Once per run.
 */
function agentsRead(robots: RobotsTxt, agents: string[], asCrawler: boolean, stderr: (text: string) => void): string[] | null {
  const names = (token: string): boolean => robots.names(token);
  for (const agent of agents) {
    const crawler = agentsAsCrawlers([agent], names);
    if (crawler.length === 1 && asciiLowerCase(crawler[0]) === asciiLowerCase(agent)) continue;
    const asItBehaves = crawler.length === 0 ? 'no group (it ignores *): every URL allowed'
      : productToken(agent) === crawler[0] ? `the ${crawler[0]} group (its name's product token, as the file's user-agent lines are read)` : `the ${crawler[0]} group (it has none of its own)`;
    const asToken = names(agent) ? `its own group` : 'the * group';
    // Google's family fallbacks and AdsBot are Google's crawlers; a name like MJ12bot is read by its product token
    const crawlerWord = productToken(agent) === agent ? 'Google\'s crawler' : 'the crawler';
    stderr(asCrawler
      ? `robotstxt: ${terminalSafe(agent)}: answered as ${crawlerWord} behaves (--as-crawler): ${asItBehaves}; as its product token (the reference) it would get ${asToken}\n`
      : `robotstxt: ${terminalSafe(agent)}: answered as its product token, as the reference does: ${asToken}; ${crawlerWord} follows ${asItBehaves} (--as-crawler answers so)\n`);
  }
  if (!asCrawler) return agents;
  const asked = agentsAsCrawlers(agents, names);
  return asked.length === 0 ? null : asked;
}

/** The matcher of a file for agents in the reading asked (see agentsRead). */
function matcherRead(robots: RobotsTxt, agents: string[], asCrawler: boolean, stderr: (text: string) => void): RobotsMatcher {
  const asked = agentsRead(robots, agents, asCrawler, stderr);
  return asked === null ? ALLOW_ALL.matcher('*') : robots.matcher(asked);
}

/** The first few of many, for a summary line: `line 3, 8 and 9 more` style, `noun` before the first ('' for none). */
function listed(noun: string, first: readonly (number | string)[], total: number): string {
  const more = total - first.length;
  const head = first.length === 0 ? '' : `${noun === '' ? '' : `${noun}${first.length > 1 ? 's' : ''} `}${first.join(', ')}`;
  return more > 0 ? `${head}${head === '' ? '' : ' and '}${more} more` : head;
}

/** The --stats line: what ran, how fast, how much memory. */
function statsLine(outcome: CheckOutcome, seconds: number, cacheMb: number, packed: boolean): string {
  const rate = (outcome.lines / seconds / 1e6).toFixed(2);
  let text = `robotstxt: stats: ${outcome.lines} lines in ${seconds.toFixed(3)} s (${rate} M lines/s), threads ${outcome.threadsUsed}, peak memory ${peakMemoryMiB().toFixed(1)} MiB`;
  if (outcome.threadsUsed > 1) text += ` (${outcome.chunksInWorkers} of ${outcome.chunks} chunks${outcome.hosts !== null ? ' split by host' : ''} in workers)`;
  if (outcome.hosts !== null) {
    const hosts = outcome.hosts;
    const stored = hosts.allowAll + hosts.disallowAll > 0 ? `, ${hosts.allowAll} allow-all and ${hosts.disallowAll} disallow-all by stored outcome` : '';
    text += `; hosts: ${hosts.compiled} compiled, ${hosts.direct} answered from their file, ${packed ? `${hosts.packed} from the pack, ` : ''}${hosts.missing} without robots.txt${stored}, ${hosts.evicted} evicted, ${hosts.cachedHosts} cached in ${(hosts.cacheBytes / 1048576).toFixed(1)} of ${cacheMb} MiB, ${outcome.chunks} window(s) of up to ${outcome.windowBytes / 1048576} MiB`;
  }
  if (outcome.recomputed > 0) text += `; ${outcome.recomputed} batch(es) answered again here after a worker failed`;
  return text + '\n';
}


