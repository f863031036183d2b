// The door of src/node/hosts/: Many hosts at once: where bodies come from (sources), the folder listing, and the many-host matcher.
// Modules outside this folder import it only through this file (test/package.test.ts holds that).
export { DEFAULT_CACHE_BYTES, MultiHostMatcher, matcherForSpec } from './hosts.js';
export type { HostChunkFormat, HostChunkResult, HostsSpec, MultiHostOptions, MultiHostStats } from './hosts.js';
export { ALLOW_ALL, CompiledRules, DISALLOW_ALL, FULL_VERDICT_BODY, NO_RULES_KNOWN, robotsFromDirectory, robotsFromMap, robotsHostOf, storedVersionBody, withTraits } from './sources.js';
export type { MissingPolicy, RobotsHost, RobotsSource, RobotsSourceAnswer, HeldData } from './sources.js';
