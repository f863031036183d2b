// Many hosts: URLs of thousands to millions of hosts, each answered by its own host's robots.txt, in bulk.
// A MultiHostMatcher gets bodies from a source (a directory, a Map, or a callback such as a fetcher),
// compiles each host's rules once (assembly/select.ts, the same compile as parseRobots().matcher()), keeps
// the compiled matchers in WebAssembly memory within a byte budget (least recently used out, approximated
// by a clock), and matches mixed-host chunks of lines in one pass per chunk: lines are grouped by host
// inside the core, so random host order costs what sorted order costs while the hosts fit the budget.
//
// Per cached host the JavaScript side keeps a few numbers in typed arrays, no string and no object: host
// names live in the core's host table (src/core/wasm/hosts-engine.ts), and so does the matcher.
import { DEFAULT_MAX_BYTES, DEFAULT_CACHE_BYTES, MAX_CACHE_BYTES, CHAR_LF, NO_HOST_LINES_NAMED } from '../../core/constants.js';
import { outputFilterCode } from '../../core/matcher.js';
import { RobotsError } from '../../core/errors.js';
import { encodeAgents, HostEngineLease, type HostEngine } from '../../core/engine.js';
import { sourceTraits, robotsFromDirectory, type SourceTraits, type RobotsHost, type RobotsSource, type RobotsSourceAnswer } from './sources.js';
import { linesArgument, urlsArgument, urlArgument, agentsArgument, optionsArgument, maxBytesArgument, wholeNumberArgument } from '../../core/arguments.js';
import { HostCache } from './host-cache.js';
import { HostResolver, type ChunkResolution } from './host-resolver.js';
import { FixedSlots, HostRounds, comesSortedByHost } from './host-rounds.js';
import { SourceCalls } from './source-calls.js';
import type { HostsSpec, MultiHostOptions, MultiHostStats, HostChunkResult, HostChunkFormat } from './types.js';

export type { HostsSpec, MultiHostOptions, MultiHostStats, HostChunkResult, HostChunkFormat } from './types.js';
export { DEFAULT_CACHE_BYTES };

const encoder = new TextEncoder();

/** The many-host matcher of a check thread (this one or a worker): the spec's directory, or `source` (check --fetch). Once per thread. */
export function matcherForSpec(spec: HostsSpec, source: RobotsSource | null = null, concurrency?: number): MultiHostMatcher {
  return new MultiHostMatcher({
    agents: spec.agents, ...spec.reading, cacheBytes: spec.cacheBytes, missing: spec.missing,
    noHost: spec.noHost === 'error' ? 'allow' : spec.noHost,
    source: source ?? robotsFromDirectory(spec.directory, { maxBytes: spec.reading.maxBytes, now: spec.now }), concurrency,
  });
}

/** The part of `into` after the outputs of parts written in it (views of its buffer), or null when none is left. */
function unusedTail(into: Uint8Array | null, parts: HostChunkResult[]): Uint8Array | null {
  if (into === null) return null;
  let end = into.byteOffset;
  for (const part of parts) if (part.output.buffer === into.buffer && part.output.length > 0) end = Math.max(end, part.output.byteOffset + part.output.length);
  const stop = into.byteOffset + into.length;
  return end >= stop ? null : new Uint8Array(into.buffer, end, stop - end);
}
/** The noHostExamples of parts answered one after another, as line indexes of the whole. */
function partsExamples(parts: HostChunkResult[]): number[] {
  const examples: number[] = [];
  let before = 0;
  for (const part of parts) {
    for (const index of part.noHostExamples) if (examples.length < NO_HOST_LINES_NAMED) examples.push(before + index);
    before += part.verdicts.length;
  }
  return examples;
}

/** cacheBytes within what one WebAssembly instance can address (MAX_CACHE_BYTES); the one check of the constructor and setBudget. */
function cacheBytesArgument(bytes: unknown): number {
  if (!Number.isInteger(bytes) || (bytes as number) < 1 << 20 || (bytes as number) > MAX_CACHE_BYTES) {
    throw new RobotsError('INVALID_ARGUMENT', `cacheBytes must be a whole number from 1 MiB (1048576) to 3 GiB (${MAX_CACHE_BYTES}, what the WebAssembly core can address), got ${String(bytes)}`);
  }
  return bytes as number;
}

/**
 * The safety net for matchers dropped without close(): their blocks go back to the heap once they are
 * collected and the event loop turns (a loop that never yields to it runs no finalizer: close() is the plan).
 */
const droppedMatchers = new FinalizationRegistry<HostEngineLease>((lease) => lease.release());

type Attempt =
  | { kind: 'done'; result: HostChunkResult }
  | { kind: 'fetch'; hosts: RobotsHost[]; started: Map<string, Promise<RobotsSourceAnswer>> }
  | { kind: 'split' };

/**
 * Answers URLs of many hosts, each by its own host's robots.txt, exactly as parseRobots(body).matcher(agents)
 * would. Made once per job (one per worker thread); its calls are serialised. Its rooms: the cache and its
 * budget (host-cache.ts), the calls to its source (source-calls.ts), resolving a chunk's hosts
 * (host-resolver.ts) and answering the chunk in rounds (host-rounds.ts).
 */
export class MultiHostMatcher {
  /** Bodies shorter than this are compiled at once, longer ones kept raw first (tests set 0 to send every body the direct way). */
  static directMinBytes = 0;
  private readonly engine: HostEngine;
  private readonly lease: HostEngineLease;
  /** close() was called; calls in flight then, if any, release the lease when they end. */
  private closed = false;
  private callsInFlight = 0;
  /** What the source tells of itself (the package's own sources; null for a user's function). */
  private readonly traits: SourceTraits | null;
  /** Hosts met once may be answered from a body that is not kept (google mode, a source asked again cheaply). */
  private readonly transientsAllowed: boolean;
  private budget: number;
  private readonly cache: HostCache;
  private readonly calls: SourceCalls;
  private readonly resolver: HostResolver;
  private readonly fixed: FixedSlots;
  private readonly rounds: HostRounds;
  private queue: Promise<unknown> = Promise.resolve();
  private readonly counters = { lines: 0, compiled: 0, direct: 0, packed: 0, missing: 0, allowAll: 0, disallowAll: 0, evicted: 0, noHostLines: 0, cutBodies: 0 };

  constructor(options: MultiHostOptions) {
    optionsArgument(options, ['agents', 'source', 'mode', 'maxBytes', 'cacheBytes', 'missing', 'noHost', 'concurrency', 'sourceTimeoutMs'], 'MultiHostMatcher options');
    const agents = agentsArgument(options.agents);
    const mode = options.mode ?? 'google';
    if (mode !== 'google' && mode !== 'rfc') throw new RobotsError('INVALID_ARGUMENT', `unknown mode "${String(mode)}" (expected google or rfc)`);
    const maxBytes = maxBytesArgument(options.maxBytes, DEFAULT_MAX_BYTES);
    this.budget = cacheBytesArgument(options.cacheBytes ?? DEFAULT_CACHE_BYTES);
    const concurrency = wholeNumberArgument('concurrency', options.concurrency, 16, 1, 4096);
    const sourceTimeoutMs = wholeNumberArgument('sourceTimeoutMs', options.sourceTimeoutMs, 60_000, 1, 3_600_000);
    const missing = options.missing ?? 'allow';
    if (missing !== 'allow' && missing !== 'disallow' && missing !== 'error') throw new RobotsError('INVALID_ARGUMENT', `missing must be allow, disallow or error, got ${String(missing)}`);
    const noHost = options.noHost ?? (missing === 'error' ? 'allow' : missing);
    if (noHost !== 'allow' && noHost !== 'disallow') throw new RobotsError('INVALID_ARGUMENT', `noHost must be allow or disallow, got ${String(noHost)}`);
    if (typeof options.source !== 'function') throw new RobotsError('INVALID_ARGUMENT', 'source must be a function (robotsFromDirectory, robotsFromMap, or your own)');
    const rfc = mode === 'rfc';
    this.traits = sourceTraits(options.source);
    this.transientsAllowed = !rfc && this.traits?.askedAgainCheaply === true;
    const encodedAgents = encodeAgents(agents);
    this.lease = new HostEngineLease(this.budget);
    this.engine = this.lease.engine;
    droppedMatchers.register(this, this.lease, this.lease);
    this.cache = new HostCache(this.engine, this.budget, this.counters);
    const fixed = this.fixed = new FixedSlots(this.engine, encodedAgents, rfc, noHost);
    this.calls = new SourceCalls(options.source, concurrency, sourceTimeoutMs);
    this.rounds = new HostRounds(this.engine, this.cache, fixed, this.counters);
    this.resolver = new HostResolver(this.engine, this.cache, fixed, this.calls, this.counters, {
      agents: encodedAgents, rfc, maxBytes, missing, transientsAllowed: this.transientsAllowed, directMinBytes: () => MultiHostMatcher.directMinBytes,
    });
    try {
      this.fitHeldData();
      // (data read whole are checked whole then; else checked now, before any answer)
      if (!this.engine.packData.holding) this.traits?.checkData?.();
    } catch (error) {
      this.releaseLease();
      throw error;
    }
  }

  /** What a source gives at once (a small pack's rules for the agent) held when the budget allows: at open, and when a new budget applies. */
  private fitHeldData(): void {
    if (this.traits?.heldData !== undefined) this.cache.fitHeldData(this.traits.heldData, () => ({ allow: this.fixed.slot('allow'), disallow: this.fixed.slot('disallow') }));
  }

  /** Changes the budget (the command line splits it between threads when they start); applies from the next chunk. */
  setBudget(bytes: number): void {
    cacheBytesArgument(bytes);
    this.refuseIfClosed();
    this.budget = bytes;
    this.lease.setBudget(bytes);
    this.cache.budget = bytes;
    if (this.callsInFlight === 0) this.fitHeldData(); // (else when the next call starts)
  }

  /**
   * Gives the matcher's WebAssembly memory back to its thread's heap (compiled hosts, tables, its budget),
   * for the next matcher to reuse: a process that makes a matcher per job stays flat. A call in flight
   * finishes first; calls after it throw CLOSED. Idempotent. A matcher dropped without it is reclaimed
   * when it is collected, later. Called once per matcher (or by `using`).
   */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    if (this.callsInFlight === 0) this.releaseLease();
  }

  /** close(), for `using hosts = new MultiHostMatcher(...)`. */
  [Symbol.dispose](): void {
    this.close();
  }

  /** The lease back to the heap, and out of the finalizer's list (nothing left for it to release). */
  private releaseLease(): void {
    droppedMatchers.unregister(this.lease);
    this.lease.release();
  }

  private refuseIfClosed(): void {
    if (this.closed) throw new RobotsError('CLOSED', 'this MultiHostMatcher was closed');
  }

  /** Counters so far and the cache's state. */
  get stats(): MultiHostStats {
    return { ...this.counters, missingOrigins: [...this.resolver.missingOrigins], cutOrigins: [...this.resolver.cutOrigins], cachedHosts: this.cache.cachedHosts, cacheBytes: this.cache.accountedBytes(), budgetBytes: this.budget, packHeldBytes: this.engine.packData.heapBytes };
  }

  /** Verdict bytes (1 allowed, 2 disallowed) of LF-separated URL lines (LF or CRLF; a final line without LF counts). Called per chunk. */
  async checkLines(lines: Uint8Array): Promise<Uint8Array> {
    return (await this.checkLinesWithOutput(lines, { format: 'none' })).verdicts;
  }

  /** Verdicts of URL strings (UTF-8 encoded; a URL must not contain a line break). One call per batch. */
  async checkUrls(urls: readonly (string | URL)[]): Promise<Uint8Array> {
    urls = urlsArgument(urls, 'urls');
    for (const url of urls as string[]) if (url.includes('\n') || url.includes('\r')) throw new RobotsError('INVALID_ARGUMENT', `a URL contains a line break: ${JSON.stringify(url.slice(0, 80))}`);
    if (urls.length === 0) return new Uint8Array(0);
    return this.checkLines(encoder.encode(urls.join('\n')));
  }

  /** One verdict (for many URLs use checkLines or checkUrls). */
  async isAllowed(url: string | URL): Promise<boolean> {
    return (await this.checkUrls([urlArgument(url, 'url')]))[0] === 1;
  }

  /** Verdicts and formatted output (text or jsonl, see HostChunkFormat) of a chunk of LF-separated URL lines. */
  checkLinesWithOutput(lines: Uint8Array, format: HostChunkFormat): Promise<HostChunkResult> {
    linesArgument(lines, 'lines');
    outputFilterCode(format.only ?? 'all'); // an unknown filter is refused before any work (INVALID_ARGUMENT)
    this.refuseIfClosed();
    this.callsInFlight++;
    const run = this.queue.then(() => this.answer(lines, format)).finally(() => {
      if (--this.callsInFlight === 0 && this.closed) this.releaseLease();
    });
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async answer(lines: Uint8Array, format: HostChunkFormat): Promise<HostChunkResult> {
    this.rounds.releaseTransients(); // (left by a call that failed)
    this.fitHeldData();
    const parts: HostChunkResult[] = [];
    await this.answerInParts(lines, format, parts);
    if (parts.length === 1) return parts[0];
    // each part's output is written in `into` after the ones before it (unusedTail): when they all fitted,
    // the whole output is a view of it
    const into = format.into ?? null;
    const inInto = into !== null && parts.every((part) => part.output.length === 0 || part.output.buffer === into.buffer);
    return {
      verdicts: Buffer.concat(parts.map((part) => part.verdicts)),
      output: inInto ? into.subarray(0, parts.reduce((sum, part) => sum + part.output.length, 0)) : Buffer.concat(parts.map((part) => part.output)),
      noHostLines: parts.reduce((sum, part) => sum + part.noHostLines, 0),
      noHostExamples: partsExamples(parts),
      hosts: parts.reduce((sum, part) => sum + part.hosts, 0),
      runs: parts.reduce((sum, part) => sum + part.runs, 0),
      sortedByHost: parts.every((part) => part.sortedByHost),
    };
  }

  /** Answers lines, in parts when their hosts do not fit the budget together; the parts in input order go to `parts`. Returns the line count. */
  private async answerInParts(lines: Uint8Array, format: HostChunkFormat, parts: HostChunkResult[]): Promise<number> {
    if (lines.length === 0) return 0;
    const bodies = new Map<string, RobotsSourceAnswer>();
    while (true) {
      const attempt = this.attempt(lines, format, bodies);
      if (attempt.kind === 'done') {
        this.engine.chunks.trimChunk(this.cache.budgetPart(2));
        this.cache.makeRoom(false); // the chunk's hosts are no longer needed together: back within the budget
        parts.push(attempt.result);
        return attempt.result.verdicts.length;
      }
      if (attempt.kind === 'fetch') {
        await this.calls.fetchBodies(attempt.hosts, attempt.started, bodies);
        continue;
      }
      // the chunk's hosts do not fit the budget together: answer it in two halves (the second's output
      // written after the first's in `into`)
      const half = splitPoint(lines);
      const firstLines = await this.answerInParts(lines.subarray(0, half), { ...format, last: false }, parts);
      return firstLines + await this.answerInParts(lines.subarray(half), {
        ...format,
        into: unusedTail(format.into ?? null, parts),
        firstNumber: (format.firstNumber ?? 1) + firstLines,
        numbers: format.numbers ? format.numbers.subarray(firstLines) : null,
      }, parts);
    }
  }

  /**
   * One synchronous pass over a chunk: resolve its hosts, match, format; or say what it needs first. When
   * the hosts resolved so far fill the budget, the lines they answer are matched at once (a round) and the
   * pass goes on: each host is compiled once per chunk however many hosts the chunk names. jsonl output
   * refers to rules inside the matchers until the chunk is formatted, so there the chunk is split instead.
   */
  private attempt(lines: Uint8Array, format: HostChunkFormat, bodies: Map<string, RobotsSourceAnswer>): Attempt {
    const explain = format.format === 'jsonl';
    const chunks = this.engine.chunks;
    // the chunk with its per-line arrays in at most half the budget, its host names in at most a quarter
    const pending = chunks.loadChunk(lines, this.cache.budgetPart(4), this.cache.budgetPart(2), explain, (more) => this.cache.makeRoom(false, more));
    if (pending === null) return { kind: 'split' };
    this.engine.packData.takeMet(this.counters); // (origins the core answered from the pack held in it)
    // rounds answer groups of lines in order of first appearance: once keys [0, i) are resolved, the groups
    // before key i's group are (when no key waits for an asynchronous source: such an attempt is made again)
    this.rounds.begin(pending.groupCount);
    const resolvedBefore = (i: number): number => (i < pending.entries.length ? pending.groups[i] : pending.groupCount);
    // a host new to the cache is kept unless it cannot be met again: no lines come after these, or they come
    // host by host (hosts with several lines each, each host's lines in one run: input sorted by host); then
    // it is answered from its body in the landing block and forgotten, and no cache memory is touched for it
    // (input that comes host by host in each window but names the same hosts again later, such as sorted
    // parts one after another, shows it by hosts that come back after they were forgotten: they are kept then)
    const distinct = chunks.distinctHosts;
    const byHost = comesSortedByHost(chunks.lines, chunks.runs, distinct);
    let index = 0;
    // an asynchronous source is asked once here; the other hosts it must give wait for fetchBodies (bounded)
    const resolution: ChunkResolution = {
      bodies, toFetch: [], started: new Map(), lastLines: format.last === true,
      transientsAllowed: this.transientsAllowed && !explain && (format.last === true || byHost),
      emptyLanding: () => this.rounds.answerRound(resolvedBefore(index)),
    };
    this.traits?.expect?.(pending.entries.length);
    for (; index < pending.entries.length; index++) {
      if (this.resolver.resolveKey(pending.entries[index], pending.keyOf(index), chunks.groupLines(pending.groups[index]), resolution) !== 'taken') continue;
      if (!this.cache.makeRoom() && chunks.lines > 1) {
        if (explain) return { kind: 'split' };
        this.rounds.answerRound(resolvedBefore(index + 1));
      }
    }
    if (resolution.toFetch.length > 0) return { kind: 'fetch', hosts: resolution.toFetch, started: resolution.started };
    // explained lines name their rules by address until they are formatted (a raw host compiled in place on
    // the way allocates): no block moves meanwhile
    const finish = (): Attempt => ({ kind: 'done', result: this.rounds.finish(format, explain) });
    return explain ? this.lease.keepingBlocks(finish) : finish();
  }
}

/** A line boundary near the middle of a chunk with at least two lines. */
function splitPoint(lines: Uint8Array): number {
  const middle = lines.length >> 1;
  const after = lines.indexOf(CHAR_LF, middle);
  if (after >= 0 && after + 1 < lines.length) return after + 1;
  const before = lines.lastIndexOf(CHAR_LF, middle);
  return before + 1;
}

