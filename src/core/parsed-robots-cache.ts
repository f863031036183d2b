// The one cache of parsed robots.txt files by origin (or by version, or by a pack's body): a byte budget,
// least recently used out, and what it drops closed, so that the compiled matchers' memory goes back. Used by
// an audit's folder or store (rulesOfDirectory), a pack's files (packRobotsAt) and a history's versions.
import { LruCache } from './lru-cache.js';
import type { RobotsTxt } from './robots.js';

/**
 * The hand-off of parsed files a cache drops, to a reader that judges requests in batches (RobotsAudit):
 * holdDropped once at its start, closeDropped after each judged batch, and mustCloseDropped when those waiting
 * pass their bound (the reader judges at once). A ParsedRobotsCache is one; the audit's rules, a history and a
 * store's current copies pass theirs on.
 */
export interface HeldFiles {
  holdDropped(): void;
  closeDropped(): void;
  readonly mustCloseDropped: boolean;
}

/** Files of a source that keeps none open (a file given whole, a function): nothing to hold or close. */
export const NO_HELD_FILES: HeldFiles = Object.freeze({ holdDropped: () => {}, closeDropped: () => {}, mustCloseDropped: false });

/**
 * Parsed files (or answers holding one, `robotsOf` says which) kept within maxBytes, least recently used out.
 * A file dropped is closed at once; after holdDropped (a reader that judges requests in batches, RobotsAudit:
 * a request may wait for its batch with a file the cache has dropped since) it waits, open, until
 * closeDropped, and mustCloseDropped says when those waiting cost more than a quarter of maxBytes (the reader
 * then judges at once). close() closes every file kept or waiting. One per source of rules; get and set per
 * change of origin in a log (a Map look-up; no file is parsed here).
 */
export class ParsedRobotsCache<V> implements HeldFiles {
  private readonly entries: LruCache<V>;
  private holding = false;
  private dropped: V[] = [];
  private droppedBytes = 0;
  private readonly droppedMaxBytes: number;

  /** robotsOf: the file an entry holds (null: none to close); costOf: its bytes as the budget counts them; onDrop: told of each entry dropped, before its file is closed or held. */
  constructor(maxBytes: number, private readonly robotsOf: (value: V) => RobotsTxt | null, private readonly costOf: (value: V) => number, private readonly onDrop: ((value: V) => void) | null = null) {
    this.droppedMaxBytes = maxBytes / 4;
    this.entries = new LruCache<V>(maxBytes, costOf, (value) => this.drop(value));
  }

  /** The entry of key, refreshed as most recently used; undefined when not kept. */
  get(key: string): V | undefined {
    return this.entries.get(key);
  }

  /** Keeps value under key; entries least recently used are dropped until the budget holds. */
  set(key: string, value: V): void {
    this.entries.set(key, value);
  }

  /** From now on, files dropped stay open until closeDropped. Once, by a reader that judges in batches. */
  holdDropped(): void {
    this.holding = true;
  }

  /** Closes the files dropped since the last call (after holdDropped; after each judged batch). */
  closeDropped(): void {
    for (const value of this.dropped) this.robotsOf(value)?.close();
    this.dropped = [];
    this.droppedBytes = 0;
  }

  /** True when the files dropped and not closed yet cost more than a quarter of the budget: their requests should be judged now. */
  get mustCloseDropped(): boolean {
    return this.droppedBytes > this.droppedMaxBytes;
  }

  /** Entries dropped to make room so far. */
  get evictions(): number {
    return this.entries.evictions;
  }

  /** Closes every file kept and waiting: the cache is empty after it (and may be filled again). */
  close(): void {
    for (const value of this.entries.values()) {
      this.onDrop?.(value);
      this.robotsOf(value)?.close();
    }
    this.entries.clear();
    this.closeDropped();
  }

  private drop(value: V): void {
    this.onDrop?.(value);
    if (!this.holding) {
      this.robotsOf(value)?.close();
      return;
    }
    this.dropped.push(value);
    this.droppedBytes += this.costOf(value);
  }
}
