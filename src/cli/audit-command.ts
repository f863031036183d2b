// robotstxt audit: which crawlers fetched what robots.txt forbade them, from access logs.
import type { UrlOrigin } from '../core/url-model.js';
import { RobotsError } from '../core/errors.js';
import { existsSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { RobotsAudit, checkedPartial, repeatedPart, auditTable, noRulesSentence, rulesOf, rulesOfTimed, rulesOfDirectory, rulesOfHistory, type AuditPartial, type AuditRules } from '../node/audit/index.js';
import type { CrawlerVerifier } from '../node/verify/index.js';
import { RANGES_FOLDER } from '../core/fetch-rules.js';
import { auditHtml } from '../node/audit/index.js';
import { loadRobots, terminalSafe, warnings } from './common.js';
import { openedPack } from './pack-option.js';
import { parseCommand, usageError, type Command, type CommandSpec, type OptionTable } from './command-spec.js';
import { MODE_OPTION, MAX_BYTES_OPTION, LOG_FIELD_OPTION, LOG_FORMATS_HELP, withHelp, logFieldValues, readingOf } from './shared-options.js';
import { NO_RULES_KNOWN, robotsHostOf } from '../node/hosts/index.js';
import { logTimeMs, originsOfLogs, type LogFieldNames } from '../node/logs/index.js';
import type { RobotsCacheOptions } from '../node/fetch/index.js';
import { FETCHING_OPTIONS, FETCH_SECTION, clockOption, fetchCacheOptions, storeSummary, forEachInLanes } from './fetch-options.js';
import { forEachChunk, readInputWhole } from '../node/logs/index.js';
import { fileWriteError, readRegularFile, requireDirectory } from '../node/robots-file.js';
import { HeapGovernor } from './heap-governor.js';
import { flagWords } from './option-words.js';

/** audit's own options, in the order --help lists them (its fetch options follow in their own section). */
const AUDIT_OWN_OPTIONS = {
  robots: { type: 'string', value: '<file>', help: 'the site\'s robots.txt' },
  'robots-dir': { type: 'string', value: '<dir>', help: 'per request, <dir>/<host>.txt for the vhost field\'s host, or --host (a host with\na .json record of robotstxt fetch but no .txt: allow all or disallow all)' },
  store: { type: 'string', value: '<dir>', help: 'a store filled by robotstxt fetch (the same files as --robots-dir)' },
  pack: { type: 'string', value: '<file>', help: 'a pack made by robotstxt pack: per request, its origin\'s robots.txt, as the\ncheck command reads it; an origin captured several times, by the capture in\nforce when the request was made (its versions, as a store\'s)' },
  'robots-history': { type: 'string', value: '<dir>', help: 'versions over time: <dir>/<host>/<time>.txt, each file named by the time it took\neffect (2026-11-12T10-00-00Z.txt, or a date); each request is judged by the version\nin force at its log time (within 24 h after a change by both: "either" when they\ndisagree; before the first version: "no rules known")' },
  fetch: { type: 'boolean', requires: ['store'], help: 'with --store: first fetch the robots.txt of every host of the logs that the store\nlacks or has stale (the logs are read twice: files, not standard input)' },
  format: { type: 'string', choices: ['table', 'json', 'html', 'partial'], fallback: 'table', help: 'table (default), one JSON object, a self-contained HTML report with charts, or\npartial: every count of this run, for --merge with the runs over the other\nparts of the logs (a cluster\'s partitions: see "Beyond one machine")' },
  merge: { type: 'boolean', help: 'the arguments are partial audits (--format partial) of parts of the same logs, in\ntheir order: adds them into the report one audit of them all gives (the\nformat, top and output options apply; lines of a log read in parts, such as -,\nare numbered as in the whole)' },
  verify: { type: 'string', choices: ['ranges', 'dns'], value: '[ranges|dns]', help: 'verify crawlers\' claims by the vendors\' IP ranges (ranges, the default), or by\nranges and else forward-confirmed reverse DNS (dns: one lookup pair per address)' },
  'crawler-ranges': { type: 'string', multiple: true, value: '<file|dir>', requires: ['verify'], help: 'vendors\' IP range files: their published names (gptbot.json, common-crawlers.json,\nand former ones such as googlebot.json), the ids robotstxt fetch --crawler-ranges\nstores (google-common-crawlers.json), or <file or vendor>=<path> for a file saved\nunder another name (repeatable)' },
  'ranges-max-age': { type: 'string', value: '<days>|any', requires: ['verify'], help: 'a range file made more than this many days before or after a request (1 to\n36500, default 30; by its creationTime, else when the store fetched it, else\nits file time) still verifies the addresses in it, but for that request an\naddress outside it is not checked rather than an impostor\'s; any: files of any\nage decide (an old log verified with today\'s files, on purpose)' },
  'dns-probe': { type: 'string', value: '<address>', requires: ['verify'], help: 'with --verify dns: an address whose reverse DNS name resolves back to it, asked\nfirst to check the resolver (default 66.249.66.1, a Googlebot address); when\nit fails, answers that DNS alone would give are unknown, and the report says why' },
  'as-token': { type: 'boolean', help: 'read each crawler as the product token of its name alone, as the reference and\nrobotstxt check (without --as-crawler) answer: its own group, else * (by default\na crawler is read as it behaves: Googlebot-Image follows the Googlebot group\nwhen it has none of its own, AdsBot ignores *)' },
  'client-ip': { type: 'string', choices: ['remote', 'forwarded'], fallback: 'remote', requires: ['verify'], help: 'the address to verify: the line\'s client field (default), or the last\naddress of its X-Forwarded-For (the one your proxy saw; a JSON key, CloudFront\'s\nfield, or a quoted field after the User-Agent)' },
  top: { type: 'string', value: 'N', whole: { fallback: 20, min: 0, max: 1_000_000_000 }, help: 'the N crawlers with the most disallowed requests ({range}; 0: all); the\nrest summed on one line' },
  by: { type: 'string', choices: ['host'], requires: ['robots-dir', 'store', 'robots-history', 'pack'], help: 'with --robots-dir, --store or --pack: a row per host and crawler (the host\ncolumn)' },
  since: { type: 'string', value: '<time>', help: 'only requests at or after this time: 2026-11-01, 2026-11-01T08:00, ISO 8601 with a\nzone, or seconds since 1970 (a time without a zone is UTC)' },
  until: { type: 'string', value: '<time>', help: 'only requests before this time' },
  'log-field': LOG_FIELD_OPTION,
  output: { type: 'string', value: '<file>', help: 'write the report there instead of standard output' },
  host: { type: 'string', value: '<name>', requires: ['robots-dir', 'store', 'robots-history', 'pack'], help: 'with --robots-dir, --store or --pack: the host of requests whose line names\nnone (no vhost field, no host key; requests are judged as http://<host>)' },
  missing: { type: 'string', choices: ['allow', 'disallow', 'error'], fallback: 'allow', requires: ['robots-dir', 'store', 'robots-history', 'pack'], help: 'requests whose rules are not known (no file for their host, a file that cannot\nbe read, an origin the store never fetched, a time before the first version):\nallow (default: not judged; never counted as allowed), disallow (judged\ndisallowed), or error (the audit stops, naming the origin). Counted either way,\nthe first origins named on stderr, in JSON and in HTML.' },
  mode: withHelp(MODE_OPTION, 'which rules apply (default google)'),
  'max-bytes': MAX_BYTES_OPTION,
} as const satisfies OptionTable;

/** What audit states about itself: its options (src/cli/command-spec.ts), usage, help and docs come from it. */
export const AUDIT_SPEC = {
  name: 'audit',
  options: { ...AUDIT_OWN_OPTIONS, ...FETCHING_OPTIONS },
  positionals: { shown: '<log>...', min: 1, max: Infinity, error: (_count: number, given: ReadonlySet<string>) => (given.has('merge') ? 'audit --merge needs at least one partial audit (a file that audit --format partial wrote, or - for standard input)' : 'audit needs at least one <log> (- for standard input; see robotstxt audit --help)') },
  oneOf: [['robots', 'robots-dir', 'store', 'robots-history', 'pack', 'merge']],
  sections: [{ title: 'Fetch options (with --fetch; --now also judges stored records without it):', names: FETCH_SECTION, column: 26 }],
  column: 24,
  description: `Reads access logs (formats below; gzip files or standard input are recognised by their first bytes; - is
standard input) and reports, per crawler, its category, the group it follows, its requests, how many
robots.txt disallowed, the rules that disallowed them and the most requested disallowed paths.

Only bots are audited (the isbot package decides; browsers never are). A bot's User-Agent word that the
robots.txt names as a product token (a user-agent line's token; the longest, case-insensitively) names the
crawler and its group. Tokens that are browser or platform words (Mozilla, Linux, MSIE, ...) claim nothing.
Otherwise the crawler is named after its User-Agent and follows its own group, Googlebot's for
Googlebot-Image, -Video and -News, else the * group (AdsBot-Google: no group, allowed; it ignores *).
A request of /robots.txt itself is never counted as disallowed: it is counted as the crawler reading the
rules. Disallowed requests are split by what the server answered (2xx served, 3xx, 4xx refused, 5xx).
Categories (search, ai-training, ai-assistant, seo, other) come from the crawler-user-agents list and the
vendors' crawler pages. User-triggered fetchers (FeedFetcher-Google, ChatGPT-User, Perplexity-User, ...)
fetch because a person asked and ignore robots.txt by design: they are listed apart and never counted as
violators. Malformed lines are counted and reported with their line numbers.

Anyone can write Googlebot in a User-Agent. With --verify, each request of a crawler that names a vendor
(Google, Bing, OpenAI, Anthropic, Perplexity, Apple, Common Crawl; Yandex and Baidu by DNS) is judged by
the range file that covers that crawler (Googlebot by Google's common-crawlers.json, or its former name
googlebot.json, alone; GPTBot by gptbot.json alone): verified (its client address is in that file, or
with --verify dns, its reverse DNS name is the crawler's and resolves back to it), impostor (every
covering file was read and none holds it: a row of its own, never in the crawler's figures), not checked
(a covering file is missing, made more than --ranges-max-age days from the request, or failed
validation: the report names it) or unknown (no published method, no address in the line, DNS that did
not answer, or a resolver that failed its check). An address in another of the vendor's files is said
(GPTBot (impostor, from chatgpt-user.json)); from a user-triggered fetcher's file, the row is listed with
the user-triggered fetchers. Ranges: robotstxt fetch --crawler-ranges --store <dir> (then --store <dir>
here); offline, download the vendors' JSON files (their URLs: robotstxt fetch --help) and give them with
--crawler-ranges.`,
  notes: LOG_FORMATS_HELP,
  examples: [
    'robotstxt audit --robots robots.txt /var/log/apache2/access.log.1 /var/log/apache2/access.log.2.gz',
    'robotstxt audit --robots robots.txt --verify --crawler-ranges ./ranges access.log',
    'robotstxt audit --store ./robots --fetch --scheme https vhosts-access.log',
    'zcat access.log.*.gz | robotstxt audit --robots robots.txt --format json - | jq \'.crawlers[0]\'',
    'robotstxt audit --robots robots.txt --format html --output audit.html access.log',
    'robotstxt audit --robots robots.txt --format partial - < part-1.log > part-1.json   (each part, anywhere)',
    'robotstxt audit --merge part-*.json --format html --output audit.html',
  ],
} as const satisfies CommandSpec;

/**
 * With versions over time, the JavaScript heap is kept within this much of what lives in it (see
 * HistoryOptions.afterBatch): measured with 2,000 hosts of 20 versions each in random order, V8 otherwise
 * let the heap reach 280 MiB for 70 MiB live.
 */
const HISTORY_HEAP_SLACK_BYTES = 32 << 20;

/** The hook a history calls after each judged batch (HistoryOptions.afterBatch): this process's heap kept within HISTORY_HEAP_SLACK_BYTES of what lives. */
function governHeap(): () => void {
  const heap = new HeapGovernor(HISTORY_HEAP_SLACK_BYTES);
  return () => heap.check();
}

/** robotstxt audit. */
export const COMMAND: Command = { spec: AUDIT_SPEC, run: (args, io) => runAudit(args, io.out, io.err), streams: () => true };

/** `--verify` alone means `--verify ranges` (parseArgs would take the next argument as its value). */
function withVerifyValue(args: string[]): string[] {
  return args.map((arg, i) => (arg === '--verify' && args[i + 1] !== 'ranges' && args[i + 1] !== 'dns' ? '--verify=ranges' : arg));
}

/** --since/--until: a time logTimeMs reads (ISO 8601, a date, seconds since 1970). */
function timeOption(name: string, value: unknown): number | undefined {
  if (value === undefined) return undefined;
  const ms = logTimeMs(String(value));
  if (ms === null) throw usageError(`--${name} must be a time such as 2026-11-01, 2026-11-01T08:00:00Z or seconds since 1970, got '${String(value)}'`);
  return ms;
}

/** The options --merge takes besides itself: the report's (every other one reads logs). */
const MERGE_OPTIONS = new Set(['merge', 'format', 'top', 'output']);
/** A partial audit file is read whole up to this size (its crawlers and their tracked paths). */
const PARTIAL_LIMIT = 512 << 20;

export async function runAudit(args: string[], write: (text: string) => void, stderr: (text: string) => void): Promise<number> {
  const { values, positionals, given } = parseCommand(AUDIT_SPEC, withVerifyValue(args));
  if (values.merge) return mergeAudits(positionals, values.format, values.top, values.output, given, write, stderr);
  const robotsFile = values.robots;
  const storeDir = values.store;
  const robotsDir = values['robots-dir'] ?? storeDir;
  const fetching = values.fetch;
  // a folder that is not there is a mistake, never an audit in which every host lacks rules (a store --fetch fills is made)
  for (const [option, dir] of [['robotsDirectory', values['robots-dir']], ['storeDirectory', fetching ? undefined : storeDir]] as const) {
    if (dir !== undefined) requireDirectory(dir, option);
  }
  const missing = values.missing;
  if (fetching && positionals.includes('-')) throw usageError('--fetch reads the logs twice (hosts first): give log files, not standard input');
  const format = values.format;
  const reading = readingOf(values);
  const top = values.top;
  const verify = values.verify;
  const clientIp = values['client-ip'];
  /** --now: stored records and range files are judged as of this time. */
  const nowMs = clockOption(values.now).start;
  let verifier: CrawlerVerifier | undefined;
  if (verify !== undefined) {
    const rangeFiles = [...values['crawler-ranges']];
    const stored = storeDir === undefined ? null : join(storeDir, RANGES_FOLDER);
    if (rangeFiles.length === 0 && stored !== null && existsSync(stored)) rangeFiles.push(stored);
    const { CrawlerVerifier } = await import('../node/verify/index.js'); // ipaddr.js and DNS: only with --verify
    if (values['dns-probe'] !== undefined && verify !== 'dns') throw usageError('--dns-probe applies only with --verify dns');
    verifier = new CrawlerVerifier({ rangeFiles, dns: verify === 'dns', warn: warnings(stderr), dnsProbe: values['dns-probe'], rangesMaxAgeDays: rangesMaxAge(values['ranges-max-age']), nowMs });
    if (verify === 'ranges' && !verifier.hasRanges) throw usageError(`--verify needs the vendors' IP ranges: --crawler-ranges <file|dir>, or --store <dir> filled by robotstxt fetch --crawler-ranges --store <dir>${stored !== null ? ` (${stored} has none)` : ''}; or --verify dns`);
  }
  const sinceMs = timeOption('since', values.since);
  const untilMs = timeOption('until', values.until);
  if (sinceMs !== undefined && untilMs !== undefined && untilMs <= sinceMs) throw usageError('--until must be later than --since');
  const logFields = logFieldValues(values['log-field']);
  /** --host: the host of lines that name none (with --robots-dir or --store). */
  const defaultHost = values.host ?? null;
  // a log line names no scheme: its requests are judged as http://<host> (a URL given here was read as a host named "https")
  if (defaultHost !== null && !/^[^\s/\\?#@]+$/.test(defaultHost)) throw usageError(`--host names a host (shop.example, or shop.example:8080), got '${terminalSafe(defaultHost)}': requests of lines that name no host are judged as http://<host>`);

  const historyDir = values['robots-history'];
  const packFile = values.pack;
  let rules: AuditRules;
  if (packFile !== undefined) {
    const { packRobotsAt } = await import('../node/pack/index.js');
    const { packHistory } = await import('../node/history/index.js');
    const { pack, reading: packReading } = await openedPack(packFile, values, given);
    const noEntry = (origin: UrlOrigin): void => {
      if (missing === 'error') throw new RobotsError('NO_ROBOTS', `no robots.txt known for ${origin.origin} (the pack ${packFile} has no entry of it; missing: 'error')`);
    };
    if (pack.captureCount > pack.originCount) {
      // origins captured several times: each request by the capture in force then, as a store's versions
      rules = rulesOfHistory(packHistory(pack, { ...packReading, afterBatch: governHeap(), noEntry }));
    } else {
      const robotsAt = packRobotsAt(pack, packReading);
      rules = rulesOfTimed((origin, timeMs) => {
        const robots = robotsAt(origin, timeMs);
        if (robots === NO_RULES_KNOWN && origin !== null) noEntry(origin);
        return robots;
      });
    }
  } else if (historyDir !== undefined) {
    const { RobotsHistory } = await import('../node/history/index.js');
    try {
      rules = rulesOfHistory(new RobotsHistory(historyDir, { ...reading, afterBatch: governHeap() }));
    } catch (error) {
      throw usageError(error instanceof RobotsError ? error.sayOption(flagWords) : (error as Error).message);
    }
  } else if (robotsFile !== undefined) {
    const robots = loadRobots(robotsFile, reading, stderr);
    rules = rulesOf(() => robots);
  } else {
    // the same host names and files as check --robots-dir (src/node/hosts/hosts.ts)
    if (fetching) await fetchLogHosts(positionals, defaultHost, fetchCacheOptions(values, reading), robotsDir as string, stderr, logFields);
    const directory = rulesOfDirectory(robotsDir as string, { ...reading, nowMs, missing: missing === 'error' ? 'error' : 'unknown', warn: warnings(stderr) });
    rules = directory;
    // a store that keeps versions: each request by the version in force when it was made
    if (storeDir !== undefined) {
      const { StoreHistory } = await import('../node/history/index.js');
      if (StoreHistory.hasVersions(storeDir)) rules = rulesOfHistory(new StoreHistory(storeDir, { ...reading, afterBatch: governHeap(), current: directory.robotsFor, warn: warnings(stderr) }));
    }
  }
  const perHost = robotsDir !== undefined || packFile !== undefined || rules.versioned;
  const audit = new RobotsAudit(rules, { logFields, sinceMs, untilMs, top, requireHost: perHost && defaultHost === null, filePerHost: perHost, byHost: values.by === 'host', verifier, clientIp, missing: missing === 'disallow' ? 'disallow' : 'allow', reading: values['as-token'] ? 'token' : 'crawler' });
  let totalBytes = 0;
  for (const log of positionals) if (log !== '-') try { totalBytes += statSync(log).size; } catch { /* reported when opened */ }
  const showProgress = process.stderr.isTTY === true && totalBytes > 8 << 20;
  let doneBytes = 0;
  const logsRead: { log: string; lines: number }[] = [];
  for (const log of positionals) {
    let lineNumber = 0;
    let rawBytes = 0;
    await forEachChunk(log, 'log file', async (chunk, reader) => {
      lineNumber += await audit.addChunk(chunk, lineNumber + 1, log, defaultHost);
      rawBytes = reader.rawBytesRead;
      if (showProgress) stderr(`\rrobotstxt audit: ${((100 * (doneBytes + rawBytes)) / totalBytes).toFixed(0)}% (${lineNumber.toLocaleString('en')} lines of ${log})\x1b[K`);
    });
    doneBytes += rawBytes;
    logsRead.push({ log, lines: lineNumber });
  }
  if (showProgress) stderr('\r\x1b[K');
  writeReport(audit, logsRead, format, values.output, write, stderr);
  return 0;
}

/**
 * The one end of every audit, read from logs or merged from parts: the malformed lines said on stderr (a log
 * of which no line is an access log line is an error, never an empty audit with exit 0), then the report in its
 * format, to standard output or --output.
 */
function writeReport(audit: RobotsAudit, logs: { log: string; lines: number }[], format: string, output: string | undefined, write: (text: string) => void, stderr: (text: string) => void): void {
  const report = audit.report();
  const names = [...new Set(logs.map((entry) => entry.log))];
  if (report.malformed.count > 0) {
    const where = report.malformed.lines.slice(0, 10).map((m) => `${m.log}:${m.line}`).join(', ');
    if (report.crawlerRequests + report.otherRequests + report.outsideTime === 0) {
      throw new RobotsError('USAGE', `not an access log: none of the ${report.malformed.count} line(s) of ${names.join(', ')} is a request line of a format audit reads (first: ${where}${report.malformed.count > 10 ? ', ...' : ''}; see robotstxt audit --help)`);
    }
    stderr(`robotstxt: ${report.malformed.count} malformed log line(s) skipped (${where}${report.malformed.count > 10 ? ', ...' : ''})\n`);
  }
  if (report.noRulesKnown.requests > 0) stderr(`robotstxt: ${noRulesSentence(report, flagWords)}\n`);
  const text = format === 'json' ? JSON.stringify(report, null, 2) + '\n'
    : format === 'html' ? auditHtml(report, `robots.txt audit of ${names.join(', ')}`, flagWords)
    : format === 'partial' ? JSON.stringify(audit.partial(logs)) + '\n'
    : auditTable(report, flagWords);
  if (output !== undefined) {
    try {
      writeFileSync(output, text);
    } catch (error) {
      throw fileWriteError(output, 'report file', error);
    }
  }
  else write(text);
}

/** audit --merge: partial audits of parts of the same logs, added into one report (RobotsAudit.merged). */
async function mergeAudits(files: string[], format: string, top: number, output: string | undefined, given: ReadonlySet<string>, write: (text: string) => void, stderr: (text: string) => void): Promise<number> {
  const other = [...given].find((name) => !MERGE_OPTIONS.has(name));
  if (other !== undefined) throw usageError(`--${other} does not apply with --merge (the partial audits were made with their options; --merge takes --format, --top and --output)`);
  const partials: AuditPartial[] = [];
  const logs: { log: string; lines: number }[] = [];
  for (const file of files) {
    const bytes = file === '-' ? await readStandardInput(PARTIAL_LIMIT) : readRegularFile(file, PARTIAL_LIMIT, 'partial audit');
    let partial: AuditPartial;
    try {
      partial = checkedPartial(JSON.parse(new TextDecoder().decode(bytes)));
    } catch (error) {
      if (error instanceof RobotsError && error.code !== 'INVALID_ARGUMENT') throw error;
      throw usageError(`${file} is not a partial audit (robotstxt audit --format partial writes one): ${(error as Error).message}`);
    }
    partials.push(partial);
    const repeated = repeatedPart(partials);
    if (repeated !== null && repeated[1] === partials.length - 1) stderr(`robotstxt: warning: ${file} holds the same counts as ${files[repeated[0]]}, field for field: if it is the same part given twice, its requests are counted twice\n`);
    for (const entry of partial.logs) {
      const same = logs.find((known) => known.log === entry.log);
      if (same === undefined) logs.push({ ...entry });
      else same.lines += entry.lines;
    }
  }
  let audit: RobotsAudit;
  try {
    audit = RobotsAudit.merged(partials, top);
  } catch (error) {
    if (error instanceof RobotsError && error.code === 'INVALID_ARGUMENT') throw usageError(error.sayOption(flagWords));
    throw error;
  }
  writeReport(audit, logs, format, output, write, stderr);
  return 0;
}

/** Standard input whole, up to limit bytes (a longer one is an error). */
async function readStandardInput(limit: number): Promise<Uint8Array> {
  const { body, fileBytes } = await readInputWhole('-', 'partial audit', limit);
  if (fileBytes > limit) throw new RobotsError('INPUT_TOO_LARGE', `cannot read partial audit '-': more than ${limit} bytes`);
  return body;
}

/**
 * audit --fetch: the origins of the logs' requests (read once), then those the store lacks or has stale
 * fetched (within the limits). The audit itself then reads the store like a robots directory.
 */
async function fetchLogHosts(logs: string[], defaultHost: string | null, options: RobotsCacheOptions, store: string, stderr: (text: string) => void, logFields: LogFieldNames): Promise<void> {
  // the host of lines that name none is --host's, which the user named; every other host comes from the log
  const { origins, named } = await originsOfLogs(logs, { defaultHost, fields: logFields });
  const { RobotsCache } = await import('../node/fetch/index.js'); // the HTTP client: only when fetching
  const cache = new RobotsCache({ ...options, store, memoryBytes: 8 << 20 });
  const source = cache.hostSource(named);
  try {
    await forEachInLanes(origins, options.concurrency ?? 32, async (origin) => { await source(robotsHostOf(origin)); });
  } finally {
    await cache.close();
  }
  stderr(`robotstxt: robots.txt: ${storeSummary(cache.stats, cache.stats.fromStore)}\n`);
}

/** --ranges-max-age: days (1 to 36500) or any; 30 when not given. */
function rangesMaxAge(value: string | undefined): number | 'any' {
  if (value === undefined) return 30;
  if (value === 'any') return 'any';
  if (!/^\d{1,5}$/.test(value) || Number(value) < 1 || Number(value) > 36_500) throw usageError(`--ranges-max-age must be a number of days from 1 to 36500, or any, got '${value}'`);
  return Number(value);
}
