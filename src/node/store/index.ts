// The door of src/node/store/: The robots.txt store robotstxt fetch fills: records, bodies and versions per origin, under a per-origin lock.
// Modules outside this folder import it only through this file (test/package.test.ts holds that).
export { DEFAULT_KEPT_VERSIONS, HISTORY_MARK, MAX_KEPT_VERSIONS, RobotsStore, readStoredRecord, readStoredVersions, recordJson, storeFileName, storedVersionsFolder, versionsFolder } from './store.js';
export type { StoreWriteResult, StoredVersion, StoredVersions, VersionChange } from './store.js';
