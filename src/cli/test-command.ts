// robotstxt test <robots-file> <user-agent> <url>: the reference's robots_main contract.
import { dirname, resolve } from 'node:path';
import type { Writable } from 'node:stream';
import { warnAboutAgents, loadRobotsInput, EXIT_USAGE } from './common.js';
import { parseCommand, hasOption, usageError, type Command, type CommandSpec, type ParsedCommand } from './command-spec.js';
import type { RobotsReading } from '../core/robots.js';
import { MODE_OPTION, maxBytesOption, readingOf } from './shared-options.js';
import { readRobotsLikeRobotsMain } from '../node/robots-file.js';
import { DEFAULT_CACHE_BYTES, MAX_CACHE_BYTES } from '../core/constants.js';
import { TestBatch, ROBOTS_ROOT_VARIABLE } from '../node/test-batch.js';
import { HeapGovernor } from './heap-governor.js';
import { flagWords } from './option-words.js';
import { forEachChunk, writeAll } from '../node/logs/index.js';

/** What test states about itself: its options (src/cli/command-spec.ts), usage, help and docs come from it. */
export const TEST_SPEC = {
  name: 'test',
  options: {
    mode: MODE_OPTION,
    'max-bytes': maxBytesOption(0, 'read at most N bytes of the robots file ({range}; 0 = all of it, as\nrobots_main reads: a file larger than 16 MiB is refused; check, diff and audit\nread 512000 like Google\'s crawler)'),
    batch: { type: 'boolean', help: 'JSON lines of cases in (a file, or standard input), JSON lines of answers out' },
    'robots-root': { type: 'string', value: '<dir>', requires: ['batch'], help: 'with --batch: the folder robots paths are read under (default: the folder in\nROBOTSTXT_ROBOTS_ROOT, which robotstxt conformance sets for its batch command;\nelse the cases file\'s folder, or the current folder for standard input)' },
    'cache-mb': {
      type: 'string', value: 'N', whole: { fallback: DEFAULT_CACHE_BYTES / 1048576, min: 1, max: MAX_CACHE_BYTES / 1048576 }, requires: ['batch'],
      help: 'with --batch: memory for the parsed files and compiled matchers kept between\ncases ({range}); least recently used out',
    },
  },
  positionals: { shown: '<robots-file> <user-agent> <url>', min: 0, max: 3 },
  optionsFirst: true,
  otherForms: ['robotstxt test --batch [options] [<cases.jsonl> | -]'],
  column: 22,
  description: `Answers one question exactly like the reference's robots_main: prints
  user-agent '<user-agent>' with URI '<url>': ALLOWED      (exit 0)
  user-agent '<user-agent>' with URI '<url>': DISALLOWED   (exit 1)
and, when the robots file is empty, a second line
  notice: robots file is empty so all user-agents are allowed
Usage and file errors print one line on stderr and exit 2. Options come before the three arguments (or
before --): an agent or URL that looks like an option (-h, --help) is asked about, as robots_main does.

The user agent is compared verbatim with each user-agent line's product token
(use "Googlebot", not "Googlebot/2.1" or a full User-Agent header).

With --batch, many questions in one process (for benchmarks and conformance runs): one JSON object per
input line,
  {"robots": "<path>", "agent": "<token>" or ["<token>", ...], "url": "<url>", "mode": "google"|"rfc"}
("robotsText": "<body>" instead of "robots"; "mode" optional), and one JSON line out per input line, in
order: {"verdict": "allowed"|"disallowed", "line": <the deciding rule's line, or null>}, or
{"error": {"code": ..., "message": ...}} for a line that cannot be answered (never a dropped line). Robots
files are read under --robots-root (default: ROBOTSTXT_ROBOTS_ROOT when set, else the cases file's folder,
or the current folder for standard input; a path that leaves it is refused), parsed once and kept with
their compiled matchers within --cache-mb. A body read whole (the default) larger than 16 MiB is an
INPUT_TOO_LARGE answer, as a file or as robotsText. Exit 0 when every case was answered, 2 when some line
carries an error.`,
  examples: [
    'robotstxt test robots.txt Googlebot https://example.com/private/page',
    'robotstxt test --mode rfc robots.txt ExampleBot /robots.txt',
    'robotstxt test --batch cases.jsonl > answers.jsonl',
  ],
} as const satisfies CommandSpec;

/** robotstxt test: one question (the robots_main contract), or with --batch, many. */
export const COMMAND: Command = {
  spec: TEST_SPEC,
  run: (args, io) => (isBatch(args) ? runTestBatch(args, io.stdout as Writable, io.err) : runTest(args, io.out, io.err)),
  // test --batch streams answers; a single test writes one verdict, at the end
  streams: (args) => isBatch(args),
};

/** Whether the arguments ask for test --batch (an option: before the first positional or `--`). */
function isBatch(args: readonly string[]): boolean {
  return hasOption(TEST_SPEC, args, ['--batch']);
}

/** test --batch writes its answers at least this often (bytes, or answers). */
const ANSWER_FLUSH_BYTES = 64 << 10;
const ANSWER_FLUSH_LINES = 256;

/**
 * test --batch: reads JSON lines of cases (a file or standard input), writes one answer line per case to
 * stdout, in order, a chunk of lines at a time. Returns the exit code (0 all answered, 2 some lines are errors).
 */
export async function runTestBatch(args: string[], stdout: Writable, stderr: (text: string) => void): Promise<number> {
  const plan = planTest(parseCommand(TEST_SPEC, args), process.env, process.cwd());
  if (plan.kind !== 'batch') throw usageError('test --batch was not given');
  const { input, root, reading, cacheBytes } = plan;
  const batch = new TestBatch({ root, reading, cacheBytes, optionWords: flagWords });
  const decoder = new TextDecoder();
  // the run within --cache-mb + 100 MiB: what the cache keeps, and at most 32 MiB of garbage besides
  const heap = new HeapGovernor(32 << 20);
  try {
    await forEachChunk(input, 'cases file', async (chunk) => {
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
    });
  } finally {
    batch.close();
  }
  if (batch.counts.errors > 0) stderr(`robotstxt: ${batch.counts.errors} of ${batch.counts.cases} cases could not be answered (their lines carry the error)\n`);
  return batch.counts.errors > 0 ? EXIT_USAGE : 0;
}

/** What one run of test does: one question (robots_main's three arguments), or a batch of cases. */
export type TestPlan =
  | { kind: 'one'; file: string; agent: string; url: string; reading: RobotsReading }
  | { kind: 'batch'; input: string; root: string; reading: RobotsReading; cacheBytes: number };

/**
 * The plan of a test run from its parsed arguments, the environment (ROBOTSTXT_ROBOTS_ROOT) and the working
 * folder (the root of cases read from standard input). Pure. Once per run.
 */
export function planTest(parsed: ParsedCommand<(typeof TEST_SPEC)['options']>, env: NodeJS.ProcessEnv, cwd: string): TestPlan {
  const { values, positionals } = parsed;
  const reading = readingOf(values);
  if (!values.batch) {
    if (positionals.length !== 3) throw usageError(`test needs exactly 3 arguments <robots-file> <user-agent> <url>, got ${positionals.length} (see robotstxt test --help)`);
    const [file, agent, url] = positionals;
    return { kind: 'one', file, agent, url, reading };
  }
  if (positionals.length > 1) throw usageError(`test --batch takes at most one <cases.jsonl> (or - for standard input), got ${positionals.length} arguments`);
  const input = positionals[0] ?? '-';
  const rootOption = values['robots-root'];
  if (rootOption === '') throw usageError('--robots-root must name a folder');
  const rootFromEnvironment = env[ROBOTS_ROOT_VARIABLE];
  const root = rootOption ?? (rootFromEnvironment !== undefined && rootFromEnvironment !== '' ? rootFromEnvironment : input === '-' ? cwd : dirname(resolve(cwd, input)));
  return { kind: 'batch', input, root, reading, cacheBytes: values['cache-mb'] * 1048576 };
}

/** Runs the command; returns the exit code. Writes to the given streams (tests pass their own). */
export async function runTest(args: string[], stdout: (text: string) => void, stderr: (text: string) => void = () => undefined): Promise<number> {
  const plan = planTest(parseCommand(TEST_SPEC, args), process.env, process.cwd());
  if (plan.kind !== 'one') throw usageError('test --batch answers a cases file: run it as robotstxt test --batch');
  const { file, agent, url, reading } = plan;
  warnAboutAgents([agent], stderr);
  // robots_main reads the whole file: so does its drop-in unless --max-bytes says otherwise; reading a file
  // whole is the drop-in's promise: one past what compiles is refused, not answered in part
  const robots = file === '-' ? await loadRobotsInput('-', reading) : readRobotsLikeRobotsMain(file, reading);
  const allowed = robots.isAllowed(url, agent);
  stdout(`user-agent '${agent}' with URI '${url}': ${allowed ? 'ALLOWED' : 'DISALLOWED'}\n`);
  if (robots.bytesRead === 0) stdout('notice: robots file is empty so all user-agents are allowed\n');
  return allowed ? 0 : 1;
}
