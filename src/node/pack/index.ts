// The door of src/node/pack/: robots.txt packs read: opened from a file (checked, then read where asked), and
// read as many-host sources and origins' files. Building one is src/node/pack-build/'s.
// Modules outside this folder import it only through this file (test/package.test.ts holds that).
export { openPackFile, type OpenedPack } from './file.js';
export { robotsFromPack, packBodies, packSourceForSpec, packOriginOf, packRobotsAt, captureAt, type PackRobots } from './source.js';
