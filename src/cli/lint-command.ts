// robotstxt lint <robots-file>: findings with line numbers and severity; exit 1 when there are errors.
import { lintRobots } from '../core/lint.js';
import { parseCommand, usageError, type Command, type CommandSpec, type ParsedCommand } from './command-spec.js';
import { RobotsError } from '../core/errors.js';
import { MODE_OPTION, withHelp } from './shared-options.js';
import { statSync } from 'node:fs';
import { readFileBounded, readLimit } from '../node/robots-file.js';
import { readInputWhole } from '../node/logs/index.js';
import { terminalSafe } from './common.js';

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


/** What lint states about itself: its options (src/cli/command-spec.ts), usage, help and docs come from it. */
export const LINT_SPEC = {
  name: 'lint',
  options: {
    format: { type: 'string', choices: ['text', 'json'], fallback: 'text', help: 'text (default): "<file>:<line>: <severity>: <message> [<code>]" lines and a summary' },
    mode: withHelp(MODE_OPTION, 'which parser rules apply (default google)'),
  },
  positionals: { shown: '(<robots-file> | -)...', min: 1, max: Infinity, error: () => 'lint needs at least one <robots-file> (- for standard input; see robotstxt lint --help)' },
  column: 23,
  description: `Reports what is wrong or risky in a robots.txt, with line numbers and severity (error, warning, info):
unknown directives, directives Google does not act on (Noindex, Nofollow, Request-rate, Visit-time,
Clean-param, Host), accepted typos, missing colons, rules before any user-agent, patterns starting with
neither "/" nor "*", user-agent values that are not product tokens ("Google bot", "Mozilla/5.0 (...)"),
over-long lines, the line where a file over 500 KiB stops being read, bytes that are not UTF-8, a BOM,
non-numeric crawl-delay, sitemaps that are not absolute URLs, and rules that can never decide (an opposite
rule with equal or higher priority matches every URL they match). A file that is not a robots.txt at all
(HTML, XML, UTF-16) gets one error that says so.
The whole file is read (crawlers read 500 KiB: a larger file is reported).

Several files are linted one after the other, each with its own summary (with --format json, one object
each); a file that cannot be read is named and the others are still linted.

Exit status: 0 no errors, 1 errors found, 2 usage or file errors (a file that could not be read).`,
  examples: [
    'robotstxt lint robots.txt',
    'robotstxt lint robots/*.txt',
    'curl -s https://example.com/robots.txt | robotstxt lint -',
    'robotstxt lint --format json robots.txt | jq \'.findings[] | select(.severity == "error")\'',
  ],
} as const satisfies CommandSpec;

/** robotstxt lint. */
export const COMMAND: Command = { spec: LINT_SPEC, run: (args, io) => runLint(args, io.out, io.err) };

/** What one run of lint does: the files (- for standard input), the mode they are read in, the output. */
export interface LintPlan {
  files: string[];
  mode: 'google' | 'rfc';
  format: 'text' | 'json';
}

/** The plan of a lint run from its parsed arguments. Pure. Once per run. */
export function planLint(parsed: ParsedCommand<(typeof LINT_SPEC)['options']>): LintPlan {
  const { values, positionals } = parsed;
  if (positionals.filter((file) => file === '-').length > 1) throw usageError('standard input (-) can be read once');
  return { files: positionals, mode: values.mode, format: values.format };
}

/** robotstxt lint: the plan (planLint), each file read whole and linted, its findings. Once per run. */
export async function runLint(args: string[], stdout: (text: string) => void, stderr: (text: string) => void = () => undefined): Promise<number> {
  const { files: positionals, mode, format } = planLint(parseCommand(LINT_SPEC, args));
  let errors = false;
  let unreadable = false;
  for (const file of positionals) {
    // '-': standard input (a pipe, a socket or a redirected file), read up to the same bound as a file; lint
    // says where linting stops past that bound, and names the real size
    let read: { body: Uint8Array; fileBytes: number };
    try {
      read = file === '-' ? await readInputWhole('-', 'standard input', readLimit(0)) : readFile(file, readLimit(0));
    } catch (error) {
      // one file that cannot be read is named; the others are linted
      if (!(error instanceof RobotsError) || positionals.length === 1) throw error;
      stderr(`robotstxt: ${error.message}\n`);
      unreadable = true;
      continue;
    }
    const report = lintRobots(read.body, { mode, maxBytes: 0, fileBytes: read.fileBytes });
    errors ||= report.errors > 0;
    if (format === 'json') {
      stdout(JSON.stringify({ file, errors: report.errors, warnings: report.warnings, infos: report.infos, findings: report.findings }, null, 2) + '\n');
    } else {
      // messages quote the file's text: control characters are written as \xNN (a file cannot drive the terminal)
      for (const finding of report.findings) stdout(`${terminalSafe(file)}:${finding.line}: ${finding.severity}: ${terminalSafe(finding.message)} [${finding.code}]\n`);
      stdout(`${terminalSafe(file)}: ${report.errors} error(s), ${report.warnings} warning(s), ${report.infos} note(s)\n`);
    }
  }
  return unreadable ? 2 : errors ? 1 : 0;
}
