// robotstxt fetch --crawler-ranges: the vendors' range files into <store>/crawler-ranges/.
import { RobotsError } from '../core/errors.js';
import { usageError } from './command-spec.js';
import type { fetchCacheOptions } from './fetch-options.js';
import { flagWords } from './option-words.js';

/** fetch --crawler-ranges: the vendors' range files into <store>/crawler-ranges/. */
export async function runRangeFetch(store: string, urls: ReadonlyMap<string, string>, force: boolean, options: ReturnType<typeof fetchCacheOptions>, out: (text: string) => void, stderr: (text: string) => void): Promise<number> {
  const { fetchCrawlerRanges } = await import('../node/fetch/index.js');
  const { fetchSettings } = await import('../node/fetch/index.js');
  const settings = fetchSettings({ userAgent: options.userAgent, timeoutMs: options.timeoutMs, targets: options.targets, now: options.now, optionWords: flagWords });
  let results;
  try {
    results = await fetchCrawlerRanges(store, settings, { urls, force, maxAgeMs: options.maxAgeMs });
  } catch (error) {
    if (error instanceof RobotsError && error.code === 'INVALID_ARGUMENT') throw usageError(`--ranges-url: ${error.message}`);
    throw error;
  }
  for (const r of results) {
    const detail = r.error === null ? '' : ` (${r.error}${r.kept ? '; the file fetched before is kept' : ''})`;
    out(`${r.outcome}\t${r.id}\t${r.source}\t${r.status === 0 ? '-' : r.status} ${r.prefixes} prefixes${detail}\n`);
  }
  const failed = results.filter((r) => r.outcome === 'failed');
  stderr(`robotstxt fetch: ${results.length} crawler range files: ${results.filter((r) => r.source === 'fetched' && r.outcome === 'ok').length} fetched, ${results.filter((r) => r.source === 'fresh').length} fresh in the store, ${failed.length} failed\n`);
  return failed.some((r) => !r.kept) ? 1 : 0;
}
