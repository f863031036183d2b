// Resolving the hosts a chunk of many hosts names: each key met for the first time (or again after its slot
// was emptied) is read as an origin by the URL model, then answered by a slot: the one of another spelling of
// the same origin, a fixed verdict (no robots.txt known, a fetch's 4xx or 5xx), compiled rules a source
// handed out (a pack's: kept, or, for a host that cannot be met again soon, read into the landing block for
// one round), or the host's body: kept raw or compiled, or, for a host that cannot be met again soon,
// answered from the landing block and forgotten.
import { RobotsError } from '../../core/errors.js';
import { bytesToRead } from '../../core/engine.js';
import type { HostEngine } from '../../core/engine.js';
import { originOfKey } from '../../core/url-model.js';
import { ALLOW_ALL, DISALLOW_ALL, CompiledRules, robotsHostOf, type MissingPolicy, type RobotsHost, type RobotsSourceAnswer } from './sources.js';
import { bodyBytes, isPromise, type SourceCalls } from './source-calls.js';
import { AUTOMATON_AFTER_LINES, HOST_COST_BYTES, type HostCache } from './host-cache.js';
import type { FixedSlots } from './host-rounds.js';
import { Comebacks } from './comebacks.js';

/** Origins without a robots.txt named in MultiHostStats.missingOrigins (and cut ones in cutOrigins). */
const MISSING_ORIGINS_NAMED = 5;

/** What resolving a key did: a new slot taken in (the cache may be over its budget now), nothing new, or the source must be awaited first. */
export type KeyOutcome = 'taken' | 'resolved' | 'awaited';

/** What resolving the keys of one chunk attempt shares. */
export interface ChunkResolution {
  /** Bodies an asynchronous source gave (by canonical origin), and the hosts it must still give, asked once. */
  bodies: Map<string, RobotsSourceAnswer>;
  toFetch: RobotsHost[];
  started: Map<string, Promise<RobotsSourceAnswer>>;
  /** Hosts new to the cache may be answered from the landing block and forgotten (see MultiHostMatcher.attempt). */
  transientsAllowed: boolean;
  /** No lines come after these. */
  lastLines: boolean;
  /** Answers the lines resolved so far, to empty a full landing block. */
  emptyLanding: () => void;
}

/** The counters the resolution keeps (MultiHostStats's). */
export interface ResolutionCounters {
  compiled: number;
  direct: number;
  packed: number;
  missing: number;
  allowAll: number;
  disallowAll: number;
  cutBodies: number;
}

/** Resolves the keys of a MultiHostMatcher's chunks. */
export class HostResolver {
  readonly missingOrigins: string[] = [];
  readonly cutOrigins: string[] = [];
  /** Hosts forgotten (answered from the landing block) that are met again. */
  private readonly comebacks = new Comebacks();

  constructor(
    private readonly engine: HostEngine, private readonly cache: HostCache, private readonly fixed: FixedSlots, private readonly calls: SourceCalls,
    private readonly counters: ResolutionCounters,
    private readonly query: { agents: Uint8Array; rfc: boolean; maxBytes: number; missing: MissingPolicy; transientsAllowed: boolean; directMinBytes: () => number },
  ) {}

  /** Resolves one pending key of the loaded chunk (its host table entry; `lines`: the chunk's lines of it). */
  resolveKey(entry: number, key: string, lines: number, chunk: ChunkResolution): KeyOutcome {
    // the URL model resolves each distinct spelling once: a canonical key's own entry is the one being
    // resolved (only names remembered for other spellings can answer it); another spelling (case, a trailing
    // dot, an IDN, a default port, percent-escapes) may name an origin compiled already: its canonical key says
    const origin = originOfKey(key);
    const table = this.engine.table;
    if (origin === null) {
      table.resolve(entry, null);
      return 'resolved';
    }
    const host = robotsHostOf(origin);
    const canonical = origin.origin;
    if (canonical !== key) table.markAlias(entry);
    const cached = table.findHost(canonical, canonical !== key); // (a plain key may have been remembered for a spelling of it)
    if (cached >= 0) {
      table.resolve(entry, cached);
      return 'resolved';
    }
    let body: RobotsSourceAnswer | Promise<RobotsSourceAnswer>;
    if (chunk.bodies.has(canonical)) {
      body = chunk.bodies.get(canonical) as RobotsSourceAnswer;
    } else if (chunk.toFetch.length > 0) {
      if (!chunk.toFetch.some((wanted) => wanted.origin === canonical)) chunk.toFetch.push(host);
      return 'awaited';
    } else {
      body = this.calls.ask(host);
      if (isPromise(body)) {
        chunk.started.set(canonical, body);
        body.catch(() => undefined); // its error is thrown where fetchBodies awaits it
        chunk.toFetch.push(host);
        return 'awaited';
      }
    }
    if (body === null || body === undefined) {
      if (this.query.missing === 'error') throw RobotsError.about('NO_ROBOTS', { name: 'missing', value: 'error' }, (option) => `no robots.txt known for ${canonical} (the source has no file or store record of it; ${option})`);
      this.counters.missing++;
      if (this.missingOrigins.length < MISSING_ORIGINS_NAMED && !this.missingOrigins.includes(canonical)) this.missingOrigins.push(canonical);
      table.resolve(entry, this.fixed.slot(this.query.missing));
      return 'resolved';
    }
    if (body === ALLOW_ALL || body === DISALLOW_ALL) {
      this.counters[body === ALLOW_ALL ? 'allowAll' : 'disallowAll']++;
      table.resolve(entry, this.fixed.slot(body === ALLOW_ALL ? 'allow' : 'disallow'));
      return 'resolved';
    }
    let slot: number;
    if (body instanceof CompiledRules) {
      slot = this.compiledRulesSlot(body, canonical, lines, chunk);
      this.counters.packed++;
    } else {
      slot = this.bodySlot(this.readBytes(bodyBytes(body, host), host), canonical, chunk);
    }
    if (canonical !== key) table.rememberHost(canonical, slot);
    table.resolve(entry, slot);
    return 'taken';
  }

  /**
   * The slot for a pack's blob (compiled for this query already, read as it is): the slot that holds its
   * body's blob now, kept or landed this round (HostCache notes both); for a host that cannot be met again
   * soon (as bodySlot decides) and brings fewer lines than earn an automaton region, the blob read into the
   * landing block for this round (once for the round's origins of its body; read again when met again: no
   * compile, and no fresh memory touched for it); else a new cached slot, read once for every origin of its
   * body while it stays cached.
   */
  private compiledRulesSlot(rules: CompiledRules, canonical: string, lines: number, chunk: ChunkResolution): number {
    const held = this.cache.cachedCompiledSlot(rules);
    if (held >= 0) return held;
    if (rules.place !== null && this.engine.packData.holds(rules.place.data)) {
      // the pack held has a slot for each blob it holds (a key the core could not resolve: not plain)
      const slot = this.engine.packData.slotOfBlob(rules.place.blob);
      if (slot >= 0) return slot;
    }
    if (!this.mayLand(canonical, chunk) || lines >= AUTOMATON_AFTER_LINES || !this.engine.raw.fitsLanding(rules.length, false)) return this.cache.compiledSlot(rules);
    if (!this.engine.raw.landingHasRoom(rules.length, false)) chunk.emptyLanding();
    const slot = this.engine.raw.transientRulesSlot(rules.length, rules.fill);
    this.cache.noteCompiledSlot(rules, slot);
    this.comebacks.forgotten(canonical);
    return slot;
  }

  /**
   * Whether a host new to the cache may go to the landing block for this round rather than be kept: the
   * chunk allows it (no lines follow, or they come host by host) and forgotten hosts do not come back often
   * (counted here: a host read). Per host read.
   */
  private mayLand(canonical: string, chunk: ChunkResolution): boolean {
    if (this.query.transientsAllowed) this.comebacks.met(canonical);
    return chunk.transientsAllowed && (chunk.lastLines || !this.comebacks.frequent);
  }

  /** The slot for a host's body: kept (raw or compiled), or answered from the landing block and forgotten. */
  private bodySlot(bytes: Uint8Array, canonical: string, chunk: ChunkResolution): number {
    if (this.mayLand(canonical, chunk) && bytes.length >= this.query.directMinBytes() && this.engine.raw.fitsLanding(bytes.length)) {
      // not kept: its lines are answered from its body in the landing block (a full block is answered first)
      if (!this.engine.raw.landingHasRoom(bytes.length)) chunk.emptyLanding();
      const slot = this.engine.raw.transientSlot(bytes, this.query.agents);
      this.comebacks.forgotten(canonical);
      this.counters.direct++;
      return slot;
    }
    return this.keep(bytes);
  }

  /** The part of a body that is parsed (maxBytes; cut bodies counted), or INPUT_TOO_LARGE naming the origin. */
  private readBytes(body: Uint8Array, host: RobotsHost): Uint8Array {
    let read: Uint8Array;
    try {
      read = body.subarray(0, bytesToRead(body.length, this.query.maxBytes));
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
    const raw = !this.query.rfc && read.length >= this.query.directMinBytes();
    const slot = raw ? this.engine.raw.rawSlot(read, this.query.agents) : this.engine.compiled.compileSlot(read, this.query.agents, this.query.rfc);
    this.counters[raw ? 'direct' : 'compiled']++;
    this.cache.cache(slot, HOST_COST_BYTES);
    return slot;
  }
}
