// What each change of an origin's robots.txt did: for consecutive versions a store keeps (robots-store.ts), the
// URLs of a list whose verdict flips, per agent (RobotsDiff, as robotstxt diff reports it). Used by
// robotstxt history and fetch --fail-on-change.
import { parseRobots, type RobotsMode } from '../core/robots.js';
import { RobotsDiff, type ChangedUrl } from '../core/diff.js';
import { readStoredVersions, type StoredVersion } from './robots-store.js';
import { storedVersionBody } from './sources.js';
import { forEachChunk, chunkLines } from './line-reader.js';

/** One change between two consecutive versions, for one agent: the URLs whose verdict flips. */
export interface VersionChange {
  agent: string;
  before: StoredVersion;
  after: StoredVersion;
  newlyDisallowed: ChangedUrl[];
  newlyAllowed: ChangedUrl[];
}

/**
 * The verdict flips of each change of an origin (by its store key) over URL lines (LF-separated bytes), per
 * agent, oldest change first; `fromIndex` skips the changes before that version. Versions are read from the
 * store; [] when it keeps fewer than two. Per origin asked.
 */
export function versionChanges(directory: string, key: string, agents: readonly string[], urlLines: Uint8Array, options: { mode: RobotsMode; maxBytes: number; fromIndex?: number }): VersionChange[] {
  const stored = readStoredVersions(directory, key);
  if (stored === null || stored.versions.length < 2) return [];
  const changes: VersionChange[] = [];
  const parsed = stored.versions.map((version) => parseRobots(storedVersionBody(directory, key, version, options.maxBytes), { mode: options.mode, maxBytes: options.maxBytes }));
  try {
    for (let i = Math.max(1, options.fromIndex ?? 1); i < stored.versions.length; i++) {
      for (const agent of agents) {
        const diff = new RobotsDiff(parsed[i - 1].matcher(agent), parsed[i].matcher(agent));
        diff.addLines(urlLines);
        const report = diff.report();
        changes.push({ agent, before: stored.versions[i - 1], after: stored.versions[i], newlyDisallowed: report.newlyDisallowed, newlyAllowed: report.newlyAllowed });
      }
    }
  } finally {
    for (const robots of parsed) robots.close();
  }
  return changes;
}

/** One flip as a line: `newly disallowed <url> (rule now: disallow /x, line 3)`. The wording of history and fetch --fail-on-change. */
export function flipLine(direction: 'newly disallowed' | 'newly allowed', change: ChangedUrl): string {
  const rule = change.newRule === null ? 'no rule' : `${change.newRule.kind} ${change.newRule.pattern} (line ${change.newRule.line})`;
  return `${direction} ${change.url}  (now: ${rule})`;
}

/** The non-empty lines of a URL file, trimmed (history --urls, fetch --fail-on-change). Once per run. */
export async function readUrlLines(path: string): Promise<string[]> {
  const lines: string[] = [];
  await forEachChunk(path, 'URL file', (chunk) => { for (const line of chunkLines(chunk)) if (line.trim() !== '') lines.push(line.trim()); });
  return lines;
}

/** Of a URL file's lines, those that concern an origin as URL lines: its absolute URLs, and paths (starting with /) made its URLs. */
export function urlLinesOf(origin: string, lines: readonly string[]): Uint8Array {
  const own = lines.filter((line) => line.startsWith('/') || line.startsWith(`${origin}/`)).map((line) => (line.startsWith('/') ? `${origin}${line}` : line));
  return Buffer.from(own.length === 0 ? '' : own.join('\n') + '\n');
}
