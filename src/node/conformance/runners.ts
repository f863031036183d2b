// How a conformance run asks another implementation its questions, bounded in time: three contracts.
// - command: Google's suite runner contract, one process per case, `<command> %robots% %url% %user-agent%`,
//   exit 0 allowed, 1 disallowed (robots_main, `robotstxt test`); run `jobs` at a time.
// - batch command: one long-lived process, run in the user's folder, reading JSON lines
//   {"robots","agent","url"} (robots: the absolute path of the case's file; ROBOTSTXT_ROBOTS_ROOT names the
//   cases folder) and writing one JSON line {"verdict": ...} per case, in order (`robotstxt test --batch`).
// - module: a JavaScript module whose default export (or `isAllowed`) is
//   (robotsText, agent, url, robotsBytes) => boolean | Promise<boolean>, run in a worker thread.
// A case that takes longer than timeoutMs is asked once more (a new process or worker; the run's first
// answer has SESSION_START_MS more, for interpreters that start slowly), then answered `timeout`, which is a
// failure, never a difference: the process or worker is killed and a new one answers the cases after it. A crash is that case's `error`. After MAX_RESTARTS the remaining cases
// are answered `error` without asking (a broken implementation cannot make a run last for ever).
import { spawn, type ChildProcess } from 'node:child_process';
import { basename, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { RobotsError, LIBRARY_OPTION_WORDS, type OptionWords } from '../../core/errors.js';
import { ROBOTS_ROOT_VARIABLE } from '../test-batch.js';
import type { ImplementationAnswer, PreparedCase } from './conformance.js';

/** Options of every contract. */
export interface RunOptions {
  /** The folder the cases' robots files are in (their names are relative to it). */
  folder: string;
  /** Longest wait for one answer. */
  timeoutMs: number;
  /** Processes at once (command contract). */
  jobs: number;
}

/** How an implementation is run: the option that names it (a command per case, a batch command, a module) and what it names. */
export interface ConformanceContract {
  readonly option: 'command' | 'batchCommand' | 'module';
  readonly target: string;
}

/** A contract as a report says it (the option in `say`'s words: the library's names, or the command line's flags). Once per report. */
export function contractSentence(contract: ConformanceContract, say: OptionWords = LIBRARY_OPTION_WORDS): string {
  const named = say({ name: contract.option });
  if (contract.option === 'command') return `${named} '${contract.target}' (one process per case)`;
  if (contract.option === 'batchCommand') return `${named} '${contract.target}' (JSON lines)`;
  return `${named} ${contract.target} (in a worker thread)`;
}

/** An implementation under test: its name, how it is run, and how it answers a list of cases (one answer each, in order). */
export interface Implementation {
  name: string;
  contract: ConformanceContract;
  answerAll(cases: readonly PreparedCase[], options: RunOptions): Promise<ImplementationAnswer[]>;
}

/** Restarts of a batch command or module worker after a timeout or crash before the rest is given up. */
const MAX_RESTARTS = 20;
/**
 * More time for the first answer of a run: an interpreter that starts slowly from a cold cache (Ruby, Python
 * with its imports, a worker loading its module) is not a timed-out case. Sessions started later are warm.
 */
export const SESSION_START_MS = 10_000;
/** Cases sent to a batch command or worker ahead of the answers (its pipe and queue stay short). */
const IN_FLIGHT = 64;
/** The longest answer line of a batch command (an answer is a few dozen bytes): a longer one fails its case. */
export const MAX_ANSWER_LINE_BYTES = 64 << 10;

/**
 * Splits a command template into arguments as a shell would for plain words and '...' or "..." quotes (no
 * expansion, no shell started). An unclosed quote or an empty command is INVALID_ARGUMENT about `option`.
 */
export function splitCommand(template: string, option: 'command' | 'batchCommand' = 'command'): string[] {
  const words: string[] = [];
  let word = '';
  let inWord = false;
  let quote: string | null = null;
  for (const char of template) {
    if (quote !== null) {
      if (char === quote) quote = null;
      else word += char;
    } else if (char === '"' || char === "'") {
      quote = char;
      inWord = true;
    } else if (/\s/.test(char)) {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
    } else {
      word += char;
      inWord = true;
    }
  }
  if (quote !== null) throw RobotsError.about('INVALID_ARGUMENT', { name: option }, (said) => `${said} ${JSON.stringify(template)} has an unclosed ${quote} quote`);
  if (inWord) words.push(word);
  if (words.length === 0) throw RobotsError.about('INVALID_ARGUMENT', { name: option }, (said) => `${said} is empty`);
  return words;
}

const INTERPRETERS = new Set(['node', 'nodejs', 'deno', 'bun', 'python', 'python3', 'sh', 'bash', 'ruby', 'perl', 'java', 'php']);

/** A short name for a command: its program, or the script an interpreter runs (`node x/cli.mjs` -> cli.mjs). */
export function commandName(words: readonly string[]): string {
  const program = basename(words[0]);
  return INTERPRETERS.has(program) && words.length > 1 && !words[1].startsWith('-') ? basename(words[1]) : program;
}

/** The telling line of a process's stderr, shortened (for an error answer): the first naming an error, else the first. */
function firstLine(text: string): string {
  const lines = text.trim().split('\n');
  return (lines.find((line) => /error/i.test(line)) ?? lines[0]).trim().slice(0, 200);
}

/**
 * The command's words with %robots%, %url% and %user-agent% replaced in one pass: a value that holds a
 * placeholder's text (a case URL with `%user-agent%` in it) is never replaced again.
 */
export function substitutePlaceholders(words: readonly string[], values: Readonly<Record<'robots' | 'url' | 'user-agent', string>>): string[] {
  return words.map((word) => word.replace(/%(robots|url|user-agent)%/g, (_, name: 'robots' | 'url' | 'user-agent') => values[name]));
}

/**
 * Processes started for a run, each the leader of its own process group (spawned detached), so that a
 * timeout or a signal ends the whole group: a wrapper script's children too.
 */
const liveGroups = new Set<number>();

/** Ends a child's whole process group at once. */
function killGroup(child: ChildProcess): void {
  if (child.pid === undefined) return;
  liveGroups.delete(child.pid);
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    child.kill('SIGKILL'); // the group is gone already, or the platform has none
  }
}

/** Ends every process group a run started (SIGINT / SIGTERM of the conformance command). */
export function stopAllChildren(): void {
  for (const pid of liveGroups) {
    try { process.kill(-pid, 'SIGKILL'); } catch { /* gone already */ }
  }
  liveGroups.clear();
}

/** Starts a command in its own process group, known to stopAllChildren until it ends. */
function spawnGroup(words: readonly string[], options: Parameters<typeof spawn>[2]): ChildProcess {
  const child = spawn(words[0], words.slice(1), { ...options, detached: true });
  if (child.pid !== undefined) {
    const pid = child.pid;
    liveGroups.add(pid);
    child.on('exit', () => liveGroups.delete(pid));
  }
  return child;
}

/** Google's runner contract: one process per case (see the top of this file). */
export function commandImplementation(template: string): Implementation {
  const words = splitCommand(template);
  if (!words.some((word) => word.includes('%robots%')) || !words.some((word) => word.includes('%url%')) || !words.some((word) => word.includes('%user-agent%'))) {
    throw RobotsError.about('INVALID_ARGUMENT', { name: 'command' }, (said) => `${said} must contain %robots%, %url% and %user-agent%, got ${JSON.stringify(template)}`);
  }
  return {
    name: commandName(words),
    contract: { option: 'command', target: template },
    async answerAll(cases, options) {
      const answers: ImplementationAnswer[] = new Array(cases.length);
      let next = 0;
      const one = async (): Promise<void> => {
        while (next < cases.length) {
          const index = next++;
          const testCase = cases[index];
          const args = substitutePlaceholders(words, { robots: join(options.folder, testCase.robots), url: testCase.url, 'user-agent': testCase.agent });
          // a timeout is asked once more (a loaded machine, a slow start) before it is reported: never a difference
          answers[index] = await runOnce(args, options.timeoutMs);
          if ('failure' in answers[index] && (answers[index] as { failure: string }).failure === 'timeout') answers[index] = await runOnce(args, options.timeoutMs);
        }
      };
      await Promise.all(Array.from({ length: Math.max(1, Math.min(options.jobs, cases.length)) }, one));
      return answers;
    },
  };
}

/**
 * One process: exit 0 allowed, 1 disallowed; anything else, or no exit within timeoutMs, is a failure. At
 * the deadline its whole process group is killed and the answer given at once: a grandchild that holds the
 * stderr pipe open is neither waited for nor left running.
 */
function runOnce(args: string[], timeoutMs: number): Promise<ImplementationAnswer> {
  return new Promise((resolvePromise, reject) => {
    const child = spawnGroup(args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    let settled = false;
    const settle = (answer: ImplementationAnswer): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolvePromise(answer);
    };
    const timer = setTimeout(() => {
      killGroup(child);
      child.stderr?.destroy();
      settle({ failure: 'timeout', detail: `no exit within ${timeoutMs} ms` });
    }, timeoutMs);
    child.stderr?.on('data', (chunk: Buffer) => {
      if (stderr.length < 4096) stderr += chunk.toString();
    });
    child.on('error', (error: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      if (error.code === 'ENOENT' || error.code === 'EACCES') {
        settled = true;
        reject(new RobotsError('IMPLEMENTATION_FAILED', `cannot run '${args[0]}': ${error.code === 'ENOENT' ? 'no such command' : 'permission denied'}`));
      } else settle({ failure: 'error', detail: error.message });
    });
    const answerOf = (code: number | null, signal: NodeJS.Signals | null): ImplementationAnswer => (code === 0 ? { verdict: 'allowed' } : code === 1 ? { verdict: 'disallowed' }
      : { failure: 'error', detail: `${signal !== null ? `killed by ${signal}` : `exit ${code}`}${stderr.trim() === '' ? '' : `: ${firstLine(stderr)}`}` });
    child.on('close', (code, signal) => settle(answerOf(code, signal)));
    // the direct child's exit is the answer: its stderr, if a grandchild keeps it open, is read for a moment
    // more, then the group is ended (what it left running is not part of the answer)
    child.on('exit', (code, signal) => {
      setTimeout(() => {
        killGroup(child);
        settle(answerOf(code, signal));
      }, STDERR_GRACE_MS).unref();
    });
  });
}

/** How long a finished command's stderr is still read when something it started keeps the pipe open. */
const STDERR_GRACE_MS = 200;

/** A session with a long-lived answerer (a batch process or a worker): cases go in, answers come back in order. */
interface Session {
  send(testCase: PreparedCase): void;
  close(): void;
}

/**
 * Drives sessions over all cases: keeps up to IN_FLIGHT cases sent, waits at most timeoutMs for each next
 * answer, and on a timeout or an exit answers the oldest case sent with the failure and starts a new session
 * for the ones after it.
 */
function answerInSessions(
  cases: readonly PreparedCase[],
  timeoutMs: number,
  open: (onAnswer: (answer: ImplementationAnswer) => void, onExit: (detail: string) => void) => Session,
): Promise<ImplementationAnswer[]> {
  return new Promise((resolvePromise) => {
    const answers: ImplementationAnswer[] = new Array(cases.length);
    let answered = 0; // cases[answered] is the oldest one waiting
    let sent = 0;
    let restarts = 0;
    let session: Session | null = null;
    let generation = 0;
    let timer: ReturnType<typeof setTimeout> | undefined;
    /** The case a session timed out on, asked once more by a new session before its timeout is reported. */
    let retried = -1;
    /** No answer yet from the session now running (its first deadline includes its start). */
    let starting = true;
    const finish = (): void => {
      clearTimeout(timer);
      session?.close();
      session = null;
      resolvePromise(answers);
    };
    const fill = (): void => {
      while (session !== null && sent < cases.length && sent - answered < IN_FLIGHT) session.send(cases[sent++]);
    };
    const arm = (): void => {
      clearTimeout(timer);
      if (answered < cases.length) timer = setTimeout(() => fail('timeout', `no answer within ${timeoutMs} ms`), timeoutMs + (starting ? SESSION_START_MS : 0));
    };
    const fail = (failure: 'timeout' | 'error', detail: string): void => {
      session?.close();
      session = null;
      if (failure === 'timeout' && retried !== answered) {
        // asked once more, by a new session, before the timeout is reported (never counted as a difference)
        retried = answered;
        restarts++;
        if (restarts <= MAX_RESTARTS) return start();
      }
      answers[answered++] = { failure, detail };
      if (answered >= cases.length) return finish();
      restarts++;
      if (restarts > MAX_RESTARTS) {
        for (; answered < cases.length; answered++) answers[answered] = { failure: 'error', detail: `not asked: the implementation failed ${MAX_RESTARTS} times` };
        return finish();
      }
      start();
    };
    const start = (): void => {
      const mine = ++generation;
      sent = answered;
      starting = mine === 1;
      session = open(
        (answer) => {
          if (mine !== generation) return;
          if (answered >= sent) return fail('error', 'an answer to a case not asked');
          answers[answered++] = answer;
          starting = false;
          if (answered >= cases.length) return finish();
          fill();
          arm();
        },
        (detail) => {
          if (mine !== generation) return;
          generation++;
          fail('error', detail);
        },
      );
      fill();
      arm();
    };
    if (cases.length === 0) return resolvePromise(answers);
    start();
  });
}

/** The batch contract: one process reading JSON lines (see the top of this file). */
export function batchImplementation(command: string): Implementation {
  const words = splitCommand(command, 'batchCommand');
  return {
    name: commandName(words),
    contract: { option: 'batchCommand', target: command },
    async answerAll(cases, options) {
      let fatal: RobotsError | null = null;
      const answers = await answerInSessions(cases, options.timeoutMs, (onAnswer, onExit) => {
        // the user's folder (a relative script path, a module path, a config file work as typed); the case files by absolute path
        const child: ChildProcess = spawnGroup(words, { env: { ...process.env, [ROBOTS_ROOT_VARIABLE]: options.folder }, stdio: ['pipe', 'pipe', 'pipe'] });
        let stderr = '';
        let pending = '';
        let closed = false;
        child.stderr?.on('data', (chunk: Buffer) => {
          if (stderr.length < 4096) stderr += chunk.toString();
        });
        child.stdin?.on('error', () => undefined); // a process that exits early: reported by 'close'
        child.stdout?.setEncoding('utf8');
        child.stdout?.on('data', (chunk: string) => {
          if (closed) return;
          // each byte is looked at once: a chunk's lines are cut at its line ends, the rest kept (bounded)
          let start = 0;
          for (let end = chunk.indexOf('\n'); end >= 0 && !closed; end = chunk.indexOf('\n', start)) {
            const line = pending + chunk.slice(start, end);
            pending = '';
            start = end + 1;
            onAnswer(batchAnswer(line));
          }
          if (closed) return;
          pending += chunk.slice(start);
          if (pending.length > MAX_ANSWER_LINE_BYTES) {
            pending = '';
            onExit(`an answer line longer than ${MAX_ANSWER_LINE_BYTES} bytes (no line end): not an answer`);
          }
        });
        child.on('error', (error: NodeJS.ErrnoException) => {
          if (error.code === 'ENOENT' || error.code === 'EACCES') fatal = new RobotsError('IMPLEMENTATION_FAILED', `cannot run '${words[0]}': ${error.code === 'ENOENT' ? 'no such command' : 'permission denied'}`);
          onExit(error.message);
        });
        child.on('close', (code, signal) => {
          if (!closed) onExit(`the batch command ended (${signal !== null ? `killed by ${signal}` : `exit ${code}`})${stderr.trim() === '' ? '' : `: ${firstLine(stderr)}`}`);
        });
        return {
          send(testCase) {
            child.stdin?.write(JSON.stringify({ robots: join(options.folder, testCase.robots), agent: testCase.agent, url: testCase.url }) + '\n');
          },
          close() {
            closed = true;
            killGroup(child);
          },
        };
      });
      if (fatal !== null) throw fatal;
      return answers;
    },
  };
}

/** One answer line of the batch contract. */
function batchAnswer(line: string): ImplementationAnswer {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return { failure: 'error', detail: `not a JSON answer: ${line.slice(0, 120)}` };
  }
  const verdict = (value as { verdict?: unknown } | null)?.verdict;
  if (verdict === 'allowed' || verdict === 'disallowed') return { verdict };
  return { failure: 'error', detail: `no verdict in ${line.slice(0, 120)}` };
}

/** The module contract: a JavaScript module run in a worker thread (see the top of this file). */
export function moduleImplementation(modulePath: string): Implementation {
  const url = pathToFileURL(resolve(modulePath)).href;
  return {
    name: basename(modulePath),
    contract: { option: 'module', target: modulePath },
    async answerAll(cases, options) {
      let fatal: RobotsError | null = null;
      const answers = await answerInSessions(cases, options.timeoutMs, (onAnswer, onExit) => {
        const worker = new Worker(MODULE_WORKER, { eval: true, workerData: { url, folder: options.folder } });
        let closed = false;
        worker.on('message', (message: { verdict?: boolean; error?: string; fatal?: string }) => {
          if (message.fatal !== undefined) {
            fatal = new RobotsError('IMPLEMENTATION_FAILED', `cannot load the module '${modulePath}': ${message.fatal}`);
            onExit(message.fatal);
          } else if (message.error !== undefined) {
            onAnswer({ failure: 'error', detail: message.error });
          } else {
            onAnswer({ verdict: message.verdict === true ? 'allowed' : 'disallowed' });
          }
        });
        worker.on('error', (error) => onExit(`the module threw outside a case: ${error.message}`));
        worker.on('exit', (code) => {
          if (!closed) onExit(`the module's worker ended (exit ${code})`);
        });
        return {
          send(testCase) {
            worker.postMessage({ robots: testCase.robots, agent: testCase.agent, url: testCase.url });
          },
          close() {
            closed = true;
            void worker.terminate();
          },
        };
      });
      if (fatal !== null) throw fatal;
      return answers;
    },
  };
}

// The worker of the module contract: loads the module, then answers each case in order. A function that
// does not return a boolean is an error answer; a thrown error is that case's error answer.
const MODULE_WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const { readFileSync } = require('node:fs');
const { join } = require('node:path');
const queue = [];
let answer = null;
let busy = false;
const decoder = new TextDecoder('utf-8', { ignoreBOM: true }); // a BOM stays in the text, as readFileSync(path, 'utf8') keeps it
async function drain() {
  if (busy || answer === null) return;
  busy = true;
  while (queue.length > 0) {
    const c = queue.shift();
    try {
      const bytes = readFileSync(join(workerData.folder, c.robots));
      const verdict = await answer(decoder.decode(bytes), c.agent, c.url, new Uint8Array(bytes));
      if (typeof verdict !== 'boolean') parentPort.postMessage({ error: 'the function returned ' + (verdict === null ? 'null' : typeof verdict) + ', not a boolean' });
      else parentPort.postMessage({ verdict });
    } catch (error) {
      parentPort.postMessage({ error: 'threw: ' + String(error && error.message || error).slice(0, 200) });
    }
  }
  busy = false;
}
parentPort.on('message', (c) => { queue.push(c); void drain(); });
import(workerData.url).then((m) => {
  const f = typeof m.default === 'function' ? m.default : typeof m.isAllowed === 'function' ? m.isAllowed : m.default && typeof m.default.isAllowed === 'function' ? m.default.isAllowed : null;
  if (f === null) { parentPort.postMessage({ fatal: 'it exports no function (default export or isAllowed)' }); return; }
  answer = f;
  void drain();
}, (error) => parentPort.postMessage({ fatal: String(error && error.message || error).slice(0, 300) }));
`;
