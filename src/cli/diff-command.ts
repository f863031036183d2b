// robotstxt diff <old-robots> <new-robots> --agent <token>... (--urls <file> | --log <file>...)
import { RobotsDiff } from '../core/diff.js';
import { textReport, writeJsonReport } from './diff-output.js';
import { LogLineReader, logTimeMs } from '../node/logs/index.js';
import type { UrlOrigin } from '../core/url-model.js';
import type { RobotsMatcher } from '../core/matcher.js';
import type { RobotsReading } from '../core/robots.js';
import { EXIT_USAGE, loadRobots, warnAboutAgents, storedOrigin, otherOriginLines } from './common.js';
import { parseCommand, usageError, type Command, type CommandSpec, type ParsedCommand } from './command-spec.js';
import type { LogFieldNames } from '../core/log-fields.js';
import { AGENT_OPTION, MODE_OPTION, MAX_BYTES_OPTION, LOG_FIELD_OPTION, LOG_FORMATS_HELP, requires, agentValues, logFieldValues, readingOf } from './shared-options.js';
import { forEachChunk } from '../node/logs/index.js';

/** What diff states about itself: its options (src/cli/command-spec.ts), usage, help and docs come from it. */
export const DIFF_SPEC = {
  name: 'diff',
  options: {
    urls: { type: 'string', value: '<file>', help: 'one URL per line (- for standard input)' },
    log: { type: 'string', multiple: true, value: '<file>', help: 'an access log (formats below); the request targets are the URLs. Lines that are\nnot log lines are counted on stderr. Repeat for several logs.' },
    'log-field': requires(LOG_FIELD_OPTION, ['log']),
    agent: AGENT_OPTION,
    format: { type: 'string', choices: ['text', 'json'], fallback: 'text', help: 'text (default) or one JSON object' },
    limit: { type: 'string', value: 'N', whole: { fallback: 20, min: 0, max: 1_000_000_000 }, help: 'URLs and rules listed per direction in text ({range}; JSON lists all)' },
    'fail-on': { type: 'string', choices: ['newly-disallowed', 'newly-allowed', 'any'], help: '\nexit 1 when the change newly disallows (or allows, or either) at least one request:\na CI job can gate a deploy on it' },
    store: { type: 'string', value: '<dir>', requires: ['origin'], help: 'with --origin: <old-robots> and <new-robots> are times (2026-11-10, ISO 8601): the\nversions of the origin that the store (robotstxt fetch --store) had in force then' },
    origin: { type: 'string', value: '<origin-or-host>', requires: ['store'], help: 'with --store: the origin (https://example.com) or host whose versions are compared' },
    mode: MODE_OPTION,
    'max-bytes': MAX_BYTES_OPTION,
  },
  positionals: { shown: '<old-robots> <new-robots>', min: 2, max: 2, error: (count: number) => `diff needs <old-robots> and <new-robots>, got ${count} file(s) (see robotstxt diff --help)` },
  oneOf: [['urls', 'log']],
  required: ['agent'],
  column: 23,
  description: `Shows what a robots.txt change does to URLs you actually serve, before you deploy it: the URLs whose
verdict changes, in each direction, with how often they were requested and the rule that decides now.`,
  notes: `${LOG_FORMATS_HELP}

Exit status: 0, or 1 with --fail-on when that change happens; 2 on usage or file errors, and with
--fail-on when no request could be read from the input (nothing was compared).`,
  examples: [
    'robotstxt diff robots.txt robots.new.txt --agent Googlebot --log access.log',
    'robotstxt diff old.txt new.txt --agent Bingbot --urls urls.txt --format json | jq .newlyDisallowed',
    'robotstxt diff live.txt candidate.txt --agent Googlebot --log access.log --fail-on newly-disallowed',
  ],
} as const satisfies CommandSpec;

/** diff --store --origin: the matchers of the versions the store had in force at the two times (ms, as the plan read them). */
async function storedVersions(store: string, origin: UrlOrigin, times: DiffPlanStore['times'], reading: RobotsReading, agents: string[]): Promise<[RobotsMatcher, RobotsMatcher]> {
  const { StoreHistory, NO_CURRENT_COPIES } = await import('../node/history/index.js');
  const history = new StoreHistory(store, { reading, current: NO_CURRENT_COPIES });
  return times.map(({ text, ms }) => {
    const version = history.versionsAt(origin, ms).current;
    if (version === null) throw usageError(`the store has no version of ${origin.origin} in force at ${text} (its first was seen later)`);
    return version.robots.matcher(agents);
  }) as [RobotsMatcher, RobotsMatcher];
}

/** diff --store: the store, the origin as named, and the two times (as given, and in ms). */
interface DiffPlanStore {
  store: string;
  origin: string;
  times: [{ text: string; ms: number }, { text: string; ms: number }];
}

/** What one run of diff does, read off its options. */
export interface DiffPlan {
  agents: string[];
  reading: RobotsReading;
  /** Two files, or two times of one origin's versions in a store. */
  rules: { kind: 'files'; old: string; new: string } | ({ kind: 'store' } & DiffPlanStore);
  urls: string | null;
  logs: string[];
  logFields: LogFieldNames;
  format: 'text' | 'json';
  limit: number;
  failOn: 'newly-disallowed' | 'newly-allowed' | 'any' | null;
}

/** The plan of a diff run from its parsed arguments. Pure: every refusal comes before a file is read. Once per run. */
export function planDiff(parsed: ParsedCommand<(typeof DIFF_SPEC)['options']>): DiffPlan {
  const { values, positionals } = parsed;
  const time = (text: string): { text: string; ms: number } => {
    const ms = logTimeMs(text);
    if (ms === null) throw usageError(`with --store, <old-robots> and <new-robots> are times such as 2026-11-10 or 2026-11-10T12:00:00Z, got '${text}'`);
    return { text, ms };
  };
  const rules: DiffPlan['rules'] = values.store === undefined
    ? { kind: 'files', old: positionals[0], new: positionals[1] }
    : { kind: 'store', store: values.store, origin: values.origin as string, times: [time(positionals[0]), time(positionals[1])] };
  return {
    agents: agentValues(values.agent), reading: readingOf(values), rules, urls: values.urls ?? null, logs: values.log,
    logFields: logFieldValues(values['log-field']), format: values.format, limit: values.limit, failOn: values['fail-on'] ?? null,
  };
}

/** robotstxt diff. */
export const COMMAND: Command = { spec: DIFF_SPEC, run: (args, io) => runDiff(args, io.out, io.err), streams: () => true };

/** robotstxt diff: the plan (planDiff), the two rule sets it names read, every URL and log request compared, the report. Once per run. */
export async function runDiff(args: string[], stdout: (text: string) => void, stderr: (text: string) => void): Promise<number> {
  const plan = planDiff(parseCommand(DIFF_SPEC, args));
  const { agents, rules, reading, urls, logs, logFields, format, limit, failOn } = plan;
  warnAboutAgents(agents, stderr);
  const [oldName, newName] = rules.kind === 'files' ? [rules.old, rules.new] : [rules.times[0].text, rules.times[1].text];
  // with --store, one origin's versions: the origin read as history reads it, and the input's lines of other origins left out and counted
  const stored = rules.kind === 'files' ? null : { store: rules.store, ...(await storedOrigin(rules.store, rules.origin)) };
  const [before, after] = stored === null
    ? [loadRobots(oldName, reading, stderr).matcher(agents), loadRobots(newName, reading, stderr).matcher(agents)]
    : await storedVersions(stored.store, stored.origin, (rules as DiffPlanStore).times, reading, agents);
  const diff = new RobotsDiff(before, after);
  const ownOriginLines = stored === null ? null : (await import('../node/history/index.js')).ownOriginLines;
  const others = { count: 0, first: null as string | null };
  const addLines = (chunk: Uint8Array): void => {
    if (stored === null || ownOriginLines === null) return diff.addLines(chunk);
    const own = ownOriginLines(chunk, stored.origin.origin);
    others.count += own.other;
    others.first ??= own.firstOther;
    if (own.lines.length > 0) diff.addLines(own.lines);
  };
  const sayOthers = (source: string): void => {
    if (stored !== null) otherOriginLines(others.count, others.first, stored.origin.origin, source, stderr);
    others.count = 0;
    others.first = null;
  };
  if (urls !== null) {
    await forEachChunk(urls, 'URL file', addLines);
    sayOthers(urls);
  }
  for (const log of logs) {
    // the request targets of the log lines, in bulk (the log reader of check --log)
    const logReader = new LogLineReader({ fields: logFields });
    let lineNumber = 0;
    let malformed = 0;
    await forEachChunk(log, 'log file', (chunk) => {
      const targets = logReader.readUrlLines(chunk, { firstLineNumber: lineNumber + 1, withHost: false, defaultHost: null, maxMalformed: 0 });
      lineNumber += targets.lines;
      malformed += targets.malformed;
      if (targets.urls.length > 0) addLines(targets.urls);
    });
    sayOthers(log);
    if (malformed > 0) stderr(`robotstxt: ${log}: ${malformed} of ${lineNumber} lines were not access log lines (skipped)\n`);
  }
  const report = diff.report();
  // a CI gate that compared nothing must not pass: no request could be read from the input
  if (failOn !== null && report.checked === 0) {
    stderr(`robotstxt: diff: --fail-on ${String(failOn)}: no request could be read from the input (0 checked), so nothing was compared\n`);
    return EXIT_USAGE;
  }
  if (format === 'json') writeJsonReport({ agents, old: oldName, new: newName, ...report }, stdout);
  else stdout(textReport(report, oldName, newName, agents, limit));
  const disallowed = report.newlyDisallowedRequests;
  const allowed = report.newlyAllowedRequests;
  const failed = failOn === 'newly-disallowed' ? disallowed > 0 : failOn === 'newly-allowed' ? allowed > 0 : failOn === 'any' ? disallowed + allowed > 0 : false;
  if (failed) stderr(`robotstxt: diff: --fail-on ${String(failOn)}: ${failOn === 'newly-allowed' ? allowed : failOn === 'any' ? disallowed + allowed : disallowed} request(s) change\n`);
  return failed ? 1 : 0;
}
