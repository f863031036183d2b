// Many hosts: URLs of thousands to millions of hosts, each answered by its own host's robots.txt, in bulk.
// A MultiHostMatcher gets bodies from a source (a directory, a Map, or a callback such as a fetcher),
// compiles each host's rules once (assembly/select.ts, the same compile as parseRobots().matcher()), keeps
// the compiled matchers in WebAssembly memory within a byte budget (least recently used out, approximated
// by a clock), and matches mixed-host chunks of lines in one pass per chunk: lines are grouped by host
// inside the core, so random host order costs what sorted order costs while the hosts fit the budget.
//
// Per cached host the JavaScript side keeps a few numbers in typed arrays, no string and no object: host
// names live in the core's host table (src/core/wasm/hosts-engine.ts), and so does the matcher.
import { DEFAULT_MAX_BYTES, DEFAULT_CACHE_BYTES, MAX_CACHE_BYTES, SLOT_FLAG_MISSING_POLICY, CHAR_LF, NO_HOST_LINES_NAMED } from '../../core/constants.js';
import { outputFilterCode, type OutputFilter } from '../../core/matcher.js';
import { RobotsError } from '../../core/errors.js';
import { core, type WasmCore } from '../core-node.js';
import { bytesToRead, automatonCapBytes, AUTOMATON_GROWTH } from '../../core/engine.js';
import { encodeAgents } from '../../core/engine.js';
import type { MatcherHeap } from '../../core/engine.js';
import { HostEngine } from '../../core/engine.js';
import { ALLOW_ALL, DISALLOW_ALL, CompiledRules, FULL_VERDICT_BODY, sourceTraits, robotsFromDirectory, robotsHostOf, type SourceTraits, type FullVerdict, type MissingPolicy, type RobotsHost, type RobotsSource, type RobotsSourceAnswer } from './sources.js';
import { originOfKey } from '../../core/url-model.js';
import { linesArgument, urlsArgument, urlArgument, agentsArgument, optionsArgument, maxBytesArgument, wholeNumberArgument } from '../../core/arguments.js';
import type { RobotsMode, AgentQuery } from '../../core/robots.js';

/** What a check thread needs to make its MultiHostMatcher over a robots directory or store (see matcherForSpec). */
export interface HostsSpec {
  directory: string;
  /** A pack file (robotstxt pack) instead of the directory: each thread opens it (src/node/pack/). */
  pack?: string | null;
  agents: string[];
  mode: RobotsMode;
  maxBytes: number;
  /** This thread's share of the budget. */
  cacheBytes: number;
  missing: MissingPolicy;
  /** Lines that name no host: a verdict, or error (check stops at the first, naming its line: the matcher answers it allowed meanwhile). */
  noHost: FullVerdict | 'error';
  /** The time (ms since the epoch) stored fetch records are judged at (robotsFromDirectory's now). */
  now: number;
}

/** The many-host matcher of a check thread (this one or a worker): the spec's directory, or `source` (check --fetch). Once per thread. */
export function matcherForSpec(spec: HostsSpec, source: RobotsSource | null = null, concurrency?: number): MultiHostMatcher {
  return new MultiHostMatcher({
    agents: spec.agents, mode: spec.mode, maxBytes: spec.maxBytes, cacheBytes: spec.cacheBytes, missing: spec.missing,
    noHost: spec.noHost === 'error' ? 'allow' : spec.noHost,
    source: source ?? robotsFromDirectory(spec.directory, { maxBytes: spec.maxBytes, now: spec.now }), concurrency,
  });
}

export interface MultiHostOptions {
  /** The product token(s) to check, e.g. 'Googlebot' (several: their groups are pooled). */
  agents: AgentQuery;
  /** Bodies by host: robotsFromDirectory(dir), robotsFromMap(map), or your own function. */
  source: RobotsSource;
  mode?: RobotsMode;
  /** Bytes of each body that are read (default 512,000; 0 = all). */
  maxBytes?: number;
  /** Budget for everything cached hosts hold: compiled matchers, automaton regions, host tables (default 64 MiB; 1 MiB to 3 GiB). */
  cacheBytes?: number;
  /** Hosts without a robots.txt: allow (default), disallow, or error (NO_ROBOTS naming the origin). */
  missing?: MissingPolicy;
  /** Lines that name no host (no http(s) URL, a host the URL parser refuses): allow or disallow (default: missing's verdict; allow when missing is error). */
  noHost?: FullVerdict;
  /** Asynchronous sources: how many bodies are awaited at once (default 16). */
  concurrency?: number;
  /** Asynchronous sources: how long one answer may take, in ms (default 60,000; 1 to 3,600,000); then SOURCE_FAILED naming the origin. */
  sourceTimeoutMs?: number;
}

/** What a MultiHostMatcher did so far. */
export interface MultiHostStats {
  /** Lines answered. */
  lines: number;
  /** Hosts whose robots.txt was compiled (a host evicted and met again counts again). */
  compiled: number;
  /** Hosts whose lines were answered straight from their robots.txt, never compiled (a host met again counts again). */
  direct: number;
  /** Hosts looked up that had no robots.txt (the source knew nothing of them: the missing policy). */
  missing: number;
  /** Hosts the source answered ALLOW_ALL (a stored 4xx) and DISALLOW_ALL (stored as unreachable). */
  allowAll: number;
  disallowAll: number;
  /** Compiled hosts dropped to stay within the budget. */
  evicted: number;
  /** Hosts whose rules came compiled already (a pack's blob), kept as they came. */
  packed: number;
  /** Compiles of bodies longer than maxBytes, read only up to there (a host compiled again counts again). */
  cutBodies: number;
  /** Lines that named no host (relative URLs, no scheme, bad host names). */
  noHostLines: number;
  /** The first origins (at most 5) the source knew nothing of (counted in `missing`). */
  missingOrigins: string[];
  /** The first origins (at most 5) whose robots.txt was longer than maxBytes (read in part), by this thread. */
  cutOrigins: string[];
  /** Hosts with a compiled matcher now. */
  cachedHosts: number;
  /** Bytes counted against the budget now. */
  cacheBytes: number;
  /** The budget. */
  budgetBytes: number;
}

/** Output of a chunk: its verdict bytes (1 allowed, 2 disallowed, in input order) and the formatted lines. */
export interface HostChunkResult {
  verdicts: Uint8Array;
  output: Uint8Array;
  /** Lines that named no host (answered by the noHost policy), and the first of them (at most 5; line indexes in the chunk). */
  noHostLines: number;
  noHostExamples: number[];
  /** Hosts of the chunk answered by a compiled matcher (hosts without a robots.txt and lines without a host not counted). */
  hosts: number;
  /** Runs of consecutive lines with the same host: about `hosts` for input sorted by host, about the line count in random order. */
  runs: number;
}

/** How a chunk is formatted: text lines (see check) or jsonl with the deciding rules, all lines or `only` those of one verdict. */
export interface HostChunkFormat {
  format: 'none' | 'text' | 'jsonl';
  only?: OutputFilter;
  /** jsonl "input" numbers: firstNumber + line index (default 1), or numbers[line index]. */
  firstNumber?: number;
  numbers?: Uint32Array | null;
  /**
   * Text and jsonl output: written into this buffer when it fits (the result's output is then a view of it,
   * valid until the buffer is reused), else into a new one. For callers that answer chunk after chunk.
   */
  into?: Uint8Array | null;
  /**
   * No lines come after these (the last chunk of an input): hosts new to the cache are answered from their
   * body without being kept (no cache memory touched for them). Default false.
   */
  last?: boolean;
}

export { DEFAULT_CACHE_BYTES };

/** The part of `into` after the outputs of parts written in it (views of its buffer), or null when none is left. */
function unusedTail(into: Uint8Array | null, parts: HostChunkResult[]): Uint8Array | null {
  if (into === null) return null;
  let end = into.byteOffset;
  for (const part of parts) if (part.output.buffer === into.buffer && part.output.length > 0) end = Math.max(end, part.output.byteOffset + part.output.length);
  const stop = into.byteOffset + into.length;
  return end >= stop ? null : new Uint8Array(into.buffer, end, stop - end);
}
/** Bytes counted per cached host besides its heap blocks: its numbers in typed arrays and the clock. */
const HOST_COST_BYTES = 32;
/**
 * A raw slot (a body kept uncompiled: its lines answered straight from it, assembly/direct.ts) is compiled
 * once it has answered more lines than this: a compile costs about what answering this many lines from
 * the body costs. Hosts of a crawl that bring ~10 to 40 URLs are never compiled.
 */
const DIRECT_MAX_LINES = 64;
/** A slot gets an automaton region once it has answered this many lines (fewer: the trie NFA is cheaper). */
const AUTOMATON_AFTER_LINES = 512;

/** First automaton region of a host's matcher: a few KiB for the usual small file, grown x4 when it fills up. */
function hostAutomatonFirstBytes(blobLength: number): number {
  return Math.min(automatonCapBytes(blobLength), Math.ceil((4096 + 2 * blobLength) / 4096) * 4096);
}
const encoder = new TextEncoder();
/** Origins without a robots.txt named in MultiHostStats.missingOrigins, and lines without a host in HostChunkResult.noHostExamples. */
const MISSING_ORIGINS_NAMED = 5;

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

/** A source's error for an origin: this package's own errors as they are (they name their file), others as SOURCE_FAILED naming the origin. */
function sourceError(host: RobotsHost, error: unknown): RobotsError {
  if (error instanceof RobotsError) return error;
  return new RobotsError('SOURCE_FAILED', `the robots source failed for ${host.origin}: ${error instanceof Error ? error.message : String(error)}`);
}

function bodyBytes(body: Exclude<RobotsSourceAnswer, null>, host: RobotsHost): Uint8Array {
  if (typeof body === 'string') return encoder.encode(body);
  if (body instanceof Uint8Array) return body;
  if (body instanceof ArrayBuffer) return new Uint8Array(body);
  if (ArrayBuffer.isView(body)) return new Uint8Array(body.buffer, body.byteOffset, body.byteLength);
  throw new RobotsError('INVALID_ARGUMENT', `the robots source gave ${Object.prototype.toString.call(body)} for ${host.origin} (expected a Uint8Array, ArrayBuffer, DataView, string or null)`);
}

const isPromise = (value: unknown): value is Promise<RobotsSourceAnswer> => typeof (value as { then?: unknown } | null)?.then === 'function';

/** cacheBytes within what one WebAssembly instance can address (MAX_CACHE_BYTES); the one check of the constructor and setBudget. */
function cacheBytesArgument(bytes: unknown): number {
  if (!Number.isInteger(bytes) || (bytes as number) < 1 << 20 || (bytes as number) > MAX_CACHE_BYTES) {
    throw new RobotsError('INVALID_ARGUMENT', `cacheBytes must be a whole number from 1 MiB (1048576) to 3 GiB (${MAX_CACHE_BYTES}, what the WebAssembly core can address), got ${String(bytes)}`);
  }
  return bytes as number;
}

/**
 * What a MultiHostMatcher holds in its thread's WebAssembly heap: its engine's blocks and its share of the
 * heap's budget. Released once, by close(), or by the finalizer when a matcher is dropped unclosed; it holds
 * no reference to the matcher, so a dropped matcher can be collected.
 */
class HeapLease {
  private released = false;
  constructor(readonly engine: HostEngine, private readonly heap: MatcherHeap, public budget: number) {}
  /** Frees the engine's blocks and the budget; returns the heap bytes freed (0 when released already). */
  release(): number {
    if (this.released) return 0;
    this.released = true;
    droppedMatchers.unregister(this);
    const before = this.heap.liveBytes;
    this.engine.close();
    this.heap.releaseBudget(this.budget);
    return before - this.heap.liveBytes;
  }
}

/**
 * The safety net for matchers dropped without close(): their blocks go back to the heap once they are
 * collected and the event loop turns (a loop that never yields to it runs no finalizer: close() is the plan).
 */
const droppedMatchers = new FinalizationRegistry<HeapLease>((lease) => lease.release());

type Attempt =
  | { kind: 'done'; result: HostChunkResult }
  | { kind: 'fetch'; hosts: RobotsHost[]; started: Map<string, Promise<RobotsSourceAnswer>> }
  | { kind: 'split' };

/**
 * Answers URLs of many hosts, each by its own host's robots.txt, exactly as parseRobots(body).matcher(agents)
 * would. Made once per job (one per worker thread); its calls are serialised.
 */
export class MultiHostMatcher {
  /** Bodies shorter than this are compiled at once, longer ones kept raw first (tests set 0 to send every body the direct way). */
  static directMinBytes = 0;
  private readonly engine: HostEngine;
  private readonly core: WasmCore;
  private readonly lease: HeapLease;
  /** close() was called; calls in flight then, if any, release the lease when they end. */
  private closed = false;
  private callsInFlight = 0;
  private readonly agents: Uint8Array;
  private readonly rfc: boolean;
  private readonly maxBytes: number;
  private readonly source: RobotsSource;
  /** What the source tells of itself (the package's own sources; null for a user's function). */
  private readonly traits: SourceTraits | null;
  /** Hosts met once may be answered from a body that is not kept (google mode, a source asked again cheaply). */
  private readonly transientsAllowed: boolean;
  private budget: number;
  private readonly concurrency: number;
  private readonly sourceTimeoutMs: number;
  private readonly missingPolicy: MissingPolicy;
  private readonly noHostVerdict: FullVerdict;
  /** The slots that answer every URL allowed or disallowed (-1 until needed; never evicted). */
  private readonly fixedSlots: Record<FullVerdict, number> = { allow: -1, disallow: -1 };
  private readonly missingOrigins: string[] = [];
  private readonly cutOrigins: string[] = [];
  /** Hosts with a compiled matcher now. */
  private cachedHosts = 0;
  /** Cached slots in eviction order, and per slot its fill count and its pin stamp when the clock last passed it. */
  private readonly clock = new SlotClock();
  private fills: Uint32Array = new Uint32Array(256);
  /** A source's compiled rules (CompiledRules.key) and the slot that holds them, valid while that slot's fill count is the one noted. */
  private readonly compiledSlots = new Map<number, number>();
  private readonly compiledFills = new Map<number, number>();
  private seenStamp: Uint32Array = new Uint32Array(256);
  private usedBytes = 0;
  /** The scan stamp at which makeRoom found only hosts of the running chunk: no use looking again then. */
  private fullAtStamp = -1;
  private queue: Promise<unknown> = Promise.resolve();
  private readonly counters = { lines: 0, compiled: 0, direct: 0, packed: 0, missing: 0, allowAll: 0, disallowAll: 0, evicted: 0, noHostLines: 0, cutBodies: 0 };
  /** Hosts with a matcher the running chunk's rounds matched. */
  private chunkHosts = 0;
  /** Hosts forgotten (answered from the landing block) that are met again. */
  private readonly comebacks = new Comebacks();
  /** The running chunk's groups of lines, and the first not answered yet (the next round's start). */
  private groupCount = 0;
  private roundStart = 0;

  constructor(options: MultiHostOptions) {
    optionsArgument(options, ['agents', 'source', 'mode', 'maxBytes', 'cacheBytes', 'missing', 'noHost', 'concurrency', 'sourceTimeoutMs'], 'MultiHostMatcher options');
    const agents = agentsArgument(options.agents);
    const mode = options.mode ?? 'google';
    if (mode !== 'google' && mode !== 'rfc') throw new RobotsError('INVALID_ARGUMENT', `unknown mode "${String(mode)}" (expected google or rfc)`);
    this.maxBytes = maxBytesArgument(options.maxBytes, DEFAULT_MAX_BYTES);
    this.budget = cacheBytesArgument(options.cacheBytes ?? DEFAULT_CACHE_BYTES);
    this.concurrency = wholeNumberArgument('concurrency', options.concurrency, 16, 1, 4096);
    this.sourceTimeoutMs = wholeNumberArgument('sourceTimeoutMs', options.sourceTimeoutMs, 60_000, 1, 3_600_000);
    const missing = options.missing ?? 'allow';
    if (missing !== 'allow' && missing !== 'disallow' && missing !== 'error') throw new RobotsError('INVALID_ARGUMENT', `missing must be allow, disallow or error, got ${String(missing)}`);
    const noHost = options.noHost ?? (missing === 'error' ? 'allow' : missing);
    if (noHost !== 'allow' && noHost !== 'disallow') throw new RobotsError('INVALID_ARGUMENT', `noHost must be allow or disallow, got ${String(noHost)}`);
    if (typeof options.source !== 'function') throw new RobotsError('INVALID_ARGUMENT', 'source must be a function (robotsFromDirectory, robotsFromMap, or your own)');
    this.source = options.source;
    this.rfc = mode === 'rfc';
    this.traits = sourceTraits(options.source);
    this.transientsAllowed = !this.rfc && this.traits?.askedAgainCheaply === true;
    this.agents = encodeAgents(agents);
    this.core = core();
    this.core.frame.heap.reserveBudget(this.budget);
    this.engine = new HostEngine(this.core);
    this.engine.raw.setLandingBudget(this.budget);
    this.lease = new HeapLease(this.engine, this.core.frame.heap, this.budget);
    droppedMatchers.register(this, this.lease, this.lease);
    this.missingPolicy = missing;
    this.noHostVerdict = noHost;
    this.fixedSlot(noHost); // the slot lines without a host get: made now, as every chunk groups by it
  }

  /** The slot that answers every URL allowed or disallowed (made on first use; never evicted). */
  private fixedSlot(verdict: FullVerdict): number {
    if (this.fixedSlots[verdict] < 0) this.fixedSlots[verdict] = this.engine.compiled.compileSlot(encoder.encode(FULL_VERDICT_BODY[verdict]), this.agents, this.rfc, SLOT_FLAG_MISSING_POLICY);
    return this.fixedSlots[verdict];
  }

  /** Changes the budget (the command line splits it between threads when they start); applies from the next chunk. */
  setBudget(bytes: number): void {
    cacheBytesArgument(bytes);
    this.refuseIfClosed();
    this.core.frame.heap.releaseBudget(this.budget);
    this.budget = bytes;
    this.lease.budget = bytes;
    this.engine.raw.setLandingBudget(bytes);
    this.core.frame.heap.reserveBudget(bytes);
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
    if (this.callsInFlight === 0) this.lease.release();
  }

  /** close(), for `using hosts = new MultiHostMatcher(...)`. */
  [Symbol.dispose](): void {
    this.close();
  }

  private refuseIfClosed(): void {
    if (this.closed) throw new RobotsError('CLOSED', 'this MultiHostMatcher was closed');
  }

  /** Counters so far and the cache's state. */
  get stats(): MultiHostStats {
    return { ...this.counters, missingOrigins: [...this.missingOrigins], cutOrigins: [...this.cutOrigins], cachedHosts: this.cachedHosts, cacheBytes: this.accountedBytes(), budgetBytes: this.budget };
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
      if (--this.callsInFlight === 0 && this.closed) this.lease.release();
    });
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async answer(lines: Uint8Array, format: HostChunkFormat): Promise<HostChunkResult> {
    this.releaseTransients(); // (left by a call that failed)
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
    };
  }

  /** Answers lines, in parts when their hosts do not fit the budget together; the parts in input order go to `parts`. Returns the line count. */
  private async answerInParts(lines: Uint8Array, format: HostChunkFormat, parts: HostChunkResult[]): Promise<number> {
    if (lines.length === 0) return 0;
    const bodies = new Map<string, RobotsSourceAnswer>();
    while (true) {
      const attempt = this.attempt(lines, format, bodies);
      if (attempt.kind === 'done') {
        this.engine.chunks.trimChunk(this.budgetPart(2));
        this.makeRoom(false); // the chunk's hosts are no longer needed together: back within the budget
        parts.push(attempt.result);
        return attempt.result.verdicts.length;
      }
      if (attempt.kind === 'fetch') {
        await this.fetchBodies(attempt.hosts, attempt.started, bodies);
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
   * The source's answer for an origin; an error it throws comes back naming the origin (a RobotsError keeps
   * its code), and the matcher stays usable for later calls.
   */
  private askSource(host: RobotsHost): RobotsSourceAnswer | Promise<RobotsSourceAnswer> {
    let answer: RobotsSourceAnswer | Promise<RobotsSourceAnswer>;
    try {
      answer = this.source(host);
    } catch (error) {
      throw sourceError(host, error);
    }
    return isPromise(answer) ? answer.then((body) => body, (error: unknown) => { throw sourceError(host, error); }) : answer;
  }

  /** An asynchronous answer within sourceTimeoutMs, else SOURCE_FAILED naming the origin (a source that never settles hangs nothing). */
  private withDeadline(host: RobotsHost, answer: Promise<RobotsSourceAnswer>): Promise<RobotsSourceAnswer> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new RobotsError('SOURCE_FAILED', `the robots source gave no answer for ${host.origin} within ${this.sourceTimeoutMs} ms`)), this.sourceTimeoutMs);
    });
    return Promise.race([answer, deadline]).finally(() => clearTimeout(timer));
  }

  /** Bodies of an asynchronous source, at most `concurrency` at a time (`started`: those already asked for). */
  private async fetchBodies(hosts: RobotsHost[], started: Map<string, Promise<RobotsSourceAnswer>>, bodies: Map<string, RobotsSourceAnswer>): Promise<void> {
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < hosts.length) {
        const host = hosts[next++];
        bodies.set(host.origin, await this.withDeadline(host, Promise.resolve(started.get(host.origin) ?? this.askSource(host))));
      }
    };
    await Promise.all(Array.from({ length: Math.min(this.concurrency, hosts.length) }, worker));
  }

  /**
   * One synchronous pass over a chunk: resolve its hosts, match, format; or say what it needs first. When
   * the hosts resolved so far fill the budget, the lines they answer are matched at once (a round) and the
   * pass goes on: each host is compiled once per chunk however many hosts the chunk names. jsonl output
   * refers to rules inside the matchers until the chunk is formatted, so there the chunk is split instead.
   */
  private attempt(lines: Uint8Array, format: HostChunkFormat, bodies: Map<string, RobotsSourceAnswer>): Attempt {
    const explain = format.format === 'jsonl';
    this.chunkHosts = 0;
    // the chunk with its per-line arrays in at most half the budget, its host names in at most a quarter
    const pending = this.engine.chunks.loadChunk(lines, this.budgetPart(4), this.budgetPart(2), explain, (more) => this.makeRoom(false, more));
    if (pending === null) return { kind: 'split' };
    // a host new to the cache is kept unless it cannot be met again: no lines come after these, or they come
    // host by host (hosts with several lines each, each host's lines in one run: input sorted by host); then
    // it is answered from its body in the landing block and forgotten, and no cache memory is touched for it
    // (input that comes host by host in each window but names the same hosts again later, such as sorted
    // parts one after another, shows it by hosts that come back after they were forgotten: they are kept then)
    const distinct = this.engine.chunks.distinctHosts;
    const byHost = this.engine.chunks.lines >= 2 * distinct && this.engine.chunks.runs <= distinct + (distinct >> 3);
    const lastLines = format.last === true;
    const transientsAllowed = this.transientsAllowed && !explain && (lastLines || byHost);
    this.traits?.expect?.(pending.keys.length);
    // an asynchronous source is asked once here; the other hosts it must give wait for fetchBodies (bounded)
    const toFetch: RobotsHost[] = [];
    const started = new Map<string, Promise<RobotsSourceAnswer>>();
    // rounds answer groups of lines in order of first appearance: once keys [0, i) are resolved, the groups
    // before key i's group are (when no key waits for an asynchronous source: such an attempt is made again)
    this.roundStart = 0;
    this.groupCount = pending.groupCount;
    const resolvedBefore = (i: number): number => (i < pending.keys.length ? pending.groups[i] : pending.groupCount);
    for (let i = 0; i < pending.keys.length; i++) {
      const entry = pending.entries[i];
      const key = pending.keys[i];
      // the URL model resolves each distinct spelling once: a canonical key's own entry is the one being
      // resolved (only names remembered for other spellings can answer it); another spelling (case, a trailing dot, an IDN, a default port,
      // percent-escapes) may name an origin compiled already: its canonical key says
      const origin = originOfKey(key);
      if (origin === null) {
        this.engine.table.resolve(entry, null);
        continue;
      }
      const host = robotsHostOf(origin);
      const canonical = origin.origin;
      if (canonical !== key) this.engine.table.markAlias(entry);
      const cached = this.engine.table.findHost(canonical, canonical !== key); // (a plain key may have been remembered for a spelling of it)
      if (cached >= 0) {
        this.engine.table.resolve(entry, cached);
        continue;
      }
      let body: RobotsSourceAnswer | Promise<RobotsSourceAnswer>;
      if (bodies.has(canonical)) {
        body = bodies.get(canonical) as RobotsSourceAnswer;
      } else if (toFetch.length > 0) {
        if (!toFetch.some((wanted) => wanted.origin === canonical)) toFetch.push(host);
        continue;
      } else {
        body = this.askSource(host);
        if (isPromise(body)) {
          started.set(canonical, body);
          body.catch(() => undefined); // its error is thrown where fetchBodies awaits it
          toFetch.push(host);
          continue;
        }
      }
      if (body === null || body === undefined) {
        if (this.missingPolicy === 'error') throw new RobotsError('NO_ROBOTS', `no robots.txt known for ${canonical} (the source has no file or store record of it; missing: 'error')`);
        this.counters.missing++;
        if (this.missingOrigins.length < MISSING_ORIGINS_NAMED && !this.missingOrigins.includes(canonical)) this.missingOrigins.push(canonical);
        this.engine.table.resolve(entry, this.fixedSlot(this.missingPolicy));
        continue;
      }
      if (body === ALLOW_ALL || body === DISALLOW_ALL) {
        this.counters[body === ALLOW_ALL ? 'allowAll' : 'disallowAll']++;
        this.engine.table.resolve(entry, this.fixedSlot(body === ALLOW_ALL ? 'allow' : 'disallow'));
        continue;
      }
      if (body instanceof CompiledRules) {
        // a pack's blob, compiled for this query already: read into a block as it is, once for every origin
        // of its body while it stays cached
        const known = this.compiledSlots.get(body.key);
        let slot: number;
        if (known !== undefined && this.engine.slots.isFilled(known) && this.fills[known] === this.compiledFills.get(body.key)) {
          slot = known;
        } else {
          slot = this.engine.compiled.blobSlot(body.length, body.fill);
          this.cache(slot, HOST_COST_BYTES);
          this.compiledSlots.set(body.key, slot);
          this.compiledFills.set(body.key, this.fills[slot]);
        }
        this.counters.packed++;
        if (canonical !== key) this.engine.table.rememberHost(canonical, slot);
        this.engine.table.resolve(entry, slot);
        if (!this.makeRoom() && this.engine.chunks.lines > 1) {
          if (explain) return { kind: 'split' };
          this.answerRound(resolvedBefore(i + 1));
        }
        continue;
      }
      const bytes = this.readBytes(bodyBytes(body, host), host);
      if (this.transientsAllowed) this.comebacks.met(canonical);
      let slot: number;
      if (transientsAllowed && (lastLines || !this.comebacks.frequent) && bytes.length >= MultiHostMatcher.directMinBytes && this.engine.raw.fitsLanding(bytes.length)) {
        // not kept: its lines are answered from its body in the landing block (a full block is answered first)
        if (!this.engine.raw.landingHasRoom(bytes.length)) this.answerRound(resolvedBefore(i));
        slot = this.engine.raw.transientSlot(bytes, this.agents);
        this.comebacks.forgotten(canonical);
        this.counters.direct++;
      } else {
        slot = this.keep(bytes);
      }
      if (canonical !== key) this.engine.table.rememberHost(canonical, slot);
      this.engine.table.resolve(entry, slot);
      if (!this.makeRoom() && this.engine.chunks.lines > 1) {
        if (explain) return { kind: 'split' };
        this.answerRound(resolvedBefore(i + 1));
      }
    }
    if (toFetch.length > 0) return { kind: 'fetch', hosts: toFetch, started };
    // explained lines name their rules by address until they are formatted (a raw host compiled in place on
    // the way allocates): no block moves meanwhile
    return explain ? this.core.frame.heap.keepingBlocks(() => this.finishChunk(format, true)) : this.finishChunk(format, false);
  }

  /** Answers the groups from the last round's end to `upTo` (a round), then forgets the round's transient hosts and unpins its slots. */
  private answerRound(upTo: number): void {
    this.matchRound(false, upTo);
    this.releaseTransients();
    this.engine.chunks.newRound();
  }

  /** Empties the landing block (its hosts' lines are answered): a host met again is read again. */
  private releaseTransients(): void {
    if (this.engine.raw.transientCount > 0) this.engine.raw.releaseTransients();
  }

  /** Matches the lines of the chunk not answered yet, and formats the chunk. The last step of an attempt. */
  private finishChunk(format: HostChunkFormat, explain: boolean): Attempt {
    this.matchRound(explain, this.groupCount);
    this.releaseTransients();
    const lineCount = this.engine.chunks.lines;
    this.counters.lines += lineCount;
    this.counters.noHostLines += this.engine.chunks.noHostLines;
    const verdicts = this.engine.chunks.verdicts();
    const filter = outputFilterCode(format.only ?? 'all');
    const output = format.format === 'text' ? this.engine.chunks.formatText(filter, format.into ?? null)
      : explain ? this.engine.chunks.formatJsonl(filter, format.firstNumber ?? 1, format.numbers ?? null, format.into ?? null)
      : new Uint8Array(0);
    const noHostExamples = this.engine.chunks.noHostLines > 0 ? this.engine.chunks.noHostLineIndexes(NO_HOST_LINES_NAMED) : [];
    return { kind: 'done', result: { verdicts, output, noHostLines: this.engine.chunks.noHostLines, noHostExamples, hosts: this.chunkHosts, runs: this.engine.chunks.runs } };
  }

  /** Matches the groups [roundStart, upTo), every host of them resolved (their slots get automaton regions first when busy). */
  private matchRound(explain: boolean, upTo: number): void {
    if (upTo <= this.roundStart) return;
    this.engine.chunks.round(this.roundStart, upTo, this.fixedSlot(this.noHostVerdict));
    for (let g = this.roundStart; g < upTo; g++) {
      const slot = this.engine.chunks.groupSlot(g);
      if (slot === this.fixedSlots.allow || slot === this.fixedSlots.disallow) continue;
      const lines = this.engine.chunks.groupLines(g);
      if (this.engine.raw.isRaw(slot)) {
        // a host that comes back, or brings many lines, is compiled, when the budget has room for its
        // matcher besides the hosts this round needs; else its lines are answered from its body this time
        if (this.engine.slots.slotLines(slot) + lines <= DIRECT_MAX_LINES || !this.upgrade(slot, true)) {
          this.chunkHosts++;
          continue;
        }
      }
      this.planAutomaton(slot, lines);
      this.chunkHosts++;
    }
    // explained lines name rules inside the slots until the chunk is formatted: a raw host whose direct
    // answer gave up (past its work limit) is compiled in place rather than in scratch
    for (let stopped = this.engine.chunks.match(explain); stopped >= 0; stopped = this.engine.chunks.match(explain, stopped)) this.upgrade(this.engine.chunks.groupSlot(stopped));
    this.roundStart = upTo;
  }

  /**
   * Compiles a raw slot's body in its place; withinBudget: only when the budget has room for the matcher
   * (hosts not pinned by this chunk are evicted for it), else the slot stays raw. Returns whether it compiled.
   */
  private upgrade(slot: number, withinBudget = false): boolean {
    const transient = this.engine.raw.isTransient(slot);
    const before = this.engine.slots.slotBytes(slot);
    if (!this.engine.raw.upgradeSlot(slot, withinBudget ? (more) => this.makeRoom(true, more) : null)) return false;
    if (transient) this.cache(slot, HOST_COST_BYTES); // a host busy on first sight: its matcher is kept
    else this.usedBytes += this.engine.slots.slotBytes(slot) - before;
    this.counters.compiled++;
    this.counters.direct--;
    return true;
  }

  /** The part of a body that is parsed (maxBytes; cut bodies counted), or INPUT_TOO_LARGE naming the origin. */
  private readBytes(body: Uint8Array, host: RobotsHost): Uint8Array {
    let read: Uint8Array;
    try {
      read = body.subarray(0, bytesToRead(body.length, this.maxBytes));
    } catch (error) {
      throw new RobotsError('INPUT_TOO_LARGE', `the robots.txt of ${host.origin}: ${(error as Error).message}`);
    }
    if (read.length < body.length) {
      this.counters.cutBodies++;
      if (this.cutOrigins.length < MISSING_ORIGINS_NAMED && !this.cutOrigins.includes(host.origin)) this.cutOrigins.push(host.origin);
    }
    return read;
  }

  /**
   * A new cached slot for a host's body (already cut to maxBytes): kept raw (its first lines answered
   * straight from the body, no compile) in google mode; compiled in rfc mode.
   */
  private keep(read: Uint8Array): number {
    const raw = !this.rfc && read.length >= MultiHostMatcher.directMinBytes;
    const slot = raw ? this.engine.raw.rawSlot(read, this.agents) : this.engine.compiled.compileSlot(read, this.agents, this.rfc);
    this.counters[raw ? 'direct' : 'compiled']++;
    this.cache(slot, HOST_COST_BYTES);
    return slot;
  }

  /** Enters a filled slot in the cache: the clock, its fill count, its bytes (and `more` besides). */
  private cache(slot: number, more: number): void {
    this.cachedHosts++;
    if (slot >= this.fills.length) {
      this.fills = grown(this.fills, slot);
      this.seenStamp = grown(this.seenStamp, slot);
    }
    this.fills[slot]++;
    this.clock.push(slot, this.fills[slot]);
    this.seenStamp[slot] = this.engine.slots.currentStamp;
    this.usedBytes += this.engine.slots.slotBytes(slot) + more;
  }

  /**
   * A busy slot gets an automaton region (small, grown when it fills up, at most 1/16 of the budget) when
   * the budget has room for it as it is: a region never evicts a host (a host compiled again costs more
   * than its lines answered by the trie NFA).
   */
  private planAutomaton(slot: number, lines: number): void {
    const current = this.engine.slots.automatonBytes(slot);
    const blob = this.engine.slots.blobBytes(slot);
    const cap = Math.min(automatonCapBytes(blob), this.budgetPart(16));
    let wanted = 0;
    if (current === 0) {
      if (this.engine.slots.slotLines(slot) + lines >= AUTOMATON_AFTER_LINES) wanted = hostAutomatonFirstBytes(blob);
    } else if (current < cap && this.engine.slots.automatonOverflowed(slot)) {
      wanted = Math.min(cap, current * AUTOMATON_GROWTH);
    }
    if (wanted === 0 || wanted > cap || this.accountedBytes() + wanted - current > this.budget - this.budgetPart(8)) return;
    const before = this.engine.slots.slotBytes(slot);
    this.engine.slots.giveAutomaton(slot, wanted);
    this.usedBytes += this.engine.slots.slotBytes(slot) - before;
  }

  /** A part of the budget (budgets reach 3 GiB: whole-number division, never a signed 32-bit shift). */
  private budgetPart(divisor: number): number {
    return Math.floor(this.budget / divisor);
  }

  private accountedBytes(): number {
    return this.usedBytes + this.engine.ownBytes;
  }

  /**
   * Evicts hosts (clock order) until the budget holds, with room for `more` bytes the engine is about to
   * take; with pinned, never a host the running chunk uses, and false when only those are left. Once over
   * the budget it evicts down to 7/8 of it: the heap's free blocks and its growth step then fit inside.
   */
  private makeRoom(pinned = true, more = 0): boolean {
    const stamp = this.engine.slots.currentStamp;
    if (this.accountedBytes() + more <= this.budget) return true;
    if (pinned && this.fullAtStamp === stamp) return false;
    const target = this.budget - this.budgetPart(8) - more;
    // two turns of the clock at most: the first may only take second chances away
    let visits = 2 * this.clock.length;
    while (this.accountedBytes() > target) {
      if (visits-- <= 0 || this.clock.length === 0) {
        if (pinned) this.fullAtStamp = stamp;
        return this.accountedBytes() + more <= this.budget;
      }
      const slot = this.clock.shift();
      if (this.clock.shiftedFill !== this.fills[slot] || !this.engine.slots.isFilled(slot)) continue; // emptied since: stale
      const pin = this.engine.slots.pinStamp(slot);
      if (pinned && pin === stamp) {
        this.requeue(slot); // used by this chunk
        continue;
      }
      if (pin !== this.seenStamp[slot]) {
        // used since the clock last passed: a second chance
        this.seenStamp[slot] = pin;
        this.requeue(slot);
        continue;
      }
      this.evict(slot);
    }
    return true;
  }

  private requeue(slot: number): void {
    this.clock.push(slot, this.fills[slot]);
  }

  private evict(slot: number): void {
    this.usedBytes -= this.engine.slots.slotBytes(slot) + HOST_COST_BYTES;
    this.engine.slots.freeSlot(slot);
    this.cachedHosts--;
    this.counters.evicted++;
  }
}

/**
 * How often hosts that were answered from their body and forgotten come back: their origins as 32-bit hashes
 * in an open-addressed table (at most FORGOTTEN_LIMIT places, emptied when three quarters full; a collision
 * only counts a host as come back), and the share of new hosts that came back, over the last few thousand.
 * Once more than one in eight does, input that comes host by host keeps its hosts (frequent).
 */
class Comebacks {
  private table = new Uint32Array(1024);
  private count = 0;
  private newHosts = 0;
  private cameBack = 0;

  /** Whether hosts forgotten come back often enough that forgetting them costs more reads than it saves pages. */
  get frequent(): boolean {
    return this.cameBack * 8 > this.newHosts && this.newHosts >= 64;
  }

  /** A host not in the cache was read (per host read). */
  met(origin: string): void {
    if (this.count > 0 && this.has(originHash(origin))) this.cameBack++;
    if (++this.newHosts >= 8192) {
      this.newHosts >>= 1;
      this.cameBack >>= 1;
    }
  }

  /** A host answered from the landing block and not kept. */
  forgotten(origin: string): void {
    if ((this.count + 1) * 4 > this.table.length * 3) {
      if (this.table.length >= FORGOTTEN_LIMIT) {
        this.table.fill(0);
        this.count = 0;
      } else {
        const old = this.table;
        this.table = new Uint32Array(old.length * 2);
        this.count = 0;
        for (const hash of old) if (hash !== 0) this.insert(hash);
      }
    }
    this.insert(originHash(origin));
  }

  private has(hash: number): boolean {
    const mask = this.table.length - 1;
    for (let at = hash & mask; ; at = (at + 1) & mask) {
      const held = this.table[at];
      if (held === 0) return false;
      if (held === hash) return true;
    }
  }

  private insert(hash: number): void {
    const mask = this.table.length - 1;
    let at = hash & mask;
    while (this.table[at] !== 0) {
      if (this.table[at] === hash) return;
      at = (at + 1) & mask;
    }
    this.table[at] = hash;
    this.count++;
  }
}
/** Places of the forgotten hosts' table at most (4 MiB). */
const FORGOTTEN_LIMIT = 1 << 20;

/** A 32-bit FNV-1a hash of an origin's text, never 0. */
function originHash(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return ((hash ^ (hash >>> 16)) | 1) >>> 0;
}

/** A copy of `array` long enough for index `at` (twice as long, or more). */
function grown(array: Uint32Array, at: number): Uint32Array {
  const next = new Uint32Array(Math.max(at + 1, array.length * 2));
  next.set(array);
  return next;
}

/** A ring of (slot, fill count) pairs in typed arrays: the eviction clock, without an object per entry. */
class SlotClock {
  private slots = new Uint32Array(1024);
  private fillCounts = new Uint32Array(1024);
  private head = 0;
  length = 0;
  /** The fill count of the entry the last shift took. */
  shiftedFill = 0;

  push(slot: number, fill: number): void {
    if (this.length === this.slots.length) {
      const slots = new Uint32Array(this.slots.length * 2);
      const fills = new Uint32Array(this.slots.length * 2);
      for (let i = 0; i < this.length; i++) {
        const at = (this.head + i) % this.slots.length;
        slots[i] = this.slots[at];
        fills[i] = this.fillCounts[at];
      }
      this.slots = slots;
      this.fillCounts = fills;
      this.head = 0;
    }
    const at = (this.head + this.length) % this.slots.length;
    this.slots[at] = slot;
    this.fillCounts[at] = fill;
    this.length++;
  }

  shift(): number {
    const slot = this.slots[this.head];
    this.shiftedFill = this.fillCounts[this.head];
    this.head = (this.head + 1) % this.slots.length;
    this.length--;
    return slot;
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

