// The door of src/node/history/: robots.txt versions over time: a folder of versions or a store's (RobotsHistory, StoreHistory) and what each change flips.
// Modules outside this folder import it only through this file (test/package.test.ts holds that).
export { CACHE_WINDOW_MS, NO_CURRENT_COPIES, RobotsHistory, StoreHistory, historyTime, versionsAtTime } from './history.js';
export type { CurrentCopies, HistoryOptions, RobotsVersion, VersionsAt } from './history.js';
export { changeFlips, flipLine, linesOfOtherOrigins, originInStore, ownOriginLines, readUrlFile, urlLinesOf, versionChanges } from './version-changes.js';
export type { OriginInStore, VersionChange } from './version-changes.js';
export { packHistory } from './pack-history.js';
