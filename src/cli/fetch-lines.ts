// What robotstxt fetch writes: a line per origin (text or jsonl), and with --fail-on-change the verdicts a
// change of this run flipped over the watched URLs (said on stderr; the run then exits 1).
import type { RobotsCacheEntry, RobotsOrigin } from '../node/fetch/index.js';
import type { StoreWriteResult } from '../node/store/index.js';
import type { RobotsReading } from '../core/robots.js';
import { terminalSafe } from './common.js';

/** An origin's line of fetch's output (text: effect, origin, source, outcome and detail, tab-separated). */
export function textLine(entry: RobotsCacheEntry): string {
  const record = entry.record;
  const detail = record.error !== null ? ` (${record.error})` : record.hops > 0 ? ` (${record.hops} redirect${record.hops > 1 ? 's' : ''} to ${record.finalUrl})` : '';
  const notes = entry.stored?.notes ?? [];
  const mended = notes.length === 0 ? '' : ` (store: ${terminalSafe(notes.join('; '))})`;
  return `${entry.effect}\t${entry.origin}\t${entry.source === 'fetch' ? 'fetched' : entry.source === 'refused' ? 'refused' : 'fresh'}\t${record.outcome} ${record.status === 0 ? '-' : record.status}${detail}${mended}\n`;
}

/** An origin's line of fetch --format jsonl. */
export function jsonLine(entry: RobotsCacheEntry): string {
  const record = entry.record;
  return JSON.stringify({
    origin: entry.origin, key: entry.key, effect: entry.effect, source: entry.source === 'fetch' ? 'fetched' : entry.source === 'refused' ? 'refused' : 'fresh',
    outcome: record.outcome, status: record.status, error: record.error, hops: record.hops, finalUrl: record.finalUrl,
    checkedAt: new Date(record.checkedAt).toISOString(), kept: record.kept, failures: record.failures,
    failingSince: record.failingSince === null ? null : new Date(record.failingSince).toISOString(),
    ...(entry.stored !== undefined && entry.stored.notes.length > 0 ? { storeNotes: entry.stored.notes } : {}),
  }) + '\n';
}

/**
 * --fail-on-change: the change each origin's fetch made in this run, over the watched URL lines (compared as
 * the bytes were before and after, whatever --keep-versions drops). Returns the exit status: 1 when a verdict flipped.
 */
export async function saidFlips(list: readonly RobotsOrigin[], changes: readonly (StoreWriteResult['change'] | undefined)[], watched: string, watchedLines: string[], agents: string[], reading: RobotsReading, stderr: (text: string) => void): Promise<number> {
  const { changeFlips, flipLine, urlLinesOf, linesOfOtherOrigins } = await import('../node/history/index.js');
  let flips = 0;
  list.forEach((origin, index) => {
    const change = changes[index];
    if (change === null || change === undefined || change.before === null) return;
    const lines = urlLinesOf(origin.origin, watchedLines);
    if (lines.length === 0) return;
    for (const flip of changeFlips(change, agents, lines, reading)) {
      const said = `robotstxt fetch: ${origin.origin} changed (${flip.before.firstSeen} -> ${flip.after.firstSeen}), ${flip.agent}: `;
      for (const url of flip.newlyDisallowed) { flips++; stderr(said + terminalSafe(flipLine('newly disallowed', url)) + '\n'); }
      for (const url of flip.newlyAllowed) { flips++; stderr(said + terminalSafe(flipLine('newly allowed', url)) + '\n'); }
    }
  });
  // a watched URL of an origin this run did not fetch is said, never passed over in silence
  const unwatched = linesOfOtherOrigins(watchedLines, new Set(list.map((origin) => origin.origin)));
  if (unwatched.length > 0) stderr(`robotstxt fetch: --fail-on-change: ${unwatched.length} line(s) of ${watched} name no origin this run fetched, so no change of theirs was looked for: ${unwatched.slice(0, 5).map((entry) => `line ${entry.line} (${terminalSafe(entry.text.slice(0, 200))})`).join(', ')}${unwatched.length > 5 ? ', ...' : ''}\n`);
  if (flips === 0) return 0;
  stderr(`robotstxt fetch: --fail-on-change: ${flips} verdict(s) of ${watched} changed\n`);
  return 1;
}
