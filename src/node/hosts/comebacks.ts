// Hosts answered from their body and forgotten (not kept in the cache), and how often they come back: the
// many-host matcher keeps the hosts of input that comes host by host, unless they keep coming back.
/**
 * How often hosts that were answered from their body and forgotten come back: their origins as 32-bit hashes
 * in an open-addressed table (at most FORGOTTEN_LIMIT places, emptied when three quarters full; a collision
 * only counts a host as come back), and the share of new hosts that came back, over the last few thousand.
 * Once more than one in eight does, input that comes host by host keeps its hosts (frequent).
 */
export class Comebacks {
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

