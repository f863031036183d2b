// A worker's reply to a batch of lines, in one layout for both kinds of task (one robots.txt, a shard of
// hosts): [REPLY_HEADER_WORDS u32, little-endian | verdict bytes | output bytes], written by the worker into
// the task's shared reply slot when it fits (nothing is then moved between threads), else into a new buffer
// that is moved. Header words: line count, output length, then (hosts tasks; 0 in a lines reply) lines with
// no host, hosts answered, runs of one host, the first lines with no host (NO_HOST_LINES_NAMED words: line
// index + 1, 0 for none), and the thread's HOST_COUNTER_NAMES in that order.
import type { MultiHostStats } from '../hosts/index.js';
import { NO_HOST_LINES_NAMED } from '../../core/constants.js';

/** The host counters a hosts thread reports with every reply (summed over threads for --stats). */
export type HostCounters = Pick<MultiHostStats, 'compiled' | 'direct' | 'packed' | 'missing' | 'allowAll' | 'disallowAll' | 'evicted' | 'cachedHosts' | 'cacheBytes' | 'cutBodies' | 'packHeldBytes'>;

/** The counters of HostCounters, in the order the header carries them. */
export const HOST_COUNTER_NAMES: readonly (keyof HostCounters)[] = ['compiled', 'direct', 'packed', 'missing', 'allowAll', 'disallowAll', 'evicted', 'cachedHosts', 'cacheBytes', 'cutBodies', 'packHeldBytes'];

const FIXED_WORDS = 5 + NO_HOST_LINES_NAMED;
/** Words before the verdicts. */
export const REPLY_HEADER_WORDS = FIXED_WORDS + HOST_COUNTER_NAMES.length;
const HEADER_BYTES = REPLY_HEADER_WORDS * 4;

/** What a hosts task adds to its verdicts and output. */
export interface HostsReplyCounts {
  noHostLines: number;
  /** The first lines of the shard with no host (indexes). */
  noHostExamples: number[];
  hosts: number;
  runs: number;
  stats: HostCounters;
}

/** A decoded reply: views of the packed bytes (valid as long as they are). */
export interface WorkerReply extends HostsReplyCounts {
  verdicts: Uint8Array;
  output: Uint8Array;
}

/** Counters all 0 (a lines reply's). */
export function zeroCounters(): HostCounters {
  return { compiled: 0, direct: 0, packed: 0, missing: 0, allowAll: 0, disallowAll: 0, evicted: 0, cachedHosts: 0, cacheBytes: 0, cutBodies: 0, packHeldBytes: 0 };
}

/** Several threads' counters summed (--stats of a run over many hosts). */
export function sumCounters(counters: Iterable<HostCounters>): HostCounters {
  const totals = zeroCounters();
  for (const one of counters) for (const name of HOST_COUNTER_NAMES) totals[name] += one[name];
  return totals;
}

/**
 * Packs verdicts and output (and a hosts task's counts) into `into` when it fits and is 4-byte aligned (the
 * result is then a view of it), else into a new buffer. Called by the worker once per task.
 */
export function encodeReply(verdicts: Uint8Array, output: Uint8Array, counts: HostsReplyCounts | null, into: Uint8Array | null): Uint8Array {
  const size = HEADER_BYTES + verdicts.length + output.length;
  const packed = into !== null && into.length >= size && into.byteOffset % 4 === 0 ? into.subarray(0, size) : new Uint8Array(size);
  const words = new Uint32Array(packed.buffer, packed.byteOffset, REPLY_HEADER_WORDS);
  words[0] = verdicts.length;
  words[1] = output.length;
  words[2] = counts?.noHostLines ?? 0;
  words[3] = counts?.hosts ?? 0;
  words[4] = counts?.runs ?? 0;
  for (let i = 0; i < NO_HOST_LINES_NAMED; i++) words[5 + i] = (counts?.noHostExamples[i] ?? -1) + 1;
  HOST_COUNTER_NAMES.forEach((name, index) => { words[FIXED_WORDS + index] = counts?.stats[name] ?? 0; });
  packed.set(verdicts, HEADER_BYTES);
  packed.set(output, HEADER_BYTES + verdicts.length);
  return packed;
}

/** The reply packed by encodeReply, as views of it. Called by the pools once per reply. */
export function decodeReply(packed: Uint8Array): WorkerReply {
  const words = new Uint32Array(packed.buffer, packed.byteOffset, REPLY_HEADER_WORDS);
  const count = words[0];
  const outputEnd = HEADER_BYTES + count + words[1];
  const stats = zeroCounters();
  HOST_COUNTER_NAMES.forEach((name, index) => { stats[name] = words[FIXED_WORDS + index]; });
  return {
    verdicts: packed.subarray(HEADER_BYTES, HEADER_BYTES + count),
    output: packed.subarray(HEADER_BYTES + count, outputEnd),
    noHostLines: words[2],
    noHostExamples: Array.from(words.subarray(5, 5 + NO_HOST_LINES_NAMED)).filter((word) => word > 0).map((word) => word - 1),
    hosts: words[3],
    runs: words[4],
    stats,
  };
}
