// What the many-host matcher is given and gives back: its options, its counters, a chunk's result and format.
import type { OutputFilter } from '../../core/matcher.js';
import type { RobotsMode, RobotsReading, AgentQuery } from '../../core/robots.js';
import type { FullVerdict, MissingPolicy, RobotsSource } from './sources.js';

/** What a check thread needs to make its MultiHostMatcher over a robots directory or store (see matcherForSpec). */
export interface HostsSpec {
  directory: string;
  /** A pack file (robotstxt pack) instead of the directory: each thread opens it (src/node/pack/). */
  pack?: string | null;
  agents: string[];
  /** How the files are read (the mode, and how much of each). */
  reading: RobotsReading;
  /** This thread's share of the budget. */
  cacheBytes: number;
  missing: MissingPolicy;
  /** Lines that name no host: a verdict, or error (check stops at the first, naming its line: the matcher answers it allowed meanwhile). */
  noHost: FullVerdict | 'error';
  /** The time (ms since the epoch) stored fetch records are judged at (robotsFromDirectory's now). */
  now: number;
}

export interface MultiHostOptions {
  /** The product token(s) to check, e.g. 'Googlebot' (several: their groups are pooled). */
  agents: AgentQuery;
  /** Bodies by host: robotsFromDirectory(dir), robotsFromMap(map), or your own function. */
  source: RobotsSource;
  mode?: RobotsMode;
  /** Bytes of each body that are read (default 512,000; 0 = all). */
  maxBytes?: number;
  /** Budget for everything cached hosts hold: compiled matchers, automaton regions, host tables (default 64 MiB; 1 MiB to 3 GiB). */
  cacheBytes?: number;
  /** Hosts without a robots.txt: allow (default), disallow, or error (NO_ROBOTS naming the origin). */
  missing?: MissingPolicy;
  /** Lines that name no host (no http(s) URL, a host the URL parser refuses): allow or disallow (default: missing's verdict; allow when missing is error). */
  noHost?: FullVerdict;
  /** Asynchronous sources: how many bodies are awaited at once (default 16). */
  concurrency?: number;
  /** Asynchronous sources: how long one answer may take, in ms (default 60,000; 1 to 3,600,000); then SOURCE_FAILED naming the origin. */
  sourceTimeoutMs?: number;
}

/** What a MultiHostMatcher did so far. */
export interface MultiHostStats {
  /** Lines answered. */
  lines: number;
  /** Hosts whose robots.txt was compiled (a host evicted and met again counts again). */
  compiled: number;
  /** Hosts whose lines were answered straight from their robots.txt, never compiled (a host met again counts again). */
  direct: number;
  /** Hosts looked up that had no robots.txt (the source knew nothing of them: the missing policy). */
  missing: number;
  /** Hosts the source answered ALLOW_ALL (a stored 4xx) and DISALLOW_ALL (stored as unreachable). */
  allowAll: number;
  disallowAll: number;
  /** Compiled hosts dropped to stay within the budget. */
  evicted: number;
  /** Hosts whose rules came compiled already (a pack's blob): answered where they lie in the pack's rules held for the agent, else kept as read or, for a host met once, read into the landing block for a round. */
  packed: number;
  /** Bytes of a pack held for the agent: its rules and index (when they fit half the budget, read once when the matcher opened; 0: none). */
  packHeldBytes: number;
  /** Compiles of bodies longer than maxBytes, read only up to there (a host compiled again counts again). */
  cutBodies: number;
  /** Lines that named no host (relative URLs, no scheme, bad host names). */
  noHostLines: number;
  /** The first origins (at most 5) the source knew nothing of (counted in `missing`). */
  missingOrigins: string[];
  /** The first origins (at most 5) whose robots.txt was longer than maxBytes (read in part), by this thread. */
  cutOrigins: string[];
  /** Hosts with a compiled matcher now. */
  cachedHosts: number;
  /** Bytes counted against the budget now. */
  cacheBytes: number;
  /** The budget. */
  budgetBytes: number;
}

/** Output of a chunk: its verdict bytes (1 allowed, 2 disallowed, in input order) and the formatted lines. */
export interface HostChunkResult {
  verdicts: Uint8Array;
  output: Uint8Array;
  /** Lines that named no host (answered by the noHost policy), and the first of them (at most 5; line indexes in the chunk). */
  noHostLines: number;
  noHostExamples: number[];
  /** Hosts of the chunk answered by a compiled matcher (hosts without a robots.txt and lines without a host not counted). */
  hosts: number;
  /** Runs of consecutive lines with the same host: about `hosts` for input sorted by host, about the line count in random order. */
  runs: number;
  /** The chunk's lines came sorted by host (comesSortedByHost: two lines an origin or more, about one run an origin). */
  sortedByHost: boolean;
}

/** How a chunk is formatted: text lines (see check) or jsonl with the deciding rules, all lines or `only` those of one verdict. */
export interface HostChunkFormat {
  format: 'none' | 'text' | 'jsonl';
  only?: OutputFilter;
  /** jsonl "input" numbers: firstNumber + line index (default 1), or numbers[line index]. */
  firstNumber?: number;
  numbers?: Uint32Array | null;
  /**
   * Text and jsonl output: written into this buffer when it fits (the result's output is then a view of it,
   * valid until the buffer is reused), else into a new one. For callers that answer chunk after chunk.
   */
  into?: Uint8Array | null;
  /**
   * No lines come after these (the last chunk of an input): hosts new to the cache are answered from their
   * body without being kept (no cache memory touched for them). Default false.
   */
  last?: boolean;
}
