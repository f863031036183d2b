// Conformance runs: another robots.txt implementation answers the same questions as this package's engine
// (which answers as the reference), and the differences are reported by class. The implementation is run
// through one of three contracts (runners.ts); the questions are the built-in suite
// (conformance-suite.ts) and cases generated from a folder of real robots.txt files. This module holds the
// case model, the generation, the comparison and the report's data; report.ts formats it.
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseRobots, type RobotsGroup } from '../../core/robots.js';
import { TestBatch } from '../test-batch.js';
import { RobotsError } from '../../core/errors.js';
import type { ConformanceCase, ConformanceClass } from '../../core/conformance-suite.js';

export type { ConformanceCase, ConformanceClass, ConformanceLabel } from '../../core/conformance-suite.js';

/** What an implementation answered for one case. */
export type ImplementationAnswer =
  | { verdict: 'allowed' | 'disallowed' }
  | { failure: 'timeout' | 'error'; detail: string };

/** A case with its body written to a file (`robots`: its name inside the cases folder). */
export interface PreparedCase extends ConformanceCase {
  robots: string;
}

/** One case's outcome: the reference's answer (this package's engine) beside the implementation's. */
export interface CaseOutcome {
  case: PreparedCase;
  /** The reference's verdict and the line of the rule that decided it (null when none did). */
  reference: { verdict: 'allowed' | 'disallowed'; line: number | null };
  got: ImplementationAnswer;
  agrees: boolean;
}

/** Counts for one class of behaviour, and its smallest differing case. */
export interface ClassSummary {
  class: ConformanceClass;
  cases: number;
  agreed: number;
  differed: number;
  /** Cases the implementation did not answer (timeouts, crashes, unreadable answers). */
  failed: number;
  /** Of the differing or failed cases, the one with the smallest body and URL: a minimal reproduction. */
  example: CaseOutcome | null;
  /** Ids of the standard (ID_) and Google-only cases that differ or failed. */
  differingIds: string[];
}

/** The whole run, for the report formats. */
export interface ConformanceReport {
  implementation: string;
  /** How it was run: the command, the batch command or the module. */
  contract: string;
  cases: number;
  agreed: number;
  differed: number;
  failed: number;
  /** Standard (ID_) cases and Google-only cases: how many and how many agreed; corpus cases likewise. */
  byLabel: { label: string; cases: number; agreed: number }[];
  byClass: ClassSummary[];
  outcomes: CaseOutcome[];
  /**
   * Which way the differing answers go: allowed where the reference disallows (the implementation fetches
   * what the site forbade) and disallowed where the reference allows (it leaves out what it may fetch).
   */
  direction: { allowsForbidden: number; forbidsAllowed: number };
  /** The first class (in the report's order) with a case that differs or failed, or null. */
  firstDifferingClass: ConformanceClass | null;
  speed: { implementationSeconds: number; referenceSeconds: number };
  sources: string[];
}

const CLASS_ORDER: ConformanceClass[] = ['line endings', 'BOM', 'comments and whitespace', 'keys and separators', 'typos', 'user-agent matching', 'groups', 'URL to path', 'percent-encoding', 'wildcards', 'end anchor ($)', 'longest match', 'empty values', 'index.html', 'robots.txt itself', 'long lines', 'large files', 'corpus'];

const encoder = new TextEncoder();
const bodyBytes = (body: string | Uint8Array): Uint8Array => (typeof body === 'string' ? encoder.encode(body) : body);

/**
 * Writes each distinct body once into `folder` (`case-N.txt`) and gives every case its file's name. Called
 * once per run; the folder is the working directory of batch commands.
 */
export function prepareCases(cases: readonly ConformanceCase[], folder: string): PreparedCase[] {
  mkdirSync(folder, { recursive: true });
  const files = new Map<string, string>();
  return cases.map((testCase) => {
    const body = bodyBytes(testCase.body);
    const key = Buffer.from(body).toString('latin1');
    let name = files.get(key);
    if (name === undefined) {
      name = `case-${files.size + 1}.txt`;
      writeFileSync(join(folder, name), body);
      files.set(key, name);
    }
    return { ...testCase, robots: name };
  });
}

/** The reference's answers (this package's engine, reading each file whole as robots_main does) and the seconds they took. */
export function referenceAnswers(cases: readonly PreparedCase[], folder: string): { answers: CaseOutcome['reference'][]; seconds: number } {
  const batch = new TestBatch({ root: folder });
  const started = performance.now();
  const answers = cases.map((testCase) => {
    const answer = batch.answer({ robots: testCase.robots, agent: testCase.agent, url: testCase.url });
    if ('error' in answer) throw new Error(`the engine could not answer case ${testCase.id}: ${answer.error.message}`);
    return answer;
  });
  return { answers, seconds: (performance.now() - started) / 1000 };
}

/** Largest robots.txt read from a folder for generated cases (the rest of the folder is still used). */
const MAX_CORPUS_FILE_BYTES = 4 << 20;

/**
 * Cases made from real robots.txt files: for rules of each file's groups, URLs that the rule should match
 * exactly, one byte past it, one byte short of it and with its case changed, asked for an agent the file
 * names and for one it does not. At most perFile cases a file, chosen evenly over its rules; files in name
 * order, at most `files` of them. Their class is the rule's feature (wildcards, `$`, escapes, else longest match).
 */
export function casesFromRobotsDir(directory: string, options: { perFile: number; files: number }): ConformanceCase[] {
  let names: string[];
  try {
    names = readdirSync(directory).filter((name) => !name.startsWith('.')).sort();
  } catch (error) {
    throw RobotsError.about('FILE_UNREADABLE', { name: 'robotsDirectory' }, (option) => `cannot read ${option} '${directory}': ${(error as Error).message}`);
  }
  const cases: ConformanceCase[] = [];
  let used = 0;
  for (const name of names) {
    if (used >= options.files) break;
    const path = join(directory, name);
    let stat;
    try {
      stat = statSync(path);
    } catch {
      continue;
    }
    if (!stat.isFile() || stat.size > MAX_CORPUS_FILE_BYTES) continue;
    const body = readFileSync(path);
    const made = casesOfFile(name, body, options.perFile);
    if (made.length === 0) continue;
    used++;
    cases.push(...made);
  }
  return cases;
}

/** Up to perFile cases from one file's rules (see casesFromRobotsDir). */
function casesOfFile(name: string, body: Uint8Array, perFile: number): ConformanceCase[] {
  const robots = parseRobots(body, { maxBytes: 0 });
  const rules: { group: RobotsGroup; pattern: string }[] = [];
  for (const group of robots.groups) for (const rule of group.rules) if (rule.value.length > 0 && rule.value.length < 2000) rules.push({ group, pattern: Buffer.from(rule.value).toString('latin1') }); // one char per byte (TextDecoder's latin1 is windows-1252)
  if (rules.length === 0) return [];
  const made: ConformanceCase[] = [];
  const wanted = Math.max(1, Math.ceil(perFile / 4));
  const step = Math.max(1, Math.floor(rules.length / wanted));
  for (let r = 0; r < rules.length && made.length < perFile; r += step) {
    const { group, pattern } = rules[r];
    // an agent the group names by a plain token (a line such as `MJ12bot` names the token `MJ`: asking for
    // it would test the token rule, not this rule), else one no group names (the `*` rules apply)
    const named = group.agents.find((agent) => !agent.global && agent.productToken !== '' && agent.productToken === agent.value)?.productToken;
    const agent = named ?? 'ConformanceBot';
    const exact = pathOfPattern(pattern);
    if (exact === null) continue;
    const variants = [exact, exact + 'z', exact.length > 1 ? exact.slice(0, -1) : exact + '/', swapCase(exact)];
    for (const [v, path] of variants.entries()) {
      if (made.length >= perFile) break;
      made.push({ id: `Corpus_${name}_${r + 1}_${v + 1}`, class: classOfPattern(pattern), label: 'corpus', body, agent, url: `https://example.com${path}` });
    }
  }
  return made;
}

/** A path the pattern matches exactly: `*` as one byte, `$` dropped, non-ASCII bytes escaped; null when it cannot start a path. */
function pathOfPattern(pattern: string): string | null {
  let path = '';
  for (let i = 0; i < pattern.length; i++) {
    const char = pattern[i];
    if (char === '$' && i === pattern.length - 1) break;
    if (char === '*') path += 'x';
    else if (char.charCodeAt(0) >= 0x80 || char.charCodeAt(0) <= 0x20 || char === '#') path += '%' + char.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0');
    else path += char;
  }
  if (!path.startsWith('/')) path = '/' + path;
  return path;
}

const swapCase = (text: string): string => text.replace(/[a-zA-Z]/g, (char) => (char === char.toLowerCase() ? char.toUpperCase() : char.toLowerCase()));

function classOfPattern(pattern: string): ConformanceClass {
  if (pattern.endsWith('$')) return 'end anchor ($)';
  if (pattern.includes('*')) return 'wildcards';
  if (/%|[^\x20-\x7e]/.test(pattern)) return 'percent-encoding';
  return 'longest match';
}

/** Compares the answers and builds the report's data. `answers[i]` is the implementation's answer to cases[i]. */
export function compareAnswers(
  implementation: { name: string; contract: string },
  cases: readonly PreparedCase[],
  reference: { answers: CaseOutcome['reference'][]; seconds: number },
  answers: readonly ImplementationAnswer[],
  implementationSeconds: number,
  sources: string[],
): ConformanceReport {
  const outcomes: CaseOutcome[] = cases.map((testCase, i) => {
    const got = answers[i];
    return { case: testCase, reference: reference.answers[i], got, agrees: 'verdict' in got && got.verdict === reference.answers[i].verdict };
  });
  const size = (outcome: CaseOutcome): number => bodyBytes(outcome.case.body).length + outcome.case.url.length + outcome.case.agent.length;
  const byClass: ClassSummary[] = [];
  for (const cls of CLASS_ORDER) {
    const inClass = outcomes.filter((outcome) => outcome.case.class === cls);
    if (inClass.length === 0) continue;
    const wrong = inClass.filter((outcome) => !outcome.agrees);
    const example = wrong.reduce<CaseOutcome | null>((best, outcome) => (best === null || size(outcome) < size(best) ? outcome : best), null);
    byClass.push({
      class: cls,
      cases: inClass.length,
      agreed: inClass.length - wrong.length,
      differed: wrong.filter((outcome) => 'verdict' in outcome.got).length,
      failed: wrong.filter((outcome) => 'failure' in outcome.got).length,
      example,
      differingIds: wrong.filter((outcome) => outcome.case.label !== 'corpus').map((outcome) => outcome.case.id),
    });
  }
  const byLabel = (['standard', 'google', 'corpus'] as const).map((label) => {
    const inLabel = outcomes.filter((outcome) => outcome.case.label === label);
    return { label, cases: inLabel.length, agreed: inLabel.filter((outcome) => outcome.agrees).length };
  }).filter((entry) => entry.cases > 0);
  const agreed = outcomes.filter((outcome) => outcome.agrees).length;
  const failed = outcomes.filter((outcome) => 'failure' in outcome.got).length;
  return {
    implementation: implementation.name,
    contract: implementation.contract,
    cases: outcomes.length,
    agreed,
    differed: outcomes.length - agreed - failed,
    failed,
    byLabel,
    byClass,
    outcomes,
    direction: {
      allowsForbidden: outcomes.filter((outcome) => 'verdict' in outcome.got && outcome.got.verdict === 'allowed' && outcome.reference.verdict === 'disallowed').length,
      forbidsAllowed: outcomes.filter((outcome) => 'verdict' in outcome.got && outcome.got.verdict === 'disallowed' && outcome.reference.verdict === 'allowed').length,
    },
    firstDifferingClass: byClass.find((entry) => entry.agreed < entry.cases)?.class ?? null,
    speed: { implementationSeconds, referenceSeconds: reference.seconds },
    sources,
  };
}
