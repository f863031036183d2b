// The Noindex: lines of a robots.txt. They were never part of any standard (RFC 9309 has none) and Google
// stopped reading them in September 2019: a site that writes `Noindex: /drafts/` still has its drafts
// indexable. robotstxt pages says which page such a line was meant for (the trap "noindex in robots.txt");
// lint flags the line itself. Any runtime.
//
// Worst case: the lines' paths are one matcher (pathsMatcher: assembly/match.ts's worst case); one call of it
// per URL.
import { pathsMatcher, PATHS_FIRST_LINE, type RobotsMatcher } from './matcher.js';
import type { AgentQuery, RobotsTxt } from './robots.js';

/** A Noindex: line of a robots.txt: its line number and its path as written. */
export interface RobotsNoindexLine {
  line: number;
  value: string;
}

const latin1 = new TextDecoder('latin1');

/**
 * The Noindex: lines a robots.txt addresses to an agent query (its groups' lines, and lines before the first
 * group), matched against URLs as Disallow paths are (the longest match decides). Made once per file and
 * agent by robotstxt pages, asked per page; close() gives back the matcher's memory.
 */
export class RobotsNoindex {
  /** The lines, in file order. */
  readonly lines: readonly RobotsNoindexLine[];
  private readonly paths: RobotsMatcher | null;

  constructor(robots: RobotsTxt, agents: AgentQuery) {
    const firstAgentLine = robots.groups[0]?.agents[0]?.line ?? Infinity;
    const lines = [
      ...robots.otherDirectives.filter((other) => other.line < firstAgentLine),
      ...robots.groupsFor(agents).flatMap((group) => group.others),
    ].filter((other) => other.isKey('noindex')).sort((a, b) => a.line - b.line);
    this.lines = lines.map((other) => ({ line: other.line, value: other.value.trim() }));
    // the values' bytes as written; a Noindex: without a path matches nothing (as an empty Disallow)
    this.paths = lines.length === 0 ? null : pathsMatcher(lines.map((other) => latin1.decode(other.rawValue).trim()), robots.mode === 'rfc');
  }

  /** The Noindex: line whose path matches the URL (the longest; null when none does). Per URL. */
  lineFor(url: string | URL | Uint8Array): RobotsNoindexLine | null {
    if (this.paths === null) return null;
    const rule = this.paths.explain(url).rule;
    return rule === null || rule.kind === 'allow' ? null : this.lines[rule.line - PATHS_FIRST_LINE] ?? null;
  }

  /** Gives back the matcher's WebAssembly memory. Idempotent. */
  close(): void {
    this.paths?.close();
  }
}
