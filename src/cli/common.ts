// Helpers shared by the commands: the usage exit code, reading robots files, warnings, terminal-safe text.
import { readFileSync } from 'node:fs';
import type { RobotsTxt, RobotsReading } from '../core/robots.js';
import { agentWarning } from '../core/crawlers.js';
import { fileError, readRobotsLikeRobotsMain } from '../node/robots-file.js';

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
    if (problem !== null) stderr(`robotstxt: warning: ${problem}\n`);
  }
}

export { terminalSafe } from '../core/terminal.js';
