// The WebAssembly core for Node: the module is read from build/robotstxt.wasm with node:fs, synchronously, the
// first time a thread needs it. Every Node entry (the package's index, the CLI, workers) imports this module,
// which re-exports the thread's core (src/core/wasm/core.ts) with the loader registered.
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { setWasmModuleLoader } from '../core/engine.js';
import { RobotsError } from '../core/errors.js';

// From src/wasm/ (tests run the sources) or dist/src/wasm/ (the built package): the same file at the top.
const WASM_CANDIDATES = ['../../build/robotstxt.wasm', '../../../build/robotstxt.wasm'].map((relative) => fileURLToPath(new URL(relative, import.meta.url)));

setWasmModuleLoader(() => {
  const path = WASM_CANDIDATES.find((candidate) => existsSync(candidate));
  if (path === undefined) throw new RobotsError('WASM_UNAVAILABLE', `the WebAssembly core is missing (looked for ${WASM_CANDIDATES.join(', ')}): run npm run build`);
  return new WebAssembly.Module(readFileSync(path));
});

// the engine's operations the Node layer uses, through this module so that the loader is registered first
export { wasmModule, countLines, formatTextLines, splitLinesByHost, readLogChunk, logUrlLines, unescapeLogField, startWorkerCore, residentRules, releaseResidentRules, answerLinesText, answerLinesJsonl, nextOutputBuffer } from '../core/engine.js';
