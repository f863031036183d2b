// Helpers shared by the commands: errors with exit code 2, option parsing, reading robots files.
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { readFileSync } from 'node:fs';
import { RobotsError } from '../core/errors.js';
import type { RobotsTxt, RobotsMode } from '../core/robots.js';
import { agentWarning } from '../core/crawlers.js';
import { fileError, readRobotsLikeRobotsMain } from '../node/robots-file.js';
import { LOG_FIELD_NAMES, type LogFieldNames } from '../core/log-fields.js';
import type { OptionTable, OptionSpec } from './options.js';
import { MAX_COMPILE_BYTES } from '../core/wasm/limits.js';

export { fileError };

/** Exit code for usage and file errors (0 and 1 are verdicts for `test`). */
export const EXIT_USAGE = 2;

export function usageError(message: string): RobotsError {
  return new RobotsError('USAGE', message);
}

type Values = Record<string, string | boolean | (string | boolean)[] | undefined>;

/** node:util parseArgs with unknown options and missing values turned into one-line usage errors. */
export function parseCommandArgs(args: string[], options: NonNullable<ParseArgsConfig['options']>, command: string): { values: Values; positionals: string[] } {
  // `--threads -1`: a value that starts with '-' is still the option's value (parseArgs would call it
  // ambiguous); each option's own check then names what is wrong with it
  const joined: string[] = [];
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '--') {
      joined.push(...args.slice(i));
      break;
    }
    const name = args[i].startsWith('--') ? args[i].slice(2) : null;
    const next = args[i + 1];
    // `--agent --only disallowed`: an option's value missing before another option (parseArgs calls it "ambiguous")
    if (name !== null && options[name]?.type === 'string' && next !== undefined && next.startsWith('--') && next !== '--') {
      throw usageError(`--${name} needs a value, got the option ${next} (write --${name}=${next} if that is the value; see robotstxt ${command} --help)`);
    }
    if (name !== null && options[name]?.type === 'string' && next !== undefined && next.startsWith('-') && next !== '-' && !next.startsWith('--')) {
      joined.push(`--${name}=${next}`);
      i++;
    } else joined.push(args[i]);
  }
  try {
    const { values, positionals } = parseArgs({ args: joined, options, allowPositionals: true, strict: true });
    return { values: values as Values, positionals };
  } catch (error) {
    const message = (error as Error).message.split('\n')[0].replace(/\. To specify a positional argument.*$/, '');
    throw usageError(`${message} (see robotstxt ${command} --help)`);
  }
}

/**
 * A whole-number option within the range its table declares (OptionSpec.whole), or its fallback when it is
 * absent: the one range check of every command's numeric options.
 */
export function wholeNumberOption(values: Values, table: OptionTable, name: string): number {
  const whole = table[name]?.whole;
  if (whole === undefined) throw new Error(`option --${name} declares no whole-number range`);
  const value = values[name];
  if (value === undefined) return whole.fallback;
  const text = String(value);
  if (!/^\d+$/.test(text) || Number(text) < whole.min || Number(text) > whole.max) throw usageError(`--${name} must be a whole number from ${whole.min} to ${whole.max}, got '${text}'`);
  return Number(text);
}

/** --mode google|rfc (default google). */
export function modeOption(value: unknown): RobotsMode {
  if (value === undefined) return 'google';
  if (value === 'google' || value === 'rfc') return value;
  throw usageError(`--mode must be google or rfc, got '${String(value)}'`);
}

/**
 * A command's --max-bytes: a size limit from 0 (the whole file) to 16 MiB (what one compile takes), its
 * default `fallback`. The spec each command's option table declares (one range everywhere).
 */
export function maxBytesSpec(fallback: number, help: string): OptionSpec {
  return { type: 'string', value: 'N', whole: { fallback, min: 0, max: MAX_COMPILE_BYTES }, help };
}

/**
 * Parses a robots file, reading at most the bytes that are parsed (the size limit plus one). With stderr, a
 * file cut at the limit is named there: a verdict must not silently differ from `robotstxt test`'s.
 */
export function loadRobots(path: string, mode: RobotsMode, maxBytes: number, stderr?: (text: string) => void): RobotsTxt {
  const robots = readRobotsLikeRobotsMain(path, mode, maxBytes);
  if (stderr !== undefined && robots.truncated) {
    stderr(`robotstxt: warning: '${path}' is longer than ${robots.bytesRead} bytes: only the first ${robots.bytesRead} are read (--max-bytes, as Google's crawler reads files; --max-bytes 0 reads it whole, as robotstxt test does)\n`);
  }
  return robots;
}

/**
 * Peak resident memory of this process in MiB: VmHWM from /proc (Linux), else getrusage's maxRSS, which on
 * Linux also carries the high-water mark of the process that spawned this one (fork + exec keeps it).
 */
export function peakMemoryMiB(): number {
  try {
    const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'));
    if (match !== null) return Number(match[1]) / 1024;
  } catch {
    // not Linux
  }
  return process.resourceUsage().maxRSS / 1024;
}

/** --agent values (repeatable): at least one, none empty (an empty agent names no crawler: only * could apply). */
export function agentsOption(value: unknown, command: string): string[] {
  const agents = (value as string[] | undefined) ?? [];
  if (agents.length === 0) throw usageError(`${command} needs at least one --agent <token> (see robotstxt ${command} --help)`);
  if (agents.some((agent) => agent.trim() === '')) throw usageError(`--agent must name a crawler (a product token such as Googlebot), got '${agents.find((agent) => agent.trim() === '')}'`);
  return agents;
}

/** Warns on stderr (once per agent) about agents that can only get the * group (see agentWarning). */
export function warnAboutAgents(agents: readonly string[], stderr: (text: string) => void): void {
  for (const agent of new Set(agents)) {
    const problem = agentWarning(agent);
    if (problem !== null) stderr(`robotstxt: warning: ${problem}\n`);
  }
}

/** The log formats read by check --log, diff --log, audit and fetch --log (one text for every command's help). */
export const LOG_FORMATS_HELP = `Log lines may be Apache/nginx common, combined (nginx's default) or vhost_combined with any fields
after the User-Agent; JSON lines; CloudFront standard logs; or AWS ALB access logs, recognised per line.
JSON keys are found by their usual names (request_uri, http_user_agent, host, time_iso8601, status,
httpRequest.requestUrl, ...); --log-field <name>=<key> names one (name: ${LOG_FIELD_NAMES.join(', ')};
a dotted key reaches a nested object).`;

/** --log-field name=key (repeatable): the JSON keys of a JSON lines log. */
export function logFieldsOption(value: unknown): LogFieldNames {
  const fields: LogFieldNames = {};
  for (const entry of (value as string[] | undefined) ?? []) {
    const match = /^([A-Za-z]+)=(.+)$/.exec(entry);
    if (match === null) throw usageError(`--log-field must be <name>=<key>, got '${entry}'`);
    if (!(LOG_FIELD_NAMES as string[]).includes(match[1])) throw usageError(`--log-field: unknown field '${match[1]}' (one of ${LOG_FIELD_NAMES.join(', ')})`);
    fields[match[1] as keyof LogFieldNames] = match[2];
  }
  return fields;
}

/**
 * Text from logs or files made safe for a terminal table: C0 controls (ESC, BEL, TAB, CR, ...), DEL and the
 * C1 controls written as \xNN, so a log line cannot move the cursor, ring, or rewrite the screen. Called per
 * cell of the audit and diff tables.
 */
export function terminalSafe(text: string): string {
  return /[\x00-\x1f\x7f-\x9f]/.test(text) ? text.replace(/[\x00-\x1f\x7f-\x9f]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`) : text;
}
