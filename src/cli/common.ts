// Helpers shared by the commands: the usage exit code, reading robots files, warnings, terminal-safe text.
import { readFileSync } from 'node:fs';
import { RobotsError } from '../core/errors.js';
import { usageError } from './command-spec.js';
import { terminalSafe as safeText } from '../core/terminal.js';
import { parseRobots, productToken, type RobotsTxt, type RobotsReading } from '../core/robots.js';
import { agentWarning } from '../core/crawlers.js';
import { fileError, readLimit, readRobotsLikeRobotsMain } from '../node/robots-file.js';
import { flagWords } from './option-words.js';

export { fileError };

/** Exit code for usage and file errors (0 and 1 are verdicts for `test`). */
export const EXIT_USAGE = 2;

/**
 * Parses a robots file, reading at most the bytes that are parsed (the size limit plus one). With stderr, a
 * file cut at the limit is named there: a verdict must not silently differ from `robotstxt test`'s.
 */
export function loadRobots(path: string, reading: RobotsReading, stderr?: (text: string) => void): RobotsTxt {
  const robots = readRobotsLikeRobotsMain(path, reading);
  if (stderr !== undefined && robots.truncated) {
    stderr(`robotstxt: warning: '${path}' is longer than ${robots.bytesRead} bytes: only the first ${robots.bytesRead} are read (--max-bytes, as Google's crawler reads files; --max-bytes 0 reads it whole, as robotstxt test does)\n`);
  }
  return robots;
}

/**
 * loadRobots, and `-` for standard input (read whole up to the bytes parsed, as a file is; then the URLs or
 * cases must come from a file). Once per run.
 */
export async function loadRobotsInput(path: string, reading: RobotsReading, stderr?: (text: string) => void): Promise<RobotsTxt> {
  if (path !== '-') return loadRobots(path, reading, stderr);
  const { readInputWhole } = await import('../node/logs/index.js');
  const { body } = await readInputWhole('-', 'robots.txt', readLimit(reading.maxBytes));
  const robots = parseRobots(body, reading);
  if (stderr !== undefined && robots.truncated) stderr(`robotstxt: warning: the robots.txt of standard input is longer than ${robots.bytesRead} bytes: only the first ${robots.bytesRead} are read (--max-bytes, as Google's crawler reads files; --max-bytes 0 reads it whole, as robotstxt test does)\n`);
  return robots;
}

/**
 * Peak resident memory of this process in MiB: VmHWM from /proc (Linux), else getrusage's maxRSS, which on
 * Linux also carries the high-water mark of the process that spawned this one (fork + exec keeps it).
 */
export function peakMemoryMiB(): number {
  try {
    const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'));
    if (match !== null) return Number(match[1]) / 1024;
  } catch {
    // not Linux
  }
  return process.resourceUsage().maxRSS / 1024;
}

/** Warns on stderr (once per agent) about agents that can only get the * group (see agentWarning). */
export function warnAboutAgents(agents: readonly string[], stderr: (text: string) => void): void {
  for (const agent of new Set(agents)) {
    const problem = agentWarning(agent);
    if (problem === null) continue;
    // a crawler's name such as MJ12bot: audit reads its requests by the name's product token
    const token = productToken(agent);
    const audited = token !== '' && /^[A-Za-z0-9_-]+$/.test(agent) ? `; audit reads a crawler named ${agent} by that token: --agent ${token} (or --as-crawler) answers as audit counts it` : '';
    stderr(`robotstxt: warning: ${problem}${audited}\n`);
  }
}

export { terminalSafe } from '../core/terminal.js';

/**
 * The origin a command of the store's versions names (history <origin>, diff --store --origin), read by the
 * library's one rule (originInStore), its refusals as usage errors. Once per run.
 */
export async function storedOrigin(store: string, named: string, scheme?: 'https' | 'http'): Promise<import('../node/history/index.js').OriginInStore> {
  const { originInStore } = await import('../node/history/index.js');
  try {
    return originInStore(store, named, { scheme });
  } catch (error) {
    if (error instanceof RobotsError && error.code === 'INVALID_ARGUMENT') throw usageError(error.sayOption(flagWords));
    throw error;
  }
}

/** Says on stderr the URL lines a comparison of one origin's versions left out (lines of other origins). */
export function otherOriginLines(count: number, first: string | null, origin: string, source: string, stderr: (text: string) => void): void {
  if (count > 0) stderr(`robotstxt: ${count} line(s) of ${source} name another origin or none (the first: ${safeText((first ?? '').slice(0, 200))}): left out, only ${origin}'s versions are compared\n`);
}

/** The library's warnings (a sentence each) on stderr, as the command line says them: `robotstxt: <sentence>`. Once per command. */
export function warnings(stderr: (text: string) => void): (sentence: string) => void {
  return (sentence) => stderr(`robotstxt: ${sentence}\n`);
}
