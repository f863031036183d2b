// The lock of an origin's files in a store: `<name>.lock`, made whole with an atomic link (no-replace), holding
// who made it (process, host, the process's start time where the system tells it, a random token). A lock is
// taken over only from a writer that is gone (its process no longer runs on this host); a live writer, even a
// stopped one (Ctrl-Z, a paused VM), keeps its lock however long it holds it, and a waiter gives up after its
// wait with the holder named. The holder checks that the lock is still its own before each write, so a writer
// whose lock was taken (or removed by hand) fails rather than writes a stale index over a newer one.
import { linkSync, readFileSync, readSync, renameSync, rmSync, statSync, writeFileSync, openSync, closeSync, constants as fsConstants } from 'node:fs';
import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import { RobotsError } from '../../core/errors.js';
import { describeErrno } from '../robots-file.js';

/** Who holds a lock, as its file says. */
export interface LockHolder {
  pid: number;
  host: string;
  /** The holder's start time as the system counts it (Linux: /proc/<pid>/stat field 22), to tell a reused pid; null elsewhere. */
  started: string | null;
  token: string;
}

/** A lock file's content is a few hundred bytes; more is not a lock. */
const LOCK_BYTES = 4096;
/** A lock file that holds no holder (its writer died between making and writing it) is taken over after this long. */
const UNREADABLE_LOCK_MS = 60_000;
const sleeper = new Int32Array(new SharedArrayBuffer(4));
const sleep = (ms: number): void => { Atomics.wait(sleeper, 0, 0, ms); };

/** A process's start time (Linux), or null where the system does not tell it. */
function startTimeOf(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? null;
  } catch {
    return null;
  }
}

/** True when a process is stopped (Linux: state T or t), for the message of a wait that ends. */
function isStopped(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
    return /^[Tt]$/.test(stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3));
  } catch {
    return false;
  }
}

const OWN_HOST = hostname();
const OWN_START = startTimeOf(process.pid);

/**
 * Whether a lock's holder is gone: true when its process no longer runs on this host (or its pid now belongs
 * to a process started later); false when it runs (stopped or not); null when this host cannot tell (another
 * host's process). Per look at a held lock.
 */
export function holderGone(holder: LockHolder): boolean | null {
  if (holder.host !== OWN_HOST) return null;
  try {
    process.kill(holder.pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ESRCH') return true;
  }
  if (holder.started !== null) {
    const started = startTimeOf(holder.pid);
    if (started !== null && started !== holder.started) return true;
  }
  return false;
}

/** The holder a lock file names, or null when it names none (a lock written before holders were, or cut). */
function readHolder(path: string): LockHolder | null | 'absent' {
  let text: string;
  try {
    const fd = openSync(path, fsConstants.O_RDONLY | (fsConstants.O_NOFOLLOW ?? 0));
    try {
      const buffer = Buffer.alloc(LOCK_BYTES);
      const length = readSync(fd, buffer, 0, buffer.length, 0);
      text = buffer.subarray(0, length).toString('utf8');
    } finally {
      closeSync(fd);
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 'absent';
    return null;
  }
  try {
    const value = JSON.parse(text) as Partial<LockHolder>;
    if (Number.isSafeInteger(value.pid) && typeof value.host === 'string' && typeof value.token === 'string' && (value.started === null || typeof value.started === 'string')) return value as LockHolder;
  } catch { /* a lock of an older writer: its pid alone */ }
  const pid = /^(\d+)\s*$/.exec(text)?.[1];
  return pid === undefined ? null : { pid: Number(pid), host: OWN_HOST, started: null, token: '' };
}

/** A lock held by this process: check() before each write; release() once. */
export class HeldLock {
  private constructor(readonly path: string, private readonly token: string) {}

  /**
   * Takes the lock at `path`, waiting up to waitMs for a live holder (FILE_UNWRITABLE naming the holder when
   * the wait ends, or when the lock cannot be made). `what` names the files it guards. Per write of an origin.
   */
  static take(path: string, what: string, waitMs: number): HeldLock {
    const token = randomBytes(12).toString('hex');
    const holder: LockHolder = { pid: process.pid, host: OWN_HOST, started: OWN_START, token };
    const started = Date.now();
    for (let wait = 1; ; wait = Math.min(50, wait * 2)) {
      if (HeldLock.tryMake(path, holder)) return new HeldLock(path, token);
      const held = readHolder(path);
      if (held === 'absent') continue; // released between the two looks
      if (held === null) {
        // a lock that names no holder: its writer died making it, once it is old enough
        const age = Date.now() - (statSync(path, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
        if (age > UNREADABLE_LOCK_MS) HeldLock.takeOver(path, null);
      } else if (holderGone(held) === true) {
        HeldLock.takeOver(path, held.token);
        continue;
      }
      if (Date.now() - started >= waitMs) {
        const who = held === null ? 'a writer that left no name' : `process ${held.pid}${held.host === OWN_HOST ? `, which is running${isStopped(held.pid) ? ' but stopped' : ''}` : ` on ${held.host}`}`;
        throw new RobotsError('FILE_UNWRITABLE', `cannot write the store's files of ${what}: '${path}' is held by ${who} (waited ${Math.round((Date.now() - started) / 1000)} s; a lock is taken over only from a writer that is gone)`);
      }
      sleep(wait);
    }
  }

  /** Makes the lock whole or not at all: the holder written beside it, then linked to its name (no-replace). */
  private static tryMake(path: string, holder: LockHolder): boolean {
    const temporary = `${path}.${holder.token}`;
    try {
      writeFileSync(temporary, JSON.stringify(holder), { flag: 'wx' });
    } catch (error) {
      throw new RobotsError('FILE_UNWRITABLE', `cannot write '${temporary}': ${describeErrno((error as NodeJS.ErrnoException).code ?? (error as Error).message)}`);
    }
    try {
      linkSync(temporary, path);
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
      throw new RobotsError('FILE_UNWRITABLE', `cannot write '${path}': ${describeErrno((error as NodeJS.ErrnoException).code ?? (error as Error).message)}`);
    } finally {
      rmSync(temporary, { force: true });
    }
  }

  /**
   * Removes a gone holder's lock: moved aside first and checked to be that holder's (a waiter that looked at
   * the same lock may have taken it over already, and made its own): another's is put back, never removed.
   */
  private static takeOver(path: string, token: string | null): void {
    const aside = `${path}.gone-${randomBytes(6).toString('hex')}`;
    try {
      renameSync(path, aside);
    } catch {
      return; // gone already
    }
    const moved = readHolder(aside);
    if (moved !== 'absent' && moved !== null && token !== null && moved.token !== token) {
      try {
        linkSync(aside, path); // put back, unless another lock is there by now (its holder then finds its own lost, and fails)
      } catch { /* another is there */ }
    }
    rmSync(aside, { force: true });
  }

  /** Throws FILE_UNWRITABLE when the lock is no longer this process's (taken over, or removed by hand). Before each write. */
  check(): void {
    const held = readHolder(this.path);
    if (held === 'absent' || held === null || held.token !== this.token) {
      throw new RobotsError('FILE_UNWRITABLE', `the lock '${this.path}' is no longer this process's (${held === 'absent' ? 'it was removed' : 'another writer holds it'}): nothing more is written, so no older copy goes over a newer one`);
    }
  }

  /** Gives the lock back (only when it is still this process's). */
  release(): void {
    const held = readHolder(this.path);
    if (held !== 'absent' && held !== null && held.token === this.token) rmSync(this.path, { force: true });
  }
}
