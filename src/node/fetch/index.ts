// The door of src/node/fetch/: robots.txt, crawler range files and signing agents' keys over HTTP: the fetch rules, the cache, the range files, the key directories.
// Modules outside this folder import it only through this file (test/package.test.ts holds that).
export { fetchCrawlerRanges } from './range-fetch.js';
export { SIGNATURE_DIRECTORY_PATH, fetchSignatureKeys, type SignatureKeysFetchResult } from './signature-keys-fetch.js';
export { RobotsCache } from './robots-cache.js';
export type { RobotsCacheEntry, RobotsCacheOptions, RobotsCacheStats } from './robots-cache.js';
export { DEFAULT_FETCH_USER_AGENT, DEFAULT_TIMEOUT_MS, FETCH_TARGETS, MAX_FETCH_BYTES, fetchRobots, fetchSettings, refusalSentence, refusedTarget, resolveWithDns, robotsOriginOf } from './robots-fetch.js';
export type { FetchRobotsOptions, FetchTargets, RobotsFetchResult, RobotsOrigin, TargetRefusal } from './robots-fetch.js';
export { readOrigins, type OriginInputs, type UnreadOrigin } from './origins.js';
