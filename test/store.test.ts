// The store keeps its word (src/node/store/store.ts): versions never lost under concurrent writers, bodies
// named by their bytes, names from its own index checked, damaged indexes set aside and rebuilt, a store from
// before versions seeded with the copy in force, --fail-on-change that fails closed, FIFOs refused by name.
import { describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { robotstxt, robotstxtAsync, tempDir } from './cli-helpers.js';
import { originsClosedAfterEach, type OriginHandler } from './http-origins.js';

const start = originsClosedAfterEach();
/** An origin that serves whatever `body()` gives at the time of each request. */
const serving = (body: () => string): OriginHandler => (request, response) => {
  if (request.url !== '/robots.txt') { response.writeHead(404); response.end(); return; }
  response.writeHead(200, { 'content-type': 'text/plain' });
  response.end(body());
};
const sha = (bytes: string | Buffer): string => createHash('sha256').update(bytes).digest('hex');
interface Index { origin: string; versions: { firstSeen: string; body: string | null; sha256: string | null; effect: string }[] }
const indexOf = (store: string, fileKey: string): Index => JSON.parse(readFileSync(join(store, `${fileKey}.versions`, 'index.json'), 'utf8')) as Index;

describe('a store that keeps its word', () => {
  it('ten fetch --store runs at once over 100 origins whose robots.txt changes at every request: no version lost, no record torn, no body unreferenced, nothing left behind', { tags: ['slow'], timeout: 180_000 }, async () => {
    const served = new Map<number, string[]>();
    const origins = await start(Array.from({ length: 100 }, (_, i) => serving(() => {
      const list = served.get(i) ?? [];
      served.set(i, list);
      const body = `User-agent: *\nDisallow: /origin-${i}/version-${list.length}\n`;
      list.push(body);
      return body;
    })));
    const store = tempDir();
    const list = Array.from({ length: 100 }, (_, i) => origins.origin(i)).join('\n') + '\n';
    // (a deadline no loaded machine reaches: a fetch that timed out would be stored as its outcome, not as the body the server made)
    const runs = await Promise.all(Array.from({ length: 10 }, () => robotstxtAsync(['fetch', '--store', store, '--force', '--targets', 'any', '--timeout-ms', '100000', '-'], list, 120_000)));
    for (const run of runs) expect(run.status, run.stderr).toBe(0);
    for (let i = 0; i < 100; i++) {
      const index = indexOf(store, origins.fileKey(i));
      // every body served was a change: one version each, none lost by a writer that read the index before another wrote it
      expect(index.versions.map((version) => version.sha256).sort(), `origin ${i}`).toEqual((served.get(i) as string[]).map(sha).sort());
      // the current copy is the newest version's, and its record was written with it
      const current = readFileSync(join(store, `${origins.fileKey(i)}.txt`));
      expect(sha(current), `origin ${i}`).toBe(index.versions[index.versions.length - 1].sha256);
      // every body file is a version's, and every version's body is there
      const files = readdirSync(join(store, `${origins.fileKey(i)}.versions`)).filter((name) => name !== 'index.json').sort();
      expect(files, `origin ${i}`).toEqual(index.versions.map((version) => version.body).sort());
    }
    expect(readdirSync(store).filter((name) => name.endsWith('.lock') || name.startsWith('.tmp-'))).toEqual([]);
  });

  it('two versions first seen in the same second keep two bodies; --fail-on-change compares them; --keep-versions 1 keeps the newer body and audit --store goes on', async () => {
    let body = 'User-agent: *\nAllow: /\n';
    const origins = await start([serving(() => body)]);
    const store = tempDir();
    const watched = join(store, '..', `watched-${origins.port(0)}.txt`);
    writeFileSync(watched, '/private/x\n/public\n');
    const at = '2026-11-20T10:00:00Z';
    const first = await robotstxtAsync(['fetch', '--store', store, '--now', at, origins.origin(0)]);
    expect(first.status, first.stderr).toBe(0);
    body = 'User-agent: *\nDisallow: /private\n';
    const second = await robotstxtAsync(['fetch', '--store', store, '--now', at, '--force', '--keep-versions', '1', '--fail-on-change', watched, origins.origin(0)]);
    expect(second.status, second.stderr).toBe(1);
    expect(second.stderr).toContain(`robotstxt fetch: ${origins.origin(0)} changed (${at.replace('.000', '')} -> ${at}), *: newly disallowed ${origins.origin(0)}/private/x  (now: disallow /private (line 2))\n`);
    const index = indexOf(store, origins.fileKey(0));
    expect(index.versions.map((version) => version.body)).toEqual([`${sha(body)}.txt`]);
    expect(readFileSync(join(store, `${origins.fileKey(0)}.versions`, `${sha(body)}.txt`), 'utf8')).toBe(body);
    const log = join(store, '..', `access-${origins.port(0)}.log`);
    writeFileSync(log, '1.2.3.4 - - [20/Nov/2026:11:00:00 +0000] "GET /private/x HTTP/1.1" 200 1 "-" "Googlebot/2.1"\n');
    const audit = robotstxt(['audit', '--store', store, '--host', `127.0.0.1:${origins.port(0)}`, '--format', 'json', log]);
    expect(audit.status, audit.stderr).toBe(0);
    expect(JSON.parse(audit.stdout).disallowed).toBe(1);
  });

  it('--fail-on-change with --keep-versions 1 fails closed: Allow: / -> Disallow: /private exits 1 naming the flip; watched URLs match by the URL model; a line of an origin not fetched is said', async () => {
    let body = 'User-agent: *\nAllow: /\n';
    const origins = await start([serving(() => body)]);
    const store = tempDir();
    const host = `127.0.0.1:${origins.port(0)}`;
    const watched = join(store, '..', `gate-${origins.port(0)}.txt`);
    // the origin spelt as a URL model reads it: scheme and host in any case, the default path; and one elsewhere
    writeFileSync(watched, [`HTTP://${host}/private/a`, `http://${host}/private/b`, 'https://elsewhere.example/private/c'].join('\n') + '\n');
    expect((await robotstxtAsync(['fetch', '--store', store, '--keep-versions', '1', '--now', '2026-11-01T00:00:00Z', origins.origin(0)])).status).toBe(0);
    body = 'User-agent: *\nDisallow: /private\n';
    const gate = await robotstxtAsync(['fetch', '--store', store, '--force', '--keep-versions', '1', '--now', '2026-11-02T00:00:00Z', '--fail-on-change', watched, origins.origin(0)]);
    expect(gate.status).toBe(1);
    expect(gate.stderr.split('\n').filter((line) => line.startsWith('robotstxt fetch: ') && !line.includes(' origin(s) in '))).toEqual([
      `robotstxt fetch: ${origins.origin(0)} changed (2026-11-01T00:00:00Z -> 2026-11-02T00:00:00Z), *: newly disallowed HTTP://${host}/private/a  (now: disallow /private (line 2))`,
      `robotstxt fetch: ${origins.origin(0)} changed (2026-11-01T00:00:00Z -> 2026-11-02T00:00:00Z), *: newly disallowed http://${host}/private/b  (now: disallow /private (line 2))`,
      `robotstxt fetch: --fail-on-change: 1 line(s) of ${watched} name no origin this run fetched, so no change of theirs was looked for: line 3 (https://elsewhere.example/private/c)`,
      `robotstxt fetch: --fail-on-change: 2 verdict(s) of ${watched} changed`,
    ]);
  });

  it('--fail-on-change escapes control bytes from the robots.txt and the watched list (ESC, BEL) before they reach a terminal', async () => {
    let body = 'User-agent: *\nAllow: /\n';
    const origins = await start([serving(() => body)]);
    const store = tempDir();
    const host = `127.0.0.1:${origins.port(0)}`;
    const watched = join(store, '..', `gate-escape-${origins.port(0)}.txt`);
    writeFileSync(watched, [`http://${host}/p\x1b[2J/a`, 'https://elsewhere.example/\x1b]0;pwned\x07'].join('\n') + '\n');
    expect((await robotstxtAsync(['fetch', '--store', store, '--now', '2026-11-01T00:00:00Z', origins.origin(0)])).status).toBe(0);
    body = 'User-agent: *\nDisallow: /p\x1b[2J\n';
    const gate = await robotstxtAsync(['fetch', '--store', store, '--force', '--now', '2026-11-02T00:00:00Z', '--fail-on-change', watched, origins.origin(0)]);
    expect(gate.status).toBe(1);
    expect(gate.stderr).not.toMatch(/[\x07\x1b]/);
    expect(gate.stderr.split('\n').filter((line) => line.startsWith('robotstxt fetch: ') && !line.includes(' origin(s) in '))).toEqual([
      `robotstxt fetch: ${origins.origin(0)} changed (2026-11-01T00:00:00Z -> 2026-11-02T00:00:00Z), *: newly disallowed http://${host}/p\\x1b[2J/a  (now: disallow /p\\x1b[2J (line 2))`,
      `robotstxt fetch: --fail-on-change: 1 line(s) of ${watched} name no origin this run fetched, so no change of theirs was looked for: line 2 (https://elsewhere.example/\\x1b]0;pwned\\x07)`,
      `robotstxt fetch: --fail-on-change: 1 verdict(s) of ${watched} changed`,
    ]);
  });

  it('an index that names a body outside its folder, or holds entries that are no versions: never read or deleted through, set aside and rebuilt, said on the origin\'s line; readers say it and go on', { tags: ['slow'] }, async () => {
    let body = 'User-agent: *\nDisallow: /one\n';
    const origins = await start([serving(() => body)]);
    const root = tempDir();
    const store = join(root, 'store');
    mkdirSync(store);
    writeFileSync(join(root, 'private-notes.txt'), 'not yours\n');
    expect((await robotstxtAsync(['fetch', '--store', store, '--now', '2026-11-01T00:00:00Z', origins.origin(0)])).status).toBe(0);
    const folder = join(store, `${origins.fileKey(0)}.versions`);
    const index = JSON.parse(readFileSync(join(folder, 'index.json'), 'utf8')) as { versions: Record<string, unknown>[] };
    index.versions[0].body = '../../private-notes.txt';
    writeFileSync(join(folder, 'index.json'), JSON.stringify(index));
    // a reader: no file outside the store is read
    const log = join(root, 'access.log');
    writeFileSync(log, '1.2.3.4 - - [02/Nov/2026:00:00:00 +0000] "GET /one HTTP/1.1" 200 1 "-" "Googlebot/2.1"\n');
    writeFileSync(join(store, '.versions-changed'), 'x\n'); // (audit --store reads versions)
    const audit = robotstxt(['audit', '--store', store, '--host', `127.0.0.1:${origins.port(0)}`, '--format', 'json', log]);
    expect(audit.status, audit.stderr).toBe(0);
    expect(audit.stderr).toContain(`store versions '${join(folder, 'index.json')}' are not valid: version 1: "body" is not the plain name of a body file: "../../private-notes.txt"`);
    expect(JSON.parse(audit.stdout).disallowed).toBe(1); // judged by the current copy
    // a writer: the index is set aside and rebuilt; the file outside stays
    body = 'User-agent: *\nDisallow: /two\n';
    const fetch = await robotstxtAsync(['fetch', '--store', store, '--force', '--keep-versions', '1', '--now', '2026-11-03T00:00:00Z', origins.origin(0)]);
    expect(fetch.status, fetch.stderr).toBe(0);
    expect(fetch.stdout).toMatch(new RegExp(`^rules\\t${origins.origin(0).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\tfetched\\tok 200 \\(store: store versions '.*index\\.json' are not valid: version 1: "body" is not the plain name of a body file: "\\.\\./\\.\\./private-notes\\.txt": set aside as .*index\\.json\\.damaged-.*, the versions begin again with the copy in force\\)\\n$`));
    expect(readFileSync(join(root, 'private-notes.txt'), 'utf8')).toBe('not yours\n');
    expect(indexOf(store, origins.fileKey(0)).versions.map((version) => version.sha256)).toEqual([sha(body)]);
    // entries that are no versions (null, {}): the same, never an internal error
    writeFileSync(join(folder, 'index.json'), JSON.stringify({ format: 'robotstxt-wasm/store-versions/1', origin: origins.origin(0), versions: [null, {}] }));
    body = 'User-agent: *\nDisallow: /three\n';
    const again = await robotstxtAsync(['fetch', '--store', store, '--force', '--now', '2026-11-04T00:00:00Z', origins.origin(0)]);
    expect(again.status, again.stderr).toBe(0);
    expect(again.stdout).toContain('version 1: not an object: set aside as');
    expect(indexOf(store, origins.fileKey(0)).versions.map((version) => version.sha256)).toEqual([sha('User-agent: *\nDisallow: /two\n'), sha(body)]);
  });

  it('a store written before versions: the first fetch that keeps versions begins them with the copy then in force, so requests made under it are judged by it', async () => {
    let body = 'User-agent: *\nDisallow: /old\n';
    const origins = await start([serving(() => body)]);
    const store = tempDir();
    expect((await robotstxtAsync(['fetch', '--store', store, '--keep-versions', '0', '--now', '2026-11-01T00:00:00Z', origins.origin(0)])).status).toBe(0);
    expect(existsSync(join(store, `${origins.fileKey(0)}.versions`))).toBe(false);
    body = 'User-agent: *\nDisallow: /new\n';
    expect((await robotstxtAsync(['fetch', '--store', store, '--now', '2026-11-10T00:00:00Z', origins.origin(0)])).status).toBe(0);
    expect(indexOf(store, origins.fileKey(0)).versions.map((version) => [version.firstSeen, version.sha256])).toEqual([
      ['2026-11-01T00:00:00Z', sha('User-agent: *\nDisallow: /old\n')], ['2026-11-10T00:00:00Z', sha(body)],
    ]);
    const log = join(store, '..', `before-${origins.port(0)}.log`);
    writeFileSync(log, '1.2.3.4 - - [05/Nov/2026:00:00:00 +0000] "GET /old HTTP/1.1" 200 1 "-" "Googlebot/2.1"\n');
    const json = JSON.parse(robotstxt(['audit', '--store', store, '--host', `127.0.0.1:${origins.port(0)}`, '--format', 'json', log]).stdout);
    expect([json.disallowed, json.noRulesKnown.requests]).toEqual([1, 0]);
  });

  it('a FIFO where a store or history file should be is refused by name at once, never waited on', () => {
    const store = tempDir();
    writeFileSync(join(store, 'https@a.example.json'), '{}');
    execFileSync('mkfifo', [join(store, 'https@b.example.json')]);
    execFileSync('mkfifo', [join(store, 'https@b.example.txt')]);
    const check = robotstxt(['check', '--store', store, '--agent', 'x'], 'https://b.example/x\n');
    expect([check.status, check.stdout]).toEqual([2, '']);
    expect(check.stderr).toMatch(/^robotstxt: cannot read (robots file|store record) '.*https@b\.example\.(txt|json)': not a regular file \(a pipe, a device or a socket\)\n$/);
    const history = join(tempDir(), 'history');
    mkdirSync(join(history, 'a.example'), { recursive: true });
    execFileSync('mkfifo', [join(history, 'a.example', '2026-11-01.txt')]);
    const log = join(history, '..', 'h.log');
    writeFileSync(log, 'a.example:80 1.2.3.4 - - [05/Nov/2026:00:00:00 +0000] "GET /x HTTP/1.1" 200 1 "-" "Googlebot/2.1"\n');
    const audit = robotstxt(['audit', '--robots-history', history, log]);
    expect([audit.status, audit.stdout]).toEqual([2, '']);
    expect(audit.stderr).toBe(`robotstxt: cannot read robots.txt history file '${join(history, 'a.example', '2026-11-01.txt')}': not a regular file (a pipe, a device or a socket)\n`);
  });
});
