// The options several commands take, each declared once (a command that says something else of one keeps
// its declaration and changes only its help: withHelp).
import { DEFAULT_MAX_BYTES } from '../core/constants.js';
import type { RobotsReading } from '../core/robots.js';
import { MAX_COMPILE_BYTES } from '../core/engine.js';
import { LOG_FIELD_NAMES, type LogFieldNames } from '../core/log-fields.js';
import { usageError, type OptionSpec } from './command-spec.js';
import { headerLine } from '../core/page-rules.js';

/** --mode google|rfc: whose rules apply. */
export const MODE_OPTION = { type: 'string', choices: ['google', 'rfc'], fallback: 'google', help: "google (default): the reference's verdicts; rfc: RFC 9309" } as const satisfies OptionSpec;

/** --max-bytes N: how much of each robots file is read (0 = all, up to what one compile takes); its default and help are the command's. */
export function maxBytesOption(fallback: number, help = 'read at most N bytes of each robots file ({range}; 0 = all)'): { readonly type: 'string'; readonly value: 'N'; readonly whole: { readonly fallback: number; readonly min: 0; readonly max: number }; readonly help: string } {
  return { type: 'string', value: 'N', whole: { fallback, min: 0, max: MAX_COMPILE_BYTES }, help };
}

/** --max-bytes as check, diff and audit read files: 512,000 bytes, as Google's crawler reads them. */
export const MAX_BYTES_OPTION = maxBytesOption(DEFAULT_MAX_BYTES);

/** --mode and --max-bytes as one record (RobotsReading): the one place a command reads them. */
export function readingOf(values: { readonly mode: 'google' | 'rfc'; readonly 'max-bytes': number }): RobotsReading {
  return { mode: values.mode, maxBytes: values['max-bytes'] };
}

/** Which of --mode and --max-bytes were given (a pack's own reading fills the others: openedPack). Once per run. */
export function readingGivenOf(given: ReadonlySet<string>): Set<string> {
  return new Set(['mode', 'max-bytes'].filter((name) => given.has(name)));
}

/** --agent <token>, repeatable: the crawlers asked about. */
export const AGENT_OPTION = { type: 'string', multiple: true, value: '<token>', help: 'product token to check, e.g. Googlebot; repeat to pool several groups' } as const satisfies OptionSpec;

/** --log-field <name>=<key>, repeatable: the JSON keys of a JSON lines log. */
export const LOG_FIELD_OPTION = { type: 'string', multiple: true, value: '<name>=<key>', help: 'the JSON key of a field of a JSON lines log (repeatable; see below)' } as const satisfies OptionSpec;

/** The same option with other help text (one declaration, a command's own words). */
export function withHelp<S extends OptionSpec>(option: S, help: string): S {
  return { ...option, help };
}

/** The same option, applying only with one of `requires`. */
export function requires<S extends OptionSpec>(option: S, names: readonly string[]): S {
  return { ...option, requires: names };
}

/** --agent values: none empty (an empty agent names no crawler: only * could apply). Once per run. */
export function agentValues(agents: readonly string[]): string[] {
  const empty = agents.find((agent) => agent.trim() === '');
  if (empty !== undefined) throw usageError(`--agent must name a crawler (a product token such as Googlebot), got '${empty}'`);
  return [...agents];
}

/** --log-field name=key values: the JSON keys of a JSON lines log. Once per run. */
export function logFieldValues(entries: readonly string[]): LogFieldNames {
  const fields: LogFieldNames = {};
  for (const entry of entries) {
    const match = /^([A-Za-z]+)=(.+)$/.exec(entry);
    if (match === null) throw usageError(`--log-field must be <name>=<key>, got '${entry}'`);
    if (!(LOG_FIELD_NAMES as string[]).includes(match[1])) throw usageError(`--log-field: unknown field '${match[1]}' (one of ${LOG_FIELD_NAMES.join(', ')})`);
    fields[match[1] as keyof LogFieldNames] = match[2];
  }
  return fields;
}

/** The log formats read by check --log, diff --log, audit and fetch --log (one text for every command's help). */
export const LOG_FORMATS_HELP = `Log lines may be Apache/nginx common, combined (nginx's default) or vhost_combined with any fields
after the User-Agent; JSON lines; CloudFront standard logs; or AWS ALB access logs, recognised per line.
JSON keys are found by their usual names (request_uri, http_user_agent, host, time_iso8601, status,
httpRequest.requestUrl, ...); --log-field <name>=<key> names one (name: ${LOG_FIELD_NAMES.join(', ')};
a dotted key reaches a nested object).`;

/** An HTTP header given as an option's value (`Name: value`: page --header, usage --page-header), or a usage error naming the flag. Per value. */
export function headerOptionValue(flag: string, text: string): [string, string] {
  const header = headerLine(text);
  if (header === null) throw usageError(`${flag} must be 'Name: value' (an HTTP header), got '${text}'`);
  return header;
}
