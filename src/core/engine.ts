// The WebAssembly engine as the Node layer sees it: operations on bytes (count lines, format verdicts, split
// lines by host, read a log chunk), the many-host engine with its heap lease, the worker's resident rules,
// agent encoding and size limits. Each operation runs on this thread's core; nothing here hands out the core,
// its memory frame or its bindings, so nothing outside src/core holds them (test/package.test.ts holds that).
// Imported once per module that uses it.
import { core, setThreadCore, WasmCore } from './wasm/core.js';
import type { CompiledRules } from './wasm/resident.js';
import type { HostShards } from './wasm/line-chunks.js';
import type { LogChunk, UrlLineOptions, UrlLines } from './wasm/logs.js';

export { wasmModule, setWasmModuleLoader } from './wasm/module.js';
export { HostEngine } from './wasm/hosts-engine.js';
export { HostEngineLease } from './wasm/host-engine-lease.js';
export { encodeAgents } from './wasm/bodies.js';
export { nextOutputBuffer } from './wasm/output.js';
export { bytesToRead, automatonCapBytes, AUTOMATON_GROWTH, MAX_COMPILE_BYTES, MAX_BATCH_BYTES } from './wasm/limits.js';
export type { CompiledRules } from './wasm/resident.js';
export type { HeldData, CoreIndex } from './wasm/pack-data.js';
export type { HostShards } from './wasm/line-chunks.js';
export type { LogChunk, UrlLineOptions, UrlLines } from './wasm/logs.js';

/** The number of lines of a chunk (a last line without LF counts). Check's input counter, per chunk. */
export function countLines(chunk: Uint8Array): number {
  return core().lineChunks.countLines(chunk);
}

/** The text output of a chunk's lines and verdicts (`filter` an OUTPUT_* code, `column` a usage column per line), in `into` when it fits. Per chunk. */
export function formatTextLines(lines: Uint8Array, verdicts: Uint8Array, filter: number, into: Uint8Array | null = null, column: Uint8Array | null = null): Uint8Array {
  return core().lineChunks.formatText(lines, verdicts, filter, into, column);
}

/** A chunk's lines dealt into `shardCount` shards by host (each line's shard, and the shards' bytes). The many-host pool, per chunk. */
export function splitLinesByHost(lines: Uint8Array, shardCount: number, into: Uint8Array | null = null): HostShards {
  return core().lineChunks.splitLinesByHost(lines, shardCount, into);
}

/** A log chunk read in the core: requests (target, host, agent, ...) and the lines of other formats. The log reader, per chunk. */
export function readLogChunk(chunk: Uint8Array, firstLineNumber: number, options: UrlLineOptions & { records: boolean; maxOther: number }): LogChunk {
  return core().logs.readChunk(chunk, firstLineNumber, options);
}

/** URL lines (scheme, host, target) made from requests read by JavaScript. The log reader, per batch of slow-path lines. */
export function logUrlLines(requests: readonly { target: Uint8Array; host: Uint8Array | null }[], options: UrlLineOptions): UrlLines {
  return core().logs.urlLines(requests, options);
}

/** A log field's `\xHH` and `\"` escapes undone, as the core undoes them. Per escaped field read in JavaScript. */
export function unescapeLogField(field: Uint8Array): Uint8Array {
  return core().logs.unescape(field);
}

/** Makes a worker thread's core from the shared compiled module. Once per worker, before any other call. */
export function startWorkerCore(module: WebAssembly.Module): void {
  setThreadCore(new WasmCore(module));
}

/** Compiled rules sent by the main thread (a view of shared memory: the same bytes, never copied), made resident in this thread's core. Once per matcher a worker meets. */
export function residentRules(blob: Uint8Array): CompiledRules {
  return core().resident.given(blob);
}

/** Resident rules given up (their blocks back to the heap). When a worker's cache of matchers is full. */
export function releaseResidentRules(rules: CompiledRules): void {
  core().resident.release(rules);
}

/** A batch of URL lines answered by resident rules as text: verdicts and output, views of the core's memory valid until the next call. Per batch. */
export function answerLinesText(rules: CompiledRules, lines: Uint8Array, filter: number): { output: Uint8Array; verdicts: Uint8Array } {
  return core().matching.matchAndFormatLinesInPlace(rules, lines, filter);
}

/** A batch of URL lines answered by resident rules as jsonl (each line's deciding rule), in `into` when it fits. Per batch. */
export function answerLinesJsonl(rules: CompiledRules, lines: Uint8Array, filter: number, firstNumber: number, numbers: Uint32Array | null, into: Uint8Array | null = null): { output: Uint8Array; verdicts: Uint8Array } {
  return core().matching.explainAndFormatJsonl(rules, lines, filter, firstNumber, numbers, into);
}
