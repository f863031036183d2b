// What each change of an origin's robots.txt did: for consecutive versions a store keeps (src/node/store/store.ts), the
// URLs of a list whose verdict flips, per agent (RobotsDiff, as robotstxt diff reports it). Used by
// robotstxt history and fetch --fail-on-change.
import { parseRobots, type RobotsReading } from '../../core/robots.js';
import { RobotsDiff, type ChangedUrl } from '../../core/diff.js';
import { readStoredVersions, type StoredVersion, type StoredVersions, type VersionChange as StoreVersionChange } from '../store/index.js';
import { RobotsError } from '../../core/errors.js';
import { storedVersionBody, FULL_VERDICT_BODY } from '../hosts/index.js';
import { originOf, type UrlOrigin } from '../../core/url-model.js';
import { forEachChunk, chunkLines } from '../logs/index.js';

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
export function versionChanges(directory: string, key: string, agents: readonly string[], urlLines: Uint8Array, reading: RobotsReading, fromIndex = 1): VersionChange[] {
  const stored = readStoredVersions(directory, key);
  if (stored === null || stored.versions.length < 2) return [];
  const changes: VersionChange[] = [];
  const parsed = stored.versions.map((version) => parseRobots(storedVersionBody(directory, key, version, reading.maxBytes), reading));
  try {
    for (let i = Math.max(1, fromIndex); i < stored.versions.length; i++) {
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
export async function readUrlFile(path: string): Promise<string[]> {
  const lines: string[] = [];
  await forEachChunk(path, 'URL file', (chunk) => { for (const line of chunkLines(chunk)) if (line.trim() !== '') lines.push(line.trim()); });
  return lines;
}

/**
 * Of a URL file's lines, those that concern an origin as URL lines: its absolute URLs, as the URL model reads
 * their origin (any case, a default port, a trailing dot, an IDN in Unicode), and paths (starting with /) made
 * its URLs. Per origin asked.
 */
export function urlLinesOf(origin: string, lines: readonly string[]): Uint8Array {
  const own = lines.filter((line) => line.startsWith('/') || originOf(line)?.origin === origin).map((line) => (line.startsWith('/') ? `${origin}${line}` : line));
  return Buffer.from(own.length === 0 ? '' : own.join('\n') + '\n');
}

/** The absolute URLs of a URL file's lines whose origin (the URL model's) is none of `origins`, with their line numbers: watched, but not by this run. */
export function linesOfOtherOrigins(lines: readonly string[], origins: ReadonlySet<string>): { line: number; text: string }[] {
  const other: { line: number; text: string }[] = [];
  lines.forEach((text, i) => {
    if (text.startsWith('/')) return;
    const origin = originOf(text);
    if (origin === null || !origins.has(origin.origin)) other.push({ line: i + 1, text });
  });
  return other;
}

/**
 * The verdict flips of one change a store made (RobotsStore.write's VersionChange: the version in force before,
 * with its bytes, and the new one), per agent, over URL lines. A version without a body stands for its effect
 * (allow all, disallow all); no version before: the flips from allow all. Per change.
 */
export function changeFlips(change: StoreVersionChange, agents: readonly string[], urlLines: Uint8Array, reading: RobotsReading): VersionChange[] {
  const bodyOf = (side: { version: StoredVersion; body: Uint8Array | null } | null): Uint8Array | string => {
    if (side === null) return FULL_VERDICT_BODY.allow;
    if (side.version.effect === 'rules') return side.body ?? FULL_VERDICT_BODY.allow;
    return side.version.effect === 'disallow-all' ? FULL_VERDICT_BODY.disallow : FULL_VERDICT_BODY.allow;
  };
  const before = parseRobots(bodyOf(change.before), reading);
  const after = parseRobots(bodyOf(change.after), reading);
  try {
    return agents.map((agent) => {
      const diff = new RobotsDiff(before.matcher(agent), after.matcher(agent));
      diff.addLines(urlLines);
      const report = diff.report();
      return { agent, before: change.before?.version ?? change.after.version, after: change.after.version, newlyDisallowed: report.newlyDisallowed, newlyAllowed: report.newlyAllowed };
    });
  } finally {
    before.close();
    after.close();
  }
}

/** An origin named to a command of a store's versions (history, diff --store --origin), found in the store. */
export interface OriginInStore {
  origin: UrlOrigin;
  versions: StoredVersions;
}

/**
 * The one reading of an origin argument for the store's versions: a URL or origin names its scheme; a host
 * (`example.com`, `host:port`) means `scheme` (https unless given), and when the store keeps no versions there
 * but keeps them for the same host under the other scheme (its port kept), that origin. INVALID_ARGUMENT when
 * it names no origin, or the store keeps no versions of it (naming the other scheme's when the scheme was
 * named and that one has some). Per command run.
 */
export function originInStore(store: string, named: string, options: { scheme?: 'https' | 'http' } = {}): OriginInStore {
  const schemeNamed = named.includes('://') || options.scheme !== undefined;
  let origin = originOf(named.includes('://') ? named : `${options.scheme ?? 'https'}://${named}/`);
  if (origin === null) throw new RobotsError('INVALID_ARGUMENT', `'${named}' names no origin (a URL such as https://example.com, or a host)`);
  const stored = readStoredVersions(store, origin.fileKey);
  if (stored !== null) return { origin, versions: stored };
  // the same host under the other scheme (its port kept when it names one): a host alone is found there; a scheme named is said
  const other = originOf(`${origin.scheme === 'https' ? 'http' : 'https'}://${origin.hostKey}/`);
  const otherStored = other === null ? null : readStoredVersions(store, other.fileKey);
  if (other === null || otherStored === null) throw new RobotsError('INVALID_ARGUMENT', `the store '${store}' keeps no versions of ${origin.origin} (fetch it into the store first)`);
  if (schemeNamed) throw new RobotsError('INVALID_ARGUMENT', `the store '${store}' keeps no versions of ${origin.origin}, but ${otherStored.versions.length} of ${other.origin} (name ${other.origin})`);
  origin = other;
  return { origin, versions: otherStored };
}

/**
 * The URL lines of a chunk that belong to an origin (a path starting with `/` is taken as the origin's, an
 * absolute URL by the URL model's origin), and how many lines named another origin or none: what a
 * comparison of one origin's versions reads, and what it leaves out. Per chunk.
 */
export function ownOriginLines(chunk: Uint8Array, origin: string): { lines: Uint8Array; other: number; firstOther: string | null } {
  const text = new TextDecoder().decode(chunk);
  const own: string[] = [];
  let other = 0;
  let firstOther: string | null = null;
  for (const raw of text.split('\n')) {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (line === '') continue;
    if (line.startsWith('/') || originOf(line)?.origin === origin) own.push(line.startsWith('/') ? `${origin}${line}` : line);
    else {
      other++;
      firstOther ??= line;
    }
  }
  return { lines: Buffer.from(own.length === 0 ? '' : `${own.join('\n')}\n`), other, firstOther };
}
