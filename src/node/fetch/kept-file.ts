// A JSON file a store keeps fresh from one URL (a crawler vendor's range file, a signing agent's key directory):
// `<name>.json` beside `<name>.meta.json` (the URL, when it was fetched, the status). It is fetched by the same
// fetch as robots.txt (redirects, deadline, size limit, the targets rule: robots-fetch.ts) when it is missing,
// older than the freshness limit, from another URL, or forced; a fetch that fails, or brings a file that is none,
// keeps the one before. The one place of that rule for range-fetch.ts and signature-keys-fetch.ts.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { readRegularFile } from '../robots-file.js';
import type { RobotsStore } from '../store/index.js';
import { fetchOrigin, type FetchSettings, type robotsAgent } from './robots-fetch.js';

/** What refreshing one kept file gave. */
export interface KeptFileResult {
  /** fetched, or fresh (in the store, younger than the freshness limit: not fetched again). */
  source: 'fetched' | 'fresh';
  /** ok (the store holds this fetch's file), or failed (then `kept` says whether an older one is still there). */
  outcome: 'ok' | 'failed';
  status: number;
  error: string | null;
  /** What the file the store now holds counts (prefixes, keys; 0 when none). */
  count: number;
  kept: boolean;
  /** A fetched file that differs from the one kept before. */
  changed: boolean;
}

/** How a kept file is read and judged. */
export interface KeptFileRules {
  force: boolean;
  maxAgeMs: number;
  /** Bytes of the file read at most (settings.maxBytes should be the same). */
  maxBytes: number;
  /** What the file is, for errors ("crawler range file"). */
  what: string;
  /** What a file's text counts (prefixes, keys), or why it is none of its kind. */
  count(text: string): number | string;
  /** A fetched file that differs from the one kept before (or the first), before it replaces it. */
  onNewVersion?(body: Uint8Array, fetchedAt: string): void;
}

interface KeptMeta {
  url: string;
  fetchedAt: string;
  status: number;
}

/** The count and text of the file the store keeps under name (0 and null: none, or unreadable). */
function heldFile(store: RobotsStore, name: string, rules: KeptFileRules): { count: number; text: string | null } {
  const path = join(store.directory, `${name}.json`);
  if (!existsSync(path)) return { count: 0, text: null };
  try {
    const text = Buffer.from(readRegularFile(path, rules.maxBytes, rules.what)).toString('utf8');
    const count = rules.count(text);
    return { count: typeof count === 'number' ? count : 0, text };
  } catch {
    return { count: 0, text: null };
  }
}

/**
 * The file `<name>.json` of a store, fetched from url (of origin; fromContent: read from content, not named by the
 * user, for the targets rule) unless the store holds it fresh. Per file, once per run.
 */
export async function refreshKeptFile(store: RobotsStore, file: { name: string; origin: string; url: string; fromContent: boolean }, settings: FetchSettings, dispatcher: ReturnType<typeof robotsAgent>, rules: KeptFileRules): Promise<KeptFileResult> {
  let meta: KeptMeta | null = null;
  try {
    meta = JSON.parse(Buffer.from(readRegularFile(join(store.directory, `${file.name}.meta.json`), 64 << 10, `${rules.what} record`)).toString('utf8')) as KeptMeta;
  } catch { /* none yet, or unreadable: fetched again */ }
  const held = heldFile(store, file.name, rules);
  if (!rules.force && meta !== null && meta.url === file.url && held.count > 0 && settings.now() - Date.parse(meta.fetchedAt) < rules.maxAgeMs) {
    return { source: 'fresh', outcome: 'ok', status: meta.status, error: null, count: held.count, kept: true, changed: false };
  }
  const result = await fetchOrigin({ origin: file.origin, robotsUrl: file.url, key: file.name, hostKey: new URL(file.origin).host, fromContent: file.fromContent }, settings, dispatcher, null, null);
  const failed = (error: string): KeptFileResult => ({ source: 'fetched', outcome: 'failed', status: result.status, error, count: held.count, kept: held.count > 0, changed: false });
  if (result.outcome !== 'ok' || result.status < 200 || result.status > 299) return failed(result.error ?? (result.status > 0 ? `HTTP ${result.status}` : result.outcome));
  if (result.truncated) return failed(`larger than ${rules.maxBytes} bytes`);
  const text = Buffer.from(result.body).toString('utf8');
  const count = rules.count(text);
  if (typeof count === 'string') return failed(count);
  const fetchedAt = new Date(result.endedAt).toISOString();
  if (held.text !== text) rules.onNewVersion?.(result.body, fetchedAt);
  store.writeFile(`${file.name}.json`, result.body);
  store.writeFile(`${file.name}.meta.json`, JSON.stringify({ url: file.url, fetchedAt, status: result.status } satisfies KeptMeta) + '\n');
  return { source: 'fetched', outcome: 'ok', status: result.status, error: null, count, kept: true, changed: held.text !== null && held.text !== text };
}
