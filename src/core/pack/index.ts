// The door of src/core/pack/: the robots.txt pack's format (layout.ts: header, index, data area), its reader
// (RobotsPack, over any storage: bytes in memory, a file read in pages) and the compile of one body for every
// group (packBody). src/node/pack-build/ writes pack files and src/node/pack/ opens them through this file.
export { RobotsPack, bytesStorage, type PackStorage, type PackCapture, type PackOpenOptions } from './pack.js';
export { packBody } from './compile.js';
export * from './layout.js';
