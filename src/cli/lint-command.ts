// robotstxt lint <robots-file>: findings with line numbers and severity; exit 1 when there are errors.
import { lintRobots } from '../lint.js';
import { parseCommandArgs, usageError, modeOption } from './common.js';
import { readFileBounded, readLimit } from '../robots-file.js';
import { MAX_COMPILE_BYTES, core } from '../wasm/core-node.js';
import { CHAR_LF } from '../constants.js';
import { LineReader, CHUNK_BYTES } from './lines.js';

/** Standard input, at most `limit` bytes (the line reader: gzip is recognised as for every input). */
async function readStandardInput(limit: number): Promise<Uint8Array> {
  const reader = await LineReader.open('-', 'standard input');
  const buffer = new Uint8Array(CHUNK_BYTES);
  const parts: Buffer[] = [];
  let length = 0;
  for (let chunk = await reader.next(buffer); chunk !== null && length < limit; chunk = await reader.next(buffer)) {
    parts.push(Buffer.from(chunk.subarray(0, limit - length)));
    length += Math.min(chunk.length, limit - length);
  }
  return Buffer.concat(parts, length);
}

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
  --format text|json   text (default): "<file>:<line>: <severity>: <message> [<code>]" lines and a summary
  --mode google|rfc    which parser rules apply (default google)

Examples:
  robotstxt lint robots.txt
  curl -s https://example.com/robots.txt | robotstxt lint -
  robotstxt lint --format json robots.txt | jq '.findings[] | select(.severity == "error")'`;

export async function runLint(args: string[], stdout: (text: string) => void): Promise<number> {
  const { values, positionals } = parseCommandArgs(args, { format: { type: 'string' }, mode: { type: 'string' } }, 'lint');
  if (positionals.length !== 1) throw usageError(`lint needs exactly one <robots-file>, got ${positionals.length} (see robotstxt lint --help)`);
  const format = values.format ?? 'text';
  if (format !== 'text' && format !== 'json') throw usageError(`--format must be text or json, got '${String(format)}'`);
  const file = positionals[0];
  // '-': standard input (a pipe, a socket or a redirected file), read up to the same bound as a file
  const body = file === '-' ? await readStandardInput(readLimit(0)) : readFileBounded(file, readLimit(0));
  // past what one WebAssembly call compiles (16 MiB; crawlers read 500 KiB of it anyway): the whole lines
  // before that are linted, and the finding says where linting stopped
  const lastLf = body.length > MAX_COMPILE_BYTES ? body.lastIndexOf(CHAR_LF, MAX_COMPILE_BYTES - 1) : -1;
  const cut = body.length <= MAX_COMPILE_BYTES ? body.length : lastLf >= 0 ? lastLf + 1 : MAX_COMPILE_BYTES;
  const report = lintRobots(body.subarray(0, cut), { mode: modeOption(values.mode), maxBytes: 0 });
  if (cut < body.length) {
    const linted = body.subarray(0, cut);
    // the line after the last whole one linted, or the one linting stopped inside
    const line = core().countLines(linted) + (linted[linted.length - 1] === CHAR_LF ? 1 : 0);
    report.findings.push({ line, severity: 'warning', code: 'file-too-large-to-lint', message: `file is larger than ${MAX_COMPILE_BYTES >> 20} MiB: linting stops at this line (crawlers read only the first 500 KiB)` });
    report.warnings++;
  }
  if (format === 'json') {
    stdout(JSON.stringify({ file, errors: report.errors, warnings: report.warnings, infos: report.infos, findings: report.findings }, null, 2) + '\n');
  } else {
    for (const finding of report.findings) stdout(`${file}:${finding.line}: ${finding.severity}: ${finding.message} [${finding.code}]\n`);
    stdout(`${file}: ${report.errors} error(s), ${report.warnings} warning(s), ${report.infos} note(s)\n`);
  }
  return report.errors > 0 ? 1 : 0;
}
