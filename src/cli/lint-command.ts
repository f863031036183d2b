// robotstxt lint <robots-file>: findings with line numbers and severity; exit 1 when there are errors.
import { lintRobots } from '../lint.js';
import { parseCommandArgs, usageError, modeOption } from './common.js';
import { readFileBounded, readLimit } from '../robots-file.js';

export const LINT_HELP = `Usage: robotstxt lint [--format text|json] [--mode google|rfc] <robots-file>

Reports what is wrong or risky in a robots.txt, with line numbers and severity (error, warning, info):
unknown directives, accepted typos, missing colons, rules before any user-agent, patterns starting with
neither "/" nor "*", over-long lines, a file over 500 KiB, bytes that are not UTF-8, a BOM, HTML served
as robots.txt, non-numeric crawl-delay, sitemaps that are not absolute URLs, and rules that can never
decide (an opposite rule with equal or higher priority matches every URL they match).
The whole file is read (crawlers read 500 KiB: a larger file is reported).

Exit status: 0 no errors, 1 errors found, 2 usage or file errors.

Options:
  --format text|json   text (default): "<file>:<line>: <severity>: <message> [<code>]" lines and a summary
  --mode google|rfc    which parser rules apply (default google)

Examples:
  robotstxt lint robots.txt
  robotstxt lint --format json robots.txt | jq '.findings[] | select(.severity == "error")'`;

export function runLint(args: string[], stdout: (text: string) => void): number {
  const { values, positionals } = parseCommandArgs(args, { format: { type: 'string' }, mode: { type: 'string' } }, 'lint');
  if (positionals.length !== 1) throw usageError(`lint needs exactly one <robots-file>, got ${positionals.length} (see robotstxt lint --help)`);
  const format = values.format ?? 'text';
  if (format !== 'text' && format !== 'json') throw usageError(`--format must be text or json, got '${String(format)}'`);
  const file = positionals[0];
  const report = lintRobots(readFileBounded(file, readLimit(0)), { mode: modeOption(values.mode), maxBytes: 0 });
  if (format === 'json') {
    stdout(JSON.stringify({ file, errors: report.errors, warnings: report.warnings, infos: report.infos, findings: report.findings }, null, 2) + '\n');
  } else {
    for (const finding of report.findings) stdout(`${file}:${finding.line}: ${finding.severity}: ${finding.message} [${finding.code}]\n`);
    stdout(`${file}: ${report.errors} error(s), ${report.warnings} warning(s), ${report.infos} note(s)\n`);
  }
  return report.errors > 0 ? 1 : 0;
}
