// How check spends its memory and when it starts threads: the window a robots directory is answered in, each
// thread's share of --cache-mb, the input size after which worker threads pay with one robots.txt, and the
// measured pace after which they may with many hosts. One table, used by the pipeline (pipeline.ts) and by
// the command line's --threads / --cache-mb checks.
import type { OutputFormat } from '../threads/index.js';

/**
 * One robots.txt: start workers once this much input is known to come. A line costs a quarter of a
 * microsecond: below about a million lines (64 MiB) the workers' start (loading the thread library, a
 * WebAssembly instance each, copying chunks to them) cost more than the second core gave back (measured:
 * 0.87x on 12 MB).
 */
export const WORKERS_AFTER_BYTES = 64 << 20;

/**
 * Many hosts with --threads N: workers start only once the work still to come, at the pace this thread alone
 * has answered the input so far (wall time per input byte, reading and writing included), would take at least
 * this long (a pipe, whose size is not known: once this thread has answered that long). Measured on the
 * real-files crawl (4,299 files under 3 names each, 12,897 hosts, 1.9 M URLs): two threads 0.87-1.05x the
 * speed of one on 2.7 s runs, slower on shorter ones (each worker's start, its isolate compiling the same code
 * again, V8's background threads and the worker's competing for 2 cores, a cache split in two); they pay, if
 * at all, only on long runs.
 */
export const HOSTS_THREADS_AFTER_MS = 2000;
/** Windows answered with workers that are not judged (the first carries the workers' start), and those that are. */
const THREADS_WARM_WINDOWS = 1;
const THREADS_JUDGED_WINDOWS = 2;

/**
 * When many-host workers start and whether they stay (one per check run with --threads N and --robots-dir):
 * they start once the work to come is long enough (HOSTS_THREADS_AFTER_MS), and are let go when the windows
 * answered with them, past the first, come no faster than this thread's pace alone (then this thread answers
 * the rest alone, as --threads 1 would: a second thread never makes a run slower than the first judged
 * windows cost).
 */
export class HostsThreadsPace {
  /** afterMs: see HOSTS_THREADS_AFTER_MS (0: workers start before the first window). */
  constructor(readonly afterMs = HOSTS_THREADS_AFTER_MS) {}
  private aloneMs = 0;
  private aloneBytes = 0;
  private sharedWindows = 0;
  private sharedMs = 0;
  private sharedBytes = 0;
  private judged = false;

  /** One window answered: its input bytes, the wall time it took (read to written), and whether workers took part. */
  record(bytes: number, ms: number, withWorkers: boolean): void {
    if (!withWorkers) {
      this.aloneMs += ms;
      this.aloneBytes += bytes;
      return;
    }
    if (this.sharedWindows++ < THREADS_WARM_WINDOWS) return;
    this.sharedMs += ms;
    this.sharedBytes += bytes;
  }

  /**
   * Whether workers should start now: bytesRead of inputBytes (null: not known) answered alone so far, and
   * this thread's cache (cache: its hosts evicted so far, the bytes it holds now, and what the threads' shares
   * will hold together). Not when the cache is too small for the hosts already: split between the threads
   * (each worker's own memory paid from --cache-mb first) it would read more files again than the second thread
   * answers (measured: 1.9 M URLs over 12,897 real files in random order at --cache-mb 64, two threads read
   * 86,757 files where one read 63,591, and took 1.18x the time).
   */
  shouldStart(bytesRead: number, inputBytes: number | null, cache: { evicted: number; heldBytes: number; sharedBytes: number } | null = null): boolean {
    if (this.afterMs === 0) return true;
    if (this.aloneBytes === 0) return false;
    if (cache !== null && (cache.evicted > 0 || cache.heldBytes > cache.sharedBytes)) return false;
    if (inputBytes === null) return this.aloneMs >= this.afterMs;
    return (inputBytes - bytesRead) * (this.aloneMs / this.aloneBytes) >= this.afterMs;
  }

  /** Once, after the judged windows: true when the workers did not make windows come faster than this thread alone. */
  shouldStop(): boolean {
    if (this.judged || this.sharedWindows < THREADS_WARM_WINDOWS + THREADS_JUDGED_WINDOWS || this.sharedBytes === 0 || this.aloneBytes === 0) return false;
    this.judged = true;
    return this.sharedMs / this.sharedBytes >= this.aloneMs / this.aloneBytes;
  }
}
/**
 * Input answered at once with a robots directory (a window): its lines are grouped by host, so each host of
 * the window is loaded at most once and answered for all of its lines together. A window is 1/8 of the cache
 * with text output (the chunk is held in the cache's memory and its read buffer is paid from it too, see
 * hostsMatcherBudget; the output, about the window's size, is not), 1/32 with jsonl (its output is about 3
 * bytes per input byte); at least HOSTS_MIN_WINDOW_BYTES and at most HOSTS_MAX_WINDOW_BYTES: 8 and 2 MiB
 * with the default 64 MiB cache, about 120,000 and 30,000 URLs, so that a random stream over fewer hosts than
 * that gives each host several lines per window. Output is formatted in pieces of 1 MiB straight into one
 * reused buffer, so that a window costs its output outside the cache, nothing more.
 * Measured on the heavy-tailed crawl (npm run bench:heavy-tail), ~10 URLs per host in random host order, whole
 * files, text: 8 MiB windows (the whole 6 MB input at once) 0.93 s and 154 MiB; 4 MiB windows 1.13 s
 * (20,020 loads for 13,299 hosts: evicted files read again) and 157 MiB. jsonl: 8 MiB windows 170 MiB, over
 * the bound of the cache + 100 MiB; 4 MiB windows 2.8 s and 162 MiB; 2 MiB windows 2.2 s and 149 MiB (a
 * jsonl window whose hosts do not fit the cache together is answered in halves, see MultiHostMatcher).
 */
export const HOSTS_MIN_WINDOW_BYTES = 2 << 20;
export const HOSTS_MAX_WINDOW_BYTES = 16 << 20;

/**
 * Many hosts on one thread (no workers may start: --threads 1, the default with --robots-dir, --store and
 * --pack): the first window read (at most the window's buffer), kept while the input comes
 * sorted by host (each window two lines a host or more, about one run a host); after any other window, the
 * whole buffer (in random order a wider window groups more of each host's lines; the folder's random crawl
 * lost 10% to windows doubled one at a time). Each new page a window's buffers touch (its input, the
 * core's copy and arrays, its output twice: about 5 bytes a byte read) costs a fault, about 11 us here. The
 * ~62-per-host crawl of bench:pack sorted by host, whole process, 3 runs each: 1 MiB windows 0.63-0.71 s
 * (16,200-16,800 faults), 2 MiB 0.67-0.69 s, 4 MiB 0.68-0.76 s, 8 MiB 0.80-0.82 s (26,200-26,800 faults).
 */
export const HOSTS_FIRST_WINDOW_BYTES = 1 << 20;

/**
 * What this thread's many-host matcher may cache: its share of --cache-mb less the window's read buffer (the
 * window is read into a buffer of its size before the core takes it; paid from --cache-mb, as the chunk in the
 * core is, the run stays within --cache-mb + 100 MiB). Measured with 100,000 generated hosts, 300,000 URLs in
 * random order (bench/hosts.ts), --cache-mb 64: peak 164.0-164.7 MiB with the whole share cached, 156.5 MiB
 * with the 8 MiB window paid from it, at the same speed (1.43-1.50 and 1.49-1.55 s); the generated heavy-tail
 * crawl in random order 0.44-0.49 and 0.43-0.44 s. readBytes: the window's buffer, and what the input's reader
 * holds ahead of it (a large gzip file's ring, src/node/logs/gunzip-thread.ts).
 */
export function hostsMatcherBudget(cacheShare: number, readBytes: number): number {
  return Math.max(1 << 20, cacheShare - readBytes);
}

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
