// A partial audit read back (audit --merge, RobotsAudit.merged): every field checked before a count of it is
// added, so that a damaged or hand-edited part is refused naming the field, never merged into an invented
// report (a negative request count, a share over 100%, a string where a count belongs). Per part.
import { RobotsError } from '../../core/errors.js';
import { CRAWLER_CATEGORIES, VERIFICATIONS } from '../crawlers/index.js';
import { AUDIT_PARTIAL_FORMAT, type AuditPartial } from './partial.js';
import { SIGNATURE_COUNTS, type SignatureCounts } from './report.js';

/** Why a value is not what a part holds there: the field's path and what it is (`crawlers[3].requests is -994, not a count`). */
class PartProblem extends Error {}

type Check<T> = (value: unknown, field: string) => T;

const shown = (value: unknown): string => {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
};
const fail = (field: string, value: unknown, what: string): never => {
  throw new PartProblem(`"${field}" is ${value === undefined ? 'missing' : shown(value)}, not ${what}`);
};

const count: Check<number> = (value, field) => (Number.isSafeInteger(value) && (value as number) >= 0 ? value as number : fail(field, value, 'a count (a whole number of 0 or more)'));
const text: Check<string> = (value, field) => (typeof value === 'string' ? value : fail(field, value, 'a string'));
const flag: Check<boolean> = (value, field) => (typeof value === 'boolean' ? value : fail(field, value, 'true or false'));
const orNull = <T>(check: Check<T>): Check<T | null> => (value, field) => (value === null ? null : check(value, field));
const oneOf = <T extends string | null>(choices: readonly T[]): Check<T> => (value, field) => (choices.includes(value as T) ? value as T : fail(field, value, `one of ${choices.map((choice) => JSON.stringify(choice)).join(', ')}`));
const listOf = <T>(check: Check<T>): Check<T[]> => (value, field) => (Array.isArray(value) ? value.map((item, i) => check(item, `${field}[${i}]`)) : fail(field, value, 'a list'));
const tuple = <T extends unknown[]>(...checks: { [K in keyof T]: Check<T[K]> }): Check<T> => (value, field) => {
  if (!Array.isArray(value) || value.length !== checks.length) return fail(field, value, `a list of ${checks.length}`);
  return checks.map((check, i) => check(value[i], `${field}[${i}]`)) as T;
};
/** An object with exactly the fields checked (others are refused: a part is written whole by one version). */
const objectOf = <T>(checks: { [K in keyof T]: Check<T[K]> }): Check<T> => (value, field) => {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return fail(field, value, 'an object');
  const record = value as Record<string, unknown>;
  const extra = Object.keys(record).find((key) => !Object.hasOwn(checks, key));
  if (extra !== undefined) throw new PartProblem(`"${field === '' ? extra : `${field}.${extra}`}" is no field of a partial audit`);
  const out = {} as T;
  for (const key of Object.keys(checks) as (keyof T & string)[]) out[key] = checks[key](record[key], field === '' ? key : `${field}.${key}`);
  return out;
};
/** A check, then a rule between its fields (why the value cannot be, or null). */
const holding = <T>(check: Check<T>, rule: (value: T) => string | null): Check<T> => (value, field) => {
  const read = check(value, field);
  const problem = rule(read);
  if (problem !== null) throw new PartProblem(`"${field}": ${problem}`);
  return read;
};
const atMost = (part: string, whole: string) => (value: Record<string, unknown>): string | null => ((value[part] as number) > (value[whole] as number) ? `${part} (${value[part] as number}) is more than ${whole} (${value[whole] as number})` : null);

const verificationCounts = objectOf(Object.fromEntries(VERIFICATIONS.map((verdict) => [verdict, count])) as { [K in (typeof VERIFICATIONS)[number]]: Check<number> });
const signatureCounts = holding(
  objectOf<SignatureCounts>({ ...Object.fromEntries(SIGNATURE_COUNTS.map((verdict) => [verdict, count])) as { [K in (typeof SIGNATURE_COUNTS)[number]]: Check<number> }, rangesDisagree: count }),
  (value) => (value.rangesDisagree > SIGNATURE_COUNTS.reduce((sum, verdict) => sum + value[verdict], 0) ? `rangesDisagree (${value.rangesDisagree}) is more than the signed requests` : null),
);
const statusClasses = objectOf({ '2xx': count, '3xx': count, '4xx': count, '5xx': count, other: count });
const versionCounts = holding(objectOf({ host: text, from: text, requests: count, disallowed: count }), atMost('disallowed', 'requests'));

const crawler = holding(objectOf<AuditPartial['crawlers'][number]>({
  agent: text, host: orNull(text), impostor: flag, from: orNull(text), vendor: orNull(text), family: orNull(text), group: orNull(text),
  mixedGroups: oneOf(['host', 'version', 'host and version', null] as const), groupHost: orNull(text),
  userTriggered: flag, userAgent: text, category: oneOf(CRAWLER_CATEGORIES), requests: count, disallowed: count, missed: count,
  byStatus: statusClasses, robotsTxtFetches: count, verification: orNull(verificationCounts), signatures: orNull(signatureCounts), services: orNull(listOf(tuple<[string, number]>(text, count))),
  rules: listOf(objectOf({ file: orNull(text), line: count, pattern: text, requests: count })),
  paths: orNull(objectOf({ floor: count, counts: listOf(tuple<[string, number, number]>(text, count, count)) })),
  usageAgainst: count,
  usageBy: listOf(objectOf({ file: orNull(text), source: oneOf(['content-usage', 'content-signal'] as const), line: count, preference: text, requests: count })),
  byVersion: orNull(listOf(versionCounts)),
  either: count, noRulesKnown: count, noRules: count,
}), (value) => atMost('disallowed', 'requests')(value as unknown as Record<string, unknown>));

const familyCoverage = objectOf({
  family: text, name: text, vendor: text, files: listOf(text), missing: listOf(text),
  stale: listOf(objectOf({ file: text, days: count })), invalid: listOf(objectOf({ file: text, reason: text })), requests: count, notChecked: count,
});

const part = objectOf<AuditPartial>({
  format: oneOf([AUDIT_PARTIAL_FORMAT] as const),
  shape: objectOf({ verifying: flag, withHistory: flag, byHost: flag, missing: oneOf(['allow', 'disallow'] as const), reading: oneOf(['crawler', 'token'] as const), signatures: flag }),
  logs: listOf(objectOf({ log: text, lines: count })),
  lines: count, crawlerRequests: count, otherRequests: count, outsideTime: count, disallowed: count, allowed: count,
  noRulesKnown: objectOf({ requests: count, origins: listOf(text) }),
  malformed: objectOf({ count, lines: listOf(objectOf({ log: text, line: count })) }),
  crawlers: listOf(crawler),
  droppedFloor: count,
  untracked: holding(objectOf({ crawlers: count, requests: count, disallowed: count, usageAgainst: count }), (value) => atMost('disallowed', 'requests')(value)),
  hours: listOf(holding(tuple<[number, number, number]>(count, count, count), ([, requests, disallowed]) => (disallowed > requests ? `its disallowed requests (${disallowed}) are more than its requests (${requests})` : null))),
  verification: orNull(verificationCounts),
  verifiedBy: orNull(objectOf({ dns: orNull(objectOf({ problem: orNull(text), unknown: count })), families: listOf(familyCoverage), maxAgeDays: orNull(count) })) as Check<AuditPartial['verifiedBy']>,
  signatures: orNull(objectOf({
    counts: signatureCounts,
    failures: listOf(objectOf({ log: text, line: count, verdict: oneOf(SIGNATURE_COUNTS.filter((verdict) => verdict !== 'verified')), agent: orNull(text), reason: text })),
    withoutKeys: listOf(tuple<[string, number]>(text, count)), withoutKeysOthers: count, keyProblems: listOf(text),
  })) as Check<AuditPartial['signatures']>,
  usage: objectOf({ against: count, stated: flag }),
  history: objectOf({ either: count, noRulesKnown: count, versions: listOf(versionCounts) }),
});

/**
 * A parsed JSON value as a partial audit, every field checked (counts are safe whole numbers of 0 or more,
 * lists and objects where they belong, no field of another shape, a part's disallowed requests never more
 * than its requests); INVALID_ARGUMENT naming the first field that is not one. Per part merged.
 */
export function checkedPartial(value: unknown): AuditPartial {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new RobotsError('INVALID_ARGUMENT', `it is ${shown(value)}, not a JSON object`);
  if ((value as Record<string, unknown>).format !== AUDIT_PARTIAL_FORMAT) {
    throw new RobotsError('INVALID_ARGUMENT', `its "format" is ${shown((value as Record<string, unknown>).format)}, not ${AUDIT_PARTIAL_FORMAT} (a part from another version of robotstxt-wasm is made again with this one)`);
  }
  try {
    const read = part(value, '');
    if (read.disallowed + read.allowed > read.crawlerRequests) throw new PartProblem(`"disallowed" and "allowed" (${read.disallowed} + ${read.allowed}) are more than "crawlerRequests" (${read.crawlerRequests})`);
    return read;
  } catch (error) {
    if (error instanceof PartProblem) throw new RobotsError('INVALID_ARGUMENT', error.message);
    throw error;
  }
}

/**
 * The first part that read lines and repeats an earlier one field for field (likely one part's file given
 * twice: its requests would count twice), as [earlier, later] indexes; null when none does. Parts of no
 * lines (empty partitions) repeat harmlessly. Per merge.
 */
export function repeatedPart(parts: readonly AuditPartial[]): [number, number] | null {
  const seen = new Map<string, number>();
  for (let i = 0; i < parts.length; i++) {
    if (parts[i].lines === 0) continue;
    const key = JSON.stringify(parts[i]);
    const earlier = seen.get(key);
    if (earlier !== undefined) return [earlier, i];
    seen.set(key, i);
  }
  return null;
}
