import { spawn, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const CLI = fileURLToPath(new URL('../dist/src/bin/robotstxt.cjs', import.meta.url));
if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run npm run build (npm test does)`);

export interface CliResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the built command line with args and optional standard input. */
export function robotstxt(args: string[], input?: string | Uint8Array, env?: Record<string, string>): CliResult {
  const result = spawnSync(process.execPath, [CLI, ...args], { input, encoding: 'latin1', maxBuffer: 1 << 30, env: env === undefined ? undefined : { ...process.env, ...env } });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** What a run of the built command line loaded: npm packages and Node's built-in modules (test/fixtures/report-loaded-modules.cjs). */
export function modulesLoadedBy(args: string[], input = '', env?: Record<string, string>): { status: number | null; packages: string[]; builtins: string[] } {
  const preload = fileURLToPath(new URL('./fixtures/report-loaded-modules.cjs', import.meta.url));
  const result = spawnSync(process.execPath, ['--require', preload, CLI, ...args], { input, encoding: 'utf8', maxBuffer: 1 << 26, env: env === undefined ? undefined : { ...process.env, ...env } });
  const line = result.stderr.split('\n').find((text) => text.startsWith('loaded-modules '));
  if (line === undefined) throw new Error(`no loaded-modules line in: ${result.stderr}`);
  return { status: result.status, ...(JSON.parse(line.slice('loaded-modules '.length)) as { packages: string[]; builtins: string[] }) };
}

export function tempDir(): string {
  return mkdtempSync(join(tmpdir(), 'robotstxt-test-'));
}

export const SHARED = fileURLToPath(new URL('../../shared/', import.meta.url));
export const CORPUS_ROBOTS = join(SHARED, 'corpus', 'robots');
export const CORPUS_LOG = join(SHARED, 'corpus', 'logs', 'elastic-apache-combined.log');
/** Why corpus tests skip: printed once when ../shared/corpus is absent (a user's fresh clone). */
export const corpusMissingReason = existsSync(CORPUS_ROBOTS) ? null : `skipped: ${CORPUS_ROBOTS} is absent (the corpus lives beside the repository, not in it)`;
if (corpusMissingReason !== null) console.warn(corpusMissingReason);

/**
 * Runs the built command line without blocking this process (servers in this process keep answering), and
 * kills it after killAfterMs: a run that hangs fails its test with status null and signal SIGKILL.
 */
export function robotstxtAsync(args: string[], input?: string, killAfterMs = 30_000): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('latin1').on('data', (text: string) => { stdout += text; });
    child.stderr.setEncoding('latin1').on('data', (text: string) => { stderr += text; });
    const timer = setTimeout(() => child.kill('SIGKILL'), killAfterMs);
    child.on('error', reject);
    child.on('close', (status) => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr });
    });
    child.stdin.on('error', () => undefined); // a command that stops before reading all its input (EPIPE)
    child.stdin.end(input ?? '');
  });
}

/** The last line of audit's table: what its group column says. */
export const AUDIT_GROUP_NOTE = 'group: own group, follows <token> (Googlebot-Image follows Googlebot), * (the * group), no group (AdsBot ignores *), differs by host or version';
