#!/usr/bin/env node
// The command line's start (copied by scripts/bundle-cli.mjs to dist/src/bin/robotstxt.cjs, the package's
// `bin`). It runs the bundle beside it (robotstxt-main.cjs) as Node runs a CommonJS file, with one difference:
// V8 is given the code it compiled for the bundle in an earlier run (robotstxt-main.cache, made at build time
// by scripts/make-code-cache.cjs), so a run neither parses the 0.6 MB bundle nor compiles the functions the
// training run used. The cache is used only when it was made for this exact bundle and is intact: its file
// starts with the SHA-256 of the bundle it was made for and of its own code (checked here, ~1 ms; V8 itself
// compares a cache with the source's length only, and runs flipped bits). A cache that fails either check or
// that V8 rejects (another Node version, other V8 flags) costs its read and nothing else: the bundle is then
// compiled as usual. Called once per command.
'use strict';
const { createHash } = require('node:crypto');
const { readFileSync } = require('node:fs');
const { createRequire } = require('node:module');
const { join } = require('node:path');
const { Script } = require('node:vm');

const bundlePath = join(__dirname, 'robotstxt-main.cjs');
const cachePath = join(__dirname, 'robotstxt-main.cache');

/** The first line of a code cache file; then the bundle's and the code's SHA-256 (hex), a line each, then the code. */
const CACHE_MAGIC = 'robotstxt code cache 1';

/** The bundle's bytes (read once per run). */
function readBundle() {
  return readFileSync(bundlePath);
}

/**
 * The bundle as a V8 script (Node's CommonJS wrapper around its text); cachedData: V8's code for it, or undefined.
 * @param {Buffer | undefined} cachedData
 * @param {Buffer} [bundle]
 * @returns {import('node:vm').Script}
 */
function compileBundle(cachedData, bundle = readBundle()) {
  return new Script(`(function (exports, require, module, __filename, __dirname) {${bundle.toString('utf8')}\n})`, { filename: bundlePath, cachedData });
}

/**
 * The SHA-256 of bytes, in hex.
 * @param {Buffer} bytes
 */
function sha256(bytes) {
  return createHash('sha256').update(bytes).digest('hex');
}

/**
 * A code cache file's bytes: the header naming the bundle it was made for and sealing the code, then the code.
 * @param {Buffer} bundle
 * @param {Buffer} code
 */
function sealCodeCache(bundle, code) {
  return Buffer.concat([Buffer.from(`${CACHE_MAGIC}\n${sha256(bundle)}\n${sha256(code)}\n`, 'latin1'), code]);
}

/**
 * Runs the compiled bundle: the command line reads process.argv and runs its command.
 * @param {import('node:vm').Script} script
 */
function runBundle(script) {
  const bundleModule = { exports: {}, filename: bundlePath, id: bundlePath, loaded: false };
  script.runInThisContext().call(bundleModule.exports, bundleModule.exports, createRequire(bundlePath), bundleModule, bundlePath, __dirname);
}

/**
 * V8's code for the bundle from the cache file made at build time, or undefined: no file, not a sealed cache,
 * made for another bundle (edited or replaced after the build, even at the same length), or code that is not
 * what was sealed (a damaged file).
 */
function readCodeCache(bundle = readBundle()) {
  let file;
  try {
    file = readFileSync(cachePath);
  } catch {
    return undefined;
  }
  const headerLength = CACHE_MAGIC.length + 1 + 65 + 65;
  if (file.length <= headerLength) return undefined;
  const [magic, bundleHash, codeHash] = file.subarray(0, headerLength).toString('latin1').split('\n');
  const code = file.subarray(headerLength);
  if (magic !== CACHE_MAGIC || bundleHash !== sha256(bundle) || codeHash !== sha256(code)) return undefined;
  return code;
}

if (require.main === module) {
  const bundle = readBundle();
  runBundle(compileBundle(readCodeCache(bundle), bundle));
} else {
  module.exports = { compileBundle, runBundle, cachePath, readBundle, readCodeCache, sealCodeCache };
}
