// The types of `robotstxt-wasm/robotstxt.wasm`: what a bundler's file loader makes of the package's
// WebAssembly module (esbuild --loader:.wasm=file, Vite's `?url`, webpack's asset/resource): its URL or path,
// for initialize() of robotstxt-wasm/core. A bundler that inlines or compiles .wasm itself needs its own type.

/** The URL (or path) of the package's WebAssembly module, as the bundler emits it. */
declare const wasmFile: string;
export default wasmFile;
