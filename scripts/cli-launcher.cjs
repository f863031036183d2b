#!/usr/bin/env node
// The command line's start (copied by scripts/bundle-cli.mjs to dist/src/bin/robotstxt.cjs, the package's
// `bin`). It runs the bundle beside it (robotstxt-main.cjs) as Node runs a CommonJS file, with one difference:
// V8 is given the code it compiled for the bundle in an earlier run (robotstxt-main.cache, made at build time
// by scripts/make-code-cache.cjs), so a run neither parses the 0.6 MB bundle nor compiles the functions the
// training run used. A cache V8 rejects (another Node version, other V8 flags, another bundle) costs a read
// of the file and nothing else: the bundle is then compiled as usual. Called once per command.
'use strict';
const { readFileSync, statSync } = require('node:fs');
const { createRequire } = require('node:module');
const { join } = require('node:path');
const { Script } = require('node:vm');

const bundlePath = join(__dirname, 'robotstxt-main.cjs');
const cachePath = join(__dirname, 'robotstxt-main.cache');

/** The bundle as a V8 script (Node's CommonJS wrapper around its text); cachedData: V8's code for it, or undefined. */
function compileBundle(cachedData) {
  const source = readFileSync(bundlePath, 'utf8');
  return new Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, { filename: bundlePath, cachedData });
}

/** Runs the compiled bundle: the command line reads process.argv and runs its command. */
function runBundle(script) {
  const bundleModule = { exports: {}, filename: bundlePath, id: bundlePath, loaded: false };
  script.runInThisContext().call(bundleModule.exports, bundleModule.exports, createRequire(bundlePath), bundleModule, bundlePath, __dirname);
}

/**
 * V8's code cache made at build time, or undefined when it is absent or older than the bundle (V8 checks a
 * cache against the length of the source only: a bundle edited after the build must not run stale code).
 */
function readCodeCache() {
  try {
    if (statSync(cachePath).mtimeMs < statSync(bundlePath).mtimeMs) return undefined;
    return readFileSync(cachePath);
  } catch {
    return undefined;
  }
}

if (require.main === module) runBundle(compileBundle(readCodeCache()));
else module.exports = { compileBundle, runBundle, cachePath, readCodeCache };
