// The door of src/node/pack/: robots.txt packs: built from a folder, a store, JSON lines or WARC files (PackWriter
// and its inputs), opened from a file (whole or in pages), and read as many-host sources and origins' files.
// Modules outside this folder import it only through this file (test/package.test.ts holds that).
export { PackWriter, type CaptureInput, type PackWritten } from './writer.js';
export { openPackFile, type OpenedPack } from './file.js';
export { robotsFromPack, packBodies, packSourceForSpec, packOriginOf, packRobotsAt, packHistory, captureAt } from './source.js';
export { directoryOrigins, jsonlOrigins, cutBody, type PackOrigin, type InputProblem } from './inputs.js';
export { warcOrigins, type WarcInputCounts } from './warc-input.js';
