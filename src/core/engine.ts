// The WebAssembly engine as the Node layer sees it: the few operations and limits src/node needs of
// src/core/wasm/ (the per-thread core, the many-host engine, agent encoding, size limits), in one place, so
// that nothing outside src/core imports src/core/wasm/ (test/package.test.ts holds that). Imported once
// per module that uses it.
export * from './wasm/core.js';
export { wasmModule } from './wasm/module.js';
export { setWasmModuleLoader } from './wasm/module.js';
export { HostEngine } from './wasm/hosts-engine.js';
export { encodeAgents } from './wasm/bodies.js';
export { nextOutputBuffer } from './wasm/output.js';
export { bytesToRead, automatonCapBytes, AUTOMATON_GROWTH, MAX_COMPILE_BYTES, MAX_BATCH_BYTES } from './wasm/limits.js';
export type { MatcherHeap } from './wasm/heap.js';
export type { CompiledRules } from './wasm/resident.js';
