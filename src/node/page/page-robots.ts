// The robots.txt in force for a page's origin, for robotstxt page and pages: one file for every origin
// (--robots, then owned by it), or each origin's from a folder of <host>.txt files, a store or a pack (--robots-dir, --store, --pack), parsed
// once per origin and kept (least recently used out, their memory given back), with what robots.txt's
// Noindex: lines say for the crawler. Per page: one look-up.
import { parseRobots, type RobotsReading, type RobotsTxt } from '../../core/robots.js';
import { RobotsNoindex } from '../../core/robots-noindex.js';
import { ParsedRobotsCache } from '../../core/parsed-robots-cache.js';
import type { UrlOrigin } from '../../core/url-model.js';
import { robotsFromDirectory, robotsHostOf, ALLOW_ALL, DISALLOW_ALL, FULL_VERDICT_BODY, type CompiledRules, type RobotsSource } from '../hosts/index.js';

/** What a page's origin has: its parsed robots.txt, its Noindex: lines for the crawler, and how it was found. */
export interface OriginRobots {
  robots: RobotsTxt;
  noindex: RobotsNoindex;
  /** file: a robots.txt; allow-all / disallow-all: a store's outcome (4xx; unreachable); missing: none known (every URL allowed). */
  found: 'file' | 'allow-all' | 'disallow-all' | 'missing';
}

/** Memory for parsed files of origins kept at once (their bodies' bytes, about): beyond it the least recently met go. */
const KEPT_BYTES = 64 << 20;

/**
 * The robots.txt of each origin for one crawler: from one file for all (`robots`), from a folder or store
 * (`directory`, read as check --robots-dir reads it), or from a source of bodies (`source`: a pack's). Made once per run; close() gives back every file's memory.
 */
export class PageRobots {
  private readonly single: OriginRobots | null;
  private readonly source: RobotsSource | null;
  /** The one cache of parsed files (ParsedRobotsCache): what it drops is closed, its noindex matcher first. */
  private readonly kept: ParsedRobotsCache<OriginRobots>;
  /** Origins met that the folder or store knows nothing of (their URLs allowed). */
  readonly missingOrigins = new Set<string>();

  constructor(private readonly options: { agent: string; reading: RobotsReading; nowMs: number } & ({ robots: RobotsTxt } | { directory: string } | { source: RobotsSource })) {
    this.kept = new ParsedRobotsCache<OriginRobots>(KEPT_BYTES, (entry) => entry.robots, (entry) => entry.robots.bytesRead + 1024, (entry) => entry.noindex.close());
    if ('robots' in options) {
      this.single = { robots: options.robots, noindex: new RobotsNoindex(options.robots, options.agent), found: 'file' };
      this.source = null;
    } else {
      this.single = null;
      this.source = 'source' in options ? options.source : robotsFromDirectory(options.directory, { maxBytes: options.reading.maxBytes, now: options.nowMs });
    }
  }

  /** The robots.txt in force for an origin. Per page (a folder's file is read once while it stays kept). */
  async forOrigin(origin: UrlOrigin): Promise<OriginRobots> {
    if (this.single !== null) return this.single;
    const kept = this.kept.get(origin.origin);
    if (kept !== undefined) return kept;
    const answer = await (this.source as RobotsSource)(robotsHostOf(origin));
    const { reading, agent } = this.options;
    let entry: OriginRobots;
    if (answer === null) {
      this.missingOrigins.add(origin.origin);
      entry = this.fullVerdict('allow', 'missing');
    } else if (answer === ALLOW_ALL) entry = this.fullVerdict('allow', 'allow-all');
    else if (answer === DISALLOW_ALL) entry = this.fullVerdict('disallow', 'disallow-all');
    else {
      // (a folder, a store and a pack's bodies give bodies: compiled rules come from robotsFromPack only)
      const robots = parseRobots(answer as Exclude<typeof answer, CompiledRules>, reading);
      entry = { robots, noindex: new RobotsNoindex(robots, agent), found: 'file' };
    }
    this.kept.set(origin.origin, entry);
    return entry;
  }

  private fullVerdict(verdict: 'allow' | 'disallow', found: OriginRobots['found']): OriginRobots {
    const robots = parseRobots(FULL_VERDICT_BODY[verdict], { mode: this.options.reading.mode });
    return { robots, noindex: new RobotsNoindex(robots, this.options.agent), found };
  }

  /** Gives back the memory of every file it holds (the one passed in with `robots` too). Idempotent. */
  close(): void {
    if (this.single !== null) closeOrigin(this.single);
    this.kept.close();
  }
}

function closeOrigin(entry: OriginRobots): void {
  entry.noindex.close();
  entry.robots.close();
}
