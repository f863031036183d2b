// Bad input never crashes, hangs, fails open or flips a verdict. One test per defect of the
// hostile-input sweep (small limits and generated streams: no large fixtures), and a bounded fuzz run of the
// commands on random bytes, lines and options. (Time and memory of the worst cases: bench/RESULTS.md.)
import { describe, it, expect } from 'vitest';
import { spawn, spawnSync } from 'node:child_process';
import { writeFileSync, mkdirSync, truncateSync, symlinkSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { join } from 'node:path';
import fc from 'fast-check';
import { CLI, robotstxt, tempDir } from './cli-helpers.js';
import { until, cpuSecondsOf } from './helpers.js';
import { GZIP_THREAD_MIN_BYTES, LineReader } from '../src/node/logs/line-reader.js';
import { parseRobots, RobotsAudit, RobotsError, productToken, crawlerName } from '../src/node/index.js';

const dir = tempDir();
const robots = join(dir, 'robots.txt');
writeFileSync(robots, 'User-agent: *\nDisallow: /private\n');
const logLine = (path: string, agent: string): string => `1.2.3.4 - - [21/Nov/2026:08:00:00 +0000] "GET ${path} HTTP/1.1" 200 1 "-" "${agent}"`;

/** Runs the CLI with a shell pipeline around it (for closed pipes and full disks). */
function shell(command: string): { status: number | null; stderr: string } {
  const result = spawnSync('bash', ['-c', command.replaceAll('robotstxt ', `${process.execPath} ${CLI} `)], { encoding: 'utf8' });
  return { status: result.status, stderr: result.stderr };
}

describe('the library never fails open on what is not a body', () => {
  const body = 'User-agent: *\nDisallow: /\n';
  it('Uint8Array, Buffer, ArrayBuffer, DataView and strings are bodies', () => {
    const bytes = new TextEncoder().encode(body);
    for (const input of [bytes, Buffer.from(body), bytes.buffer, new DataView(bytes.buffer), body]) {
      expect(parseRobots(input).matcher('x').isAllowed('http://a/x')).toBe(false);
    }
  });
  it('anything else is INVALID_ARGUMENT, never an empty (allow-all) file', () => {
    for (const [input, what] of [[[1, 2], 'an array'], [{}, 'object'], [5, 'number'], [null, 'null'], [undefined, 'undefined'], [new Uint16Array(2), 'Uint16Array']] as [unknown, string][]) {
      let error: unknown = null;
      try {
        parseRobots(input as string);
      } catch (caught) {
        error = caught;
      }
      expect(error).toBeInstanceOf(RobotsError);
      expect((error as RobotsError).code).toBe('INVALID_ARGUMENT');
      expect((error as RobotsError).message).toBe(`a robots.txt body must be a Uint8Array, ArrayBuffer, DataView or string, got ${what}`);
    }
  });
});

describe('size limits are a RobotsError, never a raw WebAssembly error', () => {
  it('one rule for large bodies: read whole (maxBytes 0), a body past 16 MiB is INPUT_TOO_LARGE; with a limit it is cut there and says so; a limit past 16 MiB is refused', () => {
    const body = new Uint8Array((16 << 20) + 10).fill(0x61);
    body.set(new TextEncoder().encode('User-agent: *\nDisallow: /\n'));
    expect(() => parseRobots(body, { maxBytes: 0 })).toThrow(expect.objectContaining({
      code: 'INPUT_TOO_LARGE',
      message: 'a robots.txt body of 16777226 bytes is larger than one compile takes whole (16 MiB): give a size limit (such as the 512000 bytes crawlers read) to read its first part',
    }));
    expect(() => parseRobots(body, { maxBytes: (16 << 20) + 1 })).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT', message: 'maxBytes must be a whole number from 0 (the whole body) to 16777216 (16 MiB), got 16777217' }));
    const cut = parseRobots(body, { maxBytes: 16 << 20 });
    expect(cut.bytesRead).toBe(16 << 20);
    expect(cut.diagnostics.at(-1)).toEqual({ line: 0, severity: 'warning', code: 'body-truncated', message: `file is ${(16 << 20) + 10} bytes: only the first 16777216 are read` });
    expect(cut.matcher('x').isAllowed('http://a/x')).toBe(false);
    expect(parseRobots(body).matcher('x').isAllowed('http://a/x')).toBe(false);
    expect(parseRobots(body).bytesRead).toBe(512000);
  });
  it('the crawler\'s product token from a whole User-Agent header', () => {
    expect(productToken(crawlerName('Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)'))).toBe('Googlebot');
    expect(productToken(crawlerName('Googlebot-Image/1.0'))).toBe('Googlebot-Image');
  });
});

describe('exit codes never claim a verdict that was not written', () => {
  it('test: a reader that closes the pipe early never turns DISALLOWED into exit 0 (allowed)', () => {
    for (let i = 0; i < 5; i++) {
      // either the verdict reached the pipe before the reader left (1), or the write failed (2)
      const r = shell(`robotstxt test ${robots} x http://a/private | (exec 0<&-; true); exit \${PIPESTATUS[0]}`);
      expect([1, 2]).toContain(r.status);
      if (r.status === 2) expect(r.stderr).toBe('robotstxt: standard output was closed before everything was written (exit 2: the output is incomplete, no verdict)\n');
    }
  });
  it('a write error (/dev/full) is one line and exit 2, for test and lint', () => {
    const test = shell(`robotstxt test ${robots} x http://a/ > /dev/full; exit $?`);
    expect(test).toEqual({ status: 2, stderr: 'robotstxt: cannot write standard output: no space left on device (exit 2: the output is incomplete, no verdict)\n' });
    const lint = shell(`robotstxt lint ${robots} > /dev/full; exit $?`);
    expect(lint).toEqual({ status: 2, stderr: 'robotstxt: cannot write standard output: no space left on device (exit 2: the output is incomplete)\n' });
  });
  it('check stays a line filter: | head -1 exits 0 with whole lines', () => {
    const r = shell(`seq 1 200000 | sed 's#^#http://a/private/#' | robotstxt check --robots ${robots} --agent x | head -1; exit \${PIPESTATUS[2]}`);
    expect(r.status).toBe(0);
  });
});

describe('SIGTERM and SIGINT: whole lines, then the process ends by that signal (status 143 or 130 in a shell)', () => {
  it('lint, busy for seconds in one computation, ends at once by the signal (no handler waits for the computation)', async () => {
    const large = join(dir, 'repeated-rules.txt');
    writeFileSync(large, 'User-agent: *\n' + 'Disallow: /x\n'.repeat(1_200_000));
    const child = spawn(process.execPath, [CLI, 'lint', large], { stdio: ['ignore', 'pipe', 'ignore'] });
    let stdout = '';
    child.stdout.setEncoding('utf8').on('data', (text: string) => { stdout += text; });
    // busy in its one computation: a quarter of a CPU second spent (start-up takes less)
    await until(() => cpuSecondsOf(child.pid as number) >= 0.25, 'lint to be busy linting');
    child.kill('SIGTERM');
    const ended = await new Promise<[number | null, string | null]>((resolve) => child.on('close', (exitCode, bySignal) => resolve([exitCode, bySignal])));
    expect(ended).toEqual([null, 'SIGTERM']);
    // a handler that waited for the computation would have written its 1,199,999 findings first
    expect(stdout).toBe('');
  });
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    it(`${signal} while check streams to a slow pipe`, async () => {
      const child = spawn(process.execPath, [CLI, 'check', '--robots', robots, '--agent', 'x', '-'], { stdio: ['pipe', 'pipe', 'pipe'] });
      let out = '';
      child.stdout.setEncoding('latin1');
      child.stdout.on('data', (text: string) => { out += text; });
      const lines = Array.from({ length: 50_000 }, (_, i) => `http://a/private/${i}`).join('\n') + '\n';
      child.stdin.on('error', () => undefined); // the child is stopped with input unread: the rest of this write fails (EPIPE)
      child.stdin.write(lines);
      await until(() => out.length > 0, 'the first answers');
      child.kill(signal);
      const ended = await new Promise<[number | null, string | null]>((resolve) => child.on('close', (exitCode, bySignal) => resolve([exitCode, bySignal])));
      expect(ended).toEqual([null, signal]);
      expect(out.length).toBeGreaterThan(0);
      expect(out.endsWith('\n')).toBe(true);
      for (const line of out.split('\n').slice(0, -1)) expect(line).toMatch(/^disallowed\thttp:\/\/a\/private\/\d+$/);
    });
  }
});

it('SIGTERM with stdin idle (an open pipe with nothing in it): the process ends by the signal (a shell sees status 143)', async () => {
  const child = spawn('sh', ['-c', `"${process.execPath}" "${CLI}" check --robots "${robots}" --agent x -; echo "status $?" >&2`], { stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.setEncoding('latin1').on('data', (text: string) => { out += text; });
  child.stderr.setEncoding('latin1').on('data', (text: string) => { err += text; });
  // ready: it answered a first line, and now waits on its idle input
  child.stdin.write('http://a/private/1\n');
  await until(() => out === 'disallowed\thttp://a/private/1\n', 'the first answer');
  const pid = Number(spawnSync('pgrep', ['-P', String(child.pid), '-f', 'robotstxt.cjs'], { encoding: 'utf8' }).stdout.trim());
  process.kill(pid, 'SIGTERM');
  await new Promise((resolve) => child.on('close', resolve));
  expect(err).toMatch(/^(Terminated\n)?status 143\n$/); // (dash reports the signal of a foreground child)
});

describe('clear errors instead of crashes', () => {
  it('corrupt or truncated gzip input: one line naming the file, exit 2', () => {
    const gz = join(dir, 'cut.gz');
    writeFileSync(gz, gzipSync('http://a/x\n'.repeat(1000)).subarray(0, 40));
    const r = robotstxt(['check', '--robots', robots, '--agent', 'x', gz]);
    expect(r.stderr).toBe(`robotstxt: cannot read URL file '${gz}': corrupt or truncated gzip data (unexpected end of file)\n`);
    expect(r.status).toBe(2);
  });
  it('a gzip file of 4 MiB or more (inflated on a thread of its own when read in windows: many hosts): the plain file\'s answers, with one robots.txt and with many hosts; cut or damaged, the same line as its bytes piped (the main thread\'s reader), exit 2; as standard input redirected from it, the same answers; its reader stopped early (head -1), the process ends', async () => {
    let seed = 7;
    const token = (): string => { seed = (Math.imul(seed, 1103515245) + 12345) >>> 0; return seed.toString(36); };
    const text = Array.from({ length: 320_000 }, (_, i) => `http://a/${i % 3 === 0 ? 'private' : 'public'}/${token()}${token()}/${token()}`).join('\n') + '\n';
    const plain = join(dir, 'big.txt');
    writeFileSync(plain, text);
    const packed = gzipSync(text);
    expect(packed.length).toBeGreaterThanOrEqual(GZIP_THREAD_MIN_BYTES);
    const gz = join(dir, 'big.gz');
    writeFileSync(gz, packed);
    const expected = robotstxt(['check', '--robots', robots, '--agent', 'x', plain]);
    expect([expected.status, expected.stdout.split('\n').length, expected.stdout.split('disallowed\t').length - 1]).toEqual([0, 320_001, 106_667]);
    expect(robotstxt(['check', '--robots', robots, '--agent', 'x', gz])).toEqual(expected);
    // many hosts: windows of 2 MiB (--cache-mb 16), read ahead whole
    const sites = join(dir, 'big-sites');
    mkdirSync(sites, { recursive: true });
    writeFileSync(join(sites, 'a.txt'), 'User-agent: *\nDisallow: /private\n');
    const hostsArgs = ['check', '--robots-dir', sites, '--agent', 'x', '--threads', '1', '--cache-mb', '16'];
    expect(robotstxt([...hostsArgs, gz])).toEqual(expected);
    // standard input that is the file (a redirect: read on the thread, its fd left open) answers alike
    const redirected = spawnSync('/bin/sh', ['-c', `"${process.execPath}" "${CLI}" ${hostsArgs.map((arg) => `"${arg}"`).join(' ')} - < "${gz}"`], { encoding: 'latin1', maxBuffer: 64 << 20 });
    expect([redirected.status, redirected.stdout, redirected.stderr]).toEqual([0, expected.stdout, '']);
    const cut = join(dir, 'big-cut.gz');
    writeFileSync(cut, packed.subarray(0, packed.length - 1000));
    const r = robotstxt(['check', '--robots', robots, '--agent', 'x', cut]);
    expect([r.status, r.stderr]).toEqual([2, `robotstxt: cannot read URL file '${cut}': corrupt or truncated gzip data (unexpected end of file)\n`]);
    // a byte changed in the middle of the data: what zlib says of it, as for the same bytes piped (read on this thread)
    const damaged = join(dir, 'big-damaged.gz');
    const changed = Buffer.from(packed);
    changed[changed.length >> 1] ^= 0x55;
    writeFileSync(damaged, changed);
    for (const args of [['check', '--robots', robots, '--agent', 'x'], hostsArgs]) {
      const fromFile = robotstxt([...args, damaged]);
      const piped = spawnSync('/bin/sh', ['-c', `cat "${damaged}" | "${process.execPath}" "${CLI}" ${args.map((arg) => `"${arg}"`).join(' ')} - > /dev/null`], { encoding: 'latin1' });
      expect(fromFile.status).toBe(2);
      expect(fromFile.stderr).toMatch(new RegExp(`^robotstxt: cannot read URL file '${damaged.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}': corrupt or truncated gzip data \\([^\n]+\\)\n$`));
      expect([piped.status, piped.stderr]).toEqual([2, fromFile.stderr.replace(`'${damaged}'`, "'-'")]);
    }
    // the thread's ring holds the caller's window (paid from a many-host cache); closed before a read, it ends
    const threaded = await LineReader.open(gz, 'URL file', { windowBytes: 3 << 20 });
    const plainReader = await LineReader.open(plain, 'URL file', { windowBytes: 3 << 20 });
    const unwindowed = await LineReader.open(gz, 'URL file');
    expect([threaded.aheadBytes, plainReader.aheadBytes, unwindowed.aheadBytes]).toEqual([3 << 20, 0, 0]);
    await Promise.all([threaded.close(), plainReader.close(), unwindowed.close()]);
    const early = spawnSync('/bin/sh', ['-c', `"${process.execPath}" "${CLI}" ${hostsArgs.map((arg) => `"${arg}"`).join(' ')} "${gz}" | head -1`], { encoding: 'latin1' });
    expect([early.status, early.stdout]).toEqual([0, expected.stdout.split('\n')[0] + '\n']);
  });
  it('audit --output into a missing folder names it, exit 2', () => {
    const log = join(dir, 'one.log');
    writeFileSync(log, logLine('/x', 'Googlebot/2.1') + '\n');
    const r = robotstxt(['audit', '--robots', robots, '--output', join(dir, 'missing', 'a.html'), log]);
    expect(r.stderr).toBe(`robotstxt: cannot write report file '${join(dir, 'missing', 'a.html')}': no such directory\n`);
    expect(r.status).toBe(2);
  });
  it('negative and empty option values get their option\'s own message', () => {
    const cases: [string[], string][] = [
      [['check', '--robots', robots, '--agent', 'x', '--threads', '-1', '/dev/null'], "--threads must be a whole number from 1 to"],
      [['check', '--robots', robots, '--agent', 'x', '--threads', '99999999999999999999', '/dev/null'], "--threads must be a whole number from 1 to"],
      [['check', '--robots', robots, '--agent', 'x', '--max-bytes', '-5', '/dev/null'], "--max-bytes must be a whole number from 0 to 16777216, got '-5'"],
      [['diff', robots, robots, '--agent', 'x', '--urls', '/dev/null', '--limit', '-1'], "--limit must be a whole number from 0 to 1000000000, got '-1'"],
      [['check', '--robots', robots, '--agent', '', '/dev/null'], "--agent must name a crawler (a product token such as Googlebot), got ''"],
      [['diff', robots, robots, '--agent', ' ', '--urls', '/dev/null'], "--agent must name a crawler (a product token such as Googlebot), got ' '"],
    ];
    for (const [args, message] of cases) {
      const r = robotstxt(args);
      expect(r.stderr.startsWith(`robotstxt: ${message}`)).toBe(true);
      expect(r.stderr.split('\n').length).toBe(2);
      expect(r.status).toBe(2);
    }
  });
});

describe('bounded structures with exact totals', () => {
  it('audit: past 20,000 tracked crawlers the 10,000 with the fewest disallowed are summed; the totals stay exact', { tags: ['slow'] }, () => {
    const audit = new RobotsAudit(() => parseRobots('User-agent: *\nDisallow: /private\n'));
    for (let i = 0; i < 20_050; i++) audit.addLine(logLine(i % 2 === 0 ? '/private/x' : '/ok', `compatible; Crawler${i}bot/1.0`), i + 1);
    const report = audit.report();
    // at the 20,001st crawler, 10,000 of the 10,000 with no disallowed request were dropped
    expect(report.crawlers.length).toBe(10_050);
    expect(report.untracked).toEqual({ crawlers: 10_000, requests: 10_000, disallowed: 0, usageAgainst: 0 });
    expect(report.crawlerRequests).toBe(20_050);
    expect(report.disallowed).toBe(10_025);
    expect(report.crawlers.reduce((sum, c) => sum + c.disallowed, 0) + report.untracked.disallowed).toBe(10_025);
    expect(report.crawlers.filter((c) => c.disallowed === 1)).toHaveLength(10_025);
  });
  it('diff: per-direction request totals are exact past the listed URLs, and the text says so', { tags: ['slow'] }, () => {
    const oldFile = join(dir, 'old.txt');
    const newFile = join(dir, 'new.txt');
    writeFileSync(oldFile, 'User-agent: *\nDisallow:\n');
    writeFileSync(newFile, 'User-agent: *\nDisallow: /search\n');
    const many = join(dir, 'many.txt');
    writeFileSync(many, Array.from({ length: 100_500 }, (_, i) => `/search?q=${i}`).join('\n') + '\n/search?q=100499\n');
    const json = JSON.parse(robotstxt(['diff', oldFile, newFile, '--agent', 'x', '--urls', many, '--format', 'json']).stdout);
    expect([json.newlyDisallowedRequests, json.newlyAllowedRequests, json.newlyDisallowed.length, json.truncated]).toEqual([100_501, 0, 100_000, true]);
    const text = robotstxt(['diff', oldFile, newFile, '--agent', 'x', '--urls', many, '--fail-on', 'newly-disallowed']);
    expect(text.stdout.split('\n')[2]).toBe('newly disallowed: 100501 request(s) of more than 100000 distinct URLs (100000 listed, with 100000 of the requests)');
    expect(text.stderr).toBe('robotstxt: diff: --fail-on newly-disallowed: 100501 request(s) change\n');
    expect(text.status).toBe(1);
  });
});

describe('long lines however they arrive', () => {
  it('a 9 MiB quoted User-Agent: audit, check --log and diff --log answer the line; the name is cut to 64 characters', () => {
    const log = join(dir, 'huge-agent.log');
    writeFileSync(log, `${logLine('/private/a', `Big${'x'.repeat(9 << 20)}bot`)}\n${logLine('/ok', 'Googlebot/2.1')}\n`);
    const audit = JSON.parse(robotstxt(['audit', '--robots', robots, '--format', 'json', log]).stdout);
    expect(audit.crawlers.map((c: { agent: string; requests: number; disallowed: number }) => [c.agent.length, c.requests, c.disallowed])).toEqual([[64, 1, 1], [9, 1, 0]]);
    expect(robotstxt(['check', '--robots', robots, '--agent', 'x', '--log', log]).stdout).toBe('disallowed\t/private/a\nallowed\t/ok\n');
  });
  it('a 4 MiB line written to a pipe 1 KiB at a time comes through whole', async () => {
    const child = spawn(process.execPath, [CLI, 'check', '--robots', robots, '--agent', 'x', '-'], { stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.setEncoding('latin1');
    child.stdout.on('data', (text: string) => { out += text; });
    const line = `http://a/private/${'y'.repeat(4 << 20)}\n`;
    for (let at = 0; at < line.length; at += 1024) {
      if (!child.stdin.write(line.slice(at, at + 1024))) await new Promise((resolve) => child.stdin.once('drain', resolve));
    }
    child.stdin.end('http://a/ok\n');
    const status = await new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
    expect(status).toBe(0);
    expect(out).toBe(`disallowed\t${line}allowed\thttp://a/ok\n`);
  });
});

describe('huge inputs are read only as far as needed', () => {
  it('one line of 1 GiB through gzip is refused after 128 MiB, naming where it starts, exit 2', { tags: ['slow'] }, () => {
    const gz = join(dir, 'long-line.gz');
    writeFileSync(gz, gzipSync(Buffer.concat([Buffer.from('http://a/ok\nhttp://a/'), Buffer.alloc((128 << 20) + 10, 0x62), Buffer.from('\n')]), { level: 1 }));
    const r = robotstxt(['check', '--robots', robots, '--agent', 'x', gz]);
    expect(r.stderr).toBe(`robotstxt: cannot read URL file '${gz}': the line at byte 13 is longer than 128 MiB, the longest line read\n`);
    expect(r.status).toBe(2);
  });
  it('a 3 GB robots.txt (sparse): check, diff, audit and --robots-dir read 500 KiB; lint 16 MiB and says so; test refuses it', { tags: ['slow'] }, () => {
    const huge = join(dir, 'huge-robots.txt');
    writeFileSync(huge, 'User-agent: *\nDisallow: /private\n');
    truncateSync(huge, 3 * 1024 ** 3);
    const urls = join(dir, 'two-urls.txt');
    writeFileSync(urls, 'http://a/private\nhttp://a/ok\n');
    expect(robotstxt(['check', '--robots', huge, '--agent', 'x', urls]).stdout).toBe('disallowed\thttp://a/private\nallowed\thttp://a/ok\n');
    expect(robotstxt(['diff', huge, robots, '--agent', 'x', '--urls', urls]).status).toBe(0);
    const log = join(dir, 'huge-robots.log');
    writeFileSync(log, logLine('/private/a', 'Googlebot/2.1') + '\n');
    expect(JSON.parse(robotstxt(['audit', '--robots', huge, '--format', 'json', log]).stdout).crawlers[0].disallowed).toBe(1);
    const sites = join(dir, 'huge-sites');
    mkdirSync(sites, { recursive: true });
    symlinkSync(huge, join(sites, 'a.txt'));
    expect(robotstxt(['check', '--robots-dir', sites, '--agent', 'x', urls]).stdout).toBe('disallowed\thttp://a/private\nallowed\thttp://a/ok\n');
    const lint = robotstxt(['lint', huge]);
    expect(lint.stdout.split('\n').filter((line) => line.includes('[file-too-large-to-lint]'))).toEqual([`${huge}:3: warning: file is 3221225472 bytes, larger than 16 MiB: linting stops at this line (crawlers read only the first 500 KiB) [file-too-large-to-lint]`]);
    const test = robotstxt(['test', huge, 'x', 'http://a/ok']);
    expect([test.stderr, test.status]).toEqual([`robotstxt: robots file '${huge}': a robots.txt body of more than 16777216 bytes is larger than one compile takes whole (16 MiB): give a size limit (such as the 512000 bytes crawlers read) to read its first part\n`, 2]);
    // the same rule for every reader asked for the whole file
    for (const args of [['check', '--robots', huge, '--max-bytes', '0', '--agent', 'x', urls], ['check', '--robots-dir', sites, '--max-bytes', '0', '--agent', 'x', urls]]) {
      const whole = robotstxt(args);
      expect(whole.status).toBe(2);
      expect(whole.stderr).toContain('a robots.txt body of more than 16777216 bytes is larger than one compile takes whole (16 MiB)');
    }
  });
});

describe('fuzz: random bytes, lines and options through check, lint, diff and audit', () => {
  const BYTE_POOL = [0x0a, 0x0d, 0x20, 0x22, 0x2a, 0x24, 0x2f, 0x3a, 0x3f, 0x5b, 0x5d, 0x5c, 0x7b, 0x7d, 0x00, 0xff, 0xc3, 0xa9, 0x09, 0x23];
  const text = fc.array(fc.oneof(fc.constantFrom(...BYTE_POOL), fc.integer({ min: 0x20, max: 0x7e })), { maxLength: 300 }).map((bytes) => Buffer.from(bytes));
  const snippets = fc.constantFrom('User-agent: *\n', 'Disallow: /', 'Allow: /a*b$', 'Sitemap: x', '\n', 'http://a/', '/private', '{"uri":"/x","http_user_agent":"bot"}', logLine('/private', 'Googlebot/2.1'), '#Fields: date time cs-uri-stem\n', '2026-11-21\t10:00:00\t/x\n', '<html>', '\xef\xbb\xbf');
  const body = fc.array(fc.oneof(text, snippets.map((s) => Buffer.from(s, 'latin1'))), { maxLength: 12 }).map((parts) => Buffer.concat(parts));
  const options = fc.record({
    mode: fc.constantFrom([], ['--mode', 'rfc'], ['--mode', 'google'], ['--mode', 'nope']),
    maxBytes: fc.constantFrom([], ['--max-bytes', '0'], ['--max-bytes', '7'], ['--max-bytes', '-1'], ['--max-bytes', 'x']),
    gzip: fc.boolean(),
  });
  const commands = fc.constantFrom('check', 'check-log', 'check-jsonl', 'lint', 'diff', 'audit', 'audit-json');
  it('exit 0, 1 or 2; whole lines; never an internal error; within a 96 MiB heap (40 runs)', { tags: ['slow'] }, () => {
    let run = 0;
    fc.assert(fc.property(commands, body, body, options, (command, robotsBytes, input, opts) => {
      const case_ = join(dir, `fuzz-${run++}`);
      mkdirSync(case_, { recursive: true });
      const robotsPath = join(case_, 'robots.txt');
      const inputPath = join(case_, opts.gzip ? 'input.gz' : 'input');
      writeFileSync(robotsPath, robotsBytes);
      writeFileSync(inputPath, opts.gzip ? gzipSync(input) : input);
      const common = [...opts.mode, ...opts.maxBytes];
      const args = {
        'check': ['check', '--robots', robotsPath, '--agent', 'Googlebot', ...common, inputPath],
        'check-log': ['check', '--robots', robotsPath, '--agent', 'Googlebot', '--log', ...common, inputPath],
        'check-jsonl': ['check', '--robots', robotsPath, '--agent', 'Googlebot', '--format', 'jsonl', ...common, inputPath],
        'lint': ['lint', ...common, robotsPath],
        'diff': ['diff', robotsPath, robotsPath, '--agent', 'Googlebot', '--log', inputPath, ...common],
        'audit': ['audit', '--robots', robotsPath, ...common, inputPath],
        'audit-json': ['audit', '--robots', robotsPath, '--format', 'json', ...common, inputPath],
      }[command];
      // under a 96 MiB JavaScript heap: a run that outgrows it dies (exit 134), which fails the exit code check
      const run_ = spawnSync(process.execPath, ['--max-old-space-size=96', CLI, ...args], { encoding: 'latin1', maxBuffer: 1 << 26 });
      const r = { status: run_.status, stdout: run_.stdout, stderr: run_.stderr };
      expect([0, 1, 2]).toContain(r.status);
      expect(r.stderr).not.toContain('internal error');
      expect(r.stdout === '' || r.stdout.endsWith('\n')).toBe(true);
      if (command === 'check-jsonl' && r.status === 0) for (const line of r.stdout.split('\n').slice(0, -1)) JSON.parse(line);
      if (command === 'audit-json' && r.status === 0) JSON.parse(r.stdout);
    }), { numRuns: 40, seed: 20261122 });
  });
});
