// The crawler vendors' IP range files, fetched into a store (`<store>/crawler-ranges/<id>.json`, with
// `<id>.meta.json`: the URL, when it was fetched, the status) as kept-file.ts keeps a file: the same fetch as
// robots.txt (redirects, deadline, decoded size limit) and the same freshness (24 hours unless --max-age). Used by
// `robotstxt fetch --crawler-ranges`; audit --verify reads the folder through CrawlerVerifier.
import { join } from 'node:path';
import { CRAWLER_RANGE_SOURCES, MAX_RANGE_FILE_BYTES, prefixesOfRangeFile, type CrawlerRangeSource } from '../verify/index.js';
import { RobotsError } from '../../core/errors.js';
import { RobotsStore } from '../store/index.js';
import { robotsAgent, type FetchSettings } from './robots-fetch.js';
import { refreshKeptFile } from './kept-file.js';
import { DEFAULT_MAX_AGE_MS, RANGES_FOLDER } from '../../core/fetch-rules.js';


/** What fetching one range file gave. */
export interface RangeFetchResult {
  id: string;
  url: string;
  /** fetched, or fresh (in the store, younger than the freshness limit: not fetched again). */
  source: 'fetched' | 'fresh';
  /** ok (the store holds this fetch's file), or failed (then `kept` says whether an older file is still there). */
  outcome: 'ok' | 'failed';
  status: number;
  error: string | null;
  /** Prefixes in the file the store now holds (0 when none). */
  prefixes: number;
  kept: boolean;
}

/**
 * Fetches every range file of the vendor table (urls: replacements by id, for mirrors and tests) that the
 * store lacks or holds for longer than maxAgeMs, concurrently; one result per source, in table order.
 */
export async function fetchCrawlerRanges(storeDirectory: string, settings: FetchSettings, options: { urls?: ReadonlyMap<string, string>; force?: boolean; maxAgeMs?: number } = {}): Promise<RangeFetchResult[]> {
  for (const id of options.urls?.keys() ?? []) {
    if (!CRAWLER_RANGE_SOURCES.some((source) => source.id === id)) throw new RobotsError('INVALID_ARGUMENT', `no crawler range file is named '${id}' (expected one of ${CRAWLER_RANGE_SOURCES.map((s) => s.id).join(', ')})`);
  }
  const store = new RobotsStore(join(storeDirectory, RANGES_FOLDER));
  const maxAgeMs = options.maxAgeMs ?? DEFAULT_MAX_AGE_MS;
  const fetchSettings: FetchSettings = { ...settings, maxBytes: MAX_RANGE_FILE_BYTES };
  const dispatcher = robotsAgent(fetchSettings, 8);
  try {
    return await Promise.all(CRAWLER_RANGE_SOURCES.map((source) => fetchOne(store, { ...source, url: options.urls?.get(source.id) ?? source.url }, fetchSettings, dispatcher, options.force === true, maxAgeMs)));
  } finally {
    await dispatcher.close().catch(() => undefined);
  }
}

/** One range file of the vendor table, kept fresh in the store (kept-file.ts). */
async function fetchOne(store: RobotsStore, source: CrawlerRangeSource, settings: FetchSettings, dispatcher: ReturnType<typeof robotsAgent>, force: boolean, maxAgeMs: number): Promise<RangeFetchResult> {
  const prefixes = (text: string): number | string => {
    try {
      return prefixesOfRangeFile(text, source.url).length;
    } catch (error) {
      return (error as Error).message.replace(`${source.url}: `, '');
    }
  };
  const kept = await refreshKeptFile(store, { name: source.id, origin: new URL(source.url).origin, url: source.url, fromContent: false }, settings, dispatcher, { force, maxAgeMs, maxBytes: MAX_RANGE_FILE_BYTES, what: 'crawler range file', count: prefixes });
  return { id: source.id, url: source.url, source: kept.source, outcome: kept.outcome, status: kept.status, error: kept.error, prefixes: kept.count, kept: kept.kept };
}
