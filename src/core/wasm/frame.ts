// The memory frame of one instance of the core: the instance itself (its imports, its exports guarded so that
// a trap is an error naming the call), views of linear memory that follow its growth, and the regions the
// bindings lay out. With heap.ts, the only code that decides where things lie in linear memory.
//
// Linear memory of one instance (one per thread), addresses growing to the right:
//
//   0            resultPtr      batchBase                    heap.base                        workPtr
//   | AS statics | call results | batch region               | matcher heap (heap.ts)         | work area -> (grows)
//                | one record   | library batches: input, LF | blocks that outlive calls:     | laid out afresh by every call:
//                | (CALL_RESULT | sentinel, offsets,         | compiled matchers (blobs),     | compile work, NFA scratch,
//                |  _SIZE)      | verdicts, rule references, | automaton regions, the many-   | formatted output, host key
//                |              | output (grows, moving the  | host tables and the chunk      | scratch
//                |              | heap up)                   | being answered; compacted      |
//
// - Matcher blob (layout in assembly/compile.ts, assembly/layout.ts and assembly/literal.ts, header offsets
//   in src/core/constants.ts): header | normalised patterns | rule records | literal index | trie nodes (16 bytes
//   each) | rule slots | node labels. Position-independent (offsets from its start). compileRobots builds it
//   in the work area and it is moved into a heap block at once (resident.ts), where it stays while it is used.
// - Automaton region (assembly/dfa.ts): a header, byte classes, then states built as URLs need them. One
//   per matcher, made on first bulk use; a fresh region has a zero header.
// - Work area: matchLines needs an LF right after the input (the sentinel that lets the core's line loop
//   run without bounds checks) and 16 readable bytes after that (SENTINEL_SLACK). The core grows memory
//   itself when it needs more, so views are re-created whenever memory.buffer changes.
import { CALL_RESULT_SIZE } from '../constants.js';
import { RobotsError } from '../errors.js';
import { MatcherHeap, ADDRESS_LIMIT } from './heap.js';
import { align } from './limits.js';
import { wasmModule } from './module.js';
import type { CoreExports } from './exports.js';

/** The error of a call that trapped (an out-of-bounds access, an unreachable): a bug in the core, never bad input. */
function trapped(call: string, error: unknown): unknown {
  if (error instanceof RobotsError) return error; // thrown by an import (memoryExhausted): as it is
  if (error instanceof WebAssembly.RuntimeError || error instanceof RangeError) {
    return new RobotsError('WASM_TRAP', `the WebAssembly core trapped in ${call}: ${error.message}`, { cause: error });
  }
  return error;
}

type Call = (...args: number[]) => unknown;

/** A function that calls `call` with its own arguments (a fixed count: no array is made per call) and turns a trap into WASM_TRAP. */
function guarded(name: string, call: Call): Call {
  const fail = (error: unknown): never => {
    throw trapped(name, error);
  };
  switch (call.length) {
    case 0: return () => { try { return call(); } catch (e) { return fail(e); } };
    case 1: return (a) => { try { return call(a); } catch (e) { return fail(e); } };
    case 2: return (a, b) => { try { return call(a, b); } catch (e) { return fail(e); } };
    case 3: return (a, b, c) => { try { return call(a, b, c); } catch (e) { return fail(e); } };
    case 4: return (a, b, c, d) => { try { return call(a, b, c, d); } catch (e) { return fail(e); } };
    case 5: return (a, b, c, d, f) => { try { return call(a, b, c, d, f); } catch (e) { return fail(e); } };
    case 6: return (a, b, c, d, f, g) => { try { return call(a, b, c, d, f, g); } catch (e) { return fail(e); } };
    default: return (...args) => { try { return call(...args); } catch (e) { return fail(e); } };
  }
}

/** Each exported function wrapped so that a trap becomes WASM_TRAP naming the call. */
function guardedExports(raw: WebAssembly.Exports): CoreExports {
  const exports: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(raw)) exports[name] = typeof value === 'function' ? guarded(name, value as Call) : value;
  return exports as unknown as CoreExports;
}

/** One instance of the core with its memory regions. Made once per thread (core.ts); not thread-safe. */
export class CoreFrame {
  /** The core's exports (exports.ts), guarded. */
  readonly exports: CoreExports;
  private bytes: Uint8Array;
  private words: Uint32Array;
  /** Blocks that outlive calls (see heap.ts). */
  readonly heap: MatcherHeap;
  /** Where calls with several results write the others (one CALL_RESULT_SIZE record, read with result()). */
  readonly resultPtr: number;
  /** Start of the batch region (library batches, many-host chunks). */
  readonly batchBase: number;
  private batchCapacity = 0;

  constructor(module: WebAssembly.Module = wasmModule()) {
    const instance = new WebAssembly.Instance(module, {
      env: {
        memoryExhausted: (endAddress: number) => {
          throw new RobotsError('INPUT_TOO_LARGE', `the WebAssembly core would need ${endAddress >>> 0} bytes of memory, more than the engine gives it`);
        },
        // literal indexes hash with a seed nobody outside this process knows (assembly/literal.ts asks on its first build)
        randomSeedHalf: () => globalThis.crypto.getRandomValues(new Uint32Array(1))[0],
      },
    });
    this.exports = guardedExports(instance.exports);
    this.resultPtr = align(this.exports.heapBase() >>> 0, 16);
    this.batchBase = this.resultPtr + CALL_RESULT_SIZE;
    this.bytes = new Uint8Array(this.exports.memory.buffer);
    this.words = new Uint32Array(this.exports.memory.buffer);
    this.heap = new MatcherHeap({ reserve: (end) => this.reserve(end), copy: (target, start, end) => this.copyWithin(target, start, end) }, this.batchBase);
  }

  /**
   * Views die when memory grows (the old buffer is detached: its views then have length 0): bindings call
   * this after every export that may grow memory. Reading memory.buffer costs more than this check.
   */
  refreshViews(): void {
    if (this.bytes.length === 0) {
      this.bytes = new Uint8Array(this.exports.memory.buffer);
      this.words = new Uint32Array(this.exports.memory.buffer);
    }
  }

  /** memmove inside linear memory (the core's memory.copy). */
  copyWithin(target: number, start: number, end: number): void {
    this.exports.copyBytes(target, start, end - start);
  }

  /** All of linear memory as bytes (a fresh view when memory grew). */
  memoryBytes(): Uint8Array {
    this.refreshViews();
    return this.bytes;
  }

  /** All of linear memory as u32 words. */
  memoryWords(): Uint32Array {
    this.refreshViews();
    return this.words;
  }

  /** Field `offset` (a *_RESULT_* constant) of the result record the last call with several results wrote. */
  result(offset: number): number {
    return this.memoryWords()[(this.resultPtr + offset) >>> 2];
  }

  /** Makes [0, endAddress) addressable. */
  reserve(endAddress: number): void {
    if (endAddress > ADDRESS_LIMIT) throw new RobotsError('INPUT_TOO_LARGE', `the WebAssembly core would need ${endAddress} bytes of memory (32-bit address space)`);
    if (endAddress > this.exports.memory.buffer.byteLength) this.exports.reserve(endAddress);
    this.refreshViews();
  }

  /** Start of the work area: after the heap, laid out afresh by every call. */
  get workPtr(): number {
    return align(this.heap.base + this.heap.capacity, 16);
  }

  /** Makes the batch region at least `bytes` long (the heap moves up when it grows); returns its start. */
  ensureBatch(bytes: number): number {
    if (bytes > this.batchCapacity) {
      this.batchCapacity = align(Math.max(bytes, this.batchCapacity * 1.5), 65536);
      this.heap.relocate(this.batchBase + this.batchCapacity);
    }
    return this.batchBase;
  }
}
