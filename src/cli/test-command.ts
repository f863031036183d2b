// robotstxt test <robots-file> <user-agent> <url>: the reference's robots_main contract.
import { parseCommandArgs, usageError, loadRobots, modeOption, maxBytesOption, warnAboutAgents } from './common.js';
import { MAX_COMPILE_BYTES, tooLarge } from '../wasm/core-node.js';

export const TEST_HELP = `Usage: robotstxt test [--mode google|rfc] [--max-bytes N] <robots-file> <user-agent> <url>

Answers one question exactly like the reference's robots_main: prints
  user-agent '<user-agent>' with URI '<url>': ALLOWED      (exit 0)
  user-agent '<user-agent>' with URI '<url>': DISALLOWED   (exit 1)
and, when the robots file is empty, a second line
  notice: robots file is empty so all user-agents are allowed
Usage and file errors print one line on stderr and exit 2.

The user agent is compared verbatim with each user-agent line's product token
(use "Googlebot", not "Googlebot/2.1" or a full User-Agent header).

Options:
  --mode google|rfc   google (default): the reference's verdicts; rfc: RFC 9309
  --max-bytes N       read at most N bytes of the robots file (default 0 = all of it, as robots_main
                      reads; check, diff and audit read 512000 like Google's crawler)

Examples:
  robotstxt test robots.txt Googlebot https://example.com/private/page
  robotstxt test --mode rfc robots.txt ExampleBot /robots.txt`;

/** Runs the command; returns the exit code. Writes to the given streams (tests pass their own). */
export function runTest(args: string[], stdout: (text: string) => void, stderr: (text: string) => void = () => undefined): number {
  const { values, positionals } = parseCommandArgs(args, { mode: { type: 'string' }, 'max-bytes': { type: 'string' } }, 'test');
  if (positionals.length !== 3) throw usageError(`test needs exactly 3 arguments <robots-file> <user-agent> <url>, got ${positionals.length} (see robotstxt test --help)`);
  const [file, agent, url] = positionals;
  warnAboutAgents([agent], stderr);
  // robots_main reads the whole file: so does its drop-in unless --max-bytes says otherwise
  const maxBytes = maxBytesOption(values['max-bytes'], 0);
  const robots = loadRobots(file, modeOption(values.mode), maxBytes);
  // reading a file whole is the drop-in's promise: one past what compiles is refused, not answered in part
  if (maxBytes === 0 && robots.truncated) {
    throw tooLarge('a robots.txt body', MAX_COMPILE_BYTES + 1, MAX_COMPILE_BYTES); // (the read stops one byte past the limit)
  }
  const allowed = robots.isAllowed(url, agent);
  stdout(`user-agent '${agent}' with URI '${url}': ${allowed ? 'ALLOWED' : 'DISALLOWED'}\n`);
  if (robots.bytesRead === 0) stdout('notice: robots file is empty so all user-agents are allowed\n');
  return allowed ? 0 : 1;
}
