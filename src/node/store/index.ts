// The door of src/node/store/: The robots.txt store robotstxt fetch fills: records, bodies and versions per origin, under a per-origin lock.
// Modules outside this folder import it only through this file (test/package.test.ts holds that).
export * from './store.js';
