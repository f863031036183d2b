// robotstxt check for pipelines: --only, --format jsonl, --log (with vhost and --host for --robots-dir).
import { describe, it, expect } from 'vitest';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { spawn, spawnSync } from 'node:child_process';
import { robotstxt, tempDir, CLI, CORPUS_LOG, corpusMissingReason } from './cli-helpers.js';
import { parseLogLine } from '../src/node/logs/index.js';
import { modelVerdict } from './model.js';

const dir = tempDir();
const robots = join(dir, 'robots.txt');
writeFileSync(robots, 'User-agent: *\nDisallow: /private\nAllow: /private/ok\n');
const urls = 'https://e.com/private/x\n\nhttps://e.com/private/ok\r\n/a\n';

describe('--only', () => {
  it('disallowed: just those URLs, like grep', () => {
    expect(robotstxt(['check', '--robots', robots, '--agent', 'x', '--only', 'disallowed'], urls).stdout).toBe('https://e.com/private/x\n');
  });
  it('allowed: just those URLs (an empty line is an allowed URL)', () => {
    expect(robotstxt(['check', '--robots', robots, '--agent', 'x', '--only', 'allowed'], urls).stdout).toBe('\nhttps://e.com/private/ok\n/a\n');
  });
  it('with two threads on a larger input, the same lines in the same order', () => {
    const many = Array.from({ length: 50_000 }, (_, i) => (i % 2 === 0 ? `https://e.com/private/${i}` : `https://e.com/page/${'q'.repeat(i % 30)}${i}`)).join('\n') + '\n';
    const one = robotstxt(['check', '--robots', robots, '--agent', 'x', '--only', 'disallowed', '--threads', '1'], many).stdout;
    const two = robotstxt(['check', '--robots', robots, '--agent', 'x', '--only', 'disallowed', '--threads', '2'], many).stdout;
    expect(two).toBe(one);
    expect(one.split('\n').length).toBe(25_001);
  });
  it('a bad value is a usage error', () => {
    const r = robotstxt(['check', '--robots', robots, '--agent', 'x', '--only', 'maybe'], '');
    expect(r.stderr).toBe("robotstxt: --only must be allowed or disallowed, got 'maybe'\n");
    expect(r.status).toBe(2);
  });
});

describe('--format jsonl', () => {
  it('one object per input line with the deciding rule', () => {
    const lines = robotstxt(['check', '--robots', robots, '--agent', 'x', '--format', 'jsonl'], urls).stdout.trim().split('\n').map((l) => JSON.parse(l));
    expect(lines).toEqual([
      { input: 1, url: 'https://e.com/private/x', verdict: 'disallowed', rule: { kind: 'disallow', line: 2, pattern: '/private' } },
      { input: 2, url: '', verdict: 'allowed', rule: null },
      { input: 3, url: 'https://e.com/private/ok', verdict: 'allowed', rule: { kind: 'allow', line: 3, pattern: '/private/ok' } },
      { input: 4, url: '/a', verdict: 'allowed', rule: null },
    ]);
  });
  it('combines with --only', () => {
    const out = robotstxt(['check', '--robots', robots, '--agent', 'x', '--format', 'jsonl', '--only', 'disallowed'], urls).stdout;
    expect(out).toBe('{"input":1,"url":"https://e.com/private/x","verdict":"disallowed","rule":{"kind":"disallow","line":2,"pattern":"/private"}}\n');
  });
});

describe('--log', () => {
  const log = [
    '1.2.3.4 - - [10/Oct/2000:13:55:36 -0700] "GET /private/a HTTP/1.1" 200 2326',
    '1.2.3.4 - - [10/Oct/2000:13:55:37 -0700] "GET /private/ok?x=1 HTTP/1.1" 200 2326 "-" "Googlebot/2.1"',
    'a.com:443 1.2.3.4 - - [10/Oct/2000:13:55:38 -0700] "GET /private/b HTTP/1.1" 404 0 "-" "bot"',
    'this is not a log line',
    '5.6.7.8 - - [10/Oct/2000:13:55:39 -0700] "\\x16\\x03\\x01" 400 0 "-" "-"',
    '5.6.7.8 - - [10/Oct/2000:13:55:40 -0700] "HEAD http://a.com/private/c HTTP/1.0" 200 0 "-" "-"',
  ].join('\n') + '\n';
  it('checks the request target of common, combined and vhost_combined lines; reports the others with line numbers', () => {
    const r = robotstxt(['check', '--robots', robots, '--agent', 'x', '--log'], log);
    expect(r.stdout).toBe('disallowed\t/private/a\nallowed\t/private/ok?x=1\ndisallowed\t/private/b\ndisallowed\thttp://a.com/private/c\n');
    expect(r.stderr).toBe([
      'robotstxt: line 4: not an access log line with a request target: skipped',
      'robotstxt: line 5: not an access log line with a request target: skipped',
      'robotstxt: 2 of 6 input lines were not access log lines',
    ].join('\n') + '\n');
    expect(r.status).toBe(0);
  });
  it('with --robots-dir the host is the vhost field, else --host', () => {
    const sites = join(dir, 'sites');
    mkdirSync(sites);
    writeFileSync(join(sites, 'a.com.txt'), 'User-agent: *\nDisallow: /private/b\n');
    writeFileSync(join(sites, 'b.com.txt'), 'User-agent: *\nDisallow: /\n');
    const r = robotstxt(['check', '--robots-dir', sites, '--agent', 'x', '--log', '--host', 'b.com'], log);
    // the output names the URL as checked, host included
    expect(r.stdout).toBe('disallowed\thttp://b.com/private/a\ndisallowed\thttp://b.com/private/ok?x=1\ndisallowed\thttp://a.com/private/b\nallowed\thttp://a.com/private/c\n');
  });
  it('--host without --log is a usage error', () => {
    expect(robotstxt(['check', '--robots', robots, '--agent', 'x', '--host', 'a.com'], '').stderr).toBe('robotstxt: --host applies only with --log\n');
  });
  it('parseLogLine reads the three formats', () => {
    expect(parseLogLine('a.com:443 1.2.3.4 - - [t] "GET /x HTTP/1.1" 200 5 "r" "ua \\"q\\""')).toEqual({
      format: 'vhost_combined', host: 'a.com', vhost: 'a.com', client: '1.2.3.4', time: 't', timeMs: null, method: 'GET', target: '/x', status: 200, referer: 'r', userAgent: 'ua "q"', forwardedFor: null,
    });
    expect(parseLogLine('1.2.3.4 - u [t] "GET /x HTTP/1.0" - -')?.format).toBe('common');
    expect(parseLogLine('1.2.3.4 - u [t] "GET /x HTTP/1.0" 200 1 "-" "-"')?.format).toBe('combined');
    expect(parseLogLine('1.2.3.4 - u [t] "-" 400 0')).toBeNull();
  });
});

describe.skipIf(corpusMissingReason !== null)('--log on the real Apache log (../shared/corpus/logs)', () => {
  it('answers every request line like the model and reports the one truncated line', () => {
    const r = robotstxt(['check', '--robots', robots, '--agent', 'Googlebot', '--log', CORPUS_LOG]);
    const out = r.stdout.trim().split('\n');
    expect(out.length).toBe(9999);
    expect(r.stderr).toBe('robotstxt: line 8899: not an access log line with a request target: skipped\nrobotstxt: 1 of 10000 input lines were not access log lines\n');
    const targets = readFileSync(CORPUS_LOG, 'latin1').split('\n').filter((l) => l !== '').map((l) => parseLogLine(l)?.target).filter((t): t is string => t !== undefined);
    const body = readFileSync(robots);
    targets.forEach((target, i) => {
      const expected = `${modelVerdict(body, ['Googlebot'], Buffer.from(target, 'latin1')).allowed ? 'allowed' : 'disallowed'}\t${target}`;
      if (out[i] !== expected) expect(out[i]).toBe(expected);
    });
  });
});

describe('gzip input (detected by its first bytes)', () => {
  it('check reads gzip files and gzip on standard input, with the same output as plain text', async () => {
    const { gzipSync } = await import('node:zlib');
    const plain = robotstxt(['check', '--robots', robots, '--agent', 'x'], urls).stdout;
    const gz = join(dir, 'urls.txt.gz');
    writeFileSync(gz, gzipSync(urls));
    expect(robotstxt(['check', '--robots', robots, '--agent', 'x', gz]).stdout).toBe(plain);
    expect(robotstxt(['check', '--robots', robots, '--agent', 'x', '-'], gzipSync(urls)).stdout).toBe(plain);
    expect(robotstxt(['check', '--robots', robots, '--agent', 'x'], '\x1f').stdout).toBe('allowed\t\x1f\n'); // one byte: not gzip
  });
  it('windows do not depend on the size of a read: 60,000 URLs of 2,000 hosts from a .gz file come in as many windows as from the plain file, and through a pipe of 4 KiB writes give the same output', async () => {
    const { gzipSync } = await import('node:zlib');
    const folder = join(dir, 'windows-robots');
    mkdirSync(folder, { recursive: true });
    for (let h = 0; h < 2000; h++) writeFileSync(join(folder, `h${h}.test.txt`), `User-agent: *\nDisallow: /p${h % 7}\n`);
    const lines = Array.from({ length: 60_000 }, (_, i) => `https://h${(i * 7919) % 2000}.test/p${i % 9}/${'x'.repeat(i % 40)}`).join('\n') + '\n';
    const plainFile = join(dir, 'window-urls.txt');
    writeFileSync(plainFile, lines);
    const gzFile = `${plainFile}.gz`;
    writeFileSync(gzFile, gzipSync(lines));
    const args = ['check', '--robots-dir', folder, '--agent', 'bot', '--cache-mb', '16', '--stats'];
    const windowsOf = (stderr: string): string => /(\d+ window\(s\)) of up to/.exec(stderr)?.[1] ?? stderr;
    const plain = robotstxt([...args, plainFile]);
    const gz = robotstxt([...args, gzFile]);
    expect(plain.stdout.split('\n').length).toBe(60_001);
    expect([gz.status, gz.stdout, windowsOf(gz.stderr)]).toEqual([0, plain.stdout, windowsOf(plain.stderr)]);
    expect(windowsOf(plain.stderr)).toBe('2 window(s)'); // about 2.5 MB in windows of 2 MiB
    const piped = spawnSync('/bin/sh', ['-c', 'dd bs=4096 status=none < "$0" | "$@"', plainFile, process.execPath, CLI, ...args.slice(0, -1), '-'], { encoding: 'latin1', maxBuffer: 1 << 26 });
    expect([piped.status, piped.stdout]).toEqual([0, plain.stdout]);
  });
  it.each([['--robots', robots], ['--robots-dir', join(dir, 'pause-robots')]])('a producer that pauses gets its lines answered before it writes more (as tail -f and a program asking one URL at a time need): check %s', async (option, path) => {
    mkdirSync(join(dir, 'pause-robots'), { recursive: true });
    writeFileSync(join(dir, 'pause-robots', 'e.com.txt'), readFileSync(robots));
    const child = spawn(process.execPath, [CLI, 'check', option, path, '--agent', 'x', '-'], { stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    const answered = (count: number): Promise<void> => new Promise((resolve) => {
      const look = (): void => { if (out.split('\n').length > count) resolve(); else child.stdout.once('data', (text: Buffer) => { out += text.toString(); look(); }); };
      look();
    });
    child.stdin.write('https://e.com/private/x\n');
    await answered(1);
    child.stdin.write('https://e.com/a\nhttps://e.com/private/ok\n');
    await answered(3);
    child.stdin.end();
    const status = await new Promise((resolve) => child.on('close', resolve));
    expect([status, out]).toEqual([0, 'disallowed\thttps://e.com/private/x\nallowed\thttps://e.com/a\nallowed\thttps://e.com/private/ok\n']);
  });
  it('check --log and diff --log read gzip logs', async () => {
    const { gzipSync } = await import('node:zlib');
    const log = '1.2.3.4 - - [t] "GET /private/a HTTP/1.1" 200 1 "-" "bot"\n1.2.3.4 - - [t] "GET /b HTTP/1.1" 200 1 "-" "bot"\n';
    const gz = join(dir, 'access.log.gz');
    writeFileSync(gz, gzipSync(log));
    expect(robotstxt(['check', '--robots', robots, '--agent', 'x', '--log', gz]).stdout).toBe('disallowed\t/private/a\nallowed\t/b\n');
    const open = join(dir, 'open.txt');
    writeFileSync(open, 'User-agent: *\nAllow: /\n');
    const report = JSON.parse(robotstxt(['diff', open, robots, '--agent', 'x', '--log', gz, '--format', 'json']).stdout);
    expect([report.checked, report.newlyDisallowed.length]).toEqual([2, 1]);
  });
});
