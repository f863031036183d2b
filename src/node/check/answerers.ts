// Who answers a chunk of URL lines in check: one interface, three answerers.
// - ThisThreadAnswerer: this thread, with the one compiled matcher or this thread's many-host matcher;
// - RobotsWorkersAnswerer: one robots.txt, a worker takes the chunk in the shared slot it was read into;
// - HostShardsAnswerer: a robots directory, the chunk split into buckets of hosts, taken by the threads as
//   they get free (a bucket first to the thread that holds its hosts).
// Each answers a chunk with its output (text or jsonl, or nothing) and its line count; a worker that fails
// leaves its chunk to this thread, so that no line is lost or written twice.
import { CHAR_LF } from '../../core/constants.js';
import { outputFilterCode, keepsVerdict, type OutputFilter, type RobotsMatcher } from '../../core/matcher.js';
import { splitLinesByHost, formatTextLines, nextOutputBuffer } from '../core-node.js';
import type { MultiHostMatcher } from '../hosts/index.js';
import type { RobotsPool, HostShardPool, SharedSlot, OutputFormat, LinesResult } from '../threads/index.js';
import type { HostCounters } from '../threads/index.js';
import type { UsageColumn } from './usage-column.js';

/** One chunk of URL lines to answer. */
export interface ChunkJob {
  /** The URL lines (the chunk as read, or the request targets of its log lines). */
  urls: Uint8Array;
  /** jsonl "input" numbers: numbers[i], or firstNumber + i. */
  firstNumber: number;
  numbers: Uint32Array | null;
  /** The shared slot the chunk was read into (one robots.txt with workers), else null. */
  slot: SharedSlot | null;
  /** The chunk's place in the input (0-based): sharded answers alternate their buffers by it. */
  index: number;
  /** No chunk comes after it (many hosts: hosts met only here are not kept). */
  last?: boolean;
}

/** A chunk's answer: the bytes to write and the lines answered. */
export interface ChunkAnswer {
  output: Uint8Array;
  lines: number;
  /** Robots directory: lines that named no host, and the first of them (indexes of the chunk's URL lines). */
  noHost?: { lines: number; examples: number[] };
  /** The output is a view of a buffer the next chunk answered here reuses: write it before answering another. */
  reused: boolean;
  /** Many hosts on this thread: the chunk's lines came sorted by host (HostChunkResult.sortedByHost): a wider window would group no more of a host's lines. */
  sortedByHost?: boolean;
}

/** Answers chunks of check's input. Implemented by this thread, a worker pool, and host shards. */
export interface ChunkAnswerer {
  answer(job: ChunkJob): Promise<ChunkAnswer>;
}

/** What the answerers count for check's --stats (shared by the three). */
export interface AnswerCounts {
  /** Chunks (or shards) answered by workers. */
  chunksInWorkers: number;
  /** Chunks answered again on this thread after a worker failed. */
  recomputed: number;
  /** Lines that named no host (robots directory). */
  noHostLines: number;
}

/** What is answered and how: the same for every answerer of a run. */
export interface AnswerSpec {
  format: OutputFormat;
  only: OutputFilter;
}

const EMPTY: Uint8Array<ArrayBufferLike> = new Uint8Array(0);

/**
 * This thread: one compiled matcher, or this thread's many-host matcher. Text (and hosts' jsonl) output goes
 * into one buffer reused from chunk to chunk (a window's output is megabytes: a new buffer each time would pile
 * up until the garbage collector came by, and each costs its pages again). Pages count only once written, so
 * it is made at the largest window's size.
 */
export class ThisThreadAnswerer implements ChunkAnswerer {
  private reusedOutput: Uint8Array;

  constructor(private readonly target: { matcher: RobotsMatcher; usage?: UsageColumn | null } | { hosts: MultiHostMatcher }, private readonly spec: AnswerSpec, private readonly counts: AnswerCounts, windowBytes: number) {
    // (the usage column writes a buffer of its own per chunk)
    this.reusedOutput = new Uint8Array(spec.format === 'none' || ('matcher' in target && target.usage != null) ? 0 : Math.ceil(windowBytes * (spec.format === 'jsonl' ? 4 : 1.25)));
  }

  answer(job: ChunkJob): Promise<ChunkAnswer> {
    return 'matcher' in this.target ? Promise.resolve(this.answerNow(job, true)) : this.answerHosts(job, true);
  }

  /** Answers without the reused buffer (its output may still wait to be written): a failed worker's chunk. */
  answerAside(job: ChunkJob): Promise<ChunkAnswer> {
    return 'matcher' in this.target ? Promise.resolve(this.answerNow(job, false)) : this.answerHosts(job, false);
  }

  private answerNow(job: ChunkJob, reuse: boolean): ChunkAnswer {
    const { matcher, usage = null } = this.target as { matcher: RobotsMatcher; usage?: UsageColumn | null };
    if (usage !== null && this.spec.format !== 'none') {
      const result = usage.answer(matcher, job.urls, this.spec.format, job.firstNumber);
      return { output: result.output, lines: result.verdicts.length, reused: false };
    }
    const into = reuse ? this.reusedOutput : null;
    const result = this.spec.format === 'jsonl' ? matcher.checkLinesJsonl(job.urls, this.spec.only, job.firstNumber, job.numbers, into) : matcher.checkLinesText(job.urls, this.spec.only, into);
    return this.kept(result, reuse);
  }

  private async answerHosts(job: ChunkJob, reuse: boolean): Promise<ChunkAnswer> {
    const hosts = (this.target as { hosts: MultiHostMatcher }).hosts;
    const into = reuse && this.spec.format !== 'none' ? this.reusedOutput : null;
    const result = await hosts.checkLinesWithOutput(job.urls, { format: this.spec.format, only: this.spec.only, firstNumber: job.firstNumber, numbers: job.numbers, into, last: job.last === true });
    this.counts.noHostLines += result.noHostLines;
    return { ...this.kept(result, into !== null), noHost: { lines: result.noHostLines, examples: result.noHostExamples }, sortedByHost: result.sortedByHost };
  }

  /** An answer made into the reused buffer, or (when it did not fit) a larger buffer for the next chunk. */
  private kept(result: LinesResult, reuse: boolean): ChunkAnswer {
    const reused = reuse && result.output.buffer === this.reusedOutput.buffer;
    if (reuse) this.reusedOutput = nextOutputBuffer(this.reusedOutput, result.output);
    return { output: result.output, lines: result.verdicts.length, reused };
  }
}

/**
 * One robots.txt on worker threads: the chunk is read in place from the shared slot it was read into, and a
 * text reply is written into the slot's shared output. A failed worker's chunk is answered on this thread.
 */
export class RobotsWorkersAnswerer implements ChunkAnswerer {
  private queued = 0;
  private started = false;

  constructor(private readonly pool: RobotsPool, private readonly matcher: RobotsMatcher, private readonly spec: AnswerSpec, private readonly counts: AnswerCounts, private readonly here: ThisThreadAnswerer) {
    pool.ready().then(() => { this.started = true; }, () => undefined);
  }

  /** True when a worker has started and has no chunk queued: a chunk given now is answered at once. */
  get hasFreeWorker(): boolean {
    return this.started && this.queued < this.pool.threads;
  }

  async answer(job: ChunkJob): Promise<ChunkAnswer> {
    const slot = job.slot as SharedSlot;
    // a log's request targets are copied over the slot's input (the lines they came from are done with)
    let urls = job.urls;
    if (urls.buffer !== slot.input.buffer && urls.length <= slot.input.length) {
      slot.input.set(urls);
      urls = slot.input.subarray(0, urls.length);
    }
    this.queued++;
    try {
      const result = await this.pool.checkLines(this.matcher, urls, this.spec.only, slot.output, this.spec.format, job.firstNumber, job.numbers);
      this.counts.chunksInWorkers++;
      return { output: result.output, lines: result.verdicts.length, reused: false };
    } catch {
      this.counts.recomputed++;
      return this.here.answerAside(job);
    } finally {
      this.queued--;
    }
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}

/** Line indexes of shards (examples[shard]: indexes of that shard's lines) as indexes of the chunk they were split from, in order. */
function shardExamplesInChunk(shardOfLine: Uint8Array, examples: number[][]): number[] {
  if (examples.every((list) => list.length === 0)) return [];
  const cursors = new Uint32Array(examples.length);
  const found: number[] = [];
  for (let i = 0; i < shardOfLine.length; i++) {
    const shard = shardOfLine[i];
    if (examples[shard].includes(cursors[shard]++)) found.push(i);
  }
  return found;
}

/** Buckets of hosts per thread a window is split into (see HostShardsAnswerer). */
const BUCKETS_PER_THREAD = 8;

/** A bucket's answer: its lines' verdicts and output (jsonl), and its lines without a host. */
interface BucketAnswer {
  verdicts: Uint8Array;
  output: Uint8Array;
  noHostLines: number;
  noHostExamples: number[];
}
const NO_LINES: BucketAnswer = { verdicts: EMPTY, output: EMPTY, noHostLines: 0, noHostExamples: [] };

/** Lets the event loop turn: a worker's reply is taken, and its next bucket posted, between two buckets answered here. */
const yieldToEventLoop = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * A robots directory on worker threads: each window is split by host into buckets (core's splitLinesByHost,
 * 8 per thread, into shared memory every thread reads in place; a host always lands in the same bucket), and
 * the threads take buckets as they get free: first the buckets each answered last time (their hosts are in
 * its cache), then the last bucket of the longest other list. So a worker still starting, or slowed by a
 * large file, leaves its share to the others instead of making them wait. This thread answers a bucket, then
 * lets its event loop turn (a worker's reply is taken and its next bucket posted); each worker has
 * HostShardPool#shardsAhead buckets posted at a time. The answers are merged back in line order: text by one
 * formatter pass over the window's verdicts, jsonl by runs of lines of one bucket. Two windows are in flight
 * at most; window k uses the buffers k % 2, free again once it is written. A failed worker's bucket is
 * answered on this thread.
 */
export class HostShardsAnswerer implements ChunkAnswerer {
  private readonly threads: number;
  private readonly bucketCount: number;
  /** What workers answer: text output is made here from their verdicts (one formatter pass over the chunk). */
  private readonly workerFormat: OutputFormat;
  /** The thread that last answered each bucket (0: this one, w + 1: worker w): it is offered the bucket first next time. */
  private readonly owner: Uint8Array;
  /** Reused buffers per parity: the window's lines (text), its buckets (shared memory), the merged output. */
  private readonly buffers = { lines: [EMPTY, EMPTY], buckets: [EMPTY, EMPTY], merged: [EMPTY, EMPTY] };
  /** Each worker's counters from its last reply (they are running totals of that thread). */
  private readonly workerCounters = new Map<number, HostCounters>();

  constructor(private readonly pool: HostShardPool, private readonly hosts: MultiHostMatcher, private readonly spec: AnswerSpec, private readonly counts: AnswerCounts) {
    this.threads = pool.workers + 1;
    this.bucketCount = Math.min(255, this.threads * BUCKETS_PER_THREAD);
    this.owner = Uint8Array.from({ length: this.bucketCount }, (_, bucket) => bucket % this.threads);
    this.workerFormat = spec.format === 'text' ? 'none' : spec.format;
  }

  /** Each worker's counters from its last reply. */
  workerCountersNow(): Iterable<HostCounters> {
    return this.workerCounters.values();
  }

  /** The chunk must stay unchanged until the answer settles: for text output, give a copy of a buffer the reader reuses (see keepLines). */
  async answer(job: ChunkJob): Promise<ChunkAnswer> {
    const { spec, pool, threads, bucketCount, owner } = this;
    const parity = job.index % 2;
    const urls = job.urls;
    if (this.buffers.buckets[parity].length < urls.length + 1) this.buffers.buckets[parity] = new Uint8Array(new SharedArrayBuffer(Math.ceil((urls.length + 1) * 1.25)));
    const { shardOfLine, shards: buckets } = splitLinesByHost(urls, bucketCount, this.buffers.buckets[parity]);
    const lineCount = shardOfLine.length;
    const numbers = spec.format === 'jsonl' ? this.numbersByBucket(shardOfLine, job) : null;
    const parts: BucketAnswer[] = new Array<BucketAnswer>(bucketCount).fill(NO_LINES);
    const lists: number[][] = Array.from({ length: threads }, () => []);
    for (let bucket = 0; bucket < bucketCount; bucket++) if (buckets[bucket].length > 0) lists[owner[bucket]].push(bucket);
    const take = (thread: number): number | undefined => {
      const own = lists[thread].shift();
      if (own !== undefined) return own;
      let longest = -1;
      for (let other = 0; other < threads; other++) if (lists[other].length > 0 && (longest < 0 || lists[other].length > lists[longest].length)) longest = other;
      return longest < 0 ? undefined : lists[longest].pop();
    };
    const failed: number[] = [];
    const inWorkers: Promise<void>[] = [];
    let answeredInWorker = false;
    // each reply posts the worker's next bucket: the list grows while this thread waits for it
    const post = (worker: number): void => {
      const bucket = take(worker + 1);
      if (bucket === undefined) return;
      inWorkers.push(pool.answer(worker, buckets[bucket], this.workerFormat, spec.only, numbers?.[bucket] ?? null).then((reply) => {
        parts[bucket] = reply;
        owner[bucket] = worker + 1;
        answeredInWorker = true;
        this.workerCounters.set(worker, reply.stats);
        this.counts.noHostLines += reply.noHostLines;
      }, () => {
        this.counts.recomputed++;
        failed.push(bucket); // answered here below
      }).then(() => post(worker)));
    };
    for (let worker = 0; worker < pool.workers; worker++) for (let ahead = 0; ahead < pool.shardsAhead; ahead++) post(worker);
    const answerHere = async (bucket: number): Promise<void> => {
      const local = await this.hosts.checkLinesWithOutput(buckets[bucket], { format: this.workerFormat, only: spec.only, firstNumber: 1, numbers: numbers?.[bucket] ?? null });
      this.counts.noHostLines += local.noHostLines;
      parts[bucket] = local;
    };
    for (let bucket = take(0); bucket !== undefined; bucket = take(0)) {
      await answerHere(bucket);
      owner[bucket] = 0;
      await yieldToEventLoop();
    }
    for (let i = 0; i < inWorkers.length; i++) await inWorkers[i];
    for (const bucket of failed) await answerHere(bucket);
    if (answeredInWorker) this.counts.chunksInWorkers++;
    // the verdicts back in line order, then one text formatter; jsonl lines are taken from the buckets in order
    const verdicts = new Uint8Array(lineCount);
    const cursors = new Uint32Array(bucketCount);
    for (let i = 0; i < lineCount; i++) {
      const bucket = shardOfLine[i];
      verdicts[i] = parts[bucket].verdicts[cursors[bucket]++];
    }
    const noHost = { lines: parts.reduce((sum, part) => sum + part.noHostLines, 0), examples: shardExamplesInChunk(shardOfLine, parts.map((part) => part.noHostExamples)) };
    if (spec.format === 'text') {
      const output = formatTextLines(urls, verdicts, outputFilterCode(spec.only), this.buffers.merged[parity]);
      if (output.buffer !== this.buffers.merged[parity].buffer) this.buffers.merged[parity] = new Uint8Array(Math.ceil(output.length * 1.25));
      return { output, lines: lineCount, reused: false, noHost };
    }
    return { output: this.mergeJsonl(shardOfLine, verdicts, parts, parity), lines: lineCount, reused: false, noHost };
  }

  /** The chunk's lines kept for the text formatter after the replies: a copy when they are in a buffer the reader reuses. */
  keepLines(chunk: Uint8Array, index: number): Uint8Array {
    const parity = index % 2;
    const copy = this.buffer('lines', parity, chunk.length).subarray(0, chunk.length);
    copy.set(chunk);
    return copy;
  }

  close(): Promise<void> {
    return this.pool.close();
  }

  /** buffers[name][parity], replaced by a larger one when shorter than bytes. */
  private buffer(name: 'lines', parity: number, bytes: number): Uint8Array {
    if (this.buffers[name][parity].length < bytes) this.buffers[name][parity] = new Uint8Array(Math.ceil(bytes * 1.25));
    return this.buffers[name][parity];
  }

  /** jsonl "input" numbers of each bucket's lines. */
  private numbersByBucket(shardOfLine: Uint8Array, job: ChunkJob): Uint32Array[] {
    const counts = new Uint32Array(this.bucketCount);
    for (let i = 0; i < shardOfLine.length; i++) counts[shardOfLine[i]]++;
    const lists = Array.from(counts, (count) => new Uint32Array(count));
    counts.fill(0);
    for (let i = 0; i < shardOfLine.length; i++) {
      const shard = shardOfLine[i];
      lists[shard][counts[shard]++] = job.numbers !== null ? job.numbers[i] : job.firstNumber + i;
    }
    return lists;
  }

  /** The buckets' jsonl lines in input order: one copy per run of lines from the same bucket (not an object per line: a window holds ~30,000 lines). */
  private mergeJsonl(shardOfLine: Uint8Array, verdicts: Uint8Array, parts: { output: Uint8Array }[], parity: number): Uint8Array {
    const only = this.spec.only;
    const mergedLength = parts.reduce((sum, part) => sum + part.output.length, 0);
    if (this.buffers.merged[parity].length < mergedLength) this.buffers.merged[parity] = new Uint8Array(Math.ceil(mergedLength * 1.25));
    const merged = this.buffers.merged[parity].subarray(0, mergedLength);
    const offsets = new Uint32Array(this.bucketCount);
    let written = 0;
    for (let i = 0; i < shardOfLine.length;) {
      const shard = shardOfLine[i];
      const source = parts[shard].output;
      const from = offsets[shard];
      let to = from;
      for (; i < shardOfLine.length && shardOfLine[i] === shard; i++) if (keepsVerdict(only, verdicts[i])) to = source.indexOf(CHAR_LF, to) + 1;
      merged.set(source.subarray(from, to), written);
      written += to - from;
      offsets[shard] = to;
    }
    return merged;
  }
}
