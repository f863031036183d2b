// A many-host engine with its share of the thread's WebAssembly heap: what a MultiHostMatcher holds. The
// engine (hosts-engine.ts) on this thread's core, the heap's budget reserved for it, and the release that
// gives both back; the Node layer sees the lease and its engine, never the core or its heap.
import { core } from './core.js';
import { HostEngine } from './hosts-engine.js';
import type { MatcherHeap } from './heap.js';

/**
 * One MultiHostMatcher's engine and heap budget. Released once, by the matcher's close() or by its finalizer
 * (the lease holds no reference to the matcher, so a dropped matcher can be collected).
 */
export class HostEngineLease {
  readonly engine: HostEngine;
  private readonly heap: MatcherHeap;
  private released = false;

  constructor(public budget: number) {
    const thread = core();
    this.heap = thread.frame.heap;
    this.heap.reserveBudget(budget);
    this.engine = new HostEngine(thread);
    this.engine.raw.setLandingBudget(budget);
  }

  /** A new budget from the next chunk on (the command line splits one between threads). */
  setBudget(bytes: number): void {
    this.heap.releaseBudget(this.budget);
    this.budget = bytes;
    this.engine.raw.setLandingBudget(bytes);
    this.heap.reserveBudget(bytes);
  }

  /** Runs `work` with no block of the heap moving (explained lines name rules by address until formatted). */
  keepingBlocks<T>(work: () => T): T {
    return this.heap.keepingBlocks(work);
  }

  /** Frees the engine's blocks and the budget; returns the heap bytes freed (0 when released already). */
  release(): number {
    if (this.released) return 0;
    this.released = true;
    const before = this.heap.liveBytes;
    this.engine.close();
    this.heap.releaseBudget(this.budget);
    return before - this.heap.liveBytes;
  }
}
