// The many-host engine's pointer side (assembly/hosts.ts does the per-line work), in rooms, each owning its
// heap blocks: the slot table (host-slots.ts: one record per cached matcher, its blob and automaton region),
// the slots filled with compiled rules (compiled-slots.ts), the raw bodies answered before or without a compile (raw-slots.ts, with the landing block of
// landing.ts), the host table (host-table.ts: host key -> slot) and the chunk being answered (host-chunks.ts).
// The policy (which host gets which slot, eviction, budgets) is src/node/hosts/hosts.ts: it calls the phases
// below in order for every chunk:
//
//   chunks.loadChunk(input)          copy into the chunk block, scan: line starts, host entries, pending keys;
//                                    lines grouped by host entry (in order of first appearance)
//   table.resolve(entry, slot|null)  for every pending key: its slot, or null (names no usable host)
//   chunks.round(from, to, missing)  the slots of groups [from, to) (ordered by slot); groupSlot(g) and
//                                    groupLines(g) read them
//   slots.giveAutomaton(slot, bytes) for busy slots (optional)
//   chunks.match(explain)            verdicts (and rule references) for the round's lines
//   chunks.verdicts() / formatText(filter) / formatJsonl(...)
// The policy answers a chunk in rounds when its hosts do not fit the budget together (or when the landing
// block of hosts not kept is full): it resolves keys in order, and the groups before the next pending key's
// group are then all resolved: round + match answer them, newRound() unpins their slots, and it goes on. A
// round costs its own lines (the grouping is made once per chunk).
import { HostSlots } from './host-slots.js';
import { CompiledSlots } from './compiled-slots.js';
import { HostTable } from './host-table.js';
import { HostChunks } from './host-chunks.js';
import { RawSlots } from './raw-slots.js';
import { LandingBlock } from './landing.js';
import { PackData } from './pack-data.js';
import type { WasmCore } from './core.js';

export type { PendingHosts } from './host-chunks.js';

/** The many-host engine of one MultiHostMatcher: its rooms, made together and closed together. */
export class HostEngine {
  readonly slots: HostSlots;
  readonly compiled: CompiledSlots;
  readonly raw: RawSlots;
  readonly table: HostTable;
  readonly chunks: HostChunks;
  /** A pack's rules for the agent held (when the policy holds them): packed slots point into it. */
  readonly packData: PackData;

  constructor(private readonly core: WasmCore) {
    const landing = new LandingBlock(core.frame);
    this.slots = new HostSlots(core.frame, landing, () => this.packData.address);
    this.packData = new PackData(core.frame, this.slots);
    this.compiled = new CompiledSlots(core, this.slots);
    this.raw = new RawSlots(core, this.slots, landing);
    this.table = new HostTable(core.frame, this.slots);
    this.chunks = new HostChunks(core, this.slots, this.table, this.raw, this.packData);
  }

  /** Bytes the engine's own blocks take in the heap (host table, slot table, the chunk, the agent query, the landing block and the pack data held). */
  get ownBytes(): number {
    return this.table.ownBytes + this.slots.ownBytes + this.chunks.ownBytes + this.raw.ownBytes + this.packData.heapBytes;
  }

  /**
   * Gives every block of the engine back to the heap (host and slot tables, every slot's blob and automaton,
   * the chunk, the agent query, the landing block): a later owner reuses them. The engine is unusable
   * afterwards. Called once, by MultiHostMatcher.close or its finalizer.
   */
  close(): void {
    this.packData.close();
    this.slots.close();
    this.table.close();
    this.chunks.close();
    this.raw.close();
    this.core.resident.forgetBinding();
  }
}
