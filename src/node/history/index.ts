// The door of src/node/history/: robots.txt versions over time: a folder of versions or a store's (RobotsHistory, StoreHistory) and what each change flips.
// Modules outside this folder import it only through this file (test/package.test.ts holds that).
export * from './history.js';
export * from './version-changes.js';
export { packHistory } from './pack-history.js';
