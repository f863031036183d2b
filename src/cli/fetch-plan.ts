// robotstxt fetch's plan: what a run will do, read off its parsed values alone (nothing read, nothing fetched):
// the range files (--crawler-ranges) or the origins' inputs, the fetch options, the store, --fail-on-change.
// Every combination the options cannot make is refused here, naming the flag. test/fetch-plan.test.ts tests it.
import type { ParsedCommand } from './command-spec.js';
import { usageError } from './command-spec.js';
import { agentValues, logFieldValues, readingOf } from './shared-options.js';
import { fetchCacheOptions } from './fetch-options.js';
import type { RobotsReading } from '../core/robots.js';
import type { LogFieldNames } from '../core/log-fields.js';
import type { OriginInputs } from '../node/fetch/index.js';
import type { FETCH_SPEC } from './fetch-command.js';

/** What one run of fetch does, read off its options. */
export interface FetchCommandPlan {
  reading: RobotsReading;
  options: ReturnType<typeof fetchCacheOptions>;
  /** --crawler-ranges: the store, the range file URLs given (id -> URL); null: origins are fetched. */
  ranges: { store: string; urls: Map<string, string> } | null;
  /** --signature-keys: the store, the agents named (origins or hosts) and the logs whose signed requests name more; null: not asked. */
  signatureKeys: { store: string; agents: string[]; logs: string[] } | null;
  inputs: OriginInputs;
  defaultHost: string | null;
  fields: LogFieldNames;
  store: string | null;
  keepVersions: number;
  /** --fail-on-change: the URL file watched, and the agents its verdicts are taken for. */
  watch: { file: string; agents: string[] } | null;
  format: 'text' | 'jsonl';
  force: boolean;
  stats: boolean;
}

/** The plan of a fetch run from its parsed arguments (stdinIsTerminal: no list is piped in). Pure: it opens nothing. Once per run. */
export function planFetch(parsed: ParsedCommand<(typeof FETCH_SPEC)['options']>, stdinIsTerminal: boolean): FetchCommandPlan {
  const { values, positionals } = parsed;
  const reading = readingOf(values);
  const options = fetchCacheOptions(values, reading);
  let ranges: FetchCommandPlan['ranges'] = null;
  // (--crawler-ranges requires --store)
  if (values['crawler-ranges']) {
    if (positionals.length > 0) throw usageError('--crawler-ranges fetches only the range files: give no URLs or hosts');
    const urls = new Map<string, string>();
    for (const pair of values['ranges-url']) {
      const at = pair.indexOf('=');
      const url = pair.slice(at + 1);
      if (at <= 0 || !/^https?:\/\/[^\s]+$/.test(url)) throw usageError(`--ranges-url must be <id>=<http(s) URL>, got '${pair}'`);
      urls.set(pair.slice(0, at), url);
    }
    ranges = { store: values.store as string, urls };
  }
  const { log: logs, urls: urlFiles } = values;
  let signatureKeys: FetchCommandPlan['signatureKeys'] = null;
  // (--signature-keys requires --store, excludes --crawler-ranges and --urls)
  if (values['signature-keys']) {
    if (positionals.includes('-')) throw usageError('--signature-keys reads agents from arguments and --log files, not standard input');
    if (positionals.length === 0 && logs.length === 0) throw usageError('--signature-keys needs the signing agents: --log <file> (JSON lines with their Signature-Agent), or their origins or hosts as arguments');
    signatureKeys = { store: values.store as string, agents: [...positionals], logs: [...logs] };
  }
  const none = positionals.length === 0 && urlFiles.length === 0 && logs.length === 0;
  const stdin = positionals.includes('-') || (none && !stdinIsTerminal);
  if (ranges === null && signatureKeys === null && none && !stdin) throw usageError('fetch needs URLs or hosts: arguments, --urls <file>, --log <file>, or piped input (see robotstxt fetch --help)');
  const watched = values['fail-on-change'];
  return {
    reading,
    options,
    ranges,
    signatureKeys,
    inputs: { args: positionals, stdin, urlFiles, logs },
    defaultHost: values.host ?? null,
    fields: logFieldValues(values['log-field']),
    store: values.store ?? null,
    keepVersions: values['keep-versions'],
    watch: watched === undefined ? null : { file: watched, agents: values.agent.length > 0 ? agentValues(values.agent) : ['*'] },
    format: values.format,
    force: values.force,
    stats: values.stats,
  };
}
