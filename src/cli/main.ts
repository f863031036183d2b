#!/usr/bin/env node
// robotstxt: the command line. One file per command (the registry: commands.ts); this file only dispatches,
// prints help and maps errors to exit codes.
import { readFileSync } from 'node:fs';
import '../node/core-node.js'; // the WebAssembly core, read from build/ on first use
import { RobotsError } from '../core/errors.js';
import { EXIT_USAGE } from './common.js';
import { inCommandWords } from './option-words.js';
import { COMMANDS, commandNamed, mainHelp } from './commands.js';
import { hasOption, helpText, nearestName, type Command, type CommandIo } from './command-spec.js';

function version(): string {
  const packageJson = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { version: string };
  return packageJson.version;
}

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  const io: CommandIo = { out: (text) => { process.stdout.write(text); }, err: (text) => { process.stderr.write(text); }, stdout: process.stdout };
  const names = COMMANDS.map((entry) => entry.name).join(', ');
  const unknownCommand = (name: string): RobotsError => {
    const near = nearestName(name, COMMANDS.map((entry) => entry.name));
    return new RobotsError('USAGE', `unknown command '${name}'${near === null ? '' : ` (did you mean ${near}?)`} (commands: ${names}; see robotstxt --help)`);
  };
  switch (command) {
    case 'help': {
      // `robotstxt help <command>`: that command's help
      if (rest.length === 0) {
        io.out(mainHelp() + '\n');
        return 0;
      }
      if (commandNamed(rest[0]) === undefined) throw unknownCommand(rest[0]);
      return main([rest[0], '--help']);
    }
    case undefined:
    case '--help':
    case '-h':
      io.out(mainHelp() + '\n');
      return command === undefined ? EXIT_USAGE : 0;
    case '--version':
    case '-V':
      io.out(version() + '\n');
      return 0;
    default: {
      const entry = commandNamed(command);
      if (entry === undefined) throw unknownCommand(command);
      const { COMMAND } = await entry.load();
      // --help among its options (for test: before its first argument, robots_main's contract: `test <file>
      // -h <url>` asks about the agent named -h, and its verdict is the exit code)
      if (hasOption(COMMAND.spec, rest, ['--help', '-h'])) {
        io.out(helpText(COMMAND.spec) + '\n');
        return 0;
      }
      running = COMMAND;
      if (COMMAND.streams?.(rest) === true) writeOutOnSignals();
      return COMMAND.run(rest, io);
    }
  }
}

const command = process.argv[2];
/** The command running (once loaded). */
let running: Command | null = null;

/**
 * Standard output failed (a closed pipe, a full disk): what was written is incomplete, so the exit code must
 * not be a verdict (test: 0 allowed, 1 disallowed; lint: 0 clean). Exit 2 and say so. `check` is a line
 * filter: a reader that stops early (`| head`) is normal for it, as for grep, so a closed pipe exits 0 there.
 */
function outputFailed(error: NodeJS.ErrnoException): never {
  if (error.code === 'EPIPE' && running?.lineFilter === true) process.exit(0);
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
// Only for commands that stream their output (Command.streams): lint and a single test write once, at the
// end, and may spend seconds in one synchronous computation (a 16 MiB file), during which a JavaScript handler
// could not run: for them the signal's default action ends the process at once.
function writeOutOnSignals(): void {
  let stopping = false;
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
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
}

main(process.argv.slice(2)).then(
  (code) => { process.exitCode = code; },
  (thrown: unknown) => {
    if (isOutputError(thrown)) outputFailed(thrown);
    const error = inCommandWords(thrown);
    if (error instanceof RobotsError) {
      process.stderr.write(`robotstxt: ${error.message}\n`);
      process.exitCode = EXIT_USAGE;
    } else {
      process.stderr.write(`robotstxt: internal error: ${(error as Error).stack ?? String(error)}\n`);
      process.exitCode = 70;
    }
  },
);
