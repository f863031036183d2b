// The door of src/node/threads/: Worker threads: the pool, the reply codec and the thread limit (worker.ts is a worker's entry, loaded by path).
// Modules outside this folder import it only through this file (test/package.test.ts holds that).
export { HostShardPool, RobotsPool, SharedSlotRing } from './pool.js';
export type { HostsReply, HostsSpec, LinesResult, OutputFormat, PoolOptions, SharedSlot } from './pool.js';
export { REPLY_HEADER_WORDS, decodeReply, encodeReply, sumCounters } from './reply-codec.js';
export type { HostCounters } from './reply-codec.js';
export { maxThreads } from './thread-limit.js';
