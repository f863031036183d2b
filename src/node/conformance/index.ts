// The door of src/node/conformance/: Another implementation against the reference: runners, the suite run, and the report.
// Modules outside this folder import it only through this file (test/package.test.ts holds that).
export * from './conformance.js';
export * from './report.js';
export * from './runners.js';
