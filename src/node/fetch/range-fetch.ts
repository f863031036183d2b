// The crawler vendors' IP range files, fetched into a store (`<store>/crawler-ranges/<id>.json`, with
// `<id>.meta.json`: the URL, when it was fetched, the status) by the same fetch as robots.txt (redirects,
// deadline, decoded size limit: robots-fetch.ts) and the same freshness (24 hours unless --max-age). Used by
// `robotstxt fetch --crawler-ranges`; audit --verify reads the folder through CrawlerVerifier.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { CRAWLER_RANGE_SOURCES, MAX_RANGE_FILE_BYTES, prefixesOfRangeFile, type CrawlerRangeSource } from '../verify/index.js';
import { readRegularFile } from '../robots-file.js';
import { RobotsError } from '../../core/errors.js';
import { RobotsStore } from '../store/index.js';
import { fetchOrigin, robotsAgent, type FetchSettings } from './robots-fetch.js';
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

interface RangeMeta {
  url: string;
  fetchedAt: string;
  status: number;
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

function storedPrefixes(store: RobotsStore, id: string): number {
  const path = join(store.directory, `${id}.json`);
  if (!existsSync(path)) return 0;
  try {
    return prefixesOfRangeFile(Buffer.from(readRegularFile(path, MAX_RANGE_FILE_BYTES, 'crawler range file')).toString('utf8'), path).length;
  } catch {
    return 0;
  }
}

async function fetchOne(store: RobotsStore, source: CrawlerRangeSource, settings: FetchSettings, dispatcher: ReturnType<typeof robotsAgent>, force: boolean, maxAgeMs: number): Promise<RangeFetchResult> {
  const metaPath = join(store.directory, `${source.id}.meta.json`);
  let meta: RangeMeta | null = null;
  try {
    meta = JSON.parse(Buffer.from(readRegularFile(metaPath, 64 << 10, 'range file record')).toString('utf8')) as RangeMeta;
  } catch { /* none yet, or unreadable: fetched again */ }
  const held = storedPrefixes(store, source.id);
  if (!force && meta !== null && meta.url === source.url && held > 0 && settings.now() - Date.parse(meta.fetchedAt) < maxAgeMs) {
    return { id: source.id, url: source.url, source: 'fresh', outcome: 'ok', status: meta.status, error: null, prefixes: held, kept: true };
  }
  const url = new URL(source.url);
  const result = await fetchOrigin({ origin: url.origin, robotsUrl: source.url, key: source.id, hostKey: url.host }, settings, dispatcher, null, null);
  const failed = (error: string): RangeFetchResult => ({ id: source.id, url: source.url, source: 'fetched', outcome: 'failed', status: result.status, error, prefixes: held, kept: held > 0 });
  if (result.outcome !== 'ok') return failed(result.error ?? `${result.outcome}`);
  if (result.truncated) return failed(`larger than ${MAX_RANGE_FILE_BYTES} bytes`);
  const text = Buffer.from(result.body).toString('utf8');
  let prefixes: number;
  try {
    prefixes = prefixesOfRangeFile(text, source.url).length;
  } catch (error) {
    return failed((error as Error).message.replace(`${source.url}: `, ''));
  }
  store.writeFile(`${source.id}.json`, result.body);
  store.writeFile(`${source.id}.meta.json`, JSON.stringify({ url: source.url, fetchedAt: new Date(result.endedAt).toISOString(), status: result.status } satisfies RangeMeta) + '\n');
  return { id: source.id, url: source.url, source: 'fetched', outcome: 'ok', status: result.status, error: null, prefixes, kept: true };
}
