// One instance of the WebAssembly core and everything that speaks to it, per thread: the memory frame
// (frame.ts: the instance, its views and regions), the resident library matchers (resident.ts), and one small
// binding per domain of calls: bodies (bodies.ts), matching (matching.ts), chunks of lines (line-chunks.ts),
// access log lines (logs.ts), single URLs (urls.ts); the many-host engine (hosts-engine.ts) is made per
// MultiHostMatcher over the same frame. These files are the only code that touches WebAssembly addresses;
// everything else speaks bytes and objects. The exports they call are declared once, in exports.ts.
import { CoreFrame } from './frame.js';
import { ResidentMatchers } from './resident.js';
import { BodyCalls, type Tristate } from './bodies.js';
import { MatchCalls } from './matching.js';
import { LineChunkCalls } from './line-chunks.js';
import { LogCalls } from './logs.js';
import { UrlCalls } from './urls.js';
import { wasmModule } from './module.js';

/** The automaton's switches (tests and A/B runs; each 'auto' unless given). */
export interface BulkEngineSwitches {
  /** Caps the automaton's states (0 = no cap): with a few, overflow and the NFA fallback run constantly. */
  automatonStateLimit?: number;
  /** Two lines walked at once ('auto': for large automata). */
  pairWalks?: Tristate;
  /** Patterns without '*' answered by a literal index ('auto': large literal rule sets; applies to matchers compiled after the call). */
  literalIndex?: Tristate;
}
const tristateCode = (value: Tristate): number => (value === 'auto' ? 0 : value === 'always' ? 1 : 2);

/** One instance of the core with its bindings. Created once per thread (see core()); not thread-safe. */
export class WasmCore {
  readonly frame: CoreFrame;
  readonly resident: ResidentMatchers;
  readonly bodies: BodyCalls;
  readonly matching: MatchCalls;
  readonly lineChunks: LineChunkCalls;
  readonly logs: LogCalls;
  readonly urls: UrlCalls;

  constructor(module: WebAssembly.Module = wasmModule()) {
    this.frame = new CoreFrame(module);
    this.resident = new ResidentMatchers(this.frame);
    this.bodies = new BodyCalls(this.frame, this.resident);
    this.matching = new MatchCalls(this.frame, this.resident);
    this.lineChunks = new LineChunkCalls(this.frame);
    this.logs = new LogCalls(this.frame);
    this.urls = new UrlCalls(this.frame);
  }

  /**
   * Tests and A/B runs: bulk calls by the trie NFA, or by the automaton with its switches forced (see
   * BulkEngineSwitches); called with only an engine, every switch goes back to 'auto'. Resident matchers
   * are taken out, so that every automaton is laid out again under the new switches.
   */
  setBulkEngine(engine: 'automaton' | 'nfa', switches: BulkEngineSwitches = {}): void {
    const literalIndex = switches.literalIndex ?? 'auto';
    this.frame.exports.configureBulkEngine(engine === 'nfa' ? 1 : 0, switches.automatonStateLimit ?? 0, tristateCode(switches.pairWalks ?? 'auto'), tristateCode(literalIndex));
    this.bodies.literalIndexSwitch = literalIndex;
    this.resident.evictAll();
  }

  /** Automaton statistics of the bound matcher: states built, and region resets since the instance started. */
  automatonStats(): { states: number; resets: number; regionBytes: number } {
    const packed = this.frame.exports.automatonStats();
    return { states: Number(packed & 0xffffffffn), resets: Number(packed >> 32n), regionBytes: this.resident.boundRegionBytes };
  }
}

let threadCore: WasmCore | null = null;

/** Makes an instance this thread's core (a worker that instantiated the shared module itself). */
export function setThreadCore(instance: WasmCore): void {
  threadCore = instance;
}

/** This thread's core, instantiated on first use. */
export function core(): WasmCore {
  if (threadCore === null) threadCore = new WasmCore();
  return threadCore;
}
