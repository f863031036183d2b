// robotstxt conformance: runs another robots.txt implementation over the built-in suite and cases made from
// real files, and reports where its verdicts differ from the reference's (this package's engine).
import { availableParallelism, tmpdir } from 'node:os';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parseCommand, usageError, type Command, type CommandSpec, type ParsedCommand } from './command-spec.js';
import { builtInSuite } from '../core/conformance-suite.js';
import { casesFromRobotsDir, compareAnswers, prepareCases, referenceAnswers, type ConformanceCase } from '../node/conformance/index.js';
import { batchImplementation, commandImplementation, contractSentence, moduleImplementation, stopAllChildren, type Implementation } from '../node/conformance/index.js';
import { reportHtml, reportJson, reportText } from '../node/conformance/index.js';
import { flagWords } from './option-words.js';
import { requireDirectory } from '../node/robots-file.js';

/** What conformance states about itself: its options (src/cli/command-spec.ts), usage, help and docs come from it. */
export const CONFORMANCE_SPEC = {
  name: 'conformance',
  options: {
    command: { type: 'string', value: "'<cmd>'", help: "Google's suite runner contract: one process per case, the template's\n%robots% (a file), %url% and %user-agent% replaced; exit 0 allowed,\n1 disallowed, anything else an error. Split into words like a shell (quotes\nallowed), run without a shell." },
    'batch-command': { type: 'string', value: "'<cmd>'", help: 'one process for all cases, started in the current folder: JSON lines in,\n{"robots": "<file>", "agent": "<token>", "url": "<url>"} (the absolute path of the\ncase\'s file; ROBOTSTXT_ROBOTS_ROOT names their folder), one JSON line out per case,\nin order, with "verdict": "allowed" or "disallowed" (robotstxt test --batch\nspeaks it)' },
    module: { type: 'string', value: '<file.mjs>', help: 'a JavaScript module exporting (as default, or as isAllowed) a function\n(robotsText, agent, url, robotsBytes) => boolean | Promise<boolean>, run in a\nworker thread' },
    suite: { type: 'string', choices: ['builtin', 'none'], fallback: 'builtin', help: `the built-in suite (default builtin): ${builtInSuite().length} cases written from the reference's\nmeasured behaviour, each labelled standard (ID_, RFC 9309) or Google-only\n(GoogleOnly_)` },
    'robots-dir': { type: 'string', value: '<dir>', help: 'also cases made from the robots.txt files of a folder: for rules of each file,\nURLs that match the rule exactly, one byte past it, one short of it, with its case\nchanged (Corpus_<file>_...)' },
    'per-file': { type: 'string', value: 'N', whole: { fallback: 12, min: 1, max: 1000 }, requires: ['robots-dir'], help: 'cases from each file ({range})' },
    files: { type: 'string', value: 'N', whole: { fallback: 1000, min: 1, max: 1_000_000 }, requires: ['robots-dir'], help: 'files of --robots-dir used, in name order ({range})' },
    'timeout-ms': { type: 'string', value: 'N', whole: { fallback: 5000, min: 100, max: 600_000 }, help: 'longest wait for one answer ({range}): a case that takes\nlonger is reported as a timeout and its process or worker killed; after 20\nfailures the cases left are reported as not asked' },
    jobs: { type: 'string', value: 'N', whole: { fallback: availableParallelism(), min: 1, max: 256, machine: 'default the available cores; 1 to 256' }, requires: ['command'], help: '--command processes at once ({range})' },
    format: { type: 'string', choices: ['text', 'json', 'html'], fallback: 'text', help: 'text (default), one JSON document, or a self-contained HTML page' },
    name: { type: 'string', value: '<text>', help: "the implementation's name in the report (default: its program, script or module)" },
  },
  positionals: { shown: '', min: 0, max: 0, error: () => 'conformance takes no positional arguments (see robotstxt conformance --help)' },
  oneOf: [['command', 'batch-command', 'module']],
  listed: [],
  sections: [
    { title: 'The implementation, one of:', names: ['command', 'batch-command', 'module'] },
    { title: 'Cases:', names: ['suite', 'robots-dir', 'per-file', 'files'] },
    { title: 'Bounds:', names: ['timeout-ms', 'jobs'] },
    { title: 'Output:', names: ['format', 'name'] },
  ],
  column: 27,
  description: `Asks another robots.txt implementation the same questions (robots.txt body, user agent, URL) as this
package's engine, which answers exactly as Google's reference library, and reports where it differs: by
class of behaviour (line endings, BOM, typos, user-agent matching, percent-encoding, wildcards, $,
index.html, longest match, long lines, large files, ...), with the smallest differing case of each class
(body, agent, URL, expected, got), and the speeds of both. Exit 0 when every case agrees, 1 when some
differ or were not answered (for CI), 2 on a usage error or an implementation that cannot be started.`,
  examples: [
    "robotstxt conformance --command 'robotstxt test %robots% %user-agent% %url%'",
    "robotstxt conformance --batch-command 'robotstxt test --batch' --robots-dir ./robots --format html > report.html",
    'robotstxt conformance --module ./my-adapter.mjs --format json',
  ],
} as const satisfies CommandSpec;

/** robotstxt conformance. */
export const COMMAND: Command = { spec: CONFORMANCE_SPEC, run: (args, io) => runConformance(args, io.out) };

/** What one run of conformance does, read off its options. */
export interface ConformancePlan {
  /** The implementation: a command per case, a batch command, or a module; and the name the report gives it (null: its own). */
  implementation: { kind: 'command' | 'batch-command' | 'module'; value: string; name: string | null };
  builtIn: boolean;
  /** Cases made from the files of a folder (null: none), per file and which files. */
  robotsDir: { directory: string; perFile: number; files: number } | null;
  timeoutMs: number;
  jobs: number;
  format: 'text' | 'json' | 'html';
}

/** The plan of a conformance run from its parsed arguments. Pure: a folder and a module are checked by the handler. Once per run. */
export function planConformance(parsed: ParsedCommand<(typeof CONFORMANCE_SPEC)['options']>): ConformancePlan {
  const { values } = parsed;
  const robotsDir = values['robots-dir'];
  if (values.suite === 'none' && robotsDir === undefined) throw usageError('--suite none needs --robots-dir (no cases otherwise)');
  if (values.name !== undefined && values.name.trim() === '') throw usageError('--name must not be empty');
  const implementation: ConformancePlan['implementation'] = values.command !== undefined ? { kind: 'command', value: values.command, name: values.name ?? null }
    : values['batch-command'] !== undefined ? { kind: 'batch-command', value: values['batch-command'], name: values.name ?? null }
      : { kind: 'module', value: values.module as string, name: values.name ?? null };
  return {
    implementation, builtIn: values.suite === 'builtin',
    robotsDir: robotsDir === undefined ? null : { directory: robotsDir, perFile: values['per-file'], files: values.files },
    timeoutMs: values['timeout-ms'], jobs: values.jobs, format: values.format,
  };
}

/** robotstxt conformance: the plan (planConformance), the cases asked of the implementation and of the reference, the report. Returns 0 all agree, 1 some differ or failed. Once per run. */
export async function runConformance(args: string[], out: (text: string) => void): Promise<number> {
  const plan = planConformance(parseCommand(CONFORMANCE_SPEC, args));
  const { timeoutMs, jobs, format } = plan;
  if (plan.robotsDir !== null) requireDirectory(plan.robotsDir.directory, 'robotsDirectory');
  const asked = plan.implementation;
  if (asked.kind === 'module') {
    let isFolder: boolean;
    try { isFolder = statSync(asked.value).isDirectory(); } catch { throw usageError(`--module '${asked.value}' is not a readable file`); }
    if (isFolder) throw usageError(`--module '${asked.value}' is a folder: name the module file in it (an .mjs or .js file exporting (robotsText, agent, url) => boolean)`);
  }
  const run: Implementation = asked.kind === 'command' ? commandImplementation(asked.value) : asked.kind === 'batch-command' ? batchImplementation(asked.value) : moduleImplementation(asked.value);
  const implementation: Implementation = asked.name !== null ? { ...run, name: asked.name } : run;

  const cases: ConformanceCase[] = [];
  const sources: string[] = [];
  if (plan.builtIn) {
    const builtIn = builtInSuite();
    cases.push(...builtIn);
    sources.push(`${builtIn.length} from the built-in suite`);
  }
  if (plan.robotsDir !== null) {
    const { directory, perFile, files } = plan.robotsDir;
    const made = casesFromRobotsDir(directory, { perFile, files });
    cases.push(...made);
    sources.push(`${made.length} from the files of ${directory}`);
  }
  const folder = mkdtempSync(join(tmpdir(), 'robotstxt-conformance-'));
  // SIGINT / SIGTERM: the implementation's processes (whole process groups) and the cases folder go first,
  // then the process ends by the same signal
  const stopped = (signal: NodeJS.Signals): void => {
    stopAllChildren();
    rmSync(folder, { recursive: true, force: true });
    process.removeAllListeners(signal);
    process.kill(process.pid, signal);
  };
  process.once('SIGINT', stopped);
  process.once('SIGTERM', stopped);
  try {
    const prepared = prepareCases(cases, folder);
    const reference = referenceAnswers(prepared, folder);
    const started = performance.now();
    const answers = await implementation.answerAll(prepared, { folder, timeoutMs, jobs });
    const seconds = (performance.now() - started) / 1000;
    const report = compareAnswers({ name: implementation.name, contract: contractSentence(implementation.contract, flagWords) }, prepared, reference, answers, seconds, sources);
    out(format === 'json' ? reportJson(report) : format === 'html' ? reportHtml(report) : reportText(report));
    return report.agreed === report.cases ? 0 : 1;
  } finally {
    process.off('SIGINT', stopped);
    process.off('SIGTERM', stopped);
    stopAllChildren();
    rmSync(folder, { recursive: true, force: true });
  }
}
