// A pool worker: one WebAssembly instance of the shared compiled module. Two kinds of task:
// - lines: a batch of URL lines against one compiled matcher (cached by id), answered as text or jsonl;
//   the batch is read in place from shared memory and the reply written into the task's shared slot;
// - hosts: a shard of URL lines of many hosts (the hosts it answered before stay in this worker's
//   cache), answered by this thread's MultiHostMatcher, made when the worker starts (its warm task).
import { workerData, move } from 'piscina';
import { startWorkerCore, residentRules, releaseResidentRules, answerLinesText, answerLinesJsonl, nextOutputBuffer } from '../core-node.js';
import { matcherForSpec, type MultiHostMatcher } from '../hosts/index.js';
import { packSourceForSpec } from '../pack/index.js';
import type { LinesTask, HostsTask, WarmTask } from './pool.js';
import { encodeReply } from './reply-codec.js';
import { outputFilterCode } from '../../core/matcher.js';
import type { CompiledRules } from '../../core/engine.js';

const data = workerData as { module: WebAssembly.Module };
startWorkerCore(data.module);
const MAX_CACHED_MATCHERS = 64;
const matchers = new Map<number, CompiledRules>();
let hosts: MultiHostMatcher | null = null;
/** Output of a hosts task, reused from task to task (the reply is packed from it into the task's reply slot). */
let hostsOutput: Uint8Array = new Uint8Array(0);
/** One robots.txt's jsonl output, made here chunk after chunk (grown when a chunk's did not fit). */
let jsonlOutput: Uint8Array = new Uint8Array(0);

/** Answers a shard of many hosts: its reply, packed, to move back. */
async function answerHosts(task: HostsTask): Promise<Uint8Array> {
  hosts ??= matcherForSpec(task.spec, task.spec.pack ? packSourceForSpec(task.spec) : null);
  const result = await hosts.checkLinesWithOutput(task.input, { format: task.format, only: task.only, firstNumber: 1, numbers: task.numbers, into: hostsOutput });
  const reply = encodeReply(result.verdicts, result.output, { noHostLines: result.noHostLines, noHostExamples: result.noHostExamples, hosts: result.hosts, runs: result.runs, stats: hosts.stats }, null);
  // the next task's output goes into the larger of the two (a new buffer each task would wait for the collector)
  hostsOutput = nextOutputBuffer(hostsOutput, result.output);
  return reply;
}
/** Hosts tasks one after another (several are posted at once, see HostShardPool#shardsAhead; hostsOutput is reused by each). */
let hostsTurn: Promise<unknown> = Promise.resolve();

/** Called by piscina once per task. */
export default async function runTask(task: LinesTask | HostsTask | WarmTask): Promise<unknown> {
  if (task.kind === 'warm') {
    if (task.spec !== undefined) hosts ??= matcherForSpec(task.spec, task.spec.pack ? packSourceForSpec(task.spec) : null);
    return true;
  }
  if (task.kind === 'hosts') {
    const turn = hostsTurn.then(() => answerHosts(task));
    hostsTurn = turn.catch(() => undefined);
    return move(await turn);
  }
  let rules = matchers.get(task.matcherId);
  if (rules === undefined) {
    rules = residentRules(task.blob); // a view of shared memory: the same bytes, never copied between threads
    matchers.set(task.matcherId, rules);
    if (matchers.size > MAX_CACHED_MATCHERS) {
      const oldest = matchers.keys().next().value as number;
      releaseResidentRules(matchers.get(oldest) as CompiledRules);
      matchers.delete(oldest);
    }
  }
  if (task.format === 'jsonl') {
    // made in a buffer this worker reuses, then copied into the reply slot when it fits (else moved)
    const { output, verdicts } = answerLinesJsonl(rules, task.input, outputFilterCode(task.only), task.firstNumber, task.numbers, jsonlOutput);
    jsonlOutput = nextOutputBuffer(jsonlOutput, output);
    const packed = encodeReply(verdicts, output, null, task.output);
    return packed.buffer === task.output?.buffer ? null : move(packed);
  }
  // the verdicts and text are read from linear memory straight into the reply slot (one copy)
  const { verdicts, output } = answerLinesText(rules, task.input, outputFilterCode(task.only));
  const packed = encodeReply(verdicts, output, null, task.output);
  return packed.buffer === task.output?.buffer ? null : move(packed);
}
