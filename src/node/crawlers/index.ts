// The door of src/node/crawlers/: Who a crawler is: its kind (search, AI training, user-triggered, ...) and the vendor table of crawler families and the range files that cover them.
// Modules outside this folder import it only through this file (test/package.test.ts holds that).
export * from './categories.js';
export * from './families.js';
