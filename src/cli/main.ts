#!/usr/bin/env node
// robotstxt: the command line. One file per command; this file only dispatches and maps errors to exit codes.
import { readFileSync } from 'node:fs';
import { RobotsError } from '../errors.js';
import { EXIT_USAGE } from './common.js';
import { runTest, TEST_HELP } from './test-command.js';
import { runCheck, CHECK_HELP } from './check-command.js';
import { runLint, LINT_HELP } from './lint-command.js';
import { runDiff, DIFF_HELP } from './diff-command.js';
import { runAudit, AUDIT_HELP } from './audit-command.js';
import { runFetch, FETCH_HELP } from './fetch-command.js';

const HELP = `Usage: robotstxt <command> [options]

Reference-exact robots.txt verdicts (Google's robotstxt library semantics), compiled to WebAssembly.

Commands:
  test <robots-file> <user-agent> <url>   one verdict, the reference robots_main contract (exit 0/1)
  check --robots <file> --agent <token>   one verdict line per URL line, streamed
  lint <robots-file>                      what is wrong or risky in a robots.txt, by line (exit 1 on errors)
  diff <old> <new> --agent <token> ...    which URLs (a list or access logs) a robots.txt change blocks or frees
  audit --robots <file> <log>...          which crawlers fetched what robots.txt forbade them (table, JSON, HTML)
  fetch --store <dir> <url-or-host>...    fetch robots.txt files over HTTP into a store (status codes,
                                          redirects, timeouts, 24-hour freshness) for check and audit

Run robotstxt <command> --help for a command's options and examples.`;

function version(): string {
  const packageJson = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { version: string };
  return packageJson.version;
}

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  const wantsHelp = rest.includes('--help') || rest.includes('-h');
  const out = (text: string): void => { process.stdout.write(text); };
  const err = (text: string): void => { process.stderr.write(text); };
  switch (command) {
    case undefined:
    case '--help':
    case '-h':
    case 'help':
      out(HELP + '\n');
      return command === undefined ? EXIT_USAGE : 0;
    case '--version':
    case '-V':
      out(version() + '\n');
      return 0;
    case 'test':
      if (wantsHelp) { out(TEST_HELP + '\n'); return 0; }
      return runTest(rest, out, err);
    case 'check':
      if (wantsHelp) { out(CHECK_HELP + '\n'); return 0; }
      return runCheck(rest, process.stdout, err);
    case 'lint':
      if (wantsHelp) { out(LINT_HELP + '\n'); return 0; }
      return runLint(rest, out);
    case 'diff':
      if (wantsHelp) { out(DIFF_HELP + '\n'); return 0; }
      return runDiff(rest, out, err);
    case 'audit':
      if (wantsHelp) { out(AUDIT_HELP + '\n'); return 0; }
      return runAudit(rest, out, err);
    case 'fetch':
      if (wantsHelp) { out(FETCH_HELP + '\n'); return 0; }
      return runFetch(rest, out, err);
    default:
      throw new RobotsError('USAGE', `unknown command '${command}' (commands: test, check, lint, diff, audit, fetch; see robotstxt --help)`);
  }
}

process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(0); // the reader went away (e.g. | head): not an error
  throw error;
});

main(process.argv.slice(2)).then(
  (code) => { process.exitCode = code; },
  (error: unknown) => {
    if (error instanceof RobotsError) {
      process.stderr.write(`robotstxt: ${error.message}\n`);
      process.exitCode = EXIT_USAGE;
    } else {
      process.stderr.write(`robotstxt: internal error: ${(error as Error).stack ?? String(error)}\n`);
      process.exitCode = 70;
    }
  },
);
