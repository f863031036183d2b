// The runtime-neutral entry (robotstxt-wasm/core) everywhere WebAssembly runs: one verdict suite
// (test/runtime/verdict-suite.mjs) in Node through the Node entry, in Node through the core entry, in headless
// Chromium (a page served by a local node:http server, and a module Web Worker), in Bun, Deno and workerd.
// Every runtime's results must equal Node's.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { createServer, type Server } from 'node:http';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { spawn, spawnSync } from 'node:child_process';
import { extname, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import * as nodeApi from '../src/node/index.js';
import { runVerdictSuite } from './runtime/verdict-suite.mjs';
import { CHROMIUM, canRun, launchChromium, runtimePath } from './browser.js';

const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));
/** Bun, Deno and workerd, installed by `npm run runtimes` into .runtimes/ (not by npm ci: they weigh ~350 MB); CI installs them. */
const BUN = runtimePath(ROOT, 'bun');
const DENO = runtimePath(ROOT, 'deno');
const WORKERD = runtimePath(ROOT, 'workerd');
const RUNTIMES_INSTALL = 'npm run runtimes installs Bun, Deno and workerd into .runtimes/';
const CORE_ENTRY = join(ROOT, 'dist', 'src', 'core', 'index.js');

/** The suite as Node's own entry answers it: what every runtime must give. */
const expected = await runVerdictSuite({ ...nodeApi, RobotsDiff: nodeApi.RobotsDiff });

/**
 * The core entry's module graph (its relative imports, followed), and what in it is not allowed there: imports
 * that are not relative (node: modules, packages) and Buffer. Comments are left out of both checks.
 */
function coreModuleGraph(): { files: string[]; problems: string[] } {
  const seen = new Set<string>();
  const problems: string[] = [];
  const walk = (file: string): void => {
    if (seen.has(file)) return;
    seen.add(file);
    const source = readFileSync(file, 'utf8').replace(/\/\/.*$/gm, '').replace(/\/\*[\s\S]*?\*\//g, '');
    for (const match of source.matchAll(/^\s*(?:import|export)\s[^;]*?from\s+'([^']+)'|^\s*import\s+'([^']+)'/gm)) {
      const specifier = match[1] ?? match[2];
      if (!specifier.startsWith('.')) problems.push(`${file} imports ${specifier}`);
      else walk(resolve(join(file, '..'), specifier));
    }
    if (/(?<![A-Za-z])Buffer\b/.test(source)) problems.push(`${file} uses Buffer`);
  };
  walk(CORE_ENTRY);
  return { files: [...seen], problems };
}

describe('the runtime-neutral entry', () => {
  it('imports no node: module and no Buffer anywhere in its module graph', () => {
    const { files, problems } = coreModuleGraph();
    expect(problems).toEqual([]);
    expect(files.length).toBeGreaterThan(8);
  });
  it('in Node, through robotstxt-wasm/core (initialize reads the file: URL): the same results', async () => {
    const core = await import(CORE_ENTRY);
    await core.initialize();
    expect(await runVerdictSuite(core)).toEqual(expected);
  });
  it('package.json maps ./core and the non-Node conditions of . to it; . has the Node API\'s types (a Node project under moduleResolution bundler sees them)', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
    expect(pkg.exports['./core']).toEqual({ types: './dist/src/core/index.d.ts', default: './dist/src/core/index.js' });
    expect(pkg.exports['.']).toEqual({ types: './dist/src/node/index.d.ts', node: './dist/src/node/index.js', default: './dist/src/core/index.js' });
    expect(pkg.exports['./robotstxt.wasm']).toEqual({ types: './types/robotstxt.wasm.d.ts', default: './build/robotstxt.wasm' });
    for (const file of ['dist/src/core/index.js', 'dist/src/core/index.d.ts', 'dist/src/node/index.d.ts', 'build/robotstxt.wasm']) expect(existsSync(join(ROOT, file))).toBe(true);
  });
});

const CONTENT_TYPES: Record<string, string> = { '.js': 'text/javascript', '.mjs': 'text/javascript', '.wasm': 'application/wasm', '.html': 'text/html' };
const PAGE = `<!doctype html><meta charset="utf-8"><title>running</title>
<script type="module">
import * as api from '/dist/src/core/index.js';
import { runVerdictSuite } from '/test/runtime/verdict-suite.mjs';
try {
  await api.initialize();
  window.pageResults = await runVerdictSuite(api);
} catch (error) {
  window.pageResults = { error: String(error) };
}
const worker = new Worker('/test/runtime/worker.mjs', { type: 'module' });
window.workerResults = await new Promise((done) => { worker.onmessage = (event) => done(event.data); worker.onerror = (event) => done({ error: event.message }); });
document.title = 'done';
</script>`;


describe.skipIf(!canRun(CHROMIUM !== null, 'the browser suite', 'apt-get install chromium (.ci/run installs it)'))('in headless Chromium: a page and a Web Worker', () => {
  let server: Server;
  let origin = '';
  beforeAll(async () => {
    // the repository's own files (dist/, build/, test/runtime/), nothing outside it; the page itself at /
    server = createServer((request, response) => {
      const path = decodeURIComponent(new URL(request.url ?? '/', 'http://127.0.0.1').pathname);
      if (path === '/') {
        response.writeHead(200, { 'content-type': 'text/html' }).end(PAGE);
        return;
      }
      const file = resolve(ROOT, `.${path}`);
      if (!file.startsWith(ROOT + sep) && file !== ROOT) {
        response.writeHead(403).end();
        return;
      }
      if (!existsSync(file) || !statSync(file).isFile()) {
        response.writeHead(404).end();
        return;
      }
      response.writeHead(200, { 'content-type': CONTENT_TYPES[extname(file)] ?? 'application/octet-stream' }).end(readFileSync(file));
    });
    await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
    const address = server.address();
    origin = `http://127.0.0.1:${typeof address === 'object' && address !== null ? address.port : 0}`;
  });
  afterAll(async () => {
    await new Promise((closed) => server.close(closed));
  });
  it('the same results as Node, in the page and in a module Web Worker; only its own origin is fetched', { tags: ['slow'], timeout: 60_000 }, async () => {
    const browser = await launchChromium();
    try {
      const page = await browser.newPage();
      const requested: string[] = [];
      page.on('request', (request) => requested.push(request.url()));
      await page.goto(`${origin}/`);
      await page.waitForFunction(() => document.title === 'done', { timeout: 30_000 });
      const [pageResults, workerResults] = await page.evaluate(() => [(window as unknown as { pageResults: unknown }).pageResults, (window as unknown as { workerResults: unknown }).workerResults]);
      expect(pageResults).toEqual(expected);
      expect(workerResults).toEqual(expected);
      expect(requested.filter((url) => !url.startsWith(origin))).toEqual([]);
      expect(requested).toContain(`${origin}/build/robotstxt.wasm`);
    } finally {
      await browser.close();
    }
  });
});

const RUNTIME_SUITE = join(ROOT, 'test', 'runtime', 'cli-runtime-suite.mjs');
for (const [name, path, args, version] of [
  ['Bun', BUN, [RUNTIME_SUITE], /^bun \d+\.\d+/],
  ['Deno', DENO, ['run', `--allow-read=${ROOT}`, '--no-prompt', RUNTIME_SUITE], /^deno \d+\.\d+/],
] as const) {
  describe.skipIf(!canRun(existsSync(path), `the ${name} suite`, RUNTIMES_INSTALL))(`in ${name} (the ${name.toLowerCase()} package from the npm registry)`, () => {
    it('the same results as Node', () => {
      const run = spawnSync(path, args, { encoding: 'utf8', timeout: 60_000, env: { ...process.env, NO_COLOR: '1', DENO_NO_UPDATE_CHECK: '1' } });
      expect(run.stderr).toBe('');
      const output = JSON.parse(run.stdout) as { runtime: string; results: unknown };
      expect(output.runtime).toMatch(version);
      expect(output.results).toEqual(expected);
    }, 60_000);
  });
}

describe.skipIf(!canRun(existsSync(WORKERD), 'the workerd suite', RUNTIMES_INSTALL))('in workerd (Cloudflare\'s runtime, the workerd package from the npm registry)', () => {
  it('the same results as Node, from a worker bundled by esbuild with the .wasm declared as a module', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'robotstxt-workerd-'));
    const { build } = await import('esbuild');
    await build({ entryPoints: [join(ROOT, 'test', 'runtime', 'workerd-worker.mjs')], bundle: true, format: 'esm', outfile: join(dir, 'worker.mjs'), external: ['robotstxt.wasm'], logLevel: 'warning' });
    copyFileSync(join(ROOT, 'build', 'robotstxt.wasm'), join(dir, 'robotstxt.wasm'));
    const port = await freePort();
    writeFileSync(join(dir, 'config.capnp'), [
      'using Workerd = import "/workerd/workerd.capnp";',
      `const config :Workerd.Config = (services = [(name = "main", worker = .suite)], sockets = [(name = "http", address = "127.0.0.1:${port}", http = (), service = "main")]);`,
      'const suite :Workerd.Worker = (modules = [(name = "worker.mjs", esModule = embed "worker.mjs"), (name = "robotstxt.wasm", wasm = embed "robotstxt.wasm")], compatibilityDate = "2025-01-01");',
    ].join('\n'));
    const server = spawn(WORKERD, ['serve', join(dir, 'config.capnp')], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    server.stderr.on('data', (chunk: Buffer) => { stderr += chunk.toString(); });
    try {
      let answer: { runtime: string; results: unknown } | null = null;
      for (let attempt = 0; attempt < 100 && answer === null; attempt++) {
        try {
          answer = await (await fetch(`http://127.0.0.1:${port}/`)).json() as { runtime: string; results: unknown };
        } catch {
          await new Promise((resolve) => setTimeout(resolve, 150)); // still starting
        }
      }
      expect(stderr).toBe('');
      expect(answer?.runtime).toBe('workerd');
      expect(answer?.results).toEqual(expected);
    } finally {
      server.kill('SIGKILL');
    }
  }, 60_000);
});

/** A TCP port free on 127.0.0.1 now (a server listens on port 0 and closes). */
function freePort(): Promise<number> {
  return new Promise((resolvePort) => {
    const probe = createServer();
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => resolvePort(typeof address === 'object' && address !== null ? address.port : 0));
    });
  });
}

describe('the browser build\'s size', () => {
  it('is what docs/library.md says (JavaScript of the core entry\'s module graph plus the .wasm, gzip, within 10%)', () => {
    const { files } = coreModuleGraph();
    const gzipBytes = [...files, join(ROOT, 'build', 'robotstxt.wasm')].reduce((sum, file) => sum + gzipSync(readFileSync(file), { level: 9 }).length, 0);
    const page = readFileSync(join(ROOT, 'docs', 'library.md'), 'utf8');
    const stated = /browser build is\s+([\d.]+) KiB gzip/.exec(page);
    expect(stated).not.toBeNull();
    expect(Math.abs(Number((stated as RegExpExecArray)[1]) * 1024 - gzipBytes) / gzipBytes).toBeLessThan(0.1);
  });
});
