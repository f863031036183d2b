// The door of src/node/fetch/: robots.txt and crawler range files over HTTP: the fetch rules, the cache, the range files.
// Modules outside this folder import it only through this file (test/package.test.ts holds that).
export * from './range-fetch.js';
export * from './robots-cache.js';
export * from './robots-fetch.js';
