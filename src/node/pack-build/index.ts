// The door of src/node/pack-build/: robots.txt packs built (robotstxt pack, the library's PackWriter) from a
// folder, a store, JSON lines of fetches or Common Crawl's robots.txt WARC files. Reading a pack is
// src/node/pack/'s (a reader never loads the builder and its inputs).
// Modules outside this folder import it only through this file (test/package.test.ts holds that).
export { PackWriter, type CaptureInput, type PackWritten } from './writer.js';
export { directoryOrigins, jsonlOrigins, cutBody, type PackOrigin, type InputProblem } from './inputs.js';
export { warcOrigins, type WarcInputCounts } from './warc-input.js';
