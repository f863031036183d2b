// Running many-host crawls for the benchmarks (bench/heavy-tail.ts, bench/real-crawl.ts): one place for how a
// command is timed with its peak memory, and how the reference's input stream of a URL list is written.
import { spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { childTimerPath } from './cli-runs.js';

/** A host of a crawl as the reference stream needs it: its body. */
export interface StreamHost { body: Buffer }

/** The reference stream of a URL list: the host's body (`R`) on every host switch, then a query (`q`) per URL. */
export async function writeReferenceStream(path: string, lines: { host: number; url: string }[], hosts: readonly StreamHost[], agent: string, maxBytes: number): Promise<void> {
  const out = createWriteStream(path);
  const write = (data: string | Buffer): Promise<void> => (out.write(data) ? Promise.resolve() : new Promise((resolve) => out.once('drain', () => resolve())));
  let current = -1;
  for (const { host, url } of lines) {
    if (host !== current) {
      const bytes = maxBytes > 0 ? hosts[host].body.subarray(0, maxBytes) : hosts[host].body;
      await write(`R ${bytes.length}\n`);
      await write(bytes);
      await write('\n');
      current = host;
    }
    await write(`q ${agent.length} ${Buffer.byteLength(url)}\n${agent}${url}\n`);
  }
  await new Promise<void>((resolve) => out.end(resolve));
}

/** Body bytes the reference parses per URL of a stream: its API parses the host's body again for every URL (the mean body size per URL). */
export function referenceBytesPerUrl(lines: { host: number }[], hosts: readonly StreamHost[], maxBytes: number): number {
  let bytes = 0;
  for (const { host } of lines) bytes += maxBytes > 0 ? Math.min(maxBytes, hosts[host].body.length) : hosts[host].body.length;
  return bytes / Math.max(1, lines.length);
}

/** One whole-process run of a command: wall and CPU seconds (all its threads), peak RSS, exit status. */
export interface TimedRun { seconds: number; cpuSeconds: number; peakMiB: number; status: number | null }

/**
 * Runs a command with a file on standard input, output to /dev/null; wall seconds (timed by
 * bench/child-timer.ts, from a small process), the CPU seconds of the process (user + system, all its
 * threads: GNU time) and its peak RSS (MiB, GNU time).
 */
export function timed(command: string, args: string[], input: string): Promise<TimedRun> {
  return new Promise((resolve, reject) => {
    const timer = spawn(process.execPath, [childTimerPath, input, '-', '/usr/bin/time', '-f', 'peak-kib %M cpu %U %S', command, ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
    let stdout = '';
    timer.stdout.on('data', (chunk: Buffer) => { stdout += chunk.toString(); });
    timer.on('close', (timerStatus) => {
      if (timerStatus !== 0) {
        reject(new Error(`bench/child-timer.ts failed (exit ${timerStatus})`));
        return;
      }
      const { seconds, status, stderr } = JSON.parse(stdout) as { seconds: number; status: number | null; stderr: string };
      const figures = /peak-kib (\d+) cpu ([\d.]+) ([\d.]+)/.exec(stderr);
      if (status !== 0) console.warn(stderr.trim().split('\n').slice(-3).join('\n'));
      resolve({
        seconds,
        cpuSeconds: figures === null ? 0 : Number(figures[2]) + Number(figures[3]),
        peakMiB: figures === null ? 0 : Number(figures[1]) / 1024,
        status,
      });
    });
  });
}

/**
 * The reference stream of a URL list in `count` consecutive parts of about equal line counts, each starting
 * at a host switch (so each is a stream of its own): the paths of the files written.
 */
export async function writeReferenceParts(prefix: string, lines: { host: number; url: string }[], hosts: readonly StreamHost[], agent: string, maxBytes: number, count: number): Promise<string[]> {
  const paths: string[] = [];
  let start = 0;
  for (let k = 0; k < count; k++) {
    let end = k === count - 1 ? lines.length : Math.round(((k + 1) * lines.length) / count);
    while (end < lines.length && end > 0 && lines[end].host === lines[end - 1].host) end++;
    const path = `${prefix}-${k}.txt`;
    await writeReferenceStream(path, lines.slice(start, end), hosts, agent, maxBytes);
    paths.push(path);
    start = end;
  }
  return paths;
}
