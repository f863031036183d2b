// robotstxt lint <robots-file>: findings with line numbers and severity; exit 1 when there are errors.
import { lintRobots } from '../core/lint.js';
import { parseCommandArgs, usageError, modeOption } from './common.js';
import { statSync } from 'node:fs';
import { readFileBounded, readLimit } from '../node/robots-file.js';
import { optionsHelp, type OptionTable } from './options.js';
import { LineReader, CHUNK_BYTES } from '../node/line-reader.js';

/** Standard input: at most `limit` bytes of it, and its whole size (read to the end; the line reader recognises gzip as for every input). */
async function readStandardInput(limit: number): Promise<{ body: Uint8Array; fileBytes: number }> {
  const reader = await LineReader.open('-', 'standard input');
  const buffer = new Uint8Array(CHUNK_BYTES);
  const parts: Buffer[] = [];
  let length = 0;
  let fileBytes = 0;
  for (let chunk = await reader.next(buffer); chunk !== null; chunk = await reader.next(buffer)) {
    fileBytes += chunk.length;
    if (length < limit) {
      parts.push(Buffer.from(chunk.subarray(0, limit - length)));
      length += Math.min(chunk.length, limit - length);
    }
  }
  return { body: Buffer.concat(parts, length), fileBytes };
}

/** A file: at most `limit` bytes of it, and its size (a regular file's, else what was read). */
function readFile(path: string, limit: number): { body: Uint8Array; fileBytes: number } {
  const body = readFileBounded(path, limit);
  let fileBytes = body.length;
  try {
    const stat = statSync(path);
    if (stat.isFile()) fileBytes = Math.max(stat.size, body.length);
  } catch {
    // read already, so it exists: a stat that fails now leaves the size read
  }
  return { body, fileBytes };
}


/** The options of this command: what parses its arguments, and what its --help lists (src/cli/options.ts). */
export const LINT_OPTIONS = {
  format: { type: 'string', value: 'text|json', help: 'text (default): "<file>:<line>: <severity>: <message> [<code>]" lines and a summary' },
  mode: { type: 'string', value: 'google|rfc', help: 'which parser rules apply (default google)' },
} as const satisfies OptionTable;

export const LINT_HELP = `Usage: robotstxt lint [--format text|json] [--mode google|rfc] (<robots-file> | -)

Reports what is wrong or risky in a robots.txt, with line numbers and severity (error, warning, info):
unknown directives, accepted typos, missing colons, rules before any user-agent, patterns starting with
neither "/" nor "*", user-agent values that are not product tokens ("Google bot", "Mozilla/5.0 (...)"),
over-long lines, the line where a file over 500 KiB stops being read, bytes that are not UTF-8, a BOM,
non-numeric crawl-delay, sitemaps that are not absolute URLs, and rules that can never decide (an opposite
rule with equal or higher priority matches every URL they match). A file that is not a robots.txt at all
(HTML, XML, UTF-16) gets one error that says so.
The whole file is read (crawlers read 500 KiB: a larger file is reported).

Exit status: 0 no errors, 1 errors found, 2 usage or file errors.

Options:
${optionsHelp(LINT_OPTIONS, 23)}

Examples:
  robotstxt lint robots.txt
  curl -s https://example.com/robots.txt | robotstxt lint -
  robotstxt lint --format json robots.txt | jq '.findings[] | select(.severity == "error")'`;

export async function runLint(args: string[], stdout: (text: string) => void): Promise<number> {
  const { values, positionals } = parseCommandArgs(args, LINT_OPTIONS, 'lint');
  if (positionals.length !== 1) throw usageError(`lint needs exactly one <robots-file>, got ${positionals.length} (see robotstxt lint --help)`);
  const format = values.format ?? 'text';
  if (format !== 'text' && format !== 'json') throw usageError(`--format must be text or json, got '${String(format)}'`);
  const file = positionals[0];
  // '-': standard input (a pipe, a socket or a redirected file), read up to the same bound as a file; lint
  // says where linting stops past that bound, and names the real size
  const mode = modeOption(values.mode);
  const { body, fileBytes } = file === '-' ? await readStandardInput(readLimit(0)) : readFile(file, readLimit(0));
  const report = lintRobots(body, { mode, maxBytes: 0, fileBytes });
  if (format === 'json') {
    stdout(JSON.stringify({ file, errors: report.errors, warnings: report.warnings, infos: report.infos, findings: report.findings }, null, 2) + '\n');
  } else {
    for (const finding of report.findings) stdout(`${file}:${finding.line}: ${finding.severity}: ${finding.message} [${finding.code}]\n`);
    stdout(`${file}: ${report.errors} error(s), ${report.warnings} warning(s), ${report.infos} note(s)\n`);
  }
  return report.errors > 0 ? 1 : 0;
}
