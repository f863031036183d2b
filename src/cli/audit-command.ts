// robotstxt audit: which crawlers fetched what robots.txt forbade them, from access logs. The options and the
// handler; the plan (audit-plan.ts), where the rules come from (audit-rules.ts) and the report's end
// (audit-output.ts) live beside it.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { RobotsAudit } from '../node/audit/index.js';
import type { CrawlerVerifier } from '../node/verify/index.js';
import { RANGES_FOLDER, SIGNATURE_KEYS_FOLDER } from '../core/fetch-rules.js';
import type { SignedRequestJudge } from '../node/signatures/index.js';
import { warnings } from './common.js';
import { terminalSafe } from '../core/terminal.js';
import { parseCommand, usageError, type Command, type CommandSpec, type OptionTable } from './command-spec.js';
import { MODE_OPTION, MAX_BYTES_OPTION, LOG_FIELD_OPTION, LOG_FORMATS_HELP, withHelp } from './shared-options.js';
import { FETCHING_OPTIONS, FETCH_SECTION } from './fetch-options.js';
import { requireDirectory } from '../node/robots-file.js';
import { planAudit, withVerifyValue, type AuditCommandPlan } from './audit-plan.js';
import { auditRulesOf } from './audit-rules.js';
import { mergeAudits, writeReport } from './audit-output.js';

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
  'signature-keys': { type: 'string', value: '<dir>', requires: ['verify'], help: 'Web Bot Auth: judge signed requests (JSON logs with the Signature headers) by\ntheir signatures, with the agents\' keys in <dir>/<host>.json (a key directory or\na Signature Agent Card; robotstxt fetch --signature-keys --store <store> <log>\nfills <store>/signature-keys, which --store uses when this is not given)' },
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
--crawler-ranges.

Agents that act for a user may send a browser's User-Agent and sign their requests (Web Bot Auth: the
Signature, Signature-Input and Signature-Agent headers; the combined format does not record them, a JSON
log can: docs/logs-and-audit.md, and --log-field). With --signature-keys, a signed request is its agent's
whatever its User-Agent says: verified when the signature holds at the request's time for a key of the
agent (a row named by the product token its card states, judged by that token's group, with the
user-triggered fetchers when the card says trigger fetcher; else by the agent's host, judged by *), an
impostor of the agent it claims when it does not (invalid, expired, unknown key, malformed); not checked
(no keys of the agent, no time in the line) leaves it to the IP ranges. A signature that decides is said
beside the ranges when they disagree.`,
  notes: LOG_FORMATS_HELP,
  examples: [
    'robotstxt audit --robots robots.txt /var/log/apache2/access.log.1 /var/log/apache2/access.log.2.gz',
    'robotstxt audit --robots robots.txt --verify --crawler-ranges ./ranges access.log',
    'robotstxt audit --robots robots.txt --verify --signature-keys ./keys access.json',
    'robotstxt audit --store ./robots --fetch --scheme https vhosts-access.log',
    'zcat access.log.*.gz | robotstxt audit --robots robots.txt --format json - | jq \'.crawlers[0]\'',
    'robotstxt audit --robots robots.txt --format html --output audit.html access.log',
    'robotstxt audit --robots robots.txt --format partial - < part-1.log > part-1.json   (each part, anywhere)',
    'robotstxt audit --merge part-*.json --format html --output audit.html',
  ],
} as const satisfies CommandSpec;

/** robotstxt audit. */
export const COMMAND: Command = { spec: AUDIT_SPEC, run: (args, io) => runAudit(args, io.out, io.err), streams: () => true };

/** robotstxt audit: the plan, its folders checked, the rules and the verifier it names, the logs read into one audit, the report. Once per run. */
export async function runAudit(args: string[], write: (text: string) => void, stderr: (text: string) => void): Promise<number> {
  const parsed = parseCommand(AUDIT_SPEC, withVerifyValue(args));
  if (parsed.values.merge) return mergeAudits(parsed.positionals, parsed.values.format, parsed.values.top, parsed.values.output, parsed.given, write, stderr);
  const plan = planAudit(parsed);
  const { rules: source } = plan;
  // a folder that is not there is a mistake, never an audit in which every host lacks rules (a store --fetch fills is made)
  if (source.kind === 'folder' && (source.store === null || source.fetch === null)) requireDirectory(source.directory, source.store === null ? 'robotsDirectory' : 'storeDirectory');
  const verifier = plan.verify === null ? undefined : await verifierOf(plan, stderr);
  const signatures = await signatureJudgeOf(plan, stderr);
  const rules = await auditRulesOf(plan, stderr);
  const perHost = source.kind === 'folder' || source.kind === 'pack' || rules.versioned;
  const audit = new RobotsAudit(rules, {
    logFields: plan.logFields, sinceMs: plan.sinceMs, untilMs: plan.untilMs, top: plan.top, requireHost: perHost && plan.defaultHost === null, filePerHost: perHost,
    byHost: plan.byHost, verifier, signatures, clientIp: plan.clientIp, missing: plan.missing === 'disallow' ? 'disallow' : 'allow', reading: plan.asToken ? 'token' : 'crawler',
  });
  // a progress line on a terminal, for logs over 8 MiB
  let shown = false;
  const logsRead = await audit.readLogs(plan.logs, plan.defaultHost, ({ doneBytes, totalBytes, lines, log }) => {
    if (process.stderr.isTTY !== true || totalBytes <= 8 << 20) return;
    stderr(`\rrobotstxt audit: ${((100 * doneBytes) / totalBytes).toFixed(0)}% (${lines.toLocaleString('en')} lines of ${log})\x1b[K`);
    shown = true;
  });
  if (shown) stderr('\r\x1b[K');
  writeReport(audit, logsRead, plan.format, plan.output, write, stderr);
  return 0;
}

/** The folder of the signing agents' keys: --signature-keys, else the store's (with --verify), else none. */
function signatureKeysFolder(plan: AuditCommandPlan): string | null {
  if (plan.verify === null) return null;
  if (plan.verify.signatureKeys !== null) return plan.verify.signatureKeys;
  const store = plan.rules.kind === 'folder' ? plan.rules.store : null;
  const stored = store === null ? null : join(store, SIGNATURE_KEYS_FOLDER);
  return stored !== null && existsSync(stored) ? stored : null;
}

/** The judge of signed requests of --signature-keys (the keys read once; what could not be read said on stderr and in the report), or undefined. */
async function signatureJudgeOf(plan: AuditCommandPlan, stderr: (text: string) => void): Promise<SignedRequestJudge | undefined> {
  const folder = signatureKeysFolder(plan);
  if (folder === null) return undefined;
  const { SignatureKeys, SignedRequestJudge } = await import('../node/signatures/index.js'); // http-message-sig: only with signature keys
  const keys = SignatureKeys.read(folder);
  for (const problem of keys.problems) stderr(`robotstxt audit: signature keys: ${terminalSafe(problem)}\n`);
  return new SignedRequestJudge(keys);
}

/** The crawler verifier of --verify: the range files given, else the store's, and DNS with --verify dns. */
async function verifierOf(plan: AuditCommandPlan, stderr: (text: string) => void): Promise<CrawlerVerifier> {
  const verify = plan.verify as NonNullable<AuditCommandPlan['verify']>;
  const rangeFiles = [...verify.rangeFiles];
  const store = plan.rules.kind === 'folder' ? plan.rules.store : null;
  const stored = store === null ? null : join(store, RANGES_FOLDER);
  if (rangeFiles.length === 0 && stored !== null && existsSync(stored)) rangeFiles.push(stored);
  const { CrawlerVerifier } = await import('../node/verify/index.js'); // ipaddr.js and DNS: only with --verify
  const verifier = new CrawlerVerifier({ rangeFiles, dns: verify.dns, warn: warnings(stderr), dnsProbe: verify.dnsProbe, rangesMaxAgeDays: verify.rangesMaxAgeDays, nowMs: plan.nowMs });
  // signature keys verify signed requests alone: the ranges' absence is then said per crawler family in the report
  if (!verify.dns && !verifier.hasRanges && signatureKeysFolder(plan) === null) throw usageError(`--verify needs the vendors' IP ranges: --crawler-ranges <file|dir>, or --store <dir> filled by robotstxt fetch --crawler-ranges --store <dir>${stored !== null ? ` (${stored} has none)` : ''}; or --verify dns`);
  return verifier;
}
