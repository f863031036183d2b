// Where an audit's rules come from: one question, "which rules were in force for this origin at this time?",
// answered for a file, a function of the origin, a folder or store (one file per host, parsed files kept in
// a budget) and a history (the version in force, and the one before it within 24 h of a change). RobotsAudit
// asks it once per request and knows no other door.
import { RobotsError } from '../../core/errors.js';
import { NO_HELD_FILES, ParsedRobotsCache, type HeldFiles } from '../../core/parsed-robots-cache.js';
import { parseRobots, type RobotsReading, type RobotsTxt } from '../../core/robots.js';
import type { UrlOrigin } from '../../core/url-model.js';
import { ALLOW_ALL, DEFAULT_CACHE_BYTES, DISALLOW_ALL, FULL_VERDICT_BODY, NO_RULES_KNOWN, robotsFromDirectory, robotsHostOf, type RobotsSourceAnswer } from '../hosts/index.js';
import type { VersionsAt } from '../history/index.js';

/** The rules in force for a request: `current` judges it (its robots null: no robots.txt, every URL allowed; `current` null: no rules known), and `previous`, within 24 h after a change, the version before. */
export interface RulesInForce {
  readonly current: { readonly robots: RobotsTxt | null } | null;
  readonly previous: { readonly robots: RobotsTxt } | null;
}

/** What rules a robotsFor function gives: a file, null (no robots.txt: allowed) or NO_RULES_KNOWN. */
export type RobotsFor = (origin: UrlOrigin | null) => RobotsTxt | null | typeof NO_RULES_KNOWN;

/**
 * The rules an audit judges by (see the file's head). A history's (`versioned`) gives RobotsVersion objects as
 * `current`, counted by version; its cache hands versions it drops to the audit (holdDropped once, closeDropped
 * after each judged batch, mustCloseDropped when they wait past their bound). Other sources keep nothing open.
 */
export interface AuditRules extends HeldFiles {
  /** The rules in force for a request of origin (null: its line names no host) at timeMs (null: its line has no time). Per request. */
  at(origin: UrlOrigin | null, timeMs: number | null): RulesInForce;
  readonly versioned: boolean;
}

/**
 * What an audit asks of a history (RobotsHistory and StoreHistory are ones): the versions that judge a request,
 * and the hand-off of versions its cache drops while requests wait to be judged by them (held from the audit's
 * start, closed after each judged batch, judged at once past their bound).
 */
export interface AuditHistory extends HeldFiles {
  versionsAt(origin: UrlOrigin, timeMs: number): VersionsAt;
}

const NOT_KNOWN: RulesInForce = Object.freeze({ current: null, previous: null });
const NO_ROBOTS_TXT: RulesInForce = Object.freeze({ current: Object.freeze({ robots: null }), previous: null });

/** A file, null or NO_RULES_KNOWN as the rules in force (one object per file, kept while the file lives). */
const answers = new WeakMap<RobotsTxt, RulesInForce>();
function inForce(robots: RobotsTxt | null | typeof NO_RULES_KNOWN): RulesInForce {
  if (robots === null) return NO_ROBOTS_TXT;
  if (robots === NO_RULES_KNOWN) return NOT_KNOWN;
  let answer = answers.get(robots);
  if (answer === undefined) answers.set(robots, answer = Object.freeze({ current: Object.freeze({ robots }), previous: null }));
  return answer;
}

/** Rules answered by `at` whose parsed files `files` keeps (held and closed as the audit says), versioned or not. */
function rulesHolding(at: AuditRules['at'], files: HeldFiles, versioned = false): AuditRules {
  return {
    at, versioned,
    holdDropped: () => files.holdDropped(),
    closeDropped: () => files.closeDropped(),
    get mustCloseDropped() { return files.mustCloseDropped; },
  };
}

/** The rules robotsFor gives each origin, at every time (audit --robots: one file; tests and programs: any function). */
export function rulesOf(robotsFor: RobotsFor): AuditRules {
  if (typeof robotsFor !== 'function') throw new RobotsError('INVALID_ARGUMENT', 'robotsFor must be a function of the origin');
  return rulesOfTimed((origin) => robotsFor(origin));
}

/**
 * The rules robotsAt gives each origin at each request's time (audit --pack: the capture in force then; a
 * request without a time gets the newest), and the files robotsAt's cache drops (closed after each judged
 * batch; by default it closes none). Per request.
 */
export function rulesOfTimed(robotsAt: (origin: UrlOrigin | null, timeMs: number | null) => RobotsTxt | null | typeof NO_RULES_KNOWN, files: HeldFiles = NO_HELD_FILES): AuditRules {
  if (typeof robotsAt !== 'function') throw new RobotsError('INVALID_ARGUMENT', 'robotsAt must be a function of the origin and the time');
  // most requests of a log meet the file the request before met: its answer is kept at hand
  let lastRobots: RobotsTxt | null | typeof NO_RULES_KNOWN | undefined;
  let lastAnswer: RulesInForce = NOT_KNOWN;
  const at: AuditRules['at'] = (origin, timeMs) => {
    const robots = robotsAt(origin, timeMs);
    if (robots !== lastRobots) {
      lastAnswer = inForce(robots);
      lastRobots = robots;
    }
    return lastAnswer;
  };
  return rulesHolding(at, files);
}

/** The versions of a history in force at each request's time (audit --robots-history, audit --store with versions). */
export function rulesOfHistory(history: AuditHistory): AuditRules {
  return rulesHolding((origin, timeMs) => (origin === null || timeMs === null ? NOT_KNOWN : history.versionsAt(origin, timeMs)), history, true);
}

/** How rulesOfDirectory reads a folder. */
export interface DirectoryRulesOptions {
  /** How the files are read (the mode, and how much of each). */
  reading: RobotsReading;
  /** Stored records are judged as of this time (ms). */
  nowMs?: number;
  /** A host without a file: its rules are not known (the default), or an error (NO_ROBOTS, naming the origin). */
  missing?: 'unknown' | 'error';
  /** Told when a file cannot be read (its host's rules are then not known), a sentence each (no prefix, no newline). */
  warn: (sentence: string) => void;
  /** Memory for parsed files (bytes, about; default DEFAULT_CACHE_BYTES): least recently used out, closed, and read again when met again. */
  cacheBytes?: number;
}

/** The rules of a folder, and each origin's current file (a store's versions fall back to it). */
export interface DirectoryRules extends AuditRules {
  robotsFor: RobotsFor;
}

/**
 * The files of a folder or store, one per host, as check --robots-dir reads them (robotsFromDirectory: a
 * store's record of no robots.txt allows all, of an unreachable one disallows all): parsed files kept within
 * options.cacheBytes (DEFAULT_CACHE_BYTES), least recently used out and closed (after the batch that may still
 * use them, for an audit: holdDropped), read again when met again. audit --robots-dir and --store.
 */
export function rulesOfDirectory(directory: string, options: DirectoryRulesOptions): DirectoryRules {
  const { reading, warn } = options;
  // the one cache of parsed files: what it drops is closed (held while an audit's batch may still use it)
  const cacheBytes = options.cacheBytes ?? DEFAULT_CACHE_BYTES;
  if (!Number.isSafeInteger(cacheBytes) || cacheBytes < 1) throw RobotsError.about('INVALID_ARGUMENT', { name: 'cacheBytes', value: String(cacheBytes) }, (said) => `${said}: the memory for parsed files must be a whole number of bytes from 1`);
  const cache = new ParsedRobotsCache<RulesInForce>(cacheBytes, (answer) => answer.current?.robots ?? null, (answer) => 4 * (answer.current?.robots?.bytesRead ?? 0));
  const source = robotsFromDirectory(directory, { maxBytes: reading.maxBytes, now: options.nowMs });
  const read = (origin: UrlOrigin): RulesInForce => {
    let body: Exclude<RobotsSourceAnswer, Promise<RobotsSourceAnswer>>;
    try {
      body = source(robotsHostOf(origin)) as Exclude<RobotsSourceAnswer, Promise<RobotsSourceAnswer>>;
    } catch (error) {
      // a file that cannot be read (a folder or FIFO by its name, no permission): said, and its host's rules are not known
      if (!(error instanceof RobotsError) || error.code !== 'FILE_UNREADABLE') throw error;
      warn(`${error.message}: the requests of ${origin.origin} have no rules known`);
      body = null;
    }
    if (body === null && options.missing === 'error') throw RobotsError.about('NO_ROBOTS', { name: 'missing', value: 'error' }, (option) => `no robots.txt known for ${origin.origin} (no file or store record of it in ${directory}; ${option})`);
    // a stored outcome: every URL allowed (no robots.txt) or disallowed (unreachable)
    if (body === null) return NOT_KNOWN;
    if (body === ALLOW_ALL) return NO_ROBOTS_TXT;
    return { current: { robots: parseRobots(body === DISALLOW_ALL ? FULL_VERDICT_BODY.disallow : (body as Uint8Array).slice(), reading) }, previous: null };
  };
  const at = (origin: UrlOrigin | null): RulesInForce => {
    if (origin === null) return NOT_KNOWN;
    let answer = cache.get(origin.origin);
    if (answer === undefined) cache.set(origin.origin, answer = read(origin));
    return answer;
  };
  const robotsFor: RobotsFor = (origin) => {
    const current = at(origin).current;
    return current === null ? NO_RULES_KNOWN : current.robots;
  };
  return Object.assign(rulesHolding(at, cache), { robotsFor });
}
