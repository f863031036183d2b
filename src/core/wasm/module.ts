// The compiled WebAssembly module of this thread: read and compiled once, shared with workers. Node's entries
// register a synchronous loader (src/node/core-node.ts); other runtimes call initialize() (src/core/index.ts).
import { RobotsError } from '../errors.js';

let compiledModule: WebAssembly.Module | null = null;
let moduleLoader: (() => WebAssembly.Module) | null = null;

/**
 * How this thread gets the compiled module when it first needs it: Node's entries register a synchronous
 * file loader (src/node/core-node.ts); other runtimes call initialize() (src/core/index.ts) first.
 */
export function setWasmModuleLoader(loader: () => WebAssembly.Module): void {
  moduleLoader = loader;
}

/** Sets the compiled module (initialize, or a worker given its parent's module). */
export function setWasmModule(module: WebAssembly.Module): void {
  compiledModule = module;
}

/** True once the module is compiled (or can be, synchronously, by a registered loader). */
export function wasmModuleReady(): boolean {
  return compiledModule !== null || moduleLoader !== null;
}

/** The compiled module, read and compiled once per thread (shareable with workers). */
export function wasmModule(): WebAssembly.Module {
  if (compiledModule === null) {
    if (moduleLoader === null) throw new RobotsError('WASM_UNAVAILABLE', 'the WebAssembly core is not loaded yet: await initialize() (from robotstxt-wasm/core) before parsing');
    compiledModule = moduleLoader();
  }
  return compiledModule;
}
