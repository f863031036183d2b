// robotstxt audit: which crawlers fetched what robots.txt forbade them, from access logs.
import { statSync, writeFileSync } from 'node:fs';
import { RobotsAudit, type AuditReport } from '../audit.js';
import { auditHtml } from '../audit-html.js';
import { parseRobots, type RobotsTxt } from '../robots.js';
import { parseCommandArgs, usageError, loadRobots, modeOption, maxBytesOption } from './common.js';
import { LruCache } from './lru-cache.js';
import { canonicalHost, robotsFromDirectory, DEFAULT_CACHE_BYTES } from '../hosts.js';
import { asciiLowerCase } from '../robots.js';
import { LineReader, CHUNK_BYTES, chunkLines } from './lines.js';

export const AUDIT_HELP = `Usage: robotstxt audit (--robots <file> | --robots-dir <dir> [--host <name>]) [--format table|json|html]
                       [--output <file>] [--mode google|rfc] [--max-bytes N] <log> [<log>]...

Reads access logs (Apache/nginx common, combined or vhost_combined, detected per line; gzip files or
standard input are recognised by their first bytes; - is standard input) and reports, per crawler, its
requests, how many robots.txt disallowed, the rules that disallowed them and the most requested
disallowed paths.

A request is a crawler's when its User-Agent contains a product token of the robots.txt (a user-agent
line's token) as a whole word, case-insensitively, longest token first: that group applies. Otherwise,
when the isbot package knows the User-Agent as a bot, the * group applies (the crawler is named after its
User-Agent). Browsers are not audited. Malformed lines are counted and reported with their line numbers.

Options:
  --robots <file>       the site's robots.txt
  --robots-dir <dir>    per request, <dir>/<host>.txt for the vhost field's host, or --host
  --format table|json|html   table (default), one JSON object, or a self-contained HTML report with charts
  --output <file>       write the report there instead of standard output
  --mode google|rfc     which rules apply (default google)

Examples:
  robotstxt audit --robots robots.txt /var/log/apache2/access.log.1 /var/log/apache2/access.log.2.gz
  zcat access.log.*.gz | robotstxt audit --robots robots.txt --format json - | jq '.crawlers[0]'
  robotstxt audit --robots robots.txt --format html --output audit.html access.log`;

const OPTIONS = {
  robots: { type: 'string' },
  'robots-dir': { type: 'string' },
  host: { type: 'string' },
  format: { type: 'string' },
  output: { type: 'string' },
  mode: { type: 'string' },
  'max-bytes': { type: 'string' },
} as const;

export async function runAudit(args: string[], write: (text: string) => void, stderr: (text: string) => void): Promise<number> {
  const { values, positionals } = parseCommandArgs(args, OPTIONS, 'audit');
  const robotsFile = values.robots as string | undefined;
  const robotsDir = values['robots-dir'] as string | undefined;
  if ((robotsFile === undefined) === (robotsDir === undefined)) throw usageError('audit needs exactly one of --robots <file> or --robots-dir <dir>');
  if (positionals.length === 0) throw usageError('audit needs at least one <log> (- for standard input; see robotstxt audit --help)');
  const format = values.format ?? 'table';
  if (format !== 'table' && format !== 'json' && format !== 'html') throw usageError(`--format must be table, json or html, got '${String(format)}'`);
  if (values.host !== undefined && robotsDir === undefined) throw usageError('--host applies only with --robots-dir');
  const mode = modeOption(values.mode);
  const maxBytes = maxBytesOption(values['max-bytes']);

  let robotsFor: (host: string | null) => RobotsTxt | null;
  if (robotsFile !== undefined) {
    const robots = loadRobots(robotsFile, mode, maxBytes);
    robotsFor = () => robots;
  } else {
    // the same host names and files as check --robots-dir (src/hosts.ts); parsed files kept in a budget
    const cache = new LruCache<RobotsTxt | null>(DEFAULT_CACHE_BYTES, (robots) => (robots === null ? 0 : robots.bytesRead * 4));
    const source = robotsFromDirectory(robotsDir as string, { maxBytes });
    const defaultHost = values.host as string | undefined;
    robotsFor = (host) => {
      const name = host ?? defaultHost;
      const canonical = name === undefined ? null : canonicalHost(asciiLowerCase(name));
      if (canonical === null) return null;
      const cached = cache.get(canonical.key);
      if (cached !== undefined) return cached;
      const body = source(canonical) as Uint8Array | null;
      const robots = body === null ? null : parseRobots(body.slice(), { mode, maxBytes });
      cache.set(canonical.key, robots);
      return robots;
    };
  }

  const audit = new RobotsAudit(robotsFor);
  let totalBytes = 0;
  for (const log of positionals) if (log !== '-') try { totalBytes += statSync(log).size; } catch { /* reported when opened */ }
  const showProgress = process.stderr.isTTY === true && totalBytes > 8 << 20;
  let doneBytes = 0;
  const buffer = new Uint8Array(CHUNK_BYTES);
  for (const log of positionals) {
    const reader = await LineReader.open(log, 'log file');
    let lineNumber = 0;
    for (let chunk = await reader.next(buffer); chunk !== null; chunk = await reader.next(buffer)) {
      for (const line of chunkLines(chunk)) audit.addLine(line, ++lineNumber, log);
      if (showProgress) stderr(`\rrobotstxt audit: ${((100 * (doneBytes + reader.rawBytesRead)) / totalBytes).toFixed(0)}% (${lineNumber.toLocaleString('en')} lines of ${log})\x1b[K`);
    }
    doneBytes += reader.rawBytesRead;
  }
  if (showProgress) stderr('\r\x1b[K');
  const report = audit.report();
  if (report.malformed.count > 0) {
    const where = report.malformed.lines.slice(0, 10).map((m) => `${m.log}:${m.line}`).join(', ');
    stderr(`robotstxt: ${report.malformed.count} malformed log line(s) skipped (${where}${report.malformed.count > 10 ? ', ...' : ''})\n`);
  }
  const text = format === 'json' ? JSON.stringify(report, null, 2) + '\n' : format === 'html' ? auditHtml(report, `robots.txt audit of ${positionals.join(', ')}`) : table(report);
  if (values.output !== undefined) writeFileSync(values.output as string, text);
  else write(text);
  return 0;
}

function table(report: AuditReport): string {
  const rows = report.crawlers.map((c) => [c.agent + (c.named ? '' : ' (*)'), String(c.requests), String(c.disallowed), c.requests === 0 ? '0%' : `${((100 * c.disallowed) / c.requests).toFixed(1)}%`, c.rules[0] === undefined ? '' : `line ${c.rules[0].line} ${c.rules[0].pattern} (${c.rules[0].requests})`, c.topDisallowedPaths[0] === undefined ? '' : `${c.topDisallowedPaths[0].path} (${c.topDisallowedPaths[0].requests})`]);
  const header = ['crawler', 'requests', 'disallowed', 'share', 'top rule', 'top disallowed path'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const format = (cells: string[]): string => cells.map((cell, i) => (i >= 1 && i <= 3 ? cell.padStart(widths[i]) : cell.padEnd(widths[i]))).join('  ').trimEnd();
  const disallowed = report.crawlers.reduce((sum, c) => sum + c.disallowed, 0);
  return [
    `${report.lines} log lines: ${report.crawlerRequests} crawler requests (${disallowed} disallowed), ${report.otherRequests} other requests, ${report.malformed.count} malformed`,
    format(header),
    ...rows.map(format),
    '(*) not named in robots.txt: its * group applies',
  ].join('\n') + '\n';
}
