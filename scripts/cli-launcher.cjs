#!/usr/bin/env node
// The command line's start (copied by scripts/bundle-cli.mjs to dist/src/bin/robotstxt.cjs, the package's
// `bin`). It runs one of the bundles beside it as Node runs a CommonJS file: the verdict commands (check and
// test: a line filter started once per partition of a cluster's job, and robots_main's contract, started once
// per URL) run robotstxt-verdicts.cjs, which holds only them (about half the code); every other command, and
// help, runs robotstxt-main.cjs. One difference from Node: V8 is given the code it compiled for that bundle in
// an earlier run (robotstxt-<bundle>.cache, made at build time by scripts/make-code-cache.cjs), so a run
// neither parses the bundle nor compiles the functions the training run used. A cache is used only when it
// was made for this exact bundle and is intact: its file starts with a 256-bit hash of the bundle it was made
// for and one of its own code (checked here, ~1 ms, by a WebAssembly function, scripts/seal.wat, so that no
// builtin is loaded for it: node:crypto cost 6-12 ms of every start; V8 itself compares a cache with the
// source's length only, and runs flipped bits). A cache that fails either check or that V8 rejects (another
// Node version, other V8 flags) costs its read and nothing else: the bundle is then compiled as usual.
// Called once per command.
'use strict';
const { closeSync, fstatSync, openSync, readFileSync, readSync } = require('node:fs');
const { createRequire } = require('node:module');
const { join } = require('node:path');
const { Script } = require('node:vm');

/** The bundles beside the launcher, by name (scripts/bundle-cli.mjs builds each, scripts/make-code-cache.cjs trains each). */
const BUNDLES = ['main', 'verdicts'];
/** The commands the verdicts bundle holds (scripts/bundle-cli.mjs builds it of them); main holds every command. */
const VERDICT_COMMANDS = ['check', 'test'];

/** The bundle a command line runs, by its first argument (the command): 'verdicts' or 'main'. Once per run. */
function bundleNameOf(/** @type {string | undefined} */ command) {
  return command !== undefined && VERDICT_COMMANDS.includes(command) ? 'verdicts' : 'main';
}

/** @typedef {{ bundlePath: string, cachePath: string }} BundleFiles */

/** A bundle's files: its code and its code cache, beside this file. */
function filesOf(/** @type {string} */ name) {
  return { bundlePath: join(__dirname, `robotstxt-${name}.cjs`), cachePath: join(__dirname, `robotstxt-${name}.cache`) };
}

/** The first line of a code cache file; then the bundle's and the code's seal (64 hex digits), a line each, then the code. */
const CACHE_MAGIC = 'robotstxt code cache 2';
/** The cache file's header: the magic line and two seal lines. */
const HEADER_LENGTH = CACHE_MAGIC.length + 1 + 65 + 65;

/** scripts/seal.wat, assembled by scripts/bundle-cli.mjs when it copies this file to dist/src/bin/. */
const SEAL_WASM = '__SEAL_WASM_BASE64__';

/** The bundle's bytes (read once per run). */
function readBundle(/** @type {BundleFiles} */ files) {
  return readFileSync(files.bundlePath);
}

/**
 * The bundle as a V8 script (Node's CommonJS wrapper around its text); cachedData: V8's code for it, or undefined.
 * @param {BundleFiles} files
 * @param {Uint8Array | undefined} cachedData
 * @param {Buffer} [bundle]
 * @returns {import('node:vm').Script}
 */
function compileBundle(files, cachedData, bundle = readBundle(files)) {
  return new Script(`(function (exports, require, module, __filename, __dirname) {${bundle.toString('utf8')}\n})`, { filename: files.bundlePath, cachedData });
}

/** @typedef {{ memory: WebAssembly.Memory, hash: (start: number, length: number, out: number) => void }} Sealer */
/** @type {WebAssembly.Module | null | undefined} */
let sealModule;

/**
 * A new instance of scripts/seal.wat (its own memory: views a caller holds into one are never overwritten by
 * another's use), or null where this node has no WebAssembly (--jitless): no cache is used then.
 * @returns {Sealer | null}
 */
function newSealer() {
  if (sealModule === undefined) {
    try {
      sealModule = new WebAssembly.Module(Buffer.from(SEAL_WASM, 'base64'));
    } catch {
      sealModule = null;
    }
  }
  return sealModule === null ? null : /** @type {Sealer} */ (/** @type {unknown} */ (new WebAssembly.Instance(sealModule).exports));
}

const roundUp8 = (/** @type {number} */ length) => Math.ceil(length / 8) * 8;

/** The sealer's memory, at least `bytes` long (grown once, before any view of it is made). */
function memoryOf(/** @type {Sealer} */ seal, /** @type {number} */ bytes) {
  const have = seal.memory.buffer.byteLength;
  if (have < bytes) seal.memory.grow(Math.ceil((bytes - have) / 65536));
  return seal.memory.buffer;
}

/**
 * The seal of `length` bytes of the sealer's memory from `start` (any address; zero bytes after them pad the
 * last word): 64 hex digits, written by scripts/seal.wat to the 32 bytes at `out` (8-aligned).
 */
function sealAt(/** @type {Sealer} */ seal, /** @type {number} */ start, /** @type {number} */ length, /** @type {number} */ out) {
  seal.hash(start, length, out);
  return Array.from(new BigUint64Array(seal.memory.buffer, out, 4), (lane) => lane.toString(16).padStart(16, '0')).join('');
}

/**
 * The seal of bytes (copied into the sealer's memory): how the build seals a cache. Null without WebAssembly.
 * @param {Uint8Array} bytes
 */
function seal(bytes) {
  const sealer = newSealer();
  if (sealer === null) return null;
  const out = roundUp8(bytes.length + 8);
  const memory = new Uint8Array(memoryOf(sealer, out + 32));
  memory.set(bytes);
  memory.fill(0, bytes.length, bytes.length + 8);
  return sealAt(sealer, 0, bytes.length, out);
}

/**
 * A code cache file's bytes: the header naming the bundle it was made for and sealing the code, then the code.
 * @param {Buffer} bundle
 * @param {Buffer} code
 */
function sealCodeCache(bundle, code) {
  return Buffer.concat([Buffer.from(`${CACHE_MAGIC}\n${seal(bundle)}\n${seal(code)}\n`, 'latin1'), code]);
}

/**
 * Runs the compiled bundle: the command line reads process.argv and runs its command.
 * @param {BundleFiles} files
 * @param {import('node:vm').Script} script
 */
function runBundle(files, script) {
  const { bundlePath } = files;
  const bundleModule = { exports: {}, filename: bundlePath, id: bundlePath, loaded: false };
  script.runInThisContext().call(bundleModule.exports, bundleModule.exports, createRequire(bundlePath), bundleModule, bundlePath, __dirname);
}

/** The code of a cache file whose header seals it for this bundle and this code, or undefined. */
function checkedCode(/** @type {Buffer} */ file, /** @type {string | null} */ bundleSeal, /** @type {(code: Buffer) => string | null} */ sealOfCode) {
  if (file.length <= HEADER_LENGTH || bundleSeal === null) return undefined;
  const [magic, bundleHash, codeHash] = file.subarray(0, HEADER_LENGTH).toString('latin1').split('\n');
  const code = file.subarray(HEADER_LENGTH);
  if (magic !== CACHE_MAGIC || bundleHash !== bundleSeal || codeHash !== sealOfCode(code)) return undefined;
  return code;
}

/**
 * V8's code for the bundle from the cache file made at build time, or undefined: no file, not a sealed cache,
 * made for another bundle (edited or replaced after the build, even at the same length), or code that is not
 * what was sealed (a damaged file).
 */
function readCodeCache(/** @type {BundleFiles} */ files, bundle = readBundle(files)) {
  let file;
  try {
    file = readFileSync(files.cachePath);
  } catch {
    return undefined;
  }
  return checkedCode(file, seal(bundle), seal);
}

/**
 * A file read straight into the sealer's memory at `at`, followed by 8 zero bytes (the padding a seal of any
 * tail of it reads): a view of it, or null when it cannot be read whole. Its pages are touched once, where it
 * is then hashed and compiled from.
 */
function readInto(/** @type {Sealer} */ sealer, /** @type {number} */ fd, /** @type {number} */ size, /** @type {number} */ at) {
  const view = Buffer.from(sealer.memory.buffer, at, size);
  let read = 0;
  while (read < size) {
    const count = readSync(fd, view, read, size - read, read);
    if (count === 0) return null;
    read += count;
  }
  new Uint8Array(sealer.memory.buffer, at + size, 8).fill(0);
  return view;
}

/**
 * The bundle and its checked code for this run (the start's path): both files read into the sealer's memory
 * and sealed where they lie, with no copy (WebAssembly loads need no alignment). Without WebAssembly, or with
 * no readable cache, the bundle alone.
 * @returns {{ bundle: Buffer, code: Buffer | undefined }}
 */
function readSealed(/** @type {BundleFiles} */ files) {
  const sealer = newSealer();
  let cacheFd;
  try {
    cacheFd = openSync(files.cachePath, 'r');
  } catch {
    return { bundle: readBundle(files), code: undefined };
  }
  try {
    const bundleFd = openSync(files.bundlePath, 'r');
    try {
      if (sealer === null) return { bundle: readBundle(files), code: undefined };
      const bundleSize = fstatSync(bundleFd).size;
      const cacheSize = fstatSync(cacheFd).size;
      // memory: the bundle, 8 zero bytes, the cache file, 8 zero bytes, 32 bytes for a seal
      const cacheAt = roundUp8(bundleSize + 8);
      const out = roundUp8(cacheAt + cacheSize + 8);
      memoryOf(sealer, out + 32);
      const bundle = readInto(sealer, bundleFd, bundleSize, 0);
      const file = bundle === null ? null : readInto(sealer, cacheFd, cacheSize, cacheAt);
      if (bundle === null || file === null) return { bundle: readBundle(files), code: undefined };
      const code = checkedCode(file, sealAt(sealer, 0, bundleSize, out), (tail) => sealAt(sealer, cacheAt + tail.byteOffset - file.byteOffset, tail.length, out));
      return { bundle, code };
    } finally {
      closeSync(bundleFd);
    }
  } finally {
    closeSync(cacheFd);
  }
}

/**
 * The launcher's calls for one bundle ('main' or 'verdicts'), for the build (scripts/make-code-cache.cjs) and
 * the tests: its files, and each call above bound to them.
 */
function launcherOf(/** @type {string} */ name) {
  const files = filesOf(name);
  return {
    bundlePath: files.bundlePath,
    cachePath: files.cachePath,
    readBundle: () => readBundle(files),
    compileBundle: (/** @type {Uint8Array | undefined} */ cachedData, /** @type {Parameters<typeof compileBundle>[2]} */ bundle) => compileBundle(files, cachedData, bundle),
    runBundle: (/** @type {import('node:vm').Script} */ script) => runBundle(files, script),
    readCodeCache: (/** @type {Parameters<typeof readCodeCache>[1]} */ bundle) => readCodeCache(files, bundle),
    readSealed: () => readSealed(files),
    sealCodeCache,
  };
}

if (require.main === module) {
  const files = filesOf(bundleNameOf(process.argv[2]));
  const { bundle, code } = readSealed(files);
  runBundle(files, compileBundle(files, code, bundle));
} else {
  module.exports = { ...launcherOf('main'), launcherOf, bundleNameOf, BUNDLES, VERDICT_COMMANDS };
}
