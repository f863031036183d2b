// npm run bench:fetch: `robotstxt fetch` over 1,000 local origins (one node:http server per origin, on
// 127.0.0.1, started here), a mix of fast, slow, failing, silent and refused ones. Measures the whole
// command (time, peak memory) against the bound its concurrency and timeout promise, and compares it with a
// plain loop over Node's fetch() at the same concurrency and timeout, measured in the same run.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import pLimit from 'p-limit';
import { seededRandom } from './data.js';
import { writeSectionResults } from './results-file.js';
import { cliPath as CLI } from './cli-runs.js';

const ORIGINS = 1000;
const TIMEOUT_MS = 2000;
const SLOW_MS = [200, 1500] as const;

type Kind = 'ok' | 'slow' | 'redirect' | '404' | '503' | 'silent' | 'trickle' | 'refused';
/** Shares of the 1,000 origins, by kind. */
const MIX: [Kind, number][] = [['ok', 600], ['slow', 150], ['redirect', 50], ['404', 50], ['503', 60], ['silent', 40], ['trickle', 20], ['refused', 30]];

const random = seededRandom(9);
const body = (i: number): string => `User-agent: *\nDisallow: /private/${i}/\nAllow: /private/${i}/open\n${'# padding\n'.repeat(Math.floor(random() * 200))}`;

async function listen(handler: Parameters<typeof createServer>[1]): Promise<Server> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', 511, () => resolve()));
  return server;
}

const servers: Server[] = [];
const toClose: Server[] = [];
const origins: { url: string; kind: Kind }[] = [];
for (const [kind, count] of MIX) {
  for (let n = 0; n < count; n++) {
    const i = origins.length;
    const server = await listen((request, response) => {
      switch (kind) {
        case 'ok': response.end(body(i)); break;
        case 'slow': setTimeout(() => response.end(body(i)), SLOW_MS[0] + random() * (SLOW_MS[1] - SLOW_MS[0])); break;
        case 'redirect':
          if (request.url === '/robots.txt') { response.writeHead(301, { location: '/moved/robots.txt' }); response.end(); } else response.end(body(i));
          break;
        case '404': response.writeHead(404); response.end('not found'); break;
        case '503': response.writeHead(503); response.end(); break;
        case 'silent': break;
        case 'trickle': {
          response.writeHead(200);
          const timer = setInterval(() => response.write('#'), 100);
          response.on('close', () => clearInterval(timer));
          break;
        }
        default: break;
      }
    });
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    // a refused origin's server closes once every port is taken (else a later server could get its port)
    (kind === 'refused' ? toClose : servers).push(server);
    origins.push({ url, kind });
  }
}
await Promise.all(toClose.map((server) => new Promise<void>((resolve) => server.close(() => resolve()))));
// shuffled, so that slow and failing origins are spread over the run
for (let i = origins.length - 1; i > 0; i--) {
  const j = Math.floor(random() * (i + 1));
  [origins[i], origins[j]] = [origins[j], origins[i]];
}
const list = origins.map((origin) => origin.url).join('\n') + '\n';

function runFetch(concurrency: number): Promise<{ seconds: number; stdout: string; stderr: string; status: number | null }> {
  const store = mkdtempSync(join(tmpdir(), 'robotstxt-bench-store-'));
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, [CLI, 'fetch', '--store', store, '--timeout-ms', String(TIMEOUT_MS), '--concurrency', String(concurrency), '--per-host', String(concurrency), '--stats', '-']);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => { stdout += chunk.toString(); });
    child.stderr.on('data', (chunk: Buffer) => { stderr += chunk.toString(); });
    child.on('error', reject);
    child.on('close', (status) => {
      rmSync(store, { recursive: true, force: true });
      resolve({ seconds: (performance.now() - started) / 1000, stdout, stderr, status });
    });
    child.stdin.end(list);
  });
}

/** What a crawler without this package writes: fetch() each robots.txt, same concurrency and deadline, no rules. */
async function plainFetchLoop(concurrency: number): Promise<number> {
  const limit = pLimit(concurrency);
  const started = performance.now();
  await Promise.all(origins.map((origin) => limit(async () => {
    try {
      const response = await fetch(`${origin.url}/robots.txt`, { signal: AbortSignal.timeout(TIMEOUT_MS), redirect: 'follow' });
      await response.arrayBuffer();
    } catch {
      // failures are outcomes here too
    }
  })));
  return (performance.now() - started) / 1000;
}

const lines: string[] = [];
const mixText = MIX.map(([kind, count]) => `${count} ${kind}`).join(', ');
lines.push('## Fetching (`npm run bench:fetch`, bench/fetch.ts)', '');
lines.push(`Generated on ${new Date().toISOString().slice(0, 10)}; ${cpus().length} x ${cpus()[0]?.model.split(' ').slice(0, 2).join(' ') ?? 'cpu'}, ${Math.round(totalmem() / 2 ** 30)} GiB; Node ${process.version}.`);
lines.push(`${ORIGINS.toLocaleString('en')} local origins, one node:http server each on 127.0.0.1 (in the benchmark's process): ${mixText}`);
lines.push(`(slow: answers after ${SLOW_MS[0]}-${SLOW_MS[1]} ms; silent: accepts and never answers; trickle: a byte every 100 ms, forever;`);
lines.push(`refused: a closed port). \`robotstxt fetch --store <new dir> --timeout-ms ${TIMEOUT_MS} --concurrency N --per-host N\`, whole process,`);
lines.push('origins on standard input. Bound: the origins that cannot finish early (silent, trickle) each take the timeout; at N at once,');
lines.push('a run cannot end before ceil(those / N) x timeout, and must end by ceil(all / N) x timeout (+ start-up).', '');
lines.push('| concurrency | robotstxt fetch | peak memory | bound (must end by) | within | plain fetch() loop, same run | outcomes |');
lines.push('|---|---|---|---|---|---|---|');
for (const concurrency of [50, 200]) {
  const run = await runFetch(concurrency);
  const plain = await plainFetchLoop(concurrency);
  if (run.status !== 0) throw new Error(`fetch failed (${run.status}): ${run.stderr}`);
  const peak = /peak memory ([\d.]+) MiB/.exec(run.stderr)?.[1] ?? '?';
  const summary = /(\d+ fetched \([^)]*\))/.exec(run.stderr)?.[1] ?? '?';
  const bound = Math.ceil(ORIGINS / concurrency) * TIMEOUT_MS / 1000 + 1;
  lines.push(`| ${concurrency} | ${run.seconds.toFixed(2)} s | ${peak} MiB | ${bound.toFixed(0)} s | ${run.seconds <= bound ? 'yes' : '**no**'} | ${plain.toFixed(2)} s (${(run.seconds / plain).toFixed(2)}x) | ${summary} |`);
  console.log(lines[lines.length - 1]);
}
lines.push('', 'The plain loop keeps nothing and reads no rules; the command line also starts a process, reads the status rules,');
lines.push('writes two files per origin (write, then rename) and parses every body.');

await Promise.all(servers.map((server) => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); })));
console.log(writeSectionResults('fetch', lines));
