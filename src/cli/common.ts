// Helpers shared by the commands: the usage exit code, reading robots files, warnings, terminal-safe text.
import { readFileSync } from 'node:fs';
import type { RobotsTxt, RobotsMode } from '../core/robots.js';
import { agentWarning } from '../core/crawlers.js';
import { fileError, readRobotsLikeRobotsMain } from '../node/robots-file.js';

export { fileError };

/** Exit code for usage and file errors (0 and 1 are verdicts for `test`). */
export const EXIT_USAGE = 2;

/**
 * Parses a robots file, reading at most the bytes that are parsed (the size limit plus one). With stderr, a
 * file cut at the limit is named there: a verdict must not silently differ from `robotstxt test`'s.
 */
export function loadRobots(path: string, mode: RobotsMode, maxBytes: number, stderr?: (text: string) => void): RobotsTxt {
  const robots = readRobotsLikeRobotsMain(path, mode, maxBytes);
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

/**
 * Text from logs or files made safe for a terminal table: C0 controls (ESC, BEL, TAB, CR, ...), DEL and the
 * C1 controls written as \xNN, so a log line cannot move the cursor, ring, or rewrite the screen. Called per
 * cell of the audit and diff tables.
 */
export function terminalSafe(text: string): string {
  return /[\x00-\x1f\x7f-\x9f]/.test(text) ? text.replace(/[\x00-\x1f\x7f-\x9f]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`) : text;
}
