// Where an audit's rules come from, made from its plan: a pack, a history folder, one file, a folder or a store
// (fetched first with --fetch; a store that keeps versions judges each request by the version in force).
import type { UrlOrigin } from '../core/url-model.js';
import { RobotsError } from '../core/errors.js';
import { rulesOf, rulesOfTimed, rulesOfDirectory, rulesOfHistory, type AuditRules } from '../node/audit/index.js';
import { loadRobots, warnings } from './common.js';
import { openedPack } from './pack-option.js';
import { usageError } from './command-spec.js';
import { NO_RULES_KNOWN } from '../node/hosts/index.js';
import type { LogFieldNames } from '../node/logs/index.js';
import type { RobotsCacheOptions } from '../node/fetch/index.js';
import { storeSummary } from './fetch-options.js';
import { HeapGovernor } from './heap-governor.js';
import { flagWords } from './option-words.js';
import type { AuditCommandPlan } from './audit-plan.js';

/**
 * With versions over time, the JavaScript heap is kept within this much of what lives in it (see
 * HistoryOptions.afterBatch): measured with 2,000 hosts of 20 versions each in random order, V8 otherwise
 * let the heap reach 280 MiB for 70 MiB live.
 */
const HISTORY_HEAP_SLACK_BYTES = 32 << 20;

/** The hook a history calls after each judged batch (HistoryOptions.afterBatch): this process's heap kept within HISTORY_HEAP_SLACK_BYTES of what lives. */
function governHeap(): () => void {
  const heap = new HeapGovernor(HISTORY_HEAP_SLACK_BYTES);
  return () => heap.check();
}

/** The rules an audit judges by, as its plan names them. Once per run. */
export async function auditRulesOf(plan: AuditCommandPlan, stderr: (text: string) => void): Promise<AuditRules> {
  const { rules: source, reading, missing } = plan;
  if (source.kind === 'pack') {
    const { packRobotsAt } = await import('../node/pack/index.js');
    const { packHistory } = await import('../node/history/index.js');
    const { pack, reading: packReading } = await openedPack(source.file, reading, plan.readingGiven);
    const noEntry = (origin: UrlOrigin): void => {
      if (missing === 'error') throw new RobotsError('NO_ROBOTS', `no robots.txt known for ${origin.origin} (the pack ${source.file} has no entry of it; --missing error)`);
    };
    // origins captured several times: each request by the capture in force then, as a store's versions
    if (pack.captureCount > pack.originCount) return rulesOfHistory(packHistory(pack, { reading: packReading, afterBatch: governHeap(), noEntry }));
    const robotsAt = packRobotsAt(pack, packReading);
    return rulesOfTimed((origin, timeMs) => {
      const robots = robotsAt.at(origin, timeMs);
      if (robots === NO_RULES_KNOWN && origin !== null) noEntry(origin);
      return robots;
    }, robotsAt.files);
  }
  if (source.kind === 'history') {
    const { RobotsHistory } = await import('../node/history/index.js');
    try {
      return rulesOfHistory(new RobotsHistory(source.directory, { reading, afterBatch: governHeap() }));
    } catch (error) {
      throw usageError(error instanceof RobotsError ? error.sayOption(flagWords) : (error as Error).message);
    }
  }
  if (source.kind === 'file') {
    const robots = loadRobots(source.path, reading, stderr);
    return rulesOf(() => robots);
  }
  // the same host names and files as check --robots-dir (src/node/hosts/hosts.ts)
  if (source.fetch !== null) await fetchLogHosts(plan.logs, plan.defaultHost, source.fetch, source.directory, stderr, plan.logFields);
  const directory = rulesOfDirectory(source.directory, { reading, nowMs: plan.nowMs, missing: missing === 'error' ? 'error' : 'unknown', warn: warnings(stderr) });
  // a store that keeps versions: each request by the version in force when it was made
  if (source.store !== null) {
    const { StoreHistory } = await import('../node/history/index.js');
    if (StoreHistory.hasVersions(source.store)) return rulesOfHistory(new StoreHistory(source.store, { reading, afterBatch: governHeap(), current: directory, warn: warnings(stderr) }));
  }
  return directory;
}

/**
 * audit --fetch: the origins of the logs' requests (read once, by the reader robotstxt fetch --log uses), then
 * those the store lacks or has stale fetched (within the limits). The audit itself then reads the store like a
 * robots directory.
 */
async function fetchLogHosts(logs: string[], defaultHost: string | null, options: RobotsCacheOptions, store: string, stderr: (text: string) => void, logFields: LogFieldNames): Promise<void> {
  // the host of lines that name none is --host's, which the user named; every other host comes from the log
  const { readOrigins, RobotsCache } = await import('../node/fetch/index.js'); // the HTTP client: only when fetching
  const { origins } = await readOrigins({ logs }, { defaultHost, fields: logFields });
  const cache = new RobotsCache({ ...options, store, memoryBytes: 8 << 20 });
  try {
    await cache.entriesInOrder(origins, { concurrency: options.concurrency ?? 32, onEntry: () => undefined });
  } finally {
    await cache.close();
  }
  stderr(`robotstxt: robots.txt: ${storeSummary(cache.stats, cache.stats.fromStore)}\n`);
}
