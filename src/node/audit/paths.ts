// Bounded counts of the paths a crawler was disallowed, for the audit's "most requested disallowed paths":
// exact for the frequent, an honest upper bound for the rest. Per crawler, per disallowed request.

/**
 * Bounded counts of distinct paths: at 2 x capacity, the less counted half is dropped, remembering the most
 * a dropped path could have had (floor); a path tracked again starts with that as its possible miss.
 * Amortised O(log capacity) per add; counts of paths never dropped are exact.
 */
export class PathCounter {
  private readonly counts = new Map<string, { count: number; missed: number }>();
  private floor = 0;

  constructor(private readonly capacity: number) {}

  add(path: string): void {
    const entry = this.counts.get(path);
    if (entry !== undefined) {
      entry.count++;
      return;
    }
    if (this.counts.size >= 2 * this.capacity) this.dropLessCounted();
    this.counts.set(path, { count: 1, missed: this.floor });
  }

  /** Every path tracked, with its count and possible miss, and the floor (RobotsAudit.partial). */
  entries(): { floor: number; counts: [string, number, number][] } {
    return { floor: this.floor, counts: [...this.counts].map(([path, value]) => [path, value.count, value.missed]) };
  }

  /**
   * Adds another counter's entries (a part of the same audit): counts add; a path the other did not track may
   * have had up to its floor there, and one this counter did not track, up to this floor. Bounded as add is.
   */
  merge(other: { floor: number; counts: [string, number, number][] }): void {
    const theirs = new Set<string>();
    for (const [path, count, missed] of other.counts) {
      theirs.add(path);
      const entry = this.counts.get(path);
      if (entry !== undefined) {
        entry.count += count;
        entry.missed += missed;
        continue;
      }
      if (this.counts.size >= 2 * this.capacity) this.dropLessCounted();
      this.counts.set(path, { count, missed: missed + this.floor });
    }
    if (other.floor > 0) for (const [path, entry] of this.counts) if (!theirs.has(path)) entry.missed += other.floor;
    this.floor = Math.max(this.floor, other.floor);
  }

  private dropLessCounted(): void {
    const sorted = [...this.counts].sort((a, b) => b[1].count - a[1].count);
    for (const [dropped, value] of sorted.slice(this.capacity)) {
      this.floor = Math.max(this.floor, value.count + value.missed);
      this.counts.delete(dropped);
    }
  }

  /** The n most counted (keys `<host> <path>`, see pathKey): exact counts, and the most each can be. */
  top(n: number): { host: string | null; path: string; requests: number; upTo: number }[] {
    return [...this.counts].sort((a, b) => b[1].count - a[1].count || (a[0] < b[0] ? -1 : 1)).slice(0, n).map(([key, value]) => {
      const space = key.indexOf(' ');
      return { host: space === 0 ? null : key.slice(0, space), path: key.slice(space + 1), requests: value.count, upTo: value.count + value.missed };
    });
  }
}
