// The door of src/node/check/: robotstxt check's pipeline: answerers, budgets, in-order output, the usage column.
// Modules outside this folder import it only through this file (test/package.test.ts holds that).
export { HostShardsAnswerer, RobotsWorkersAnswerer, ThisThreadAnswerer } from './answerers.js';
export type { AnswerCounts } from './answerers.js';
export { HOSTS_THREADS_AFTER_MS, HostsThreadsPace, minCacheMbForThreads, workerOverheadMb, hostsWindowBytes } from './budget.js';
export { InOrderWriter } from './in-order-writer.js';
export { runCheck } from './pipeline.js';
export type { CheckOutcome, CheckPlan, FewerThreads, LineChunkSource } from './pipeline.js';
export type { UsageColumnSpec } from './usage-column.js';
