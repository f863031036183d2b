// robotstxt audit's plan: what a run will do, read off its parsed values alone (no file opened): where the
// rules come from, the reading, the verification asked, the time window, the report. Every combination the
// options cannot make is refused here, naming the flag. test/audit-plan.test.ts tests it.
import type { OptionValues, ParsedCommand } from './command-spec.js';
import { usageError } from './command-spec.js';
import { logFieldValues, readingOf, readingGivenOf } from './shared-options.js';
import { terminalSafe } from '../core/terminal.js';
import type { RobotsReading } from '../core/robots.js';
import type { LogFieldNames } from '../core/log-fields.js';
import { logTimeMs } from '../node/logs/index.js';
import { clockOption, fetchCacheOptions } from './fetch-options.js';
import type { AUDIT_SPEC } from './audit-command.js';

/** audit's parsed values. */
export type AuditValues = OptionValues<(typeof AUDIT_SPEC)['options']>;

/** Where an audit's rules come from. */
export type AuditRulesPlan =
  | { kind: 'pack'; file: string }
  | { kind: 'history'; directory: string }
  | { kind: 'file'; path: string }
  | { kind: 'folder'; directory: string; store: string | null; fetch: ReturnType<typeof fetchCacheOptions> | null };

/** What one audit run does, read off its options (not --merge: see mergeAudits). */
export interface AuditCommandPlan {
  logs: string[];
  rules: AuditRulesPlan;
  reading: RobotsReading;
  /** Which of --mode and --max-bytes were given (a pack's own reading fills the others). */
  readingGiven: Set<string>;
  missing: AuditValues['missing'];
  format: AuditValues['format'];
  output: string | undefined;
  top: number;
  verify: { dns: boolean; rangeFiles: string[]; dnsProbe: string | undefined; rangesMaxAgeDays: number | 'any'; signatureKeys: string | null } | null;
  sinceMs: number | undefined;
  untilMs: number | undefined;
  logFields: LogFieldNames;
  /** --host: the host of lines that name none. */
  defaultHost: string | null;
  clientIp: AuditValues['client-ip'];
  byHost: boolean;
  asToken: boolean;
  /** --now: stored records and range files are judged as of this time (ms). */
  nowMs: number;
}

/** The plan of an audit run from its parsed arguments. Pure: it opens nothing. Once per run. */
export function planAudit(parsed: ParsedCommand<(typeof AUDIT_SPEC)['options']>): AuditCommandPlan {
  const { values, positionals, given } = parsed;
  const storeDir = values.store;
  const directory = values['robots-dir'] ?? storeDir;
  if (values.fetch && positionals.includes('-')) throw usageError('--fetch reads the logs twice (hosts first): give log files, not standard input');
  const reading = readingOf(values);
  const verify = values.verify;
  if (values['dns-probe'] !== undefined && verify !== 'dns') throw usageError('--dns-probe applies only with --verify dns');
  const sinceMs = timeOption('since', values.since);
  const untilMs = timeOption('until', values.until);
  if (sinceMs !== undefined && untilMs !== undefined && untilMs <= sinceMs) throw usageError('--until must be later than --since');
  const defaultHost = values.host ?? null;
  // a log line names no scheme: its requests are judged as http://<host> (a URL given here was read as a host named "https")
  if (defaultHost !== null && !/^[^\s/\\?#@]+$/.test(defaultHost)) throw usageError(`--host names a host (shop.example, or shop.example:8080), got '${terminalSafe(defaultHost)}': requests of lines that name no host are judged as http://<host>`);
  const rules: AuditRulesPlan = values.pack !== undefined ? { kind: 'pack', file: values.pack }
    : values['robots-history'] !== undefined ? { kind: 'history', directory: values['robots-history'] }
    : values.robots !== undefined ? { kind: 'file', path: values.robots }
    : { kind: 'folder', directory: directory as string, store: storeDir ?? null, fetch: values.fetch ? fetchCacheOptions(values, reading) : null };
  return {
    logs: positionals,
    rules,
    reading,
    readingGiven: readingGivenOf(given),
    missing: values.missing,
    format: values.format,
    output: values.output,
    top: values.top,
    verify: verify === undefined ? null : { dns: verify === 'dns', rangeFiles: [...values['crawler-ranges']], dnsProbe: values['dns-probe'], rangesMaxAgeDays: rangesMaxAge(values['ranges-max-age']), signatureKeys: values['signature-keys'] ?? null },
    sinceMs,
    untilMs,
    logFields: logFieldValues(values['log-field']),
    defaultHost,
    clientIp: values['client-ip'],
    byHost: values.by === 'host',
    asToken: values['as-token'],
    nowMs: clockOption(values.now).start,
  };
}

/** `--verify` alone means `--verify ranges` (parseArgs would take the next argument as its value). */
export function withVerifyValue(args: string[]): string[] {
  return args.map((arg, i) => (arg === '--verify' && args[i + 1] !== 'ranges' && args[i + 1] !== 'dns' ? '--verify=ranges' : arg));
}

/** --since/--until: a time logTimeMs reads (ISO 8601, a date, seconds since 1970). */
function timeOption(name: string, value: unknown): number | undefined {
  if (value === undefined) return undefined;
  const ms = logTimeMs(String(value));
  if (ms === null) throw usageError(`--${name} must be a time such as 2026-11-01, 2026-11-01T08:00:00Z or seconds since 1970, got '${String(value)}'`);
  return ms;
}

/** --ranges-max-age: days (1 to 36500) or any; 30 when not given. */
function rangesMaxAge(value: string | undefined): number | 'any' {
  if (value === undefined) return 30;
  if (value === 'any') return 'any';
  if (!/^\d{1,5}$/.test(value) || Number(value) < 1 || Number(value) > 36_500) throw usageError(`--ranges-max-age must be a number of days from 1 to 36500, or any, got '${value}'`);
  return Number(value);
}
