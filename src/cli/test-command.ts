// robotstxt test <robots-file> <user-agent> <url>: the reference's robots_main contract.
import { dirname, resolve } from 'node:path';
import type { Writable } from 'node:stream';
import { parseCommandArgs, usageError, modeOption, maxBytesSpec, wholeNumberOption, warnAboutAgents, EXIT_USAGE } from './common.js';
import { readRobotsLikeRobotsMain } from '../node/robots-file.js';
import { optionsHelp, type OptionTable } from './options.js';
import { DEFAULT_CACHE_BYTES, MAX_CACHE_BYTES } from '../core/constants.js';
import { TestBatch, ROBOTS_ROOT_VARIABLE } from '../node/test-batch.js';
import { HeapGovernor } from '../node/heap-governor.js';
import { LineReader, CHUNK_BYTES, writeAll } from '../node/line-reader.js';

/** The options of a single test, and those of test --batch (TEST_OPTIONS: what its --help lists, src/cli/options.ts). */
const SINGLE_TEST_OPTIONS = {
  mode: { type: 'string', value: 'google|rfc', help: "google (default): the reference's verdicts; rfc: RFC 9309" },
  'max-bytes': maxBytesSpec(0, 'read at most N bytes of the robots file ({range}; 0 = all of it, as\nrobots_main reads: a file larger than 16 MiB is refused; check, diff and audit\nread 512000 like Google\'s crawler)'),
} as const satisfies OptionTable;
export const TEST_OPTIONS = {
  ...SINGLE_TEST_OPTIONS,
  batch: { type: 'boolean', help: 'JSON lines of cases in (a file, or standard input), JSON lines of answers out' },
  'robots-root': { type: 'string', value: 'DIR', help: 'with --batch: the folder robots paths are read under (default: the folder in\nROBOTSTXT_ROBOTS_ROOT, which robotstxt conformance sets for its batch command;\nelse the cases file\'s folder, or the current folder for standard input)' },
  'cache-mb': {
    type: 'string', value: 'N', whole: { fallback: DEFAULT_CACHE_BYTES / 1048576, min: 1, max: MAX_CACHE_BYTES / 1048576 },
    help: 'with --batch: memory for the parsed files and compiled matchers kept between\ncases ({range}); least recently used out',
  },
} as const satisfies OptionTable;

export const TEST_HELP = `Usage: robotstxt test [--mode google|rfc] [--max-bytes N] <robots-file> <user-agent> <url>
       robotstxt test --batch [--robots-root <dir>] [--cache-mb N] [--mode google|rfc] [--max-bytes N] [<cases.jsonl> | -]

Answers one question exactly like the reference's robots_main: prints
  user-agent '<user-agent>' with URI '<url>': ALLOWED      (exit 0)
  user-agent '<user-agent>' with URI '<url>': DISALLOWED   (exit 1)
and, when the robots file is empty, a second line
  notice: robots file is empty so all user-agents are allowed
Usage and file errors print one line on stderr and exit 2.

The user agent is compared verbatim with each user-agent line's product token
(use "Googlebot", not "Googlebot/2.1" or a full User-Agent header).

With --batch, many questions in one process (for benchmarks and conformance runs): one JSON object per
input line,
  {"robots": "<path>", "agent": "<token>" or ["<token>", ...], "url": "<url>", "mode": "google"|"rfc"}
("robotsText": "<body>" instead of "robots"; "mode" optional), and one JSON line out per input line, in
order: {"verdict": "allowed"|"disallowed", "line": <the deciding rule's line, or null>}, or
{"error": {"code": ..., "message": ...}} for a line that cannot be answered (never a dropped line). Robots
files are read under --robots-root (default: ROBOTSTXT_ROBOTS_ROOT when set, else the cases file's folder,
or the current folder for standard input; a path that leaves it is refused), parsed once and kept with their compiled matchers within
--cache-mb. A body read whole (the default) larger than 16 MiB is an INPUT_TOO_LARGE answer, as a file
or as robotsText. Exit 0 when every case was answered, 2 when some line carries an error.

Options:
${optionsHelp(TEST_OPTIONS, 22)}

Examples:
  robotstxt test robots.txt Googlebot https://example.com/private/page
  robotstxt test --mode rfc robots.txt ExampleBot /robots.txt
  robotstxt test --batch cases.jsonl > answers.jsonl`;

/** test --batch writes its answers at least this often (bytes, or answers). */
const ANSWER_FLUSH_BYTES = 64 << 10;
const ANSWER_FLUSH_LINES = 256;

/**
 * test --batch: reads JSON lines of cases (a file or standard input), writes one answer line per case to
 * stdout, in order, a chunk of lines at a time. Returns the exit code (0 all answered, 2 some lines are errors).
 */
export async function runTestBatch(args: string[], stdout: Writable, stderr: (text: string) => void): Promise<number> {
  const { values, positionals } = parseCommandArgs(args, TEST_OPTIONS, 'test');
  if (positionals.length > 1) throw usageError(`test --batch takes at most one <cases.jsonl> (or - for standard input), got ${positionals.length} arguments`);
  const input = positionals[0] ?? '-';
  const rootOption = values['robots-root'] as string | undefined;
  if (rootOption === '') throw usageError('--robots-root must name a folder');
  const rootFromEnvironment = process.env[ROBOTS_ROOT_VARIABLE];
  const root = rootOption ?? (rootFromEnvironment !== undefined && rootFromEnvironment !== '' ? rootFromEnvironment : input === '-' ? process.cwd() : dirname(resolve(input)));
  const batch = new TestBatch({ root, mode: modeOption(values.mode), maxBytes: wholeNumberOption(values, TEST_OPTIONS, 'max-bytes'), cacheBytes: wholeNumberOption(values, TEST_OPTIONS, 'cache-mb') * 1048576 });
  const reader = await LineReader.open(input, 'cases file');
  const buffer = new Uint8Array(CHUNK_BYTES);
  const decoder = new TextDecoder();
  // the run within --cache-mb + 100 MiB: what the cache keeps, and at most 32 MiB of garbage besides
  const heap = new HeapGovernor(32 << 20);
  try {
    for (let chunk = await reader.next(buffer); chunk !== null; chunk = await reader.next(buffer)) {
      const lines = decoder.decode(chunk).split('\n');
      if (lines[lines.length - 1] === '') lines.pop();
      // answers leave as they are made, a few at a time (a case may compile a large file: none waits for the chunk)
      let answers: string[] = [];
      let pending = 0;
      for (const line of lines) {
        const answer = batch.answerLine(line.endsWith('\r') ? line.slice(0, -1) : line);
        answers.push(answer);
        pending += answer.length;
        if (pending >= ANSWER_FLUSH_BYTES || answers.length >= ANSWER_FLUSH_LINES) {
          await writeAll(stdout, Buffer.from(answers.join('\n') + '\n'));
          answers = [];
          pending = 0;
          heap.check();
        }
      }
      if (answers.length > 0) await writeAll(stdout, Buffer.from(answers.join('\n') + '\n'));
    }
  } finally {
    await reader.close();
    batch.close();
  }
  if (batch.counts.errors > 0) stderr(`robotstxt: ${batch.counts.errors} of ${batch.counts.cases} cases could not be answered (their lines carry the error)\n`);
  return batch.counts.errors > 0 ? EXIT_USAGE : 0;
}

/**
 * The arguments with `--` before the first positional: options come first (robots_main's contract), so that
 * an agent or URL that looks like an option (-h, --help, -x) is read as what it stands in place of.
 */
function optionsFirst(args: readonly string[]): string[] {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === '--') return [...args];
    if (!arg.startsWith('-') || arg === '-') return [...args.slice(0, i), '--', ...args.slice(i)];
    const name = arg.startsWith('--') ? arg.slice(2) : null;
    if (name !== null && !name.includes('=') && (SINGLE_TEST_OPTIONS as Record<string, { type: string }>)[name]?.type === 'string') i++; // (its value)
  }
  return [...args];
}

/** Runs the command; returns the exit code. Writes to the given streams (tests pass their own). */
export function runTest(args: string[], stdout: (text: string) => void, stderr: (text: string) => void = () => undefined): number {
  const { values, positionals } = parseCommandArgs(optionsFirst(args), SINGLE_TEST_OPTIONS, 'test');
  if (positionals.length !== 3) throw usageError(`test needs exactly 3 arguments <robots-file> <user-agent> <url>, got ${positionals.length} (see robotstxt test --help)`);
  const [file, agent, url] = positionals;
  warnAboutAgents([agent], stderr);
  // robots_main reads the whole file: so does its drop-in unless --max-bytes says otherwise
  const maxBytes = wholeNumberOption(values, SINGLE_TEST_OPTIONS, 'max-bytes');
  // reading a file whole is the drop-in's promise: one past what compiles is refused, not answered in part
  const robots = readRobotsLikeRobotsMain(file, modeOption(values.mode), maxBytes);
  const allowed = robots.isAllowed(url, agent);
  stdout(`user-agent '${agent}' with URI '${url}': ${allowed ? 'ALLOWED' : 'DISALLOWED'}\n`);
  if (robots.bytesRead === 0) stdout('notice: robots file is empty so all user-agents are allowed\n');
  return allowed ? 0 : 1;
}
