// robotstxt check's plan: what a run will do, made from its parsed values alone (no file opened, nothing read):
// which rules answer (one file, a folder, a store, a pack), the threads, the output, the log reading, the usage
// column. Every combination the options cannot make is refused here, with the flag named. The handler
// (check-command.ts) opens what the plan names and runs it; test/check-plan.test.ts tests the plan.
import type { OptionValues, ParsedCommand } from './command-spec.js';
import { usageError } from './command-spec.js';
import { agentValues, logFieldValues, readingOf, readingGivenOf } from './shared-options.js';
import { isUsageCategory } from '../core/usage.js';
import type { RobotsReading } from '../core/robots.js';
import type { LogFieldNames } from '../core/log-fields.js';
import { minCacheMbForThreads } from '../node/check/index.js';
import { fetchCacheOptions } from './fetch-options.js';
import type { CHECK_SPEC } from './check-command.js';

/** check's parsed values. */
export type CheckValues = OptionValues<(typeof CHECK_SPEC)['options']>;

/** Where a run's rules come from. */
export type CheckRules =
  | { kind: 'file'; path: string }
  | { kind: 'hosts'; directory: string; store: boolean; pack: string | null; fetch: ReturnType<typeof fetchCacheOptions> | null };

/** What one run of check does, read off its options. */
export interface CheckCommandPlan {
  agents: string[];
  rules: CheckRules;
  /** The reading of files (a pack's own reading replaces it when the pack is opened: readingGiven says which of --mode and --max-bytes were given). */
  reading: RobotsReading;
  readingGiven: Set<string>;
  /** The URL file, or null for standard input. */
  input: string | null;
  threads: number;
  /** --threads given: a run that ran fewer says so. */
  threadsGiven: boolean;
  format: CheckValues['format'];
  only: NonNullable<CheckValues['only']> | 'all';
  missing: CheckValues['missing'];
  noHost: 'allow' | 'disallow' | 'error';
  cacheMb: number;
  /** With --log: the default host of lines that name none, and the JSON log keys. */
  log: { defaultHost: string | null; fields: LogFieldNames } | null;
  /** With --usage: the category whose column is added. */
  usage: string | null;
  asCrawler: boolean;
  stats: boolean;
  /** --now: the time stored records are judged at (ms). */
  now: CheckValues['now'];
  /** ROBOTSTXT_HOSTS_THREADS_AFTER_MS, checked (null: the default). */
  hostsThreadsAfterMs: number | null;
}

/**
 * The plan of a check run from its parsed arguments and environment. Pure: it opens nothing, so every refusal
 * comes before any output. Once per run.
 */
export function planCheck(parsed: ParsedCommand<(typeof CHECK_SPEC)['options']>, env: NodeJS.ProcessEnv): CheckCommandPlan {
  const { values, given, positionals } = parsed;
  const input = positionals[0] === undefined || positionals[0] === '-' ? null : positionals[0];
  if (values.robots === '-' && input === null) throw usageError('--robots - reads the robots.txt from standard input: give the URLs as a file (standard input can be read once)');
  if (values.fetch && given.has('threads') && values.threads !== 1) throw usageError('--fetch runs in one thread (--threads 1)');
  const reading = readingOf(values);
  // bodies in memory only while they are compiled: the matcher keeps the compiled form
  const fetch = values.fetch ? fetchCacheOptions(values, reading) : null;
  const pack = values.pack ?? null;
  const directory = values['robots-dir'] ?? values.store ?? (pack !== null ? '' : undefined);
  const rules: CheckRules = values.robots !== undefined ? { kind: 'file', path: values.robots } : { kind: 'hosts', directory: directory as string, store: values.store !== undefined, pack, fetch };
  const missing = values.missing;
  // one thread by default with a robots directory, where a second thread was measured slower on the
  // development machine (many-host work is bound by memory latency there, and the cache is split between
  // the threads: see bench/RESULTS.md); --threads N asks for them
  // --usage's column is answered on this thread (its help says one thread)
  const usage = values.usage ?? null;
  const threads = usage !== null ? 1 : given.has('threads') || rules.kind === 'file' ? values.threads : 1;
  const format = values.format;
  const cacheMb = values['cache-mb'];
  if (rules.kind === 'hosts' && threads > 1 && cacheMb < minCacheMbForThreads(threads, format)) {
    throw usageError(`--threads ${threads} with --robots-dir${format === 'jsonl' ? ' and --format jsonl' : ''} needs --cache-mb ${minCacheMbForThreads(threads, format)} or more (each worker thread's own memory is paid from it), got ${cacheMb}`);
  }
  if (usage !== null && !isUsageCategory(usage)) throw usageError(`--usage must name a category such as train-ai or search (a lower-case key), got '${usage}'`);
  return {
    agents: agentValues(values.agent),
    rules,
    reading,
    readingGiven: readingGivenOf(given),
    input,
    threads,
    threadsGiven: given.has('threads'),
    format,
    only: values.only ?? 'all',
    missing,
    noHost: values['no-host'] ?? (missing === 'error' ? 'allow' : missing),
    cacheMb,
    log: values.log ? { defaultHost: values.host ?? null, fields: logFieldValues(values['log-field']) } : null,
    usage,
    asCrawler: values['as-crawler'],
    stats: values.stats,
    now: values.now,
    hostsThreadsAfterMs: hostsThreadsAfterMs(env),
  };
}

/**
 * ROBOTSTXT_HOSTS_THREADS_AFTER_MS: with --robots-dir and --threads N, the work to come (ms, at the pace one
 * thread has answered so far) after which workers start (null: HOSTS_THREADS_AFTER_MS; 0: at once, as tests
 * and users who know their run is long want). A value that is not a whole number of milliseconds up to an
 * hour is a usage error naming the variable.
 */
function hostsThreadsAfterMs(env: NodeJS.ProcessEnv): number | null {
  const text = env.ROBOTSTXT_HOSTS_THREADS_AFTER_MS;
  if (text === undefined || text === '') return null;
  const ms = Number(text);
  if (!/^\d+$/.test(text) || ms > 3_600_000) throw usageError(`ROBOTSTXT_HOSTS_THREADS_AFTER_MS must be a whole number of milliseconds from 0 to 3600000, got ${JSON.stringify(text.slice(0, 40))}`);
  return ms;
}
