// Bundles the command line into dist/src/bin/robotstxt-main.cjs (every command) and
// dist/src/bin/robotstxt-verdicts.cjs (check and test alone, which start most often: what a start compiles and
// runs is about half of main's), its worker-thread entry into dist/src/bin/worker.js, copies the launcher
// (scripts/cli-launcher.cjs, which picks the bundle by the command) to dist/src/bin/robotstxt.cjs (the
// package's `bin`), then makes V8's code cache for each bundle (scripts/make-code-cache.cjs). Run by
// `npm run build` after tsc; it reads tsc's output in dist/src.
//
// Why a CommonJS bundle: Node's ES module loader resolves, reads, compiles and links each module as an
// asynchronous job, and for a short command that was most of its start-up (about 25 ms for 21 modules on
// the 2-core machine). One CommonJS file is one synchronous read and compile. Modules the code imports
// lazily (a command's module, the HTTP client, the worker pool, zlib, crypto) stay lazy: esbuild wraps each
// in an initialiser and its require() calls run only when it is first used.
//
// Paths: the bundle sits at the same depth as dist/src/cli/ and dist/src/wasm/, so the files the code finds
// relative to its own URL (build/robotstxt.wasm, package.json, tester/) resolve the same. The pool looks for
// its worker beside itself, so the worker is bundled as bin/worker.js. Dependencies stay in node_modules,
// except p-limit, which ships only as an ES module (a CommonJS require of it needs Node 20.19 or later).
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { chmodSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const outdir = `${root}dist/src/bin`;
const dependencies = ['crawler-user-agents', 'ipaddr.js', 'isbot', 'piscina', 'undici', 'warcio'];
/** @type {import('esbuild').BuildOptions} */
const common = { absWorkingDir: root, bundle: true, platform: 'node', target: 'node20', external: dependencies, logLevel: 'warning', legalComments: 'none' };
rmSync(outdir, { recursive: true, force: true });
// parse5 (the HTML parser, only robotstxt page needs it) is a bundle of its own, required by the main bundle
// from beside itself when a page is read: inside the main bundle its 300 KB were paid by every command's
// start (read, hashed, cache-loaded) although only one command ever runs it
/** @type {import('esbuild').Plugin} */
const parse5Beside = { name: 'parse5-beside', setup: (b) => b.onResolve({ filter: /^parse5$/ }, () => ({ path: './parse5.cjs', external: true })) };
await build({ ...common, entryPoints: ['parse5'], outfile: `${outdir}/parse5.cjs`, format: 'cjs' });
/** @type {import('esbuild').BuildOptions} The main bundle's options (every command); the verdicts bundle adds a plugin. */
const cli = {
  ...common,
  plugins: [parse5Beside],
  entryPoints: ['dist/src/cli/main.js'],
  format: 'cjs',
  // import() of a module in a CommonJS file becomes require(): the launcher runs the bundle as a vm.Script,
  // which has no loader for import() without an experimental option
  supported: { 'dynamic-import': false },
  // import.meta.url has no CommonJS form: each use reads this file's own URL instead
  define: { 'import.meta.url': '__robotstxtFileUrl' },
  banner: { js: "'use strict';\nconst __robotstxtFileUrl = require('node:url').pathToFileURL(__filename).href;" },
};
await build({ ...cli, outfile: `${outdir}/robotstxt-main.cjs` });
// the verdicts bundle: the registry's other commands are left out (the launcher never sends them here; were
// one run, it would fail loudly, not answer)
const { BUNDLES, VERDICT_COMMANDS } = createRequire(import.meta.url)('./cli-launcher.cjs');
/** @type {import('esbuild').Plugin} */
const verdictsOnly = {
  name: 'verdicts-only',
  setup: (b) => {
    b.onResolve({ filter: /^\.\/[a-z]+-command\.js$/ }, (args) => {
      const name = /^\.\/([a-z]+)-command\.js$/.exec(args.path)?.[1] ?? '';
      return args.importer.endsWith('/cli/commands.js') && !VERDICT_COMMANDS.includes(name) ? { path: name, namespace: 'not-in-verdicts' } : undefined;
    });
    b.onLoad({ filter: /.*/, namespace: 'not-in-verdicts' }, (args) => ({ contents: `throw new Error(${JSON.stringify(`robotstxt ${args.path} is not in the verdicts bundle (the launcher runs it with robotstxt-main.cjs)`)});`, loader: 'js' }));
  },
};
await build({ ...cli, plugins: [parse5Beside, verdictsOnly], outfile: `${outdir}/robotstxt-verdicts.cjs` });
await build({ ...common, entryPoints: ['dist/src/node/threads/worker.js'], outfile: `${outdir}/worker.js`, format: 'esm' });
// the launcher wraps a bundle's text in a function: no hashbang line inside it
for (const name of BUNDLES) {
  const bundleText = readFileSync(`${outdir}/robotstxt-${name}.cjs`, 'utf8');
  writeFileSync(`${outdir}/robotstxt-${name}.cjs`, bundleText.replace(/^#![^\n]*\n/, ''));
}
// the launcher gets the code cache's seal (scripts/seal.wat) assembled into it: one file, no builtin loaded for it
const { default: binaryen } = await import('binaryen');
const sealModule = binaryen.parseText(readFileSync(`${root}scripts/seal.wat`, 'utf8'));
if (!sealModule.validate()) throw new Error('scripts/seal.wat is not a valid module');
const sealBase64 = Buffer.from(sealModule.emitBinary()).toString('base64');
sealModule.dispose();
writeFileSync(`${outdir}/robotstxt.cjs`, readFileSync(`${root}scripts/cli-launcher.cjs`, 'utf8').replace("'__SEAL_WASM_BASE64__'", `'${sealBase64}'`));
chmodSync(`${outdir}/robotstxt.cjs`, 0o755);
for (const name of BUNDLES) execFileSync(process.execPath, [`${root}scripts/make-code-cache.cjs`, name], { stdio: ['ignore', 'ignore', 'pipe'] });
