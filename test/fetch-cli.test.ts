// robotstxt fetch, check --store/--fetch and audit --store/--fetch against real servers on 127.0.0.1: the
// store across runs (fresh, stale, 304, a refresh that gets 503), two runs writing one store at once, and
// runs that end within their timeouts whatever the servers do.
import { describe, expect, it } from 'vitest';
import { readFileSync, readdirSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { robotstxt, robotstxtAsync, tempDir } from './cli-helpers.js';
import { originsClosedAfterEach, refusedPort, serve, type OriginHandler } from './http-origins.js';

const RULES = 'User-agent: *\nDisallow: /private\n';
const start = originsClosedAfterEach();

describe('robotstxt fetch', () => {
  it('fills a store, one line per origin in input order, a summary on stderr; the store answers check', async () => {
    const origins = await start([serve.body(RULES, { etag: '"a"' }), serve.status(404), serve.status(503)]);
    const refused = await refusedPort();
    const store = tempDir();
    const input = [`${origins.origin(0)}/some/page`, `${origins.origin(1)}/x`, `${origins.origin(0)}/other`, `${origins.origin(2)}/y`, `http://127.0.0.1:${refused}/z`, 'ftp://example.com/', ''].join('\n');
    // (a list piped in is content: its local origins are fetched with --targets any)
    const run = await robotstxtAsync(['fetch', '--store', store, '--now', '2026-03-01T00:00:00Z', '--targets', 'any', '-'], input);
    expect(run.status).toBe(0);
    expect(run.stdout).toBe([
      `rules\t${origins.origin(0)}\tfetched\tok 200\n`,
      `allow-all\t${origins.origin(1)}\tfetched\tnot-found 404\n`,
      `disallow-all\t${origins.origin(2)}\tfetched\tunreachable 503 (HTTP 503)\n`,
      `disallow-all\thttp://127.0.0.1:${refused}\tfetched\tunreachable - (connection refused)\n`,
    ].join(''));
    expect(run.stderr).toMatch(/^robotstxt fetch: 4 origin\(s\) in \d+\.\d s: 4 fetched \(1 ok, 0 not-modified, 1 not-found, 2 unreachable\), 0 fresh in the store; effect: 1 rules, 1 allow-all, 2 disallow-all\n/);
    expect(run.stderr).toContain('robotstxt fetch: 1 input(s) named no origin: stdin:6 (only http and https URLs have a robots.txt to fetch: "ftp://example.com/")\n');
    // the store: the body as served, a record per origin
    expect(readFileSync(join(store, `${origins.fileKey(0)}.txt`), 'utf8')).toBe(RULES);
    expect(existsSync(join(store, `${origins.fileKey(1)}.txt`))).toBe(false);
    const record = JSON.parse(readFileSync(join(store, `${origins.fileKey(2)}.json`), 'utf8')) as Record<string, unknown>;
    expect(record).toMatchObject({ format: 'robotstxt-wasm/store/1', origin: origins.origin(2), outcome: 'unreachable', status: 503, kept: 'none', failures: 1, mode: 'google' });
    // check --store honours the stored outcomes: rules, allow all, disallow all; an unknown host: --missing
    const urls = [`${origins.origin(0)}/private/a`, `${origins.origin(0)}/ok`, `${origins.origin(1)}/private/a`, `${origins.origin(2)}/ok`, 'http://never.example/private'].join('\n') + '\n';
    const check = robotstxt(['check', '--store', store, '--agent', 'Googlebot', '--now', '2026-03-01T00:00:00Z', '--stats'], urls);
    expect(check.status).toBe(0);
    expect(check.stdout).toBe([
      `disallowed\t${origins.origin(0)}/private/a`, `allowed\t${origins.origin(0)}/ok`, `allowed\t${origins.origin(1)}/private/a`,
      `disallowed\t${origins.origin(2)}/ok`, 'allowed\thttp://never.example/private', '',
    ].join('\n'));
    expect(check.stderr).toMatch(/hosts: 0 compiled, 1 answered from their file, 1 without robots.txt, 1 allow-all and 1 disallow-all by stored outcome/);
    // 30 days later the unreachable origins (nothing kept) are allowed
    const later = robotstxt(['check', '--robots-dir', store, '--agent', 'Googlebot', '--now', '2026-03-31T00:00:01Z'], `${origins.origin(2)}/ok\n`);
    expect(later.stdout).toBe(`allowed\t${origins.origin(2)}/ok\n`);
  });

  it('the store across runs: fresh (not fetched), stale (304), a refresh that gets 503 keeps the body', { tags: ['slow'] }, async () => {
    let down = false;
    const origins = await start([(request, response, all) => {
      if (down) return serve.status(503)(request, response, all);
      if (request.headers['if-none-match'] === '"v1"') { response.writeHead(304, { etag: '"v1"' }); response.end(); return; }
      serve.body(RULES, { etag: '"v1"' })(request, response, all);
    }]);
    const store = tempDir();
    const fetchAt = (now: string): Promise<{ status: number | null; stdout: string }> => robotstxtAsync(['fetch', '--store', store, '--now', now, origins.origin(0)]);
    expect((await fetchAt('2026-03-01T00:00:00Z')).stdout).toBe(`rules\t${origins.origin(0)}\tfetched\tok 200\n`);
    expect((await fetchAt('2026-03-01T23:00:00Z')).stdout).toBe(`rules\t${origins.origin(0)}\tfresh\tok 200\n`);
    expect(origins.requestsTo(0)).toBe(1);
    expect((await fetchAt('2026-03-02T01:00:00Z')).stdout).toBe(`rules\t${origins.origin(0)}\tfetched\tnot-modified 304\n`);
    expect(origins.requests[1].headers['if-none-match']).toBe('"v1"');
    down = true;
    expect((await fetchAt('2026-03-03T02:00:00Z')).stdout).toBe(`rules\t${origins.origin(0)}\tfetched\tunreachable 503 (HTTP 503)\n`);
    expect(readFileSync(join(store, `${origins.fileKey(0)}.txt`), 'utf8')).toBe(RULES);
    const record = JSON.parse(readFileSync(join(store, `${origins.fileKey(0)}.json`), 'utf8')) as Record<string, unknown>;
    expect(record).toMatchObject({ outcome: 'unreachable', kept: 'body', failures: 1, etag: '"v1"', failingSince: record.checkedAt });
    const check = robotstxt(['check', '--store', store, '--agent', 'Googlebot'], `${origins.origin(0)}/private\n${origins.origin(0)}/open\n`);
    expect(check.stdout).toBe(`disallowed\t${origins.origin(0)}/private\nallowed\t${origins.origin(0)}/open\n`);
    // --force fetches a fresh origin again
    down = false;
    expect((await robotstxtAsync(['fetch', '--store', store, '--force', '--now', '2026-03-03T02:00:01Z', origins.origin(0)])).stdout).toBe(`rules\t${origins.origin(0)}\tfetched\tnot-modified 304\n`);
  });

  it('two runs writing one store at once: both finish, every file is whole, no temporary file is left', async () => {
    const handlers = Array.from({ length: 40 }, (_, i): OriginHandler => (request, response, all) => setTimeout(() => serve.body(`User-agent: *\nDisallow: /${i}/\n${'#'.repeat(20_000)}\n`)(request, response, all), 5));
    const origins = await start(handlers);
    const store = tempDir();
    const list = handlers.map((_, i) => origins.origin(i)).join('\n');
    const [first, second] = await Promise.all([
      robotstxtAsync(['fetch', '--store', store, '--force', '--targets', 'any', '-'], list),
      robotstxtAsync(['fetch', '--store', store, '--force', '--concurrency', '3', '--targets', 'any', '-'], list),
    ]);
    expect([first.status, second.status]).toEqual([0, 0]);
    const names = readdirSync(store).filter((name) => !name.endsWith('.versions')); // (each origin's versions: 40 folders)
    expect(names.filter((name) => name.endsWith('.tmp'))).toEqual([]);
    expect(names.length).toBe(80);
    for (let i = 0; i < handlers.length; i++) {
      expect(readFileSync(join(store, `${origins.fileKey(i)}.txt`), 'utf8')).toBe(`User-agent: *\nDisallow: /${i}/\n${'#'.repeat(20_000)}\n`);
      expect(JSON.parse(readFileSync(join(store, `${origins.fileKey(i)}.json`), 'utf8'))).toMatchObject({ outcome: 'ok', kept: 'body' });
    }
  });

  it('never hangs: servers that never answer or trickle end at --timeout-ms', async () => {
    const origins = await start([serve.silent(), serve.trickle(100), serve.silent()]);
    const run = await robotstxtAsync(['fetch', '--timeout-ms', '700', origins.origin(0), origins.origin(1), origins.origin(2)], undefined, 15_000);
    expect(run.status).toBe(0);
    expect(run.stdout).toBe([0, 1, 2].map((i) => `disallow-all\t${origins.origin(i)}\tfetched\tunreachable - (timeout after 700 ms)\n`).join(''));
  });

  it('the deadline measures the server, not the queue: 50 origins redirecting to one host that answers in 0.5 s (2 at a time), beside hanging and trickling servers: every origin that answers gets its own status', { tags: ['slow'], timeout: 60_000 }, async () => {
    const shared = 50;
    let inFlight = 0;
    let mostInFlight = 0;
    const slow: OriginHandler = (_request, response) => {
      mostInFlight = Math.max(mostInFlight, ++inFlight);
      setTimeout(() => {
        inFlight--;
        response.writeHead(200, { 'content-type': 'text/plain' });
        response.end('User-agent: *\nDisallow: /private\n');
      }, 500);
    };
    const handlers: OriginHandler[] = [slow, ...Array.from({ length: shared }, (): OriginHandler => serve.redirect(302, (origins) => `${origins.origin(0)}/robots.txt`)), serve.silent(), serve.silent(), serve.trickle(1000), serve.trickle(1000), serve.status(403)];
    const origins = await start(handlers);
    const targets = Array.from({ length: handlers.length - 1 }, (_, i) => origins.origin(i + 1));
    const run = await robotstxtAsync(['fetch', '--timeout-ms', '3000', ...targets], undefined, 60_000);
    expect(run.status).toBe(0);
    const lines = run.stdout.trimEnd().split('\n');
    expect(lines.slice(0, shared)).toEqual(targets.slice(0, shared).map((origin) => `rules\t${origin}\tfetched\tok 200 (1 redirect to ${origins.origin(0)}/robots.txt)`));
    expect(lines.slice(shared)).toEqual([
      ...targets.slice(shared, shared + 4).map((origin) => `disallow-all\t${origin}\tfetched\tunreachable - (timeout after 3000 ms)`),
      `allow-all\t${targets[shared + 4]}\tfetched\tnot-found 403`,
    ]);
    expect(origins.requests.filter((request) => request.origin === 0)).toHaveLength(shared); // the shared host saw each redirect once
    // at most two at a time, 0.5 s each: the 50 took at least 12.5 s of queue, four times the deadline, counted against none
    expect(mostInFlight).toBeLessThanOrEqual(2);
  });

  it('reads hosts from --log (absolute targets, --host for lines without a vhost) and --urls files; bad lines are reported', async () => {
    const origins = await start([serve.body(RULES), serve.status(410)]);
    const dir = tempDir();
    const log = join(dir, 'access.log');
    writeFileSync(log, [
      `10.0.0.1 - - [01/Mar/2026:10:00:00 +0000] "GET /a HTTP/1.1" 200 5 "-" "Googlebot/2.1"`,
      `10.0.0.2 - - [01/Mar/2026:10:00:01 +0000] "GET ${origins.origin(1)}/b HTTP/1.1" 200 5 "-" "curl/8"`,
      'garbage',
      '',
      '   ', // a line of spaces is no access log line (check --log and audit say so too); an empty one is nothing
      '',
    ].join('\n'));
    const urls = join(dir, 'urls.txt');
    writeFileSync(urls, `# a comment\n${origins.origin(1)}/c\n`);
    const run = await robotstxtAsync(['fetch', '--log', log, '--host', origins.key(0), '--urls', urls, '--scheme', 'http', '--targets', 'any']);
    // arguments, standard input, --urls files, then --log files: first seen first
    expect(run.stdout).toBe(`allow-all\t${origins.origin(1)}\tfetched\tnot-found 410\nrules\t${origins.origin(0)}\tfetched\tok 200\n`);
    expect(run.stderr).toContain(`2 input(s) named no origin: ${log}:3 (not an access log line), ${log}:5 (not an access log line)`);
  });

  it('host names cannot leave the store (.. is refused); a host of 200 to 2,000 bytes costs only its own origin: stored under a name that fits, and read back by check --store', async () => {
    const store = tempDir();
    const origins = await start([serve.body('User-agent: *\nDisallow: /private\n')]);
    const long = (bytes: number): string => `${Array.from({ length: Math.ceil(bytes / 60) }, (_, i) => `l${i}${'a'.repeat(57)}`).join('.').slice(0, bytes - 8)}.example`;
    const hosts = [long(200), long(230), long(1000)];
    const tooLong = long(2000); // past 1024 bytes a host names no origin, for the many-host scan as for fetch (ID_HostOver1024Bytes)
    // typed, a URL that names no origin stops the run; in a list, the line is named and the rest fetched
    expect(await robotstxtAsync(['fetch', '--store', store, 'http://../x', origins.key(0)])).toMatchObject({ status: 2, stdout: '', stderr: 'robotstxt: argument 1: no host in "http://../x"\n' });
    const list = join(store, '..', `hosts-${Date.now()}.txt`);
    writeFileSync(list, ['http://../x', ...hosts.map((host) => `http://${host}/`), `http://${tooLong}/`].join('\n') + '\n');
    const run = await robotstxtAsync(['fetch', '--store', store, '--scheme', 'http', '--timeout-ms', '3000', '--urls', list, origins.key(0)]);
    expect(run.status).toBe(0);
    expect(run.stderr).toContain(`2 input(s) named no origin: ${list}:1 (no host in "http://../x"), ${list}:5 (a host longer than 1024 bytes names no origin: ${JSON.stringify(`http://${tooLong}/`.slice(0, 200))})`);
    const lines = run.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(4);
    for (const host of hosts) expect(lines.find((line) => line.includes(`http://${host}\t`))).toMatch(/^disallow-all\thttp:\/\/l0a+[^\t]*\tfetched\tunreachable/);
    expect(lines).toContain(`rules\t${origins.origin(0)}\tfetched\tok 200`);
    const names = readdirSync(store);
    expect(names.every((name) => Buffer.byteLength(name) <= 205 && !name.startsWith('.'))).toBe(true);
    expect(names.filter((name) => name.includes('~') && !name.endsWith('.versions'))).toHaveLength(3); // a record each (unreachable: no body), named by a hash
    // check --store reads what fetch wrote: the long hosts' records (disallow all), the local origin's rules
    const urls = join(store, '..', `urls-${Date.now()}.txt`);
    writeFileSync(urls, [...hosts.map((host) => `http://${host}/page`), `${origins.origin(0)}/private/x`, `${origins.origin(0)}/ok`, `http://${tooLong}/page`].join('\n') + '\n');
    const check = robotstxt(['check', '--store', store, '--agent', 'bot', urls]);
    expect([check.status, check.stdout]).toEqual([0, [...hosts.map((host) => `disallowed\thttp://${host}/page`), `disallowed\t${origins.origin(0)}/private/x`, `allowed\t${origins.origin(0)}/ok`, `allowed\thttp://${tooLong}/page`].join('\n') + '\n']);
  });

  it('origins from content stay outside: a log or a URL list naming 127.0.0.1 is not fetched by default (fetch --log, --urls, piped input; audit --store --fetch; check --store --fetch); with --targets any it is; an origin named in the arguments or by --host always is', { tags: ['slow'] }, async () => {
    const origins = await start([serve.body(RULES), serve.body(RULES)]);
    const dir = tempDir();
    const log = join(dir, 'internal.log');
    writeFileSync(log, [
      `10.0.0.1 - - [01/Mar/2026:10:00:00 +0000] "GET ${origins.origin(0)}/x HTTP/1.1" 200 5 "-" "Googlebot/2.1"`,
      `10.0.0.1 - - [01/Mar/2026:10:00:01 +0000] "GET /y HTTP/1.1" 200 5 "-" "Googlebot/2.1"`, // its host is --host's
    ].join('\n') + '\n');
    const refused = `disallow-all\t${origins.origin(0)}\trefused\tunreachable - (an origin from a log or URL list at an internal address, not fetched (127.0.0.1 is a loopback address; name it yourself, or --targets any))`;
    const store = tempDir();
    const byLog = await robotstxtAsync(['fetch', '--store', store, '--log', log, '--host', origins.key(1), '--scheme', 'http']);
    expect(byLog.stdout).toBe(`${refused}\nrules\t${origins.origin(1)}\tfetched\tok 200\n`);
    expect(origins.requests.filter((request) => request.origin === 0)).toHaveLength(0);
    const piped = await robotstxtAsync(['fetch', '-'], `${origins.origin(0)}/a\n`);
    expect(piped.stdout).toBe(`${refused}\n`);
    const named = await robotstxtAsync(['fetch', origins.origin(0)]);
    expect(named.stdout).toBe(`rules\t${origins.origin(0)}\tfetched\tok 200\n`);
    expect(origins.requests.filter((request) => request.origin === 0)).toHaveLength(1);
    const any = await robotstxtAsync(['fetch', '--targets', 'any', '--log', log, '--host', origins.key(1), '--scheme', 'http']);
    expect(any.stdout).toBe(`rules\t${origins.origin(0)}\tfetched\tok 200\nrules\t${origins.origin(1)}\tfetched\tok 200\n`);
    // audit --store --fetch and check --store --fetch take origins from their input the same way
    const auditStore = tempDir();
    const audit = await robotstxtAsync(['audit', '--store', auditStore, '--fetch', '--host', origins.key(1), '--scheme', 'http', '--format', 'json', log]);
    expect(audit.status).toBe(0);
    expect(audit.stderr).toContain('1 fetched (1 ok, 0 not-modified, 0 not-found, 0 unreachable), 0 fresh in the store; 1 refused by --targets (internal addresses: not fetched, not stored, their URLs disallowed in this run; --targets any, or naming the origin, fetches them)');
    const requestsBefore = origins.requests.length;
    const checkStore = tempDir();
    const check = await robotstxtAsync(['check', '--store', checkStore, '--fetch', '--agent', 'Googlebot'], `${origins.origin(0)}/private\n${origins.origin(0)}/x\n`);
    expect([check.status, check.stdout]).toEqual([0, `disallowed\t${origins.origin(0)}/private\ndisallowed\t${origins.origin(0)}/x\n`]); // refused: disallowed in this run
    expect(check.stderr).toContain('robots.txt: 0 fetched (0 ok, 0 not-modified, 0 not-found, 0 unreachable), 0 fresh in the store; 1 refused by --targets');
    expect(origins.requests.length).toBe(requestsBefore);
    // a refusal is no fetch outcome: nothing stored, so --targets any (as the message says) fetches it at once
    expect(readdirSync(checkStore).filter((name) => name.endsWith('.json'))).toEqual([]);
    const anyCheck = await robotstxtAsync(['check', '--store', checkStore, '--fetch', '--targets', 'any', '--agent', 'Googlebot'], `${origins.origin(0)}/private\n${origins.origin(0)}/x\n`);
    expect(anyCheck.stdout).toBe(`disallowed\t${origins.origin(0)}/private\nallowed\t${origins.origin(0)}/x\n`);
    expect(origins.requests.length).toBe(requestsBefore + 1);
  });

  it('a record dated in the future (a run with --now ahead, a clock set wrong) is stale: the next run fetches it again and says so', { tags: ['slow'] }, async () => {
    const store = tempDir();
    const origins = await start([serve.body('User-agent: *\nDisallow: /x\n')]);
    const ahead = await robotstxtAsync(['fetch', '--store', store, '--scheme', 'http', '--now', '2099-01-01T00:00:00Z', origins.key(0)]);
    expect(ahead.stdout).toBe(`rules\t${origins.origin(0)}\tfetched\tok 200\n`);
    for (const now of [[], ['--now', new Date(Date.now() + 49 * 3600_000).toISOString()]]) {
      const later = await robotstxtAsync(['fetch', '--store', store, '--scheme', 'http', ...now, origins.key(0)]);
      expect(later.stdout).toBe(`rules\t${origins.origin(0)}\tfetched\tok 200\n`);
      expect(later.stderr).toContain('1 stored record(s) were dated in the future (a clock set ahead, or --now): stale, fetched again');
      // the record was written again at this run's time
      await robotstxtAsync(['fetch', '--store', store, '--scheme', 'http', '--now', '2099-01-01T00:00:00Z', origins.key(0)]);
    }
    const fresh = await robotstxtAsync(['fetch', '--store', store, '--scheme', 'http', '--now', '2099-01-01T01:00:00Z', origins.key(0)]);
    expect(fresh.stdout).toBe(`rules\t${origins.origin(0)}\tfresh\tok 200\n`);
    expect(origins.requests.length).toBe(5);
  });

  it('usage errors: exit 2 with the option named', { tags: ['slow'] }, () => {
    const cases: [string[], string][] = [
      [['fetch', '--timeout-ms', '0', 'a.example'], '--timeout-ms must be a whole number from 1 to 600000, got \'0\''],
      [['fetch', '--concurrency', 'many', 'a.example'], '--concurrency must be a whole number from 1 to 4096, got \'many\''],
      [['fetch', '--max-age', '2y', 'a.example'], '--max-age must be a duration of at most 365 days (N seconds, or Ns, Nm, Nh, Nd), got \'2y\''],
      [['fetch', '--now', 'yesterday', 'a.example'], '--now must be an ISO 8601 time such as 2026-01-31T12:00:00Z, got \'yesterday\''],
      [['fetch', '--scheme', 'ftp', 'a.example'], '--scheme must be https or http, got \'ftp\''],
      [['check', '--robots-dir', '.', '--fetch', '--agent', 'x'], '--fetch applies only with --store'],
      [['check', '--store', '.', '--timeout-ms', '5', '--agent', 'x'], '--timeout-ms applies only with --fetch'],
      [['check', '--store', '.', '--fetch', '--threads', '2', '--agent', 'x'], '--fetch runs in one thread (--threads 1)'],
      [['audit', '--store', '.', '--fetch', '-'], '--fetch reads the logs twice (hosts first): give log files, not standard input'],
      // what the table states: allowed values, what an option needs and what it excludes
      [['fetch', '--targets', 'none', 'a.example'], '--targets must be default, public or any, got \'none\''],
      [['fetch', '--crawler-ranges'], '--crawler-ranges applies only with --store'],
      [['fetch', '--crawler-ranges', '--store', '.', '--log', 'x.log'], '--log and --crawler-ranges cannot be given together'],
      [['fetch', '--ranges-url', 'a=https://b', 'a.example'], '--ranges-url applies only with --crawler-ranges'],
      [['fetch', '--host', 'h.example', 'a.example'], '--host applies only with --log'],
      [['check', '--robots', 'r.txt', '--now', '2026-01-01', '--agent', 'x'], '--now applies only with --robots-dir or --store'],
      [['check', '--robots', 'r.txt', '--robots-dir', '.', '--agent', 'x'], 'check needs exactly one of --robots <file>, --robots-dir <dir>, --store <dir> or --pack <file>'],
      [['check', '--robots', 'r.txt'], 'check needs at least one --agent <token> (see robotstxt check --help)'],
    ];
    for (const [args, message] of cases) {
      const run = robotstxt(args, '');
      expect([run.status, run.stderr], args.join(' ')).toEqual([2, `robotstxt: ${message}\n`]);
    }
  });
});

describe('check --fetch and audit --fetch', () => {
  it('check --fetch fetches what the store lacks, once per host, and answers line for line', async () => {
    const origins = await start([serve.body(RULES), serve.status(500), serve.redirect(301, (o) => `${o.origin(0)}/robots.txt`)]);
    const store = tempDir();
    const urls = [0, 1, 2, 0, 1, 2].map((i, n) => `${origins.origin(i)}/private/${n}`).concat([`${origins.origin(0)}/open`, 'not a url']).join('\n') + '\n';
    // the URLs' hosts come without their scheme: --scheme http (https by default)
    const run = await robotstxtAsync(['check', '--store', store, '--fetch', '--scheme', 'http', '--targets', 'any', '--agent', 'Googlebot'], urls);
    expect(run.status).toBe(0);
    expect(run.stdout).toBe([
      `disallowed\t${origins.origin(0)}/private/0`, `disallowed\t${origins.origin(1)}/private/1`, `disallowed\t${origins.origin(2)}/private/2`,
      `disallowed\t${origins.origin(0)}/private/3`, `disallowed\t${origins.origin(1)}/private/4`, `disallowed\t${origins.origin(2)}/private/5`,
      `allowed\t${origins.origin(0)}/open`, 'allowed\tnot a url', '',
    ].join('\n'));
    expect(run.stderr).toContain('robotstxt: robots.txt: 3 fetched (2 ok, 0 not-modified, 0 not-found, 1 unreachable), 0 fresh in the store\n');
    expect([origins.requestsTo(0), origins.requestsTo(1), origins.requestsTo(2)]).toEqual([2, 1, 1]); // origin 0: itself and 2's redirect
    // a second run finds all of it fresh in the store
    const again = await robotstxtAsync(['check', '--store', store, '--fetch', '--scheme', 'http', '--agent', 'Googlebot'], urls);
    expect(again.stdout).toBe(run.stdout);
    expect(again.stderr).toContain('robotstxt: robots.txt: 0 fetched (0 ok, 0 not-modified, 0 not-found, 0 unreachable), 3 fresh in the store\n');
  });

  it('audit --fetch fetches the hosts of the log (here --host: vhost fields carry no port), then audits by the store', async () => {
    const origins = await start([serve.body('User-agent: Googlebot\nDisallow: /private\n'), serve.status(503)]);
    const dir = tempDir();
    const log = join(dir, 'access.log');
    const line = (path: string): string => `66.249.66.1 - - [01/Mar/2026:10:00:00 +0000] "GET ${path} HTTP/1.1" 200 5 "-" "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"`;
    writeFileSync(log, [line('/private/a'), line('/open'), line('/private/b')].join('\n') + '\n');
    const auditOf = (host: string): Promise<{ status: number | null; stdout: string; stderr: string }> => robotstxtAsync(['audit', '--store', join(dir, 'store'), '--fetch', '--scheme', 'http', '--host', host, '--format', 'json', log]);
    const rows = (stdout: string): unknown => (JSON.parse(stdout) as { crawlers: { agent: string; requests: number; disallowed: number }[] }).crawlers.map((c) => [c.agent, c.requests, c.disallowed]);
    const ok = await auditOf(origins.key(0));
    expect([ok.status, ok.stderr]).toEqual([0, 'robotstxt: robots.txt: 1 fetched (1 ok, 0 not-modified, 0 not-found, 0 unreachable), 0 fresh in the store\n']);
    expect(rows(ok.stdout)).toEqual([['Googlebot', 3, 2]]);
    // an unreachable host: every request disallowed
    const down = await auditOf(origins.key(1));
    expect([down.status, down.stderr]).toEqual([0, 'robotstxt: robots.txt: 1 fetched (0 ok, 0 not-modified, 0 not-found, 1 unreachable), 0 fresh in the store\n']);
    expect(rows(down.stdout)).toEqual([['Googlebot', 3, 3]]);
  });
});
