// A compiled matcher: the rules that apply to one agent query, compiled once into the WebAssembly core's
// trie, then matched against many URLs.
import { RULE_KIND_ALLOW, VERDICT_ALLOWED, VERDICT_DISALLOWED, OUTPUT_ALL, OUTPUT_ONLY_ALLOWED, OUTPUT_ONLY_DISALLOWED } from './constants.js';
import { core, type WasmCore } from './wasm/core.js';
import { encodeAgents } from './wasm/bodies.js';
import { compiledRule, hasLiteralIndex } from './wasm/blob.js';
import type { CompiledRules, ResidentMatchers } from './wasm/resident.js';
import { urlOrBytesArgument, urlsArgument, linesArgument } from './arguments.js';
import { RobotsError } from './errors.js';

/** The rule that decided a verdict. */
export interface DecidingRule {
  kind: 'allow' | 'disallow';
  /** Line number in the robots.txt (1-based). */
  line: number;
  /** The normalised pattern of the deciding line (for the index.htm rule, that line's `<dir>/index.htm...` pattern; indexHtmRule says the rule applied). */
  pattern: string;
  /** Byte length of the pattern: the rule's priority. */
  priority: number;
  /** True when the Google-only index.htm rule made this allow pattern. */
  indexHtmRule: boolean;
}

/** A verdict with its reason. */
export interface Explanation {
  allowed: boolean;
  /** The deciding rule, or null when no rule with a non-empty pattern matched (allowed by default). */
  rule: DecidingRule | null;
}

const latin1 = new TextDecoder('latin1');
const encoder = new TextEncoder();

let nextMatcherId = 1;

/** A body a matcher compiles on demand (RobotsTxt.matcher): its first URL is answered from the body directly. */
export interface UncompiledRules {
  body: Uint8Array;
  rfc: boolean;
}

/** URLs a matcher with a literal index answers in bulk before it is compiled into the trie (see RobotsMatcher.answered). */
const TRIE_AFTER_URLS = 65_536;
/** Bodies up to this size get the trie later; a larger one keeps its index (the trie's blob is ~1.4x the body, 4x the index's). */
const TRIE_MAX_BODY_BYTES = 4 << 20;

/** What a matcher's finalizer releases: its compiled rules in its core (updated when it compiles again). */
interface ResidentCopy {
  resident: ResidentMatchers;
  rules: CompiledRules | null;
}

/**
 * The safety net for matchers dropped without close(): their compiled rules leave the core's heap once they
 * are collected (the core keeps at most RESIDENT_BYTES of them in any case: this only frees it sooner). A
 * matcher is registered when it is compiled: one answered once from its body holds no memory of the core
 * (and a loop that makes a million of those without yielding leaves no registration behind).
 */
const droppedMatchers = typeof FinalizationRegistry === 'function'
  ? new FinalizationRegistry<ResidentCopy>((copy) => {
    if (copy.rules !== null) copy.resident.release(copy.rules);
  })
  : null; // a runtime without finalizers (workerd): the resident copies stay within RESIDENT_BYTES, close() frees them

/** The rules of one robots.txt that apply to one agent query, compiled: made by RobotsTxt.matcher once, used for many URLs. */
export class RobotsMatcher {
  /** The agents this matcher was compiled for (RobotsTxt.matcher gives it also to queries that select the same groups). */
  readonly agents: readonly string[];
  /** Unique per matcher in this process: workers cache compiled matchers by it. */
  readonly id = nextMatcherId++;
  private shared: Uint8Array | null = null;
  private compiled: CompiledRules | null;
  /** The body while nothing is compiled yet. */
  private uncompiled: UncompiledRules | null;
  private readonly engine: WasmCore;
  /** The first isAllowed of an uncompiled matcher was answered from its body. */
  private answeredOnce = false;
  /** The body of a blob compiled with a literal index, kept until the matcher is compiled into the trie (see answered). */
  private indexed: UncompiledRules | null = null;
  /** Deciding rules made so far, by compiled rule index (see decidingRule). */
  private rulesByIndex: Map<number, Readonly<DecidingRule>> | null = null;
  /** URLs answered by bulk calls while `indexed` is kept. */
  private bulkUrls = 0;
  private readonly residentCopy: ResidentCopy;
  private wasClosed = false;

  /**
   * A matcher for a blob compiled by the core for these agents, or for a body compiled on first need
   * (RobotsTxt.matcher): a google-mode matcher answers its first isAllowed straight from the body
   * (assembly/direct.ts, one tokenize pass) and compiles from its second URL on, so a matcher made for one
   * verdict (a one-off check, a crawler meeting a host) never pays for a compile.
   */
  constructor(rules: UncompiledRules, agents: readonly string[], engine: WasmCore = core()) {
    this.agents = agents;
    this.engine = engine;
    this.compiled = null;
    this.uncompiled = rules;
    this.residentCopy = { resident: engine.resident, rules: null };
  }

  /** The compiled rules the finalizer releases, registered on the first. */
  private watch(rules: CompiledRules): void {
    if (this.residentCopy.rules === null) droppedMatchers?.register(this, this.residentCopy, this.residentCopy);
    this.residentCopy.rules = rules;
  }

  /**
   * Gives back the matcher's WebAssembly memory (the copy of its rules its core keeps resident) and its
   * compiled rules; calls after it throw CLOSED. Idempotent. RobotsTxt.close() closes the matchers it made.
   * Also `matcher[Symbol.dispose]()` where the runtime has it (for `using`).
   */
  close(): void {
    if (this.wasClosed) return;
    this.wasClosed = true;
    droppedMatchers?.unregister(this.residentCopy);
    if (this.compiled !== null) this.engine.resident.release(this.compiled);
    this.compiled = this.shared = this.residentCopy.rules = null;
    this.uncompiled = this.indexed = null;
    this.rulesByIndex = null;
  }

  /** True once close() was called (a cache that meets it makes a new matcher). */
  get closed(): boolean {
    return this.wasClosed;
  }

  /** The compiled rules in the core, compiled on first use (they stay in the core's heap while used). */
  private get rules(): CompiledRules {
    if (this.compiled === null) {
      if (this.wasClosed) throw new RobotsError('CLOSED', 'this RobotsMatcher was closed');
      const rules = this.uncompiled as UncompiledRules;
      this.compiled = this.engine.bodies.compile(rules.body, this.agents, rules.rfc);
      this.watch(this.compiled);
      this.uncompiled = null;
      if (rules.body.length <= TRIE_MAX_BODY_BYTES && hasLiteralIndex(this.engine.resident.view(this.compiled))) this.indexed = rules;
    }
    return this.compiled;
  }

  /** Byte length of the compiled trie (compiled on first use): what the matcher holds in the core. */
  get compiledBytes(): number {
    return this.rules.length;
  }

  /** The compiled trie as position-independent bytes (a copy; compiled on first use): for tools that inspect or ship it. */
  get blob(): Uint8Array {
    return this.engine.resident.view(this.rules).slice();
  }

  /** The bytes of the compiled rules, valid until the next call on the core (read at once: rule records, the header). */
  private view(): Uint8Array {
    return this.engine.resident.view(this.rules);
  }

  /**
   * After a bulk call: a matcher whose literal rules are in a literal index (quick to compile, two to five
   * times slower per URL than the trie on large literal sets) is compiled again with them in the trie once
   * it has answered TRIE_AFTER_URLS URLs, when the compile (tens of ms) has paid for itself. Same verdicts.
   */
  private answered(urls: number): void {
    if (this.indexed === null) return;
    this.bulkUrls += urls;
    if (this.bulkUrls < TRIE_AFTER_URLS) return;
    const { body, rfc } = this.indexed;
    this.indexed = null;
    const trie = this.engine.bodies.compileIntoTrie(body, this.agents, rfc);
    if (trie === null) return;
    this.engine.resident.release(this.compiled as CompiledRules);
    this.compiled = trie;
    this.watch(trie);
    this.shared = null;
    this.rulesByIndex = null; // indexes of the other blob
  }

  /** The blob in shared memory (made once), so that worker threads read it without copies. */
  sharedBlob(): Uint8Array {
    if (this.shared === null) {
      const rules = this.rules;
      this.shared = new Uint8Array(new SharedArrayBuffer(rules.length));
      this.shared.set(this.engine.resident.view(rules));
    }
    return this.shared;
  }

  /** One verdict. Called per URL by interactive callers; bulk callers use checkBatch or checkLines. */
  isAllowed(url: string | URL | Uint8Array): boolean {
    url = urlOrBytesArgument(url, 'url');
    if (this.wasClosed) throw new RobotsError('CLOSED', 'this RobotsMatcher was closed');
    if (this.uncompiled !== null && !this.uncompiled.rfc && !this.answeredOnce) {
      this.answeredOnce = true;
      const direct = this.engine.bodies.answerUrlFromBody(this.uncompiled.body, encodeAgents(this.agents), url);
      if (direct !== 0) return direct === VERDICT_ALLOWED;
    }
    const verdict = typeof url === 'string' ? this.engine.matching.matchString(this.rules, url) : this.engine.matching.matchOne(this.rules, url).verdict;
    return verdict === VERDICT_ALLOWED;
  }

  /** The verdict and the rule that decided it (line, pattern, priority). Called per URL by tools that report. */
  explain(url: string | URL | Uint8Array): Explanation {
    url = urlOrBytesArgument(url, 'url');
    const match = this.engine.matching.matchOne(this.rules, typeof url === 'string' ? encoder.encode(url) : url);
    const allowed = match.verdict === VERDICT_ALLOWED;
    let index = -1;
    if (!allowed) index = match.disallowRule;
    else if (match.allowRule >= 0 && this.decidingRule(match.allowRule).priority > 0) index = match.allowRule; // an empty Allow decides nothing (made once per rule, kept)
    return { allowed, rule: index < 0 ? null : { ...this.decidingRule(index) } };
  }

  /**
   * explain() in bulk: per line of newline-separated URL bytes (as checkLines reads them), its verdict byte
   * and the line of the rule that decided it (0: none did). One call per batch: reports and the Tester.
   */
  explainLines(lines: Uint8Array): { verdicts: Uint8Array; lines: Uint32Array } {
    const { verdicts, rules: indexes } = this.engine.matching.explainLines(this.rules, linesArgument(lines, 'lines'));
    // the lines are read from the blob that answered, before answered() may compile it again
    const ruleLines = new Uint32Array(indexes.length);
    let lastIndex = -1;
    let lastLine = 0;
    for (let i = 0; i < indexes.length; i++) {
      const index = indexes[i];
      if (index < 0) continue;
      if (index !== lastIndex) {
        lastIndex = index;
        lastLine = this.decidingRule(index).line;
      }
      ruleLines[i] = lastLine;
    }
    this.answered(verdicts.length);
    return { verdicts, lines: ruleLines };
  }

  /**
   * explain() in bulk with the whole deciding rules: per line its verdict byte and its rule (null: none did),
   * one object per rule of the matcher, shared by every URL it decided (frozen). One call per batch:
   * audit, and RobotsDiff when many URLs change verdict.
   */
  decidingRules(lines: Uint8Array): { verdicts: Uint8Array; rules: (Readonly<DecidingRule> | null)[] } {
    const { verdicts, rules: indexes } = this.engine.matching.explainLines(this.rules, linesArgument(lines, 'lines'));
    // the rules are read from the blob that answered, before answered() may compile it again
    const rules = Array.from(indexes, (index) => (index < 0 ? null : this.decidingRule(index)));
    this.answered(verdicts.length);
    return { verdicts, rules };
  }

  /** The deciding rule of the compiled rule at index, made once per rule (frozen: shared by every caller). */
  private decidingRule(index: number): Readonly<DecidingRule> {
    this.rulesByIndex ??= new Map();
    let made = this.rulesByIndex.get(index);
    if (made === undefined) {
      const blob = this.view();
      const rule = compiledRule(blob, index);
      // the index.htm rule's `<dir>/$` is shown as the pattern of the line it came from (the rule just before it)
      const shown = rule.derived ? compiledRule(blob, index - 1) : rule;
      made = Object.freeze({
        kind: rule.kind === RULE_KIND_ALLOW ? 'allow' : 'disallow',
        line: rule.line,
        pattern: latin1.decode(shown.pattern),
        priority: rule.pattern.length,
        indexHtmRule: rule.derived,
      } as const);
      this.rulesByIndex.set(index, made);
    }
    return made;
  }

  /** Verdict bytes (VERDICT_ALLOWED = 1, VERDICT_DISALLOWED = 2), one per URL, in order. One call per batch. */
  checkBatch(urls: readonly (string | URL)[]): Uint8Array {
    const verdicts = this.engine.matching.matchStrings(this.rules, Array.isArray(urls) && urls.every((url) => typeof url === 'string') ? urls as readonly string[] : urlsArgument(urls, 'urls'));
    this.answered(verdicts.length);
    return verdicts;
  }

  /**
   * Verdict bytes for newline-separated URL bytes (LF or CRLF; a final line without LF counts, a final LF
   * starts no extra line). No JavaScript string per URL. One call per chunk of complete lines.
   */
  checkLines(lines: Uint8Array): Uint8Array {
    const verdicts = this.engine.matching.matchLines(this.rules, linesArgument(lines, 'lines'));
    this.answered(verdicts.length);
    return verdicts;
  }

  /**
   * checkLines plus the command line's output bytes for those lines (`allowed\t<url>\n`, or filtered). With
   * `into` (a buffer the caller reuses from chunk to chunk), the output is a view of it when it fits.
   */
  checkLinesText(lines: Uint8Array, only: OutputFilter = 'all', into: Uint8Array | null = null): { output: Uint8Array; verdicts: Uint8Array } {
    const result = this.engine.matching.matchAndFormatLines(this.rules, linesArgument(lines, 'lines'), outputFilterCode(only), into);
    this.answered(result.verdicts.length);
    return result;
  }

  /**
   * checkLines plus one JSON object per line with its deciding rule (the command line's --format jsonl),
   * in bulk: input numbers firstNumber + line index, or numbers[line index]. With `into` (a buffer the caller
   * reuses from chunk to chunk), the output is a view of it when it fits. One call per chunk.
   */
  checkLinesJsonl(lines: Uint8Array, only: OutputFilter = 'all', firstNumber = 1, numbers: Uint32Array | null = null, into: Uint8Array | null = null): { output: Uint8Array; verdicts: Uint8Array } {
    const result = this.engine.matching.explainAndFormatJsonl(this.rules, linesArgument(lines, 'lines'), outputFilterCode(only), firstNumber, numbers, into);
    this.answered(result.verdicts.length);
    return result;
  }
}

/** `using` support where the runtime defines Symbol.dispose (Node 20.4+, recent browsers): the same as close(). */
export function addDispose(prototype: { close(): void }): void {
  const dispose = (Symbol as { dispose?: symbol }).dispose;
  if (typeof dispose === 'symbol') Object.defineProperty(prototype, dispose, { value: prototype.close, writable: true, configurable: true });
}
addDispose(RobotsMatcher.prototype);

export { VERDICT_ALLOWED, VERDICT_DISALLOWED };

/** Which lines formatted output keeps (check --only): every line, or those with one verdict. */
export type OutputFilter = 'all' | 'allowed' | 'disallowed';

/** Whether an output filter keeps a line of this verdict (what the core's formatters do with OUTPUT_*). Called per line by the merge of sharded jsonl. */
export function keepsVerdict(only: OutputFilter, verdict: number): boolean {
  return only === 'all' || (only === 'allowed') === (verdict === VERDICT_ALLOWED);
}

/** The WebAssembly core's code of an output filter (OUTPUT_*); INVALID_ARGUMENT for anything else. Called once per batch. */
export function outputFilterCode(only: OutputFilter): number {
  if (only === 'all') return OUTPUT_ALL;
  if (only === 'allowed') return OUTPUT_ONLY_ALLOWED;
  if (only === 'disallowed') return OUTPUT_ONLY_DISALLOWED;
  throw new RobotsError('INVALID_ARGUMENT', `an output filter is all, allowed or disallowed, got ${JSON.stringify(only)}`);
}

/** In a matcher made by pathsMatcher, the line of path i is i + PATHS_FIRST_LINE (line 1 is its user-agent line). */
export const PATHS_FIRST_LINE = 2;

/**
 * A matcher of bare paths (one string of byte values per path, as latin1 decoding gives, matched as a Disallow
 * line's path is, the longest match deciding): how Content-Usage and Noindex: paths are matched against URLs
 * with the engine of Allow/Disallow (same encoding rules, same worst case). Explain a URL; the deciding rule's
 * line minus PATHS_FIRST_LINE is the path's index. Once per rule set.
 */
export function pathsMatcher(paths: readonly string[], rfc: boolean): RobotsMatcher {
  const text = ['user-agent: *', ...paths.map((path) => `disallow: ${path}`)].join('\n') + '\n';
  return new RobotsMatcher({ body: byteValues(text), rfc }, ['*']);
}

/** A string of byte values (as latin1 decoding gives) back to its bytes. */
export function byteValues(text: string): Uint8Array {
  const bytes = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
  return bytes;
}
