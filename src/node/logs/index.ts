// The door of src/node/logs/: Reading input: access log lines of every format (LogLineReader) and line files in bounded chunks (LineReader, forEachChunk).
// Modules outside this folder import it only through this file (test/package.test.ts holds that).
export * from './line-reader.js';
export * from './log.js';
