// The door of src/node/check/: robotstxt check's pipeline: answerers, budgets, in-order output, the usage column.
// Modules outside this folder import it only through this file (test/package.test.ts holds that).
export * from './answerers.js';
export * from './budget.js';
export * from './in-order-writer.js';
export * from './pipeline.js';
export * from './usage-check.js';
