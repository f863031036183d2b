// robotstxt check --robots-dir at scale: threads that each keep their own hosts, runs split by host (as on
// Hadoop Streaming or Spark) that add up to one whole run, what --stats reports, and memory that stays
// within --cache-mb + 100 MiB however many hosts come, in whatever order.
import { describe, it, expect } from 'vitest';
import { spawn } from 'node:child_process';
import { mkdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { robotstxt, tempDir, CLI } from './cli-helpers.js';
import { seededRandom } from '../bench/data.js';

/** A robots directory of `count` generated hosts, and URLs of them (perHost each) in random order. */
function hostsFixture(count: number, perHost: number, seed = 3): { dir: string; urls: string[] } {
  const dir = join(tempDir(), 'robots');
  mkdirSync(dir);
  const random = seededRandom(seed);
  for (let i = 0; i < count; i++) {
    if (i % 10 === 9) continue; // every tenth host has no file
    writeFileSync(join(dir, `h${i}.example.txt`), `User-agent: *\nDisallow: /private/${i % 7}/\nDisallow: /*.pdf$\nAllow: /private/${i % 7}/open\n\nUser-agent: Googlebot\nDisallow: /nogoogle/\n`);
  }
  const urls: string[] = [];
  for (let i = 0; i < count; i++) for (let k = 0; k < perHost; k++) urls.push(`https://h${i}.example/${['private/' + (i % 7) + '/x', 'private/' + (i % 7) + '/open', 'doc.pdf', 'nogoogle/a', 'page/' + k][k % 5]}`);
  for (let i = urls.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [urls[i], urls[j]] = [urls[j], urls[i]];
  }
  return { dir, urls };
}

/** The verdict the fixture's files give (Googlebot): its own group, or allow for hosts without a file. */
function expectedLine(url: string): string {
  const i = Number(/^https:\/\/h(\d+)\./.exec(url)?.[1]);
  const path = url.slice(url.indexOf('/', 8));
  const disallowed = i % 10 !== 9 && path.startsWith('/nogoogle/');
  return `${disallowed ? 'disallowed' : 'allowed'}\t${url}`;
}

/** Runs the command line asynchronously (several at once), input from a file. */
function run(args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args]);
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (data: Buffer) => out.push(data));
    child.stderr.on('data', (data: Buffer) => err.push(data));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stdout: Buffer.concat(out).toString('latin1'), stderr: Buffer.concat(err).toString('latin1') }));
  });
}

/** Workers start at once with --threads N (the default waits for 2 s of work to come: see budget.ts). */
const AT_ONCE = { ROBOTSTXT_HOSTS_THREADS_AFTER_MS: '0' };

describe('check --robots-dir with threads', () => {
  const { dir, urls } = hostsFixture(3000, 25);
  const input = join(dir, '..', 'urls.txt');
  writeFileSync(input, urls.join('\n') + '\n'); // 75,000 lines, about 3 MiB
  it('one thread and three give the same output, every line in input order; --stats says which ran', () => {
    const one = robotstxt(['check', '--robots-dir', dir, '--agent', 'Googlebot', '--threads', '1', '--stats', input]);
    const three = robotstxt(['check', '--robots-dir', dir, '--agent', 'Googlebot', '--threads', '3', '--cache-mb', '128', '--stats', input], undefined, AT_ONCE);
    expect(three.stdout).toBe(one.stdout);
    expect(one.stdout).toBe(urls.map((url) => expectedLine(url) + '\n').join(''));
    // one window, the input's last: no host can come back, so none is kept (0 cached); the window is the
    // input's size (and a byte) in 64 KiB steps, not the 8 MiB an eighth of the cache would give
    expect(one.stderr).toMatch(/^robotstxt: 300 host\(s\) have no robots\.txt file in .* \(https:\/\/h\d+\.example, .* and 29[05] more\): their URLs were answered as allowed \(--missing allow; --missing disallow or error for hosts whose rules must be known\)\nrobotstxt: stats: 75000 lines in [\d.]+ s \([\d.]+ M lines\/s\), threads 1, peak memory [\d.]+ MiB; hosts: 0 compiled, 2700 answered from their file, 300 without robots\.txt, 0 evicted, 0 cached in [\d.]+ of 64 MiB, 1 window\(s\) of up to [\d.]+ MiB\n$/);
    expect(Number(/of up to ([\d.]+) MiB/.exec(one.stderr)?.[1])).toBe(Math.ceil((statSync(input).size + 1) / 65536) / 16);
    // each worker's own memory (48 MiB) is paid from --cache-mb; each thread's share is a third of the rest
    // (10.6 MiB), and a window an eighth of a share (at least 2 MiB): two windows here. Threads take buckets
    // of hosts as they get free, so a bucket answered by one thread in the first window may be taken by
    // another in the second: each host is read once per thread that answered it, at most once per window
    const stats = /\nrobotstxt: stats: 75000 lines in [\d.]+ s \([\d.]+ M lines\/s\), threads 3, peak memory [\d.]+ MiB \(2 of 2 chunks split by host in workers\); hosts: 0 compiled, (\d+) answered from their file, (\d+) without robots\.txt, 0 evicted, (\d+) cached in [\d.]+ of 128 MiB, \d+ window\(s\) of up to 2 MiB\n$/.exec(three.stderr);
    expect(stats, three.stderr).not.toBeNull();
    const [answered, missing, cached] = (stats as RegExpExecArray).slice(1).map(Number);
    expect(answered).toBeGreaterThanOrEqual(2700);
    expect(answered).toBeLessThanOrEqual(2 * 2700);
    expect(missing).toBeGreaterThanOrEqual(300);
    expect(missing).toBeLessThanOrEqual(2 * 300);
    expect(cached).toBeLessThanOrEqual(answered);
  });
  it('windows: input larger than the window buffer starts with 1 MiB windows and keeps them while it comes sorted by host (fewer pages touched); in random order the next window is the whole buffer', () => {
    // --cache-mb 16: a window buffer of 2 MiB; the input is about 3 MiB, with a host in ten without a file
    const sortedInput = join(dir, '..', 'urls-sorted.txt');
    const sortedUrls = [...urls].sort();
    writeFileSync(sortedInput, sortedUrls.join('\n') + '\n');
    const sorted = robotstxt(['check', '--robots-dir', dir, '--agent', 'Googlebot', '--threads', '1', '--cache-mb', '16', '--stats', sortedInput]);
    const random = robotstxt(['check', '--robots-dir', dir, '--agent', 'Googlebot', '--threads', '1', '--cache-mb', '16', '--stats', input]);
    expect(sorted.stdout).toBe(sortedUrls.map((url) => expectedLine(url) + '\n').join(''));
    expect(random.stdout).toBe(urls.map((url) => expectedLine(url) + '\n').join(''));
    expect(sorted.stderr).toMatch(/, 3 window\(s\) of up to 1 MiB\n$/);
    expect(random.stderr).toMatch(/, 2 window\(s\) of up to 2 MiB\n$/); // 1 MiB, then the rest (about 1.9 MB)
  });
  it('jsonl with threads: the same objects as one thread, "input" numbering every line', () => {
    const one = robotstxt(['check', '--robots-dir', dir, '--agent', 'Googlebot', '--threads', '1', '--format', 'jsonl', '--only', 'disallowed', input]);
    const two = robotstxt(['check', '--robots-dir', dir, '--agent', 'Googlebot', '--threads', '2', '--format', 'jsonl', '--only', 'disallowed', input], undefined, AT_ONCE);
    expect(two.stdout).toBe(one.stdout);
    const objects = one.stdout.trim().split('\n').map((line) => JSON.parse(line));
    const expected = urls.flatMap((url, i) => (expectedLine(url).startsWith('disallowed') ? [{ input: i + 1, url, verdict: 'disallowed', rule: { kind: 'disallow', line: 7, pattern: '/nogoogle/' } }] : []));
    expect(objects).toEqual(expected);
  });
  it('a window is an eighth of the cache (8 MiB; a 32nd with jsonl), no larger than a known input: each host is read once (answered from its file: twenty lines each), and in the input\'s last window none is kept', { tags: ['slow'] }, () => {
    // 10,000 hosts x 20 lines (about 6.8 MB): one window of text, the input's last: hosts are answered from
    // their bodies and not kept (0 cached); jsonl windows are a quarter as large, and keep what they read
    const many = hostsFixture(10_000, 20, 5);
    const randomInput = join(many.dir, '..', 'random.txt');
    writeFileSync(randomInput, many.urls.join('\n') + '\n');
    const sortedInput = join(many.dir, '..', 'sorted.txt');
    writeFileSync(sortedInput, [...many.urls].sort().join('\n') + '\n');
    const random = robotstxt(['check', '--robots-dir', many.dir, '--agent', 'Googlebot', '--stats', randomInput]);
    const sorted = robotstxt(['check', '--robots-dir', many.dir, '--agent', 'Googlebot', '--stats', sortedInput]);
    expect(random.stdout).toBe(many.urls.map((url) => expectedLine(url) + '\n').join(''));
    expect(sorted.stdout.split('\n').sort().join('\n')).toBe(random.stdout.split('\n').sort().join('\n'));
    // (the input, 6.8 MB, is smaller than 8 MiB: its window is its size and a byte, in 64 KiB steps)
    const window = `${Math.ceil((statSync(randomInput).size + 1) / 65536) / 16}`;
    expect(random.stderr).toMatch(new RegExp(`hosts: 0 compiled, 9000 answered from their file, 1000 without robots\\.txt, 0 evicted, 0 cached in [\\d.]+ of 64 MiB, 1 window\\(s\\) of up to ${window} MiB\\n$`));
    expect(sorted.stderr).toMatch(new RegExp(`hosts: 0 compiled, 9000 answered from their file, 1000 without robots\\.txt, 0 evicted, 0 cached in [\\d.]+ of 64 MiB, 1 window\\(s\\) of up to ${window} MiB\\n$`));
    // jsonl output is about three bytes per input byte: its windows are a quarter as large (five here), and
    // every line names the rule of its host's file
    const jsonl = robotstxt(['check', '--robots-dir', many.dir, '--agent', 'Googlebot', '--format', 'jsonl', '--stats', randomInput]);
    expect(jsonl.stderr).toMatch(/hosts: 0 compiled, 9000 answered from their file, 1000 without robots\.txt, 0 evicted, 9000 cached in [\d.]+ of 64 MiB, \d+ window\(s\) of up to 2 MiB\n$/);
    expect(jsonl.stdout).toBe(many.urls.map((url, i) => `${JSON.stringify({ input: i + 1, url, verdict: expectedLine(url).split('\t')[0], rule: expectedLine(url).startsWith('disallowed') ? { kind: 'disallow', line: 7, pattern: '/nogoogle/' } : null })}\n`).join(''));
  });
  it('--threads N needs a --cache-mb that pays for its workers (48 MiB each, 56 with jsonl, and 4 MiB a thread): else a usage error, exit 2', () => {
    const three = robotstxt(['check', '--robots-dir', dir, '--agent', 'Googlebot', '--threads', '3', input]);
    expect([three.status, three.stdout, three.stderr]).toEqual([2, '', "robotstxt: --threads 3 with --robots-dir needs --cache-mb 108 or more (each worker thread's own memory is paid from it), got 64\n"]);
    const jsonl = robotstxt(['check', '--robots-dir', dir, '--agent', 'Googlebot', '--threads', '2', '--format', 'jsonl', '--cache-mb', '63', input]);
    expect([jsonl.status, jsonl.stdout, jsonl.stderr]).toEqual([2, '', "robotstxt: --threads 2 with --robots-dir and --format jsonl needs --cache-mb 64 or more (each worker thread's own memory is paid from it), got 63\n"]);
    const enough = robotstxt(['check', '--robots-dir', dir, '--agent', 'Googlebot', '--threads', '2', '--cache-mb', '56', '--stats', input], undefined, AT_ONCE);
    expect(enough.status).toBe(0);
    expect(enough.stderr).toMatch(/, threads 2, peak memory [\d.]+ MiB \(2 of 2 chunks split by host in workers\); .* cached in [\d.]+ of 56 MiB, \d+ window\(s\) of up to 2 MiB\n$/);
    // jsonl with workers: windows of 1 MiB (each window's jsonl is held by this thread, the worker and the merge)
    const jsonlEnough = robotstxt(['check', '--robots-dir', dir, '--agent', 'Googlebot', '--threads', '2', '--format', 'jsonl', '--stats', input], undefined, AT_ONCE);
    expect(jsonlEnough.status).toBe(0);
    expect(jsonlEnough.stderr).toMatch(/, threads 2, peak memory [\d.]+ MiB \(\d+ of \d+ chunks split by host in workers\); .* cached in [\d.]+ of 64 MiB, \d+ window\(s\) of up to 1 MiB\n$/);
    expect(jsonlEnough.stdout).toBe(robotstxt(['check', '--robots-dir', dir, '--agent', 'Googlebot', '--format', 'jsonl', input]).stdout);
  });
  it('workers start only when the work to come is long enough: not for this 3 MiB input, nor a small one; ROBOTSTXT_HOSTS_THREADS_AFTER_MS is range-checked', () => {
    const r = robotstxt(['check', '--robots-dir', dir, '--agent', 'Googlebot', '--threads', '2', '--stats', input]);
    expect(r.stderr).toMatch(/, threads 1, peak memory [\d.]+ MiB; hosts: /);
    expect(r.stdout).toBe(urls.map((url) => expectedLine(url) + '\n').join(''));
    const small = robotstxt(['check', '--robots-dir', dir, '--agent', 'Googlebot', '--threads', '2', '--stats'], urls.slice(0, 1000).join('\n') + '\n');
    expect(small.stderr).toMatch(/, threads 1, peak memory /);
    const bad = robotstxt(['check', '--robots-dir', dir, '--agent', 'Googlebot', '--threads', '2', input], undefined, { ROBOTSTXT_HOSTS_THREADS_AFTER_MS: '2s' });
    expect([bad.status, bad.stdout, bad.stderr]).toEqual([2, '', 'robotstxt: ROBOTSTXT_HOSTS_THREADS_AFTER_MS must be a whole number of milliseconds from 0 to 3600000, got "2s"\n']);
  });
});

describe('beyond one machine: runs split by host add up to one whole run', () => {
  const { dir, urls } = hostsFixture(400, 6, 9);
  const base = join(dir, '..');
  const hostOf = (url: string): string => /^https:\/\/([^/]+)/.exec(url)?.[1] ?? '';
  it('input sorted by host, cut into 4 shards at host boundaries, checked concurrently: the outputs concatenated equal one run', async () => {
    const sorted = [...urls].sort((a, b) => (hostOf(a) < hostOf(b) ? -1 : hostOf(a) > hostOf(b) ? 1 : 0));
    writeFileSync(join(base, 'all.txt'), sorted.join('\n') + '\n');
    const hosts = [...new Set(sorted.map(hostOf))];
    const shardOf = (url: string): number => Math.floor((hosts.indexOf(hostOf(url)) * 4) / hosts.length);
    for (let shard = 0; shard < 4; shard++) writeFileSync(join(base, `part-${shard}.txt`), sorted.filter((url) => shardOf(url) === shard).join('\n') + '\n');
    const [whole, ...parts] = await Promise.all([
      run(['check', '--robots-dir', dir, '--agent', 'Googlebot', join(base, 'all.txt')]),
      ...[0, 1, 2, 3].map((shard) => run(['check', '--robots-dir', dir, '--agent', 'Googlebot', join(base, `part-${shard}.txt`)])),
    ]);
    expect(parts.map((part) => part.status)).toEqual([0, 0, 0, 0]);
    expect(parts.map((part) => part.stdout).join('')).toBe(whole.stdout);
    expect(whole.stdout.split('\n').length).toBe(2401);
  });
  it('hash-partitioned by host (as a partitioner would), each line is answered as in the whole run', async () => {
    writeFileSync(join(base, 'random.txt'), urls.join('\n') + '\n');
    const bucket = (url: string): number => [...hostOf(url)].reduce((hash, c) => (hash * 31 + c.charCodeAt(0)) >>> 0, 7) % 3;
    for (let shard = 0; shard < 3; shard++) writeFileSync(join(base, `bucket-${shard}.txt`), urls.filter((url) => bucket(url) === shard).join('\n') + '\n');
    const [whole, ...parts] = await Promise.all([
      run(['check', '--robots-dir', dir, '--agent', 'Googlebot', join(base, 'random.txt')]),
      ...[0, 1, 2].map((shard) => run(['check', '--robots-dir', dir, '--agent', 'Googlebot', join(base, `bucket-${shard}.txt`)])),
    ]);
    // each part keeps its input order (line-aligned), and together they are the whole run's lines
    parts.forEach((part, shard) => expect(part.stdout).toBe(urls.filter((url) => bucket(url) === shard).map((url) => expectedLine(url) + '\n').join('')));
    expect(parts.flatMap((part) => part.stdout.trim().split('\n')).sort()).toEqual(whole.stdout.trim().split('\n').sort());
  });
});

describe('memory: --cache-mb + 100 MiB, however many hosts', () => {
  it('100,000 generated hosts in random order (300,000 lines, most hosts evicted and read again) stay within it; the window read buffer is paid from --cache-mb', { tags: ['slow'] }, () => {
    const dir = join(tempDir(), 'robots');
    mkdirSync(dir);
    for (let i = 0; i < 100_000; i++) writeFileSync(join(dir, `h${i}.example.txt`), `User-agent: *\nDisallow: /private/${i % 97}/\nDisallow: /*?session=\n\nUser-agent: Googlebot\nDisallow: /nogoogle/${i}\n`);
    const random = seededRandom(21);
    const urls: string[] = [];
    for (let i = 0; i < 100_000; i++) urls.push(`https://h${i}.example/private/${i % 97}/x`, `https://h${i}.example/nogoogle/${i}`, `https://h${i}.example/page?session=1`);
    for (let i = urls.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [urls[i], urls[j]] = [urls[j], urls[i]];
    }
    const input = join(dir, '..', 'urls.txt');
    writeFileSync(input, urls.join('\n') + '\n');
    // a 4 MiB cache holds about a third of the hosts (as bodies): most are evicted and read again
    const r = robotstxt(['check', '--robots-dir', dir, '--agent', 'Googlebot', '--cache-mb', '4', '--stats', '--only', 'disallowed', input]);
    expect(r.status).toBe(0);
    // Googlebot is named in every file: only its own group applies
    expect(r.stdout).toBe(urls.filter((url) => url.includes('/nogoogle/')).map((url) => url + '\n').join(''));
    const stats = /peak memory ([\d.]+) MiB; hosts: (\d+) compiled, (\d+) answered from their file, 0 without robots\.txt, (\d+) evicted/.exec(r.stderr);
    expect(stats, r.stderr).not.toBeNull();
    const [, peak, compiled, direct, evicted] = (stats as RegExpExecArray).map(Number);
    expect(compiled + direct).toBeGreaterThan(100_000); // hosts were evicted and met again
    expect(evicted).toBeGreaterThan(0);
    expect(peak).toBeLessThanOrEqual(4 + 100);
    // the window's read buffer (2 MiB here) is paid from --cache-mb: the hosts cached take the rest
    const cache = /cached in ([\d.]+) of 4 MiB, \d+ window\(s\) of up to 2 MiB\n$/.exec(r.stderr);
    expect(cache, r.stderr).not.toBeNull();
    expect(Number((cache as RegExpExecArray)[1])).toBeGreaterThan(1);
    expect(Number((cache as RegExpExecArray)[1])).toBeLessThanOrEqual(4 - 2);
  });
});

describe('check --log with --robots-dir', () => {
  it('vhost_combined lines find their host; common lines use --host; the output names the URL checked', () => {
    const dir = join(tempDir(), 'robots');
    mkdirSync(dir);
    writeFileSync(join(dir, 'a.com.txt'), 'User-agent: *\nDisallow: /x\n');
    const log = [
      'a.com:80 1.2.3.4 - - [10/Oct/2000:13:55:36 -0700] "GET /x HTTP/1.1" 200 1 "-" "bot"',
      'b.com 1.2.3.4 - - [10/Oct/2000:13:55:36 -0700] "GET /x HTTP/1.1" 200 1 "-" "bot"',
      '1.2.3.4 - - [10/Oct/2000:13:55:36 -0700] "GET /x/1 HTTP/1.1" 200 1',
      '1.2.3.4 - - [10/Oct/2000:13:55:36 -0700] "GET http://a.com/y HTTP/1.1" 200 1 "-" "bot" 0.012 "10.0.0.1"',
    ].join('\n') + '\n';
    const r = robotstxt(['check', '--robots-dir', dir, '--agent', 'bot', '--log', '--host', 'A.COM', '--format', 'jsonl'], log);
    expect(r.stdout.trim().split('\n').map((line) => JSON.parse(line))).toEqual([
      { input: 1, url: 'http://a.com/x', verdict: 'disallowed', rule: { kind: 'disallow', line: 2, pattern: '/x' } },
      { input: 2, url: 'http://b.com/x', verdict: 'allowed', rule: null },
      { input: 3, url: 'http://A.COM/x/1', verdict: 'disallowed', rule: { kind: 'disallow', line: 2, pattern: '/x' } },
      { input: 4, url: 'http://a.com/y', verdict: 'allowed', rule: null },
    ]);
    expect(r.stderr).toBe(`robotstxt: 1 host(s) have no robots.txt file in ${dir} (http://b.com): their URLs were answered as allowed (--missing allow; --missing disallow or error for hosts whose rules must be known)\n`);
  });
  it('the missing-policy verdict reports no made-up rule', () => {
    const dir = tempDir();
    const r = robotstxt(['check', '--robots-dir', dir, '--agent', 'bot', '--missing', 'disallow', '--format', 'jsonl'], 'https://nofile.com/x\n/relative\n');
    expect(r.stdout).toBe('{"input":1,"url":"https://nofile.com/x","verdict":"disallowed","rule":null}\n{"input":2,"url":"/relative","verdict":"disallowed","rule":null}\n');
    expect(r.stderr).toBe(`robotstxt: 1 line(s) named no host (line 2): answered as disallowed (--no-host disallow; URLs need http:// or https:// and a host)\nrobotstxt: 1 host(s) have no robots.txt file in ${dir} (https://nofile.com): their URLs were answered as disallowed (--missing disallow)\n`);
  });
});

describe('no line answered without a word', () => {
  const dir = join(tempDir(), 'robots');
  mkdirSync(dir);
  writeFileSync(join(dir, 'ok.example.txt'), 'User-agent: *\nDisallow: /private\n');
  const input = ['https://ok.example/private', 'example.com/page', '//example.com/page', 'https://ok.example/fine', ...Array.from({ length: 8 }, (_, i) => `relative/${i}`), 'https://never.example/x', 'https://never2.example/x'].join('\n') + '\n';
  it('lines naming no host are counted and the first five named by line; --no-host disallow answers them disallowed', () => {
    const allow = robotstxt(['check', '--robots-dir', dir, '--agent', 'bot'], input);
    expect(allow.status).toBe(0);
    expect(allow.stdout.split('\n')[1]).toBe('allowed\texample.com/page');
    expect(allow.stderr).toBe(`robotstxt: 10 line(s) named no host (lines 2, 3, 5, 6, 7 and 5 more): answered as allowed (--no-host allow; URLs need http:// or https:// and a host)\nrobotstxt: 2 host(s) have no robots.txt file in ${dir} (https://never.example, https://never2.example): their URLs were answered as allowed (--missing allow; --missing disallow or error for hosts whose rules must be known)\n`);
    const strict = robotstxt(['check', '--robots-dir', dir, '--agent', 'bot', '--no-host', 'disallow'], input);
    expect(strict.stdout.split('\n').slice(0, 5)).toEqual(['disallowed\thttps://ok.example/private', 'disallowed\texample.com/page', 'disallowed\t//example.com/page', 'allowed\thttps://ok.example/fine', 'disallowed\trelative/0']);
    expect(strict.stdout.split('\n').at(-2)).toBe('allowed\thttps://never2.example/x'); // a host without a file: --missing's allow
  });
  it('--no-host error stops at the first such line, naming it, before its chunk is written (exit 2); with threads too', () => {
    for (const threads of ['1', '2']) {
      const run = robotstxt(['check', '--robots-dir', dir, '--agent', 'bot', '--no-host', 'error', '--threads', threads, '--cache-mb', '64'], input, AT_ONCE);
      expect([run.status, run.stdout, run.stderr]).toEqual([2, '', 'robotstxt: line 2 names no host (no http:// or https:// URL with a host): --no-host error stops here\n']);
    }
  });
  it('check --store: origins never fetched are counted and named; --missing error stops at the first, naming it', () => {
    const store = robotstxt(['check', '--store', dir, '--agent', 'bot', '--no-host', 'disallow'], input);
    expect(store.status).toBe(0);
    expect(store.stderr.split('\n')[1]).toBe('robotstxt: 2 origin(s) have no record in the store, never fetched (https://never.example, https://never2.example): their URLs were answered as allowed (--missing allow; fetch them first with robotstxt fetch --store, or add --fetch)');
    const error = robotstxt(['check', '--store', dir, '--agent', 'bot', '--missing', 'error', '--no-host', 'disallow'], input);
    expect([error.status, error.stderr]).toEqual([2, "robotstxt: no robots.txt known for https://never.example (the source has no file or store record of it; --missing error)\n"]);
    expect(robotstxt(['check', '--robots', join(dir, 'ok.example.txt'), '--agent', 'bot', '--no-host', 'error'], input).stderr).toBe('robotstxt: --no-host applies only with --robots-dir, --store or --pack\n');
  });
  it('hosts of 200 to 2,000 bytes cost only their own line: no file name, a name the file system refuses, or past 1024 bytes no host at all', () => {
    const long = (bytes: number): string => `${Array.from({ length: Math.ceil(bytes / 60) }, (_, i) => `l${i}${'a'.repeat(57)}`).join('.').slice(0, bytes - 8)}.example`;
    const hosts = [200, 246, 323, 1000, 1500, 2000].map(long);
    const lines = ['https://ok.example/private', ...hosts.map((host) => `https://${host}/x`), 'https://ok.example/fine'];
    for (const command of [['check', '--robots-dir', dir], ['check', '--store', dir]]) {
      const run = robotstxt([...command, '--agent', 'bot', '--missing', 'disallow', '--no-host', 'allow', '--stats'], lines.join('\n') + '\n');
      expect(run.status, run.stderr).toBe(0);
      expect(run.stdout).toBe(['disallowed\thttps://ok.example/private', ...hosts.map((host, i) => `${i < 4 ? 'disallowed' : 'allowed'}\thttps://${host}/x`), 'allowed\thttps://ok.example/fine'].join('\n') + '\n');
      expect(run.stderr).toContain('robotstxt: 2 line(s) named no host (lines 6, 7)');
      expect(run.stderr).toContain(', 4 without robots.txt,');
    }
    // audit: the same hosts in vhost_combined lines
    const log = hosts.map((host) => `${host} 66.249.66.1 - - [10/Oct/2026:13:55:36 +0000] "GET /private/a HTTP/1.1" 200 1 "-" "Googlebot/2.1"`).join('\n') + `\nok.example 66.249.66.1 - - [10/Oct/2026:13:55:36 +0000] "GET /private/a HTTP/1.1" 200 1 "-" "Googlebot/2.1"\n`;
    const audit = robotstxt(['audit', '--robots-dir', dir, '--format', 'json', '-'], log);
    expect(audit.status, audit.stderr).toBe(0);
    const report = JSON.parse(audit.stdout);
    expect(report.crawlers[0].disallowed).toBe(1);
  });
});

describe('--format jsonl writes URLs exactly', () => {
  it('a URL that is not UTF-8 is written one char per byte, with "urlEncoding":"latin1"; control bytes escaped', () => {
    const robots = join(tempDir(), 'robots.txt');
    writeFileSync(robots, 'User-agent: *\nDisallow: /\xe9\n', 'latin1');
    const input = Buffer.concat([Buffer.from('/\xe9x\n/%E9x\n', 'latin1'), Buffer.from('/é"\\\t\x01\n', 'utf8')]);
    const r = robotstxt(['check', '--robots', robots, '--agent', 'x', '--format', 'jsonl'], input);
    const lines = Buffer.from(r.stdout, 'latin1').toString('utf8').trim().split('\n');
    // the raw byte 0xE9 is not the normalised pattern /%E9 (the reference compares the URL as it is)
    expect(lines[0]).toBe('{"input":1,"url":"/\u00e9x","urlEncoding":"latin1","verdict":"allowed","rule":null}');
    expect(lines[1]).toBe('{"input":2,"url":"/%E9x","verdict":"disallowed","rule":{"kind":"disallow","line":2,"pattern":"/%E9"}}');
    expect(JSON.parse(lines[0]).url).toBe('/\u00e9x');
    expect(JSON.parse(lines[2])).toEqual({ input: 3, url: '/é"\\\t\u0001', verdict: 'allowed', rule: null });
    expect(lines[2]).toBe('{"input":3,"url":"/é\\"\\\\\\t\\u0001","verdict":"allowed","rule":null}');
  });
});

describe("the input's last window (MultiHostMatcher's last: hosts met only there are not kept)", () => {
  it('a file of known size is at its end once its last bytes are read: a file smaller than one read, and the last of three windows', async () => {
    const { LineReader } = await import('../src/node/logs/index.js');
    const dir = tempDir();
    const small = join(dir, 'small.txt');
    writeFileSync(small, 'https://a.test/x\nhttps://b.test/y\n');
    const reader = await LineReader.open(small, 'URL file');
    expect(reader.atEnd).toBe(false);
    expect(new TextDecoder().decode((await reader.next(new Uint8Array(1 << 20))) as Uint8Array)).toBe('https://a.test/x\nhttps://b.test/y\n');
    expect(reader.atEnd).toBe(true);
    expect(await reader.next(new Uint8Array(1 << 20))).toBeNull();
    const three = join(dir, 'three.txt');
    writeFileSync(three, Array.from({ length: 30_000 }, (_, i) => `https://h${i}.test/page`).join('\n') + '\n'); // ~600 KB
    const windows = await LineReader.open(three, 'URL file');
    const ends: boolean[] = [];
    for (let chunk = await windows.next(new Uint8Array(256 << 10)); chunk !== null; chunk = await windows.next(new Uint8Array(256 << 10))) ends.push(windows.atEnd);
    expect(ends).toEqual([false, false, true]);
  });
});
