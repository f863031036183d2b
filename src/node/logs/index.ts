// The door of src/node/logs/: Reading input: access log lines of every format (LogLineReader) and line files in bounded chunks (LineReader, forEachChunk).
// Modules outside this folder import it only through this file (test/package.test.ts holds that).
export { CHUNK_BYTES, LineReader, MAX_LINE_BYTES, chunkLines, forEachChunk, readInputWhole, writeAll, writeOut } from './line-reader.js';
export { DEFAULT_JSON_FIELDS, LOG_FIELD_NAMES, LogEntry, LogLineReader, clientAddress, hostUnknownError, logTimeMs, parseLogLine } from './log.js';
export type { LogFieldNames, LogFormat, LogLine, LogRequest, LoggedSignature, UrlLineOptions } from './log.js';
