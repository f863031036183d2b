// Answering a chunk of many hosts in rounds: the groups of lines whose hosts are resolved are matched
// together (busy hosts get automaton regions first; a raw host that comes back or brings many lines is
// compiled when the budget has room), then the round's transient hosts are forgotten and its slots unpinned;
// the last round formats the chunk. The slots that answer every URL allowed or disallowed are made here.
import { SLOT_FLAG_MISSING_POLICY, NO_HOST_LINES_NAMED } from '../../core/constants.js';
import { outputFilterCode } from '../../core/matcher.js';
import type { HostEngine } from '../../core/engine.js';
import { FULL_VERDICT_BODY, type FullVerdict } from './sources.js';
import { AUTOMATON_AFTER_LINES, HOST_COST_BYTES, type HostCache } from './host-cache.js';
import type { HostChunkFormat, HostChunkResult } from './types.js';

/**
 * A raw slot (a body kept uncompiled: its lines answered straight from it, assembly/direct.ts) is compiled
 * once it has answered more lines than this: a compile costs about what answering this many lines from
 * the body costs. Hosts of a crawl that bring ~10 to 40 URLs are never compiled.
 */
export const DIRECT_MAX_LINES = 64;
const encoder = new TextEncoder();

/**
 * Whether a chunk's lines came sorted by host: two lines an origin or more, about one run of lines an origin
 * (origins without a robots.txt counted). Then a host met in it is done with (its body need not be kept), and
 * a wider window would group no more of a host's lines (check's windows: src/node/check/pipeline.ts). Per chunk.
 */
export function comesSortedByHost(lines: number, runs: number, origins: number): boolean {
  return lines >= 2 * origins && runs <= origins + (origins >> 3);
}

/** The slots that answer every URL allowed or disallowed (made on first use; never evicted), and the one lines without a host get. */
export class FixedSlots {
  private readonly slots: Record<FullVerdict, number> = { allow: -1, disallow: -1 };

  constructor(private readonly engine: HostEngine, private readonly agents: Uint8Array, private readonly rfc: boolean, private readonly noHostVerdict: FullVerdict) {
    this.slot(noHostVerdict); // made now: every chunk groups by it
  }

  /** The slot that answers every URL with this verdict. */
  slot(verdict: FullVerdict): number {
    if (this.slots[verdict] < 0) this.slots[verdict] = this.engine.compiled.compileSlot(encoder.encode(FULL_VERDICT_BODY[verdict]), this.agents, this.rfc, SLOT_FLAG_MISSING_POLICY);
    return this.slots[verdict];
  }

  /** The slot lines that name no host get. */
  get noHostSlot(): number {
    return this.slot(this.noHostVerdict);
  }

  /** Both fixed slots as they are (-1: not made yet; the core compares a group's slot with them). */
  get both(): { a: number; b: number } {
    return { a: this.slots.allow, b: this.slots.disallow };
  }
}

/** The rounds of the chunk a MultiHostMatcher is answering. */
export class HostRounds {
  /** Hosts with a matcher the running chunk's rounds matched. */
  private chunkHosts = 0;
  /** The running chunk's groups of lines, and the first not answered yet (the next round's start). */
  private groupCount = 0;
  private roundStart = 0;

  constructor(private readonly engine: HostEngine, private readonly cache: HostCache, private readonly fixed: FixedSlots, private readonly counters: { lines: number; noHostLines: number; compiled: number; direct: number }) {}

  /** A chunk of `groupCount` groups was loaded: its first round starts at group 0. */
  begin(groupCount: number): void {
    this.chunkHosts = 0;
    this.roundStart = 0;
    this.groupCount = groupCount;
  }

  /** Answers the groups from the last round's end to `upTo` (a round), then forgets the round's transient hosts and unpins its slots. */
  answerRound(upTo: number): void {
    this.matchRound(false, upTo);
    this.releaseTransients();
    this.engine.chunks.newRound();
  }

  /** Empties the landing block (its hosts' lines are answered): a host met again is read again. */
  releaseTransients(): void {
    if (this.engine.raw.transientCount > 0) this.engine.raw.releaseTransients();
  }

  /** Matches the lines of the chunk not answered yet, and formats the chunk. The last step of an attempt. */
  finish(format: HostChunkFormat, explain: boolean): HostChunkResult {
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
    return { verdicts, output, noHostLines: this.engine.chunks.noHostLines, noHostExamples, hosts: this.chunkHosts, runs: this.engine.chunks.runs, sortedByHost: comesSortedByHost(lineCount, this.engine.chunks.runs, this.engine.chunks.distinctHosts) };
  }

  /** Matches the groups [roundStart, upTo), every host of them resolved (their slots get automaton regions first when busy). */
  private matchRound(explain: boolean, upTo: number): void {
    if (upTo <= this.roundStart) return;
    // the core lists the groups to plan (a raw body, a slot with an automaton region, one with enough lines
    // for one): the others (most hosts of a chunk of many) need nothing here
    const { hosts, plans } = this.engine.chunks.round(this.roundStart, upTo, this.fixed.noHostSlot, this.fixed.both, AUTOMATON_AFTER_LINES);
    this.chunkHosts += hosts;
    for (const g of plans) {
      const slot = this.engine.chunks.groupSlot(g);
      const lines = this.engine.chunks.groupLines(g);
      if (this.engine.raw.isRaw(slot)) {
        // a host that comes back, or brings many lines, is compiled, when the budget has room for its
        // matcher besides the hosts this round needs; else its lines are answered from its body this time
        if (this.engine.slots.slotLines(slot) + lines <= DIRECT_MAX_LINES || !this.upgrade(slot, true)) continue;
      }
      this.cache.planAutomaton(slot, lines);
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
  upgrade(slot: number, withinBudget = false): boolean {
    const transient = this.engine.raw.isTransient(slot);
    const before = this.engine.slots.slotBytes(slot);
    if (!this.engine.raw.upgradeSlot(slot, withinBudget ? (more) => this.cache.makeRoom(true, more) : null)) return false;
    if (transient) this.cache.cache(slot, HOST_COST_BYTES); // a host busy on first sight: its matcher is kept
    else this.cache.resized(slot, before);
    this.counters.compiled++;
    this.counters.direct--;
    return true;
  }
}
