// The signing agents' key directories (Web Bot Auth), fetched into a store: `<store>/signature-keys/<host>.json`
// (the directory served at <origin>/.well-known/http-message-signatures-directory), `<host>.meta.json` (the URL,
// when it was fetched, the status), and each version that differed from the one before kept under
// `history/<host>/<time>.json`, so that an old log can still be verified with the keys of its time. The same
// fetch as robots.txt (redirects, deadline, size limit, the targets rule that refuses internal origins:
// robots-fetch.ts) and the same freshness (24 hours unless --max-age). Used by `robotstxt fetch
// --signature-keys`; audit --verify reads the folder through SignatureKeys.
import { join } from 'node:path';
import { existsSync } from 'node:fs';
import { RobotsError } from '../../core/errors.js';
import { DEFAULT_MAX_AGE_MS, SIGNATURE_KEYS_FOLDER } from '../../core/fetch-rules.js';
import { readRegularFile } from '../robots-file.js';
import { RobotsStore } from '../store/index.js';
// the signatures' module (http-message-sig) loads only when keys are fetched: not with every robots.txt fetch
type Signatures = typeof import('../signatures/index.js');
import { fetchOrigin, robotsAgent, type FetchSettings } from './robots-fetch.js';

/** Where an agent publishes its keys (draft-meunier-http-message-signatures-directory). */
export const SIGNATURE_DIRECTORY_PATH = '/.well-known/http-message-signatures-directory';
/** Bytes of a key directory kept at most (SignatureKeys reads up to 1 MiB). */
const MAX_DIRECTORY_BYTES = 1 << 20;
/** Agents fetched at once. */
const CONCURRENCY = 8;

/** What fetching one agent's key directory gave. */
export interface SignatureKeysFetchResult {
  /** The agent's host (and port): its file is `<host>.json`. */
  agent: string;
  url: string;
  /** fetched, or fresh (in the store, younger than the freshness limit: not fetched again). */
  source: 'fetched' | 'fresh';
  /** ok (the store holds this fetch's directory), or failed (then `kept` says whether an older one is still there). */
  outcome: 'ok' | 'failed';
  status: number;
  error: string | null;
  /** Ed25519 keys in the directory the store now holds (0 when none). */
  keys: number;
  kept: boolean;
  /** A fetched directory that differs from the one kept before (each version fetched is kept under history/<host>/, the first too). */
  changed: boolean;
}

interface KeysMeta {
  url: string;
  fetchedAt: string;
  status: number;
}

/**
 * Fetches the key directory of each agent (an origin or host as a Signature-Agent names it, `https://chatgpt.com`;
 * fromContent: read from a log, not named by the user, so that the default targets policy refuses an internal
 * address) that the store lacks or holds for longer than maxAgeMs, CONCURRENCY at once; one result per agent, in
 * the order given, each once. An agent that names no http(s) origin is INVALID_ARGUMENT. Once per run.
 */
export async function fetchSignatureKeys(storeDirectory: string, agents: readonly { agent: string; fromContent?: boolean }[], settings: FetchSettings, options: { force?: boolean; maxAgeMs?: number } = {}): Promise<SignatureKeysFetchResult[]> {
  const signatures = await import('../signatures/index.js');
  const { signatureAgentOrigin } = signatures;
  // each origin once: named by the user wins over read from content
  const origins = new Map<string, boolean>();
  for (const { agent, fromContent } of agents) {
    // a scheme given must be http(s); a bare host is https's
    const named = /^[a-z][a-z0-9+.-]*:\/\//i.test(agent) ? agent : `https://${agent}`;
    const origin = /^https?:\/\//i.test(named) ? signatureAgentOrigin(JSON.stringify(named)) : null;
    if (origin === null) throw new RobotsError('INVALID_ARGUMENT', `'${agent}' names no signing agent (an https:// origin or a host name, as a Signature-Agent names it)`);
    origins.set(origin, (origins.get(origin) ?? true) && fromContent === true);
  }
  const store = new RobotsStore(join(storeDirectory, SIGNATURE_KEYS_FOLDER));
  const maxAgeMs = options.maxAgeMs ?? DEFAULT_MAX_AGE_MS;
  const fetchSettings: FetchSettings = { ...settings, maxBytes: MAX_DIRECTORY_BYTES };
  const dispatcher = robotsAgent(fetchSettings, CONCURRENCY);
  try {
    const results: SignatureKeysFetchResult[] = [];
    const unique = [...origins];
    for (let at = 0; at < unique.length; at += CONCURRENCY) {
      results.push(...await Promise.all(unique.slice(at, at + CONCURRENCY).map(([origin, fromContent]) => fetchOne(signatures, store, origin, fromContent, fetchSettings, dispatcher, options.force === true, maxAgeMs))));
    }
    return results;
  } finally {
    await dispatcher.close().catch(() => undefined);
  }
}

/** The Ed25519 keys of a directory's text, or why it is none. */
function keysOf({ SignatureKeys }: Signatures, agent: string, text: string): number | string {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return 'not JSON';
  }
  const keys = SignatureKeys.of({ [agent]: json });
  const read = keys.agent(agent)?.keys.length ?? 0;
  if (read === 0) return keys.problems[0]?.replace(`${agent}: `, '').replace(/: left out$/, '') ?? 'no Ed25519 key';
  return read;
}

/** The keys of the directory the store holds for an agent (0: none, or unreadable). */
function storedKeys(signatures: Signatures, store: RobotsStore, agent: string): { keys: number; text: string | null } {
  const path = join(store.directory, `${agent}.json`);
  if (!existsSync(path)) return { keys: 0, text: null };
  try {
    const text = Buffer.from(readRegularFile(path, MAX_DIRECTORY_BYTES, 'signature key directory')).toString('utf8');
    const keys = keysOf(signatures, agent, text);
    return { keys: typeof keys === 'number' ? keys : 0, text };
  } catch {
    return { keys: 0, text: null };
  }
}

async function fetchOne(signatures: Signatures, store: RobotsStore, origin: string, fromContent: boolean, settings: FetchSettings, dispatcher: ReturnType<typeof robotsAgent>, force: boolean, maxAgeMs: number): Promise<SignatureKeysFetchResult> {
  const agent = new URL(origin).host;
  const url = `${origin}${SIGNATURE_DIRECTORY_PATH}`;
  let meta: KeysMeta | null = null;
  try {
    meta = JSON.parse(Buffer.from(readRegularFile(join(store.directory, `${agent}.meta.json`), 64 << 10, 'signature key record')).toString('utf8')) as KeysMeta;
  } catch { /* none yet, or unreadable: fetched again */ }
  const held = storedKeys(signatures, store, agent);
  if (!force && meta !== null && meta.url === url && held.keys > 0 && settings.now() - Date.parse(meta.fetchedAt) < maxAgeMs) {
    return { agent, url, source: 'fresh', outcome: 'ok', status: meta.status, error: null, keys: held.keys, kept: true, changed: false };
  }
  const result = await fetchOrigin({ origin, robotsUrl: url, key: agent, hostKey: agent, fromContent }, settings, dispatcher, null, null);
  const failed = (error: string): SignatureKeysFetchResult => ({ agent, url, source: 'fetched', outcome: 'failed', status: result.status, error, keys: held.keys, kept: held.keys > 0, changed: false });
  if (result.outcome !== 'ok' || result.status < 200 || result.status > 299) return failed(result.error ?? (result.status > 0 ? `HTTP ${result.status}` : result.outcome));
  if (result.truncated) return failed(`larger than ${MAX_DIRECTORY_BYTES} bytes`);
  const text = Buffer.from(result.body).toString('utf8');
  const keys = keysOf(signatures, agent, text);
  if (typeof keys === 'string') return failed(`no key directory: ${keys}`);
  const fetchedAt = new Date(result.endedAt).toISOString();
  const changed = held.text !== null && held.text !== text;
  if (held.text !== text) {
    // each version kept with its time: an old log is verified with the keys of its time
    const history = new RobotsStore(join(store.directory, signatures.KEY_HISTORY_FOLDER, agent));
    history.writeFile(`${fetchedAt.replace(/:/g, '-')}.json`, result.body);
  }
  store.writeFile(`${agent}.json`, result.body);
  store.writeFile(`${agent}.meta.json`, JSON.stringify({ url, fetchedAt, status: result.status } satisfies KeysMeta) + '\n');
  return { agent, url, source: 'fetched', outcome: 'ok', status: result.status, error: null, keys, kept: true, changed };
}
