// A parsed robots.txt: groups with their rules, sitemaps, crawl-delay, host, clean-param, diagnostics.
// Built by a RobotsParseHandler from the parser's events; compiles matchers per agent query on demand.
import { DEFAULT_MAX_BYTES } from './constants.js';
import { RobotsError } from './errors.js';
import { parseRobotsBody, type RobotsMode, type RobotsParseHandler, type ParseNoticeCode, type UserAgentFacts } from './parser.js';
import { RobotsMatcher, addDispose } from './matcher.js';
import { UsagePolicy, type PageAiStatements, type PurposeAnswer, type UsageAnswer, type UsageOptions } from './usage.js';
import { core } from './wasm/core.js';
import { bytesToRead } from './wasm/limits.js';
import { encodeAgents } from './wasm/bodies.js';
import { agentsArgument, optionsArgument, urlOrBytesArgument, maxBytesArgument } from './arguments.js';

export type { RobotsMode } from './parser.js';

/** Options of parseRobots. */
export interface RobotsOptions {
  /** `google` (default): the reference's verdicts. `rfc`: RFC 9309 where the reference departs from it. */
  mode?: RobotsMode;
  /** Bytes of the body that are read; the rest is ignored. Default 512,000 (500 KiB); 0 = unlimited. */
  maxBytes?: number;
}

/** How a robots.txt is read, whole: its mode and how many of its bytes (0: all). Threaded as one record from the options that set it to every reader of files. */
export type RobotsReading = Required<RobotsOptions>;

/** The reading part of a larger settings record (fetch settings, history options), for parseRobots, which takes no other key. Per file parsed. */
export function readingPart(settings: RobotsReading): RobotsReading {
  return { mode: settings.mode, maxBytes: settings.maxBytes };
}

/** An allow or disallow line as written (value bytes raw, not yet normalised). */
export interface RobotsRule {
  kind: 'allow' | 'disallow';
  line: number;
  value: Uint8Array;
}

/** A user-agent line: its raw value, its product token and whether it names every crawler (`*`). */
export interface AgentLine {
  line: number;
  value: string;
  /** Longest leading run of [A-Za-z_-] of the value ("Googlebot/2.1" -> "Googlebot"). */
  productToken: string;
  global: boolean;
}

/** A non-standard line (crawl-delay, host, clean-param, ...) kept with its key as written; decoded when read. */
export class OtherDirective {
  constructor(readonly line: number, private readonly keyBytes: Uint8Array, private readonly valueBytes: Uint8Array) {}
  /** The key as written (one char per byte). */
  get key(): string {
    return latin1(this.keyBytes);
  }
  /** The value, decoded as UTF-8. */
  get value(): string {
    return utf8(this.valueBytes);
  }
  /** The value's bytes as written. */
  get rawValue(): Uint8Array {
    return this.valueBytes;
  }
  /** True when the key is `name` (ASCII case-insensitive), without making a string. */
  isKey(name: string): boolean {
    const key = this.keyBytes;
    if (key.length !== name.length) return false;
    for (let i = 0; i < key.length; i++) if ((key[i] | 0x20) !== name.charCodeAt(i)) return false;
    return true;
  }
}

/** One group: user-agent lines followed by rules, up to the next user-agent line after a rule. */
export interface RobotsGroup {
  agents: AgentLine[];
  rules: RobotsRule[];
  /** Non-standard lines met while this group was open (crawl-delay, request-rate, ...). */
  others: OtherDirective[];
}

export type DiagnosticSeverity = 'error' | 'warning' | 'info';

/** Something the parser repaired, ignored or accepted leniently, with its line. */
export interface Diagnostic {
  line: number;
  severity: DiagnosticSeverity;
  code: ParseNoticeCode | 'unknown-directive' | 'rule-outside-group' | 'body-truncated';
  message: string;
}

/**
 * The severity of every diagnostic code: the one table the parser's diagnostics and lint use. An error: the
 * line is lost or misplaced; a warning: accepted, but probably not what was meant, or lost in part; info: fine.
 */
export const DIAGNOSTIC_SEVERITY: Record<Diagnostic['code'], DiagnosticSeverity> = {
  'bom': 'info',
  'line-truncated': 'warning', // the cut part may be only a comment
  'nul-byte': 'warning',
  'missing-colon': 'warning',
  'no-separator': 'error',
  'empty-key': 'error',
  'typo-key': 'warning',
  'unknown-directive': 'warning',
  'rule-outside-group': 'error',
  'body-truncated': 'warning',
};

const NOTICE_TEXT: Record<ParseNoticeCode, string> = {
  'bom': 'UTF-8 byte order mark skipped',
  'line-truncated': 'line longer than 16,663 bytes: the rest of it is ignored',
  'nul-byte': 'NUL byte: the rest of the line is ignored',
  'missing-colon': 'no colon: "key value" accepted as "key: value" (Google only)',
  'no-separator': 'no key/value separator: line ignored',
  'empty-key': 'empty key: line ignored',
  'typo-key': 'misspelt key accepted (Google only)',
};

const latin1Decoder = new TextDecoder('latin1');
const utf8Decoder = new TextDecoder('utf-8');
const SHORT_STRING = 512;

/** One char per byte. Short values (nearly all) skip TextDecoder's per-call cost. */
function latin1(bytes: Uint8Array): string {
  return bytes.length <= SHORT_STRING ? String.fromCharCode.apply(null, bytes as unknown as number[]) : latin1Decoder.decode(bytes);
}

/** UTF-8 (invalid sequences replaced); pure ASCII short values are decoded directly. */
function utf8(bytes: Uint8Array): string {
  if (bytes.length <= SHORT_STRING) {
    let ascii = true;
    for (let i = 0; i < bytes.length; i++) if (bytes[i] >= 0x80) { ascii = false; break; }
    if (ascii) return String.fromCharCode.apply(null, bytes as unknown as number[]);
  }
  return utf8Decoder.decode(bytes);
}

/** ASCII-only lower case (String.toLowerCase also folds non-ASCII letters, which the reference never does). */
export function asciiLowerCase(text: string): string {
  if (text === lastLowered) return lastLowerCase; // a crawler's agent, asked of every file
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code >= 0x41 && code <= 0x5a) {
      lastLowered = text;
      lastLowerCase = text.replace(/[A-Z]+/g, (run) => run.toLowerCase());
      return lastLowerCase;
    }
  }
  return text;
}
let lastLowered = '';
let lastLowerCase = '';

/** The product token the reference compares: the longest leading run of [A-Za-z_-]. */
export function productToken(value: string): string {
  let end = 0;
  while (end < value.length) {
    const code = value.charCodeAt(end);
    if ((code >= 0x61 && code <= 0x7a) || (code >= 0x41 && code <= 0x5a) || code === 0x2d || code === 0x5f) end++;
    else break;
  }
  return end === value.length ? value : value.slice(0, end);
}

/**
 * Why an agent passed to a matcher will only ever get the `*` group, or null when it is a product token.
 * The reference compares the agent verbatim with each user-agent line's product token, so `Googlebot/2.1`,
 * `Google bot` or a whole User-Agent header match no named group (the reference answers them the same way;
 * this only says so). Called once per agent by the commands (a warning on stderr) and by callers that take
 * agents from users. productToken(value) gives the token to use.
 */
export function agentTokenProblem(agent: string): string | null {
  if (agent === '') return 'the agent is empty: only the * group can apply';
  const token = productToken(agent);
  if (token === agent) return null;
  if (token === '') return `agent '${agent}' does not start with a product token (letters, '-' and '_'): only the * group can apply`;
  return `agent '${agent}' is not a product token: it matches no user-agent line, only the * group can apply (the token is '${token}')`;
}

class GroupCollector implements RobotsParseHandler {
  readonly groups: RobotsGroup[] = [];
  readonly sitemaps: string[] = [];
  readonly sitemapLines: { line: number; value: string }[] = [];
  readonly diagnostics: Diagnostic[] = [];
  readonly others: OtherDirective[] = [];
  /** The group open now (the parser numbers them; this keeps them in that order). */
  private current: RobotsGroup | null = null;

  userAgent(line: number, value: Uint8Array, facts: UserAgentFacts): void {
    if (facts.group === this.groups.length) {
      this.closeGroup();
      this.current = { agents: [], rules: [], others: [] };
      this.groups.push(this.current);
    }
    const text = latin1(value);
    (this.current as RobotsGroup).agents.push({ line, value: text, productToken: text.slice(0, facts.tokenLength), global: facts.global });
  }

  private rule(kind: 'allow' | 'disallow', line: number, value: Uint8Array, group: number): void {
    if (group < 0) {
      this.diagnostics.push({ line, severity: DIAGNOSTIC_SEVERITY['rule-outside-group'], code: 'rule-outside-group', message: `${kind} before any user-agent line: ignored` });
      return;
    }
    this.groups[group].rules.push({ kind, line, value });
  }

  allow(line: number, value: Uint8Array, group: number): void { this.rule('allow', line, value, group); }
  disallow(line: number, value: Uint8Array, group: number): void { this.rule('disallow', line, value, group); }

  sitemap(line: number, value: Uint8Array): void {
    const text = utf8(value);
    this.sitemaps.push(text);
    this.sitemapLines.push({ line, value: text });
  }

  unknown(line: number, key: Uint8Array, value: Uint8Array): void {
    const directive = new OtherDirective(line, key, value);
    this.others.push(directive);
    if (this.current !== null) this.current.others.push(directive);
    if (!KNOWN_OTHER_KEYS.some((known) => directive.isKey(known))) {
      this.diagnostics.push({ line, severity: DIAGNOSTIC_SEVERITY['unknown-directive'], code: 'unknown-directive', message: `unknown directive "${directive.key}": ignored` });
    }
  }

  /**
   * The open group's lists copied to their exact length: an array grown by push keeps room for 16 more
   * entries, which for a file naming 200,000 crawlers (a group each, one rule) was half the object model's
   * memory. Called when the next group opens and once after the last line (finish).
   */
  private closeGroup(): void {
    const group = this.current;
    if (group === null) return;
    group.agents = group.agents.slice();
    if (group.rules.length > 0) group.rules = group.rules.slice();
    if (group.others.length > 0) group.others = group.others.slice();
  }

  /** Called once after the parser's last event. */
  finish(): void {
    this.closeGroup();
  }

  notice(line: number, code: ParseNoticeCode): void {
    this.diagnostics.push({ line, severity: DIAGNOSTIC_SEVERITY[code], code, message: NOTICE_TEXT[code] });
  }
}

/** Non-standard keys that are collected (not flagged as unknown), lower case. */
const KNOWN_OTHER_KEYS = ['crawl-delay', 'host', 'clean-param', 'request-rate', 'visit-time', 'noindex', 'nofollow', 'content-signal', 'content-usage', 'license'];

/** Group selections a RobotsTxt keeps (see RobotsTxt.selection). */
const MAX_KEPT_SELECTIONS = 64;
/**
 * Compiled matchers a RobotsTxt keeps, one per agent query, least recently asked out (a matcher the caller
 * holds stays usable; asked for again, it is compiled again). Bounds a file asked for thousands of agents
 * (a batch of test cases, a crawler with many product tokens) to 64 compiled rule sets.
 */
export const MAX_KEPT_MATCHERS = 64;

/** Agent query: one product token or several (their groups' rules are pooled). */
export type AgentQuery = string | readonly string[];

function agentList(agents: AgentQuery): string[] {
  return agentsArgument(agents);
}

/** The key of an agent query in a file's kept matchers, selections and policies: its agents, lower case. Per query. */
function queryKey(list: readonly string[]): string {
  return list.length === 1 ? asciiLowerCase(list[0]) : list.map(asciiLowerCase).join('\n');
}


/** A parsed robots.txt. Made by parseRobots once per file; its matchers are compiled once per agent query. */
export class RobotsTxt {
  /** The mode the file was parsed in. */
  readonly mode: RobotsMode;
  /** Bytes of the body that were read (after the size limit). */
  readonly bytesRead: number;
  /** The bytes read: matchers are compiled from them, and groupsFor asks which groups apply (assembly/select.ts picks the groups). */
  private readonly body: Uint8Array;
  /** The body's length before the size limit, and the limit (for the body-truncated diagnostic). */
  private readonly fullLength: number;
  private readonly maxBytes: number;
  /**
   * The groups, sitemaps, other lines and diagnostics as objects: made by the event parser on first use. A
   * caller that only compiles matchers (a crawler's cache, many hosts, the Tester's matching) never pays for
   * an object per line: matchers are compiled from the bytes in WebAssembly.
   */
  private parsed: GroupCollector | null = null;
  private readonly matchers = new Map<string, RobotsMatcher>();
  private closed = false;
  // made on first use (most files are asked for one agent's matcher, and never for these): a crawler meets
  // thousands of files a second
  private byRulesKept: Map<string, RobotsMatcher> | null = null;
  private selectionsKept: Map<string, { groups: Uint32Array; byName: boolean }> | null = null;
  private usagePoliciesKept: Map<string, UsagePolicy> | null = null;
  /** The kept matchers by the groups they were compiled from (see sameRulesMatcher). */
  private get byRules(): Map<string, RobotsMatcher> {
    return (this.byRulesKept ??= new Map());
  }
  private get selections(): Map<string, { groups: Uint32Array; byName: boolean }> {
    return (this.selectionsKept ??= new Map());
  }
  /** Usage policies by agent query (usage()), as many as matchers are kept. */
  private get usagePolicies(): Map<string, UsagePolicy> {
    return (this.usagePoliciesKept ??= new Map());
  }

  constructor(body: Uint8Array, options: RobotsOptions = {}) {
    const mode = options.mode ?? 'google';
    if (mode !== 'google' && mode !== 'rfc') throw new RobotsError('INVALID_ARGUMENT', `unknown mode "${String(mode)}" (expected google or rfc)`);
    const maxBytes = maxBytesArgument(options.maxBytes, DEFAULT_MAX_BYTES);
    const read = body.subarray(0, bytesToRead(body.length, maxBytes));
    this.mode = mode;
    this.bytesRead = read.length;
    this.body = read;
    this.fullLength = body.length;
    this.maxBytes = maxBytes;
  }

  /** True when the body was longer than its size limit (maxBytes): the body-truncated diagnostic. */
  get truncated(): boolean {
    return this.body.length < this.fullLength;
  }

  private get view(): GroupCollector {
    if (this.parsed === null) {
      const collector = new GroupCollector();
      parseRobotsBody(this.body, this.mode, collector);
      collector.finish();
      if (this.body.length < this.fullLength) {
        collector.diagnostics.push({ line: 0, severity: DIAGNOSTIC_SEVERITY['body-truncated'], code: 'body-truncated', message: `file is ${this.fullLength} bytes: only the first ${this.maxBytes} are read` });
      }
      this.parsed = collector;
    }
    return this.parsed;
  }

  /** Groups in file order. */
  get groups(): readonly RobotsGroup[] {
    return this.view.groups;
  }
  /** Sitemap URLs in file order (values as written, decoded as UTF-8). */
  get sitemaps(): readonly string[] {
    return this.view.sitemaps;
  }
  /** The sitemap lines with their line numbers (lint). */
  get sitemapLines(): readonly { line: number; value: string }[] {
    return this.view.sitemapLines;
  }
  /** Every non-standard line (crawl-delay, host, clean-param, ...) in file order, in a group or not. */
  get otherDirectives(): readonly OtherDirective[] {
    return this.view.others;
  }
  /** What the parser repaired, ignored or accepted leniently. */
  get diagnostics(): readonly Diagnostic[] {
    return this.view.diagnostics;
  }

  /** True when some user-agent line (not `*`) names one of the agents: then `*` groups are ignored for them. */
  names(agents: AgentQuery): boolean {
    return this.selection(agents).byName;
  }

  /**
   * The groups that decide for an agent query: its own (pooled, in file order), or the `*` groups when no
   * user-agent line names it. Chosen by the compile's own selection (assembly/select.ts), so they are the
   * groups whose rules the matcher holds.
   */
  groupsFor(agents: AgentQuery): RobotsGroup[] {
    return Array.from(this.selection(agents).groups, (group) => this.groups[group]);
  }

  /**
   * The compile's group selection for an agent query: one pass over the body, then kept (up to
   * MAX_KEPT_SELECTIONS queries, then all forgotten at once), so that a crawler asking crawlDelay per URL
   * pays the pass once per agent.
   */
  private selection(agents: AgentQuery): { groups: Uint32Array; byName: boolean } {
    const list = agentList(agents);
    const key = queryKey(list);
    let selection = this.selections.get(key);
    if (selection === undefined) {
      selection = core().bodies.selectGroups(this.body, encodeAgents(list), this.mode === 'rfc');
      if (this.selections.size >= MAX_KEPT_SELECTIONS) this.selections.clear();
      this.selections.set(key, selection);
    }
    return selection;
  }

  /**
   * The compiled matcher for an agent query, compiled on first use and kept (the last MAX_KEPT_MATCHERS
   * queries). Call once, then match many URLs.
   */
  matcher(agents: AgentQuery): RobotsMatcher {
    if (this.closed) throw new RobotsError('CLOSED', 'this RobotsTxt was closed');
    const list = agentList(agents);
    const key = queryKey(list);
    let matcher = this.matchers.get(key);
    if (matcher === undefined || matcher.closed) {
      if (matcher !== undefined) this.matchers.delete(key); // closed by whoever held it: a new one
      matcher = this.sameRulesMatcher(list) ?? new RobotsMatcher({ body: this.body, rfc: this.mode === 'rfc' }, list);
      if (this.matchers.size >= MAX_KEPT_MATCHERS) this.matchers.delete(this.matchers.keys().next().value as string);
    } else {
      this.matchers.delete(key); // most recently asked last
    }
    this.matchers.set(key, matcher);
    return matcher;
  }

  /**
   * From the file's second agent query on: a kept matcher of another query that selects the same groups
   * (its rules are the same: agents the file does not name all get the `*` groups), or null. Its groups are
   * remembered for the next query. The first query pays no selection pass (a one-off check answers from
   * the body in one pass).
   */
  private sameRulesMatcher(list: string[]): RobotsMatcher | null {
    if (this.matchers.size === 0) return null;
    const rulesKey = (query: readonly string[]): string => {
      const { groups, byName } = this.selection(query);
      return `${byName ? 1 : 0}:${groups.join(',')}`;
    };
    if (this.byRules.size === 0) {
      for (const kept of this.matchers.values()) if (!kept.closed) this.byRules.set(rulesKey(kept.agents), kept);
    }
    const rules = rulesKey(list);
    const same = this.byRules.get(rules);
    if (same !== undefined && !same.closed) return same;
    const made = new RobotsMatcher({ body: this.body, rfc: this.mode === 'rfc' }, list);
    if (this.byRules.size >= MAX_KEPT_MATCHERS) this.byRules.delete(this.byRules.keys().next().value as string);
    this.byRules.set(rules, made);
    return made;
  }

  /**
   * Closes the matchers this file made (their WebAssembly memory goes back, see RobotsMatcher.close);
   * matcher() and isAllowed() then throw CLOSED, while groups, sitemaps and diagnostics stay readable.
   * Idempotent; also `robots[Symbol.dispose]()` where the runtime has it.
   */
  close(): void {
    this.closed = true;
    for (const policy of this.usagePoliciesKept?.values() ?? []) policy.close();
    this.usagePoliciesKept = this.byRulesKept = this.selectionsKept = null;
    for (const matcher of this.matchers.values()) matcher.close();
    this.matchers.clear();
  }

  /** One verdict: may these agents fetch url? For many URLs use matcher(agents).checkBatch / checkLines. */
  isAllowed(url: string | URL | Uint8Array, agents: AgentQuery): boolean {
    return this.matcher(agents).isAllowed(urlOrBytesArgument(url, 'url'));
  }

  /**
   * The AI usage preferences for one URL and agent (src/core/usage.ts): the crawl verdict (unchanged), each
   * Content-Usage category, the Content-Signal values and the policy tokens' verdicts, with their lines.
   * Per URL; for many URLs of one category, usagePolicy(agent).usageLines.
   */
  usage(url: string | URL | Uint8Array, agent: string, options: UsageOptions = {}): UsageAnswer {
    const checked = urlOrBytesArgument(url, 'url');
    return this.usagePolicy(agent).answer(checked, agent, options);
  }

  /**
   * One purpose's verdict for a URL (train-ai, search, ai-input, or a Content-Usage category): its
   * Content-Usage rule, the HTTP Content-Usage header given, and its Content-Signal key, the more restrictive
   * winning (PURPOSE_RULE), with each statement; unknown where the agent may not fetch the URL. What check
   * --usage and audit answer, per URL; with `page` (a fetched page's pageRules(...).ai), its noai and
   * content-signal meta tag are weighed too. Called per URL.
   */
  mayUse(url: string | URL | Uint8Array, agent: string, purpose: string, options: Pick<UsageOptions, 'header'> & { page?: PageAiStatements | null } = {}): PurposeAnswer {
    const checked = urlOrBytesArgument(url, 'url');
    optionsArgument(options, ['header', 'page'], 'mayUse options');
    return this.usagePolicy(agent).mayUse(checked, agent, purpose, options.header ?? null, options.page ?? null);
  }

  /** The usage policy of an agent query, made on first use and kept (as many as matchers). Called once per agent query. */
  usagePolicy(agents: AgentQuery): UsagePolicy {
    if (this.closed) throw new RobotsError('CLOSED', 'this RobotsTxt was closed');
    const list = agentList(agents);
    const key = queryKey(list);
    let policy = this.usagePolicies.get(key);
    if (policy === undefined) {
      const firstAgentLine = this.groups[0]?.agents[0]?.line ?? Infinity;
      policy = new UsagePolicy({
        rfc: this.mode === 'rfc',
        groupLines: this.groupsFor(list).flatMap((group) => group.others),
        fileWideLines: this.otherDirectives.filter((other) => other.line < firstAgentLine),
        // RSL's License: is site-wide wherever it stands (reported, never judged)
        licenses: this.otherDirectives.filter((other) => other.isKey('license')).map((other) => ({ url: other.value.trim(), line: other.line })),
        crawl: () => this.matcher(list),
        token: (token) => ({ matcher: this.matcher(token), named: this.names(token), grouped: this.groupsFor(token).length > 0 }),
      });
      if (this.usagePolicies.size >= MAX_KEPT_MATCHERS) {
        const oldest = this.usagePolicies.keys().next().value as string;
        this.usagePolicies.get(oldest)?.close();
        this.usagePolicies.delete(oldest);
      }
      this.usagePolicies.set(key, policy);
    }
    return policy;
  }

  /** Crawl-delay (seconds) of the group that applies to the agents, or null when none is given or it is not a number. */
  crawlDelay(agents: AgentQuery): number | null {
    for (const group of this.groupsFor(agents)) {
      for (const other of group.others) {
        if (!other.isKey('crawl-delay')) continue;
        const seconds = Number(other.value);
        return other.value.trim() !== '' && Number.isFinite(seconds) && seconds >= 0 ? seconds : null;
      }
    }
    return null;
  }

  /** Values of every line with this key (case-insensitive), e.g. `host` or `clean-param`, in file order. */
  directiveValues(key: string): string[] {
    const wanted = asciiLowerCase(key);
    return this.otherDirectives.filter((other) => other.isKey(wanted)).map((other) => other.value);
  }
}

addDispose(RobotsTxt.prototype);

const encoder = new TextEncoder();

/** Parses a robots.txt body (bytes are the truth; a string is UTF-8 encoded once). Never throws on the body. Called once per file. */
export function parseRobots(body: RobotsBodyInput, options: RobotsOptions = {}): RobotsTxt {
  return new RobotsTxt(bodyBytes(body), optionsArgument(options, ['mode', 'maxBytes'], 'parseRobots options'));
}

/** What a robots.txt body may be given as: bytes (Uint8Array, Buffer, ArrayBuffer, DataView) or a string (UTF-8 encoded). */
export type RobotsBodyInput = Uint8Array | ArrayBuffer | DataView | string;

/**
 * The bytes of a body as a plain Uint8Array view (Node's Buffer#subarray is several times slower per call).
 * Anything else (an array of numbers, an object, a number, null) is an INVALID_ARGUMENT, never an empty file:
 * an empty file allows everything, so reading junk as one would fail open.
 */
function bodyBytes(body: unknown): Uint8Array {
  if (typeof body === 'string') return encoder.encode(body);
  if (body instanceof Uint8Array || body instanceof DataView) return new Uint8Array(body.buffer, body.byteOffset, body.byteLength);
  const tag = Object.prototype.toString.call(body);
  if (tag === '[object ArrayBuffer]' || tag === '[object SharedArrayBuffer]') return new Uint8Array(body as ArrayBuffer);
  if (tag === '[object Uint8Array]' || tag === '[object DataView]') {
    const view = body as ArrayBufferView; // from another realm (a vm context, a worker's structured clone)
    return new Uint8Array(view.buffer, view.byteOffset, view.byteLength);
  }
  const what = body === null ? 'null' : Array.isArray(body) ? 'an array' : ArrayBuffer.isView(body) ? (body as object).constructor.name : typeof body;
  throw new RobotsError('INVALID_ARGUMENT', `a robots.txt body must be a Uint8Array, ArrayBuffer, DataView or string, got ${what}`);
}


