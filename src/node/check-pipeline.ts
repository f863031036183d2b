// robotstxt check's one pipeline, for every mode:
//   input chunks (LineReader) -> URL lines (as read, or the request targets of access log lines)
//   -> verdicts in bulk (one robots.txt: RobotsMatcher; a robots.txt per host: MultiHostMatcher)
//   -> one formatter (text or jsonl, both in assembly/format.ts) -> output in input order.
// Threads: workers start only once the input proves long enough (a file of at least WORKERS_AFTER_BYTES,
// or that many bytes read from a pipe). With one robots.txt any worker takes any chunk once workers are
// ready, and this thread answers chunks itself until then and whenever every worker is busy. With a
// robots directory every chunk after the start is split by host and each thread answers its own hosts
// with its own cache (src/node/pool.ts); a worker's shards wait in its queue while it starts, so that no host
// is compiled in two threads.
import { VERDICT_ALLOWED, CHAR_LF } from '../core/constants.js';
import { core } from './core-node.js';
import type { MultiHostMatcher, RobotsSource } from './hosts.js';
import type { RobotsPool, HostShardPool, SharedSlotRing, SharedSlot, HostsSpec, HostCounters, OutputFormat, LinesResult } from './pool.js';
import { CHUNK_BYTES, writeAll, writeOut, type LineReader } from './line-reader.js';
import { outputFilterCode, type RobotsMatcher, type OutputFilter } from '../core/matcher.js';
import type { Writable } from 'node:stream';
import type { LogLineReader } from './log.js';

/**
 * Start workers once this much input is known to come. With one robots.txt a line costs a quarter of a
 * microsecond: below about a million lines (64 MiB) the workers' start (loading the thread library, a
 * WebAssembly instance each, copying chunks to them) cost more than the second core gave back (measured:
 * 0.87x on 12 MB). With a robots directory a line costs about ten times more (host look-ups, compiles,
 * file reads), so 2 MiB already pays.
 */
export const WORKERS_AFTER_BYTES = 64 << 20;
export const HOSTS_WORKERS_AFTER_BYTES = 2 << 20;
/**
 * Input answered at once with a robots directory (a window): its lines are grouped by host, so each host of
 * the window is loaded at most once and answered for all of its lines together. A window is 1/8 of the cache
 * with text output (the chunk is held in the cache's memory; the read buffer and the output, about the
 * window's size each, are not), 1/32 with jsonl (its output is about 3 bytes per input byte); at least
 * HOSTS_MIN_WINDOW_BYTES and at most HOSTS_MAX_WINDOW_BYTES: 8 and 2 MiB with the default 64 MiB cache, about
 * 120,000 and 30,000 URLs, so that a random stream over fewer hosts than that gives each host several lines
 * per window. Output is formatted in pieces of 1 MiB straight into one reused buffer, so that a window costs
 * its read buffer and its output outside the cache, nothing more.
 * Measured on the heavy-tailed crawl (npm run bench:heavy-tail), ~10 URLs per host in random host order, whole
 * files, text: 8 MiB windows (the whole 6 MB input at once) 0.93 s and 154 MiB; 4 MiB windows 1.13 s
 * (20,020 loads for 13,299 hosts: evicted files read again) and 157 MiB. jsonl: 8 MiB windows 170 MiB, over
 * the bound of the cache + 100 MiB; 4 MiB windows 2.8 s and 162 MiB; 2 MiB windows 2.2 s and 149 MiB (a
 * jsonl window whose hosts do not fit the cache together is answered in halves, see MultiHostMatcher).
 */
export const HOSTS_MIN_WINDOW_BYTES = 2 << 20;
export const HOSTS_MAX_WINDOW_BYTES = 16 << 20;

/**
 * jsonl windows with worker threads may be this small: two windows are in flight, each with its lines' jsonl
 * output held three times (this thread's shard, the worker's reply, the merge: about 4 bytes per input byte
 * each), which with 2 MiB windows took the run to 155-168 MiB on the heavy-tailed crawl (--cache-mb 64,
 * bound 164); 1 MiB windows 126-132 MiB at the same speed. Text output is merged from verdicts (one copy):
 * its windows stay at 2 MiB at least, as smaller ones read evicted files again in random order.
 */
export const HOSTS_MIN_JSONL_THREADS_WINDOW_BYTES = 1 << 20;

/** The window for one thread's cache share of cacheBytes, an output format, and the number of threads (see HOSTS_MIN_WINDOW_BYTES). */
export function hostsWindowBytes(cacheBytes: number, format: OutputFormat, threads = 1): number {
  const share = format === 'jsonl' ? 32 : 8;
  const least = format === 'jsonl' && threads > 1 ? HOSTS_MIN_JSONL_THREADS_WINDOW_BYTES : HOSTS_MIN_WINDOW_BYTES;
  return Math.max(least, Math.min(HOSTS_MAX_WINDOW_BYTES, Math.floor(cacheBytes / share / 65536) * 65536));
}
/**
 * Memory a worker thread takes besides its cache share, paid from --cache-mb: its isolate and modules, its
 * WebAssembly instance's work area (which grows to the largest body it answers, about 12 MiB for a 3.3 MB
 * file, and to a window's output: jsonl's is about 4 times its input), and the copies of the shards and
 * replies on both sides. Measured on the heavy-tailed crawl (bench/heavy-tail.ts, whole files, sorted by host,
 * --threads 2 with --cache-mb 64 to 256): 31-60 MiB with text output (it grows with the share: the work area
 * follows the window), more with jsonl; budgeted at 48 and 56 MiB, which keeps every such run within
 * --cache-mb + 100 MiB.
 */
export function workerOverheadMb(format: OutputFormat): number {
  return format === 'jsonl' ? 56 : 48;
}
const workerOverheadBytes = (format: OutputFormat): number => workerOverheadMb(format) << 20;
/** The smallest cache share a thread is given: below it, workers would spend their time reading files again. */
const MIN_THREAD_SHARE_BYTES = 4 << 20;

/** Each thread's share of a --cache-mb budget of cacheBytes with `threads` threads over many hosts (the workers' own memory paid first). */
export function hostsCacheShare(cacheBytes: number, threads: number, format: OutputFormat): number {
  return Math.max(MIN_THREAD_SHARE_BYTES, Math.floor((cacheBytes - (threads - 1) * workerOverheadBytes(format)) / threads / 65536) * 65536);
}

/** The smallest --cache-mb (in MiB) that pays for `threads` threads over many hosts: each worker's own memory and a share for every thread. */
export function minCacheMbForThreads(threads: number, format: OutputFormat): number {
  return ((threads - 1) * workerOverheadBytes(format) + threads * MIN_THREAD_SHARE_BYTES) >> 20;
}
/** Lines that are not log lines: this many are named on stderr, the rest only counted. */
const MAX_REPORTED_LOG_ERRORS = 20;

/** What check answers, how, and with how many threads at most. */
export interface CheckPlan {
  target: { kind: 'robots'; matcher: RobotsMatcher } | { kind: 'hosts'; spec: HostsSpec };
  /** Threads at most (this one included); 1: no workers. */
  threads: number;
  format: OutputFormat;
  /** Which lines the output keeps (--only). */
  only: OutputFilter;
  /** Input lines are access log lines, read by reader; defaultHost: the host of requests whose line names none (--host). */
  log: { defaultHost: string | null; reader: LogLineReader } | null;
  /** Size of the input when it is a regular file (workers may start at once), else null. */
  inputBytes: number | null;
  /** Robots directory: where this thread gets bodies instead of the directory (check --fetch), and how many at once. */
  hostSource?: { source: RobotsSource; concurrency: number };
}

/** What ran: for --stats and the notes on stderr. */
export interface CheckOutcome {
  /** Input lines read. */
  lines: number;
  /** Threads that answered chunks (1 when workers never started or were not needed). */
  threadsUsed: number;
  chunks: number;
  /** Chunks (or shards) answered by workers. */
  chunksInWorkers: number;
  /** Chunks answered again on this thread after a worker failed. */
  recomputed: number;
  /** Log lines that were not access log lines with a request target. */
  malformed: number;
  /** Lines that named no host (robots directory). */
  noHostLines: number;
  /** Robots directory: host counters summed over the threads. */
  hosts: HostCounters | null;
  /** The largest window input was read into (one robots.txt: the chunk size). */
  windowBytes: number;
}

interface Answer {
  output: Uint8Array;
  verdicts: number;
  /** The output is a view of a buffer the next chunk reuses: it must be written out before that chunk is answered. */
  reused?: boolean;
}

/** bytes copied into buffers[index], which is replaced by a larger one when too small; a view of it. */
function copyInto(buffers: Uint8Array[], index: number, bytes: Uint8Array): Uint8Array {
  if (buffers[index].length < bytes.length) buffers[index] = new Uint8Array(Math.ceil(bytes.length * 1.25));
  buffers[index].set(bytes);
  return buffers[index].subarray(0, bytes.length);
}

const passes = (verdict: number, only: OutputFilter): boolean => only === 'all' || (only === 'allowed' ? verdict === VERDICT_ALLOWED : verdict !== VERDICT_ALLOWED);

/** Runs check over the reader; writes to output in input order; returns what ran. */
export async function runCheckPipeline(reader: LineReader, plan: CheckPlan, output: Writable, stderr: (text: string) => void): Promise<CheckOutcome> {
  const outcome: CheckOutcome = { lines: 0, threadsUsed: 1, chunks: 0, chunksInWorkers: 0, recomputed: 0, malformed: 0, noHostLines: 0, hosts: null, windowBytes: 0 };
  const hostCounters = new Map<number, CheckOutcome['hosts'] & object>();
  /** Robots directory: the host counters of this thread and of every worker's last reply, summed. */
  const hostTotals = (): CheckOutcome['hosts'] & object => {
    const { compiled, direct, missing, allowAll, disallowAll, evicted, cachedHosts, cacheBytes, cutBodies } = hostsOfThisThread().stats;
    const totals: HostCounters = { compiled, direct, missing, allowAll, disallowAll, evicted, cachedHosts, cacheBytes, cutBodies };
    for (const counters of hostCounters.values()) {
      for (const name of Object.keys(totals) as (keyof HostCounters)[]) totals[name] += counters[name];
    }
    return totals;
  };
  const spec = plan.target.kind === 'hosts' ? plan.target.spec : null;
  /** What workers answer: text output is made here from their verdicts (one formatter pass over the chunk). */
  const workerFormat = plan.format === 'text' ? 'none' : plan.format;
  const matcher = plan.target.kind === 'robots' ? plan.target.matcher : null;
  // the many-host matcher is loaded only when used (check's start-up stays at node's)
  const hostsModule = spec !== null ? await import('./hosts.js') : null;
  /** The many-host matcher of this thread (its share of the hosts when workers run), or null with one robots.txt. */
  const thisThreadHosts = hostsModule !== null && spec !== null ? new hostsModule.MultiHostMatcher({ agents: spec.agents, mode: spec.mode, maxBytes: spec.maxBytes, cacheBytes: spec.cacheBytes, missing: spec.missing, source: plan.hostSource?.source ?? hostsModule.robotsFromDirectory(spec.directory, { maxBytes: spec.maxBytes, now: spec.now }), concurrency: plan.hostSource?.concurrency }) : null;
  /** thisThreadHosts where the plan is a robots directory (the only plan whose code asks for it). */
  const hostsOfThisThread = (): MultiHostMatcher => {
    if (thisThreadHosts === null) throw new Error('check pipeline: no many-host matcher in a one-robots.txt plan');
    return thisThreadHosts;
  };
  // the log reader's functions are loaded only with --log
  const logModule = plan.log !== null ? await import('./log.js') : null;
  const defaultHost = plan.log?.defaultHost != null ? Buffer.from(plan.log.defaultHost, 'latin1') : null;
  const workerCount = plan.threads - 1;
  // chunks in flight: enough to keep every thread busy (each costs its input and output in memory); a
  // robots-directory window is split between all threads, so two of them keep every thread busy
  const chunksInFlight = spec !== null ? 2 : Math.max(2, plan.threads * 2);
  // started by startWorkers (from a callback: a holder, so that the loop below sees the change); with one
  // robots.txt, chunks are then read into a ring of shared slots that workers read and answer in place
  const pools: { robots: RobotsPool | null; shards: HostShardPool | null; ring: SharedSlotRing | null; ready: boolean } = { robots: null, shards: null, ring: null, ready: false };
  let queuedInWorkers = 0;
  // --cache-mb bounds the whole run's memory for hosts: each worker's own memory (see workerOverheadBytes)
  // is paid from it and the rest is shared evenly by the threads; the window follows one thread's share
  // (every window in flight is held as input, shards and output at once)
  const cacheShare = spec === null ? 0 : workerCount < 1 ? spec.cacheBytes : hostsCacheShare(spec.cacheBytes, plan.threads, plan.format);
  const windowBytes = spec !== null ? hostsWindowBytes(cacheShare, plan.format, plan.threads) : CHUNK_BYTES;

  const startWorkers = async (): Promise<void> => {
    if (workerCount < 1 || pools.robots !== null || pools.shards !== null) return;
    const poolModule = await import('./pool.js'); // worker threads: loaded only when they start
    if (spec !== null) {
      pools.shards = new poolModule.HostShardPool(workerCount, { ...spec, cacheBytes: cacheShare });
      hostsOfThisThread().setBudget(cacheShare);
    } else {
      pools.robots = new poolModule.RobotsPool({ threads: workerCount });
      pools.ring = new poolModule.SharedSlotRing(chunksInFlight + 2, CHUNK_BYTES);
      pools.robots.ready().then(() => { pools.ready = true; }, () => undefined);
    }
  };
  const workersAfter = spec !== null ? HOSTS_WORKERS_AFTER_BYTES : WORKERS_AFTER_BYTES;
  if (plan.inputBytes !== null && plan.inputBytes >= workersAfter) await startWorkers();

  /**
   * Answers URL lines on this thread; with `reuse`, into the reused output buffer (the caller writes the
   * answer out before answering another into it).
   */
  const answerHere = async (urls: Uint8Array, firstNumber: number, numbers: Uint32Array | null, reuse = true): Promise<Answer> => {
    // output goes into one buffer, reused from chunk to chunk (a window's output is megabytes: new buffers
    // each time would pile up until the garbage collector came by, and each costs its pages again)
    if (matcher !== null) {
      if (plan.format === 'jsonl') {
        const result = matcher.checkLinesJsonl(urls, plan.only, firstNumber, numbers);
        return { output: result.output, verdicts: result.verdicts.length };
      }
      const result = matcher.checkLinesText(urls, plan.only, reuse ? reusedOutput : null);
      const reused = reuse && result.output.buffer === reusedOutput.buffer;
      if (reuse && !reused) reusedOutput = new Uint8Array(Math.ceil(result.output.length * 1.25)); // for the next chunk
      return { output: result.output, verdicts: result.verdicts.length, reused };
    }
    const into = reuse && plan.format !== 'none' ? reusedOutput : null;
    const result = await hostsOfThisThread().checkLinesWithOutput(urls, { format: plan.format, only: plan.only, firstNumber, numbers, into });
    outcome.noHostLines += result.noHostLines;
    const reused = into !== null && result.output.buffer === into.buffer;
    if (into !== null && !reused) reusedOutput = new Uint8Array(Math.ceil(result.output.length * 1.25)); // for the next window
    return { output: result.output, verdicts: result.verdicts.length, reused };
  };
  // (allocated at the largest window's size: pages count in memory only once written)
  let reusedOutput = new Uint8Array(plan.format === 'none' || (matcher !== null && plan.format === 'jsonl') ? 0 : Math.ceil(windowBytes * (plan.format === 'jsonl' ? 4 : 1.25)));

  /**
   * One robots.txt: a worker takes the chunk when one is free (urls in the slot's shared input are read in
   * place, a text reply is written into its shared output); a failed worker's chunk is answered here.
   */
  const answerInWorker = async (pool: RobotsPool, urls: Uint8Array, slot: SharedSlot, firstNumber: number, numbers: Uint32Array | null): Promise<Answer> => {
    queuedInWorkers++;
    let result: LinesResult;
    try {
      result = await pool.checkLines(matcher as RobotsMatcher, urls, plan.only, slot.output, plan.format, firstNumber, numbers);
      outcome.chunksInWorkers++;
    } catch {
      outcome.recomputed++;
      return answerHere(urls, firstNumber, numbers, false); // other answers may wait in the reused buffer
    } finally {
      queuedInWorkers--;
    }
    return { output: result.output, verdicts: result.verdicts.length };
  };

  /**
   * Buffers of the sharded path (text: the window's lines; this thread's shard; its jsonl output; the merged output), reused (a new one per window would wait for the collector: V8
   * lets tens of MiB of such garbage pile up). Two windows are in flight at most, so window k uses the pair
   * k % 2, free again once window k is written, before window k + 2 is read.
   */
  const shardedBuffers = { lines: [new Uint8Array(0), new Uint8Array(0)], shard: [new Uint8Array(0), new Uint8Array(0)], local: [new Uint8Array(0), new Uint8Array(0)], merged: [new Uint8Array(0), new Uint8Array(0)] };

  /** A robots directory: each thread answers the chunk's lines of its own hosts; outputs merged in line order. */
  const answerSharded = async (pool: HostShardPool, urls: Uint8Array, firstNumber: number, numbers: Uint32Array | null, parity: number): Promise<Answer> => {
    // shard 0 (this thread's) into a reused buffer, the others straight into their worker's shared slot
    if (shardedBuffers.shard[parity].length < urls.length) shardedBuffers.shard[parity] = new Uint8Array(Math.ceil(urls.length * 1.25));
    const targets = [shardedBuffers.shard[parity], ...Array.from({ length: workerCount }, (_, worker) => pool.shardTarget(worker, parity, urls.length))];
    const { shardOfLine, shards } = core().splitLinesByHost(urls, plan.threads, targets);
    const lineCount = shardOfLine.length;
    let answeredInWorker = false;
    const shardNumbers: (Uint32Array | null)[] = shards.map(() => null);
    if (plan.format === 'jsonl') {
      const counts = new Uint32Array(plan.threads);
      for (let i = 0; i < lineCount; i++) counts[shardOfLine[i]]++;
      const lists = Array.from(counts, (count) => new Uint32Array(count));
      counts.fill(0);
      for (let i = 0; i < lineCount; i++) {
        const shard = shardOfLine[i];
        lists[shard][counts[shard]++] = numbers !== null ? numbers[i] : firstNumber + i;
      }
      lists.forEach((list, shard) => { shardNumbers[shard] = list; });
    }
    const replies = shards.map(async (shard, index) => {
      if (index === 0 || shard.length === 0) return null;
      try {
        const reply = await pool.answer(index - 1, parity, shard, workerFormat, plan.only, shardNumbers[index]);
        answeredInWorker = true;
        hostCounters.set(index, reply.stats);
        outcome.noHostLines += reply.noHostLines;
        return { verdicts: reply.verdicts, output: reply.output };
      } catch {
        outcome.recomputed++;
        return null; // answered here below
      }
    });
    const local = await hostsOfThisThread().checkLinesWithOutput(shards[0], { format: workerFormat, only: plan.only, firstNumber: 1, numbers: shardNumbers[0], into: plan.format === 'jsonl' ? shardedBuffers.local[parity] : null });
    if (plan.format === 'jsonl' && local.output.buffer !== shardedBuffers.local[parity].buffer) shardedBuffers.local[parity] = new Uint8Array(Math.ceil(local.output.length * 1.25));
    outcome.noHostLines += local.noHostLines;
    const parts: { verdicts: Uint8Array; output: Uint8Array }[] = [{ verdicts: local.verdicts, output: local.output }];
    for (let index = 1; index < shards.length; index++) {
      const reply = await replies[index];
      if (reply !== null) {
        parts.push(reply);
      } else if (shards[index].length === 0) {
        parts.push({ verdicts: new Uint8Array(0), output: new Uint8Array(0) });
      } else {
        const again = await hostsOfThisThread().checkLinesWithOutput(shards[index], { format: workerFormat, only: plan.only, firstNumber: 1, numbers: shardNumbers[index] });
        outcome.noHostLines += again.noHostLines;
        parts.push({ verdicts: again.verdicts, output: again.output });
      }
    }
    if (answeredInWorker) outcome.chunksInWorkers++;
    // the verdicts back in line order, then one text formatter; jsonl lines are taken from the shards in order
    const verdicts = new Uint8Array(lineCount);
    const cursors = new Uint32Array(plan.threads);
    for (let i = 0; i < lineCount; i++) {
      const shard = shardOfLine[i];
      verdicts[i] = parts[shard].verdicts[cursors[shard]++];
    }
    if (plan.format === 'text') {
      const output = core().formatText(urls, verdicts, outputFilterCode(plan.only), shardedBuffers.merged[parity]);
      if (output.buffer !== shardedBuffers.merged[parity].buffer) shardedBuffers.merged[parity] = new Uint8Array(Math.ceil(output.length * 1.25));
      return { output, verdicts: lineCount };
    }
    // one copy per run of lines from the same shard (not an object per line: a window holds ~30,000 lines)
    const mergedLength = parts.reduce((sum, part) => sum + part.output.length, 0);
    if (shardedBuffers.merged[parity].length < mergedLength) shardedBuffers.merged[parity] = new Uint8Array(Math.ceil(mergedLength * 1.25));
    const merged = shardedBuffers.merged[parity].subarray(0, mergedLength);
    const offsets = new Uint32Array(plan.threads);
    let written = 0;
    for (let i = 0; i < lineCount;) {
      const shard = shardOfLine[i];
      const source = parts[shard].output;
      const from = offsets[shard];
      let to = from;
      for (; i < lineCount && shardOfLine[i] === shard; i++) if (passes(verdicts[i], plan.only)) to = source.indexOf(CHAR_LF, to) + 1;
      merged.set(source.subarray(from, to), written);
      written += to - from;
      offsets[shard] = to;
    }
    return { output: merged, verdicts: lineCount };
  };

  /** Answers in input order, each with the shared slot its chunk was read into (released once written). */
  const inOrder: { answer: Promise<Answer>; slot: SharedSlot | null; settled: boolean }[] = [];
  const writeFirst = async (): Promise<void> => {
    const { answer, slot } = inOrder.shift() as { answer: Promise<Answer>; slot: SharedSlot | null; settled: boolean };
    const done = await answer;
    if (done.reused === true) await writeOut(output, done.output);
    else await writeAll(output, done.output);
    answeredLines += done.verdicts;
    if (slot !== null) pools.ring?.release(slot);
  };
  let answeredLines = 0;
  // line numbers are needed before a chunk is answered only for jsonl "input" numbers and log lines
  const numbersLines = plan.format === 'jsonl';
  const buffer = new Uint8Array(windowBytes);
  let bytesRead = 0;
  let reportedLogErrors = 0;
  let inputLine = 1;
  try {
    while (true) {
      const slot = pools.ring !== null ? await pools.ring.acquire() : null;
      const chunk = await reader.next(slot !== null ? slot.input : buffer);
      if (chunk !== null) outcome.windowBytes = Math.max(outcome.windowBytes, slot !== null ? slot.input.length : windowBytes);
      if (chunk === null) {
        if (slot !== null) pools.ring?.release(slot);
        break;
      }
      outcome.chunks++;
      bytesRead += chunk.length;
      if (bytesRead >= workersAfter) await startWorkers();
      let urls = chunk;
      let numbers: Uint32Array | null = null;
      const firstNumber = inputLine;
      if (plan.log !== null) {
        const log = logModule as typeof import('./log.js');
        const targets = log.logTargetsOfChunk(plan.log.reader, chunk, inputLine, spec !== null, defaultHost, MAX_REPORTED_LOG_ERRORS);
        for (const line of targets.malformedLines) {
          if (reportedLogErrors < MAX_REPORTED_LOG_ERRORS) stderr(`robotstxt: line ${line}: not an access log line with a request target: skipped\n`);
          reportedLogErrors++;
        }
        outcome.malformed += targets.malformed;
        // one robots.txt per host: a line whose host is unknown stops the run (as audit does), never a guess
        if (spec !== null && defaultHost === null) {
          const relative = log.firstRelativeLine(targets.urls);
          if (relative >= 0) throw log.hostUnknownError(`line ${targets.numbers[relative]}`, null);
        }
        inputLine += targets.lines;
        urls = targets.urls;
        numbers = targets.numbers;
      } else if (numbersLines) {
        inputLine += core().countLines(chunk);
      }
      let answer: Promise<Answer>;
      let reusesBuffer = false;
      let settled = true; // answered here (or nothing to answer); worker answers settle later
      if (urls.length === 0) {
        answer = Promise.resolve({ output: new Uint8Array(0), verdicts: 0 });
      } else if (slot !== null && pools.ready && pools.robots !== null && queuedInWorkers < workerCount) {
        // a log's request targets are copied over the slot's input (the lines they came from are done with)
        let shared = urls;
        if (urls !== chunk && urls.length <= slot.input.length) {
          slot.input.set(urls);
          shared = slot.input.subarray(0, urls.length);
        }
        answer = answerInWorker(pools.robots, shared, slot, firstNumber, numbers);
        settled = false;
      } else if (pools.shards !== null) {
        // (text output is formatted from the window's lines after the replies: a copy, since the reader reuses its buffer)
        const parity = outcome.chunks % 2;
        answer = answerSharded(pools.shards, urls === chunk && plan.format === 'text' ? copyInto(shardedBuffers.lines, parity, chunk) : urls, firstNumber, numbers, parity);
        settled = false;
      } else {
        const done = await answerHere(urls, firstNumber, numbers); // before the reader reuses its buffer
        reusesBuffer = done.reused === true;
        answer = Promise.resolve(done);
      }
      const entry = { answer, slot, settled };
      if (!settled) void answer.then(() => { entry.settled = true; }, () => { entry.settled = true; });
      inOrder.push(entry);
      // answers that are ready go out at once, in order: a slow producer (tail -f) sees its lines answered
      while (inOrder.length > 0 && inOrder[0].settled) await writeFirst();
      // a reused output buffer is written out before the next chunk is answered into it
      while (inOrder.length >= chunksInFlight || (reusesBuffer && inOrder.length > 0)) await writeFirst();
    }
    while (inOrder.length > 0) await writeFirst();
  } finally {
    await (pools.robots ?? pools.shards)?.close();
  }
  outcome.lines = plan.log !== null || numbersLines ? inputLine - 1 : answeredLines;
  if (outcome.chunksInWorkers > 0) outcome.threadsUsed = plan.threads;
  if (thisThreadHosts !== null) outcome.hosts = hostTotals();
  if (outcome.malformed > MAX_REPORTED_LOG_ERRORS) stderr(`robotstxt: ${outcome.malformed - MAX_REPORTED_LOG_ERRORS} more lines were not access log lines\n`);
  return outcome;
}
