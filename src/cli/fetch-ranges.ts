// robotstxt fetch --crawler-ranges and --signature-keys: the vendors' range files into <store>/crawler-ranges/, the
// signing agents' key directories into <store>/signature-keys/.
import { RobotsError } from '../core/errors.js';
import { usageError } from './command-spec.js';
import type { fetchCacheOptions } from './fetch-options.js';
import { flagWords } from './option-words.js';
import { terminalSafe } from '../core/terminal.js';
import type { LogFieldNames } from '../core/log-fields.js';

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

/** fetch --signature-keys: the key directories of the agents given and of those the logs' signed requests name, into <store>/signature-keys/. */
export async function runSignatureKeysFetch(plan: { store: string; agents: string[]; logs: string[] }, fields: LogFieldNames, force: boolean, options: ReturnType<typeof fetchCacheOptions>, out: (text: string) => void, stderr: (text: string) => void): Promise<number> {
  const { fetchSignatureKeys, fetchSettings } = await import('../node/fetch/index.js');
  const { signingAgentsOf } = await import('../node/signatures/index.js');
  const read = await signingAgentsOf(plan.logs, { fields });
  for (const line of read.unread.slice(0, 10)) stderr(`robotstxt fetch: ${terminalSafe(line.where)}: ${line.why}: no agent to fetch\n`);
  if (read.unread.length > 10) stderr(`robotstxt fetch: ${read.unread.length - 10} more line(s) whose Signature-Agent names no agent\n`);
  const agents = [...plan.agents.map((agent) => ({ agent })), ...read.agents.map((agent) => ({ agent: agent.origin, fromContent: true }))];
  if (agents.length === 0) throw usageError(`no signing agent to fetch: the signed requests of ${plan.logs.join(', ')} name none (JSON lines with a Signature-Agent; see robotstxt audit --help on --log-field)`);
  const settings = fetchSettings({ userAgent: options.userAgent, timeoutMs: options.timeoutMs, targets: options.targets, now: options.now, optionWords: flagWords });
  let results;
  try {
    results = await fetchSignatureKeys(plan.store, agents, settings, { force, maxAgeMs: options.maxAgeMs });
  } catch (error) {
    if (error instanceof RobotsError && error.code === 'INVALID_ARGUMENT') throw usageError(error.message);
    throw error;
  }
  for (const r of results) {
    const detail = r.error === null ? (r.changed ? ' (a new version: the one before is kept in history)' : '') : ` (${terminalSafe(r.error)}${r.kept ? '; the directory fetched before is kept' : ''})`;
    out(`${r.outcome}\t${r.agent}\t${r.source}\t${r.status === 0 ? '-' : r.status} ${r.keys} keys${detail}\n`);
  }
  const failed = results.filter((r) => r.outcome === 'failed');
  stderr(`robotstxt fetch: ${results.length} signing agent(s): ${results.filter((r) => r.source === 'fetched' && r.outcome === 'ok').length} fetched, ${results.filter((r) => r.source === 'fresh').length} fresh in the store, ${failed.length} failed\n`);
  return failed.some((r) => !r.kept) ? 1 : 0;
}
