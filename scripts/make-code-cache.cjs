// Makes V8's code cache for one of the command line's bundles (`node make-code-cache.cjs main|verdicts`:
// dist/src/bin/robotstxt-<bundle>.cache): one training run
// of `robotstxt check --robots-dir` over the examples (the many-host path, which shares its argument parsing,
// input reading, engine and output with the other commands), then the code V8 compiled for the bundle is
// written, sealed with a hash of the bundle and of the code (scripts/seal.wat) (scripts/cli-launcher.cjs checks both). Run by scripts/bundle-cli.mjs as its own process (standard output discarded): the build's last step.
'use strict';
const { writeFileSync } = require('node:fs');
const { join } = require('node:path');

const root = join(__dirname, '..');
const launcherPath = join(root, 'dist', 'src', 'bin', 'robotstxt.cjs');
const launcher = require(launcherPath);
const name = process.argv[2];
if (!launcher.BUNDLES.includes(name)) throw new Error(`make-code-cache: which bundle? one of ${launcher.BUNDLES.join(', ')}, got ${name}`);
const { compileBundle, runBundle, cachePath, readBundle, sealCodeCache } = launcher.launcherOf(name);

const bundle = readBundle();
const script = compileBundle(undefined, bundle);
process.argv = [process.execPath, launcherPath, 'check', '--robots-dir', join(root, 'examples', 'robots'), '--agent', 'Googlebot', join(root, 'examples', 'hosts-urls.txt')];
process.on('exit', (code) => {
  if (code !== 0) return; // a failed run leaves no cache, and the build fails on its exit code
  writeFileSync(cachePath, sealCodeCache(bundle, script.createCachedData()));
});
runBundle(script);
