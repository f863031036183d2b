// The door of src/node/threads/: Worker threads: the pool, the reply codec and the thread limit (worker.ts is a worker's entry, loaded by path).
// Modules outside this folder import it only through this file (test/package.test.ts holds that).
export * from './pool.js';
export * from './reply-codec.js';
export * from './thread-limit.js';
