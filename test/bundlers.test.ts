// robotstxt-wasm/core as a web project takes it: bundled by esbuild and by Vite from a project that depends
// on the package (linked into its node_modules), without warnings, then run in headless Chromium from a local
// server: the page's verdict suite (test/runtime/verdict-suite.mjs) must equal Node's.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { createServer, type Server } from 'node:http';
import { existsSync, mkdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { extname, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as nodeApi from '../src/node/index.js';
import { runVerdictSuite } from './runtime/verdict-suite.mjs';
import { tempDir } from './cli-helpers.js';
import { CHROMIUM, canRun, launchChromium } from './browser.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SUITE = join(ROOT, 'test', 'runtime', 'verdict-suite.mjs');
const expected = await runVerdictSuite({ ...nodeApi, RobotsDiff: nodeApi.RobotsDiff });

/** The page's script: the suite through the package's core entry; `initialize` is how the page loads the .wasm. */
const appSource = (initialize: string, imports = ''): string => `import * as api from 'robotstxt-wasm/core';
import { runVerdictSuite } from ${JSON.stringify(SUITE)};
${imports}
try {
  await ${initialize};
  window.results = await runVerdictSuite(api);
} catch (error) {
  window.results = { error: String(error) };
}
document.title = 'done';
`;
const PAGE = '<!doctype html><meta charset="utf-8"><title>running</title><script type="module" src="./app.js"></script>\n';

/** A web project depending on the package (linked, as npm link does). */
function project(): string {
  const dir = tempDir();
  mkdirSync(join(dir, 'node_modules'));
  symlinkSync(ROOT, join(dir, 'node_modules', 'robotstxt-wasm'), 'dir');
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'web-page', type: 'module', private: true }));
  return dir;
}

const CONTENT_TYPES: Record<string, string> = { '.js': 'text/javascript', '.wasm': 'application/wasm', '.html': 'text/html' };
/** Serves a folder on 127.0.0.1 (nothing outside it). */
async function serve(folder: string): Promise<{ server: Server; origin: string }> {
  const server = createServer((request, response) => {
    const path = decodeURIComponent(new URL(request.url ?? '/', 'http://127.0.0.1').pathname);
    const file = resolve(folder, `.${path === '/' ? '/index.html' : path}`);
    if (!file.startsWith(folder + sep) || !existsSync(file) || !statSync(file).isFile()) {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { 'content-type': CONTENT_TYPES[extname(file)] ?? 'application/octet-stream' }).end(readFileSync(file));
  });
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  const address = server.address();
  return { server, origin: `http://127.0.0.1:${typeof address === 'object' && address !== null ? address.port : 0}` };
}


describe.skipIf(!canRun(CHROMIUM !== null, 'the bundler suite (its pages run in Chromium)', 'apt-get install chromium (.ci/run installs it)'))('bundled for the browser, run in headless Chromium', () => {
  let browser: import('puppeteer-core').Browser;
  const servers: Server[] = [];
  beforeAll(async () => {
    browser = await launchChromium();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await Promise.all(servers.map((server) => new Promise((closed) => server.close(closed))));
  });

  /** Opens the built folder's index.html: the page's results, and every URL it requested. */
  async function run(folder: string): Promise<{ results: unknown; requested: string[]; origin: string }> {
    const { server, origin } = await serve(folder);
    servers.push(server);
    const page = await browser.newPage();
    const requested: string[] = [];
    page.on('request', (request) => requested.push(request.url()));
    await page.goto(`${origin}/`);
    await page.waitForFunction(() => document.title === 'done', { timeout: 30_000 });
    const results = await page.evaluate(() => (window as unknown as { results: unknown }).results);
    await page.close();
    return { results, requested, origin };
  }

  it('esbuild (format esm, platform browser; the .wasm through its file loader): no warning, Node\'s results', { tags: ['slow'], timeout: 60_000 }, async () => {
    const { build } = await import('esbuild');
    const dir = project();
    writeFileSync(join(dir, 'app.js'), appSource('api.initialize(new URL(wasmFile, import.meta.url))', "import wasmFile from 'robotstxt-wasm/robotstxt.wasm';"));
    const out = join(dir, 'out');
    const built = await build({ absWorkingDir: dir, entryPoints: ['app.js'], bundle: true, format: 'esm', platform: 'browser', target: 'es2022', outdir: out, loader: { '.wasm': 'file' }, logLevel: 'silent' });
    expect(built.errors).toEqual([]);
    expect(built.warnings).toEqual([]);
    writeFileSync(join(out, 'index.html'), PAGE);
    const { results, requested, origin } = await run(out);
    expect(results).toEqual(expected);
    expect(requested.filter((url) => !url.startsWith(origin))).toEqual([]);
    expect(requested.some((url) => /\/robotstxt-\w+\.wasm$/.test(url))).toBe(true);
  });

  it('Vite (vite build; initialize() with no argument finds the .wasm Vite emitted): no warning, Node\'s results', { tags: ['slow'], timeout: 60_000 }, async () => {
    const { build, createLogger } = await import('vite');
    const dir = project();
    writeFileSync(join(dir, 'app.js'), appSource('api.initialize()'));
    writeFileSync(join(dir, 'index.html'), PAGE);
    const logger = createLogger('warn');
    const warnings: string[] = [];
    logger.warn = (message) => { warnings.push(message); };
    logger.warnOnce = (message) => { warnings.push(message); };
    const out = join(dir, 'dist');
    await build({ root: dir, configFile: false, logLevel: 'warn', customLogger: logger, build: { outDir: out, target: 'es2022' } });
    expect(warnings).toEqual([]);
    const { results, requested, origin } = await run(out);
    expect(results).toEqual(expected);
    expect(requested.filter((url) => !url.startsWith(origin))).toEqual([]);
    expect(requested.some((url) => /\/assets\/robotstxt-[\w-]+\.wasm$/.test(url))).toBe(true);
  });
});
