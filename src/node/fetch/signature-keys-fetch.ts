// The signing agents' key directories (Web Bot Auth), fetched into a store: `<store>/signature-keys/<host>.json`
// (the directory served at <origin>/.well-known/http-message-signatures-directory), `<host>.meta.json` (the URL,
// when it was fetched, the status), and each version that differed from the one before kept under
// `history/<host>/<time>.json`, so that an old log can still be verified with the keys of its time. Kept as
// kept-file.ts keeps a file: the same fetch as robots.txt (redirects, deadline, size limit, the targets rule that
// refuses internal origins) and the same freshness (24 hours unless --max-age). Used by `robotstxt fetch
// --signature-keys`; audit --verify reads the folder through SignatureKeys.
import { join } from 'node:path';
import { RobotsError } from '../../core/errors.js';
import { DEFAULT_MAX_AGE_MS, SIGNATURE_KEYS_FOLDER } from '../../core/fetch-rules.js';
import { RobotsStore } from '../store/index.js';
// the signatures' module (http-message-sig) loads only when keys are fetched: not with every robots.txt fetch
type Signatures = typeof import('../signatures/index.js');
import { robotsAgent, type FetchSettings } from './robots-fetch.js';
import { refreshKeptFile } from './kept-file.js';

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

/** The Ed25519 keys of a directory's text, or why it is no key directory. */
function keysOf({ SignatureKeys }: Signatures, agent: string, text: string): number | string {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return 'no key directory: not JSON';
  }
  const keys = SignatureKeys.of({ [agent]: json });
  const read = keys.agent(agent)?.keys.length ?? 0;
  if (read === 0) return `no key directory: ${keys.problems[0]?.replace(`${agent}: `, '').replace(/: left out$/, '') ?? 'no Ed25519 key'}`;
  return read;
}

/** One agent's directory, kept fresh in the store (kept-file.ts), each version that differs kept under history/<host>/ with its time. */
async function fetchOne(signatures: Signatures, store: RobotsStore, origin: string, fromContent: boolean, settings: FetchSettings, dispatcher: ReturnType<typeof robotsAgent>, force: boolean, maxAgeMs: number): Promise<SignatureKeysFetchResult> {
  const agent = new URL(origin).host;
  const url = `${origin}${SIGNATURE_DIRECTORY_PATH}`;
  const kept = await refreshKeptFile(store, { name: agent, origin, url, fromContent }, settings, dispatcher, {
    force, maxAgeMs, maxBytes: MAX_DIRECTORY_BYTES, what: 'signature key directory', count: (text) => keysOf(signatures, agent, text),
    // each version kept with its time: an old log is verified with the keys of its time
    onNewVersion: (body, fetchedAt) => new RobotsStore(join(store.directory, signatures.KEY_HISTORY_FOLDER, agent)).writeFile(`${fetchedAt.replace(/:/g, '-')}.json`, body),
  });
  return { agent, url, source: kept.source, outcome: kept.outcome, status: kept.status, error: kept.error, keys: kept.count, kept: kept.kept, changed: kept.changed };
}
