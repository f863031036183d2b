#!/usr/bin/env node
// robotstxt: the command line. One file per command; this file only dispatches and maps errors to exit codes.
import { readFileSync } from 'node:fs';
import '../node/core-node.js'; // the WebAssembly core, read from build/ on first use
import { RobotsError } from '../core/errors.js';
import { EXIT_USAGE } from './common.js';
// each command's module is loaded only when it runs: a command loads only what it uses (check never loads
// the HTTP client, the bot lists or the Tester)

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
  tester [--port N] | --build <dir>       the robots.txt Tester page, served on 127.0.0.1 or written as files
  conformance --command '<cmd>' ...       where another robots.txt implementation differs from the reference,
                                          by class, with the smallest case of each (exit 1 when any differ)

Run robotstxt <command> --help for a command's options and examples.`;

function version(): string {
  const packageJson = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { version: string };
  return packageJson.version;
}

/**
 * Whether a command's arguments ask for its help: --help or -h among its options, that is before `--`, and
 * for test before its first positional (robots_main's contract: `test <file> -h <url>` asks about the agent
 * named -h, and its verdict is the exit code).
 */
function asksForHelp(command: string, args: readonly string[]): boolean {
  return hasOption(command, args, ['--help', '-h']);
}

/** Whether one of `names` is among a command's options (see asksForHelp: before `--`, and for test before its first positional). */
function hasOption(command: string, args: readonly string[], names: readonly string[]): boolean {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === '--') return false;
    if (names.includes(arg)) return true;
    if (command === 'test' && (!arg.startsWith('-') || arg === '-')) return false;
    if (command === 'test' && (arg === '--mode' || arg === '--max-bytes' || arg === '--robots-root' || arg === '--cache-mb')) i++; // (its value)
  }
  return false;
}

/** The commands, in the order --help lists them. */
const COMMANDS = ['test', 'check', 'lint', 'diff', 'audit', 'fetch', 'tester', 'conformance'];

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  const wantsHelp = asksForHelp(command ?? '', rest);
  const out = (text: string): void => { process.stdout.write(text); };
  const err = (text: string): void => { process.stderr.write(text); };
  switch (command) {
    case 'help':
      // `robotstxt help <command>`: that command's help
      if (rest.length > 0 && COMMANDS.includes(rest[0])) return main([rest[0], '--help']);
      if (rest.length > 0) throw new RobotsError('USAGE', `unknown command '${rest[0]}' (commands: ${COMMANDS.join(', ')}; see robotstxt --help)`);
      out(HELP + '\n');
      return 0;
    case undefined:
    case '--help':
    case '-h':
      out(HELP + '\n');
      return command === undefined ? EXIT_USAGE : 0;
    case '--version':
    case '-V':
      out(version() + '\n');
      return 0;
    case 'test': {
      const { runTest, runTestBatch, TEST_HELP } = await import('./test-command.js');
      if (wantsHelp) { out(TEST_HELP + '\n'); return 0; }
      return testBatch ? runTestBatch(rest, process.stdout, err) : runTest(rest, out, err);
    }
    case 'check': {
      const { runCheck, CHECK_HELP } = await import('./check-command.js');
      if (wantsHelp) { out(CHECK_HELP + '\n'); return 0; }
      return runCheck(rest, process.stdout, err);
    }
    case 'lint': {
      const { runLint, LINT_HELP } = await import('./lint-command.js');
      if (wantsHelp) { out(LINT_HELP + '\n'); return 0; }
      return runLint(rest, out);
    }
    case 'diff': {
      const { runDiff, DIFF_HELP } = await import('./diff-command.js');
      if (wantsHelp) { out(DIFF_HELP + '\n'); return 0; }
      return runDiff(rest, out, err);
    }
    case 'audit': {
      const { runAudit, AUDIT_HELP } = await import('./audit-command.js');
      if (wantsHelp) { out(AUDIT_HELP + '\n'); return 0; }
      return runAudit(rest, out, err);
    }
    case 'fetch': {
      const { runFetch, FETCH_HELP } = await import('./fetch-command.js');
      if (wantsHelp) { out(FETCH_HELP + '\n'); return 0; }
      return runFetch(rest, out, err);
    }
    case 'tester': {
      const { runTester, TESTER_HELP } = await import('./tester-command.js');
      if (wantsHelp) { out(TESTER_HELP + '\n'); return 0; }
      return runTester(rest, out);
    }
    case 'conformance': {
      const { runConformance, CONFORMANCE_HELP } = await import('./conformance-command.js');
      if (wantsHelp) { out(CONFORMANCE_HELP + '\n'); return 0; }
      return runConformance(rest, out);
    }
    default:
      throw new RobotsError('USAGE', `unknown command '${command}' (commands: ${COMMANDS.join(', ')}; see robotstxt --help)`);
  }
}

const command = process.argv[2];
/** `test --batch` streams answers; a single `test` writes one verdict. */
const testBatch = command === 'test' && hasOption('test', process.argv.slice(3), ['--batch']);

/**
 * Standard output failed (a closed pipe, a full disk): what was written is incomplete, so the exit code must
 * not be a verdict (test: 0 allowed, 1 disallowed; lint: 0 clean). Exit 2 and say so. `check` is a line
 * filter: a reader that stops early (`| head`) is normal for it, as for grep, so a closed pipe exits 0 there.
 */
function outputFailed(error: NodeJS.ErrnoException): never {
  if (error.code === 'EPIPE' && command === 'check') process.exit(0);
  const reason = error.code === 'EPIPE' ? 'standard output was closed before everything was written' : `cannot write standard output: ${error.code === 'ENOSPC' ? 'no space left on device' : error.code ?? error.message}`;
  process.stderr.write(`robotstxt: ${reason} (exit 2: the output is incomplete${command === 'test' ? ', no verdict' : ''})\n`);
  process.exit(EXIT_USAGE);
}

const isOutputError = (error: unknown): error is NodeJS.ErrnoException => {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  return (error as NodeJS.ErrnoException | null)?.syscall === 'write' || code === 'EPIPE' || code === 'ERR_STREAM_DESTROYED';
};

process.stdout.on('error', (error: NodeJS.ErrnoException) => outputFailed(error));

// SIGINT / SIGTERM: what was handed to standard output is written out (whole lines: every command writes whole
// lines at a time), then the process ends by the same signal, as Unix tools do (a shell sees status 130 or
// 143). Re-raising, not process.exit: exit waits for the thread pool, where a read of an idle pipe may block
// for ever. A second signal, or output that cannot drain in 2 s, ends it at once.
// Only for commands that stream their output: lint and a single test write once, at the end, and may spend
// seconds in one synchronous computation (a 16 MiB file), during which a JavaScript handler could not run:
// for them the signal's default action ends the process at once.
const streams = command === 'check' || command === 'diff' || command === 'audit' || command === 'fetch' || testBatch;
let stopping = false;
for (const signal of streams ? ['SIGINT', 'SIGTERM'] as const : []) {
  process.on(signal, () => {
    const end = (): void => {
      process.removeAllListeners(signal);
      process.kill(process.pid, signal);
    };
    if (stopping) end();
    stopping = true;
    setTimeout(end, 2000).unref();
    process.stdout.write('', end);
  });
}

main(process.argv.slice(2)).then(
  (code) => { process.exitCode = code; },
  (error: unknown) => {
    if (isOutputError(error)) outputFailed(error);
    if (error instanceof RobotsError) {
      process.stderr.write(`robotstxt: ${error.message}\n`);
      process.exitCode = EXIT_USAGE;
    } else {
      process.stderr.write(`robotstxt: internal error: ${(error as Error).stack ?? String(error)}\n`);
      process.exitCode = 70;
    }
  },
);
