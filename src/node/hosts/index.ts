// The door of src/node/hosts/: Many hosts at once: where bodies come from (sources), the folder listing, and the many-host matcher.
// Modules outside this folder import it only through this file (test/package.test.ts holds that).
export * from './directory-index.js';
export * from './hosts.js';
export * from './sources.js';
