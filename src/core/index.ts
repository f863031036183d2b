// robotstxt-wasm/core: the runtime-neutral entry, for browsers, Web Workers, Deno, Bun and edge runtimes.
// Parsing, matching, explain, lint and diff, with no node: module and no Buffer. The WebAssembly module is
// compiled once, asynchronously, by initialize(); everything after that is synchronous, as in Node. The Node
// entry (robotstxt-wasm) adds files, the command line's pieces, worker pools, fetching and the store.
import { setWasmModule, wasmModuleReady } from './wasm/module.js';
import { RobotsError } from './errors.js';

export { parseRobots, RobotsTxt, OtherDirective, productToken, agentTokenProblem } from './robots.js';
export type { RobotsBodyInput, RobotsOptions, RobotsMode, RobotsRule, RobotsGroup, AgentLine, Diagnostic, DiagnosticSeverity, AgentQuery } from './robots.js';
export { RobotsMatcher } from './matcher.js';
export { UsagePolicy, USAGE_CATEGORIES, REPORTED_CATEGORIES, CONTENT_SIGNAL_KEYS, DEFAULT_POLICY_TOKENS, USAGE_UNKNOWN, USAGE_ALLOWED, USAGE_DISALLOWED, readContentUsage, readContentSignal, parseContentUsageHeader } from './usage.js';
export type { UsageAnswer, UsageOptions, UsageVerdict, UsageDecider, UsageRule, PurposeAnswer, PurposeStatement, UsagePurpose, PageAiStatements } from './usage.js';
export { PURPOSE_RULE, USAGE_PURPOSE_OF, usagePurpose } from './usage.js';
export { pageRules, judgePage, pageResponseOf, pageStatements, pageRuleTime, headerLine, ROBOTS_TAG_PARSE_LIMIT } from './page-rules.js';
export { pageTraps, isRobotsMetaName, PAGE_TRAPS } from './page-traps.js';
export type { PageTrap, PageTrapKind } from './page-traps.js';
export { RobotsNoindex } from './robots-noindex.js';
export type { RobotsNoindexLine } from './robots-noindex.js';
export type { PageRules, PageAnswer, PageResponse, PageMeta, PageHeaders, PageRuleStatement, PageRuleSource } from './page-rules.js';
export type { Explanation, DecidingRule, OutputFilter } from './matcher.js';
export { RobotsError } from './errors.js';
export type { RobotsErrorCode, RobotsErrorOption, OptionWords } from './errors.js';
export { LIBRARY_OPTION_WORDS } from './errors.js';
export { parseRobotsBody } from './parser.js';
export type { RobotsParseHandler, UserAgentFacts, ParseNoticeCode } from './parser.js';
export { VERDICT_ALLOWED, VERDICT_DISALLOWED, DEFAULT_MAX_BYTES } from './constants.js';
export { lintRobots } from './lint.js';
export type { LintReport, LintFinding, LintOptions } from './lint.js';
export { RobotsDiff } from './diff.js';
export type { DiffReport, ChangedUrl, RuleCount } from './diff.js';
export { crawlerName, agentWarning } from './crawlers.js';
export { originOf } from './url-model.js';
export type { UrlOrigin } from './url-model.js';

/** Where initialize() may take the WebAssembly module from. */
export type WasmSource = WebAssembly.Module | ArrayBuffer | ArrayBufferView | URL | string | Response | Promise<Response>;

/**
 * The module shipped with the package (dist/src/core/ -> build/robotstxt.wasm), or null where this module has
 * no URL to resolve it against (workerd and other runtimes that load modules from a bundle or a config:
 * initialize() is then given the module, e.g. a `.wasm` import).
 */
export const DEFAULT_WASM_URL: URL | null = packagedWasmUrl();

function packagedWasmUrl(): URL | null {
  try {
    return new URL('../../../build/robotstxt.wasm', import.meta.url);
  } catch {
    return null;
  }
}

let pending: Promise<void> | null = null;

/**
 * Compiles the WebAssembly core once per thread (a page, a Web Worker, a Deno, Bun or workerd isolate); call
 * and await it before the first parseRobots. From source when given (a compiled module, the .wasm bytes, a URL
 * or a fetch Response), else from DEFAULT_WASM_URL (where there is none, as in workerd, it rejects with
 * WASM_UNAVAILABLE: give the module). A second call returns the first one's promise.
 */
export function initialize(source?: WasmSource): Promise<void> {
  if (pending === null) {
    pending = (async () => compile(source ?? packagedOrThrow()))().then(setWasmModule, (error: unknown) => {
      pending = null;
      throw error instanceof RobotsError ? error : new RobotsError('WASM_UNAVAILABLE', `the WebAssembly core could not be loaded: ${(error as Error).message}`);
    });
  }
  return pending;
}

/** True once initialize() has finished (or in Node, where the module is read on first use). */
export function isInitialized(): boolean {
  return wasmModuleReady();
}

/** DEFAULT_WASM_URL, or the reason initialize() needs its source here. */
function packagedOrThrow(): URL {
  if (DEFAULT_WASM_URL === null) throw new RobotsError('WASM_UNAVAILABLE', 'this runtime gives modules no URL to find robotstxt.wasm beside: pass the module to initialize() (a WebAssembly.Module, its bytes, a URL or a Response)');
  return DEFAULT_WASM_URL;
}

async function compile(source: WasmSource): Promise<WebAssembly.Module> {
  if (source instanceof WebAssembly.Module) return source;
  if (source instanceof ArrayBuffer || ArrayBuffer.isView(source)) return WebAssembly.compile(source as BufferSource);
  if (typeof source === 'string' || source instanceof URL) {
    const url = DEFAULT_WASM_URL === null ? new URL(source) : new URL(source, DEFAULT_WASM_URL);
    if (url.protocol === 'file:') {
      // Node's fetch takes no file: URL: where the runtime gives Node's built-in modules (Node 20.16+, Bun,
      // Deno), the file is read with node:fs; else fetched (Deno and Bun fetch file: URLs). No import names a
      // Node module, so bundlers for browsers find none (browsers never get here)
      const readFile = nodeBuiltin<{ readFile(url: URL): Promise<Uint8Array> }>('node:fs/promises')?.readFile;
      if (readFile !== undefined) return WebAssembly.compile(await readFile(url) as BufferSource);
    }
    return compileResponse(fetch(url));
  }
  return compileResponse(source);
}

/** One of Node's built-in modules through process.getBuiltinModule, where the runtime has it; else undefined. */
function nodeBuiltin<T>(id: string): T | undefined {
  const runtime = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
  return typeof runtime?.getBuiltinModule === 'function' ? runtime.getBuiltinModule(id) as T : undefined;
}

async function compileResponse(response: Response | Promise<Response>): Promise<WebAssembly.Module> {
  const answered = await response;
  if (!answered.ok) throw new RobotsError('WASM_UNAVAILABLE', `the WebAssembly core could not be fetched from ${answered.url}: HTTP ${answered.status}`);
  // streaming compilation needs the application/wasm type; without it, the bytes
  if (typeof WebAssembly.compileStreaming === 'function' && answered.headers.get('content-type')?.startsWith('application/wasm') === true) return WebAssembly.compileStreaming(answered);
  return WebAssembly.compile(await answered.arrayBuffer());
}
