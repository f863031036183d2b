// The store's lock under a writer that stops (SIGSTOP: Ctrl-Z, a paused VM) or dies inside it, and links inside
// a store (src/node/store/): a lock is taken over only from a writer that is gone; a live writer keeps it
// however long it is stopped, and a waiter gives up naming it; a writer whose lock was taken writes nothing
// more; a versions folder that is a symbolic link is set aside, never written through; a store file that is a
// link is never read through. Writers are real child processes, stopped and continued by signals.
import { describe, it, expect, afterEach } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { RobotsStore, readStoredVersions } from '../src/node/store/index.js';
import type { OriginRecord } from '../src/core/fetch-rules.js';
import { tempDir } from './cli-helpers.js';
import { until } from './helpers.js';

const KEY = 'https@example.com';
const STORE_MODULE = pathToFileURL(join(process.cwd(), 'dist', 'src', 'node', 'store', 'index.js')).href;

function recordAt(checkedAt: number): OriginRecord {
  return { origin: 'https://example.com', url: 'https://example.com/robots.txt', mode: 'google', checkedAt, outcome: 'ok', status: 200, error: null, finalUrl: 'https://example.com/robots.txt', hops: 0, kept: 'body', keptAt: checkedAt, etag: null, lastModified: null, cacheMaxAgeMs: null, failingSince: null, failures: 0 };
}

/** A writer in a child process that stops itself (SIGSTOP) inside the lock, before its first file is written. */
function stoppingWriter(store: string, ready: string, body: string, checkedAt: number): { child: ChildProcess; done: Promise<{ code: number | null; stderr: string }> } {
  const script = `
    import { writeFileSync } from 'node:fs';
    const { RobotsStore } = await import(${JSON.stringify(STORE_MODULE)});
    const original = RobotsStore.prototype.replace;
    let first = true;
    RobotsStore.prototype.replace = function (name, data) {
      if (first) { first = false; writeFileSync(${JSON.stringify(ready)}, 'in the lock'); process.kill(process.pid, 'SIGSTOP'); }
      return original.call(this, name, data);
    };
    const record = ${JSON.stringify(recordAt(checkedAt))};
    try {
      new RobotsStore(${JSON.stringify(store)}).write(${JSON.stringify(KEY)}, record, new TextEncoder().encode(${JSON.stringify(body)}));
    } catch (error) {
      process.stderr.write(error.code + ': ' + error.message);
      process.exit(3);
    }`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => { stderr += chunk.toString(); });
  const done = new Promise<{ code: number | null; stderr: string }>((resolve) => child.on('exit', (code) => resolve({ code, stderr })));
  return { child, done };
}

const stopped = (pid: number): boolean => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) === 'T';
  } catch {
    return false;
  }
};

const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
});

const bodyOf = (versions: ReturnType<typeof readStoredVersions>, store: string): string[] => (versions?.versions ?? []).map((version) => readFileSync(join(store, `${KEY}.versions`, version.body as string), 'utf8'));

describe.skipIf(process.platform !== 'linux')('the store lock with a writer stopped inside it (SIGSTOP)', () => {
  it('a live writer stopped past any wait keeps its lock: the other writer gives up naming it; once continued, it writes, and the other then adds its own version', async () => {
    const store = tempDir();
    const ready = join(store, '..', `ready-${Math.random().toString(36).slice(2)}`);
    const writer = stoppingWriter(store, ready, 'User-agent: *\nDisallow: /first\n', Date.parse('2026-06-01T00:00:00Z'));
    children.push(writer.child);
    await until(() => existsSync(ready) && stopped(writer.child.pid as number), 'the first writer stopped inside its lock');
    const second = new RobotsStore(store, { lockWaitMs: 400 });
    let error: unknown = null;
    try {
      second.write(KEY, recordAt(Date.parse('2026-06-01T01:00:00Z')), new TextEncoder().encode('User-agent: *\nDisallow: /second\n'));
    } catch (caught) {
      error = caught;
    }
    expect((error as { code?: string }).code).toBe('FILE_UNWRITABLE');
    expect((error as Error).message).toMatch(new RegExp(`^cannot write the store's files of https@example\\.com: '.*https@example\\.com\\.lock' is held by process ${writer.child.pid}, which is running but stopped \\(waited \\d+ s; a lock is taken over only from a writer that is gone\\)$`));
    expect(existsSync(join(store, `${KEY}.json`))).toBe(false); // nothing of the second writer went in
    writer.child.kill('SIGCONT');
    expect(await writer.done).toEqual({ code: 0, stderr: '' });
    second.write(KEY, recordAt(Date.parse('2026-06-01T01:00:00Z')), new TextEncoder().encode('User-agent: *\nDisallow: /second\n'));
    expect(bodyOf(readStoredVersions(store, KEY), store)).toEqual(['User-agent: *\nDisallow: /first\n', 'User-agent: *\nDisallow: /second\n']);
    expect(readdirSync(store).filter((name) => name.includes('.lock'))).toEqual([]);
  });

  it('a writer stopped for 65 s inside its lock (past the 60 s after which its lock used to be taken over): the writer waiting on it neither takes it nor gives up early, and no version is lost', { tags: ['slow'], timeout: 120_000 }, async () => {
    const store = tempDir();
    const ready = join(store, '..', `ready-${Math.random().toString(36).slice(2)}`);
    const writer = stoppingWriter(store, ready, 'User-agent: *\nDisallow: /first\n', Date.parse('2026-06-01T00:00:00Z'));
    children.push(writer.child);
    await until(() => existsSync(ready) && stopped(writer.child.pid as number), 'the first writer stopped inside its lock');
    const stoppedAt = Date.now();
    // the second writer, in a child of its own, waits up to 90 s for the lock
    const script = `
      const { RobotsStore } = await import(${JSON.stringify(STORE_MODULE)});
      const record = ${JSON.stringify(recordAt(Date.parse('2026-06-01T01:00:00Z')))};
      new RobotsStore(${JSON.stringify(store)}, { lockWaitMs: 90000 }).write(${JSON.stringify(KEY)}, record, new TextEncoder().encode('User-agent: *\\nDisallow: /second\\n'));
      process.stdout.write('written at ' + Date.now());`;
    const second = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'pipe'] });
    children.push(second);
    let secondOut = '';
    second.stdout?.on('data', (chunk: Buffer) => { secondOut += chunk.toString(); });
    const secondDone = new Promise<number | null>((resolve) => second.on('exit', resolve));
    await until(() => Date.now() - stoppedAt >= 65_000, 'the first writer stopped for 65 s', 70_000, 500);
    expect(secondOut).toBe(''); // still waiting: the lock of a live writer is never taken over by age
    expect(existsSync(join(store, `${KEY}.json`))).toBe(false);
    writer.child.kill('SIGCONT');
    expect(await writer.done).toEqual({ code: 0, stderr: '' });
    expect(await secondDone).toBe(0);
    expect(bodyOf(readStoredVersions(store, KEY), store)).toEqual(['User-agent: *\nDisallow: /first\n', 'User-agent: *\nDisallow: /second\n']);
  });

  it('a writer whose lock was taken while it was stopped (removed by hand) writes nothing when continued: no stale index over the newer version', async () => {
    const store = tempDir();
    new RobotsStore(store).write(KEY, recordAt(Date.parse('2026-05-01T00:00:00Z')), new TextEncoder().encode('User-agent: *\nDisallow: /zero\n'));
    const ready = join(store, '..', `ready-${Math.random().toString(36).slice(2)}`);
    const writer = stoppingWriter(store, ready, 'User-agent: *\nDisallow: /stale\n', Date.parse('2026-06-01T00:00:00Z'));
    children.push(writer.child);
    await until(() => existsSync(ready) && stopped(writer.child.pid as number), 'the first writer stopped inside its lock');
    rmSync(join(store, `${KEY}.lock`));
    new RobotsStore(store).write(KEY, recordAt(Date.parse('2026-06-01T02:00:00Z')), new TextEncoder().encode('User-agent: *\nDisallow: /newer\n'));
    writer.child.kill('SIGCONT');
    const ended = await writer.done;
    expect(ended.code).toBe(3);
    expect(ended.stderr).toMatch(/^FILE_UNWRITABLE: the lock '.*https@example\.com\.lock' is no longer this process's \(it was removed\): nothing more is written, so no older copy goes over a newer one$/);
    expect(bodyOf(readStoredVersions(store, KEY), store)).toEqual(['User-agent: *\nDisallow: /zero\n', 'User-agent: *\nDisallow: /newer\n']);
    expect(readFileSync(join(store, `${KEY}.txt`), 'utf8')).toBe('User-agent: *\nDisallow: /newer\n');
  });

  it('a writer killed inside its lock is gone: the next writer takes the lock over at once, without waiting', async () => {
    const store = tempDir();
    const ready = join(store, '..', `ready-${Math.random().toString(36).slice(2)}`);
    const writer = stoppingWriter(store, ready, 'User-agent: *\nDisallow: /dead\n', Date.parse('2026-06-01T00:00:00Z'));
    children.push(writer.child);
    await until(() => existsSync(ready) && stopped(writer.child.pid as number), 'the first writer stopped inside its lock');
    writer.child.kill('SIGKILL');
    await writer.done;
    expect(existsSync(join(store, `${KEY}.lock`))).toBe(true);
    new RobotsStore(store, { lockWaitMs: 0 }).write(KEY, recordAt(Date.parse('2026-06-01T01:00:00Z')), new TextEncoder().encode('User-agent: *\nDisallow: /alive\n'));
    expect(bodyOf(readStoredVersions(store, KEY), store)).toEqual(['User-agent: *\nDisallow: /alive\n']);
    expect(readdirSync(store).filter((name) => name.includes('.lock'))).toEqual([]);
  });
});

describe('links inside a store are never written or read through', () => {
  it('a versions folder that is a symbolic link: set aside (the link renamed, its target untouched), said, and the versions begin again', () => {
    const store = tempDir();
    const other = tempDir();
    writeFileSync(join(other, 'index.json'), 'the other folder\'s own file');
    new RobotsStore(store).write(KEY, recordAt(Date.parse('2026-05-01T00:00:00Z')), new TextEncoder().encode('User-agent: *\nDisallow: /one\n'));
    rmSync(join(store, `${KEY}.versions`), { recursive: true });
    symlinkSync(other, join(store, `${KEY}.versions`));
    expect(() => readStoredVersions(store, KEY)).toThrow(`store versions folder '${join(store, `${KEY}.versions`)}' is a symbolic link: not read (a store's folders are never followed through links)`);
    const result = new RobotsStore(store).write(KEY, recordAt(Date.parse('2026-06-01T00:00:00Z')), new TextEncoder().encode('User-agent: *\nDisallow: /two\n'));
    expect(result.notes).toHaveLength(1);
    expect(result.notes[0]).toMatch(new RegExp(`^the versions folder '${join(store, `${KEY}.versions`).replace(/[.]/g, '\\.')}' was a symbolic link: set aside as https@example\\.com\\.versions\\.set-aside-[0-9T:-]+(\\.\\d+)?Z \\(a store is never written through links\\), the versions begin again with the copy in force$`));
    expect(readdirSync(other)).toEqual(['index.json']);
    expect(readFileSync(join(other, 'index.json'), 'utf8')).toBe('the other folder\'s own file');
    expect(bodyOf(readStoredVersions(store, KEY), store)).toEqual(['User-agent: *\nDisallow: /one\n', 'User-agent: *\nDisallow: /two\n']);
  });
  it('a record or body that is a symbolic link is not read through: the error names it', () => {
    const store = tempDir();
    const outside = join(tempDir(), 'secret.txt');
    writeFileSync(outside, 'User-agent: *\nDisallow: /\n');
    mkdirSync(store, { recursive: true });
    symlinkSync(outside, join(store, `${KEY}.txt`));
    expect(() => new RobotsStore(store).body(KEY, 1000)).toThrow(`cannot read stored robots.txt '${join(store, `${KEY}.txt`)}': it is a symbolic link (a store's files are never read through links)`);
  });
});
