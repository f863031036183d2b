// robotstxt check: one verdict line per input URL line, streamed, in order, none dropped. The options and the
// handler; the plan (check-plan.ts) and what is said on stderr (check-notes.ts) live beside it.
import type { Writable } from 'node:stream';
import { openedPack } from './pack-option.js';
import { availableParallelism } from 'node:os';
import { DEFAULT_CACHE_BYTES, MAX_CACHE_BYTES } from '../core/constants.js';
import { maxThreads } from '../node/threads/index.js';
import { loadRobotsInput, terminalSafe, warnAboutAgents, warnings } from './common.js';
import { RobotsError } from '../core/errors.js';
import { parseCommand, type Command, type CommandSpec, type OptionTable } from './command-spec.js';
import { AGENT_OPTION, MODE_OPTION, MAX_BYTES_OPTION, LOG_FIELD_OPTION, LOG_FORMATS_HELP, requires } from './shared-options.js';
import { LineReader } from '../node/logs/index.js';
import { runCheck as checkInput, type CheckPlan, type CheckOutcome } from '../node/check/index.js';
import { minCacheMbForThreads, workerOverheadMb, hostsWindowBytes, HostsThreadsPace, HOSTS_THREADS_AFTER_MS } from '../node/check/index.js';
import { FETCHING_OPTIONS, FETCH_SECTION, clockOption, storeSummary } from './fetch-options.js';
import type { RobotsCache } from '../node/fetch/index.js';
import type { RobotsTxt } from '../core/robots.js';
import { requireDirectory } from '../node/robots-file.js';
import { planCheck } from './check-plan.js';
import { agentReadings, matcherFor, outcomeNotes, statsLine } from './check-notes.js';

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
read again when met again. A pack whose rules for the agent (the agent's
compiled rules of each body) and index fit in half of it
has them held, read once when the run starts (one agent in the pack's mode).
Input is answered in windows of 1/8 of the cache
(8 MiB by default; 1/32 with jsonl; 2 to 16 MiB, 1 to 16 MiB for jsonl with
workers; no larger than an input file needs), its lines grouped by host (with --threads 1, an input larger than a
window starts with 1 MiB windows, kept while it comes sorted by host; a gzip
file of 4 MiB or more is inflated a window ahead on a thread of its own, that
window paid from the cache too): a host with up to 64 lines is answered
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
export const COMMAND: Command = { spec: CHECK_SPEC, run: (args, io) => runCheck(args, io.stdout, io.err), streams: () => true, lineFilter: true };

/** robotstxt check: the plan (check-plan.ts), the rules and input it names opened, one run of the library's check, the notes. Once per run. */
export async function runCheck(args: string[], stdout: NodeJS.WritableStream, stderr: (text: string) => void): Promise<number> {
  const plan = planCheck(parseCommand(CHECK_SPEC, args), process.env);
  const { agents, rules } = plan;
  warnAboutAgents(agents, stderr);
  const output = stdout as NodeJS.WritableStream & Writable;
  // a pack is opened (its header and index checked) first: its reading is the run's; kept open: the matcher of
  // this thread reads the same, once, and checks its data whole before any output (as it holds them, or when it
  // opens: src/node/pack/source.ts packSourceForSpec)
  const reading = rules.kind === 'hosts' && rules.pack !== null ? (await openedPack(rules.pack, plan.reading, plan.readingGiven, { dataCheckOwed: true })).reading : plan.reading;
  if (rules.kind === 'hosts' && rules.fetch !== null) new (await import('../node/store/index.js')).RobotsStore(rules.directory); // made when missing
  if (rules.kind === 'hosts' && rules.pack === null) requireDirectory(rules.directory, rules.store ? 'storeDirectory' : 'robotsDirectory');
  const started = plan.stats ? performance.now() : 0; // perf_hooks loads on first use: only for --stats
  // one robots.txt: read once, and each agent's reading against it said (the crawl verdicts and --usage's column)
  let file: RobotsTxt | null = null;
  let target: CheckPlan['target'];
  if (rules.kind === 'file') {
    file = await loadRobotsInput(rules.path, reading, stderr);
    const readings = agentReadings(file, agents, plan.asCrawler);
    readings.notes.forEach(stderr);
    target = { kind: 'robots', matcher: matcherFor(file, readings.asked), usage: plan.usage === null ? null : { policy: file.usagePolicy(readings.asked ?? agents), category: plan.usage } };
  } else {
    target = { kind: 'hosts', spec: { directory: rules.directory, pack: rules.pack, agents, reading, cacheBytes: plan.cacheMb * 1048576, missing: plan.missing, noHost: plan.noHost, now: clockOption(plan.now).start } };
  }
  // many hosts: windows grouped by host are filled whatever the size of the input's reads (one robots.txt:
  // each line answered as soon as the producer stops writing)
  const reader = await LineReader.open(plan.input ?? undefined, 'URL file', target.kind === 'hosts' ? { fillsWindows: true, windowBytes: hostsWindowBytes(target.spec.cacheBytes, plan.format) } : {});
  const run: CheckPlan = {
    target, threads: plan.threads, format: plan.format, only: plan.only, inputBytes: reader.knownSize, inputAheadBytes: reader.aheadBytes,
    log: plan.log === null ? null : { defaultHost: plan.log.defaultHost, reader: new (await import('../node/logs/index.js')).LogLineReader({ fields: plan.log.fields }) },
    hostsThreadsPace: new HostsThreadsPace(plan.hostsThreadsAfterMs ?? HOSTS_THREADS_AFTER_MS),
  };
  let cache: RobotsCache | null = null;
  if (rules.kind === 'hosts' && rules.fetch !== null) {
    // the HTTP client is loaded only when a run fetches (start-up stays at node's floor otherwise)
    cache = new (await import('../node/fetch/index.js')).RobotsCache({ ...rules.fetch, store: rules.directory, memoryBytes: 8 << 20 });
    run.hostSource = { source: cache.hostSource(), concurrency: rules.fetch.concurrency ?? 32 };
  }
  let outcome: CheckOutcome;
  try {
    outcome = await checkInput(reader, run, output, warnings(stderr));
  } catch (error) {
    // a pack's compiled rules are matched as they are: a pack the core cannot match (edited with its
    // checksums made again, or written by other software) is named, never taken for a fault of the input
    if (rules.kind === 'hosts' && rules.pack !== null && error instanceof RobotsError && error.code === 'WASM_TRAP') throw new RobotsError('PACK_INVALID', `'${terminalSafe(rules.pack)}' holds compiled rules the core cannot match (${error.message}): rebuild it with robotstxt pack`);
    throw error;
  } finally {
    await reader.close();
    await cache?.close();
    file?.close();
  }
  if (cache !== null) stderr(`robotstxt: robots.txt: ${storeSummary(cache.stats, cache.stats.fromStore)}\n`);
  if (outcome.malformed > 0 && outcome.malformed === outcome.lines) {
    // no line was a request: the input is no access log (a binary file, another format), never an empty answer with exit 0
    throw new RobotsError('USAGE', `not an access log: none of the ${outcome.lines} line(s) of ${plan.input === null ? 'standard input' : terminalSafe(plan.input)} is a request line of a format check --log reads (see robotstxt check --help)`);
  }
  outcomeNotes(outcome, plan, reading.maxBytes).forEach(stderr);
  if (plan.stats) stderr(statsLine(outcome, (performance.now() - started) / 1000, plan));
  return 0;
}
