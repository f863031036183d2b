// robotstxt check as a library: one loop for every mode.
//   input chunks (a LineChunkSource) -> URL lines (as read, or the request targets of access log lines)
//   -> a ChunkAnswerer (this thread, a worker pool, or host shards: answerers.ts)
//   -> one InOrderWriter (output in input order, in-order-writer.ts).
// Threads: workers start only once the input proves long enough (budget.ts). With one robots.txt: a file of
// at least WORKERS_AFTER_BYTES, or that many bytes read from a pipe; any worker takes any chunk once workers
// are ready, and this thread answers chunks itself until then and whenever every worker is busy. With a
// robots directory: once the work to come, at the pace this thread has answered alone, is long enough
// (HostsThreadsPace); every window after that is split into buckets of hosts, and each thread, with its own
// cache, takes buckets as it gets free: first those it answered before, then another's (answerers.ts), so
// that a worker still starting leaves its share to this thread instead of making it wait. Workers whose
// windows come no faster than this thread's alone are let go, and this thread answers the rest.
import type { Writable } from 'node:stream';
import { countLines } from '../core-node.js';
import { CHUNK_BYTES } from '../logs/index.js';
import type { RobotsMatcher, OutputFilter } from '../../core/matcher.js';
import type { MultiHostMatcher } from '../hosts/index.js';
import type { RobotsSource } from '../hosts/index.js';
import type { HostsSpec, OutputFormat, RobotsPool, SharedSlot, SharedSlotRing } from '../threads/index.js';
import type { LogLineReader } from '../logs/index.js';
import { WORKERS_AFTER_BYTES, HOSTS_THREADS_AFTER_MS, HostsThreadsPace, hostsCacheShare, hostsMatcherBudget, hostsWindowBytes, HOSTS_FIRST_WINDOW_BYTES } from './budget.js';
import { ThisThreadAnswerer, RobotsWorkersAnswerer, HostShardsAnswerer, type AnswerCounts, type AnswerSpec, type ChunkAnswer, type ChunkJob } from './answerers.js';
import { InOrderWriter } from './in-order-writer.js';
import { sumCounters, type HostCounters } from '../threads/index.js';
import { NO_HOST_LINES_NAMED } from '../../core/constants.js';
import { RobotsError } from '../../core/errors.js';
import { UsageColumn, type UsageColumnSpec } from './usage-column.js';

/** Where check reads its input: whole-line chunks written into a buffer it is given (LineReader). */
export interface LineChunkSource {
  /** The next chunk (a view of target, or of a buffer of the source's own when a line is longer), or null at the end. */
  next(target: Uint8Array): Promise<Uint8Array | null>;
  /** True once the chunk given last is known to be the last (the input ended while it was read); optional. */
  readonly atEnd?: boolean;
}

/** What check answers, how, and with how many threads at most. */
export interface CheckPlan {
  /** One robots.txt's matcher (with usage: each line's usage verdict beside its crawl verdict, on this thread, every line, text or jsonl, no log), or many hosts. */
  target: { kind: 'robots'; matcher: RobotsMatcher; usage?: UsageColumnSpec | null } | { kind: 'hosts'; spec: HostsSpec };
  /** Threads at most (this one included); 1: no workers. */
  threads: number;
  format: OutputFormat;
  /** Which lines the output keeps (--only). */
  only: OutputFilter;
  /** Input lines are access log lines, read by reader; defaultHost: the host of requests whose line names none (--host). */
  log: { defaultHost: string | null; reader: LogLineReader } | null;
  /** Size of the input when it is a regular file (workers may start at once), else null. */
  inputBytes: number | null;
  /** Bytes the input's reader holds ahead of what it hands out (a large gzip file's inflated bytes: LineReader.aheadBytes); many hosts pay them from the cache, as the window's buffer. */
  inputAheadBytes?: number;
  /** Robots directory: where this thread gets bodies instead of the directory (check --fetch), and how many at once. */
  hostSource?: { source: RobotsSource; concurrency: number };
  /** Bytes of input answered at once with one robots.txt (default CHUNK_BYTES, 1 MiB; tests use less). */
  chunkBytes?: number;
  /** The worker module (default: this package's; tests pass one that fails on purpose). */
  workerUrl?: URL;
  /** Robots directory with threads: when workers start and whether they stay (default: new HostsThreadsPace(); its afterMs 0 starts them at once). */
  hostsThreadsPace?: HostsThreadsPace;
}

/** What ran: for --stats and the notes on stderr. */
export interface CheckOutcome {
  /** Input lines read. */
  lines: number;
  /** Threads that answered chunks (1 when workers never started or were not needed). */
  threadsUsed: number;
  /** Why fewer threads ran than the plan allowed (plan.threads above 1, one thread ran), or null: see FewerThreads. */
  fewerThreads: FewerThreads | null;
  chunks: number;
  /** Chunks (or shards) answered by workers. */
  chunksInWorkers: number;
  /** Chunks answered again on this thread after a worker failed. */
  recomputed: number;
  /** Log lines that were not access log lines with a request target. */
  malformed: number;
  /** Lines that named no host (robots directory), and the input line numbers of the first of them. */
  noHostLines: number;
  noHostExamples: number[];
  /** Robots directory: host counters summed over the threads. */
  hosts: HostCounters | null;
  /** Robots directory: the first origins this thread found no robots.txt for (at most 5; workers' are counted, not named). */
  missingOrigins: string[];
  /** The first origins whose robots.txt was read in part (longer than maxBytes), as this thread met them. */
  cutOrigins: string[];
  /** The largest window input was read into (one robots.txt: the chunk size). */
  windowBytes: number;
}

/**
 * Why one thread ran where more were allowed: one robots.txt whose input ended before workers pay for themselves
 * (inputBytes read, workersAfterBytes the threshold), or many hosts whose work to come never looked longer than
 * afterMs at this thread's pace.
 */
export type FewerThreads = { kind: 'inputEnded'; inputBytes: number; workersAfterBytes: number } | { kind: 'workNeverLong'; afterMs: number };

/** Lines that are not log lines: this many are named on stderr, the rest only counted. */
const MAX_REPORTED_LOG_ERRORS = 20;
/** The step a window sized to a known input is rounded up to (see Answerers.hostsWindow). */
const INPUT_WINDOW_STEP = 65536;

/** The answerers of one run: this thread's from the start, the workers' once started. */
class Answerers {
  readonly here: ThisThreadAnswerer;
  robotsWorkers: RobotsWorkersAnswerer | null = null;
  shards: HostShardsAnswerer | null = null;
  /** One robots.txt with workers: the shared slots chunks are read into, which workers read in place. */
  ring: SharedSlotRing | null = null;
  readonly counts: AnswerCounts = { chunksInWorkers: 0, recomputed: 0, noHostLines: 0 };
  readonly workerCount: number;
  /** This thread's share of --cache-mb (many hosts: all of it until workers start) and its window (changes with it). */
  private cacheShare: number;
  windowBytes: number;
  /** Many hosts with workers allowed: when they start and whether they stay. */
  readonly pace: HostsThreadsPace | null;
  /** Many-host workers were let go (they do not start again). */
  private workersLetGo = false;
  /** Chunks in flight: enough to keep every thread busy (each costs its input and output in memory); a robots-directory window is split between all threads, so two of them keep every thread busy. */
  readonly chunksInFlight: number;
  /** What every answerer of the run answers. */
  private readonly answerSpec: AnswerSpec;

  constructor(private readonly plan: CheckPlan, private readonly hosts: MultiHostMatcher | null) {
    const spec = plan.target.kind === 'hosts' ? plan.target.spec : null;
    const usage = plan.target.kind === 'robots' ? plan.target.usage ?? null : null;
    // the usage column is answered on this thread (a worker answers verdicts alone)
    this.workerCount = usage !== null ? 0 : plan.threads - 1;
    // --cache-mb bounds the whole run's memory for hosts: each worker's own memory (see workerOverheadMb) is
    // paid from it and the rest is shared evenly by the threads; the window follows one thread's share (every
    // window in flight is held as input, shards and output at once)
    // until workers start (many hosts: if they ever do), this thread has the whole budget and one thread's
    // window, less the window it reads into
    this.cacheShare = spec === null ? 0 : spec.cacheBytes;
    this.windowBytes = spec !== null ? this.hostsWindow(this.cacheShare, 1) : plan.chunkBytes ?? CHUNK_BYTES;
    this.pace = spec !== null && this.workerCount >= 1 ? plan.hostsThreadsPace ?? new HostsThreadsPace() : null;
    this.chunksInFlight = spec !== null ? 2 : Math.max(2, plan.threads * 2);
    if (spec !== null && hosts !== null) hosts.setBudget(this.hostsBudget(spec.cacheBytes));
    this.answerSpec = { format: plan.format, only: plan.only };
    this.here = new ThisThreadAnswerer(plan.target.kind === 'robots' ? { matcher: plan.target.matcher, usage: usage === null ? null : new UsageColumn(usage) } : { hosts: hosts as MultiHostMatcher }, this.answerSpec, this.counts, this.windowBytes);
  }

  /** Starts the worker threads (once; a plan of one thread has none). Many hosts: each thread's share of the cache, and windows to match. */
  async startWorkers(): Promise<void> {
    const { plan } = this;
    if (this.workerCount < 1 || this.robotsWorkers !== null || this.shards !== null || this.workersLetGo) return;
    const pools = await import('../threads/index.js'); // worker threads: loaded only when they start
    const { answerSpec } = this;
    if (plan.target.kind === 'hosts') {
      const spec = plan.target.spec;
      const hosts = this.hosts as MultiHostMatcher;
      // --cache-mb bounds the whole run's memory for hosts: each worker's own memory (see workerOverheadMb) is
      // paid from it and the rest is shared evenly by the threads; the window follows one thread's share
      // (every window in flight is held as input, shards and output at once)
      this.cacheShare = hostsCacheShare(spec.cacheBytes, plan.threads, plan.format);
      this.windowBytes = this.hostsWindow(this.cacheShare, plan.threads);
      this.shards = new HostShardsAnswerer(new pools.HostShardPool(this.workerCount, { ...spec, cacheBytes: this.cacheShare }, plan.workerUrl), hosts, answerSpec, this.counts);
      hosts.setBudget(this.hostsBudget(this.cacheShare));
    } else {
      const pool: RobotsPool = new pools.RobotsPool({ threads: this.workerCount, workerUrl: plan.workerUrl });
      this.ring = new pools.SharedSlotRing(this.chunksInFlight + 2, this.windowBytes, plan.format);
      this.robotsWorkers = new RobotsWorkersAnswerer(pool, plan.target.matcher, answerSpec, this.counts, this.here);
    }
  }

  /** Many hosts: this thread's cache now (hosts evicted, bytes held) and what the threads' shares would hold together once workers start. */
  cacheOutlook(): { evicted: number; heldBytes: number; sharedBytes: number } | null {
    const { plan } = this;
    if (this.hosts === null || plan.target.kind !== 'hosts') return null;
    const stats = this.hosts.stats;
    return { evicted: stats.evicted, heldBytes: stats.cacheBytes, sharedBytes: plan.threads * hostsCacheShare(plan.target.spec.cacheBytes, plan.threads, plan.format) };
  }

  /** Lets many-host workers go (their windows came no faster): this thread answers the rest alone, with the whole cache. Every answer given to them is written first. */
  async letWorkersGo(): Promise<void> {
    const { plan } = this;
    if (this.shards === null || plan.target.kind !== 'hosts') return;
    await this.shards.close();
    this.shards = null;
    this.workersLetGo = true;
    this.cacheShare = plan.target.spec.cacheBytes;
    this.windowBytes = this.hostsWindow(this.cacheShare, 1);
    (this.hosts as MultiHostMatcher).setBudget(this.hostsBudget(this.cacheShare));
  }

  /**
   * Many hosts: the window of a thread's share of the cache (hostsWindowBytes), no larger than an input known
   * to be smaller needs (its size and a byte, in 64 KiB steps). The window's buffer and its output's are made
   * at once, and a 0.5 MB file's took 36 MiB that cost collections (the engine counts them whole) it never used.
   */
  private hostsWindow(cacheShare: number, threads: number): number {
    const window = hostsWindowBytes(cacheShare, this.plan.format, threads);
    const inputBytes = this.plan.inputBytes;
    return inputBytes === null ? window : Math.min(window, Math.ceil((inputBytes + 1) / INPUT_WINDOW_STEP) * INPUT_WINDOW_STEP);
  }

  /** This thread's many-host budget from its share of the cache: less the window it reads into and what the input's reader holds ahead of it (both held while the window is answered). */
  private hostsBudget(cacheShare: number): number {
    return hostsMatcherBudget(cacheShare, this.windowBytes + (this.plan.inputAheadBytes ?? 0));
  }

  /** Who answers this chunk: a free worker, the host shards once started, else this thread. */
  pick(job: ChunkJob): RobotsWorkersAnswerer | HostShardsAnswerer | ThisThreadAnswerer {
    if (job.slot !== null && this.robotsWorkers?.hasFreeWorker === true) return this.robotsWorkers;
    return this.shards ?? this.here;
  }

  async close(): Promise<void> {
    await (this.robotsWorkers ?? this.shards)?.close();
  }
}

/**
 * Answers every line of input and writes the answers to output in input order (text or jsonl, or nothing);
 * lines that are not access log lines (with plan.log) are told to `warn`, a sentence each. Called once per run by
 * the command line; a caller filtering URL dumps may call it the same way.
 */
export async function runCheck(input: LineChunkSource, plan: CheckPlan, output: Writable, warn: (sentence: string) => void): Promise<CheckOutcome> {
  const outcome: CheckOutcome = { lines: 0, threadsUsed: 1, fewerThreads: null, chunks: 0, chunksInWorkers: 0, recomputed: 0, malformed: 0, noHostLines: 0, noHostExamples: [], hosts: null, windowBytes: 0, missingOrigins: [], cutOrigins: [] };
  const spec = plan.target.kind === 'hosts' ? plan.target.spec : null;
  if (plan.target.kind === 'robots' && plan.target.usage != null && (plan.format === 'none' || plan.only !== 'all' || plan.log !== null)) {
    throw RobotsError.about('INVALID_ARGUMENT', { name: 'usage' }, (option) => `${option} answers every line of a URL list in text or jsonl (no filter, no log lines)`);
  }
  // the many-host matcher and the log reader are loaded only when used (check's start-up stays at node's)
  const hostsModule = spec !== null ? await import('../hosts/index.js') : null;
  const packed = spec?.pack ? (await import('../pack/index.js')).packSourceForSpec(spec) : null;
  const hosts = hostsModule !== null && spec !== null ? hostsModule.matcherForSpec(spec, plan.hostSource?.source ?? packed, plan.hostSource?.concurrency) : null;
  const logModule = plan.log !== null ? await import('../logs/index.js') : null;
  const defaultHost = plan.log?.defaultHost ?? null;
  const answerers = new Answerers(plan, hosts);
  // lines naming no host, by input line number (a log line's own number), named before their chunk is written
  const numbersOfChunks = new Map<number, Uint32Array>();
  let writtenChunks = 0;
  const writer = new InOrderWriter(output, answerers.chunksInFlight, (answer, linesBefore) => {
    const numbers = numbersOfChunks.get(writtenChunks);
    numbersOfChunks.delete(writtenChunks++);
    if (answer.noHost === undefined || answer.noHost.lines === 0) return;
    for (const index of answer.noHost.examples) {
      if (outcome.noHostExamples.length < NO_HOST_LINES_NAMED) outcome.noHostExamples.push(numbers !== undefined ? numbers[index] : linesBefore + index + 1);
    }
    if (spec?.noHost === 'error') throw RobotsError.about('HOST_UNKNOWN', { name: 'noHost', value: 'error' }, (option) => `line ${outcome.noHostExamples[0]} names no host (no http:// or https:// URL with a host): ${option} stops here`);
  });
  // line numbers are needed before a chunk is answered only for jsonl "input" numbers and log lines
  const numbersLines = plan.format === 'jsonl';
  let buffer = new Uint8Array(answerers.windowBytes);
  // many hosts on one thread: windows start small and stay so while the input comes sorted by host, else the
  // whole buffer (HOSTS_FIRST_WINDOW_BYTES); an input known to fit one buffer is one window, as it always was
  // (its last: no host is kept for a window to come). Not when workers may start: their pace is measured on
  // the windows this thread answers alone (small windows made it start workers where they did not pay)
  let hostsWindow = spec !== null && answerers.pace === null && (plan.inputBytes === null || plan.inputBytes > buffer.length) ? HOSTS_FIRST_WINDOW_BYTES : Infinity;
  let bytesRead = 0;
  let reportedLogErrors = 0;
  let inputLine = 1;
  const { pace } = answerers;
  try {
    if (spec === null ? plan.inputBytes !== null && plan.inputBytes >= WORKERS_AFTER_BYTES : pace?.shouldStart(0, plan.inputBytes) === true) await answerers.startWorkers();
    if (answerers.windowBytes !== buffer.length) buffer = new Uint8Array(answerers.windowBytes);
    while (true) {
      const windowStarted = performance.now();
      const slot: SharedSlot | null = answerers.ring !== null ? await answerers.ring.acquire() : null;
      const window = slot !== null ? slot.input : answerers.shards === null && hostsWindow < buffer.length ? buffer.subarray(0, hostsWindow) : buffer;
      const chunk = await input.next(window);
      if (chunk === null) {
        if (slot !== null) answerers.ring?.release(slot);
        break;
      }
      outcome.windowBytes = Math.max(outcome.windowBytes, window.length);
      const index = outcome.chunks++;
      bytesRead += chunk.length;
      if (spec === null && bytesRead >= WORKERS_AFTER_BYTES) await answerers.startWorkers();
      const job: ChunkJob = { urls: chunk, firstNumber: inputLine, numbers: null, slot, index, last: input.atEnd === true };
      if (plan.log !== null) {
        const log = logModule as typeof import('../logs/index.js');
        const targets = plan.log.reader.readUrlLines(chunk, { firstLineNumber: inputLine, withHost: spec !== null, defaultHost: plan.log.defaultHost, maxMalformed: MAX_REPORTED_LOG_ERRORS });
        for (const line of targets.malformedLines) {
          if (reportedLogErrors < MAX_REPORTED_LOG_ERRORS) warn(`line ${line}: not an access log line with a request target: skipped`);
          reportedLogErrors++;
        }
        outcome.malformed += targets.malformed;
        // one robots.txt per host: a line whose host is unknown stops the run (as audit does), never a guess
        if (spec !== null && defaultHost === null) {
          const relative = targets.firstRelative;
          if (relative >= 0) throw log.hostUnknownError(`line ${targets.numbers[relative]}`, null);
        }
        inputLine += targets.lines;
        job.urls = targets.urls;
        job.numbers = targets.numbers;
        if (spec !== null) numbersOfChunks.set(index, targets.numbers);
      } else if (numbersLines) {
        inputLine += countLines(chunk);
      }
      const release = slot !== null ? () => answerers.ring?.release(slot) : null;
      if (job.urls.length === 0) {
        await writer.add({ output: job.urls, lines: 0, reused: false }, release);
        continue;
      }
      const answerer = answerers.pick(job);
      let answer: ChunkAnswer | Promise<ChunkAnswer>;
      if (answerer === answerers.here) {
        answer = await answerers.here.answer(job); // before the reader reuses its buffer
        if (answer.sortedByHost !== true) hostsWindow = Infinity;
      } else {
        // a sharded text answer formats the window's lines after the replies: a copy, as the reader reuses its buffer
        if (answerer instanceof HostShardsAnswerer && job.urls === chunk && plan.format === 'text') job.urls = answerer.keepLines(chunk, index);
        answer = answerer.answer(job);
      }
      await writer.add(answer, release);
      if (pace !== null && input.atEnd !== true) {
        // many hosts on threads: workers start when the work to come is long enough, and go when they do not pay
        pace.record(chunk.length, performance.now() - windowStarted, answerer !== answerers.here);
        const windowBefore = answerers.windowBytes;
        if (answerers.shards === null && pace.shouldStart(bytesRead, plan.inputBytes, answerers.cacheOutlook())) await answerers.startWorkers();
        else if (answerers.shards !== null && pace.shouldStop()) {
          await writer.finish(); // every answer the workers took part in, written
          await answerers.letWorkersGo();
        }
        if (answerers.windowBytes !== windowBefore) buffer = new Uint8Array(answerers.windowBytes);
      }
    }
    await writer.finish();
  } finally {
    await answerers.close();
  }
  outcome.lines = plan.log !== null || numbersLines ? inputLine - 1 : writer.linesWritten;
  outcome.chunksInWorkers = answerers.counts.chunksInWorkers;
  outcome.recomputed = answerers.counts.recomputed;
  outcome.noHostLines = answerers.counts.noHostLines;
  if (outcome.chunksInWorkers > 0) outcome.threadsUsed = plan.threads;
  else if (plan.threads > 1 && answerers.workerCount > 0) {
    outcome.fewerThreads = spec === null ? { kind: 'inputEnded', inputBytes: bytesRead, workersAfterBytes: WORKERS_AFTER_BYTES } : { kind: 'workNeverLong', afterMs: pace?.afterMs ?? HOSTS_THREADS_AFTER_MS };
  }
  if (hosts !== null) {
    outcome.hosts = sumCounters([hosts.stats, ...(answerers.shards?.workerCountersNow() ?? [])]);
    outcome.missingOrigins = hosts.stats.missingOrigins;
    outcome.cutOrigins = hosts.stats.cutOrigins;
  }
  if (outcome.malformed > MAX_REPORTED_LOG_ERRORS) warn(`${outcome.malformed - MAX_REPORTED_LOG_ERRORS} more lines were not access log lines`);
  return outcome;
}
