// robotstxt tester: serves the robots.txt Tester page (tester/) on 127.0.0.1, or writes it as static files.
// The page runs entirely in the browser: its own files, the runtime-neutral core's modules and the .wasm.
import { createServer } from 'node:http';
import { copyFileSync, existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseCommand, usageError, type Command, type CommandSpec, type ParsedCommand } from './command-spec.js';
import { fileWriteError, makeDirectory } from '../node/robots-file.js';

/** What tester states about itself: its options (src/cli/command-spec.ts), usage, help and docs come from it. */
export const TESTER_SPEC = {
  name: 'tester',
  options: {
    port: { type: 'string', value: 'N', whole: { fallback: 8311, min: 0, max: 65535 }, excludes: ['build'], help: 'serve on this port ({range}; 0: any free port)' },
    host: { type: 'string', value: '<address>', excludes: ['build'], help: 'listen on this address (default 127.0.0.1: this machine only)' },
    build: { type: 'string', value: '<dir>', help: 'write the page and what it loads into <dir>, for any static web server, and exit' },
  },
  positionals: { shown: '', min: 0, max: 0, error: () => 'tester takes no arguments (see robotstxt tester --help)' },
  column: 20,
  description: `The robots.txt Tester: a page that runs entirely in the browser (Google's reference semantics, compiled to
WebAssembly). Edit a robots.txt with line numbers and lint markers, pick a crawler and a mode, paste or drop
URLs (thousands at once: matching runs in a Web Worker), see each verdict and its deciding line (click to
highlight it), compare with a kept previous version, and download the edited file. Nothing is sent anywhere.`,
  examples: [
    'robotstxt tester',
    'robotstxt tester --port 0',
    'robotstxt tester --build ./public/robots-tester',
  ],
} as const satisfies CommandSpec;

/** robotstxt tester. */
export const COMMAND: Command = { spec: TESTER_SPEC, run: (args, io) => runTester(args, io.out) };

/** The Tester page's Content-Security-Policy, sent as a header too (index.html carries the same in a meta tag). */
export const TESTER_CSP = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; worker-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' blob: data:; base-uri 'none'; form-action 'none'; object-src 'none'; frame-ancestors 'none'";

/** The package's root (dist/src/cli/ -> ../../..). */
const PACKAGE_ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const TESTER_FILES = ['index.html', 'tester.js', 'tester.css', 'match-worker.js'];
const CONTENT_TYPES: Record<string, string> = { html: 'text/html; charset=utf-8', js: 'text/javascript; charset=utf-8', css: 'text/css; charset=utf-8', wasm: 'application/wasm' };

/**
 * What the page loads, as URL path (from the page's folder) -> file: its own files, the core entry's module
 * graph (dist/src/core/index.js and what it imports) and the .wasm. Nothing else is served or copied.
 */
export function testerFiles(): Map<string, string> {
  const files = new Map<string, string>();
  for (const name of TESTER_FILES) files.set(`/${name}`, join(PACKAGE_ROOT, 'tester', name));
  const walk = (file: string): void => {
    const path = `/${relative(PACKAGE_ROOT, file).split('\\').join('/')}`;
    if (files.has(path)) return;
    files.set(path, file);
    for (const match of readFileSync(file, 'utf8').matchAll(/^\s*(?:import|export)\s[^;]*?from\s+'(\.[^']+)'/gm)) walk(join(dirname(file), match[1]));
  };
  walk(join(PACKAGE_ROOT, 'dist', 'src', 'core', 'index.js'));
  files.set('/build/robotstxt.wasm', join(PACKAGE_ROOT, 'build', 'robotstxt.wasm'));
  for (const file of files.values()) if (!existsSync(file)) throw usageError(`the Tester's file ${file} is missing: run npm run build`);
  return files;
}

/** What one run of tester does: write the page's files to a folder, or serve them on a host and port. */
export type TesterPlan = { kind: 'build'; folder: string } | { kind: 'serve'; host: string; port: number };

/** The plan of a tester run from its parsed arguments. Pure. Once per run. */
export function planTester(parsed: ParsedCommand<(typeof TESTER_SPEC)['options']>): TesterPlan {
  const { values } = parsed;
  return values.build !== undefined ? { kind: 'build', folder: values.build } : { kind: 'serve', host: values.host ?? '127.0.0.1', port: values.port };
}

/** robotstxt tester: the plan (planTester), then the page's files written, or served until a signal. Once per run. */
export async function runTester(args: string[], out: (text: string) => void): Promise<number> {
  const plan = planTester(parseCommand(TESTER_SPEC, args));
  const files = testerFiles();
  if (plan.kind === 'build') {
    const target = plan.folder;
    for (const [path, file] of files) {
      const destination = join(target, ...path.split('/').filter((part) => part !== ''));
      try {
        makeDirectory(dirname(destination));
        copyFileSync(file, destination);
      } catch (error) {
        throw fileWriteError(destination, 'Tester file', error);
      }
    }
    out(`robotstxt tester: ${files.size} files written to ${target} (serve that folder; open index.html through the server, not as a file)\n`);
    return 0;
  }
  const { host, port: requestedPort } = plan;
  const server = createServer((request, response) => {
    // a request target the URL parser rejects (`http://[::1`, `//x:99999999/`) is a bad request, never a crash
    let path: string;
    try {
      path = new URL(request.url ?? '/', 'http://localhost').pathname;
    } catch {
      response.writeHead(400, { 'content-type': 'text/plain' }).end('bad request target\n');
      return;
    }
    if (path === '/') path = '/index.html';
    const file = files.get(path);
    if (file === undefined || (request.method !== 'GET' && request.method !== 'HEAD')) {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
      return;
    }
    response.writeHead(200, {
      'content-type': CONTENT_TYPES[path.slice(path.lastIndexOf('.') + 1)] ?? 'application/octet-stream',
      'cache-control': 'no-cache',
      'x-content-type-options': 'nosniff',
      'content-security-policy': TESTER_CSP,
    });
    response.end(request.method === 'HEAD' ? undefined : readFileSync(file));
  });
  await new Promise<void>((listening, failed) => {
    server.once('error', (error: NodeJS.ErrnoException) => failed(usageError(`cannot listen on ${host}:${requestedPort}: ${error.code === 'EADDRINUSE' ? 'the port is in use (try --port 0)' : error.code ?? error.message}`)));
    server.listen(requestedPort, host, listening);
  });
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : requestedPort;
  out(`robotstxt tester: http://${host.includes(':') ? `[${host}]` : host}:${port}/ (Ctrl-C to stop)\n`);
  await new Promise<void>(() => { /* serves until a signal ends the process */ });
  return 0;
}
