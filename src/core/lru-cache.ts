// A map bounded by a byte budget, least recently used out: audit keeps parsed robots.txt files of hosts in one.
/**
 * A map bounded by a byte budget: get() refreshes an entry, set() evicts least recently used entries until
 * the total of sizeOf(entry) (plus a per-key cost) fits. One per --robots-dir run.
 */
export class LruCache<V> {
  private readonly entries = new Map<string, { value: V; bytes: number }>();
  private totalBytes = 0;
  /** Entries evicted so far. */
  evictions = 0;

  /** onEvict: told of each entry evicted to make room (an owner of memory closes it there). */
  constructor(readonly maxBytes: number, private readonly sizeOf: (value: V) => number, private readonly onEvict: ((value: V) => void) | null = null) {}

  get(key: string): V | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.value;
  }

  set(key: string, value: V): void {
    const old = this.entries.get(key);
    if (old !== undefined) {
      this.totalBytes -= old.bytes;
      this.entries.delete(key);
    }
    const bytes = this.sizeOf(value) + KEY_COST_BYTES + key.length * 2;
    this.entries.set(key, { value, bytes });
    this.totalBytes += bytes;
    for (const [oldest, entry] of this.entries) {
      if (this.totalBytes <= this.maxBytes || oldest === key) break;
      this.entries.delete(oldest);
      this.totalBytes -= entry.bytes;
      this.evictions++;
      this.onEvict?.(entry.value);
    }
  }

  /** The values cached now, least recently used first. */
  values(): V[] {
    return Array.from(this.entries.values(), (entry) => entry.value);
  }

  /** Forgets every entry (onEvict is not told: the owner clearing it does its own closing). */
  clear(): void {
    this.entries.clear();
    this.totalBytes = 0;
  }

  get size(): number {
    return this.entries.size;
  }

  /** Bytes accounted for the entries now cached. */
  get bytes(): number {
    return this.totalBytes;
  }
}

/** Rough cost of one cache entry besides its value (map entry, key, record). */
const KEY_COST_BYTES = 128;
