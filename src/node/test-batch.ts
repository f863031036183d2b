// Many `robotstxt test` questions in one process: JSON lines in, one JSON answer per line out, in order.
// For benchmarks and conformance runs, which ask hundreds of thousands of (robots.txt, agent, URL) questions
// and would otherwise pay a process start per question. Robots files are parsed once and each one's matcher
// per agent query compiled once, both kept in one cache of cacheBytes (least recently used out: a matcher
// dropped from it is closed), so that a batch of any number of files and agents stays within it.
import { isAbsolute, relative, resolve } from 'node:path';
import { RobotsError, LIBRARY_OPTION_WORDS, type OptionWords } from '../core/errors.js';
import type { RobotsMode, RobotsReading, RobotsTxt } from '../core/robots.js';
import { readRobotsLikeRobotsMain } from './robots-file.js';
import { parseRobots } from '../core/robots.js';
import { LruCache } from '../core/lru-cache.js';
import type { RobotsMatcher, Explanation } from '../core/matcher.js';
import { DEFAULT_CACHE_BYTES, MAX_CACHE_BYTES } from '../core/constants.js';
import { optionsArgument, describe, maxBytesArgument } from '../core/arguments.js';

/** One question: a robots.txt file (`robots`, a path under the batch's root) or its text (`robotsText`), the agent or agents, the URL, and optionally the mode. */
export interface TestCase {
  robots?: string;
  robotsText?: string;
  agent: string | string[];
  url: string;
  mode?: RobotsMode;
}

/** The answer to one question: the verdict and the line of the rule that decided it (null when none did), or why the line could not be answered. */
export type TestCaseAnswer =
  | { verdict: 'allowed' | 'disallowed'; line: number | null }
  | { error: { code: string; message: string } };

/**
 * The environment variable naming the default robots folder of `robotstxt test --batch`: set by a conformance
 * run for its batch command (which runs in the user's folder and names case files by absolute path).
 */
export const ROBOTS_ROOT_VARIABLE = 'ROBOTSTXT_ROBOTS_ROOT';

/** TestBatch's options. */
export interface TestBatchOptions {
  /** The folder `robots` paths are read under (relative paths start there; a path that leaves it is refused). */
  root: string;
  /** How files are read: the mode of cases that name none, and the bytes of each file read (default google and 0, the whole file, as robots_main and `robotstxt test` read it). */
  reading?: RobotsReading;
  /** Memory for the parsed robots.txt files and compiled matchers kept between cases (default 64 MiB; 1 MiB to 3 GiB). */
  cacheBytes?: number;
  /** How an error answer names an option it is about (default: by its name here, `root`; the command line gives its flags). */
  optionWords?: OptionWords;
}

/** What the batch keeps between cases: a parsed file, or one file's compiled matcher for one agent field. */
type Kept = { robots: RobotsTxt; matcher: null } | { robots: null; matcher: RobotsMatcher };

/**
 * Bytes a kept entry costs (besides its key, which the cache counts): a parsed file holds its body and, when
 * asked, its objects (about 4 bytes per body byte); a matcher its compiled rules, and a copy of them in the
 * WebAssembly heap once used twice (both measured after its first answer). An upper bound: measured after a
 * full collection, 300,000 distinct small bodies kept 12 MiB where the cache counted 64.
 */
function keptBytes(kept: Kept): number {
  return kept.robots !== null ? kept.robots.bytesRead * 4 + 4096 : kept.matcher.blob.length * 2 + 1024;
}

const CASE_KEYS = new Set(['robots', 'robotsText', 'agent', 'url', 'mode']);
/** Resolved `robots` paths remembered (then forgotten all at once): a batch names far fewer files than this. */
const MAX_REMEMBERED_PATHS = 100_000;

/** Answers test cases one JSON line at a time. One per batch; called once per input line. */
export class TestBatch {
  private readonly root: string;
  private readonly optionWords: OptionWords;
  private readonly mode: RobotsMode;
  private readonly maxBytes: number;
  /** Parsed files by `<mode>:<path>` or `<mode>\n<body>`, and matchers by `<file number>\0<agent field>`. */
  private readonly kept: LruCache<Kept>;
  /** Cases answered, and those answered with an error. */
  readonly counts = { cases: 0, errors: 0 };
  /** Each `robots` value as written -> its resolved path inside the root (checked once). */
  private readonly paths = new Map<string, string>();
  /** A number per parsed file, for its matchers' keys (a body given as text is not repeated in them). */
  private readonly fileNumbers = new WeakMap<RobotsTxt, number>();
  private nextFileNumber = 0;

  constructor(options: TestBatchOptions) {
    optionsArgument(options, ['root', 'reading', 'cacheBytes', 'optionWords'], 'TestBatch options');
    this.optionWords = options.optionWords ?? LIBRARY_OPTION_WORDS;
    if (typeof options.root !== 'string' || options.root === '') throw new RobotsError('INVALID_ARGUMENT', `root must be a folder path, got ${describe(options.root)}`);
    this.root = resolve(options.root);
    const reading = options.reading ?? { mode: 'google', maxBytes: 0 };
    this.mode = reading.mode;
    if (this.mode !== 'google' && this.mode !== 'rfc') throw new RobotsError('INVALID_ARGUMENT', `reading.mode must be google or rfc, got ${describe(reading.mode)}`);
    this.maxBytes = maxBytesArgument(reading.maxBytes, 0);
    const cacheBytes = options.cacheBytes ?? DEFAULT_CACHE_BYTES;
    if (!Number.isInteger(cacheBytes) || cacheBytes < 1 << 20 || cacheBytes > MAX_CACHE_BYTES) throw new RobotsError('INVALID_ARGUMENT', `cacheBytes must be a whole number from 1048576 to ${MAX_CACHE_BYTES}, got ${describe(options.cacheBytes)}`);
    this.kept = new LruCache<Kept>(cacheBytes, keptBytes, (kept) => kept.matcher?.close());
  }

  /** Bytes the batch keeps now (parsed files and compiled matchers), and its budget. */
  get cacheBytes(): { used: number; budget: number } {
    return { used: this.kept.bytes, budget: this.kept.maxBytes };
  }

  /** Closes every matcher the batch keeps (their WebAssembly memory goes back). Answering after it starts afresh. */
  close(): void {
    for (const kept of this.kept.values()) kept.matcher?.close();
    this.kept.clear();
  }

  /** close(), for `using`. */
  [Symbol.dispose](): void {
    this.close();
  }

  /** The answer line (JSON, no newline) to one input line. Never throws: a bad line is answered with an error object. */
  answerLine(line: string): string {
    const answer = this.answerOf(() => {
      try {
        return JSON.parse(line) as unknown;
      } catch (error) {
        throw new RobotsError('BAD_CASE', `not a JSON object: ${(error as Error).message}`);
      }
    });
    return 'verdict' in answer ? `{"verdict":"${answer.verdict}","line":${answer.line}}` : JSON.stringify(answer);
  }

  /** The answer to one case (an object as TestCase describes). */
  answer(testCase: unknown): TestCaseAnswer {
    return this.answerOf(() => testCase);
  }

  /** Counts a case and answers it; an error reading or answering it becomes its answer. */
  private answerOf(caseOf: () => unknown): TestCaseAnswer {
    this.counts.cases++;
    try {
      const { robots, agent, url } = this.read(caseOf());
      const explanation = this.explain(robots, agent, url);
      return { verdict: explanation.allowed ? 'allowed' : 'disallowed', line: explanation.rule?.line ?? null };
    } catch (error) {
      this.counts.errors++;
      if (error instanceof RobotsError) return { error: { code: error.code, message: error.sayOption(this.optionWords) } };
      return { error: { code: 'INTERNAL', message: (error as Error).message } };
    }
  }

  /**
   * A robots.txt's answer for a case's agent field as given (a string, or an array of them): its matcher is
   * looked up without re-reading the agents, else compiled, and kept once its size is known (after it answered).
   */
  private explain(robots: RobotsTxt, agent: string | string[], url: string): Explanation {
    let number = this.fileNumbers.get(robots);
    if (number === undefined) this.fileNumbers.set(robots, (number = this.nextFileNumber++));
    const key = `${number}\0${typeof agent === 'string' ? agent : JSON.stringify(agent)}`;
    const kept = this.kept.get(key)?.matcher;
    // (a matcher is shared by the agent fields that select the same groups: closed with one of them, it is made again)
    if (kept !== undefined && kept !== null && !kept.closed) return kept.explain(url);
    const matcher = robots.matcher(agent);
    const explanation = matcher.explain(url);
    this.kept.set(key, { robots: null, matcher });
    return explanation;
  }

  /** The case's parsed robots.txt, agent field and URL; BAD_CASE (or the file's own error) when it cannot be answered. */
  private read(testCase: unknown): { robots: RobotsTxt; agent: string | string[]; url: string } {
    if (typeof testCase !== 'object' || testCase === null || Array.isArray(testCase)) throw new RobotsError('BAD_CASE', 'a case is a JSON object with "robots" or "robotsText", "agent" and "url"');
    const fields = testCase as Record<string, unknown>;
    const unknown = Object.keys(fields).filter((key) => !CASE_KEYS.has(key));
    if (unknown.length > 0) throw new RobotsError('BAD_CASE', `unknown field "${unknown[0]}" (fields: robots or robotsText, agent, url, mode)`);
    const { robots, robotsText, agent, url, mode = this.mode } = fields;
    if ((robots === undefined) === (robotsText === undefined)) throw new RobotsError('BAD_CASE', 'a case needs exactly one of "robots" (a file) and "robotsText" (the body)');
    if (robots !== undefined && (typeof robots !== 'string' || robots === '')) throw new RobotsError('BAD_CASE', '"robots" must be a non-empty string (a path)');
    if (robotsText !== undefined && typeof robotsText !== 'string') throw new RobotsError('BAD_CASE', '"robotsText" must be a string');
    if (typeof agent !== 'string' && !(Array.isArray(agent) && agent.length > 0 && agent.every((item) => typeof item === 'string'))) throw new RobotsError('BAD_CASE', '"agent" must be a string or a non-empty array of strings');
    if (typeof url !== 'string') throw new RobotsError('BAD_CASE', '"url" must be a string');
    if (mode !== 'google' && mode !== 'rfc') throw new RobotsError('BAD_CASE', `"mode" must be "google" or "rfc", got ${JSON.stringify(mode)}`);
    return { robots: robots !== undefined ? this.file(robots as string, mode) : this.text(robotsText as string, mode), agent: agent as string | string[], url };
  }

  /** A robots file under the root, parsed once (kept while it fits the cache). */
  private file(path: string, mode: RobotsMode): RobotsTxt {
    let full = this.paths.get(path);
    if (full === undefined) {
      full = resolve(this.root, path);
      const inside = relative(this.root, full);
      if (inside === '' || inside.startsWith('..') || isAbsolute(inside)) throw RobotsError.about('BAD_CASE', { name: 'root' }, (option) => `"robots" ${JSON.stringify(path)} is outside the robots folder ${this.root} (see ${option})`);
      if (this.paths.size >= MAX_REMEMBERED_PATHS) this.paths.clear();
      this.paths.set(path, full);
    }
    const key = `${mode}:${full}`;
    let robots = this.kept.get(key)?.robots;
    if (robots === undefined || robots === null) {
      robots = readRobotsLikeRobotsMain(full, { mode, maxBytes: this.maxBytes });
      this.kept.set(key, { robots, matcher: null });
    }
    return robots;
  }

  /** A robots.txt given as text, parsed once per distinct text (kept while it fits the cache). */
  private text(body: string, mode: RobotsMode): RobotsTxt {
    const key = `${mode}\n${body}`; // (a file's key has a colon after the mode, a matcher's a number first)
    let robots = this.kept.get(key)?.robots;
    if (robots === undefined || robots === null) {
      robots = parseRobots(body, { mode, maxBytes: this.maxBytes });
      this.kept.set(key, { robots, matcher: null });
    }
    return robots;
  }
}
