// The second security and reliability sweep: each defect it found, as a test of the behaviour it now has.
// Servers listen on 127.0.0.1 only and are started and stopped here.
import { describe, it, expect, afterEach } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer as createTcpServer, connect, type Server } from 'node:net';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { MultiHostMatcher, RobotsError, LogLineReader, fetchRobots, robotsFromMap } from '../src/node/index.js';
import { RobotsCache } from '../src/node/fetch/index.js';
import { RobotsStore, recordJson } from '../src/node/store/index.js';
import { isFresh, isFromFuture, recordAsOf, effectOfStored, type OriginRecord } from '../src/core/fetch-rules.js';
import { auditHtml } from '../src/node/audit/index.js';
import { describeErrno } from '../src/node/robots-file.js';
import { CLI, robotstxt, robotstxtAsync, tempDir } from './cli-helpers.js';
import { LocalOrigins, serve } from './http-origins.js';

const RULES = 'User-agent: *\nDisallow: /private\n';
const servers: { close(): unknown }[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

/** A TCP server on 127.0.0.1 that answers every connection with `raw` bytes, then closes it. */
async function rawServer(raw: string): Promise<string> {
  const server: Server = createTcpServer((socket) => socket.once('data', () => socket.end(raw)));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push({ close: () => new Promise((resolve) => server.close(resolve)) });
  return `http://127.0.0.1:${(server.address() as { port: number }).port}`;
}

describe('the Tester server', () => {
  it('answers 400 to request targets the URL parser rejects and keeps serving; sends its CSP as a header', async () => {
    const server: ChildProcess = spawn(process.execPath, [CLI, 'tester', '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
    servers.push({ close: () => new Promise((resolve) => { server.once('exit', resolve); server.kill('SIGTERM'); }) });
    const origin = await new Promise<string>((resolve) => server.stdout?.on('data', (chunk: Buffer) => {
      const match = /(http:\/\/127\.0\.0\.1:\d+)\//.exec(chunk.toString());
      if (match !== null) resolve(match[1]);
    }));
    const port = Number(new URL(origin).port);
    const rawRequest = (target: string): Promise<string> => new Promise((resolve) => {
      const socket = connect(port, '127.0.0.1', () => socket.write(`GET ${target} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`));
      let text = '';
      socket.on('data', (chunk) => { text += chunk.toString('latin1'); });
      socket.on('close', () => resolve(text));
      socket.on('error', () => resolve(text));
    });
    expect(await rawRequest('http://[::1')).toMatch(/^HTTP\/1\.1 400 /);
    expect(await rawRequest('//x:99999999/')).toMatch(/^HTTP\/1\.1 400 /);
    const page = await fetch(`${origin}/`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("base-uri 'none'; form-action 'none'");
    expect(await page.text()).toContain("base-uri 'none'; form-action 'none'");
  });
});

describe('logs and reports', () => {
  it('a JSON log time outside the Date range is no time: audit reports, never an internal error', () => {
    const dir = tempDir();
    const log = join(dir, 'app.jsonl');
    writeFileSync(log, ['{"uri":"/private/a","userAgent":"Googlebot/2.1","time":1e17}', '{"uri":"/x","userAgent":"Googlebot/2.1","time":-8.64e15}', '{"uri":"/private/b","userAgent":"Googlebot/2.1","time":"+275760-09-13T00:00:00.001Z"}'].join('\n') + '\n');
    writeFileSync(join(dir, 'robots.txt'), RULES);
    for (const format of ['table', 'json', 'html']) {
      const run = robotstxt(['audit', '--robots', join(dir, 'robots.txt'), '--format', format, log]);
      expect([run.status, run.stderr]).toEqual([0, '']);
    }
    expect(JSON.parse(robotstxt(['audit', '--robots', join(dir, 'robots.txt'), '--format', 'json', log]).stdout).crawlers[0]).toMatchObject({ agent: 'Googlebot', requests: 3, disallowed: 2 });
  });

  it('a CloudFront #Fields line of 200,000 names: the fields are found wherever they stand', () => {
    const names = ['date', 'time', ...Array.from({ length: 200_000 }, (_, i) => `x-field-${i}`)];
    names.push('cs-method', 'cs-uri-stem', 'sc-status', 'cs(User-Agent)', 'x-host-header');
    const reader = new LogLineReader();
    expect(reader.read('#Version: 1.0')).toBe('header');
    expect(reader.read(`#Fields: ${names.join(' ')}`)).toBe('header');
    const values = ['2026-11-21', '08:00:00', ...Array.from({ length: 200_000 }, () => '-')];
    values.push('GET', '/private/x', '200', 'Googlebot/2.1', 'a.example');
    expect(reader.read(values.join('\t'))).toMatchObject({ format: 'cloudfront', host: 'a.example', target: '/private/x', status: 200, userAgent: 'Googlebot/2.1' });
  });

  it('control bytes from a log (ESC, BEL) reach no terminal: audit and diff tables escape them', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'robots.txt'), 'User-agent: *\nDisallow: /p\n');
    writeFileSync(join(dir, 'new.txt'), 'User-agent: *\nDisallow: /\n');
    const log = join(dir, 'access.log');
    writeFileSync(log, '1.2.3.4 - - [21/Nov/2026:08:00:00 +0000] "GET /p\x1b[2J\x07 HTTP/1.1" 200 1 "-" "Evil\x1b]0;pwned\x07bot/1.0"\n');
    const audit = robotstxt(['audit', '--robots', join(dir, 'robots.txt'), log]);
    expect(audit.status).toBe(0);
    expect(audit.stdout).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f]/);
    expect(audit.stdout).toContain('/p\\x1b[2J\\x07');
    const diff = robotstxt(['diff', join(dir, 'robots.txt'), join(dir, 'new.txt'), '--agent', 'x', '--urls', '-'], 'http://a/x\x1b[31m\n');
    expect(diff.stdout).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f]/);
    expect(diff.stdout).toContain('http://a/x\\x1b[31m');
  });

  it('control bytes from a robots.txt or a URL list (ESC, BEL) reach no terminal: lint, usage and history --urls escape them', () => {
    const dir = tempDir();
    const robots = join(dir, 'robots.txt');
    writeFileSync(robots, 'User-agent: *\nContent-Usage: /\x1b[2J train-ai=maybe\x07\nContent-Signal: x\x1b]0;pwned\x07=1\nDisallow: /p\n');
    const lint = robotstxt(['lint', robots]);
    expect(lint.stdout).toBe(`${robots}:2: warning: content-usage: not a Structured Field Dictionary (RFC 9651): a comma or the end expected after the member "train-ai" ("\\x07" at character 15): the line is ignored [content-usage-invalid]
${robots}:3: info: content-signal: "x\\x1b]0;pwned\\x07" is not one of search, ai-input, ai-train: reported as written [content-signal-invalid]
${robots}: 0 error(s), 1 warning(s), 1 note(s)
`);
    const usage = robotstxt(['usage', '--agent', 'GPTBot', robots, 'https://e.example/\x1b[2J']);
    expect(usage.stdout).toBe(`https://e.example/\\x1b[2J (agent GPTBot)
  crawl                             allowed     no rule
  usage train-ai                    unknown     nothing says
  usage search                      unknown     nothing says
  content-signal x\\x1b]0;pwned\\x07  1           line 3
  token Google-Extended             allowed     the * group
  token Applebot-Extended           allowed     the * group
`);
    // a store with two versions, and a URL list whose line has an ESC in it
    const store = join(dir, 'store');
    mkdirSync(store);
    const writer = new RobotsStore(store, { keepVersions: 5 });
    const at = (iso: string): OriginRecord => ({ origin: 'https://e.example', url: 'https://e.example/robots.txt', mode: 'google', checkedAt: Date.parse(iso), outcome: 'ok', status: 200, error: null, finalUrl: 'https://e.example/robots.txt', hops: 0, kept: 'body', keptAt: Date.parse(iso), etag: null, lastModified: null, cacheMaxAgeMs: null, failingSince: null, failures: 0 });
    writer.write('https@e.example', at('2026-11-01T00:00:00Z'), new TextEncoder().encode('User-agent: *\nAllow: /\n'));
    writer.write('https@e.example', at('2026-11-02T00:00:00Z'), new TextEncoder().encode('User-agent: *\nDisallow: /a\x1b[2J\n'));
    const urls = join(dir, 'urls.txt');
    writeFileSync(urls, 'https://e.example/a\x1b[2J\x07\n');
    const history = robotstxt(['history', 'https://e.example', '--store', store, '--urls', urls, '--agent', 'Evil\x1b[31m']);
    expect(history.status).toBe(0);
    expect(history.stdout).toBe(`https://e.example: 2 version(s) in the store
  2026-11-01T00:00:00Z  rules         status 200  seen until 2026-11-01T00:00:00Z
  2026-11-02T00:00:00Z  rules         status 200  seen until 2026-11-02T00:00:00Z
change 2026-11-01T00:00:00Z -> 2026-11-02T00:00:00Z, Evil\\x1b[31m: 1 newly disallowed, 0 newly allowed (of 1 URL(s))
  newly disallowed https://e.example/a\\x1b[2J\\x07  (now: disallow /a\\x1b[2J (line 2))
`);
  });

  it('the audit HTML page carries a Content-Security-Policy that lets nothing load or run', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'robots.txt'), RULES);
    writeFileSync(join(dir, 'a.log'), '1.2.3.4 - - [21/Nov/2026:08:00:00 +0000] "GET /private HTTP/1.1" 200 1 "-" "Googlebot/2.1"\n');
    const html = robotstxt(['audit', '--robots', join(dir, 'robots.txt'), '--format', 'html', join(dir, 'a.log')]).stdout;
    expect(html).toContain(`<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'">`);
    expect(typeof auditHtml).toBe('function');
  });

  it('check --log --robots-dir on a log without hosts stops and asks for --host; diff --fail-on with nothing read does not pass', () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'robots'));
    writeFileSync(join(dir, 'robots', 'a.example.txt'), RULES);
    const common = '1.2.3.4 - - [21/Nov/2026:08:00:00 +0000] "GET /private HTTP/1.1" 200 1 "-" "Googlebot/2.1"\n';
    const run = robotstxt(['check', '--log', '--robots-dir', join(dir, 'robots'), '--agent', 'Googlebot'], common);
    expect([run.status, run.stdout]).toEqual([2, '']);
    expect(run.stderr).toBe('robotstxt: line 1: the line names no host (a log line without a host field), so its robots.txt is unknown: give --host <name>, or use a log whose lines carry the host (vhost_combined, CloudFront, ALB, or JSON with a host key)\n');
    expect(robotstxt(['check', '--log', '--robots-dir', join(dir, 'robots'), '--agent', 'Googlebot', '--host', 'a.example'], common).stdout).toBe('disallowed\thttp://a.example/private\n');
    writeFileSync(join(dir, 'r.txt'), RULES);
    const diff = robotstxt(['diff', join(dir, 'r.txt'), join(dir, 'r.txt'), '--agent', 'x', '--log', join(dir, 'r.txt'), '--fail-on', 'any']);
    expect(diff.status).toBe(2);
    expect(diff.stderr).toContain('robotstxt: diff: --fail-on any: no request could be read from the input (0 checked), so nothing was compared\n');
  });
});

describe('the store and the cache', () => {
  const record = (origin: string, checkedAt: number, kept: OriginRecord['kept']): OriginRecord => ({
    origin, url: `${origin}/robots.txt`, mode: 'google', checkedAt, outcome: 'ok', status: 200, error: null, finalUrl: `${origin}/robots.txt`,
    hops: 0, kept, keptAt: checkedAt, etag: null, lastModified: null, cacheMaxAgeMs: null, failingSince: null, failures: 0,
  });

  it('a record dated in the future is stale (past a 5-minute tolerance of clocks); its kept and failing times count from now', () => {
    const now = Date.UTC(2026, 10, 23);
    const freshness = { maxAgeMs: 24 * 3600_000, retryMs: 3600_000 };
    const future = { ...record('https://a.example', Date.UTC(2100, 0, 1), 'body'), keptAt: Date.UTC(2100, 0, 1) };
    expect(isFromFuture(future, now)).toBe(true);
    expect(isFresh(recordAsOf(future, now), now, freshness)).toBe(false);
    expect(recordAsOf(future, now).keptAt).toBe(now);
    const skewed = record('https://a.example', now + 4 * 60_000, 'body');
    expect([isFromFuture(skewed, now), isFresh(recordAsOf(skewed, now), now, freshness)]).toEqual([false, true]);
    const failing = { ...record('https://a.example', Date.UTC(2100, 0, 1), 'none'), outcome: 'unreachable' as const, failingSince: Date.UTC(2100, 0, 1) };
    expect(effectOfStored(recordAsOf(failing, now), now, false)).toBe('disallow-all'); // 30 days of failures count from now, not from 2100
  });

  it('a record that keeps a body whose file is gone: check --store and RobotsCache give the same effect', async () => {
    const store = tempDir();
    const now = Date.now();
    writeFileSync(join(store, 'https@gone.example.json'), recordJson(record('https://gone.example', now, 'body')));
    writeFileSync(join(store, 'https@down.example.json'), recordJson({ ...record('https://down.example', now, 'body'), outcome: 'unreachable', status: 503 }));
    const check = robotstxt(['check', '--store', store, '--agent', 'x', '--missing', 'disallow'], 'https://gone.example/private\nhttps://down.example/private\n');
    expect(check.stdout).toBe('allowed\thttps://gone.example/private\ndisallowed\thttps://down.example/private\n');
    const cache = new RobotsCache({ store });
    try {
      expect((await cache.entry('https://gone.example/')).effect).toBe('allow-all');
      expect((await cache.entry('https://down.example/')).effect).toBe('disallow-all');
      expect(cache.stats.fetches.ok + cache.stats.fetches.unreachable).toBe(0);
    } finally {
      await cache.close();
    }
  });

  it('one origin that cannot be answered leaves the others answered (its URLs disallowed, onError told)', async () => {
    const origins = await LocalOrigins.start([serve.body(RULES), serve.body('User-agent: *\nAllow: /\n')]);
    servers.push(origins);
    const store = tempDir();
    mkdirSync(join(store, `${origins.fileKey(0)}.txt`)); // the body cannot be written there
    const cache = new RobotsCache({ store });
    const failed: string[] = [];
    cache.onError = (origin, error) => failed.push(`${origin}: ${error.code}`);
    try {
      expect([...await cache.checkUrls([`${origins.origin(0)}/ok`, `${origins.origin(1)}/private`], 'x')]).toEqual([2, 1]);
      expect(failed).toEqual([`${origins.origin(0)}: FILE_UNWRITABLE`]);
      expect(cache.stats.failedOrigins).toBe(1);
    } finally {
      await cache.close();
    }
  });

  it('memoryBytes counts what a kept record costs (about 1 KB with its texts), not 512 bytes plus the key', async () => {
    const origins = await LocalOrigins.start([serve.status(404)]);
    servers.push(origins);
    const cache = new RobotsCache();
    try {
      await cache.entry(origins.origin(0));
      const kept = (cache as unknown as { kept: { bytes: number } }).kept;
      expect(kept.bytes).toBeGreaterThan(900); // a 404 record's texts are short; it counted 700 before
    } finally {
      await cache.close();
    }
  });

  it('file system and network errors are plain sentences, not raw codes', () => {
    expect(['EROFS', 'ENOSPC', 'EDQUOT', 'EACCES', 'ENOTDIR', 'EXDEV'].map(describeErrno)).toEqual(['read-only file system', 'no space left on device', 'disk quota exceeded', 'permission denied', 'a part of the path is not a directory', 'system error EXDEV']);
  });

  it('a store that cannot be made (/proc/x) is a plain error at once, never a spin', async () => {
    expect(() => new RobotsStore('/proc/x')).toThrow("cannot make store directory '/proc/x': no such file");
    const run = await robotstxtAsync(['fetch', '--store', '/proc/x', 'http://127.0.0.1:9/'], undefined, 10_000);
    expect([run.status, run.stderr]).toEqual([2, "robotstxt: cannot make store directory '/proc/x': no such file\n"]);
  });
});

describe('fetching: answers that are not a whole robots.txt', () => {
  it('an unrequested 206 is unreachable; an unsolicited 100 Continue is named; bodies past 16 MiB are cut and say so', async () => {
    const partial = await fetchRobots(await rawServer('HTTP/1.1 206 Partial Content\r\nContent-Length: 10\r\nConnection: close\r\n\r\nUser-agent'));
    expect([partial.outcome, partial.error]).toEqual(['unreachable', 'HTTP 206 Partial Content to a request without a range: not a whole robots.txt']);
    const continued = await fetchRobots(await rawServer('HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 14\r\nConnection: close\r\n\r\nUser-agent: *\n'));
    expect([continued.outcome, continued.error]).toEqual(['unreachable', 'the server sent an answer this client cannot read (an unrequested 1xx such as 100 Continue, or malformed HTTP)']);
    const body = Buffer.alloc((16 << 20) + 100, 'Disallow: /abc\n');
    body.write('User-agent: *\n', 0);
    const big = await LocalOrigins.start([serve.body(body)]);
    servers.push(big);
    await expect(fetchRobots(big.origin(0), { maxBytes: 20 << 20 })).rejects.toThrow('maxBytes must be a whole number from 1 to 16777216, got 20971520');
    const result = await fetchRobots(big.origin(0), { maxBytes: 16 << 20 });
    expect(result.outcome).toBe('ok');
    expect(result.robots?.bytesRead).toBe(16 << 20);
    expect([result.body.length, result.truncated]).toEqual([16 << 20, true]);
  });
});

describe('many hosts: sources that fail or never answer', () => {
  it('a source that never settles fails its call after sourceTimeoutMs naming the origin; a throwing source names it; later calls are answered', async () => {
    const matcher = new MultiHostMatcher({
      agents: 'x',
      sourceTimeoutMs: 100,
      source: (host) => (host.host === 'hang.example' ? new Promise(() => undefined) : host.host === 'throw.example' ? (() => { throw new Error('disk on fire'); })() : RULES),
    });
    await expect(matcher.checkUrls(['https://hang.example/private'])).rejects.toThrow(new RobotsError('SOURCE_FAILED', 'the robots source gave no answer for https://hang.example within 100 ms'));
    await expect(matcher.checkUrls(['https://throw.example/private'])).rejects.toThrow(new RobotsError('SOURCE_FAILED', 'the robots source failed for https://throw.example: disk on fire'));
    expect([...await matcher.checkUrls(['https://fine.example/private', 'https://fine.example/ok'])]).toEqual([2, 1]);
    expect(() => new MultiHostMatcher({ agents: 'x', source: robotsFromMap(new Map()), sourceTimeoutMs: 0 })).toThrow(/sourceTimeoutMs must be a whole number/);
    expect(() => new MultiHostMatcher({ agents: 'x', source: robotsFromMap(new Map()), cacheMb: 5 } as never)).toThrow('unknown option "cacheMb" in MultiHostMatcher options');
  });
});

describe('careless mistakes are answered clearly', () => {
  it('check says which robots.txt it cut at 500 KiB (test reads it whole)', () => {
    const dir = tempDir();
    const file = join(dir, 'big.txt');
    writeFileSync(file, 'User-agent: *\n' + 'Disallow: /zzzzzzzzzzzzzzzzzzzzzz\n'.repeat(30_000) + 'Disallow: /late\n');
    const check = robotstxt(['check', '--robots', file, '--agent', 'x'], 'https://a.com/late\n');
    expect(check.stdout).toBe('allowed\thttps://a.com/late\n');
    expect(check.stderr).toBe(`robotstxt: warning: '${file}' is longer than 512000 bytes: only the first 512000 are read (--max-bytes, as Google's crawler reads files; --max-bytes 0 reads it whole, as robotstxt test does)\n`);
    expect(robotstxt(['test', file, 'x', 'https://a.com/late']).status).toBe(1);
    mkdirSync(join(dir, 'sites'));
    writeFileSync(join(dir, 'sites', 'a.com.txt'), 'User-agent: *\n' + 'Disallow: /zzzzzzzzzzzzzzzzzzzzzz\n'.repeat(30_000));
    // the file named (its origin), once, however many times it is compiled
    expect(robotstxt(['check', '--robots-dir', join(dir, 'sites'), '--agent', 'x', '--cache-mb', '1'], 'https://a.com/x\nhttps://b.com/x\n'.repeat(400)).stderr.split('\n').filter((line) => line.includes('longer than')))
      .toEqual(["robotstxt: warning: robots.txt longer than 512000 bytes, read only up to there (--max-bytes, as Google's crawler reads files): https://a.com; --max-bytes 0 reads files whole, as robotstxt test does"]);
  });

  it('a whole User-Agent header as --agent: the warning names the crawler\'s token', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'r.txt'), RULES);
    const run = robotstxt(['test', join(dir, 'r.txt'), 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)', 'https://a.com/x']);
    expect(run.stderr).toBe("robotstxt: warning: agent 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)' looks like a whole User-Agent header: groups are named by product token, so give 'Googlebot' (as written, it matches no user-agent line and only the * group can apply)\n");
  });

  it('lint on an access log: one error saying what it looks like, exit 1', () => {
    const run = robotstxt(['lint', 'examples/access.log']);
    expect(run.status).toBe(1);
    expect(run.stdout.split('\n')[0]).toMatch(/^examples\/access\.log:1: error: the file is not a robots\.txt: it looks like an access log \(none of its first \d+ lines is a directive such as User-agent: or Disallow:\)/);
    expect(run.stdout).toContain('examples/access.log: 1 error(s), 0 warning(s), 0 note(s)');
  });
});
